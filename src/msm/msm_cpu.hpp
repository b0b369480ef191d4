// SPDX-License-Identifier: Apache-2.0
// CPU multi-scalar multiplication Σ k_i·P_i over G1 and G2: Pippenger's bucket method with signed
// window digits, batch-affine bucket accumulation (Montgomery's simultaneous inversion) and XYZZ
// running-sum reduction. Also the Groth16 helpers: density-filtered MSM (bellperson's
// DensityTracker semantics), the sum of the bases whose scalar is 1, and the 0/1/other split.
// Algorithm, cost model and measured figures: docs/notes/msm.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/bitmap.hpp"
#include "base/thread_pool.hpp"
#include "ec/point.hpp"

namespace cuzk::msm {

struct msm_config {
  /// Window width c in bits, 2..16; 0 picks it from the cost model (choose_window).
  unsigned window_bits = 0;
  /// GPU only: device bytes one group of windows may take (msm_gpu_plan.hpp plan_groups); 0 is
  /// GROUP_BYTES. A smaller group fits a smaller card: the same additions in more passes.
  size_t device_group_bytes = 0;
};

/// Density and 0/1 masks: the project's read-only bit vector (base/bitmap.hpp).
using bitmap_view = cuzk::bitmap_view;

/// The window width the cost model picks for `n` nonzero terms on `threads` threads
/// (docs/notes/msm.md): minimises ceil(W·S/threads)·(n/S·A + 2^(c-1)·R) over c and the number S
/// of point ranges per window, with W = ceil(256/c) windows, A the per-term bucket addition cost
/// and R the per-bucket reduction cost.
unsigned choose_window(size_t n, unsigned threads);

// ---- MSM ----------------------------------------------------------------------------------------
// All return the Jacobian sum; infinity for empty input, all-zero scalars or infinity bases.
// Scalars are fr_t in Montgomery form (converted internally). Results do not depend on the thread
// count or the window width.

/// Σ scalars[i]·bases[i]; the spans must have equal length.
ec::g1_jacobian_t msm(std::span<const ec::g1_affine_t> bases, std::span<const ff::fr_t> scalars,
                      thread_pool& pool, const msm_config& cfg = {});
ec::g2_jacobian_t msm(std::span<const ec::g2_affine_t> bases, std::span<const ff::fr_t> scalars,
                      thread_pool& pool, const msm_config& cfg = {});

/// bellperson's DensityTracker form: `density` has one bit per scalar (density.count ==
/// scalars.size()) and `bases` lists a point only for the set bits, in order: the j-th base pairs
/// with the scalar at the j-th set bit. Σ over set bits i of scalars[i]·bases[rank(i)].
/// bases.size() must be >= popcount(density).
ec::g1_jacobian_t msm_dense(std::span<const ec::g1_affine_t> bases,
                            std::span<const ff::fr_t> scalars, bitmap_view density,
                            thread_pool& pool, const msm_config& cfg = {});
ec::g2_jacobian_t msm_dense(std::span<const ec::g2_affine_t> bases,
                            std::span<const ff::fr_t> scalars, bitmap_view density,
                            thread_pool& pool, const msm_config& cfg = {});

/// Full-length form: bases, scalars and mask all have the same length; Σ over set bits i of
/// scalars[i]·bases[i].
ec::g1_jacobian_t msm_masked(std::span<const ec::g1_affine_t> bases,
                             std::span<const ff::fr_t> scalars, bitmap_view mask, thread_pool& pool,
                             const msm_config& cfg = {});
ec::g2_jacobian_t msm_masked(std::span<const ec::g2_affine_t> bases,
                             std::span<const ff::fr_t> scalars, bitmap_view mask, thread_pool& pool,
                             const msm_config& cfg = {});

// ---- scalars equal to one ---------------------------------------------------------------------

/// Σ bases[i] over the set bits of mask (mask.count == bases.size()). Batch-affine pairwise tree
/// (one inversion per tree level per block), about 6 field multiplications per point.
ec::g1_jacobian_t batch_add(std::span<const ec::g1_affine_t> bases, bitmap_view mask,
                            thread_pool& pool);
ec::g2_jacobian_t batch_add(std::span<const ec::g2_affine_t> bases, bitmap_view mask,
                            thread_pool& pool);

/// Classification of a witness for Groth16's 0/1 split: the prover runs msm_masked on `others`
/// and batch_add on `ones` (both with the same bases), skipping zeros.
struct witness_split_t {
  size_t count = 0;              ///< bits in each bitmap: the base index space
  std::vector<uint64_t> ones;    ///< bit j: scalar j is 1
  std::vector<uint64_t> others;  ///< bit j: scalar j is neither 0 nor 1
  size_t num_zero = 0, num_one = 0, num_other = 0;
  /// With a density: the scalars of the set density bits, compacted so that entry j pairs with
  /// base j (use these with msm_masked). Empty without a density (use the original scalars).
  std::vector<ff::fr_t> scalars;

  bitmap_view ones_view() const { return {ones, count}; }
  bitmap_view others_view() const { return {others, count}; }
};

/// Without density: bitmaps over scalar indices. With density (bellperson semantics, see
/// msm_dense): only scalars whose density bit is set are classified, and the bitmaps index the
/// compacted bases (rank of the density bit). Runs on `pool` (a 32 GiB PoRep partition has
/// 1.3e8 aux values: one pass over 4.2 GB); the result does not depend on the thread count.
witness_split_t split_witness(std::span<const ff::fr_t> scalars, const bitmap_view* density,
                              thread_pool& pool);

/// Host bytes an MSM over n nonzero terms allocates beyond its inputs: each term prepared (its
/// base index and its recoded scalar), and for msm_masked (masked) each selected index first.
/// The per-thread buckets come on top (msm_thread_bytes).
uint64_t msm_terms_bytes(size_t n, bool masked);
/// Host bytes each thread of an MSM's pool holds at most while it runs a task of msm, msm_masked
/// or batch_add, whatever the terms: a window's buckets at the widest window for G2 points (the
/// largest: state, affine and XYZZ buckets, the batch's indices, points and deferred additions),
/// or a batch addition's block.
uint64_t msm_thread_bytes();
/// Host bytes split_witness allocates over `scalars` scalars of which `kept` are classified (the
/// density's set bits; all without one): the ones and others bitmaps over the kept, and with a
/// density their compacted scalars and the density words' ranks.
uint64_t split_bytes(size_t scalars, size_t kept, bool density);

}  // namespace cuzk::msm
