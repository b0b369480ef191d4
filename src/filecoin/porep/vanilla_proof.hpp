// SPDX-License-Identifier: Apache-2.0
// The SDR PoRep vanilla proof (C1 output, SealCommitPhase1Output) as plain C++ data: column
// proofs, labeling/encoding proofs, the per-challenge proof and the whole C1 output
// (docs/spec/c1.md §1), over the Merkle proofs (Single/Sub/Top) every proof kind shares
// (filecoin/common/merkle_proof.hpp). Filled by sealing (seal helper) and by the synthetic
// generator, read/written by c1_json / c1_bincode. Storage is compact: a Merkle proof keeps all
// sibling hashes of all levels in one flat vector, parents are fixed arrays, so a 32 GiB C1
// (10 × 18 challenges) is ~3,000 Merkle proofs and a few allocations each.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "filecoin/common/merkle_proof.hpp"
#include "filecoin/porep/graph.hpp"

namespace cuzk::filecoin::porep {

// The Merkle proof shape and its conversions are shared with PoSt and SnapDeals (filecoin/common).
using common::domain_t;
using common::make_merkle_proof;
using common::merkle_proof_kind;
using common::merkle_proof_t;
using common::path_element_t;
using common::to_poseidon_path;
using common::to_sha_path;

// TOTAL_PARENTS (37 label slots), DRG_DEGREE (6) and EXP_DEGREE (8) come from graph.hpp.

/// Column<H>: index u32, rows = [label(1, index) … label(L, index)], then "_h": null in JSON.
struct column_t {
  uint32_t index = 0;
  std::vector<domain_t> rows;
  bool operator==(const column_t&) const = default;
};

/// ColumnProof: the column and its inclusion proof in tree_c (leaf = column hash).
struct column_proof_t {
  column_t column;
  merkle_proof_t inclusion_proof;
  bool operator==(const column_proof_t&) const = default;
};

/// ReplicaColumnProof: the challenged node's column and those of its 6 DRG and 8 expander
/// parents (graph order).
struct replica_column_proofs_t {
  column_proof_t c_x;
  std::array<column_proof_t, DRG_DEGREE> drg_parents;
  std::array<column_proof_t, EXP_DEGREE> exp_parents;
  bool operator==(const replica_column_proofs_t&) const = default;
};

/// LabelingProof / EncodingProof (same fields): the 37 parent label slots hashed into
/// label(layer_index, node), layer_index 1-based. Layer 1: 6 DRG labels ×6 then DRG 0; layers ≥ 2:
/// (6 DRG of this layer, 8 exp of layer − 1) ×2 then the first 9 (docs/spec/porep.md §4).
struct labeling_proof_t {
  std::array<domain_t, TOTAL_PARENTS> parents{};
  uint32_t layer_index = 0;
  uint64_t node = 0;
  bool operator==(const labeling_proof_t&) const = default;
};
using encoding_proof_t = labeling_proof_t;

/// stacked::Proof (one challenge). JSON field order: comm_d_proofs, comm_r_last_proof,
/// replica_column_proofs, labeling_proofs, encoding_proof.
struct challenge_proof_t {
  merkle_proof_t comm_d_proofs;      ///< tree_d (SHA256-trunc254, binary, always Single)
  merkle_proof_t comm_r_last_proof;  ///< tree_r_last (Poseidon, sector shape)
  replica_column_proofs_t replica_column_proofs;
  std::vector<labeling_proof_t> labeling_proofs;  ///< layers 1..L in order
  encoding_proof_t encoding_proof;                ///< layer L, same parents as the last label
  bool operator==(const challenge_proof_t&) const = default;

  /// The challenged node (labeling_proofs[0].node, what C2 uses).
  uint64_t challenge() const { return labeling_proofs.empty() ? 0 : labeling_proofs[0].node; }
};

/// SealCommitPhase1Output (rust-filecoin-proofs-api seal.rs). vanilla_proofs[partition][i] is
/// the proof of challenge i of that partition. registered_proof is the RegisteredSealProof
/// variant name ("StackedDrg32GiBV1_1"); the JSON vanilla_proofs key is derived from its size
/// ("StackedDrg32GiBV1"). The bincode (filecoin-proofs v1) form has no registered_proof.
struct c1_output_t {
  std::string registered_proof;
  std::vector<std::vector<challenge_proof_t>> vanilla_proofs;
  domain_t comm_r{};
  domain_t comm_d{};
  domain_t replica_id{};
  domain_t seed{};
  domain_t ticket{};
  bool operator==(const c1_output_t&) const = default;
};

}  // namespace cuzk::filecoin::porep
