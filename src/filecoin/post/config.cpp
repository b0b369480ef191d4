// SPDX-License-Identifier: Apache-2.0
// Registered PoSt proofs (go-state-types abi/sector.go, rust-filecoin-proofs-api registry.rs,
// filecoin-ffi types.rs) and filecoin-proofs constants.rs / parameters.rs (docs/spec/post.md §1,
// §2).
#include "filecoin/post/config.hpp"

#include <charconv>
#include <cmath>

namespace cuzk::filecoin::post {
namespace {

using common::GiB;
using common::KiB;
using common::MiB;

constexpr uint64_t SIZES[5] = {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB};

constexpr std::string_view RUST_NAMES[NUM_REGISTERED_POST_PROOFS] = {
    "StackedDrgWinning2KiBV1",    "StackedDrgWinning8MiBV1",   "StackedDrgWinning512MiBV1",
    "StackedDrgWinning32GiBV1",   "StackedDrgWinning64GiBV1",  "StackedDrgWindow2KiBV1",
    "StackedDrgWindow8MiBV1",     "StackedDrgWindow512MiBV1",  "StackedDrgWindow32GiBV1",
    "StackedDrgWindow64GiBV1",    "StackedDrgWindow2KiBV1_2",  "StackedDrgWindow8MiBV1_2",
    "StackedDrgWindow512MiBV1_2", "StackedDrgWindow32GiBV1_2", "StackedDrgWindow64GiBV1_2",
};

constexpr std::string_view GO_WINDOW_V1_1_NAMES[5] = {
    "StackedDrgWindow2KiBV1_1",  "StackedDrgWindow8MiBV1_1",  "StackedDrgWindow512MiBV1_1",
    "StackedDrgWindow32GiBV1_1", "StackedDrgWindow64GiBV1_1",
};

}  // namespace

std::string_view to_string(post_kind k) {
  return k == post_kind::winning ? "winning-post" : "window-post";
}

std::string_view name_of(registered_post_proof p) {
  const uint32_t id = id_of(p);
  return id < NUM_REGISTERED_POST_PROOFS ? RUST_NAMES[id] : std::string_view("?");
}

std::string_view go_name_of(registered_post_proof p) {
  const uint32_t id = id_of(p);
  if (id >= NUM_REGISTERED_POST_PROOFS) return "?";
  return id >= 10 ? GO_WINDOW_V1_1_NAMES[id - 10] : RUST_NAMES[id];
}

result<registered_post_proof> registered_post_proof_from_id(uint64_t id) {
  if (id >= NUM_REGISTERED_POST_PROOFS)
    return {status_code::invalid_argument,
            "registered PoSt proof " + std::to_string(id) + " is not in 0..14"};
  return registered_post_proof(uint32_t(id));
}

result<registered_post_proof> parse_registered_post_proof(std::string_view s) {
  for (uint32_t id = 0; id < NUM_REGISTERED_POST_PROOFS; ++id)
    if (s == RUST_NAMES[id]) return registered_post_proof(id);
  for (uint32_t i = 0; i < 5; ++i)
    if (s == GO_WINDOW_V1_1_NAMES[i]) return registered_post_proof(10 + i);
  uint64_t id = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
  if (!s.empty() && ec == std::errc() && end == s.data() + s.size())
    return registered_post_proof_from_id(id);
  return {status_code::invalid_argument, "unknown registered PoSt proof '" + std::string(s) + "'"};
}

post_kind kind_of(registered_post_proof p) {
  return id_of(p) < 5 ? post_kind::winning : post_kind::window;
}

api_version version_of(registered_post_proof p) {
  return id_of(p) < 10 ? api_version::v1_0_0 : api_version::v1_2_0;
}

uint64_t sector_size_of(registered_post_proof p) {
  return SIZES[id_of(p) % 5];
}

unsigned window_post_sector_count(uint64_t sector_bytes) {
  return sector_bytes == 32 * GiB ? 2349 : sector_bytes == 64 * GiB ? 2300 : 2;
}

unsigned window_post_partitions(uint64_t total_sectors, unsigned sector_count) {
  const float parts = std::ceil(float(total_sectors) / float(sector_count));
  return parts < 1 ? 1u : unsigned(parts);
}

result<post_config_t> post_config(registered_post_proof p) {
  if (id_of(p) >= NUM_REGISTERED_POST_PROOFS)
    return {status_code::invalid_argument, "registered PoSt proof out of range"};
  post_config_t c;
  c.proof = p;
  c.kind = kind_of(p);
  c.version = version_of(p);
  c.sector_bytes = sector_size_of(p);
  c.nodes = c.sector_bytes / 32;
  auto shape = hash::tree_r_shape(c.sector_bytes);
  if (!shape) return shape.error();
  c.tree = *shape;
  if (c.kind == post_kind::window) {
    c.sector_count = c.circuit_sector_count = window_post_sector_count(c.sector_bytes);
    c.challenge_count = c.circuit_challenge_count = WINDOW_POST_CHALLENGE_COUNT;
  } else {
    c.sector_count = WINNING_POST_SECTOR_COUNT;
    c.challenge_count = WINNING_POST_CHALLENGE_COUNT;
    // parameters.rs winning_post_setup_params: sector_count 66 / 1, challenge_count 66 / 66.
    c.circuit_sector_count = WINNING_POST_CHALLENGE_COUNT / WINNING_POST_SECTOR_COUNT;
    c.circuit_challenge_count = 1;
  }
  return c;
}

}  // namespace cuzk::filecoin::post
