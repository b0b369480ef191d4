// SPDX-License-Identifier: Apache-2.0
// bellperson's .vk and .params byte formats (docs/spec/groth16.md §2–§3,
// docs/notes/params-format.md): all points uncompressed ZCash encodings, counts u32 big-endian.
// Readers take untrusted bytes and return status (naming section and index: "l[12345]:
// not_in_subgroup ..."); params_file maps a file and decodes sections in parallel chunks without
// ever holding the whole file in memory.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/mmap_file.hpp"
#include "base/progress.hpp"
#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

// ---- layout constants ---------------------------------------------------------------------------

inline constexpr size_t G1_BYTES = 96;    ///< uncompressed G1
inline constexpr size_t G2_BYTES = 192;   ///< uncompressed G2
inline constexpr size_t COUNT_BYTES = 4;  ///< u32 big-endian vector length

/// alpha_g1 ‖ beta_g1 ‖ beta_g2 ‖ gamma_g2 ‖ delta_g1 ‖ delta_g2, then the ic count.
inline constexpr size_t VK_ALPHA_G1_OFFSET = 0;
inline constexpr size_t VK_BETA_G1_OFFSET = 96;
inline constexpr size_t VK_BETA_G2_OFFSET = 192;
inline constexpr size_t VK_GAMMA_G2_OFFSET = 384;
inline constexpr size_t VK_DELTA_G1_OFFSET = 576;
inline constexpr size_t VK_DELTA_G2_OFFSET = 672;
inline constexpr size_t VK_IC_COUNT_OFFSET = 864;
inline constexpr size_t VK_IC_OFFSET = 868;
static_assert(VK_BETA_G1_OFFSET == VK_ALPHA_G1_OFFSET + G1_BYTES);
static_assert(VK_BETA_G2_OFFSET == VK_BETA_G1_OFFSET + G1_BYTES);
static_assert(VK_GAMMA_G2_OFFSET == VK_BETA_G2_OFFSET + G2_BYTES);
static_assert(VK_DELTA_G1_OFFSET == VK_GAMMA_G2_OFFSET + G2_BYTES);
static_assert(VK_DELTA_G2_OFFSET == VK_DELTA_G1_OFFSET + G1_BYTES);
static_assert(VK_IC_COUNT_OFFSET == VK_DELTA_G2_OFFSET + G2_BYTES);
static_assert(VK_IC_OFFSET == VK_IC_COUNT_OFFSET + COUNT_BYTES);

/// Size of a .vk file (and of the vk block of a .params file): 868 + 96·ic_len.
constexpr uint64_t vk_file_size(uint64_t ic_len) {
  return VK_IC_OFFSET + G1_BYTES * ic_len;
}
static_assert(vk_file_size(328) == 32'356);  // PoRep 32 GiB, docs/spec/groth16.md §2

/// Size of a .params file with these vector lengths.
constexpr uint64_t params_file_size(uint64_t ic, uint64_t h, uint64_t l, uint64_t a, uint64_t b) {
  return vk_file_size(ic) + 5 * COUNT_BYTES + G1_BYTES * (h + l + a + b) + G2_BYTES * b;
}
// docs/spec/groth16.md §3, 32 GiB PoRep: 47,373,928,632 bytes.
static_assert(params_file_size(328, (uint64_t(1) << 27) - 1, 130'169'893, 328 + 129'753'292,
                               1 + 33'112'281) == 47'373'928'632ull);

// ---- options and shapes -------------------------------------------------------------------------

/// How much each decoded point is checked. Every mode rejects wrong flag bits, non-canonical
/// coordinates (>= p) and the point at infinity: those are byte checks that cost nothing next to
/// the Montgomery conversion, and letting x >= p through would hand the MSM an out-of-range
/// field element. Only the algebraic checks differ.
enum class point_checks {
  full,  ///< curve equation and order-r subgroup, point by point (default; exact, slowest)
  /// Curve equation point by point; the subgroup for ranges of points at once: 64 sums of random
  /// subsets (fresh OS randomness) each checked with one subgroup test. A range that fails is
  /// re-checked point by point, so a bad point is named exactly as under `full`. A point outside
  /// the subgroup passes with probability at most 2^-64 (docs/notes/params-format.md, "Batched
  /// subgroup check"); about 10x cheaper than `full`. The provers' default.
  batched,
  on_curve_only,  ///< curve equation, no subgroup check (bellperson/blstrs "unchecked" read)
  none,           ///< neither: only for files already verified by digest (fastest)
};
std::string_view to_string(point_checks c);

/// The six point vectors of a .params file, in file order. ic is the vk's input vector.
enum class params_section : uint8_t { ic = 0, h, l, a, b_g1, b_g2 };
inline constexpr size_t NUM_PARAMS_SECTIONS = 6;
std::string_view to_string(params_section s);

/// Where a section's points are: `offset` is the first point's byte (its u32 count is the 4 bytes
/// before it), `point_bytes` is 96 (G1) or 192 (G2 for b_g2).
struct section_info {
  params_section id = params_section::ic;
  uint64_t offset = 0;
  uint64_t count = 0;
  size_t point_bytes = G1_BYTES;
  uint64_t end() const { return offset + count * point_bytes; }
};

// parameters_shape and the rule that turns it into section counts (query_sizes_for) are in
// groth16/keys.hpp.

// ---- .vk ----------------------------------------------------------------------------------------

/// Exactly 868 + 96·ic bytes. is_infinity when any point is the identity (bellperson cannot read it
/// back); invalid_argument when ic has more than 2^32 − 1 entries.
result<std::vector<uint8_t>> vk_to_bytes(const verifying_key& vk);
status write_vk(const verifying_key& vk, std::ostream& out);
/// Writes path.tmp and renames it over path, so a failed write leaves no partial file.
status write_vk(const verifying_key& vk, const std::string& path);

/// The bytes must be exactly one vk: bad_length if shorter than the 868-byte header,
/// size_mismatch if the ic count disagrees with the length.
result<verifying_key> vk_from_bytes(std::span<const uint8_t> bytes,
                                    point_checks checks = point_checks::full);
result<verifying_key> read_vk(const std::string& path, point_checks checks = point_checks::full);

// ---- .params writer -----------------------------------------------------------------------------

/// Streams the file in chunks of `chunk_points` points; each chunk is encoded in parallel on
/// `pool` and written before the next, so memory stays O(chunk). Points at infinity → is_infinity
/// naming the section and index ("h[7]: ..."); a vector longer than 2^32 − 1 → invalid_argument.
/// The stream form may leave a partial file behind on error; the path form writes path.tmp and
/// renames it on success.
status write_params(const parameters& p, std::ostream& out, thread_pool& pool,
                    size_t chunk_points = size_t(1) << 16);
status write_params(const parameters& p, const std::string& path, thread_pool& pool,
                    size_t chunk_points = size_t(1) << 16);
/// The whole file in memory (tests and small circuits).
result<std::vector<uint8_t>> params_to_bytes(const parameters& p, thread_pool& pool);

// ---- .params reader -----------------------------------------------------------------------------

/// A parsed .params file: the header and the six section offsets are read at open (six u32 reads,
/// no point touched), the points are decoded on request. Either owns an mmap_file or views bytes
/// the caller keeps alive (from_bytes). Thread-safe for concurrent const calls.
class params_file {
 public:
  /// Maps and parses `path`. io_error when it cannot be mapped; bad_length when it ends inside the
  /// fixed vk header or a count; size_mismatch when the counts do not add up to the file size
  /// exactly (truncated section, count too large, trailing bytes).
  static result<params_file> open(const std::string& path, const mmap_options& opt = {});
  /// Same checks over caller-owned bytes, which must outlive the params_file.
  static result<params_file> from_bytes(std::span<const uint8_t> bytes);

  params_file() = default;
  params_file(params_file&&) noexcept = default;
  params_file& operator=(params_file&&) noexcept = default;

  uint64_t file_size() const { return bytes_.size(); }
  const section_info& section(params_section s) const { return sections_[size_t(s)]; }
  uint64_t count(params_section s) const { return section(s).count; }
  /// The query sizes the file holds (its section counts).
  query_sizes sizes() const;
  std::span<const uint8_t> bytes() const { return bytes_; }
  /// The raw encoding of one section (e.g. to copy it to the device undecoded).
  std::span<const uint8_t> section_bytes(params_section s) const;

  /// The vk block: six single points and ic (ic decoded on `pool`; the first form uses the
  /// calling thread only).
  result<verifying_key> load_vk(point_checks checks = point_checks::full) const;
  result<verifying_key> load_vk(point_checks checks, thread_pool& pool) const;

  /// Decodes points [begin, begin + count) of a G1 section (ic, h, l, a, b_g1) into out[0, count),
  /// Montgomery affine, in parallel chunks on `pool`. On failure the status names the lowest
  /// failing index ("a[17]: not_on_curve ..."); out's contents are then unspecified.
  status decode(params_section s, uint64_t begin, uint64_t count, std::span<g1_affine_t> out,
                point_checks checks, thread_pool& pool) const;
  /// The same for the G2 section b_g2.
  status decode(params_section s, uint64_t begin, uint64_t count, std::span<g2_affine_t> out,
                point_checks checks, thread_pool& pool) const;

  /// Drops the mapping's pages of points [begin, begin + count) from this process (MADV_DONTNEED)
  /// once they are decoded, keeping RSS near the decoded output only. No-op for from_bytes views.
  status release(params_section s, uint64_t begin, uint64_t count) const;

  /// Everything, as in-memory parameters (size ≈ file size; for files that fit in RAM). When
  /// `progress` is set it is called on the calling thread as ("load", bytes decoded, query bytes)
  /// after each chunk of the h, l, a, b_g1, b_g2 sections (query_bytes() in all).
  result<parameters> load_all(point_checks checks, thread_pool& pool,
                              const progress_fn& progress = {}) const;

  /// Decodes every point with `checks` into scratch chunks and keeps nothing (memory O(chunk)):
  /// the first bad point's status, as load_all would report it. To re-validate a file after a
  /// failure without a second copy of the parameters.
  status check_points(point_checks checks, thread_pool& pool) const;

  /// The bytes of the h, l, a, b_g1 and b_g2 sections together: the unit of load progress.
  uint64_t query_bytes() const;

  /// Checks the counts against a circuit: ic = num_inputs, h = m − 1, l = num_aux,
  /// a = num_inputs + a_aux, b_g1 = b_g2 = b_input + b_aux. size_mismatch naming the first section
  /// (file order) that disagrees; invalid_argument if m is not a power of two >= 2.
  status validate_against(const parameters_shape& expected) const;

 private:
  status parse();

  mmap_file map_;
  std::span<const uint8_t> bytes_;
  std::array<section_info, NUM_PARAMS_SECTIONS> sections_{};
};

/// The expected counts as a function of the shape (what validate_against compares with): the
/// query_sizes_for(shape) in section order.
std::array<uint64_t, NUM_PARAMS_SECTIONS> expected_counts(const parameters_shape& shape);

}  // namespace cuzk::groth16
