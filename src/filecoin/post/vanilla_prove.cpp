// SPDX-License-Identifier: Apache-2.0
// PoSt vanilla proofs from a sealed sector (see vanilla_prove.hpp).
#include "filecoin/post/vanilla_prove.hpp"

#include <string>

#include "filecoin/post/challenges.hpp"

namespace cuzk::post {

result<fallback_sector_proof_t> prove_sector(const post_config_t& cfg,
                                             const porep::sealed_sector_t& s,
                                             const bytes32_t& randomness, unsigned partition,
                                             unsigned sector_index) {
  if (s.config().sector.sector_bytes != cfg.sector_bytes)
    return {status_code::invalid_argument, "sector of " +
                                               std::to_string(s.config().sector.sector_bytes) +
                                               " bytes for " + std::string(name_of(cfg.proof))};
  if (status st = check_safe_commitment(randomness, "randomness"); !st) return st;
  fallback_sector_proof_t out;
  out.sector_id = s.request.sector_id;
  out.comm_r = s.comm_r;
  sector_proof_t& sp = out.sectors.emplace_back();
  sp.comm_c = s.comm_c;
  sp.comm_r_last = s.comm_r_last;
  for (uint64_t leaf :
       sector_leaf_challenges(cfg, randomness, out.sector_id, partition, sector_index))
    sp.inclusion_proofs.push_back(porep::make_merkle_proof(cfg.tree, s.tree_r_last.path(leaf)));
  return out;
}

}  // namespace cuzk::post
