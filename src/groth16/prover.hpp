// SPDX-License-Identifier: Apache-2.0
// What every Groth16 backend shares: the five MSM results a backend computes (proof_parts), one
// timings struct, and the one epilogue that blinds the parts with r, s into a proof. The CPU
// prover (prover_cpu.hpp) and the GPU prover (prover_gpu.hpp) each have a start() that returns
// proof_parts; create_proof is start + finalize in both.
#pragma once

#include "base/status.hpp"
#include "ec/point.hpp"
#include "ff/fields.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/// The heavy part of a proof, before any blinding: H = Σ h_i·h_query_i, L = Σ_aux w_j·l_j,
/// A_part = Σ_j w_j·A_j, B₁/B₂ = Σ_j w_j·B_j in G1/G2 (over the densities).
struct proof_parts {
  ec::g1_jacobian_t h, l, a_part, b_g1;
  ec::g2_jacobian_t b_g2;
};

/// Milliseconds per phase of one proof. The CPU measures wall clock; the GPU measures CUDA events
/// on the proof's stream (a phase then includes the host staging it does).
struct prover_timings {
  double ntt_a = 0, ntt_b = 0, ntt_c = 0;  ///< (upload +) iFFT + coset FFT of a, b, c
  double h_compute = 0;  ///< a·b − c, ·Z^-1, inverse coset FFT, truncation to m − 1
  double split = 0;      ///< 0/1/other classification of aux (for L, A, B)
  double msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0, msm_b_g2 = 0;
  double start = 0;     ///< the whole start(): every phase above
  double epilogue = 0;  ///< finalize: the r/s combination and the three affine conversions
  double total = 0;     ///< create_proof from entry to return
};

/// The epilogue (bellperson prover/mod.rs, expanded):
///   A = α₁ + A_part + r·δ₁,  B = β₂ + B₂ + s·δ₂,
///   C = H + L + s·A_part + r·B₁ + r·s·δ₁ + s·α₁ + r·β₁.
/// invalid_argument when δ is the identity. Sets timings->epilogue.
result<proof> finalize(const verifying_key& vk, const proof_parts& parts, const ff::fr_t& r,
                       const ff::fr_t& s, prover_timings* timings = nullptr);

}  // namespace cuzk::groth16
