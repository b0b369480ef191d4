// SPDX-License-Identifier: Apache-2.0
// StackedCircuit inputs: the blank circuit of a shape, the circuit of a C1 partition (the
// conversions of rust-fil-proofs StackedCompound::circuit and From<VanillaProof>), the layout
// check synthesis relies on, the closed-form counts of docs/spec/porep.md §9, and the parallel
// synthesis of a partition's challenges.
#include "filecoin/circuits/stacked_circuit.hpp"

#include <string>
#include <tuple>

#include "r1cs/parallel_synthesis.hpp"

namespace cuzk::filecoin::circuits {
namespace {

column_witness_t blank_column(unsigned layers, const hash::tree_shape& tree_r) {
  return {std::vector<fr_t>(layers, fr_t::zero()), gadgets::blank_por_path(tree_r)};
}

status check_path(const gadgets::por_path_t& p, const hash::tree_shape& shape,
                  const std::string& what) {
  if (p.levels.size() != shape.height()) {
    return {status_code::size_mismatch, what + ": " + std::to_string(p.levels.size()) +
                                            " levels, the tree has " +
                                            std::to_string(shape.height())};
  }
  for (unsigned l = 0; l < shape.height(); ++l) {
    const auto& lv = p.levels[l];
    const unsigned a = shape.arity_at(l);
    if (lv.arity != a || lv.siblings.size() + 1 != a || lv.index >= a) {
      return {status_code::size_mismatch,
              what + ": level " + std::to_string(l) + " does not have arity " + std::to_string(a)};
    }
  }
  return {};
}

bool column_arity_supported(unsigned layers) {
  return layers == 2 || layers == 4 || layers == 8 || layers == 11 || layers == 16;
}

}  // namespace

stacked_circuit_t blank_stacked_circuit(unsigned layers, const hash::tree_shape& tree_d,
                                        const hash::tree_shape& tree_r, unsigned challenges) {
  stacked_circuit_t c;
  c.layers = layers;
  c.tree_d = tree_d;
  c.tree_r = tree_r;
  challenge_witness_t w;
  w.comm_d_path = gadgets::blank_por_path(tree_d);
  w.comm_r_last_path = gadgets::blank_por_path(tree_r);
  w.comm_c_path = w.comm_r_last_path;
  for (auto& col : w.drg_parents) col = blank_column(layers, tree_r);
  for (auto& col : w.exp_parents) col = blank_column(layers, tree_r);
  c.challenges.assign(challenges, w);
  return c;
}

stacked_circuit_t blank_stacked_circuit(const porep::porep_config_t& cfg) {
  return blank_stacked_circuit(cfg.layers(), cfg.sector.tree_d, cfg.sector.tree_r,
                               cfg.challenges_per_partition());
}

status validate_stacked_circuit(const stacked_circuit_t& c) {
  if (!column_arity_supported(c.layers))
    return {status_code::invalid_argument, "unsupported layer count " + std::to_string(c.layers)};
  if (status s = c.tree_d.validate(); !s) return s;
  if (status s = c.tree_r.validate(); !s) return s;
  if (c.tree_d.base_arity != 2 || c.tree_d.sub_arity != 0)
    return {status_code::invalid_argument, "tree_d must be binary"};
  for (size_t i = 0; i < c.challenges.size(); ++i) {
    const challenge_witness_t& w = c.challenges[i];
    const std::string ch = "challenge " + std::to_string(i);
    if (status s = check_path(w.comm_d_path, c.tree_d, ch + " comm_d path"); !s) return s;
    if (status s = check_path(w.comm_r_last_path, c.tree_r, ch + " comm_r_last path"); !s) return s;
    if (status s = check_path(w.comm_c_path, c.tree_r, ch + " comm_c path"); !s) return s;
    for (size_t p = 0; p < porep::PARENT_COUNT; ++p) {
      const column_witness_t& col =
          p < porep::DRG_DEGREE ? w.drg_parents[p] : w.exp_parents[p - porep::DRG_DEGREE];
      const std::string what = ch + " parent " + std::to_string(p);
      if (col.rows.size() != c.layers) {
        return {status_code::size_mismatch, what + ": " + std::to_string(col.rows.size()) +
                                                " rows, expected " + std::to_string(c.layers)};
      }
      if (status s = check_path(col.path, c.tree_r, what + " path"); !s) return s;
    }
  }
  return {};
}

result<stacked_circuit_t> stacked_circuit_from_c1(const porep::porep_config_t& cfg,
                                                  const porep::c1_output_t& c1, unsigned k) {
  const unsigned parts = cfg.partitions(), cpp = cfg.challenges_per_partition();
  if (c1.vanilla_proofs.size() != parts) {
    return {status_code::size_mismatch, "C1 has " + std::to_string(c1.vanilla_proofs.size()) +
                                            " partitions, the proof needs " +
                                            std::to_string(parts)};
  }
  if (k >= parts) {
    return {status_code::invalid_argument,
            "partition " + std::to_string(k) + " out of range (" + std::to_string(parts) + ")"};
  }
  const auto& proofs = c1.vanilla_proofs[k];
  if (proofs.size() != cpp) {
    return {status_code::size_mismatch, "partition " + std::to_string(k) + " has " +
                                            std::to_string(proofs.size()) +
                                            " challenge proofs, expected " + std::to_string(cpp)};
  }

  stacked_circuit_t c;
  c.layers = cfg.layers();
  c.tree_d = cfg.sector.tree_d;
  c.tree_r = cfg.sector.tree_r;
  auto to_fr = [](const porep::domain_t& b, fr_t& out, const std::string& what) -> status {
    if (!hash::bytes_to_fr(b, out)) return {status_code::non_canonical, what + " is not < r"};
    return {};
  };
  if (status s = to_fr(c1.replica_id, c.replica_id, "replica_id"); !s) return s;
  if (status s = to_fr(c1.comm_d, c.comm_d, "comm_d"); !s) return s;
  if (status s = to_fr(c1.comm_r, c.comm_r, "comm_r"); !s) return s;

  c.challenges.resize(cpp);
  for (unsigned i = 0; i < cpp; ++i) {
    const porep::challenge_proof_t& p = proofs[i];
    challenge_witness_t& w = c.challenges[i];
    const std::string ch = "partition " + std::to_string(k) + " challenge " + std::to_string(i);
    if (p.labeling_proofs.empty()) return {status_code::size_mismatch, ch + ": no labeling proofs"};
    w.challenge = p.challenge();

    // comm_r_last and comm_c: the roots of the first proof, equal in all of them.
    const porep::domain_t& rl = p.comm_r_last_proof.root;
    const porep::domain_t& rc = p.replica_column_proofs.c_x.inclusion_proof.root;
    if (i == 0) {
      if (status s = to_fr(rl, c.comm_r_last, ch + " comm_r_last"); !s) return s;
      if (status s = to_fr(rc, c.comm_c, ch + " comm_c"); !s) return s;
    } else if (rl != proofs[0].comm_r_last_proof.root) {
      return {status_code::invalid_argument, ch + ": inconsistent comm_r_last"};
    } else if (rc != proofs[0].replica_column_proofs.c_x.inclusion_proof.root) {
      return {status_code::invalid_argument, ch + ": inconsistent comm_c"};
    }

    if (!p.comm_d_proofs.well_formed() || !p.comm_r_last_proof.well_formed())
      return {status_code::bad_encoding, ch + ": malformed Merkle proof"};
    if (!gadgets::to_fr_path(porep::to_sha_path(p.comm_d_proofs), w.comm_d_path))
      return {status_code::non_canonical, ch + ": comm_d path value is not < r"};
    w.data_leaf = w.comm_d_path.leaf;
    if (!porep::to_poseidon_path(p.comm_r_last_proof, w.comm_r_last_path))
      return {status_code::non_canonical, ch + ": comm_r_last path value is not < r"};
    const auto& cx = p.replica_column_proofs.c_x.inclusion_proof;
    if (!cx.well_formed() || !porep::to_poseidon_path(cx, w.comm_c_path))
      return {status_code::non_canonical, ch + ": comm_c path is malformed or not < r"};

    for (size_t q = 0; q < porep::PARENT_COUNT; ++q) {
      const bool drg = q < porep::DRG_DEGREE;
      const porep::column_proof_t& cp =
          drg ? p.replica_column_proofs.drg_parents[q]
              : p.replica_column_proofs.exp_parents[q - porep::DRG_DEGREE];
      column_witness_t& col = drg ? w.drg_parents[q] : w.exp_parents[q - porep::DRG_DEGREE];
      const std::string what = ch + " parent " + std::to_string(q);
      col.rows.resize(cp.column.rows.size());
      for (size_t r = 0; r < col.rows.size(); ++r)
        if (status s = to_fr(cp.column.rows[r], col.rows[r], what + " row"); !s) return s;
      if (!cp.inclusion_proof.well_formed() ||
          !porep::to_poseidon_path(cp.inclusion_proof, col.path))
        return {status_code::non_canonical, what + ": path is malformed or not < r"};
    }
  }
  if (status s = validate_stacked_circuit(c); !s) return s;
  return c;
}

stacked_counts_t stacked_circuit_counts(unsigned layers, const hash::tree_shape& tree_d,
                                        const hash::tree_shape& tree_r, unsigned challenges) {
  using gadgets::por_hash_t;
  // SHA-256 of the 20-block label preimage (docs/spec/gadgets.md §2.2).
  constexpr size_t LABEL_HASH = 522'268;
  const size_t por_d = gadgets::por_constraints(por_hash_t::sha256, tree_d);
  const size_t por_r = gadgets::por_constraints(por_hash_t::poseidon, tree_r);
  const size_t col = gadgets::poseidon_hash_constraints(layers);
  size_t per = por_d + porep::PARENT_COUNT * (col + por_r) + 65;
  per += porep::DRG_DEGREE * 256 + LABEL_HASH + 1;
  per += size_t(layers - 1) * (porep::PARENT_COUNT * 256 + LABEL_HASH + 1);
  per += 1 + por_r + col + por_r;
  stacked_counts_t n;
  n.constraints = 257 + 1 + 1 + gadgets::poseidon_hash_constraints(2) + 1 + challenges * per;
  n.inputs = 4 + 18 * size_t(challenges);
  return n;
}

r1cs::proving_cs::block_shape stacked_challenge_shape(unsigned layers,
                                                      const hash::tree_shape& tree_d,
                                                      const hash::tree_shape& tree_r) {
  using key_t = std::tuple<unsigned, unsigned, unsigned, unsigned, uint64_t, unsigned, unsigned,
                           unsigned, uint64_t>;
  static r1cs::block_shape_memo<key_t> known;
  const key_t key{layers,           tree_d.base_arity, tree_d.sub_arity,
                  tree_d.top_arity, tree_d.num_leaves, tree_r.base_arity,
                  tree_r.sub_arity, tree_r.top_arity,  tree_r.num_leaves};
  return known.get(key, [&] {
    const stacked_circuit_t blank = blank_stacked_circuit(layers, tree_d, tree_r, 1);
    return r1cs::measure_block_shape(
        [&](r1cs::witness_cs& cs) { return synthesize_stacked_prologue(cs, blank); },
        [&](r1cs::witness_cs& cs, const stacked_shared_t& sh) {
          synthesize_stacked_challenge(cs, blank, sh, 0);
        });
  });
}

namespace {

// The parallel synthesis into a proving_cs or a witness_cs.
template <class CS>
status synthesize_stacked_parallel(CS& cs, const stacked_circuit_t& c, thread_pool& pool) {
  const stacked_shared_t sh = synthesize_stacked_prologue(cs, c);
  return r1cs::synthesize_blocks_parallel(cs, c.challenges.size(),
                                          stacked_challenge_shape(c.layers, c.tree_d, c.tree_r),
                                          pool, [&](typename CS::block_cs& block, size_t i) {
                                            synthesize_stacked_challenge(block, c, sh, i);
                                          });
}

}  // namespace

status synthesize_stacked_circuit_parallel(r1cs::proving_cs& cs, const stacked_circuit_t& c,
                                           thread_pool& pool) {
  return synthesize_stacked_parallel(cs, c, pool);
}

status synthesize_stacked_circuit_parallel(r1cs::witness_cs& cs, const stacked_circuit_t& c,
                                           thread_pool& pool) {
  return synthesize_stacked_parallel(cs, c, pool);
}

result<r1cs::abc_plan> stacked_abc_plan(unsigned layers, const hash::tree_shape& tree_d,
                                        const hash::tree_shape& tree_r, unsigned challenges) {
  const stacked_circuit_t blank = blank_stacked_circuit(layers, tree_d, tree_r, challenges);
  return r1cs::compile_abc_plan(
      challenges,
      [&](r1cs::abc_plan_recorder& cs) { return synthesize_stacked_prologue(cs, blank); },
      [&](r1cs::abc_plan_recorder& cs, const stacked_shared_t& sh, size_t i) {
        synthesize_stacked_challenge(cs, blank, sh, i);
      });
}

}  // namespace cuzk::filecoin::circuits
