// SPDX-License-Identifier: Apache-2.0
// EmptySectorUpdate circuit inputs: the blank circuit, the circuit of a partition's vanilla proof
// (EmptySectorUpdateCompound::circuit), the layout check, the closed-form counts, the public
// inputs and the parallel synthesis of a partition's challenges.
#include "filecoin/circuits/empty_sector_update_circuit.hpp"

#include <string>
#include <tuple>

#include "r1cs/parallel_synthesis.hpp"

namespace cuzk::filecoin::circuits {
namespace {

status to_fr(const common::domain_t& b, fr_t& out, const std::string& what) {
  if (!hash::bytes_to_fr(b, out)) return {status_code::non_canonical, what + " is not < r"};
  return {};
}

status siblings_to_fr(std::span<const common::domain_t> in, std::vector<fr_t>& out,
                      const std::string& what) {
  out.resize(in.size());
  for (size_t i = 0; i < in.size(); ++i)
    if (status s = to_fr(in[i], out[i], what + " sibling " + std::to_string(i)); !s) return s;
  return {};
}

size_t tree_r_siblings(const hash::tree_shape& t) {
  size_t n = 0;
  for (unsigned l = 0; l < t.height(); ++l) n += t.arity_at(l) - 1;
  return n;
}

}  // namespace

empty_sector_update_circuit_t blank_empty_sector_update_circuit(const snap::update_config_t& cfg) {
  empty_sector_update_circuit_t c;
  c.config = cfg;
  c.apex_leaves.assign(cfg.apex_leaves, fr_t::zero());
  c.partition_path.assign(cfg.partition_bits, fr_t::zero());
  update_challenge_witness_t w;
  w.path_r_old.assign(tree_r_siblings(cfg.tree_r), fr_t::zero());
  w.path_r_new = w.path_r_old;
  w.path_d_new.assign(cfg.tree_d_levels_below_apex(), fr_t::zero());
  c.challenges.assign(cfg.challenges, w);
  return c;
}

result<empty_sector_update_circuit_t> empty_sector_update_circuit_from_vanilla(
    const snap::update_config_t& cfg, const snap::update_commitments_t& comms, unsigned k,
    const snap::partition_proof_t& proof) {
  if (k >= cfg.partitions)
    return {status_code::invalid_argument,
            "partition " + std::to_string(k) + " of " + std::to_string(cfg.partitions)};
  if (status s = snap::check_partition_proof_shape(cfg, proof); !s) return s;
  empty_sector_update_circuit_t c;
  c.config = cfg;
  c.partition = k;
  if (status s = to_fr(comms.comm_r_old, c.comm_r_old, "comm_r_old"); !s) return s;
  if (status s = to_fr(comms.comm_d_new, c.comm_d_new, "comm_d_new"); !s) return s;
  if (status s = to_fr(comms.comm_r_new, c.comm_r_new, "comm_r_new"); !s) return s;
  if (status s = to_fr(proof.comm_c, c.comm_c, "comm_c"); !s) return s;
  const snap::challenge_proof_t& first = proof.challenge_proofs[0];
  if (status s = to_fr(first.proof_r_old.root, c.root_r_old, "root_r_old"); !s) return s;
  if (status s = to_fr(first.proof_r_new.root, c.root_r_new, "root_r_new"); !s) return s;
  if (status s = siblings_to_fr(proof.apex_leafs, c.apex_leaves, "apex leaf"); !s) return s;
  const unsigned apex_top = cfg.node_bits - cfg.partition_bits;
  if (status s = siblings_to_fr(std::span(first.proof_d_new.hashes).subspan(apex_top),
                                c.partition_path, "partition path");
      !s)
    return s;
  c.challenges.resize(cfg.challenges);
  for (size_t i = 0; i < cfg.challenges; ++i) {
    const snap::challenge_proof_t& cp = proof.challenge_proofs[i];
    update_challenge_witness_t& w = c.challenges[i];
    const std::string what = "challenge " + std::to_string(i);
    if (status s = to_fr(cp.proof_r_old.leaf, w.leaf_r_old, what + " leaf_r_old"); !s) return s;
    if (status s = to_fr(cp.proof_d_new.leaf, w.leaf_d_new, what + " leaf_d_new"); !s) return s;
    if (status s = siblings_to_fr(cp.proof_r_old.hashes, w.path_r_old, what + " proof_r_old"); !s)
      return s;
    if (status s = siblings_to_fr(cp.proof_r_new.hashes, w.path_r_new, what + " proof_r_new"); !s)
      return s;
    if (status s =
            siblings_to_fr(std::span(cp.proof_d_new.hashes).first(cfg.tree_d_levels_below_apex()),
                           w.path_d_new, what + " proof_d_new");
        !s)
      return s;
  }
  if (status s = validate_empty_sector_update_circuit(c); !s) return s;
  return c;
}

status validate_empty_sector_update_circuit(const empty_sector_update_circuit_t& c) {
  const snap::update_config_t& cfg = c.config;
  if (status s = cfg.tree_r.validate(); !s) return s;
  if (cfg.tree_r.num_leaves != cfg.nodes || cfg.tree_r.index_bits() != cfg.node_bits)
    return {status_code::invalid_argument, "tree_r does not fit the node count"};
  if (c.partition >= cfg.partitions)
    return {status_code::invalid_argument,
            "partition " + std::to_string(c.partition) + " of " + std::to_string(cfg.partitions)};
  if (c.apex_leaves.size() != cfg.apex_leaves || c.partition_path.size() != cfg.partition_bits ||
      c.challenges.size() != cfg.challenges)
    return {status_code::size_mismatch, "apex leaves, partition path or challenges do not fit"};
  const size_t r_siblings = tree_r_siblings(cfg.tree_r);
  for (size_t i = 0; i < c.challenges.size(); ++i) {
    const update_challenge_witness_t& w = c.challenges[i];
    if (w.path_r_old.size() != r_siblings || w.path_r_new.size() != r_siblings ||
        w.path_d_new.size() != cfg.tree_d_levels_below_apex())
      return {status_code::size_mismatch,
              "challenge " + std::to_string(i) + ": path lengths do not fit the trees"};
  }
  return {};
}

update_counts_t empty_sector_update_circuit_counts(const snap::update_config_t& cfg) {
  const size_t poseidon_2 = gadgets::poseidon_hash_constraints(2);
  const size_t sha_hash2 = 2 * 256 + 44'866 + 1;                        // hash2_circuit
  const size_t sha_level = gadgets::insert_constraints(2) + sha_hash2;  // insert_2 + hash
  const size_t digest = 1 + poseidon_2 + (gadgets::FR_NUM_BITS + 1);
  size_t por_r = 1;
  for (unsigned l = 0; l < cfg.tree_r.height(); ++l) {
    const unsigned a = cfg.tree_r.arity_at(l);
    por_r += gadgets::insert_constraints(a) + gadgets::poseidon_hash_constraints(a);
  }
  const size_t p = cfg.partition_bits, A = cfg.apex_leaves;
  const size_t globals = 1 + (p + snap::H_SELECT_BITS + 1) + 1 + 3 + poseidon_2 +
                         2 * (poseidon_2 + 1) + (A - 1) * sha_hash2 + p * sha_level + 1 +
                         cfg.digests * digest;
  const size_t high_bits = 2 * snap::H_SELECT_BITS + 1;
  const size_t per_challenge = high_bits + poseidon_2 + 2 + 2 * por_r + (A - 1) +
                               cfg.tree_d_levels_below_apex() * sha_level + 1;
  return {globals + cfg.challenges * per_challenge, 5};
}

result<std::vector<fr_t>> empty_sector_update_public_inputs(const snap::update_config_t& cfg,
                                                            const snap::update_commitments_t& comms,
                                                            unsigned k) {
  if (k >= cfg.partitions)
    return {status_code::invalid_argument,
            "partition " + std::to_string(k) + " of " + std::to_string(cfg.partitions)};
  std::vector<fr_t> out(4);
  out[0] = fr_t::from_uint(cfg.k_and_h_select(k));
  if (status s = to_fr(comms.comm_r_old, out[1], "comm_r_old"); !s) return s;
  if (status s = to_fr(comms.comm_d_new, out[2], "comm_d_new"); !s) return s;
  if (status s = to_fr(comms.comm_r_new, out[3], "comm_r_new"); !s) return s;
  return out;
}

r1cs::proving_cs::block_shape update_challenge_shape(const snap::update_config_t& cfg) {
  // What the challenge's rows and variables depend on: tree_r, the node, partition and apex bits
  // and the apex leaves (the config of a shape is a function of these).
  using key_t = std::tuple<unsigned, unsigned, unsigned, uint64_t, unsigned, unsigned, unsigned,
                           unsigned, unsigned>;
  static r1cs::block_shape_memo<key_t> known;
  const key_t key{cfg.tree_r.base_arity, cfg.tree_r.sub_arity, cfg.tree_r.top_arity,
                  cfg.tree_r.num_leaves, cfg.node_bits,        cfg.partition_bits,
                  cfg.challenge_bits,    cfg.apex_bits,        cfg.apex_leaves};
  return known.get(key, [&] {
    const empty_sector_update_circuit_t blank = blank_empty_sector_update_circuit(cfg);
    return r1cs::measure_block_shape(
        [&](r1cs::witness_cs& cs) { return synthesize_update_prologue(cs, blank); },
        [&](r1cs::witness_cs& cs, const update_shared_t& sh) {
          synthesize_update_challenge(cs, blank, sh, 0);
        });
  });
}

namespace {

// The parallel synthesis into a proving_cs or a witness_cs.
template <class CS>
status synthesize_update_parallel(CS& cs, const empty_sector_update_circuit_t& c,
                                  thread_pool& pool) {
  const update_shared_t sh = synthesize_update_prologue(cs, c);
  return r1cs::synthesize_blocks_parallel(cs, c.challenges.size(), update_challenge_shape(c.config),
                                          pool, [&](typename CS::block_cs& block, size_t ci) {
                                            synthesize_update_challenge(block, c, sh, ci);
                                          });
}

}  // namespace

status synthesize_empty_sector_update_circuit_parallel(r1cs::proving_cs& cs,
                                                       const empty_sector_update_circuit_t& c,
                                                       thread_pool& pool) {
  return synthesize_update_parallel(cs, c, pool);
}

status synthesize_empty_sector_update_circuit_parallel(r1cs::witness_cs& cs,
                                                       const empty_sector_update_circuit_t& c,
                                                       thread_pool& pool) {
  return synthesize_update_parallel(cs, c, pool);
}

result<r1cs::abc_plan> empty_sector_update_abc_plan(const snap::update_config_t& cfg) {
  const empty_sector_update_circuit_t blank = blank_empty_sector_update_circuit(cfg);
  return r1cs::compile_abc_plan(
      blank.challenges.size(),
      [&](r1cs::abc_plan_recorder& cs) { return synthesize_update_prologue(cs, blank); },
      [&](r1cs::abc_plan_recorder& cs, const update_shared_t& sh, size_t ci) {
        synthesize_update_challenge(cs, blank, sh, ci);
      });
}

}  // namespace cuzk::filecoin::circuits
