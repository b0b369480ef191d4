// SPDX-License-Identifier: Apache-2.0
// The PoSt vanilla proof exactly as Curio sends it (docs/spec/post.md §7): one
// bincode::serialize(FallbackPoStSectorProof) per sector (rust-filecoin-proofs-api post.rs
// generate_single_vanilla_proof), bincode v1 legacy encoding:
//   sector_id u64 ‖ comm_r [32] ‖ vanilla_proof.sectors: u64 count, then per SectorProof
//   { inclusion_proofs: u64 count + MerkleProofs, comm_c [32], comm_r_last [32] }.
// 24,960 bytes for one 32 GiB WindowPoSt sector (10 Sub proofs of 2,484 bytes).
// The cuzk-bench vanilla files (wpost-vanilla.json, winning-vanilla.json) hold one element each
// (filecoin/common/vanilla_file.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/status.hpp"
#include "filecoin/common/merkle_proof.hpp"
#include "filecoin/common/vanilla_file.hpp"

namespace cuzk::filecoin::post {

using common::domain_t;
using common::merkle_proof_t;

/// fallback::SectorProof: the tree_r_last inclusion proofs of the challenged leaves, comm_c and
/// comm_r_last (whose Poseidon_2 is comm_r).
struct sector_proof_t {
  std::vector<merkle_proof_t> inclusion_proofs;
  domain_t comm_c{};
  domain_t comm_r_last{};
  bool operator==(const sector_proof_t&) const = default;
};

/// filecoin-proofs FallbackPoStSectorProof. `sectors` holds one SectorProof as produced by
/// generate_single_vanilla_proof.
struct fallback_sector_proof_t {
  uint64_t sector_id = 0;
  domain_t comm_r{};
  std::vector<sector_proof_t> sectors;
  bool operator==(const fallback_sector_proof_t&) const = default;
};

/// Decodes one element of vanilla_proofs. Every length is checked against the bytes left before
/// anything is allocated; the whole input must be consumed. Errors are bad_encoding naming the
/// field and byte ("vanilla_proof.sectors[0].inclusion_proofs[3].data.Sub.base_proof.path[2]
/// .hashes: truncated: … (byte 1234)"). Shapes are not checked here (validate_sector_proof).
result<fallback_sector_proof_t> parse_fallback_sector_proof(std::span<const uint8_t> bytes);

/// The same bytes (Merkle proofs must be well_formed()).
std::vector<uint8_t> serialize_fallback_sector_proof(const fallback_sector_proof_t& p);

/// The vanilla files (filecoin/common/vanilla_file.hpp).
using common::parse_vanilla_file;
using common::vanilla_file_json;

/// parse_fallback_sector_proof on each element; an error is prefixed "vanilla_proofs[i]: ".
result<std::vector<fallback_sector_proof_t>> parse_fallback_sector_proofs(
    std::span<const std::vector<uint8_t>> elements);

}  // namespace cuzk::filecoin::post
