// SPDX-License-Identifier: Apache-2.0
// FallbackPoSt challenges (docs/spec/post.md §3; storage-proofs-post fallback/vanilla.rs and
// utils.rs):
//  * leaf challenge: u64 LE(SHA256(randomness ‖ sector_id u64 LE ‖ challenge_index u64 LE)[0..8])
//    mod nodes;
//  * challenge_index of challenge n of the sector at position i of partition k: V1_0_0/V1_1_0
//    (k·sector_count + i)·challenge_count + n, V1_2_0 n (grinding resistant);
//  * WinningPoSt sector selection: u64 LE(SHA256(prover_id ‖ randomness ‖ n u64 LE)[0..8]) mod
//    the sector set size.
// randomness and prover_id are the raw 32 bytes (canonical Fr encodings: as_safe_commitment).
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/status.hpp"
#include "filecoin/post/config.hpp"

namespace cuzk::filecoin::post {

/// The leaf (< nodes) that challenge_index picks in sector sector_id.
uint64_t leaf_challenge(const bytes32_t& randomness, uint64_t sector_id, uint64_t challenge_index,
                        uint64_t nodes);

/// challenge_index (utils.rs get_challenge_index).
uint64_t challenge_index(api_version v, unsigned partition, unsigned sector_count,
                         unsigned sector_index, unsigned challenge_count, unsigned n);

/// The challenge_count leaves of the sector at position sector_index of partition k, in the
/// vanilla view of cfg (window: sector_count × 10; winning: 1 × 66).
std::vector<uint64_t> sector_leaf_challenges(const post_config_t& cfg, const bytes32_t& randomness,
                                             uint64_t sector_id, unsigned partition,
                                             unsigned sector_index);

/// WinningPoSt: the index (< sector_set_len) of the n-th challenged sector. invalid_argument for
/// an empty set.
result<uint64_t> winning_sector_challenge(const bytes32_t& prover_id, const bytes32_t& randomness,
                                          uint64_t n, uint64_t sector_set_len);

/// as_safe_commitment: randomness and prover_id must be canonical Fr encodings (< r).
status check_safe_commitment(const bytes32_t& value, const char* what);

}  // namespace cuzk::filecoin::post
