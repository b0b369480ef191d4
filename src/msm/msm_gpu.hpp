// SPDX-License-Identifier: Apache-2.0
// GPU multi-scalar multiplication over G1 and G2 and the bitmap batch addition, with the CPU
// reference's semantics (msm_cpu.hpp): Σ scalars[i]·bases[i] with Montgomery-form Fr scalars and
// affine bases
// ((0, 0) = infinity), Jacobian result. Pippenger with signed window digits; points are sorted by
// bucket (CUB radix sort), buckets accumulated in XYZZ, windows reduced on the device and
// combined on the host. Every call runs on the given device context and stream and returns the
// result on the host (it waits for that stream only; other streams run on). Free of CUDA headers;
// device pointers are plain pointers to device memory.
// Design and figures: docs/notes/gpu.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

#include "ec/point.hpp"
#include "gpu/runtime.hpp"
#include "msm/msm_cpu.hpp"

namespace cuzk::msm::cuda {

using cuzk::gpu::device_context;
using cuzk::gpu::stream;

/// The window width the GPU MSM uses for n terms of G1 (g2: of G2), msm_gpu_plan.hpp
/// window_by_cost (cfg.window_bits overrides it; 2..24).
unsigned choose_window_gpu(size_t n, bool g2 = false);

/// Σ scalars[i]·bases[i] for device arrays of n elements on ctx's device, ordered after the work
/// already enqueued on `s`; returns when the result is on the host.
ec::g1_jacobian_t msm_device(device_context& ctx, const stream& s, const ec::g1_affine_t* d_bases,
                             const ff::fr_t* d_scalars, size_t n, const msm_config& cfg = {});
/// The same over G2 (bases are device g2_affine_t, Fp2 coordinates c0 then c1).
ec::g2_jacobian_t msm_g2_device(device_context& ctx, const stream& s,
                                const ec::g2_affine_t* d_bases, const ff::fr_t* d_scalars, size_t n,
                                const msm_config& cfg = {});
/// Host arrays: copies both to the device on `s`, then msm_device. Equal lengths.
ec::g1_jacobian_t msm(device_context& ctx, const stream& s, std::span<const ec::g1_affine_t> bases,
                      std::span<const ff::fr_t> scalars, const msm_config& cfg = {});
ec::g2_jacobian_t msm(device_context& ctx, const stream& s, std::span<const ec::g2_affine_t> bases,
                      std::span<const ff::fr_t> scalars, const msm_config& cfg = {});

/// One MSM whose terms arrive in chunks (bases streamed from host memory, or gathered piece by
/// piece): Σ over every add() of scalars[i]·bases[i], one Pippenger pass. Every window's buckets
/// stay on the device across the chunks (msm_gpu_plan.hpp plan_accumulator: `total_terms`, the
/// terms expected in all, picks the window); each add() digit-codes, sorts and accumulates its
/// chunk into them, enqueueing kernels only — no allocation, no host round trip, no bucket
/// reduction — so a chunk costs its terms, not a fixed MSM's; result() reduces the buckets once.
/// Every call is ordered on the stream given at construction; a chunk's bases and scalars may be
/// overwritten once the work enqueued by its add() has run. Its device bytes:
/// msm_accumulator_bytes(total_terms, max_chunk_terms, XYZZ size, cfg.device_group_bytes).
template <class Affine>
class msm_accumulator {
  static_assert(std::is_same_v<Affine, ec::g1_affine_t> || std::is_same_v<Affine, ec::g2_affine_t>);

 public:
  using jacobian = std::conditional_t<std::is_same_v<Affine, ec::g1_affine_t>, ec::g1_jacobian_t,
                                      ec::g2_jacobian_t>;
  /// Allocates the buckets (set to infinity) and one chunk's scratch on ctx's device, ordered
  /// on `s` (which must outlive the accumulator).
  msm_accumulator(device_context& ctx, const stream& s, size_t total_terms, size_t max_chunk_terms,
                  const msm_config& cfg = {});
  ~msm_accumulator();
  msm_accumulator(const msm_accumulator&) = delete;
  msm_accumulator& operator=(const msm_accumulator&) = delete;
  /// Adds Σ d_scalars[i]·d_bases[i], i < n (device arrays, n ≤ max_chunk_terms).
  void add(const Affine* d_bases, const ff::fr_t* d_scalars, size_t n);
  /// The sum of every chunk added since construction or the last result(); returns when it is on
  /// the host, and leaves the buckets at infinity for the next MSM.
  jacobian result();
  /// The window width it uses.
  unsigned window_bits() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Batch addition's tuning; the defaults are what the prover uses.
struct batch_config {
  /// Selected bases each thread adds (1..256); 0 picks it from the count (batch_per_thread).
  uint32_t per_thread = 0;
};

/// Σ bases[i] over the set bits of the bitmap d_words (⌈n/64⌉ words, bit i = word i/64 bit i%64;
/// bits past n are ignored), device arrays, n < 2^32, on `s`; returns when the result is on the
/// host.
ec::g1_jacobian_t batch_add_device(device_context& ctx, const stream& s,
                                   const ec::g1_affine_t* d_bases, const uint64_t* d_words,
                                   size_t n, const batch_config& cfg = {});
ec::g2_jacobian_t batch_add_g2_device(device_context& ctx, const stream& s,
                                      const ec::g2_affine_t* d_bases, const uint64_t* d_words,
                                      size_t n, const batch_config& cfg = {});
/// Batch additions chunk after chunk, summed on the device (a streamed query's ones, chunk by
/// chunk): add() enqueues Σ d_bases[i] over the set bits of d_words (as batch_add_device) on the
/// stream given at construction and adds it to a device total, reading nothing back — the count
/// of a chunk's ones stays on the device, and the threads its bits could need beyond them add
/// nothing — so a chunk costs no host round trip. result() reads the total once and resets it.
/// Device bytes: one XYZZ point throughout, and per add() batch_add_scratch_bytes(n) from the
/// stream-ordered pool, back in the stream's order.
template <class Affine>
class batch_accumulator {
  static_assert(std::is_same_v<Affine, ec::g1_affine_t> || std::is_same_v<Affine, ec::g2_affine_t>);

 public:
  using jacobian = std::conditional_t<std::is_same_v<Affine, ec::g1_affine_t>, ec::g1_jacobian_t,
                                      ec::g2_jacobian_t>;
  /// The total at infinity on ctx's device, ordered on `s` (which must outlive it).
  batch_accumulator(device_context& ctx, const stream& s);
  ~batch_accumulator();
  batch_accumulator(const batch_accumulator&) = delete;
  batch_accumulator& operator=(const batch_accumulator&) = delete;
  /// total += Σ d_bases[i] over the set bits of d_words[0, ⌈n/64⌉) (bits past n ignored), n < 2^32.
  void add(const Affine* d_bases, const uint64_t* d_words, size_t n, const batch_config& cfg = {});
  /// The total of every add() since construction or the last result(); returns when it is on the
  /// host, and leaves the total at infinity.
  jacobian result();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Host arrays (mask.count == bases.size()).
ec::g1_jacobian_t batch_add(device_context& ctx, const stream& s,
                            std::span<const ec::g1_affine_t> bases, bitmap_view mask,
                            const batch_config& cfg = {});
ec::g2_jacobian_t batch_add(device_context& ctx, const stream& s,
                            std::span<const ec::g2_affine_t> bases, bitmap_view mask,
                            const batch_config& cfg = {});

}  // namespace cuzk::msm::cuda
