// SPDX-License-Identifier: Apache-2.0
// Registered seal proofs and sector configurations of Filecoin's SDR PoRep (docs/spec/primitives.md
// §4, porep.md §1): the 20 RegisteredSealProof ids/names with their api version and feature,
// porep_id, and per sector size the node count, layers, partitions, challenges per partition and
// tree shapes. Also prover_id from a miner actor id (porep.md §2). docs/notes/porep-graph.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/status.hpp"
#include "filecoin/common/sector.hpp"
#include "filecoin/hash/merkle.hpp"

namespace cuzk::filecoin::porep {

// The sizes, 32-byte values and api versions every proof kind shares (filecoin/common).
using common::api_version;
using common::bytes32_t;
using common::GiB;
using common::KiB;
using common::MiB;
using common::parse_api_version;
using common::sector_size_name;
using common::to_string;
using porep_id_t = bytes32_t;

/// rust-filecoin-proofs-api ApiFeature (at most one per registered proof).
enum class api_feature : uint8_t { none, synthetic_porep, non_interactive_porep };
/// Parent-graph variant: V1_0 (api v1_0_0) or V1_1 (api v1_1_0 and later). docs/spec/porep.md §3.
enum class graph_version : uint8_t { v1_0, v1_1 };

/// "SyntheticPoRep", "NonInteractivePoRep", "" for none.
std::string_view to_string(api_feature f);
inline graph_version graph_version_of(api_version v) {
  return v == api_version::v1_0_0 ? graph_version::v1_0 : graph_version::v1_1;
}

/// RegisteredSealProof (rust-filecoin-proofs-api registry.rs); values are the numeric ids.
enum class registered_seal_proof : uint32_t {
  stacked_drg_2kib_v1 = 0,
  stacked_drg_8mib_v1 = 1,
  stacked_drg_512mib_v1 = 2,
  stacked_drg_32gib_v1 = 3,
  stacked_drg_64gib_v1 = 4,
  stacked_drg_2kib_v1_1 = 5,
  stacked_drg_8mib_v1_1 = 6,
  stacked_drg_512mib_v1_1 = 7,
  stacked_drg_32gib_v1_1 = 8,
  stacked_drg_64gib_v1_1 = 9,
  stacked_drg_2kib_v1_1_feat_synthetic_porep = 10,
  stacked_drg_8mib_v1_1_feat_synthetic_porep = 11,
  stacked_drg_512mib_v1_1_feat_synthetic_porep = 12,
  stacked_drg_32gib_v1_1_feat_synthetic_porep = 13,
  stacked_drg_64gib_v1_1_feat_synthetic_porep = 14,
  stacked_drg_2kib_v1_2_feat_non_interactive_porep = 15,
  stacked_drg_8mib_v1_2_feat_non_interactive_porep = 16,
  stacked_drg_512mib_v1_2_feat_non_interactive_porep = 17,
  stacked_drg_32gib_v1_2_feat_non_interactive_porep = 18,
  stacked_drg_64gib_v1_2_feat_non_interactive_porep = 19,
};
inline constexpr uint32_t NUM_REGISTERED_SEAL_PROOFS = 20;

inline uint32_t id_of(registered_seal_proof p) {
  return uint32_t(p);
}
/// The upstream name, e.g. "StackedDrg2KiBV1", "StackedDrg32GiBV1_1_Feat_SyntheticPoRep".
std::string_view name_of(registered_seal_proof p);
/// From a numeric id 0..19.
result<registered_seal_proof> registered_seal_proof_from_id(uint64_t id);
/// From the exact upstream name (case-sensitive) or a decimal id ("8").
result<registered_seal_proof> parse_registered_seal_proof(std::string_view name_or_id);
api_version version_of(registered_seal_proof p);
api_feature feature_of(registered_seal_proof p);
uint64_t sector_size_of(registered_seal_proof p);

/// porep_id = id as u64 LE ‖ nonce 0 as u64 LE ‖ 16 zero bytes (registry.rs porep_id()).
porep_id_t porep_id_of(registered_seal_proof p);

/// prover_id of miner actor f0<N>: the unsigned LEB128 varint of N, zero-padded to 32 bytes
/// (actor 3751 → a7 1d 00 …).
bytes32_t prover_id_from_actor(uint64_t actor_id);

/// What a sector size fixes (docs/spec/porep.md §1). Production sizes: 2 KiB, 8 MiB, 512 MiB, 32
/// GiB, 64 GiB; test shapes: 4 KiB, 16 KiB, 32 KiB, 16 MiB, 1 GiB.
struct sector_config_t {
  uint64_t sector_bytes = 0;
  uint64_t nodes = 0;                        ///< sector_bytes / 32
  unsigned layers = 0;                       ///< 2, or 11 for 32/64 GiB
  unsigned partitions = 0;                   ///< interactive (and synthetic) partitions: 1, or 10
  unsigned min_challenges = 0;               ///< interactive minimum: 2, or 176
  unsigned challenges_per_partition = 0;     ///< ⌈min_challenges / partitions⌉: 2, or 18
  unsigned ni_min_challenges = 0;            ///< NI-PoRep minimum: 26 (test sizes), or 2253
  unsigned ni_challenges_per_partition = 0;  ///< 2, or 18 (MAX_CHALLENGES_PER_PARTITION)
  unsigned ni_partitions = 0;                ///< ⌈ni_min / ni_cpp⌉: 13, or 126
  hash::tree_shape tree_d;                   ///< binary over nodes
  hash::tree_shape tree_r;  ///< tree_c and tree_r_last: 8-0-0 / 8-2-0 / 8-8-0 / 8-8-2
  bool production = false;  ///< one of the 5 registered sizes

  /// log2(nodes) = tree_d depth.
  unsigned tree_d_depth() const;
};

/// invalid_argument for a size that is not one of the ten above.
result<sector_config_t> sector_config(uint64_t sector_bytes);

/// All a seal/prove needs: the sector config plus version, feature and porep_id. porep_id is the
/// registered one for registered proofs, or arbitrary (the regression records use e.g. [127;32]).
struct porep_config_t {
  std::optional<registered_seal_proof> proof;  ///< empty for a test shape / custom porep_id
  sector_config_t sector;
  api_version version = api_version::v1_1_0;
  api_feature feature = api_feature::none;
  porep_id_t porep_id{};

  graph_version graph() const { return graph_version_of(version); }
  uint64_t nodes() const { return sector.nodes; }
  unsigned layers() const { return sector.layers; }
  /// Partitions of the proof: ni_partitions for NonInteractivePoRep, else the interactive count.
  unsigned partitions() const;
  /// Challenges per partition: ni_challenges_per_partition for NI, else the interactive value.
  unsigned challenges_per_partition() const;
  /// Synthetic challenges proved first by SyntheticPoRep: min(nodes, 2^18) (0 when not synthetic).
  uint64_t synthetic_challenges() const;
};

result<porep_config_t> porep_config(registered_seal_proof p);
/// A config for any of the ten sizes with an explicit porep_id, version and feature (feature
/// requires v1_2_0).
result<porep_config_t> porep_config(uint64_t sector_bytes, api_version v, api_feature f,
                                    const porep_id_t& porep_id);

}  // namespace cuzk::filecoin::porep
