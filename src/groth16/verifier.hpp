// SPDX-License-Identifier: Apache-2.0
// Groth16 verification (docs/spec/groth16.md §6, bellperson verifier.rs): single proofs with one
// multi-Miller loop and one final exponentiation, and batches with random 128-bit combiners.
// Proofs are taken as already validated points (decode_proof checks the subgroup).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cuzk/status.hpp"
#include "ff/fp12.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

struct prepared_verifying_key {
  ff::fp12_t alpha_beta;     ///< e(α₁, β₂) (this library's GT, see pairing.hpp)
  g2_affine_t neg_gamma_g2;  ///< −γ₂
  g2_affine_t neg_delta_g2;  ///< −δ₂
  g1_affine_t alpha_g1;      ///< for the batch check
  g2_affine_t beta_g2, gamma_g2, delta_g2;
  std::vector<g1_affine_t> ic;
};

prepared_verifying_key prepare_verifying_key(const verifying_key& vk);

/// acc = ic₀ + Σ_i x_i·ic_{i+1}; true iff e(A, B)·e(acc, −γ₂)·e(C, −δ₂) = e(α₁, β₂).
/// size_mismatch when |public_inputs| + 1 ≠ |ic| (public inputs exclude ONE).
result<bool> verify(const prepared_verifying_key& pvk, const proof& pf,
                    std::span<const ff::fr_t> public_inputs);

/// Random source for the batch combiners: returns 64 uniformly random bits per call.
using rng_fn = std::function<uint64_t()>;

/// Batch verification with 128-bit combiners z_j ≠ 0, Y = Σ z_j:
///   Π_j e(z_j·A_j, −B_j) · e(Σ_j z_j·C_j, δ₂) · e(Y·ic₀ + Σ_i (Σ_j z_j·x_{j,i})·ic_{i+1}, γ₂)
///     · e(Y·α₁, β₂) = 1,
/// i.e. Π_j e(A_j, B_j)^{z_j} = e(α,β)^Y · e(acc, γ) · e(C, δ) — docs/spec/groth16.md §6's
/// "· e(α, β)^{−Y}" check with the GT power moved into G1. One multi-Miller loop of n + 3 pairs,
/// one final exponentiation. true for an empty batch. size_mismatch when |proofs| ≠
/// |inputs_per_proof| or any input count is wrong.
result<bool> verify_batch(const prepared_verifying_key& pvk, std::span<const proof> proofs,
                          std::span<const std::vector<ff::fr_t>> inputs_per_proof,
                          const rng_fn& rng);
/// The same with combiners from the OS CSPRNG; io_error if it fails.
result<bool> verify_batch(const prepared_verifying_key& pvk, std::span<const proof> proofs,
                          std::span<const std::vector<ff::fr_t>> inputs_per_proof);

}  // namespace cuzk::groth16
