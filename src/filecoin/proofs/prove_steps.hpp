// SPDX-License-Identifier: Apache-2.0
// The steps the Filecoin proof kinds share around the proof itself, in one place: the single-party
// setup of a blank circuit (streaming QAP) written under the official names (porep_prover.cpp,
// post_prover.cpp, snap_prover.cpp), the digest check of a parameter pair (`cuzk prove
// --check-digests`), the diagnosis of a proof that failed self-verification (the engine's), and
// the timing helpers.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "groth16/qap_cs.hpp"
#include "groth16/setup.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin::proofs::steps {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0);
uint64_t next_pow2(uint64_t n);

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

/// The BLAKE2b-512 digests of a .params/.vk pair against parameters.json facts (`cuzk prove
/// --check-digests`, before the proof): each verdict appended to `out`; bad_encoding for a digest
/// mismatch, invalid_argument for a file the facts do not name.
status check_param_digests(const std::string& params_path, const std::string& vk_path,
                           const std::vector<param_fact_t>& facts,
                           std::vector<digest_check_t>& out);

/// The first row of a, b, c (equal sizes) where a·b ≠ c, offset by `first_row`; nullopt when every
/// row holds.
std::optional<uint64_t> first_unsatisfied_row(std::span<const ff::fr_t> a,
                                              std::span<const ff::fr_t> b,
                                              std::span<const ff::fr_t> c, thread_pool& pool,
                                              uint64_t first_row = 0);

/// A proof that failed self-verification, once its witness was checked row by row: `bad_row`
/// (a·b ≠ c) blames the witness in `witness_blame`'s words ("the C1 is inconsistent"), with the
/// row; none blames the parameters at `params_path` (an honest proof of a satisfied circuit with
/// the right parameters always verifies, Groth16 completeness), `params_detail` saying which of
/// their points may be wrong. invalid_argument either way; `part` prefixes the message.
status self_check_blame(const std::string& part, std::optional<uint64_t> bad_row,
                        const std::string& witness_blame, const std::string& params_path,
                        const std::string& params_detail);

/// self_check_blame's params_detail once the points are known to be on the curve and in the
/// subgroup.
inline constexpr const char* POINTS_VALID_BUT_FOREIGN =
    " (a point on the curve and in the subgroup but not of this circuit's setup, or another "
    "setup's file: compare their digests with `cuzk params check`)";

}  // namespace cuzk::filecoin::proofs::steps
