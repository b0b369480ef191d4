// SPDX-License-Identifier: Apache-2.0
// Official Groth16 parameter file names of the PoRep circuit (docs/spec/params.md §1–§2,
// storage-proofs-core parameter_cache.rs): "v28-" + cache_prefix + "-" + hex(SHA256(identifier))
// + ".params" / ".vk" / ".meta", where cache_prefix names the tree shape
// ("stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher") and the
// identifier is the PublicParams Display string (graph, LayerChallenges, tree). The identifier
// depends only on nodes, layers, challenges per partition and tree shape, so every api version
// and feature of one sector size shares the same files.
// FallbackPoSt (docs/spec/params.md §3): prefix
// "proof-of-spacetime-fallback-merkletree-poseidon_hasher- {B}-{S}-{T}", identifier
// "FallbackPoSt::PublicParams{sector_size: N, challenge_count: C, sector_count: S}" with the
// circuit's C and S; Window V1 and V1_2 share the files. EmptySectorUpdate (docs/spec/params.md
// §4): prefix "empty-sector-update-merkletree-poseidon_hasher- {B}-{S}-{T}", identifier
// "empty_sector_update::PublicParams{ sector_nodes: N }".
#pragma once

#include <string>

#include "filecoin/hash/merkle.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/snap/config.hpp"

namespace cuzk::filecoin::circuits {

/// "stacked-proof-of-replication-merkletree-poseidon_hasher-{B}-{S}-{T}-sha256_hasher".
std::string porep_cache_prefix(const hash::tree_shape& tree_r);
/// "layered_drgporep::PublicParams{ graph: …, challenges: LayerChallenges { layers: L,
/// max_count: CPP }, tree: merkletree-poseidon_hasher-B-S-T }".
std::string porep_param_identifier(uint64_t nodes, unsigned layers, unsigned challenges,
                                   const hash::tree_shape& tree_r);
std::string porep_param_identifier(const porep::porep_config_t& cfg);
/// "v28-<prefix>-<sha256 hex of the identifier>" (no extension).
std::string porep_param_id(const porep::porep_config_t& cfg);
std::string porep_params_file_name(const porep::porep_config_t& cfg);  ///< + ".params"
std::string porep_vk_file_name(const porep::porep_config_t& cfg);      ///< + ".vk"
std::string porep_meta_file_name(const porep::porep_config_t& cfg);    ///< + ".meta"

/// "proof-of-spacetime-fallback-merkletree-poseidon_hasher-{B}-{S}-{T}".
std::string post_cache_prefix(const hash::tree_shape& tree);
std::string post_param_identifier(const post::post_config_t& cfg);
/// "v28-<prefix>-<sha256 hex of the identifier>" (no extension).
std::string post_param_id(const post::post_config_t& cfg);

/// "empty-sector-update-merkletree-poseidon_hasher-{B}-{S}-{T}".
std::string update_cache_prefix(const hash::tree_shape& tree_r);
std::string update_param_identifier(const snap::update_config_t& cfg);
/// "v28-<prefix>-<sha256 hex of the identifier>" (no extension).
std::string update_param_id(const snap::update_config_t& cfg);

}  // namespace cuzk::filecoin::circuits
