// SPDX-License-Identifier: Apache-2.0
// PoRep C2 (rust-filecoin-proofs seal_commit_phase2 + verify_seal) around the proof itself:
// Groth16 parameters for the StackedCircuit under the official file names, the parameter directory
// (FIL_PROOFS_PARAMETER_CACHE) and batch verification of a multi-partition proof. A C1 is proved
// by the engine's PoRep kind (src/engine/porep_kind.cpp), for the daemon and `cuzk prove porep`
// alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/log.hpp"
#include "cuzk/status.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/vanilla_proof.hpp"
#include "filecoin/proofs/params_digest.hpp"
#include "groth16/params_io.hpp"
#include "groth16/prover_cpu.hpp"
#include "groth16/setup.hpp"

namespace cuzk::filecoin::proofs {

/// Where rust-fil-proofs looks for parameters when none is given.
inline constexpr const char* DEFAULT_PARAMS_DIR = "/var/tmp/filecoin-proof-parameters";

/// `explicit_dir` if non-empty, else $FIL_PROOFS_PARAMETER_CACHE if set and non-empty, else
/// DEFAULT_PARAMS_DIR.
std::string resolve_params_dir(std::string_view explicit_dir = {});

/// The .params / .vk paths of a config inside `dir` (filecoin/circuits/params_name.hpp names).
std::string porep_params_path(const porep::porep_config_t& cfg, const std::string& dir);
std::string porep_vk_path(const porep::porep_config_t& cfg, const std::string& dir);

/// What generate_porep_parameters wrote and how long each step took (seconds).
struct generated_params_t {
  std::string params_path, vk_path;
  size_t rows = 0, inputs = 0, aux = 0;
  uint64_t domain_size = 0;
  double synth_s = 0, setup_s = 0, write_s = 0;
};

/// Single-party Groth16 setup of the registered proof's StackedCircuit (matrix_cs of the blank
/// circuit → generate_parameters), written as <dir>/<official name>.params and .vk (dir created
/// if missing). The toxic waste is fresh OS randomness, or derived from `seed` when given (tests;
/// such parameters are forgeable by anyone who knows the seed). Costs for 2 KiB: 2.7 M rows,
/// domain 2^22, a few minutes on 2 cores. gpu_device ≥ 0 runs the fixed-base multiplications on
/// that CUDA device (make_setup_backend; the same bytes), checked before anything is synthesized.
result<generated_params_t> generate_porep_parameters(
    porep::registered_seal_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress = {},
    const std::optional<std::vector<uint8_t>>& seed = std::nullopt, int gpu_device = -1);

/// The identity that C2 re-derives replica_id from (replica_id.hpp). Absent: the C1's replica_id
/// is used as is.
struct prover_identity_t {
  porep::bytes32_t prover_id{};
  uint64_t sector_id = 0;
};

/// Verifies a multi-partition proof against the public inputs derived from `c1` (commitments,
/// seed) and `who` (replica_id; the C1's when absent), with the .vk in `params_dir`, in one batch.
/// false for a wrong proof; an error status for undecodable proof bytes (naming the partition),
/// a wrong proof count or a missing/bad .vk.
result<bool> verify_porep(const porep::c1_output_t& c1, const std::optional<prover_identity_t>& who,
                          std::span<const uint8_t> proof_bytes, const std::string& params_dir);

/// Peak resident set size of this process in bytes (getrusage).
uint64_t peak_rss_bytes();

}  // namespace cuzk::filecoin::proofs
