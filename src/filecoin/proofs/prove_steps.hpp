// SPDX-License-Identifier: Apache-2.0
// The steps every Filecoin proof of this library shares (PoRep C2 in porep_prover.cpp, PoSt in
// post_prover.cpp), in one place: the single-party setup of a blank circuit (streaming QAP) written
// under the official names, the digest check of a parameter pair, opening the prover backend for a
// synthesized partition, one blinded proof, and the timing helpers.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/prover_backend.hpp"
#include "groth16/assignment.hpp"
#include "groth16/proof.hpp"
#include "groth16/qap_cs.hpp"
#include "groth16/setup.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin::proofs::steps {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0);
uint64_t next_pow2(uint64_t n);
void add(groth16::prover_timings& acc, const groth16::prover_timings& t);

/// Groth16 setup of a blank circuit with fresh OS randomness or the toxic waste derived from
/// `seed`, written to out.params_path and out.vk_path: `synthesize` runs the blank circuit into a
/// streaming groth16::qap_cs that evaluates the QAP at τ as it goes (qap_cs.hpp; no matrices), the
/// domain fixed by the circuit's exact `constraints` and `inputs` counts (a mismatch is
/// size_mismatch); `aux` is a capacity hint. Peak memory ≈ L(τ) + three sums per variable
/// (≈ 17 GB for a 32 GiB PoRep partition) instead of CSR matrices; the bytes are those of
/// groth16::generate_parameters over the matrices (tested). Fills out's rows, inputs, aux,
/// domain_size, synth_s (the synthesis pass), setup_s and write_s. The fixed-base multiplications
/// run on GPU `gpu_device` (< 0: the CPU; make_setup_backend), opened, like the output directory
/// (created if missing), before anything is synthesized.
status setup_and_write(const std::function<void(groth16::qap_cs&)>& synthesize, size_t constraints,
                       size_t inputs, size_t aux, const std::optional<std::vector<uint8_t>>& seed,
                       thread_pool& pool, const groth16::progress_fn& progress,
                       generated_params_t& out, int gpu_device = -1);

/// prove_options_t::check_digests for a .params/.vk pair: each verdict appended to `out`;
/// bad_encoding for a digest mismatch, invalid_argument for a file the facts do not name.
status check_param_digests(const std::string& params_path, const std::string& vk_path,
                           const std::vector<param_fact_t>& facts,
                           std::vector<digest_check_t>& out);

/// The backend of opt.gpu_device for the parameters at `params_path`, checked to fit the
/// synthesized partition `asg` (of `rows` QAP rows). Errors name the file.
result<std::unique_ptr<prover_backend>> open_backend(const std::string& params_path,
                                                     const groth16::assignment& asg, size_t rows,
                                                     const prove_options_t& opt, thread_pool& pool);

/// Why a proof of `asg` failed self-verification, as a status naming the suspect input. When some
/// row has a·b ≠ c the witness does not satisfy the circuit: `witness_blame` (e.g. "the C1 is
/// inconsistent"), with the row. When every row holds, an honest proof with the right parameters
/// always verifies (Groth16 completeness), so the parameters at `params_path` are to blame: they
/// are first re-checked with subgroup checks when opt.params_checks skipped them, to name a bad
/// point; otherwise a point is valid but not of this circuit's setup. invalid_argument either way.
status self_check_failure(const std::string& part, const groth16::assignment& asg,
                          const std::string& params_path, const prove_options_t& opt,
                          thread_pool& pool, const std::string& witness_blame);

/// One proof of `asg` with the backend's parameters, blinded with fresh OS randomness.
result<groth16::proof> prove_one(prover_backend& backend, const groth16::assignment& asg,
                                 thread_pool& pool, groth16::prover_timings* timings);

}  // namespace cuzk::filecoin::proofs::steps
