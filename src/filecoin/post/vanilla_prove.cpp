// SPDX-License-Identifier: Apache-2.0
// PoSt vanilla proofs of a sealed sector (see vanilla_prove.hpp).
#include "filecoin/post/vanilla_prove.hpp"

#include <string>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/post/challenges.hpp"

namespace cuzk::filecoin::post {
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
    sp.inclusion_proofs.push_back(common::make_merkle_proof(cfg.tree, tree.path(leaf)));
  return out;
}

}  // namespace

result<replica_t> open_replica(const post_config_t& cfg, const std::string& dir,
                               uint64_t sector_id) {
  return common::open_replica(cfg.tree, dir, sector_id);
}

result<fallback_sector_proof_t> prove_sector(const post_config_t& cfg, const replica_view_t& r,
                                             const bytes32_t& randomness, unsigned partition,
                                             unsigned sector_index) {
  return prove(cfg, r.sector_id, r.comm_r, r.comm_c, r.comm_r_last, r.tree_r_last, randomness,
               partition, sector_index);
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

}  // namespace cuzk::filecoin::post
