// SPDX-License-Identifier: Apache-2.0
// PoRep C2 on the CPU or GPU prover (rust-filecoin-proofs seal_commit_phase2 + verify_seal):
// Groth16 parameters for the StackedCircuit under the official file names, the parameter directory
// (FIL_PROOFS_PARAMETER_CACHE), proving a C1 partition by partition with every proof
// self-verified before it is returned, and batch verification of a multi-partition proof.
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
std::string porep_params_path(const filecoin::porep::porep_config_t& cfg, const std::string& dir);
std::string porep_vk_path(const filecoin::porep::porep_config_t& cfg, const std::string& dir);

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
    filecoin::porep::registered_seal_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress = {},
    const std::optional<std::vector<uint8_t>>& seed = std::nullopt, int gpu_device = -1);

/// The identity that C2 re-derives replica_id from (replica_id.hpp). Absent: the C1's replica_id
/// is used as is.
struct prover_identity_t {
  filecoin::porep::bytes32_t prover_id{};
  uint64_t sector_id = 0;
};

struct prove_options_t {
  /// Check the vanilla proofs natively first (filecoin::porep::verify_c1_output): a corrupted C1
  /// then fails with a message naming the bad part instead of only at self-verification.
  bool check_vanilla = true;
  /// Point checks when decoding the .params file: by default every point on the curve and in the
  /// subgroup (batched: ~10x the on-curve cost, docs/notes/params-format.md). on_curve_only or
  /// none only for files whose digest was checked (check_digests).
  groth16::point_checks params_checks = groth16::point_checks::batched;
  /// Progress of the parameter load (CPU: "load") or upload (GPU: "upload"), in file bytes.
  progress_fn params_progress;
  /// When set: before anything is loaded, the .params and .vk are hashed (BLAKE2b-512, streamed)
  /// and must match these parameters.json facts (e.g. builtin_porep_facts()); a digest mismatch
  /// is bad_encoding, a file the facts do not name is invalid_argument. Costs one read of the
  /// files (~1 GB/s): seconds for 2 KiB, ~half a minute for 32 GiB.
  std::optional<std::vector<param_fact_t>> check_digests;
  /// -1: the CPU prover. >= 0: the CUDA device of that index (groth16::cuda), the parameters
  /// uploaded once for all partitions (prover_backend.hpp). A build without CUDA refuses it
  /// (invalid_argument); a CUDA build on a machine without a device proves on the CPU and says
  /// so through `log`.
  int gpu_device = -1;
  /// Device bytes the GPU prover may use; 0: what the device has free when the parameters load.
  /// The GPU plan that fits it (groth16::choose_gpu_plan, one proof at a time): parameters that
  /// do not fit it with the prover's working set stay in page-locked host memory and are
  /// streamed to the device by every partition (a 32 GiB PoRep on a 24 GB card); a budget no plan
  /// fits is refused before the parameters load, naming the smallest card.
  uint64_t gpu_memory_budget = 0;
  /// Where the prover reports (the backend chosen, a GPU fallback); empty: silent.
  log_sink log;
};

/// Wall-clock seconds per phase (summed over partitions where per-partition).
struct prove_timings_t {
  double digest_check = 0, vanilla_check = 0, params_load = 0, synthesis = 0, prove = 0,
         self_verify = 0, total = 0;
  groth16::prover_timings prover;  ///< milliseconds, summed over partitions
  unsigned partitions = 0;
  std::vector<digest_check_t> digests;  ///< per file, when prove_options_t::check_digests
};

/// Proves every partition of `c1` with the parameters in `params_dir` and returns the
/// concatenated 192-byte proofs in partition order. Errors (never an invalid proof):
/// invalid_argument for an unknown proof, a replica_id that does not match `who`, or a C1 whose
/// vanilla proofs or circuit do not check ("proof self-verification failed: the C1 is
/// inconsistent"); io_error / size_mismatch for missing or mismatched parameter files.
result<std::vector<uint8_t>> prove_porep(const filecoin::porep::c1_output_t& c1,
                                         const std::optional<prover_identity_t>& who,
                                         const std::string& params_dir, thread_pool& pool,
                                         prove_timings_t* timings = nullptr,
                                         const prove_options_t& opt = {});

/// Verifies a multi-partition proof against the public inputs derived from `c1` (commitments,
/// seed) and `who` (replica_id; the C1's when absent), with the .vk in `params_dir`, in one batch.
/// false for a wrong proof; an error status for undecodable proof bytes (naming the partition),
/// a wrong proof count or a missing/bad .vk.
result<bool> verify_porep(const filecoin::porep::c1_output_t& c1,
                          const std::optional<prover_identity_t>& who,
                          std::span<const uint8_t> proof_bytes, const std::string& params_dir);

/// Peak resident set size of this process in bytes (getrusage).
uint64_t peak_rss_bytes();

}  // namespace cuzk::filecoin::proofs
