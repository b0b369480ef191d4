// SPDX-License-Identifier: Apache-2.0
// SnapDeals (EmptySectorUpdate) around the proof (filecoin-proofs update.rs
// verify_empty_sector_update_proof): Groth16 parameters for the update circuit under the official
// file names, and verification against comm_r_old, comm_r_new and comm_d_new. An update is proved
// from the vanilla PartitionProofs Curio sends by the engine's SnapDeals kind
// (src/engine/snap_kind.cpp), for the daemon and `cuzk prove snap` alike.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/vanilla_proof.hpp"
#include "filecoin/snap/vanilla_prove.hpp"

namespace cuzk::filecoin::proofs {

/// The .params / .vk paths of an update config inside `dir` (circuits::update_param_id
/// names).
std::string update_params_path(const snap::update_config_t& cfg, const std::string& dir);
std::string update_vk_path(const snap::update_config_t& cfg, const std::string& dir);

/// Single-party Groth16 setup of the registered proof's EmptySectorUpdate circuit (matrix_cs of
/// the blank circuit → generate_parameters), written as <dir>/<official name>.params and .vk;
/// the toxic waste as generate_porep_parameters. 2 KiB: 1,705,044 rows.
result<generated_params_t> generate_update_parameters(
    snap::registered_update_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress = {},
    const std::optional<std::vector<uint8_t>>& seed = std::nullopt, int gpu_device = -1);

/// One SnapDeals proof as Curio asks for it (SNAP_DEALS_UPDATE, docs/spec/wire.md §5).
struct update_inputs_t {
  snap::registered_update_proof proof = snap::registered_update_proof::stacked_drg_2kib_v1;
  snap::update_commitments_t comms;
  /// One PartitionProof per partition, in partition order (proof k is partition k).
  std::vector<snap::partition_proof_t> partitions;
};

/// Verifies a P × 192-byte update proof against the commitments with the .vk in `params_dir`:
/// true when every partition proof verifies. An error for undecodable bytes, the wrong number of
/// partition proofs, a commitment ≥ r, or a missing/bad .vk.
result<bool> verify_update(snap::registered_update_proof proof,
                           const snap::update_commitments_t& comms,
                           std::span<const uint8_t> proof_bytes, const std::string& params_dir);

}  // namespace cuzk::filecoin::proofs
