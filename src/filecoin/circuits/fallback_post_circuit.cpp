// SPDX-License-Identifier: Apache-2.0
// FallbackPoSt circuit inputs: the blank circuit, the circuit of a partition's vanilla proofs
// (FallbackPoStCompound::circuit + Sector::circuit), the layout check, the closed-form counts and
// the parallel synthesis of the slots.
#include "filecoin/circuits/fallback_post_circuit.hpp"

#include <string>
#include <tuple>

#include "filecoin/post/partition.hpp"
#include "r1cs/parallel_synthesis.hpp"

namespace cuzk::filecoin::circuits {
namespace {

status to_fr(const common::domain_t& b, fr_t& out, const std::string& what) {
  if (!hash::bytes_to_fr(b, out)) return {status_code::non_canonical, what + " is not < r"};
  return {};
}

// One zero sector repeated over every slot.
fallback_post_circuit_t blank_circuit(const hash::tree_shape& tree, unsigned sector_count,
                                      unsigned challenge_count) {
  fallback_post_circuit_t c;
  c.tree = tree;
  c.sector_count = sector_count;
  c.challenge_count = challenge_count;
  post_sector_witness_t w;
  w.paths.assign(c.challenge_count, gadgets::blank_por_path(tree));
  c.sectors.push_back(std::move(w));
  return c;
}

}  // namespace

fallback_post_circuit_t blank_fallback_post_circuit(const post::post_config_t& cfg) {
  return blank_circuit(cfg.tree, cfg.circuit_sector_count, cfg.circuit_challenge_count);
}

result<fallback_post_circuit_t> fallback_post_circuit_from_vanilla(
    const post::post_config_t& cfg, std::span<const post::fallback_sector_proof_t> proofs) {
  auto slots = post::circuit_slots(cfg, proofs.size());
  if (!slots) return slots.error();
  for (const post::fallback_sector_proof_t& p : proofs)
    if (status s = post::check_sector_proof_shape(cfg, p); !s) return s;

  fallback_post_circuit_t c;
  c.tree = cfg.tree;
  c.sector_count = cfg.circuit_sector_count;
  c.challenge_count = cfg.circuit_challenge_count;
  // Window: one witness per proof (the padding slots reuse the last); winning: one per slot.
  const size_t distinct = cfg.kind == post::post_kind::window ? proofs.size() : slots->size();
  c.sectors.resize(distinct);
  for (size_t s = 0; s < distinct; ++s) {
    const post::slot_source_t& src = (*slots)[s];
    const post::fallback_sector_proof_t& p = proofs[src.proof];
    const post::sector_proof_t& sp = p.sectors[0];
    post_sector_witness_t& w = c.sectors[s];
    const std::string sector = "sector " + std::to_string(p.sector_id);
    if (status st = to_fr(p.comm_r, w.comm_r, sector + ": comm_r"); !st) return st;
    if (status st = to_fr(sp.comm_c, w.comm_c, sector + ": comm_c"); !st) return st;
    if (status st = to_fr(sp.comm_r_last, w.comm_r_last, sector + ": comm_r_last"); !st) return st;
    w.paths.resize(c.challenge_count);
    for (unsigned n = 0; n < c.challenge_count; ++n) {
      const unsigned ch = src.first_challenge + n;
      if (!common::to_poseidon_path(sp.inclusion_proofs[ch], w.paths[n]))
        return {status_code::non_canonical,
                sector + " challenge " + std::to_string(ch) + ": a path value is not < r"};
    }
  }
  if (status st = validate_fallback_post_circuit(c); !st) return st;
  return c;
}

status validate_fallback_post_circuit(const fallback_post_circuit_t& c) {
  if (status s = c.tree.validate(); !s) return s;
  if (c.sector_count == 0 || c.challenge_count == 0)
    return {status_code::invalid_argument, "a PoSt circuit needs sectors and challenges"};
  if (c.sectors.empty() || c.sectors.size() > c.sector_count)
    return {status_code::size_mismatch, std::to_string(c.sectors.size()) +
                                            " sector witnesses for " +
                                            std::to_string(c.sector_count) + " slots"};
  for (size_t s = 0; s < c.sectors.size(); ++s) {
    const post_sector_witness_t& w = c.sectors[s];
    const std::string what = "slot " + std::to_string(s);
    if (w.paths.size() != c.challenge_count)
      return {status_code::size_mismatch, what + ": " + std::to_string(w.paths.size()) +
                                              " paths, expected " +
                                              std::to_string(c.challenge_count)};
    for (size_t n = 0; n < w.paths.size(); ++n) {
      const gadgets::por_path_t& p = w.paths[n];
      if (p.levels.size() != c.tree.height())
        return {status_code::size_mismatch,
                what + " challenge " + std::to_string(n) + ": path height differs from the tree"};
      for (unsigned l = 0; l < c.tree.height(); ++l) {
        const auto& lv = p.levels[l];
        const unsigned a = c.tree.arity_at(l);
        if (lv.arity != a || lv.siblings.size() + 1 != a || lv.index >= a)
          return {status_code::size_mismatch, what + " challenge " + std::to_string(n) +
                                                  ": level " + std::to_string(l) +
                                                  " does not have arity " + std::to_string(a)};
      }
    }
  }
  return {};
}

fallback_post_counts_t fallback_post_circuit_counts(const hash::tree_shape& tree,
                                                    unsigned sector_count,
                                                    unsigned challenge_count) {
  const size_t poseidon_2 = gadgets::poseidon_hash_constraints(2);
  const size_t por = gadgets::por_constraints(gadgets::por_hash_t::poseidon, tree);
  // Aux of one PoR: the leaf, then per level its index bits, a − 1 siblings, the insert and the
  // hash (each constraint of those allocates one aux, except the pack and root rows).
  size_t por_aux = 1;
  for (unsigned l = 0; l < tree.height(); ++l) {
    const unsigned a = tree.arity_at(l);
    por_aux += (a - 1) + gadgets::por_level_constraints(gadgets::por_hash_t::poseidon, a);
  }
  fallback_post_counts_t n;
  n.constraints = size_t(sector_count) * (1 + poseidon_2 + 1 + challenge_count * por);
  n.inputs = 1 + size_t(sector_count) * (1 + challenge_count);
  n.aux = size_t(sector_count) * (3 + poseidon_2 + challenge_count * por_aux);
  return n;
}

fallback_post_counts_t fallback_post_circuit_counts(const post::post_config_t& cfg) {
  return fallback_post_circuit_counts(cfg.tree, cfg.circuit_sector_count,
                                      cfg.circuit_challenge_count);
}

r1cs::proving_cs::block_shape fallback_post_slot_shape(const hash::tree_shape& tree,
                                                       unsigned challenge_count) {
  using key_t = std::tuple<unsigned, unsigned, unsigned, uint64_t, unsigned>;
  static r1cs::block_shape_memo<key_t> known;
  const key_t key{tree.base_arity, tree.sub_arity, tree.top_arity, tree.num_leaves,
                  challenge_count};
  return known.get(key, [&] {
    const fallback_post_circuit_t blank = blank_circuit(tree, 1, challenge_count);
    struct no_prologue {};
    return r1cs::measure_block_shape(
        [](r1cs::witness_cs&) { return no_prologue{}; },
        [&](r1cs::witness_cs& cs, no_prologue) { synthesize_fallback_post_slot(cs, blank, 0); });
  });
}

namespace {

// The parallel synthesis into a proving_cs or a witness_cs.
template <class CS>
status synthesize_post_parallel(CS& cs, const fallback_post_circuit_t& c, thread_pool& pool) {
  return r1cs::synthesize_blocks_parallel(
      cs, c.sector_count, fallback_post_slot_shape(c.tree, c.challenge_count), pool,
      [&](typename CS::block_cs& block, size_t s) { synthesize_fallback_post_slot(block, c, s); });
}

}  // namespace

status synthesize_fallback_post_circuit_parallel(r1cs::proving_cs& cs,
                                                 const fallback_post_circuit_t& c,
                                                 thread_pool& pool) {
  return synthesize_post_parallel(cs, c, pool);
}

status synthesize_fallback_post_circuit_parallel(r1cs::witness_cs& cs,
                                                 const fallback_post_circuit_t& c,
                                                 thread_pool& pool) {
  return synthesize_post_parallel(cs, c, pool);
}

result<r1cs::abc_plan> fallback_post_abc_plan(const hash::tree_shape& tree, unsigned sector_count,
                                              unsigned challenge_count) {
  const fallback_post_circuit_t blank = blank_circuit(tree, sector_count, challenge_count);
  struct no_prologue {};
  return r1cs::compile_abc_plan(
      sector_count, [](r1cs::abc_plan_recorder&) { return no_prologue{}; },
      [&](r1cs::abc_plan_recorder& cs, no_prologue, size_t s) {
        synthesize_fallback_post_slot(cs, blank, s);
      });
}

result<r1cs::abc_plan> fallback_post_abc_plan(const post::post_config_t& cfg) {
  return fallback_post_abc_plan(cfg.tree, cfg.circuit_sector_count, cfg.circuit_challenge_count);
}

}  // namespace cuzk::filecoin::circuits
