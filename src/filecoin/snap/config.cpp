// SPDX-License-Identifier: Apache-2.0
// Registered update proofs (go-state-types abi/sector.go, rust-filecoin-proofs-api registry.rs)
// and storage-proofs-update constants.rs (docs/spec/snap.md §1, §2).
#include "filecoin/snap/config.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <string>

namespace cuzk::filecoin::snap {
namespace {

using common::GiB;
using common::KiB;
using common::MiB;

constexpr uint64_t SIZES[NUM_REGISTERED_UPDATE_PROOFS] = {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB,
                                                          64 * GiB};
constexpr std::string_view NAMES[NUM_REGISTERED_UPDATE_PROOFS] = {
    "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1",
    "StackedDrg64GiBV1"};
constexpr std::string_view GO_PREFIX = "RegisteredUpdateProof_";

// Capacity of Fr in bits: what a challenge digest yields.
constexpr unsigned FR_CAPACITY_BITS = 254;

}  // namespace

std::string_view name_of(registered_update_proof p) {
  return id_of(p) < NUM_REGISTERED_UPDATE_PROOFS ? NAMES[id_of(p)] : std::string_view("?");
}

std::string go_name_of(registered_update_proof p) {
  return std::string(GO_PREFIX) + std::string(name_of(p));
}

result<registered_update_proof> registered_update_proof_from_id(uint64_t id) {
  if (id >= NUM_REGISTERED_UPDATE_PROOFS)
    return {status_code::invalid_argument,
            "registered update proof " + std::to_string(id) + " is not in 0..4"};
  return registered_update_proof(uint32_t(id));
}

result<registered_update_proof> parse_registered_update_proof(std::string_view s) {
  std::string_view name = s.starts_with(GO_PREFIX) ? s.substr(GO_PREFIX.size()) : s;
  for (uint32_t id = 0; id < NUM_REGISTERED_UPDATE_PROOFS; ++id)
    if (name == NAMES[id]) return registered_update_proof(id);
  uint64_t id = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
  if (!s.empty() && ec == std::errc() && end == s.data() + s.size())
    return registered_update_proof_from_id(id);
  return {status_code::invalid_argument,
          "unknown registered update proof '" + std::string(s) + "'"};
}

uint64_t sector_size_of(registered_update_proof p) {
  return SIZES[id_of(p)];
}

result<update_config_t> update_config_for_shape(const hash::tree_shape& tree_r) {
  if (status s = tree_r.validate(); !s) return s;
  const uint64_t n = tree_r.num_leaves;
  if (n < 32 || !std::has_single_bit(n))
    return {status_code::invalid_argument,
            "an update needs a power-of-two node count ≥ 32, not " + std::to_string(n)};
  update_config_t c;
  c.nodes = n;
  c.sector_bytes = n * 32;
  c.node_bits = unsigned(std::countr_zero(n));
  c.partitions = n <= (uint64_t(1) << 8)    ? 1
                 : n <= (uint64_t(1) << 10) ? 2
                 : n <= (uint64_t(1) << 19) ? 4
                                            : 16;
  c.partition_bits = unsigned(std::countr_zero(c.partitions));
  c.challenges = n <= (uint64_t(1) << 19) ? 10 : 86;
  c.challenge_bits = c.node_bits - c.partition_bits;
  c.challenges_per_digest = FR_CAPACITY_BITS / c.challenge_bits;
  c.digests = unsigned(std::ceil(float(c.challenges) / float(c.challenges_per_digest)));
  c.apex_leaves = n <= (uint64_t(1) << 8) ? 8 : 128;
  c.apex_bits = unsigned(std::countr_zero(c.apex_leaves));
  if (c.node_bits < c.partition_bits + c.apex_bits)
    return {status_code::invalid_argument, "sector too small for its apex tree"};
  if (n <= (uint64_t(1) << 10))
    c.hs = {1, 1, 1, 1, 1, 1};
  else
    c.hs = {7, 8, 9, 10, 11, 12};
  c.h = c.hs[H_DEFAULT_INDEX];
  for (unsigned t = 0; t < H_SELECT_BITS; ++t) {
    if (c.hs[t] == c.h) {
      c.h_select = 1u << t;
      break;
    }
  }
  c.tree_r = tree_r;
  c.tree_d = hash::tree_shape::binary(n);
  return c;
}

result<update_config_t> update_config(registered_update_proof p) {
  if (id_of(p) >= NUM_REGISTERED_UPDATE_PROOFS)
    return {status_code::invalid_argument, "registered update proof out of range"};
  auto shape = hash::tree_r_shape(sector_size_of(p));
  if (!shape) return shape.error();
  return update_config_for_shape(*shape);
}

}  // namespace cuzk::filecoin::snap
