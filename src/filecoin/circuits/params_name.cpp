// SPDX-License-Identifier: Apache-2.0
// PoRep parameter names. The graph part of the identifier is sdr_graph::identifier() (the
// BucketGraph size is the node count); Tree::display() is "merkletree-poseidon_hasher-B-S-T".
#include "filecoin/circuits/params_name.hpp"

#include "base/hex.hpp"
#include "filecoin/porep/graph.hpp"
#include "hash/sha256.hpp"

namespace cuzk::filecoin::circuits {
namespace {

std::string tree_display(const hash::tree_shape& t) {
  return "merkletree-poseidon_hasher-" + std::to_string(t.base_arity) + "-" +
         std::to_string(t.sub_arity) + "-" + std::to_string(t.top_arity);
}

}  // namespace

std::string porep_cache_prefix(const hash::tree_shape& tree_r) {
  return "stacked-proof-of-replication-" + tree_display(tree_r) + "-sha256_hasher";
}

std::string porep_param_identifier(uint64_t nodes, unsigned layers, unsigned challenges,
                                   const hash::tree_shape& tree_r) {
  // The graph identifier does not depend on porep_id or version.
  const porep::sdr_graph g(nodes, porep::porep_id_t{}, porep::graph_version::v1_1);
  return "layered_drgporep::PublicParams{ graph: " + g.identifier() +
         ", challenges: LayerChallenges { layers: " + std::to_string(layers) +
         ", max_count: " + std::to_string(challenges) + " }, tree: " + tree_display(tree_r) + " }";
}

std::string porep_param_identifier(const porep::porep_config_t& cfg) {
  return porep_param_identifier(cfg.nodes(), cfg.layers(), cfg.challenges_per_partition(),
                                cfg.sector.tree_r);
}

std::string porep_param_id(const porep::porep_config_t& cfg) {
  const std::string id = porep_param_identifier(cfg);
  const auto digest = cuzk::hash::sha256_digest(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  return "v28-" + porep_cache_prefix(cfg.sector.tree_r) + "-" + to_hex(digest);
}

std::string post_cache_prefix(const hash::tree_shape& tree) {
  return "proof-of-spacetime-fallback-" + tree_display(tree);
}

std::string post_param_identifier(const post::post_config_t& cfg) {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(cfg.sector_bytes) +
         ", challenge_count: " + std::to_string(cfg.circuit_challenge_count) +
         ", sector_count: " + std::to_string(cfg.circuit_sector_count) + "}";
}

std::string post_param_id(const post::post_config_t& cfg) {
  const std::string id = post_param_identifier(cfg);
  const auto digest = cuzk::hash::sha256_digest(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  return "v28-" + post_cache_prefix(cfg.tree) + "-" + to_hex(digest);
}

std::string update_cache_prefix(const hash::tree_shape& tree_r) {
  return "empty-sector-update-" + tree_display(tree_r);
}

std::string update_param_identifier(const snap::update_config_t& cfg) {
  return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(cfg.nodes) + " }";
}

std::string update_param_id(const snap::update_config_t& cfg) {
  const std::string id = update_param_identifier(cfg);
  const auto digest = cuzk::hash::sha256_digest(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  return "v28-" + update_cache_prefix(cfg.tree_r) + "-" + to_hex(digest);
}

std::string porep_params_file_name(const porep::porep_config_t& cfg) {
  return porep_param_id(cfg) + ".params";
}
std::string porep_vk_file_name(const porep::porep_config_t& cfg) {
  return porep_param_id(cfg) + ".vk";
}
std::string porep_meta_file_name(const porep::porep_config_t& cfg) {
  return porep_param_id(cfg) + ".meta";
}

}  // namespace cuzk::filecoin::circuits
