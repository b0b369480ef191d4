// SPDX-License-Identifier: Apache-2.0
// One PoSt partition, from the vanilla proofs Curio sends to the slots of the circuit
// (docs/spec/post.md §4, §7, §8): the checks of every FallbackPoStSectorProof (shape, leaf index
// = the derived challenge, root = comm_r_last, the path hashes to it, comm_r = Poseidon_2(comm_c,
// comm_r_last)), and the slot layout: WindowPoSt repeats the last real sector up to
// sector_count; WinningPoSt unrolls its one 66-challenge sector into 66 one-challenge slots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"

namespace cuzk::filecoin::post {

/// The layout checks the circuit relies on: exactly one SectorProof of cfg.challenge_count
/// inclusion proofs, each of the tree_r_last shape (variant, levels, arities, index < arity).
/// Errors name the sector and the challenge.
status check_sector_proof_shape(const post_config_t& cfg, const fallback_sector_proof_t& p);

/// Everything a vanilla verifier checks for the sector at position sector_index of partition k
/// (FallbackPoSt::verify): the shape; every value canonical; comm_r = Poseidon_2(comm_c,
/// comm_r_last); per challenge n the leaf index equals the derived leaf challenge, the proof's
/// root is comm_r_last and its path hashes to it. Errors name the sector and the challenge.
status validate_sector_proof(const post_config_t& cfg, const fallback_sector_proof_t& p,
                             const bytes32_t& randomness, unsigned partition,
                             unsigned sector_index);

/// The proofs of one partition as the single-partition API receives them: window 1..sector_count
/// proofs in strictly ascending sector order, winning exactly one; each validate_sector_proof'd at
/// its position. randomness must be a canonical Fr encoding. The sectors are checked in parallel
/// on `pool` (a 32 GiB WindowPoSt partition hashes ≈ 235k Poseidon nodes); the error reported is
/// the first sector's in partition order, whatever the schedule.
status validate_partition(const post_config_t& cfg, std::span<const fallback_sector_proof_t> proofs,
                          const bytes32_t& randomness, unsigned partition,
                          thread_pool& pool = thread_pool::default_pool());

/// Where circuit slot s takes its witness: inclusion proofs [first_challenge, first_challenge +
/// circuit_challenge_count) of vanilla proof `proof`.
struct slot_source_t {
  size_t proof = 0;
  unsigned first_challenge = 0;
  bool operator==(const slot_source_t&) const = default;
};

/// The circuit_sector_count slots of a partition built from num_proofs vanilla proofs: window
/// slot s → proof min(s, num_proofs − 1) (padding repeats the last sector), winning slot s →
/// proof 0, challenge s. size_mismatch for 0 proofs, more than sector_count (window) or not
/// exactly 1 (winning).
result<std::vector<slot_source_t>> circuit_slots(const post_config_t& cfg, size_t num_proofs);

/// A public sector: what the verifier knows of each proven sector.
struct public_sector_t {
  uint64_t sector_id = 0;
  bytes32_t comm_r{};
};

/// The public sector list of a partition in the circuit view (FallbackPoSt PublicInputs.sectors
/// chunk): window the sectors themselves; winning the one sector repeated circuit_sector_count
/// times (winning_post.rs builds it so, which makes slot i use challenge index i).
std::vector<public_sector_t> circuit_public_sectors(const post_config_t& cfg,
                                                    std::span<const public_sector_t> sectors);

}  // namespace cuzk::filecoin::post
