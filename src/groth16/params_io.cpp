// SPDX-License-Identifier: Apache-2.0
// .vk / .params reading and writing. Points go through the ec ZCash codec (ec/serialization.hpp);
// this file adds the container: u32 big-endian counts, exact size accounting, section/index error
// messages, and chunked parallel encode/decode so that multi-GB files stream.
#include "groth16/params_io.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdio>
#include <functional>
#include <limits>
#include <ostream>

#include "base/file_io.hpp"
#include "base/os_random.hpp"
#include "ec/serialization.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::groth16 {
namespace {

using ec::fp_t;

constexpr uint64_t NO_INDEX = std::numeric_limits<uint64_t>::max();
constexpr uint64_t MAX_COUNT = std::numeric_limits<uint32_t>::max();

constexpr const char* SECTION_NAMES[NUM_PARAMS_SECTIONS] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

constexpr size_t section_point_bytes(size_t s) {
  return s == size_t(params_section::b_g2) ? G2_BYTES : G1_BYTES;
}

uint32_t load_be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}
void store_be32(uint32_t v, uint8_t* p) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

void atomic_min(std::atomic<uint64_t>& a, uint64_t v) {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (v < cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
  }
}

// ---- one point ---------------------------------------------------------------------------------

template <class Point>
constexpr size_t point_size() {
  return std::is_same_v<Point, g1_affine_t> ? G1_BYTES : G2_BYTES;
}

result<g1_affine_t> codec_decode(const uint8_t* in, const g1_affine_t*, ec::decode_options o) {
  return ec::g1_from_uncompressed(std::span<const uint8_t>(in, G1_BYTES), o);
}
result<g2_affine_t> codec_decode(const uint8_t* in, const g2_affine_t*, ec::decode_options o) {
  return ec::g2_from_uncompressed(std::span<const uint8_t>(in, G2_BYTES), o);
}
void codec_encode(const g1_affine_t& p, uint8_t* out) {
  ec::g1_to_uncompressed(p, std::span<uint8_t, G1_BYTES>(out, G1_BYTES));
}
void codec_encode(const g2_affine_t& p, uint8_t* out) {
  ec::g2_to_uncompressed(p, std::span<uint8_t, G2_BYTES>(out, G2_BYTES));
}

// checks = none: the common well-formed case only (flag bits clear, both coordinates < p, not the
// all-zero pair that means infinity in memory), converted straight to Montgomery form without the
// curve equation. Anything else returns false and goes through the full codec, which then names
// the exact problem, so error codes never depend on the mode except for the skipped checks.
// Coordinate order is the ZCash one (docs/spec/groth16.md §1): x ‖ y, an Fp2 as c1 ‖ c0.
bool raw_coordinates(const uint8_t* in, g1_affine_t& p) {
  if (in[0] & 0xe0) return false;
  return fp_t::from_bytes_be(in, p.x) && fp_t::from_bytes_be(in + 48, p.y) && !p.is_infinity();
}
bool raw_coordinates(const uint8_t* in, g2_affine_t& p) {
  if (in[0] & 0xe0) return false;
  return fp_t::from_bytes_be(in, p.x.c1) && fp_t::from_bytes_be(in + 48, p.x.c0) &&
         fp_t::from_bytes_be(in + 96, p.y.c1) && fp_t::from_bytes_be(in + 144, p.y.c0) &&
         !p.is_infinity();
}

/// Decodes one point; on failure returns the status with `name` (e.g. "l[12]") in front.
template <class Point>
status decode_point(const uint8_t* in, point_checks checks, const std::string_view name, Point& out,
                    bool want_message = true) {
  if (checks == point_checks::none && raw_coordinates(in, out)) return {};
  // A single point gets the exact test under `batched` too (the batch is for ranges).
  const ec::decode_options opt{.subgroup_check =
                                   checks == point_checks::full || checks == point_checks::batched};
  auto r = codec_decode(in, static_cast<const Point*>(nullptr), opt);
  status_code code = status_code::ok;
  std::string detail;
  if (!r.ok()) {
    code = r.error().code();
    if (want_message) detail = r.error().message();
  } else if (r->is_infinity()) {
    code = status_code::is_infinity;
    if (want_message) detail = "point at infinity is not allowed in parameters";
  } else {
    out = *r;
    return {};
  }
  if (!want_message) return {code, {}};
  std::string msg(name);
  msg += ": ";
  msg += to_string(code);
  msg += " (" + detail + ")";
  return {code, std::move(msg)};
}

std::string indexed_name(std::string_view section, uint64_t index) {
  return std::string(section) + "[" + std::to_string(index) + "]";
}

// ---- batched subgroup check ---------------------------------------------------------------------
// Points on the curve E(F) = G ⊕ H (G the order-r subgroup, H the cofactor part): P_i = Q_i + T_i.
// A sum S = Σ b_i·P_i over a random subset (b_i uniform bits) is in G iff Σ b_i·T_i = 0. If some
// T_j ≠ 0, then for any fixed other bits the two values of b_j give torsion sums that differ by
// T_j, so at most one of them is 0: S ∈ G with probability ≤ 1/2. Independent rounds multiply:
// a range with a point outside G passes all SUBGROUP_ROUNDS with probability ≤ 2^-64. The bits come
// from the OS CSPRNG after the file is mapped, so the file's author cannot aim at them. Unlike
// random 64-bit coefficients, 0/1 ones leave no small-order escape (H has points of order 3).
// Cost: each point is added (XYZZ mixed addition, 10 multiplications) to the ~32 of the 64 round
// sums whose bit it has, about a third of the per-point endomorphism test; one test per round per
// batch.
constexpr unsigned SUBGROUP_ROUNDS = 64;
/// Points per batch: enough that the 64 subgroup tests per batch are a few percent of the
/// additions.
constexpr size_t SUBGROUP_BATCH = size_t(1) << 13;

/// The index of the first batch of `pts` (all on the curve) whose random subset sums leave the
/// subgroup, NO_INDEX when every batch passes; io_error when the OS gives no randomness.
template <class Point>
result<uint64_t> first_batch_outside_subgroup(std::span<const Point> pts, thread_pool& pool) {
  using xyzz = ec::xyzz_t<typename Point::field_t>;
  const size_t batches = (pts.size() + SUBGROUP_BATCH - 1) / SUBGROUP_BATCH;
  std::atomic<uint64_t> bad{NO_INDEX};
  std::atomic<bool> no_random{false};
  static_assert(SUBGROUP_ROUNDS == 64, "one random word per point: bit k is round k");
  pool.parallel_for(batches, [&](size_t c) {
    if (c > bad.load(std::memory_order_relaxed) || no_random.load()) return;
    const size_t begin = c * SUBGROUP_BATCH, n = std::min(SUBGROUP_BATCH, pts.size() - begin);
    std::vector<uint64_t> rounds_of(n);
    if (!fill_os_random({reinterpret_cast<uint8_t*>(rounds_of.data()), n * sizeof(uint64_t)})
             .ok()) {
      no_random = true;
      return;
    }
    std::array<xyzz, SUBGROUP_ROUNDS> sum;
    sum.fill(xyzz::infinity());
    for (size_t i = 0; i < n; ++i) {
      for (uint64_t w = rounds_of[i]; w != 0; w &= w - 1)
        sum[std::countr_zero(w)] += pts[begin + i];
    }
    for (const xyzz& s : sum) {
      const auto j = s.to_jacobian();
      if (!j.is_infinity() && !ec::in_subgroup(j)) {
        atomic_min(bad, c);
        return;
      }
    }
  });
  if (no_random) return status(status_code::io_error, "no OS randomness for the subgroup check");
  return bad.load();
}

/// Decodes `count` consecutive encodings starting at `in` (global index `first`) into out, in
/// parallel; reports the lowest failing index. Chunks that start past a known failure are
/// skipped, and every chunk stops at its own first failure, so the minimum is exact.
template <class Point>
status decode_range(const uint8_t* in, uint64_t first, uint64_t count, Point* out,
                    point_checks checks, std::string_view section, thread_pool& pool) {
  constexpr size_t B = point_size<Point>();
  if (checks == point_checks::batched) {
    if (status s = decode_range(in, first, count, out, point_checks::on_curve_only, section, pool);
        !s.ok())
      return s;
    auto batch = first_batch_outside_subgroup(std::span<const Point>(out, size_t(count)), pool);
    if (!batch.ok()) return batch.error();
    if (*batch == NO_INDEX) return {};
    // Some point of that batch is outside the subgroup: name the lowest one exactly.
    const uint64_t b = *batch * SUBGROUP_BATCH, n = std::min<uint64_t>(SUBGROUP_BATCH, count - b);
    if (status s =
            decode_range(in + b * B, first + b, n, out + b, point_checks::full, section, pool);
        !s.ok())
      return s;
    return {status_code::internal, indexed_name(section, first + b) +
                                       ": a random subset sum left the subgroup but every point "
                                       "of the batch passes alone"};
  }
  std::atomic<uint64_t> bad{NO_INDEX};
  if (count == 0) return {};
  pool.parallel_range(
      size_t(count),
      [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
          if (i > bad.load(std::memory_order_relaxed)) return;
          if (!decode_point(in + i * B, checks, section, out[i], false).ok()) {
            atomic_min(bad, i);
            return;
          }
        }
      },
      /*min_chunk=*/512);
  const uint64_t i = bad.load();
  if (i == NO_INDEX) return {};
  Point scratch;
  return decode_point(in + i * B, checks, indexed_name(section, first + i), scratch);
}

// ---- output sinks ------------------------------------------------------------------------------

using sink_fn = std::function<bool(const uint8_t*, size_t)>;

/// Encodes `points` in chunks; each chunk encoded on the pool, then handed to the sink.
template <class Point>
status write_section(const std::vector<Point>& points, std::string_view name, const sink_fn& sink,
                     thread_pool& pool, size_t chunk_points, std::vector<uint8_t>& buf) {
  constexpr size_t B = point_size<Point>();
  if (points.size() > MAX_COUNT) {
    return {
        status_code::invalid_argument,
        std::string(name) + ": " + std::to_string(points.size()) + " points exceed the u32 count"};
  }
  uint8_t count_bytes[COUNT_BYTES];
  store_be32(uint32_t(points.size()), count_bytes);
  if (!sink(count_bytes, COUNT_BYTES)) {
    return {status_code::io_error, std::string(name) + ": write failed"};
  }
  chunk_points = std::max<size_t>(chunk_points, 1);
  for (size_t start = 0; start < points.size(); start += chunk_points) {
    const size_t n = std::min(chunk_points, points.size() - start);
    buf.resize(n * B);
    std::atomic<uint64_t> bad{NO_INDEX};
    pool.parallel_range(
        n,
        [&](size_t b, size_t e) {
          for (size_t i = b; i < e; ++i) {
            const Point& p = points[start + i];
            if (p.is_infinity()) {
              atomic_min(bad, i);
              return;
            }
            codec_encode(p, buf.data() + i * B);
          }
        },
        /*min_chunk=*/1024);
    if (const uint64_t i = bad.load(); i != NO_INDEX) {
      return {status_code::is_infinity,
              indexed_name(name, start + i) + ": is_infinity (bellperson rejects it on read)"};
    }
    if (!sink(buf.data(), buf.size())) {
      return {status_code::io_error, std::string(name) + ": write failed"};
    }
  }
  return {};
}

/// The fixed vk points in file order, with their names.
struct vk_single {
  const char* name;
  size_t offset;
  bool g2;
};
constexpr vk_single VK_SINGLES[] = {
    {"alpha_g1", VK_ALPHA_G1_OFFSET, false}, {"beta_g1", VK_BETA_G1_OFFSET, false},
    {"beta_g2", VK_BETA_G2_OFFSET, true},    {"gamma_g2", VK_GAMMA_G2_OFFSET, true},
    {"delta_g1", VK_DELTA_G1_OFFSET, false}, {"delta_g2", VK_DELTA_G2_OFFSET, true},
};

/// VK_SINGLES[i] as a member of vk (VK = verifying_key or const verifying_key).
template <class VK>
auto g1_field(VK& vk, size_t i) -> decltype(&vk.alpha_g1) {
  switch (i) {
    case 0:
      return &vk.alpha_g1;
    case 1:
      return &vk.beta_g1;
    default:
      return &vk.delta_g1;
  }
}
template <class VK>
auto g2_field(VK& vk, size_t i) -> decltype(&vk.beta_g2) {
  switch (i) {
    case 2:
      return &vk.beta_g2;
    case 3:
      return &vk.gamma_g2;
    default:
      return &vk.delta_g2;
  }
}

/// Decodes the vk block whose ic count (already validated against the length) is `ic_count`.
result<verifying_key> decode_vk_block(const uint8_t* in, uint64_t ic_count, point_checks checks,
                                      thread_pool& pool) {
  verifying_key vk;
  for (size_t i = 0; i < std::size(VK_SINGLES); ++i) {
    const vk_single& f = VK_SINGLES[i];
    status s = f.g2 ? decode_point(in + f.offset, checks, f.name, *g2_field(vk, i))
                    : decode_point(in + f.offset, checks, f.name, *g1_field(vk, i));
    if (!s.ok()) return s;
  }
  vk.ic.resize(size_t(ic_count));
  status s = decode_range(in + VK_IC_OFFSET, 0, ic_count, vk.ic.data(), checks, "ic", pool);
  if (!s.ok()) return s;
  return vk;
}

/// Checks that `n` bytes hold a vk header and returns its ic count.
result<uint64_t> vk_ic_count(std::span<const uint8_t> bytes) {
  if (bytes.size() < VK_IC_OFFSET) {
    return status(status_code::bad_length,
                  "vk: " + std::to_string(bytes.size()) + " bytes, the fixed header needs 868");
  }
  return uint64_t(load_be32(bytes.data() + VK_IC_COUNT_OFFSET));
}

status write_vk_to(const verifying_key& vk, const sink_fn& sink) {
  auto bytes = vk_to_bytes(vk);
  if (!bytes.ok()) return bytes.error();
  if (!sink(bytes->data(), bytes->size())) return {status_code::io_error, "vk: write failed"};
  return {};
}

status write_params_to(const parameters& p, const sink_fn& sink, thread_pool& pool,
                       size_t chunk_points) {
  status s = write_vk_to(p.vk, sink);
  if (!s.ok()) return s;
  std::vector<uint8_t> buf;
  for (auto [v, name] : {std::pair{&p.h, "h"}, {&p.l, "l"}, {&p.a, "a"}, {&p.b_g1, "b_g1"}}) {
    s = write_section(*v, name, sink, pool, chunk_points, buf);
    if (!s.ok()) return s;
  }
  return write_section(p.b_g2, "b_g2", sink, pool, chunk_points, buf);
}

sink_fn ostream_sink(std::ostream& out) {
  return [&out](const uint8_t* d, size_t n) {
    out.write(reinterpret_cast<const char*>(d), std::streamsize(n));
    return bool(out);
  };
}

/// Runs `body` against a sink into an atomic_file_writer for `path` and commits on success; the
/// writer's own error (with errno text) wins over the body's generic "write failed".
status write_file_atomically(const std::string& path,
                             const std::function<status(const sink_fn&)>& body) {
  auto w = atomic_file_writer::create(path);
  if (!w.ok()) return w.error();
  status written;
  const sink_fn sink = [&](const uint8_t* d, size_t n) {
    written = w->write({d, n});
    return written.ok();
  };
  status s = body(sink);
  if (!written.ok()) return written;
  if (!s.ok()) return s;
  return w->commit();
}

}  // namespace

std::string_view to_string(point_checks c) {
  switch (c) {
    case point_checks::full:
      return "full";
    case point_checks::batched:
      return "batched";
    case point_checks::on_curve_only:
      return "on_curve_only";
    case point_checks::none:
      return "none";
  }
  return "unknown";
}

std::string_view to_string(params_section s) {
  return size_t(s) < NUM_PARAMS_SECTIONS ? SECTION_NAMES[size_t(s)] : "unknown";
}

// ---- .vk ---------------------------------------------------------------------------------------

result<std::vector<uint8_t>> vk_to_bytes(const verifying_key& vk) {
  if (vk.ic.size() > MAX_COUNT) {
    return status(status_code::invalid_argument, "ic: too many points for the u32 count");
  }
  std::vector<uint8_t> out(size_t(vk_file_size(vk.ic.size())));
  for (size_t i = 0; i < std::size(VK_SINGLES); ++i) {
    const vk_single& f = VK_SINGLES[i];
    const bool inf = f.g2 ? g2_field(vk, i)->is_infinity() : g1_field(vk, i)->is_infinity();
    if (inf) {
      return status(status_code::is_infinity,
                    std::string(f.name) + ": is_infinity (bellperson rejects it on read)");
    }
    if (f.g2) {
      codec_encode(*g2_field(vk, i), out.data() + f.offset);
    } else {
      codec_encode(*g1_field(vk, i), out.data() + f.offset);
    }
  }
  store_be32(uint32_t(vk.ic.size()), out.data() + VK_IC_COUNT_OFFSET);
  for (size_t i = 0; i < vk.ic.size(); ++i) {
    if (vk.ic[i].is_infinity()) {
      return status(status_code::is_infinity,
                    indexed_name("ic", i) + ": is_infinity (bellperson rejects it on read)");
    }
    codec_encode(vk.ic[i], out.data() + VK_IC_OFFSET + i * G1_BYTES);
  }
  return out;
}

status write_vk(const verifying_key& vk, std::ostream& out) {
  return write_vk_to(vk, ostream_sink(out));
}

status write_vk(const verifying_key& vk, const std::string& path) {
  return write_file_atomically(path, [&](const sink_fn& sink) { return write_vk_to(vk, sink); });
}

result<verifying_key> vk_from_bytes(std::span<const uint8_t> bytes, point_checks checks) {
  auto ic = vk_ic_count(bytes);
  if (!ic.ok()) return ic.error();
  if (vk_file_size(*ic) != bytes.size()) {
    return status(status_code::size_mismatch, "vk: ic count " + std::to_string(*ic) + " needs " +
                                                  std::to_string(vk_file_size(*ic)) +
                                                  " bytes, have " + std::to_string(bytes.size()));
  }
  thread_pool caller_only(1);
  return decode_vk_block(bytes.data(), *ic, checks, caller_only);
}

result<verifying_key> read_vk(const std::string& path, point_checks checks) {
  auto map = mmap_file::open(path, {.hint = access_hint::sequential});
  if (!map.ok()) return map.error();
  return vk_from_bytes(map->bytes(), checks);
}

// ---- .params writer ----------------------------------------------------------------------------

status write_params(const parameters& p, std::ostream& out, thread_pool& pool,
                    size_t chunk_points) {
  return write_params_to(p, ostream_sink(out), pool, chunk_points);
}

status write_params(const parameters& p, const std::string& path, thread_pool& pool,
                    size_t chunk_points) {
  return write_file_atomically(
      path, [&](const sink_fn& sink) { return write_params_to(p, sink, pool, chunk_points); });
}

result<std::vector<uint8_t>> params_to_bytes(const parameters& p, thread_pool& pool) {
  std::vector<uint8_t> out;
  out.reserve(size_t(vk_file_size(p.vk.ic.size()) + 5 * COUNT_BYTES +
                     G1_BYTES * (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) +
                     G2_BYTES * p.b_g2.size()));
  status s = write_params_to(
      p,
      [&out](const uint8_t* d, size_t n) {
        out.insert(out.end(), d, d + n);
        return true;
      },
      pool, size_t(1) << 16);
  if (!s.ok()) return s;
  return out;
}

// ---- .params reader ----------------------------------------------------------------------------

result<params_file> params_file::open(const std::string& path, const mmap_options& opt) {
  auto map = mmap_file::open(path, opt);
  if (!map.ok()) return map.error();
  params_file f;
  f.map_ = std::move(*map);
  f.bytes_ = f.map_.bytes();
  status s = f.parse();
  if (!s.ok()) return status(s.code(), path + ": " + s.message());
  return f;
}

result<params_file> params_file::from_bytes(std::span<const uint8_t> bytes) {
  params_file f;
  f.bytes_ = bytes;
  status s = f.parse();
  if (!s.ok()) return s;
  return f;
}

// Six u32 reads. Every count is checked against the bytes that remain before it is used, so a
// huge count can neither overflow (u32 · 192 + offset < 2^64) nor point past the end.
status params_file::parse() {
  const uint64_t n = bytes_.size();
  auto ic = vk_ic_count(bytes_);
  if (!ic.ok()) return ic.error();
  uint64_t pos = VK_IC_COUNT_OFFSET;
  for (size_t s = 0; s < NUM_PARAMS_SECTIONS; ++s) {
    const char* name = SECTION_NAMES[s];
    if (n - pos < COUNT_BYTES) {
      return {status_code::size_mismatch, std::string("truncated: file ends inside the ") + name +
                                              " count at offset " + std::to_string(pos)};
    }
    const uint64_t count = load_be32(bytes_.data() + pos);
    const uint64_t offset = pos + COUNT_BYTES;
    const size_t pb = section_point_bytes(s);
    if (count * pb > n - offset) {
      return {status_code::size_mismatch,
              std::string(name) + ": count " + std::to_string(count) + " needs " +
                  std::to_string(count * pb) + " bytes at offset " + std::to_string(offset) +
                  " but the file has " + std::to_string(n - offset) + " left"};
    }
    sections_[s] = {params_section(s), offset, count, pb};
    pos = sections_[s].end();
  }
  if (pos != n) {
    return {status_code::size_mismatch,
            std::to_string(n - pos) + " trailing bytes after b_g2 (file " + std::to_string(n) +
                " bytes, counts account for " + std::to_string(pos) + ")"};
  }
  return {};
}

query_sizes params_file::sizes() const {
  using enum params_section;
  return {size_t(count(ic)), size_t(count(h)),    size_t(count(l)),
          size_t(count(a)),  size_t(count(b_g1)), size_t(count(b_g2))};
}

std::span<const uint8_t> params_file::section_bytes(params_section s) const {
  const section_info& si = section(s);
  return bytes_.subspan(size_t(si.offset), size_t(si.count * si.point_bytes));
}

result<verifying_key> params_file::load_vk(point_checks checks) const {
  thread_pool caller_only(1);
  return load_vk(checks, caller_only);
}

result<verifying_key> params_file::load_vk(point_checks checks, thread_pool& pool) const {
  return decode_vk_block(bytes_.data(), count(params_section::ic), checks, pool);
}

namespace {

status check_range(const section_info& si, uint64_t begin, uint64_t count, size_t out_size,
                   bool want_g2) {
  const std::string name(to_string(si.id));
  if ((si.point_bytes == G2_BYTES) != want_g2) {
    return {status_code::invalid_argument, name + ": decode into " + (want_g2 ? "G2" : "G1") +
                                               " points of a section of the " + "other group"};
  }
  if (begin > si.count || count > si.count - begin) {
    return {status_code::invalid_argument, name + ": range [" + std::to_string(begin) + ", +" +
                                               std::to_string(count) + ") exceeds its " +
                                               std::to_string(si.count) + " points"};
  }
  if (out_size < count) {
    return {status_code::invalid_argument,
            name + ": output span holds fewer than " + std::to_string(count) + " points"};
  }
  return {};
}

}  // namespace

status params_file::decode(params_section s, uint64_t begin, uint64_t count,
                           std::span<g1_affine_t> out, point_checks checks,
                           thread_pool& pool) const {
  const section_info& si = section(s);
  if (status st = check_range(si, begin, count, out.size(), false); !st.ok()) return st;
  return decode_range(bytes_.data() + si.offset + begin * G1_BYTES, begin, count, out.data(),
                      checks, to_string(s), pool);
}

status params_file::decode(params_section s, uint64_t begin, uint64_t count,
                           std::span<g2_affine_t> out, point_checks checks,
                           thread_pool& pool) const {
  const section_info& si = section(s);
  if (status st = check_range(si, begin, count, out.size(), true); !st.ok()) return st;
  return decode_range(bytes_.data() + si.offset + begin * G2_BYTES, begin, count, out.data(),
                      checks, to_string(s), pool);
}

status params_file::release(params_section s, uint64_t begin, uint64_t count) const {
  const section_info& si = section(s);
  if (map_.data() == nullptr || begin >= si.count) return {};
  count = std::min(count, si.count - begin);
  // Only whole pages inside the range may go: advise() aligns the start down, so skip to the next
  // page boundary first to keep the neighbouring points mapped.
  const uint64_t first = si.offset + begin * si.point_bytes;
  const uint64_t last = first + count * si.point_bytes;
  const uint64_t page = mmap_file::page_size();
  const uint64_t aligned = (first + page - 1) / page * page;
  if (aligned >= last) return {};
  return map_.advise(size_t(aligned), size_t(last - aligned) / page * page, access_hint::dont_need);
}

status params_file::check_points(point_checks checks, thread_pool& pool) const {
  if (auto vk = load_vk(checks, pool); !vk.ok()) return vk.error();
  constexpr uint64_t CHUNK_POINTS = uint64_t(1) << 18;
  std::vector<g1_affine_t> g1(CHUNK_POINTS);
  std::vector<g2_affine_t> g2(CHUNK_POINTS);
  for (params_section s : {params_section::h, params_section::l, params_section::a,
                           params_section::b_g1, params_section::b_g2}) {
    for (uint64_t begin = 0; begin < count(s); begin += CHUNK_POINTS) {
      const uint64_t n = std::min(CHUNK_POINTS, count(s) - begin);
      status st = s == params_section::b_g2 ? decode(s, begin, n, g2, checks, pool)
                                            : decode(s, begin, n, g1, checks, pool);
      if (!st.ok()) return st;
    }
  }
  return {};
}

uint64_t params_file::query_bytes() const {
  uint64_t n = 0;
  for (params_section s : {params_section::h, params_section::l, params_section::a,
                           params_section::b_g1, params_section::b_g2})
    n += count(s) * section(s).point_bytes;
  return n;
}

result<parameters> params_file::load_all(point_checks checks, thread_pool& pool,
                                         const progress_fn& progress) const {
  auto vk = load_vk(checks, pool);
  if (!vk.ok()) return vk.error();
  parameters p;
  p.vk = std::move(*vk);
  // Decoded in chunks so that progress moves; each chunk still runs on the whole pool.
  constexpr uint64_t CHUNK_POINTS = uint64_t(1) << 20;
  const uint64_t total = query_bytes();
  uint64_t done = 0;
  if (progress) progress("load", 0, size_t(total));
  const auto load_section = [&](params_section s, auto& v) -> status {
    v.resize(size_t(count(s)));
    for (uint64_t begin = 0; begin < v.size(); begin += CHUNK_POINTS) {
      const uint64_t n = std::min<uint64_t>(CHUNK_POINTS, v.size() - begin);
      if (status st =
              decode(s, begin, n, std::span(v).subspan(size_t(begin), size_t(n)), checks, pool);
          !st.ok())
        return st;
      done += n * section(s).point_bytes;
      if (progress) progress("load", size_t(done), size_t(total));
    }
    return {};
  };
  for (auto [v, s] : {std::pair{&p.h, params_section::h},
                      {&p.l, params_section::l},
                      {&p.a, params_section::a},
                      {&p.b_g1, params_section::b_g1}}) {
    if (status st = load_section(s, *v); !st.ok()) return st;
  }
  if (status st = load_section(params_section::b_g2, p.b_g2); !st.ok()) return st;
  return p;
}

std::array<uint64_t, NUM_PARAMS_SECTIONS> expected_counts(const parameters_shape& e) {
  const query_sizes q = query_sizes_for(e);
  return {q.ic, q.h, q.l, q.a, q.b_g1, q.b_g2};
}

status params_file::validate_against(const parameters_shape& expected) const {
  const uint64_t m = expected.domain_size;
  if (m < 2 || (m & (m - 1)) != 0) {
    return {status_code::invalid_argument,
            "domain size " + std::to_string(m) + " is not a power of two >= 2"};
  }
  static constexpr const char* RULE[NUM_PARAMS_SECTIONS] = {"num_inputs",
                                                            "m - 1",
                                                            "num_aux",
                                                            "num_inputs + a_aux density",
                                                            "b_input + b_aux density",
                                                            "b_input + b_aux density"};
  const auto want = expected_counts(expected);
  for (size_t s = 0; s < NUM_PARAMS_SECTIONS; ++s) {
    if (sections_[s].count != want[s]) {
      return {status_code::size_mismatch,
              std::string(SECTION_NAMES[s]) + ": file has " + std::to_string(sections_[s].count) +
                  " points, the circuit needs " + RULE[s] + " = " + std::to_string(want[s])};
    }
  }
  return {};
}

}  // namespace cuzk::groth16
