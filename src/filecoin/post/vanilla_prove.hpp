// SPDX-License-Identifier: Apache-2.0
// PoSt vanilla proofs from a sealed sector (storage-proofs-post fallback/vanilla.rs prove_all_
// partitions; rust-filecoin-proofs-api generate_single_vanilla_proof): the tree_r_last openings of
// the sector's leaf challenges, with comm_c, comm_r_last and comm_r, as the
// FallbackPoStSectorProof Curio sends (for tests and cuzk-bench gen-vanilla). The sector is one
// held in memory by porep::seal_sector (2 KiB … 512 MiB).
#pragma once

#include "base/status.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"

namespace cuzk::post {

/// The FallbackPoStSectorProof of sector s (its sector_id and comm_r) when it is proven at
/// position sector_index of partition k (window; winning: 0, 0) under `randomness`.
/// invalid_argument when the sector size is not cfg's; non_canonical for a randomness ≥ r.
result<fallback_sector_proof_t> prove_sector(const post_config_t& cfg,
                                             const porep::sealed_sector_t& s,
                                             const bytes32_t& randomness, unsigned partition,
                                             unsigned sector_index);

}  // namespace cuzk::post
