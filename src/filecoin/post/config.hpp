// SPDX-License-Identifier: Apache-2.0
// Registered PoSt proofs and the per-size FallbackPoSt constants (docs/spec/post.md §1, §2):
// the 15 RegisteredPoStProof values of the wire (go-state-types abi), their Go and Rust names
// (the Go "V1_1" window proofs are Rust's "V1_2"), the api version that picks the challenge
// indexing, and per kind and size the sectors and challenges of the vanilla proof and of the
// circuit (WinningPoSt: one 66-challenge vanilla sector, a circuit of 66 one-challenge sectors).
#pragma once

#include <cstdint>
#include <string_view>

#include "cuzk/status.hpp"
#include "filecoin/common/sector.hpp"
#include "filecoin/hash/merkle.hpp"

namespace cuzk::filecoin::post {

using common::api_version;
using common::bytes32_t;

/// abi.RegisteredPoStProof (go-state-types abi/sector.go); values are the wire numbers.
enum class registered_post_proof : uint32_t {
  winning_2kib_v1 = 0,
  winning_8mib_v1 = 1,
  winning_512mib_v1 = 2,
  winning_32gib_v1 = 3,
  winning_64gib_v1 = 4,
  window_2kib_v1 = 5,
  window_8mib_v1 = 6,
  window_512mib_v1 = 7,
  window_32gib_v1 = 8,
  window_64gib_v1 = 9,
  window_2kib_v1_1 = 10,  ///< Rust StackedDrgWindow2KiBV1_2
  window_8mib_v1_1 = 11,
  window_512mib_v1_1 = 12,
  window_32gib_v1_1 = 13,
  window_64gib_v1_1 = 14,
};
inline constexpr uint32_t NUM_REGISTERED_POST_PROOFS = 15;

enum class post_kind : uint8_t { winning, window };

/// "winning-post" / "window-post" (the CLI's --circuit values).
std::string_view to_string(post_kind k);

inline uint32_t id_of(registered_post_proof p) {
  return uint32_t(p);
}
/// The Rust (rust-filecoin-proofs-api) name: "StackedDrgWinning2KiBV1",
/// "StackedDrgWindow32GiBV1_2".
std::string_view name_of(registered_post_proof p);
/// The Go (abi) name: "StackedDrgWindow32GiBV1_1" for wire 13; the Rust name for 0..9.
std::string_view go_name_of(registered_post_proof p);
/// From a wire number 0..14.
result<registered_post_proof> registered_post_proof_from_id(uint64_t id);
/// From a decimal wire number, the Go name or the Rust name (case-sensitive).
result<registered_post_proof> parse_registered_post_proof(std::string_view name_or_id);
post_kind kind_of(registered_post_proof p);
/// V1_0_0 for 0..9, V1_2_0 for 10..14 (there is no Winning V1_2).
api_version version_of(registered_post_proof p);
uint64_t sector_size_of(registered_post_proof p);

/// WINDOW_POST_CHALLENGE_COUNT and WINNING_POST_CHALLENGE_COUNT (filecoin-proofs constants.rs).
inline constexpr unsigned WINDOW_POST_CHALLENGE_COUNT = 10;
inline constexpr unsigned WINNING_POST_CHALLENGE_COUNT = 66;
/// WINNING_POST_SECTOR_COUNT: sectors drawn per WinningPoSt.
inline constexpr unsigned WINNING_POST_SECTOR_COUNT = 1;

/// Everything a PoSt of one registered proof fixes.
struct post_config_t {
  registered_post_proof proof = registered_post_proof::window_2kib_v1;
  post_kind kind = post_kind::window;
  api_version version = api_version::v1_0_0;
  uint64_t sector_bytes = 0;
  uint64_t nodes = 0;     ///< leaves of tree_r_last: sector_bytes / 32
  hash::tree_shape tree;  ///< tree_r_last shape (8-0-0, 8-8-0, 8-8-2)
  /// Vanilla view: sectors per partition (window: 2/2/2/2349/2300; winning: 1) and challenges
  /// per FallbackPoStSectorProof (10; winning 66).
  unsigned sector_count = 0;
  unsigned challenge_count = 0;
  /// Circuit view (FallbackPoSt PublicParams): window as the vanilla view; winning 66 × 1.
  unsigned circuit_sector_count = 0;
  unsigned circuit_challenge_count = 0;
};

result<post_config_t> post_config(registered_post_proof p);

/// WINDOW_POST_SECTOR_COUNT of a sector size (2349 for 32 GiB, 2300 for 64 GiB, else 2).
unsigned window_post_sector_count(uint64_t sector_bytes);

/// Partitions of a WindowPoSt over `total_sectors` (post_util.rs get_partitions_for_window_post:
/// ceil in f32, at least 1).
unsigned window_post_partitions(uint64_t total_sectors, unsigned sector_count);

}  // namespace cuzk::filecoin::post
