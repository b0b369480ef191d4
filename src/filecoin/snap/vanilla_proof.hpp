// SPDX-License-Identifier: Apache-2.0
// The SnapDeals vanilla PartitionProof exactly as Curio sends it (docs/spec/snap.md §8): one
// bincode::serialize(PartitionProof) per partition (rust-filecoin-proofs-api update.rs
// generate_partition_proofs), bincode v1 legacy encoding:
//   comm_c [32] ‖ apex_leafs: u64 count + count × [32] ‖ challenge_proofs: u64 count + per
//   challenge { proof_r_old: MerkleProof (tree_r shape), proof_d_new: MerkleProof Single (binary
//   SHA tree_d, L levels), proof_r_new: MerkleProof (tree_r shape) }.
// 15,064 bytes per 2 KiB partition, 561,768 per 32 GiB one. Curio's snap-vproof.json (and
// cuzk-bench snap-vanilla.json) holds the elements as a JSON array of base64 strings, the vanilla
// file PoSt uses too (filecoin/common/vanilla_file.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/status.hpp"
#include "filecoin/common/merkle_proof.hpp"
#include "filecoin/common/vanilla_file.hpp"
#include "filecoin/snap/config.hpp"

namespace cuzk::filecoin::snap {

using common::domain_t;
using common::merkle_proof_t;
using common::parse_vanilla_file;
using common::vanilla_file_json;

/// vanilla.rs ChallengeProof: the challenged node in the sector key's tree_r_last, the new data's
/// tree_d and the new replica's tree_r_last.
struct challenge_proof_t {
  merkle_proof_t proof_r_old;
  merkle_proof_t proof_d_new;
  merkle_proof_t proof_r_new;
  bool operator==(const challenge_proof_t&) const = default;
};

/// vanilla.rs PartitionProof.
struct partition_proof_t {
  domain_t comm_c{};
  std::vector<domain_t> apex_leafs;  ///< the A tree_d nodes at height L − p − a of this partition
  std::vector<challenge_proof_t> challenge_proofs;
  bool operator==(const partition_proof_t&) const = default;
};

/// Decodes one element of vanilla_proofs. Lengths are checked against the bytes left before
/// anything is allocated; the whole input must be consumed. Errors are bad_encoding naming the
/// field and byte ("challenge_proofs[3].proof_d_new.path[2].hashes: truncated: … (byte 1234)").
/// Shapes are not checked here (check_partition_proof_shape).
result<partition_proof_t> parse_partition_proof(std::span<const uint8_t> bytes);
/// The same bytes (Merkle proofs must be well_formed()).
std::vector<uint8_t> serialize_partition_proof(const partition_proof_t& p);
/// parse_partition_proof on each element; an error is prefixed "vanilla_proofs[k]: ".
result<std::vector<partition_proof_t>> parse_partition_proofs(
    std::span<const std::vector<uint8_t>> elements);

/// Bytes of one serialized partition proof of a config (docs/spec/snap.md §8 table).
size_t partition_proof_bytes(const update_config_t& c);

}  // namespace cuzk::filecoin::snap
