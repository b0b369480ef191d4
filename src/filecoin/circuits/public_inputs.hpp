// SPDX-License-Identifier: Apache-2.0
// The verifier's public inputs of one StackedCircuit partition (rust-fil-proofs
// StackedCompound::generate_public_inputs, docs/spec/porep.md §8): [replica_id, comm_d, comm_r],
// then per challenge c of partition k: [c, drg_0..drg_5, exp_0..exp_7, c, c, c] (the tree_d PoR
// index, the 14 parents' tree_c PoR indices, the challenge UInt64, the tree_r_last and tree_c
// indices). 3 + 18·cpp values, ONE not included; challenges and parents come from
// src/filecoin/porep. And those of one FallbackPoSt partition
// (FallbackPoStCompound::generate_public_inputs, docs/spec/post.md §5): per slot comm_r, then each
// challenge's leaf index.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/partition.hpp"

namespace cuzk::filecoin::circuits {

/// What the public inputs of a sector proof depend on besides the config and the partition.
struct porep_publics_t {
  porep::bytes32_t replica_id{};
  porep::bytes32_t comm_d{};
  porep::bytes32_t comm_r{};
  porep::bytes32_t seed{};
};

/// The 18 inputs of one challenge, appended to `out` (parents from `g`).
void append_challenge_inputs(const porep::sdr_graph& g, uint64_t challenge,
                             std::vector<ff::fr_t>& out);

/// Public inputs of partition k (< cfg.partitions()). non_canonical when replica_id, comm_d or
/// comm_r is not < r; invalid_argument for k out of range.
result<std::vector<ff::fr_t>> porep_public_inputs(const porep::porep_config_t& cfg,
                                                  const porep_publics_t& pub, unsigned k);
/// Same with a graph already built for cfg (g must be sdr_graph(cfg)).
result<std::vector<ff::fr_t>> porep_public_inputs(const porep::porep_config_t& cfg,
                                                  const porep::sdr_graph& g,
                                                  const porep_publics_t& pub, unsigned k);

/// Public inputs of PoSt partition k: `sectors` are the partition's public sectors in the order
/// proven (window: 1..sector_count, ascending ids; winning: the one sector). Per circuit slot i
/// (winning: the sector repeated 66 times) comm_r, then for n < circuit_challenge_count the leaf
/// leaf_challenge(randomness, id, challenge_index(version, k, S, i, C, n)) with the circuit's S and
/// C; a short partition repeats the last block. circuit_sector_count·(1 + C) values, ONE not
/// included. Errors: a comm_r or the randomness not < r, a sector count the partition cannot hold,
/// a winning partition other than 0.
result<std::vector<ff::fr_t>> fallback_post_public_inputs(
    const post::post_config_t& cfg, std::span<const post::public_sector_t> sectors,
    const porep::bytes32_t& randomness, unsigned k);

}  // namespace cuzk::filecoin::circuits
