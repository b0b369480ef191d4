// SPDX-License-Identifier: Apache-2.0
// Registered seal proofs and sector configurations (docs/spec/primitives.md §4, porep.md §1). The
// numbers are filecoin-proofs constants.rs (LAYERS, POREP_PARTITIONS, POREP_MINIMUM_CHALLENGES) and
// rust-filecoin-proofs-api registry.rs (ids, versions, features, porep_id).
#include "filecoin/porep/config.hpp"

#include <charconv>

namespace cuzk::filecoin::porep {
namespace {

// The five production sizes in id order (id % 5).
constexpr uint64_t REGISTERED_SIZES[5] = {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB};

constexpr std::string_view REGISTERED_NAMES[NUM_REGISTERED_SEAL_PROOFS] = {
    "StackedDrg2KiBV1",
    "StackedDrg8MiBV1",
    "StackedDrg512MiBV1",
    "StackedDrg32GiBV1",
    "StackedDrg64GiBV1",
    "StackedDrg2KiBV1_1",
    "StackedDrg8MiBV1_1",
    "StackedDrg512MiBV1_1",
    "StackedDrg32GiBV1_1",
    "StackedDrg64GiBV1_1",
    "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
};

// constants.rs: MAX_CHALLENGES_PER_PARTITION; NI-PoRep minimum challenge counts.
constexpr unsigned MAX_CHALLENGES_PER_PARTITION = 18;
constexpr unsigned NI_MIN_CHALLENGES_PRODUCTION = 2253;
constexpr unsigned NI_MIN_CHALLENGES_TEST = 26;
constexpr uint64_t DEFAULT_SYNTH_CHALLENGE_COUNT = uint64_t(1) << 18;

unsigned ceil_div(unsigned a, unsigned b) {
  return (a + b - 1) / b;
}

}  // namespace

std::string_view to_string(api_feature f) {
  switch (f) {
    case api_feature::none:
      return "";
    case api_feature::synthetic_porep:
      return "SyntheticPoRep";
    case api_feature::non_interactive_porep:
      return "NonInteractivePoRep";
  }
  return "?";
}

std::string_view name_of(registered_seal_proof p) {
  const uint32_t id = id_of(p);
  return id < NUM_REGISTERED_SEAL_PROOFS ? REGISTERED_NAMES[id] : std::string_view("?");
}

result<registered_seal_proof> registered_seal_proof_from_id(uint64_t id) {
  if (id >= NUM_REGISTERED_SEAL_PROOFS)
    return {status_code::invalid_argument,
            "registered seal proof id " + std::to_string(id) + " is not in 0..19"};
  return registered_seal_proof(uint32_t(id));
}

result<registered_seal_proof> parse_registered_seal_proof(std::string_view s) {
  for (uint32_t id = 0; id < NUM_REGISTERED_SEAL_PROOFS; ++id)
    if (s == REGISTERED_NAMES[id]) return registered_seal_proof(id);
  uint64_t id = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
  if (!s.empty() && ec == std::errc() && end == s.data() + s.size())
    return registered_seal_proof_from_id(id);
  return {status_code::invalid_argument, "unknown registered seal proof '" + std::string(s) + "'"};
}

api_version version_of(registered_seal_proof p) {
  const uint32_t id = id_of(p);
  return id < 5 ? api_version::v1_0_0 : id < 10 ? api_version::v1_1_0 : api_version::v1_2_0;
}

api_feature feature_of(registered_seal_proof p) {
  const uint32_t id = id_of(p);
  return id < 10   ? api_feature::none
         : id < 15 ? api_feature::synthetic_porep
                   : api_feature::non_interactive_porep;
}

uint64_t sector_size_of(registered_seal_proof p) {
  return REGISTERED_SIZES[id_of(p) % 5];
}

porep_id_t porep_id_of(registered_seal_proof p) {
  porep_id_t id{};
  const uint64_t v = id_of(p);
  for (int i = 0; i < 8; ++i) id[i] = uint8_t(v >> (8 * i));
  // bytes 8..15: the nonce (always 0); 16..31: zero.
  return id;
}

bytes32_t prover_id_from_actor(uint64_t actor_id) {
  bytes32_t out{};
  size_t i = 0;
  do {
    uint8_t b = actor_id & 0x7f;
    actor_id >>= 7;
    if (actor_id) b |= 0x80;
    out[i++] = b;
  } while (actor_id);  // at most 10 bytes for a u64
  return out;
}

unsigned sector_config_t::tree_d_depth() const {
  unsigned d = 0;
  while ((uint64_t(1) << d) < nodes) ++d;
  return d;
}

result<sector_config_t> sector_config(uint64_t sector_bytes) {
  sector_config_t c;
  switch (sector_bytes) {
    case 2 * KiB:
    case 4 * KiB:
    case 16 * KiB:
    case 32 * KiB:
    case 8 * MiB:
    case 16 * MiB:
    case 512 * MiB:
    case 1 * GiB:
      c.layers = 2;
      c.partitions = 1;
      c.min_challenges = 2;
      c.ni_min_challenges = NI_MIN_CHALLENGES_TEST;
      break;
    case 32 * GiB:
    case 64 * GiB:
      c.layers = 11;
      c.partitions = 10;
      c.min_challenges = 176;
      c.ni_min_challenges = NI_MIN_CHALLENGES_PRODUCTION;
      break;
    default:
      return {status_code::invalid_argument,
              "sector size " + std::to_string(sector_bytes) + " is not a PoRep sector size"};
  }
  c.sector_bytes = sector_bytes;
  c.nodes = sector_bytes / 32;
  c.challenges_per_partition = ceil_div(c.min_challenges, c.partitions);
  // NI-PoRep: MAX_CHALLENGES_PER_PARTITION for the production-grade sizes, 2 for the test ones.
  c.ni_challenges_per_partition = c.layers == 11 ? MAX_CHALLENGES_PER_PARTITION : 2u;
  c.ni_partitions = ceil_div(c.ni_min_challenges, c.ni_challenges_per_partition);
  c.production = false;
  for (uint64_t s : REGISTERED_SIZES) c.production |= s == sector_bytes;
  c.tree_d = hash::tree_shape::binary(c.nodes);
  auto r = hash::tree_r_shape(sector_bytes);
  if (!r) return r.error();
  c.tree_r = *r;
  return c;
}

unsigned porep_config_t::partitions() const {
  return feature == api_feature::non_interactive_porep ? sector.ni_partitions : sector.partitions;
}

unsigned porep_config_t::challenges_per_partition() const {
  return feature == api_feature::non_interactive_porep ? sector.ni_challenges_per_partition
                                                       : sector.challenges_per_partition;
}

uint64_t porep_config_t::synthetic_challenges() const {
  if (feature != api_feature::synthetic_porep) return 0;
  return std::min(sector.nodes, DEFAULT_SYNTH_CHALLENGE_COUNT);
}

result<porep_config_t> porep_config(registered_seal_proof p) {
  if (id_of(p) >= NUM_REGISTERED_SEAL_PROOFS)
    return {status_code::invalid_argument, "registered seal proof id out of range"};
  auto c = porep_config(sector_size_of(p), version_of(p), feature_of(p), porep_id_of(p));
  if (c) c->proof = p;
  return c;
}

result<porep_config_t> porep_config(uint64_t sector_bytes, api_version v, api_feature f,
                                    const porep_id_t& porep_id) {
  auto s = sector_config(sector_bytes);
  if (!s) return s.error();
  if (f != api_feature::none && v != api_version::v1_2_0)
    return {status_code::invalid_argument,
            std::string(to_string(f)) + " requires api version V1_2_0"};
  porep_config_t c;
  c.sector = *s;
  c.version = v;
  c.feature = f;
  c.porep_id = porep_id;
  return c;
}

}  // namespace cuzk::filecoin::porep
