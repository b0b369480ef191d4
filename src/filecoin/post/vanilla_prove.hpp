// SPDX-License-Identifier: Apache-2.0
// PoSt vanilla proofs of a sealed sector (storage-proofs-post fallback/vanilla.rs prove_all_
// partitions; rust-filecoin-proofs-api generate_single_vanilla_proof): the tree_r_last openings of
// the sector's leaf challenges, with comm_c, comm_r_last and comm_r, as the
// FallbackPoStSectorProof Curio sends (for tests and cuzk-bench gen-vanilla). The sector is a
// replica (filecoin/common/replica.hpp): one held in memory by porep::seal_sector, or the
// directory `cuzk porep seal` writes (its replica `sealed` rebuilt into tree_r_last and checked
// against `p_aux`), 2 KiB … 512 MiB.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/status.hpp"
#include "filecoin/common/replica.hpp"
#include "filecoin/hash/merkle.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"

namespace cuzk::filecoin::post {

/// What a PoSt prover needs of one sealed sector.
using common::replica_t;
using common::replica_view_t;

/// Opens the sealed sector in `dir` (files `sealed` and `p_aux` of
/// porep::write_sealed_sector) as sector `sector_id` of cfg's size
/// (common::open_replica on cfg.tree): io_error / bad_length for missing or mis-sized
/// files, non_canonical for a replica node ≥ r, invalid_argument when the rebuilt tree_r_last root
/// is not p_aux's comm_r_last.
result<replica_t> open_replica(const post_config_t& cfg, const std::string& dir,
                               uint64_t sector_id);

/// The FallbackPoStSectorProof of a sector when it is proven at position sector_index of
/// partition k (window; winning: 0, 0) under `randomness`. invalid_argument when the sector size
/// is not cfg's; non_canonical for a randomness ≥ r. The sector is a replica_t or a sector sealed
/// in memory (porep::sealed_sector_t converts to a replica_view_t).
result<fallback_sector_proof_t> prove_sector(const post_config_t& cfg, const replica_view_t& r,
                                             const bytes32_t& randomness, unsigned partition,
                                             unsigned sector_index);

/// The serialized FallbackPoStSectorProofs of the sectors sealed in `dirs` (numbers `ids`, one per
/// directory), proven at positions 0, 1, … of partition `partition`: what Curio sends as a Window
/// (or, with one sector, Winning) PoSt request's vanilla_proofs. Errors name the directory or the
/// sector.
result<std::vector<std::vector<uint8_t>>> vanilla_proofs_of_sector_dirs(
    const post_config_t& cfg, std::span<const std::string> dirs, std::span<const uint64_t> ids,
    const bytes32_t& randomness, unsigned partition);

}  // namespace cuzk::filecoin::post
