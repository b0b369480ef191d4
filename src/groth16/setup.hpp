// SPDX-License-Identifier: Apache-2.0
// Groth16 parameter generation (the math of bellperson's generator.rs) for an r1cs::matrices
// circuit: QAP evaluation at τ through the Lagrange basis, then batch fixed-base scalar
// multiplication of G1/G2 into bellperson's density-filtered layout (docs/spec/groth16.md §3).
// A single-party "toxic waste" setup: for tests, benchmarks and private deployments, not for
// Filecoin's production parameters (those come from the phase-2 MPC).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "base/progress.hpp"
#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/keys.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::groth16 {

/// The secret trapdoor of a single-party setup. Whoever knows it can forge proofs: erase it.
struct toxic_waste {
  ff::fr_t tau, alpha, beta, gamma, delta;

  /// Deterministic derivation from seed bytes (tests, `--seed`). Element k ∈ {tau, alpha, beta,
  /// gamma, delta} (k = 0..4) is the 64-byte string
  ///   SHA-256("cuzk-groth16-toxic-waste-v1" ‖ u8 k ‖ u8 c ‖ u8 0 ‖ seed) ‖
  ///   SHA-256("cuzk-groth16-toxic-waste-v1" ‖ u8 k ‖ u8 c ‖ u8 1 ‖ seed)
  /// read as a big-endian integer and reduced mod r (bias < 2^-250); c = 0 unless that gives zero,
  /// then c = 1, 2, … (a zero never occurs in practice).
  static toxic_waste from_seed(std::span<const uint8_t> seed);
  /// Fresh values from the OS CSPRNG (getrandom): 64 random bytes reduced mod r per element.
  /// io_error when the OS refuses.
  static result<toxic_waste> random();
};

/// Setup reports the phases "powers", "lagrange", "evaluate", "h", "l", "a", "b_g1", "b_g2", "ic"
/// (items done and total in each) through base/progress.hpp's hook.
using cuzk::progress_fn;

/// Where generate_parameters runs its batch fixed-base multiplications: out[i] = scalars[i]·G in
/// affine (infinity as (0, 0)), G the base of the table the generator built on the host. The CPU
/// one (the default) works on the generator's pool; setup_gpu.hpp has a CUDA one. Any backend
/// gives the same bytes: affine coordinates are unique. Progress is reported under `phase` from
/// the calling thread.
class fixed_base_backend {
 public:
  virtual ~fixed_base_backend() = default;
  virtual status mul(const fixed_base_table<ec::fp_t>& g, std::span<const ff::fr_t> scalars,
                     std::span<ec::affine_t<ec::fp_t>> out, const char* phase,
                     const progress_fn& progress) = 0;
  virtual status mul(const fixed_base_table<ec::fp2_t>& g, std::span<const ff::fr_t> scalars,
                     std::span<ec::affine_t<ec::fp2_t>> out, const char* phase,
                     const progress_fn& progress) = 0;
};

/// The QAP of a circuit evaluated at τ, before any group operation. Exposed for tests and tools.
/// Variable j (inputs first, then aux) has A_j(τ) = Σ_i A[i][j]·L_i(τ) over the rows i (the
/// circuit's constraints, then the input row x_j·0 = 0 for each input j), L_i the Lagrange basis of
/// the size-m domain ⟨ω⟩, m = next power of two ≥ rows.
struct qap_at_tau {
  uint64_t domain_size = 0;          ///< m
  std::vector<ff::fr_t> at, bt, ct;  ///< A_j(τ), B_j(τ), C_j(τ) per variable
  /// The prover's densities (r1cs::compute_densities: nonzero merged coefficient in some row).
  r1cs::density_bitmaps density;
  ff::fr_t t_tau;  ///< t(τ) = τ^m − 1
};

/// QAP evaluation (validates the matrices first with r1cs::validate).
result<qap_at_tau> evaluate_qap(const r1cs::matrices& cs, const ff::fr_t& tau, thread_pool& pool,
                                const progress_fn& progress = {});

/// L_i(τ) for i < m over the size-m domain ⟨ω⟩ (the iFFT of τ^i), m a power of two: the input of
/// evaluate_qap's sparse pass and of the streaming qap_cs (qap_cs.hpp). Phases "powers",
/// "lagrange". invalid_argument when no such domain exists.
result<std::vector<ff::fr_t>> lagrange_at_tau(uint64_t m, const ff::fr_t& tau, thread_pool& pool,
                                              const progress_fn& progress = {});

/// The Groth16 generator. With ONE = input 0 and rows = constraints + inputs:
///   vk:  α·G1, β·G1, β·G2, γ·G2, δ·G1, δ·G2, ic_j = ((β·A_j + α·B_j + C_j)(τ)/γ)·G1 per input
///   h_i  = (τ^i·t(τ)/δ)·G1, i = 0..m−2
///   l_j  = ((β·A_j + α·B_j + C_j)(τ)/δ)·G1 per aux variable
///   a    = A_j(τ)·G1 for every input, then every aux variable with a nonzero A coefficient
///   b_g1 = B_j(τ)·G1, b_g2 = B_j(τ)·G2 for inputs, then aux, with a nonzero B coefficient
/// The a/b filters are exactly the prover's densities (assignment.hpp), not "the point is not
/// infinity": every emitted point must be finite, and any that is not fails the setup
/// (is_infinity; bellperson's UnconstrainedVariable for l), as does γ = 0 or δ = 0
/// (invalid_argument). Bad matrices: size_mismatch / invalid_argument. The multiplications run on
/// `backend` (nullptr: the CPU on `pool`); a backend failure is returned as is.
result<parameters> generate_parameters(const r1cs::matrices& cs, const toxic_waste& tw,
                                       thread_pool& pool, const progress_fn& progress = {},
                                       fixed_base_backend* backend = nullptr);

/// The same generator from a QAP already evaluated at tw.tau (qap_cs, or evaluate_qap) of a
/// circuit with `num_inputs` inputs (ONE included) and `num_aux` aux variables; q is consumed (its
/// vectors are freed as soon as the scalars are made). size_mismatch when q's sizes disagree.
result<parameters> generate_parameters(qap_at_tau&& q, size_t num_inputs, size_t num_aux,
                                       const toxic_waste& tw, thread_pool& pool,
                                       const progress_fn& progress = {},
                                       fixed_base_backend* backend = nullptr);

}  // namespace cuzk::groth16
