// SPDX-License-Identifier: Apache-2.0
// The FallbackPoSt circuit (WindowPoSt and WinningPoSt; storage-proofs-post fallback/circuit.rs),
// constraint-, allocation- and coefficient-exact (docs/spec/post.md §6). Per sector slot, in order:
// alloc comm_r_last, comm_c, comm_r; inputize comm_r; Poseidon_2(comm_c, comm_r_last) and
// comm_r·1 = hash; then per challenge the PoR of its leaf (allocated, Root::Val) under comm_r_last
// (Root::Var), private: 1 input per challenge. Slots past the witness's sectors repeat the last one
// (WindowPoSt padding), so a blank circuit is one blank sector and a 1-sector 32 GiB partition
// holds one sector's witness, not 2,349. The same template runs in shape_cs (counts), witness_cs,
// proving_cs and matrix_cs. bellperson's parallel chunks + extend give the same rows, variables
// and densities as sequential synthesis (docs/spec/post.md §6); so does the parallel synthesis
// here, one proving_cs block per slot.
// Rows (constraints + inputs): WindowPoSt 2 KiB 21,889, 32 GiB 125,305,057; WinningPoSt 2 KiB
// 90,883, 32 GiB 370,723.
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
#include "filecoin/gadgets/num.hpp"
#include "filecoin/gadgets/por.hpp"
#include "filecoin/gadgets/poseidon.hpp"
#include "filecoin/hash/merkle.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "r1cs/abc_plan.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::filecoin::circuits {

using ff::fr_t;

/// circuit::Sector: one slot's witness. paths[n].leaf is the challenged leaf, the path indices
/// give the index bits (their root is not used: the root is comm_r_last).
struct post_sector_witness_t {
  fr_t comm_r = fr_t::zero();  ///< the public sector's comm_r (FallbackPoStSectorProof.comm_r)
  fr_t comm_c = fr_t::zero();
  fr_t comm_r_last = fr_t::zero();
  std::vector<gadgets::por_path_t> paths;  ///< challenge_count paths of the tree shape
};

/// FallbackPoStCircuit of one partition.
struct fallback_post_circuit_t {
  hash::tree_shape tree;         ///< tree_r_last
  unsigned sector_count = 0;     ///< slots (circuit_sector_count)
  unsigned challenge_count = 0;  ///< challenges per slot (circuit_challenge_count)
  /// 1..sector_count witnesses; slot s uses sectors[min(s, sectors.size() − 1)].
  std::vector<post_sector_witness_t> sectors;

  const post_sector_witness_t& slot(size_t s) const {
    return sectors[s < sectors.size() ? s : sectors.size() - 1];
  }
};

/// The blank circuit of a config (one zero sector repeated over every slot): what shape_cs,
/// matrix_cs and the Groth16 setup synthesize.
fallback_post_circuit_t blank_fallback_post_circuit(const post::post_config_t& cfg);

/// The circuit of one partition from the vanilla proofs of its sectors
/// (post::circuit_slots: window 1..sector_count proofs, padded by repeating the last;
/// winning exactly one, unrolled into 66 one-challenge slots). Checks shapes
/// (post::check_sector_proof_shape) and that every value is < r; it does not check the
/// proofs (post::validate_partition does): a wrong proof gives an unsatisfied circuit,
/// never an abort.
result<fallback_post_circuit_t> fallback_post_circuit_from_vanilla(
    const post::post_config_t& cfg, std::span<const post::fallback_sector_proof_t> proofs);

/// The layout checks synthesis relies on (counts ≥ 1, 1..sector_count sectors, every path of the
/// tree's height and arities with index < arity).
status validate_fallback_post_circuit(const fallback_post_circuit_t& c);

/// Counts without synthesizing (docs/spec/post.md §2): per slot 313 + C·PoR constraints, 1 + C
/// inputs, 314 + C·(1 + Σ levels (log2 a + (a − 1) + ins(a) + Poseidon(a))) aux.
struct fallback_post_counts_t {
  size_t constraints = 0;  ///< circuit constraints (without the input rows)
  size_t inputs = 0;       ///< including ONE
  size_t aux = 0;
  size_t rows() const { return constraints + inputs; }
};
fallback_post_counts_t fallback_post_circuit_counts(const hash::tree_shape& tree,
                                                    unsigned sector_count,
                                                    unsigned challenge_count);
fallback_post_counts_t fallback_post_circuit_counts(const post::post_config_t& cfg);

/// Sector::synthesize for one slot (docs/spec/post.md §6 steps 1–5).
template <r1cs::constraint_system CS>
void synthesize_post_sector(CS& cs, const post_sector_witness_t& w) {
  using gadgets::allocated_num_t;
  const allocated_num_t comm_r_last = gadgets::alloc_num(cs, w.comm_r_last);
  const allocated_num_t comm_c = gadgets::alloc_num(cs, w.comm_c);
  const allocated_num_t comm_r = gadgets::alloc_num(cs, w.comm_r);
  gadgets::inputize(cs, comm_r);
  {
    const std::array<r1cs::variable, 2> vars = {comm_c.var, comm_r_last.var};
    const std::array<fr_t, 2> values = {comm_c.value, comm_r_last.value};
    const gadgets::poseidon_result_t h = gadgets::poseidon_hash_merkle(
        cs, std::span<const r1cs::variable>(vars), std::span<const fr_t>(values));
    gadgets::enforce_num_equal(cs, comm_r, allocated_num_t{h.var, h.value});
  }
  char name[48];
  for (size_t n = 0; n < w.paths.size(); ++n) {
    std::snprintf(name, sizeof(name), "challenge_inclusion_%zu", n);
    r1cs::namespace_guard<CS> ns(cs, name);
    gadgets::por(cs, gadgets::por_hash_t::poseidon, w.paths[n],
                 gadgets::por_num_t::val(w.paths[n].leaf), gadgets::por_num_t::var(comm_r_last),
                 true);
  }
}

/// Slot s of the circuit (namespace "sector_<s>"): reads nothing allocated before it, and every
/// slot allocates and enforces the same counts, so the slots are the parallel synthesis's blocks.
template <r1cs::constraint_system CS>
void synthesize_fallback_post_slot(CS& cs, const fallback_post_circuit_t& c, size_t s) {
  char name[32];
  std::snprintf(name, sizeof(name), "sector_%zu", s);
  r1cs::namespace_guard<CS> ns(cs, name);
  synthesize_post_sector(cs, c.slot(s));
}

/// FallbackPoStCircuit::synthesize: every slot in order.
/// Precondition: validate_fallback_post_circuit(c) is ok.
template <r1cs::constraint_system CS>
void synthesize_fallback_post_circuit(CS& cs, const fallback_post_circuit_t& c) {
  for (size_t s = 0; s < c.sector_count; ++s) synthesize_fallback_post_slot(cs, c, s);
}

/// What one slot adds to a circuit of this tree and challenge count (every slot adds the same),
/// from a witness-only synthesis of a blank slot; computed once per shape and kept.
r1cs::proving_cs::block_shape fallback_post_slot_shape(const hash::tree_shape& tree,
                                                       unsigned challenge_count);

/// synthesize_fallback_post_circuit into a proving_cs with the slots synthesized in parallel on
/// `pool` (one task per slot; bellperson's prover splits them into chunks the same way,
/// docs/spec/post.md §6): the same rows, assignment and densities as the sequential synthesis. An
/// internal error only if the slots were not alike (a bug). Precondition:
/// validate_fallback_post_circuit(c) is ok.
status synthesize_fallback_post_circuit_parallel(r1cs::proving_cs& cs,
                                                 const fallback_post_circuit_t& c,
                                                 thread_pool& pool);
/// The same into a witness_cs: the assignment only (a, b, c then come from
/// fallback_post_abc_plan).
status synthesize_fallback_post_circuit_parallel(r1cs::witness_cs& cs,
                                                 const fallback_post_circuit_t& c,
                                                 thread_pool& pool);

/// The circuit's matrices compiled for computing a, b, c from a witness (r1cs::abc_plan): no
/// prologue, one slot as the template, from the blank circuit of the shape. Build once per
/// config. An internal error only if the slots were not alike (a bug).
result<r1cs::abc_plan> fallback_post_abc_plan(const hash::tree_shape& tree, unsigned sector_count,
                                              unsigned challenge_count);
result<r1cs::abc_plan> fallback_post_abc_plan(const post::post_config_t& cfg);

}  // namespace cuzk::filecoin::circuits
