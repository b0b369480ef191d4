// SPDX-License-Identifier: Apache-2.0
// PoSt vanilla proofs of a sealed sector (see vanilla_prove.hpp).
#include "filecoin/post/vanilla_prove.hpp"

#include <algorithm>
#include <string>

#include "base/file_io.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/post/challenges.hpp"

namespace cuzk::post {
namespace {

result<fallback_sector_proof_t> prove(const post_config_t& cfg, uint64_t sector_id,
                                      const bytes32_t& comm_r, const bytes32_t& comm_c,
                                      const bytes32_t& comm_r_last, const hash::poseidon_tree& tree,
                                      const bytes32_t& randomness, unsigned partition,
                                      unsigned sector_index) {
  if (tree.shape().num_leaves != cfg.nodes)
    return {status_code::invalid_argument, "sector of " +
                                               std::to_string(tree.shape().num_leaves * 32) +
                                               " bytes for " + std::string(name_of(cfg.proof))};
  if (status st = check_safe_commitment(randomness, "randomness"); !st) return st;
  fallback_sector_proof_t out;
  out.sector_id = sector_id;
  out.comm_r = comm_r;
  sector_proof_t& sp = out.sectors.emplace_back();
  sp.comm_c = comm_c;
  sp.comm_r_last = comm_r_last;
  for (uint64_t leaf : sector_leaf_challenges(cfg, randomness, sector_id, partition, sector_index))
    sp.inclusion_proofs.push_back(porep::make_merkle_proof(cfg.tree, tree.path(leaf)));
  return out;
}

}  // namespace

result<replica_t> open_replica(const post_config_t& cfg, const std::string& dir,
                               uint64_t sector_id) {
  if (cfg.sector_bytes > porep::MAX_SEAL_SECTOR_BYTES)
    return {status_code::invalid_argument, "replicas are opened in memory up to 512 MiB, not " +
                                               porep::sector_size_name(cfg.sector_bytes)};
  auto aux = read_file_bounded(dir + "/p_aux", 64);
  if (!aux) return aux.error();
  if (aux->size() != 64)
    return {status_code::bad_length,
            dir + "/p_aux: " + std::to_string(aux->size()) + " bytes, expected 64"};
  auto sealed = read_file_bounded(dir + "/sealed", cfg.sector_bytes);
  if (!sealed) return sealed.error();
  if (sealed->size() != cfg.sector_bytes)
    return {status_code::bad_length, dir + "/sealed: " + std::to_string(sealed->size()) +
                                         " bytes, expected " + std::to_string(cfg.sector_bytes)};
  replica_t r;
  r.sector_id = sector_id;
  std::copy(aux->begin(), aux->begin() + 32, r.comm_c.begin());
  std::copy(aux->begin() + 32, aux->end(), r.comm_r_last.begin());
  ff::fr_t pair[2];
  if (!hash::bytes_to_fr(r.comm_c, pair[0]) || !hash::bytes_to_fr(r.comm_r_last, pair[1]))
    return {status_code::non_canonical, dir + "/p_aux: comm_c or comm_r_last is not < r"};
  r.comm_r = hash::fr_to_bytes(hash::poseidon_hash(std::span<const ff::fr_t>(pair, 2)));

  std::vector<ff::fr_t> leaves(cfg.nodes);
  for (uint64_t i = 0; i < cfg.nodes; ++i)
    if (!ff::fr_t::from_bytes_le(sealed->data() + 32 * i, leaves[i]))
      return {status_code::non_canonical,
              dir + "/sealed: node " + std::to_string(i) + " is not < r"};
  sealed->clear();
  sealed->shrink_to_fit();
  auto tree = hash::poseidon_tree::build(cfg.tree, std::move(leaves));
  if (!tree) return tree.error();
  if (tree->root() != pair[1])
    return {status_code::invalid_argument,
            dir + ": the replica's tree_r_last root is not p_aux's comm_r_last"};
  r.tree_r_last = std::move(*tree);
  return r;
}

result<fallback_sector_proof_t> prove_sector(const post_config_t& cfg, const replica_t& r,
                                             const bytes32_t& randomness, unsigned partition,
                                             unsigned sector_index) {
  return prove(cfg, r.sector_id, r.comm_r, r.comm_c, r.comm_r_last, r.tree_r_last, randomness,
               partition, sector_index);
}

result<fallback_sector_proof_t> prove_sector(const post_config_t& cfg,
                                             const porep::sealed_sector_t& s,
                                             const bytes32_t& randomness, unsigned partition,
                                             unsigned sector_index) {
  return prove(cfg, s.request.sector_id, s.comm_r, s.comm_c, s.comm_r_last, s.tree_r_last,
               randomness, partition, sector_index);
}

result<std::vector<std::vector<uint8_t>>> vanilla_proofs_of_sector_dirs(
    const post_config_t& cfg, std::span<const std::string> dirs, std::span<const uint64_t> ids,
    const bytes32_t& randomness, unsigned partition) {
  if (dirs.size() != ids.size()) {
    return status(status_code::invalid_argument,
                  "one sector id per sector directory (" + std::to_string(dirs.size()) +
                      " directories, " + std::to_string(ids.size()) + " ids)");
  }
  std::vector<std::vector<uint8_t>> out;
  for (size_t i = 0; i < dirs.size(); ++i) {
    auto replica = open_replica(cfg, dirs[i], ids[i]);
    if (!replica) return status(replica.error().code(), dirs[i] + ": " + replica.error().message());
    auto v = prove_sector(cfg, *replica, randomness, partition, unsigned(i));
    if (!v) {
      return status(v.error().code(),
                    "sector " + std::to_string(ids[i]) + ": " + v.error().message());
    }
    out.push_back(serialize_fallback_sector_proof(*v));
  }
  return out;
}

}  // namespace cuzk::post
