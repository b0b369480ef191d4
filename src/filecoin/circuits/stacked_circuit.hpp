// SPDX-License-Identifier: Apache-2.0
// The SDR PoRep circuit (rust-fil-proofs StackedCircuit, one circuit per partition), constraint-,
// allocation- and coefficient-exact (docs/spec/gadgets.md, porep.md §7–§9): the same template runs
// in shape_cs (counts/nnz/densities/fingerprint, no values), witness_cs, proving_cs and matrix_cs.
// Its input is the per-partition witness (challenges, tree_d / tree_c / tree_r_last paths, parent
// columns, data leaves, comm_c, comm_r_last, replica_id, comm_d, comm_r), built from a C1
// partition, or blank (zeros of the right shape) for shape synthesis and parameter generation.
// Costs (rows = constraints + inputs): 2 KiB 2,687,961; 32 GiB 130,278,869
// (docs/notes/porep-circuit.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/multipack.hpp"
#include "filecoin/gadgets/num.hpp"
#include "filecoin/gadgets/por.hpp"
#include "filecoin/gadgets/poseidon.hpp"
#include "filecoin/gadgets/sha256.hpp"
#include "filecoin/gadgets/uint32.hpp"
#include "filecoin/hash/merkle.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/vanilla_proof.hpp"
#include "r1cs/abc_plan.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::filecoin::circuits {

using ff::fr_t;

/// One parent's column (rows = labels of layers 1..L) and its tree_c inclusion path.
struct column_witness_t {
  std::vector<fr_t> rows;
  gadgets::por_path_t path;
};

/// circuit::params::Proof: the witness of one challenge.
struct challenge_witness_t {
  uint64_t challenge = 0;                ///< labeling_proofs[0].node
  fr_t data_leaf = fr_t::zero();         ///< comm_d_proofs.leaf
  gadgets::por_path_t comm_d_path;       ///< tree_d (binary SHA256-trunc254)
  gadgets::por_path_t comm_r_last_path;  ///< tree_r_last (Poseidon, sector shape)
  gadgets::por_path_t comm_c_path;       ///< tree_c path of the challenged column (c_x)
  std::array<column_witness_t, porep::DRG_DEGREE> drg_parents;
  std::array<column_witness_t, porep::EXP_DEGREE> exp_parents;
};

/// StackedCircuit: what one partition's circuit is synthesized from.
struct stacked_circuit_t {
  unsigned layers = 0;      ///< column height L (2 or 11); column hashes are Poseidon_L
  hash::tree_shape tree_d;  ///< binary over the sector's nodes
  hash::tree_shape tree_r;  ///< tree_c and tree_r_last shape
  fr_t replica_id = fr_t::zero();
  fr_t comm_d = fr_t::zero();
  fr_t comm_r = fr_t::zero();
  fr_t comm_r_last = fr_t::zero();
  fr_t comm_c = fr_t::zero();
  std::vector<challenge_witness_t> challenges;  ///< one per challenge of the partition, in order
};

/// A blank circuit (all values zero) of the given shape: what shape_cs, matrix_cs and the Groth16
/// setup synthesize (bellperson's blank_circuit).
stacked_circuit_t blank_stacked_circuit(unsigned layers, const hash::tree_shape& tree_d,
                                        const hash::tree_shape& tree_r, unsigned challenges);
/// The blank circuit of a registered config (its layers, tree shapes and challenges per
/// partition).
stacked_circuit_t blank_stacked_circuit(const porep::porep_config_t& cfg);

/// The circuit of partition k of a C1 output (StackedCompound::circuit + From<VanillaProof>):
/// replica_id, comm_d and comm_r from the C1; comm_r_last and comm_c from the proofs' roots (the
/// same in every proof). Errors (never a wrong circuit): partition or challenge count, path or
/// column shapes that differ from cfg, a value ≥ r, inconsistent roots. The caller may replace
/// replica_id by the one derived from prover_id / sector_id (what C2 does).
result<stacked_circuit_t> stacked_circuit_from_c1(const porep::porep_config_t& cfg,
                                                  const porep::c1_output_t& c1, unsigned k);

/// The layout checks synthesis relies on (layers ≥ 1 and a supported column arity, every path
/// of its tree's height and arities, every column of L rows). Synthesis asserts nothing else.
status validate_stacked_circuit(const stacked_circuit_t& c);

/// Counts of a circuit without synthesizing it (docs/spec/porep.md §9 closed forms): for planning
/// and cross-checking shape_cs.
struct stacked_counts_t {
  size_t constraints = 0;  ///< circuit constraints (without the input rows)
  size_t inputs = 0;       ///< including ONE
  size_t rows() const { return constraints + inputs; }
};
stacked_counts_t stacked_circuit_counts(unsigned layers, const hash::tree_shape& tree_d,
                                        const hash::tree_shape& tree_r, unsigned challenges);

namespace detail {

// The column hash Poseidon_L (MerkleTree tag 2^L − 1) over allocated rows.
template <class CS>
gadgets::allocated_num_t column_hash(CS& cs, std::span<const gadgets::allocated_num_t> rows) {
  constexpr size_t MAX_ROWS = 16;
  std::array<r1cs::variable, MAX_ROWS> vars;
  std::array<fr_t, MAX_ROWS> values;
  for (size_t i = 0; i < rows.size(); ++i) {
    vars[i] = rows[i].var;
    values[i] = rows[i].value;
  }
  const gadgets::poseidon_result_t r =
      gadgets::poseidon_hash_merkle(cs, std::span<const r1cs::variable>(vars.data(), rows.size()),
                                    std::span<const fr_t>(values.data(), rows.size()));
  return {r.var, r.value};
}

// enforce_inclusion: PoRCircuit with leaf and root as existing variables, private (1 input).
template <class CS>
void enforce_inclusion(CS& cs, gadgets::por_hash_t h, const gadgets::por_path_t& path,
                       const gadgets::allocated_num_t& root, const gadgets::allocated_num_t& leaf) {
  gadgets::por(cs, h, path, gadgets::por_num_t::var(leaf), gadgets::por_num_t::var(root), true);
}

// ColumnProof::alloc (rows, layer 1 first), the column hash, then its tree_c inclusion.
template <class CS>
void parent_column(CS& cs, const column_witness_t& col, const gadgets::allocated_num_t& comm_c,
                   std::vector<gadgets::allocated_num_t>& rows_out) {
  rows_out.clear();
  for (const fr_t& r : col.rows) rows_out.push_back(gadgets::alloc_num(cs, r));
  const gadgets::allocated_num_t h =
      column_hash(cs, std::span<const gadgets::allocated_num_t>(rows_out));
  enforce_inclusion(cs, gadgets::por_hash_t::poseidon, col.path, comm_c, h);
}

}  // namespace detail

/// Proof::synthesize for one challenge (docs/spec/porep.md §8, in this exact order):
/// data_leaf; comm_d PoR; 6 DRG then 8 expander parent columns (alloc, hash, tree_c PoR);
/// challenge UInt64 + its input; per layer: parent bit decompositions and create_label; encode;
/// tree_r_last PoR of the encoding; column hash of the labels and its tree_c PoR.
template <r1cs::constraint_system CS>
void synthesize_challenge(CS& cs, const challenge_witness_t& w, unsigned layers,
                          const gadgets::allocated_num_t& comm_d,
                          const gadgets::allocated_num_t& comm_c,
                          const gadgets::allocated_num_t& comm_r_last,
                          std::span<const gadgets::boolean_t> replica_id_bits) {
  using gadgets::allocated_num_t;
  using gadgets::boolean_t;
  constexpr unsigned D = porep::DRG_DEGREE, E = porep::EXP_DEGREE;

  const allocated_num_t data_leaf = gadgets::alloc_num(cs, w.data_leaf);
  detail::enforce_inclusion(cs, gadgets::por_hash_t::sha256, w.comm_d_path, comm_d, data_leaf);

  std::array<std::vector<allocated_num_t>, D + E> cols;
  for (unsigned i = 0; i < D; ++i) detail::parent_column(cs, w.drg_parents[i], comm_c, cols[i]);
  for (unsigned i = 0; i < E; ++i) detail::parent_column(cs, w.exp_parents[i], comm_c, cols[D + i]);

  const gadgets::word64_t challenge = gadgets::word64_t::alloc(cs, w.challenge);
  gadgets::pack_into_inputs(cs, std::span<const boolean_t>(challenge.bits));

  // Label preimage (create_label_circuit): replica_id (256) ‖ layer u32 BE ‖ node u64 BE ‖ 160
  // zero bits ‖ 37 parent slots of 256 bits. Only the layer and the slots change per layer.
  std::vector<boolean_t> pre(512 + porep::TOTAL_PARENTS * 256, boolean_t::constant(false));
  std::copy(replica_id_bits.begin(), replica_id_bits.end(), pre.begin());
  challenge.to_bits_be(pre.data() + 288);
  std::array<std::array<boolean_t, 256>, D + E> pbits;
  std::vector<allocated_num_t> labels;
  labels.reserve(layers);
  for (unsigned layer = 1; layer <= layers; ++layer) {
    gadgets::word32_t::constant(layer).to_bits_be(pre.data() + 256);
    // Fresh decompositions every layer: the DRG parents' row `layer`, and for layer > 1 the
    // expander parents' row `layer − 1`.
    const unsigned n = layer == 1 ? D : D + E;
    for (unsigned p = 0; p < n; ++p) {
      const allocated_num_t& v = p < D ? cols[p][layer - 1] : cols[p][layer - 2];
      gadgets::fr_to_sha_bits(cs, v, pbits[p].data());
    }
    // Expansion to 37 slots: layer 1 = 6 DRG ×6 then DRG 0; later = 14 ×2 then the first 9.
    for (unsigned s = 0; s < porep::TOTAL_PARENTS; ++s) {
      const unsigned src = layer == 1 ? (s < 36 ? s % D : 0) : (s < 2 * n ? s % n : s - 2 * n);
      std::copy(pbits[src].begin(), pbits[src].end(), pre.begin() + 512 + 256 * s);
    }
    labels.push_back(gadgets::sha256_trunc254_circuit(cs, std::span<const boolean_t>(pre)));
  }

  const allocated_num_t encoded = gadgets::num_add(cs, labels.back(), data_leaf);
  detail::enforce_inclusion(cs, gadgets::por_hash_t::poseidon, w.comm_r_last_path, comm_r_last,
                            encoded);

  const allocated_num_t c_x = detail::column_hash(cs, std::span<const allocated_num_t>(labels));
  detail::enforce_inclusion(cs, gadgets::por_hash_t::poseidon, w.comm_c_path, comm_c, c_x);
}

/// What every challenge reads, allocated before the first one.
struct stacked_shared_t {
  gadgets::allocated_num_t comm_d, comm_c, comm_r_last;
  std::array<gadgets::boolean_t, 256> replica_id_bits;
};

/// StackedCircuit::synthesize up to the challenges (docs/spec/porep.md §7): replica_id alloc +
/// inputize + to_bits_le and reverse_bit_numbering; comm_d, comm_r alloc + inputize;
/// comm_r_last, comm_c alloc; Poseidon_2(comm_c, comm_r_last) with comm_r·1 = hash.
template <r1cs::constraint_system CS>
stacked_shared_t synthesize_stacked_prologue(CS& cs, const stacked_circuit_t& c) {
  using gadgets::allocated_num_t;
  stacked_shared_t sh;
  const allocated_num_t replica_id = gadgets::alloc_num(cs, c.replica_id);
  gadgets::inputize(cs, replica_id);
  gadgets::fr_to_sha_bits(cs, replica_id, sh.replica_id_bits.data());

  sh.comm_d = gadgets::alloc_num(cs, c.comm_d);
  gadgets::inputize(cs, sh.comm_d);
  const allocated_num_t comm_r = gadgets::alloc_num(cs, c.comm_r);
  gadgets::inputize(cs, comm_r);
  sh.comm_r_last = gadgets::alloc_num(cs, c.comm_r_last);
  sh.comm_c = gadgets::alloc_num(cs, c.comm_c);

  const std::array<r1cs::variable, 2> vars = {sh.comm_c.var, sh.comm_r_last.var};
  const std::array<fr_t, 2> values = {sh.comm_c.value, sh.comm_r_last.value};
  const gadgets::poseidon_result_t h = gadgets::poseidon_hash_merkle(
      cs, std::span<const r1cs::variable>(vars), std::span<const fr_t>(values));
  gadgets::enforce_num_equal(cs, comm_r, allocated_num_t{h.var, h.value});
  return sh;
}

/// Challenge i of the circuit (namespace "challenge_<i>").
template <r1cs::constraint_system CS>
void synthesize_stacked_challenge(CS& cs, const stacked_circuit_t& c, const stacked_shared_t& sh,
                                  size_t i) {
  char name[32];
  std::snprintf(name, sizeof(name), "challenge_%zu", i);
  r1cs::namespace_guard<CS> ns(cs, name);
  synthesize_challenge(cs, c.challenges[i], c.layers, sh.comm_d, sh.comm_c, sh.comm_r_last,
                       std::span<const gadgets::boolean_t>(sh.replica_id_bits));
}

/// StackedCircuit::synthesize: the prologue, then each challenge in order.
/// Precondition: validate_stacked_circuit(c) is ok.
template <r1cs::constraint_system CS>
void synthesize_stacked_circuit(CS& cs, const stacked_circuit_t& c) {
  const stacked_shared_t sh = synthesize_stacked_prologue(cs, c);
  for (size_t i = 0; i < c.challenges.size(); ++i) synthesize_stacked_challenge(cs, c, sh, i);
}

/// What one challenge adds to a circuit of this shape (every challenge adds the same), from a
/// witness-only synthesis of a blank one-challenge circuit; computed once per shape and kept.
r1cs::proving_cs::block_shape stacked_challenge_shape(unsigned layers,
                                                      const hash::tree_shape& tree_d,
                                                      const hash::tree_shape& tree_r);

/// synthesize_stacked_circuit into a proving_cs with the challenges synthesized in parallel on
/// `pool` (proving_cs::open_blocks; one task per challenge): the same rows, assignment and
/// densities as the sequential synthesis, ≈ min(challenges, threads) times sooner. An internal
/// error only if the challenges were not alike (a bug). Precondition: validate_stacked_circuit.
status synthesize_stacked_circuit_parallel(r1cs::proving_cs& cs, const stacked_circuit_t& c,
                                           thread_pool& pool);
/// The same into a witness_cs: the assignment only (a, b, c then come from stacked_abc_plan).
status synthesize_stacked_circuit_parallel(r1cs::witness_cs& cs, const stacked_circuit_t& c,
                                           thread_pool& pool);

/// The circuit's matrices compiled for computing a, b, c from a witness (r1cs::abc_plan): the
/// prologue and one challenge as the template, from the blank circuit of the shape. Build once
/// per shape (a 32 GiB partition's takes seconds and holds one challenge's rows). An internal
/// error only if the challenges were not alike (a bug).
result<r1cs::abc_plan> stacked_abc_plan(unsigned layers, const hash::tree_shape& tree_d,
                                        const hash::tree_shape& tree_r, unsigned challenges);

}  // namespace cuzk::filecoin::circuits
