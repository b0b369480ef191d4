// SPDX-License-Identifier: Apache-2.0
// Synthetic PoSt vanilla proofs: the FallbackPoStSectorProofs of sectors that are never sealed, of
// any size (32/64 GiB included), for exercising and benchmarking the PoSt prover — a full 32 GiB
// WindowPoSt partition is 2,349 sectors, which no test machine seals. Each sector's tree_r_last is
// a hash::sparse_tree: its challenged leaves (derived exactly as a real prover derives
// them, from the randomness, the sector id and its position) carry pseudo-random field elements,
// every other leaf one pseudo-random default; comm_c is pseudo-random and comm_r =
// Poseidon_2(comm_c, comm_r_last). Every proof therefore passes post::validate_partition
// and the circuit is satisfiable; the witness is as varied as a real sector's on the proven paths
// except that the siblings off them repeat per level. Values:
// SHA256-trunc254("cuzk/synthetic/post/<what>" ‖ seed u64 LE ‖ sector id u64 LE ‖ index u64 LE).
#pragma once

#include <cstdint>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"

namespace cuzk::filecoin::post {

struct synthetic_post_request_t {
  post_config_t config;
  bytes32_t randomness{};  ///< a canonical Fr encoding
  uint64_t first_sector_id = 1;
  /// Sectors first_sector_id, first_sector_id + 1, … at positions 0, 1, … of the partition;
  /// 0 = a full partition (window: config.sector_count; winning: 1).
  unsigned sectors = 0;
  unsigned partition = 0;  ///< window: the partition index; winning: 0
  uint64_t seed = 1;
};

/// The vanilla proofs of the partition, in sector order. invalid_argument for more sectors than a
/// partition holds, a sector id range that overflows, or a winning partition other than 0;
/// non_canonical for a randomness ≥ r. `poseidon_hashes` (optional) receives the tree nodes
/// hashed.
result<std::vector<fallback_sector_proof_t>> generate_synthetic_post(
    const synthetic_post_request_t& req, thread_pool& pool = thread_pool::default_pool(),
    size_t* poseidon_hashes = nullptr);

}  // namespace cuzk::filecoin::post
