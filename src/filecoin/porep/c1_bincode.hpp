// SPDX-License-Identifier: Apache-2.0
// Reads the filecoin-proofs v1 SealCommitPhase1Output in bincode 1.x legacy encoding
// (docs/spec/c1.md §2; supra_seal's C1 writer, bench tools): little-endian, u64 Vec lengths, u32
// enum variant ids, [u8;32] as 32 raw bytes, PhantomData as nothing. The v1 struct has no
// registered_proof: the caller supplies it. Errors name the field path and byte offset.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "cuzk/status.hpp"
#include "filecoin/porep/vanilla_proof.hpp"

namespace cuzk::filecoin::porep {

/// Layout: vanilla_proofs: Vec<Vec<Proof>>, comm_r, comm_d, replica_id, seed, ticket. Proof:
/// MerkleProof comm_d_proofs, MerkleProof comm_r_last_proof, ReplicaColumnProof,
/// Vec<LabelingProof>, EncodingProof. MerkleProof: u32 variant (0 Single {root, leaf, path}, 1 Sub
/// {base, sub, root, leaf}, 2 Top {base, sub, top, root, leaf}); path: u64 count of {Vec<[u8;32]>
/// hashes, u64 index}. Column: u32 index, Vec rows. Labeling/Encoding: Vec parents, u32 layer, u64
/// node. The whole input must be consumed.
result<c1_output_t> parse_c1_bincode(std::span<const uint8_t> bytes,
                                     std::string_view registered_proof);

}  // namespace cuzk::filecoin::porep
