// SPDX-License-Identifier: Apache-2.0
// Encoding new data into a sector key replica (docs/spec/snap.md §3; storage-proofs-update
// vanilla.rs encode_into): for every node i, replica_new[i] = key[i] + data[i]·rho(i >> (L − h))
// in Fr, with phi = H_R(comm_d_new, comm_r_old). comm_d_new is the binary SHA256-trunc254 root of
// the Fr32-padded data, tree_r_last_new is built over the new replica with the key's shape, and
// comm_r_new = Poseidon_2(comm_c, comm_r_last_new) keeps the key's comm_c. Everything is held in
// memory, so sizes are capped like sealing (MAX_IN_MEMORY_SECTOR_BYTES,
// filecoin/common/replica.hpp); the state is what vanilla_prove.hpp opens.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/status.hpp"
#include "filecoin/common/replica.hpp"
#include "filecoin/hash/merkle.hpp"
#include "filecoin/snap/config.hpp"

namespace cuzk::filecoin::snap {

/// A sector key replica with new data encoded into it, and every tree the vanilla proofs open.
struct updated_sector_t {
  update_config_t config;
  bytes32_t comm_c{};              ///< the sector key's, unchanged
  bytes32_t comm_r_last_old{};     ///< root of tree_r_old
  bytes32_t comm_r_old{};          ///< Poseidon_2(comm_c, comm_r_last_old)
  bytes32_t comm_d_new{};          ///< root of tree_d_new
  bytes32_t comm_r_last_new{};     ///< root of tree_r_new
  bytes32_t comm_r_new{};          ///< Poseidon_2(comm_c, comm_r_last_new)
  hash::poseidon_tree tree_r_old;  ///< leaves: the sector key replica
  hash::sha256_tree tree_d_new;    ///< leaves: the Fr32-padded new data
  hash::poseidon_tree tree_r_new;  ///< leaves: the new replica
};

/// Encodes padded data (config.nodes leaves, each a canonical Fr, else non_canonical naming the
/// node) into the sector key whose tree_r_last is `sector_key` (config.tree_r's shape, else
/// size_mismatch) and whose comm_c is `comm_c`.
result<updated_sector_t> encode_update(const update_config_t& config, const bytes32_t& comm_c,
                                       hash::poseidon_tree sector_key,
                                       std::vector<hash::bytes32_t> data,
                                       thread_pool& pool = thread_pool::default_pool());
/// The same with an unpadded payload (at most sector·127/128 bytes, zero-extended) into a sector
/// key held in memory (a replica_t, or a porep::sealed_sector_t, which converts to the
/// view).
result<updated_sector_t> encode_update(const update_config_t& config,
                                       const common::replica_view_t& key,
                                       std::span<const uint8_t> payload,
                                       thread_pool& pool = thread_pool::default_pool());
/// The same into the sector that `cuzk porep seal` wrote to `dir` (its `sealed` replica rebuilt
/// into tree_r_last and checked against `p_aux`).
result<updated_sector_t> encode_update_dir(const update_config_t& config, const std::string& dir,
                                           std::span<const uint8_t> payload,
                                           thread_pool& pool = thread_pool::default_pool());

/// The padded data back from the two replicas: (new − key)·rho^−1 per node (vanilla.rs decode).
std::vector<hash::bytes32_t> decode_update(const updated_sector_t& s);

}  // namespace cuzk::filecoin::snap
