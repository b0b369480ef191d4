// SPDX-License-Identifier: Apache-2.0
// WindowPoSt and WinningPoSt around the proof (rust-filecoin-proofs verify_window_post /
// verify_winning_post): Groth16 parameters for the FallbackPoSt circuit under the official file
// names, and verification against the public sectors. A partition is proved from the vanilla
// proofs Curio sends by the engine's PoSt kinds (src/engine/post_kind.cpp), for the daemon and
// `cuzk prove window-post|winning-post` alike.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/partition.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/proofs/porep_prover.hpp"

namespace cuzk::filecoin::proofs {

/// The .params / .vk paths of a PoSt config inside `dir` (circuits::post_param_id names;
/// Window V1 and V1_1 of one size share them).
std::string post_params_path(const post::post_config_t& cfg, const std::string& dir);
std::string post_vk_path(const post::post_config_t& cfg, const std::string& dir);

/// Single-party Groth16 setup of the registered proof's FallbackPoSt circuit (matrix_cs of the
/// blank circuit → generate_parameters), written as <dir>/<official name>.params and .vk; the
/// toxic waste as generate_porep_parameters. 2 KiB: 21,889 rows (Window), 90,883 (Winning),
/// seconds.
result<generated_params_t> generate_post_parameters(
    post::registered_post_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress = {},
    const std::optional<std::vector<uint8_t>>& seed = std::nullopt, int gpu_device = -1);

/// One PoSt partition as Curio asks for it (docs/spec/wire.md §3).
struct post_inputs_t {
  post::registered_post_proof proof = post::registered_post_proof::window_2kib_v1;
  /// Window: the partition's 1..sector_count sectors in ascending id order; Winning: exactly one.
  std::vector<post::fallback_sector_proof_t> vanilla;
  post::bytes32_t randomness{};  ///< a canonical Fr encoding (Curio masks byte 31 with 0x3f)
  /// Does not enter the circuit or its public inputs (WinningPoSt uses it only to choose the
  /// sectors, which Curio has done); carried for the caller's records.
  uint64_t miner_id = 0;
  unsigned partition = 0;  ///< Window: the partition index; Winning: 0
};

/// The public sectors (sector id, comm_r) of vanilla proofs, in their order.
std::vector<post::public_sector_t> public_sectors_of(
    std::span<const post::fallback_sector_proof_t> vanilla);

/// Verifies a 192-byte PoSt proof of partition `partition` over `sectors` (window: the
/// partition's sectors as proven; winning: the one sector) under `randomness`, with the .vk in
/// `params_dir`. false for a wrong proof; an error for undecodable proof bytes, a sector list or
/// randomness the partition cannot have, or a missing/bad .vk.
result<bool> verify_post(post::registered_post_proof proof,
                         std::span<const post::public_sector_t> sectors,
                         const post::bytes32_t& randomness, unsigned partition,
                         std::span<const uint8_t> proof_bytes, const std::string& params_dir);

}  // namespace cuzk::filecoin::proofs
