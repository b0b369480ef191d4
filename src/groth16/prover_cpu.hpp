// SPDX-License-Identifier: Apache-2.0
// The CPU Groth16 prover with bellperson's math (docs/spec/groth16.md §5): h from the a/b/c row
// values by iFFT / coset FFT (g = 7) / division by Z / inverse coset FFT, then the H, L, A, B1, B2
// MSMs over density-filtered bases with the 0/1 witness split, then the shared r/s epilogue
// (prover.hpp). The reference for the GPU prover; consumes only groth16::assignment and
// groth16::parameters.
#pragma once

#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "groth16/assignment.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover.hpp"

namespace cuzk::groth16 {

/// The m − 1 coefficients of h(X) = (A(X)·B(X) − C(X))/t(X), m = next power of two ≥ rows,
/// computed exactly as bellperson does (works for unsatisfied assignments too: then the division
/// on the coset is not exact and the result is just what bellperson would compute).
/// size_mismatch when a, b, c differ in length or are empty.
result<std::vector<ff::fr_t>> compute_h(const assignment& asg, thread_pool& pool,
                                        prover_timings* timings = nullptr);

/// The heavy part of a proof (h, then the H, L, A, B1, B2 MSMs), before blinding; the same
/// checks as create_proof except δ (finalize checks it). Wall-clock timings.
result<proof_parts> start(const parameters& params, const assignment& asg, thread_pool& pool,
                          prover_timings* timings = nullptr);

/// start + finalize (prover.hpp): a proof with the given blinding scalars (r = s = 0:
/// deterministic, not zero-knowledge):
///   A = α₁ + A_part + r·δ₁
///   B = β₂ + B₂ + s·δ₂
///   C = H + L + s·A_part + r·B₁ + r·s·δ₁ + s·α₁ + r·β₁
/// where A_part = Σ_j w_j·A_j(τ)G1, B₁/B₂ = Σ_j w_j·B_j(τ) in G1/G2 over the densities,
/// H = Σ_i h_i·h_query_i, L = Σ_aux w_j·l_j. size_mismatch when the query lengths do not fit the
/// assignment (h: m − 1; l: num_aux; a: num_inputs + popcount(a_aux); b_g1 = b_g2:
/// popcount(b_input) + popcount(b_aux); ic: num_inputs) or the densities have the wrong length;
/// invalid_argument when δ is the identity.
result<proof> create_proof(const parameters& params, const assignment& asg, const ff::fr_t& r,
                           const ff::fr_t& s, thread_pool& pool, prover_timings* timings = nullptr);

/// The same with r and s drawn from the OS CSPRNG (getrandom); io_error if that fails.
result<proof> create_proof(const parameters& params, const assignment& asg, thread_pool& pool,
                           prover_timings* timings = nullptr);

/// Host bytes one start() on a pool of `threads` allocates beyond the parameters and the
/// assignment, at its peak over any witness (every aux term neither 0 nor 1): the transforms'
/// three coset vectors (3·m Fr, m = h + 1); or h (m − 1 Fr) beside the three splits, the largest
/// MSM's prepared terms (msm::msm_terms_bytes: H's m − 1, or a split's others) and each thread's
/// buckets (msm::msm_thread_bytes). 32 GiB PoRep: max(12.9, 4.3 + 5.3 + 6.2 GB + threads × 19 MB).
uint64_t cpu_proof_bytes(const query_sizes& q, unsigned threads);

/// A uniform Fr element from the OS CSPRNG (64 bytes reduced mod r).
result<ff::fr_t> os_random_fr();

}  // namespace cuzk::groth16
