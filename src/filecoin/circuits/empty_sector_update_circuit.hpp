// SPDX-License-Identifier: Apache-2.0
// The EmptySectorUpdate (SnapDeals) circuit of one partition (storage-proofs-update circuit.rs,
// gadgets.rs), constraint-, allocation- and coefficient-exact (docs/spec/snap.md §6). Global block:
// k_and_h_select (input 1) and its p + 6 bits, the packed partition, comm_r_old / comm_d_new /
// comm_r_new (inputs 2-4), phi, comm_c and the two tree_r roots, the apex leaves and partition
// path, the comm_r checks, apex_por and gen_challenge_bits. Per challenge: the high bits and rho,
// the leaves and label_r_new, the two tree_r PoRs, the apex-leaf select and the tree_d PoR below
// it. The same template runs in shape_cs (counts), witness_cs, proving_cs and matrix_cs; the
// parallel synthesis fills the challenges at once, one proving_cs block each.
// Constraints: 2 KiB 1,705,039; 32 GiB 81,049,499 (+ 5 input rows).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "filecoin/gadgets/insertion.hpp"
#include "filecoin/gadgets/num.hpp"
#include "filecoin/gadgets/poseidon.hpp"
#include "filecoin/gadgets/update.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/vanilla_proof.hpp"
#include "filecoin/snap/vanilla_prove.hpp"
#include "r1cs/abc_plan.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::filecoin::circuits {

using ff::fr_t;

/// One challenge's witness (vanilla ChallengeProof as the circuit reads it).
struct update_challenge_witness_t {
  fr_t leaf_r_old = fr_t::zero();
  fr_t leaf_d_new = fr_t::zero();
  std::vector<fr_t> path_r_old;  ///< every sibling of proof_r_old, leaf level first
  std::vector<fr_t> path_r_new;  ///< the same of proof_r_new
  std::vector<fr_t> path_d_new;  ///< the first L − p − a siblings of proof_d_new
};

/// EmptySectorUpdateCircuit of partition `partition`.
struct empty_sector_update_circuit_t {
  snap::update_config_t config;
  unsigned partition = 0;
  fr_t comm_r_old = fr_t::zero();
  fr_t comm_d_new = fr_t::zero();
  fr_t comm_r_new = fr_t::zero();
  fr_t comm_c = fr_t::zero();
  fr_t root_r_old = fr_t::zero();
  fr_t root_r_new = fr_t::zero();
  std::vector<fr_t> apex_leaves;     ///< A
  std::vector<fr_t> partition_path;  ///< p siblings, apex root upward
  std::vector<update_challenge_witness_t> challenges;
};

/// The blank circuit of a config (zero witness, partition 0): what shape_cs, matrix_cs and the
/// Groth16 setup synthesize.
empty_sector_update_circuit_t blank_empty_sector_update_circuit(const snap::update_config_t& cfg);

/// The circuit of partition k from its vanilla proof and the public commitments. Checks the shape
/// (snap::check_partition_proof_shape) and that every value is < r; it does not check the
/// proof (snap::validate_partition_proof does): a wrong proof gives an unsatisfied
/// circuit, never an abort.
result<empty_sector_update_circuit_t> empty_sector_update_circuit_from_vanilla(
    const snap::update_config_t& cfg, const snap::update_commitments_t& comms, unsigned k,
    const snap::partition_proof_t& proof);

/// The layout checks synthesis relies on (k < P, vector sizes of the config).
status validate_empty_sector_update_circuit(const empty_sector_update_circuit_t& c);

/// Constraints and inputs without synthesizing (docs/spec/snap.md §7): globals 1 + (p + 6) + 1 + 1
/// + 3 + 311 + 2·312 + (A − 1)·45,379 + p·45,381 + 1 + D·568, per challenge 13 + 311 + 2 +
/// 2·PoR_R + (A − 1) + (L − p − a)·45,381 + 1; 5 inputs with ONE.
struct update_counts_t {
  size_t constraints = 0;  ///< circuit constraints (without the input rows)
  size_t inputs = 0;       ///< including ONE
  size_t rows() const { return constraints + inputs; }
};
update_counts_t empty_sector_update_circuit_counts(const snap::update_config_t& cfg);

/// The 4 public inputs of partition k: k_and_h_select, comm_r_old, comm_d_new, comm_r_new (ONE
/// not included). non_canonical for a commitment ≥ r, invalid_argument for k ≥ P.
result<std::vector<fr_t>> empty_sector_update_public_inputs(const snap::update_config_t& cfg,
                                                            const snap::update_commitments_t& comms,
                                                            unsigned k);

/// What every challenge reads, allocated by the global block.
struct update_shared_t {
  std::vector<gadgets::boolean_t> kh_bits;      ///< the p partition bits, then the h_select bits
  std::vector<gadgets::boolean_t> random_bits;  ///< challenge_bits per challenge
  gadgets::allocated_num_t phi, root_r_old, root_r_new;
  std::vector<gadgets::allocated_num_t> apex_leaves;
};

/// EmptySectorUpdateCircuit::synthesize up to the challenges: the global block (docs/spec/snap.md
/// §6).
template <r1cs::constraint_system CS>
update_shared_t synthesize_update_prologue(CS& cs, const empty_sector_update_circuit_t& c) {
  using gadgets::allocated_num_t;
  using gadgets::boolean_t;
  const snap::update_config_t& cfg = c.config;
  const size_t p = cfg.partition_bits;
  update_shared_t sh;

  // Public inputs and the k / h_select bits.
  const allocated_num_t k_and_h_select =
      gadgets::alloc_num(cs, fr_t::from_uint(cfg.k_and_h_select(c.partition)));
  gadgets::inputize(cs, k_and_h_select);
  sh.kh_bits = gadgets::alloc_bits_le_packed(cs, k_and_h_select, p + snap::H_SELECT_BITS);
  const std::span<const boolean_t> partition_bits(sh.kh_bits.data(), p);
  const allocated_num_t partition = gadgets::pack_bits(cs, partition_bits);
  const allocated_num_t comm_r_old = gadgets::alloc_num(cs, c.comm_r_old);
  gadgets::inputize(cs, comm_r_old);
  const allocated_num_t comm_d_new = gadgets::alloc_num(cs, c.comm_d_new);
  gadgets::inputize(cs, comm_d_new);
  const allocated_num_t comm_r_new = gadgets::alloc_num(cs, c.comm_r_new);
  gadgets::inputize(cs, comm_r_new);
  sh.phi = gadgets::poseidon_hash_randomness(cs, comm_d_new, comm_r_old);

  // Private inputs besides the challenges' paths.
  const allocated_num_t comm_c = gadgets::alloc_num(cs, c.comm_c);
  sh.root_r_old = gadgets::alloc_num(cs, c.root_r_old);
  sh.root_r_new = gadgets::alloc_num(cs, c.root_r_new);
  sh.apex_leaves.resize(c.apex_leaves.size());
  for (size_t i = 0; i < sh.apex_leaves.size(); ++i)
    sh.apex_leaves[i] = gadgets::alloc_num(cs, c.apex_leaves[i]);
  std::vector<allocated_num_t> partition_path(c.partition_path.size());
  for (size_t i = 0; i < partition_path.size(); ++i)
    partition_path[i] = gadgets::alloc_num(cs, c.partition_path[i]);

  // comm_r = H_2(comm_c, root) for the old and the new replica.
  for (const auto& [root, comm] :
       {std::pair{sh.root_r_old, comm_r_old}, std::pair{sh.root_r_new, comm_r_new}}) {
    const std::array<r1cs::variable, 2> vars = {comm_c.var, root.var};
    const std::array<fr_t, 2> values = {comm_c.value, root.value};
    const gadgets::poseidon_result_t h = gadgets::poseidon_hash_merkle(
        cs, std::span<const r1cs::variable>(vars), std::span<const fr_t>(values));
    gadgets::enforce_num_equal(cs, allocated_num_t{h.var, h.value}, comm);
  }

  gadgets::apex_por(cs, std::span<const allocated_num_t>(sh.apex_leaves), partition_bits,
                    std::span<const allocated_num_t>(partition_path), comm_d_new);
  sh.random_bits = gadgets::gen_challenge_bits(cs, comm_r_new, partition, cfg.challenges,
                                               cfg.challenge_bits, cfg.digests);
  return sh;
}

/// Challenge ci of the circuit (namespace "challenge_<ci>"): reads only the global block, and
/// every challenge allocates and enforces the same counts (no inputs), so the challenges are the
/// parallel synthesis's blocks.
template <r1cs::constraint_system CS>
void synthesize_update_challenge(CS& cs, const empty_sector_update_circuit_t& c,
                                 const update_shared_t& sh, size_t ci) {
  using gadgets::allocated_num_t;
  using gadgets::boolean_t;
  const snap::update_config_t& cfg = c.config;
  const size_t p = cfg.partition_bits, bits = cfg.challenge_bits,
               below_apex = cfg.tree_d_levels_below_apex();
  const std::span<const boolean_t> partition_bits(sh.kh_bits.data(), p);
  const std::span<const boolean_t> h_select_bits(sh.kh_bits.data() + p, snap::H_SELECT_BITS);
  const hash::tree_shape tree_d_below_apex = hash::tree_shape::binary(uint64_t(1) << below_apex);

  char name[48];
  std::snprintf(name, sizeof(name), "challenge_%zu", ci);
  r1cs::namespace_guard<CS> ns(cs, name);
  const update_challenge_witness_t& w = c.challenges[ci];
  std::vector<boolean_t> c_bits(cfg.node_bits);
  std::copy(sh.random_bits.begin() + ci * bits, sh.random_bits.begin() + (ci + 1) * bits,
            c_bits.begin());
  std::copy(partition_bits.begin(), partition_bits.end(), c_bits.begin() + bits);
  const std::span<const boolean_t> cb(c_bits);

  const allocated_num_t high =
      gadgets::get_challenge_high_bits(cs, cb, h_select_bits, std::span<const unsigned>(cfg.hs));
  const allocated_num_t rho = gadgets::poseidon_hash_randomness(cs, sh.phi, high);
  const allocated_num_t leaf_r_old = gadgets::alloc_num(cs, w.leaf_r_old);
  const allocated_num_t leaf_d_new = gadgets::alloc_num(cs, w.leaf_d_new);
  const allocated_num_t leaf_r_new = gadgets::label_r_new(cs, leaf_r_old, leaf_d_new, rho);

  std::vector<allocated_num_t> siblings;
  for (const auto& [path, leaf, root] : {std::tuple{&w.path_r_old, leaf_r_old, sh.root_r_old},
                                         std::tuple{&w.path_r_new, leaf_r_new, sh.root_r_new}}) {
    siblings.resize(path->size());
    for (size_t i = 0; i < siblings.size(); ++i) siblings[i] = gadgets::alloc_num(cs, (*path)[i]);
    gadgets::por_no_challenge_input(cs, gadgets::por_hash_t::poseidon, cfg.tree_r, cb, leaf,
                                    std::span<const allocated_num_t>(siblings), root);
  }

  const allocated_num_t apex_leaf = gadgets::select(
      cs, std::span<const allocated_num_t>(sh.apex_leaves), cb.subspan(below_apex, cfg.apex_bits));
  siblings.resize(w.path_d_new.size());
  for (size_t i = 0; i < siblings.size(); ++i)
    siblings[i] = gadgets::alloc_num(cs, w.path_d_new[i]);
  gadgets::por_no_challenge_input(cs, gadgets::por_hash_t::sha256, tree_d_below_apex,
                                  cb.first(below_apex), leaf_d_new,
                                  std::span<const allocated_num_t>(siblings), apex_leaf);
}

/// EmptySectorUpdateCircuit::synthesize: the global block, then each challenge in order.
/// Precondition: validate_empty_sector_update_circuit(c).
template <r1cs::constraint_system CS>
void synthesize_empty_sector_update_circuit(CS& cs, const empty_sector_update_circuit_t& c) {
  const update_shared_t sh = synthesize_update_prologue(cs, c);
  for (size_t ci = 0; ci < c.challenges.size(); ++ci) synthesize_update_challenge(cs, c, sh, ci);
}

/// What one challenge adds to a circuit of this config (every challenge adds the same), from a
/// witness-only synthesis of the blank circuit's global block and first challenge; computed once
/// per config and kept.
r1cs::proving_cs::block_shape update_challenge_shape(const snap::update_config_t& cfg);

/// synthesize_empty_sector_update_circuit into a proving_cs with the challenges synthesized in
/// parallel on `pool` (one task per challenge, after the global block): the same rows, assignment
/// and densities as the sequential synthesis. An internal error only if the challenges were not
/// alike (a bug). Precondition: validate_empty_sector_update_circuit(c).
status synthesize_empty_sector_update_circuit_parallel(r1cs::proving_cs& cs,
                                                       const empty_sector_update_circuit_t& c,
                                                       thread_pool& pool);
/// The same into a witness_cs: the assignment only (a, b, c then come from
/// empty_sector_update_abc_plan).
status synthesize_empty_sector_update_circuit_parallel(r1cs::witness_cs& cs,
                                                       const empty_sector_update_circuit_t& c,
                                                       thread_pool& pool);

/// The circuit's matrices compiled for computing a, b, c from a witness (r1cs::abc_plan): the
/// global block as the prologue and one challenge as the template, from the blank circuit of the
/// config. Build once per config. An internal error only if the challenges were not alike (a
/// bug).
result<r1cs::abc_plan> empty_sector_update_abc_plan(const snap::update_config_t& cfg);

}  // namespace cuzk::filecoin::circuits
