// SPDX-License-Identifier: Apache-2.0
// The LEGACY neptune Poseidon circuit (`circuit::poseidon_hash`, docs/spec/poseidon.md §5), which
// every Filecoin circuit uses: same constraints, same order, same allocation order, same LCs.
//   first full round, each preimage element x (3 constraints, 3 aux):
//     (x + k0_i)·(x + k0_i) = l2;  l2·l2 = l4;  (x + k0_i)·l4 = l5 - k1_i
//   the tag's first S-box is a constant; every later S-box on an element e (4 constraints, 4 aux):
//     lc(e)·1 = v;  v·v = l2;  l2·l2 = l4;  v·l4 = l5 - k   (k = 0 in the terminal round)
//   output: lc(state[1])·1 = out.
// Cost 3·a + 4·(7t + R_P) + 1: 311 / 377 / 505 / 598 / 761 for arity 2 / 4 / 8 / 11 / 16.
// Between S-boxes the state is a linear combination of earlier S-box outputs (and ONE through
// the tag). Those LCs depend only on the constants, so they are derived once per arity by
// symbolic execution and replayed here; values come from the native optimized permutation.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "ff/fields.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/poseidon_constants.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin::gadgets {

/// One term of a precomputed state LC: ref 0 = ONE (its coefficient is still to be multiplied by
/// the tag's constant first-round S-box value), ref k ≥ 1 = the k-th S-box output of the hash.
struct poseidon_lc_term_t {
  uint32_t ref;
  ff::fr_t coeff;
};

/// The LCs of every ensure_allocated in circuit order (one per S-box after the first round, then
/// the output), as CSR over poseidon_lc_term_t; terms merged, sorted by ref, zeros dropped.
struct poseidon_circuit_template_t {
  size_t arity = 0;
  size_t num_sboxes = 0;  ///< a + 7t + R_P (outputs numbered 1..num_sboxes)
  std::vector<uint32_t> offsets;
  std::vector<poseidon_lc_term_t> terms;

  std::span<const poseidon_lc_term_t> lc(size_t q) const {
    return {terms.data() + offsets[q], terms.data() + offsets[q + 1]};
  }
};

/// Symbolic execution of the circuit's linear layers: each state element is a dense vector of
/// coefficients over [ONE·tag-constant, S-box outputs 1..n]. One-time cost, O(t²·n) per round.
inline poseidon_circuit_template_t make_poseidon_circuit_template(
    const hash::poseidon_constants_t& c) {
  using ff::fr_t;
  const size_t t = c.width, a = c.arity;
  poseidon_circuit_template_t tpl;
  tpl.arity = a;
  tpl.num_sboxes = a + 7 * t + c.partial_rounds;
  const size_t basis = tpl.num_sboxes + 1;
  std::vector<std::vector<fr_t>> el(t, std::vector<fr_t>(basis, fr_t::zero()));
  std::vector<std::vector<fr_t>> tmp(t, std::vector<fr_t>(basis, fr_t::zero()));
  uint32_t next_ref = 1;
  auto unit = [&](std::vector<fr_t>& v, uint32_t ref) {
    std::fill(v.begin(), v.end(), fr_t::zero());
    v[ref] = fr_t::one();
  };
  auto record = [&](const std::vector<fr_t>& v) {
    for (uint32_t r = 0; r < basis; ++r)
      if (!v[r].is_zero()) tpl.terms.push_back({r, v[r]});
    tpl.offsets.push_back(uint32_t(tpl.terms.size()));
  };
  // out_j = Σ_i P[i][j]·el_i (row vector times matrix, as poseidon_round_matrix).
  auto dense = [&](const hash::square_matrix_t& p) {
    for (size_t j = 0; j < t; ++j) {
      std::fill(tmp[j].begin(), tmp[j].end(), fr_t::zero());
      for (size_t i = 0; i < t; ++i)
        for (size_t r = 0; r < basis; ++r)
          if (!el[i][r].is_zero()) tmp[j][r] += p.at(i, j) * el[i][r];
    }
    el.swap(tmp);
  };
  auto sparse = [&](const hash::sparse_matrix_t& m) {
    std::vector<fr_t>& r0 = tmp[0];
    std::fill(r0.begin(), r0.end(), fr_t::zero());
    for (size_t i = 0; i < t; ++i)
      for (size_t r = 0; r < basis; ++r)
        if (!el[i][r].is_zero()) r0[r] += m.w_hat[i] * el[i][r];
    for (size_t j = 1; j < t; ++j)
      for (size_t r = 0; r < basis; ++r)
        if (!el[0][r].is_zero()) el[j][r] += m.v_rest[j - 1] * el[0][r];
    el[0].swap(r0);
  };
  auto linear_layer = [&](size_t round) {
    const size_t half = c.half_full_rounds();
    if (round == half - 1) {
      dense(c.pre_sparse);
    } else if (round >= half && round < half + c.partial_rounds) {
      sparse(c.sparse[round - half]);
    } else {
      dense(c.mds);
    }
  };
  tpl.offsets.push_back(0);
  unit(el[0], 0);
  for (size_t i = 1; i < t; ++i) unit(el[i], next_ref++);
  linear_layer(0);
  for (size_t round = 1; round < c.total_rounds(); ++round) {
    const bool full =
        round < c.half_full_rounds() || round >= c.half_full_rounds() + c.partial_rounds;
    for (size_t i = 0; i < (full ? t : 1); ++i) {
      record(el[i]);
      unit(el[i], next_ref++);
    }
    linear_layer(round);
  }
  record(el[1]);
  assert(next_ref == basis);
  return tpl;
}

/// The cached template for a supported arity (thread-safe; computed on first use).
inline const poseidon_circuit_template_t& poseidon_circuit_template(size_t arity) {
  struct slot {
    std::once_flag once;
    std::unique_ptr<poseidon_circuit_template_t> value;
  };
  static slot slots[hash::POSEIDON_MAX_ARITY + 1];
  slot& s = slots[arity];
  std::call_once(s.once, [&] {
    s.value = std::make_unique<poseidon_circuit_template_t>(
        make_poseidon_circuit_template(hash::poseidon_constants(arity)));
  });
  return *s.value;
}

/// An allocated result: its variable and (when the CS has values) its value.
struct poseidon_result_t {
  r1cs::variable var;
  ff::fr_t value;
};

/// neptune circuit::poseidon_hash (legacy) over allocated preimage variables. `values` holds the
/// preimage values and is read only when CS::has_values (it may be empty otherwise).
/// preimage.size() must equal c.arity (the legacy circuit has no padding). `tag` is the domain tag
/// (poseidon_merkle_tag(a) for trees and column hashes).
template <r1cs::constraint_system CS>
poseidon_result_t poseidon_hash(CS& cs, std::span<const r1cs::variable> preimage,
                                std::span<const ff::fr_t> values,
                                const hash::poseidon_constants_t& c, const ff::fr_t& tag) {
  using ff::fr_t;
  using r1cs::linear_combination;
  using r1cs::variable;
  const size_t t = c.width, a = c.arity;
  assert(preimage.size() == a);
  assert(!CS::has_values || values.size() == a);
  const poseidon_circuit_template_t& tpl = poseidon_circuit_template(a);
  const fr_t* key = c.compressed_round_constants.data();
  const variable one = variable::one();

  std::array<fr_t, hash::POSEIDON_MAX_WIDTH> state{};
  // S-box outputs by ref; ref 0 stands for ONE (with the tag constant folded into its coefficient).
  variable refs_inline[hash::POSEIDON_MAX_WIDTH * 8 + 64];
  std::vector<variable> refs_heap;
  variable* refs = refs_inline;
  if (tpl.num_sboxes + 1 > std::size(refs_inline)) {
    refs_heap.resize(tpl.num_sboxes + 1);
    refs = refs_heap.data();
  }
  refs[0] = one;
  // The tag's first-round S-box is a constant: S(tag + k0_0) + k1_0.
  const fr_t tag_const = hash::quintic(tag + key[0]) + key[t];

  // ---- first full round: pre-add S-boxes of the preimage elements ----
  for (size_t i = 1; i < t; ++i) {
    const fr_t pre = key[i], post = key[t + i];
    const variable x = preimage[i - 1];
    fr_t y{}, l2v{}, l4v{}, l5v{};
    if constexpr (CS::has_values) {
      y = values[i - 1] + pre;
      l2v = y.sqr();
      l4v = l2v.sqr();
      l5v = l4v * y + post;
    }
    const variable l2 = cs.alloc([&] { return l2v; });
    cs.enforce(
        [&](linear_combination& lc) {
          lc += x;
          lc.push(pre, one);
        },
        [&](linear_combination& lc) {
          lc += x;
          lc.push(pre, one);
        },
        [&](linear_combination& lc) { lc += l2; });
    const variable l4 = cs.alloc([&] { return l4v; });
    cs.enforce([&](linear_combination& lc) { lc += l2; }, [&](linear_combination& lc) { lc += l2; },
               [&](linear_combination& lc) { lc += l4; });
    const variable l5 = cs.alloc([&] { return l5v; });
    cs.enforce(
        [&](linear_combination& lc) {
          lc += x;
          lc.push(pre, one);
        },
        [&](linear_combination& lc) { lc += l4; },
        [&](linear_combination& lc) {
          lc += l5;
          lc.push(-post, one);
        });
    refs[i] = l5;
    state[i] = l5v;
  }
  key += 2 * t;
  if constexpr (CS::has_values) {
    state[0] = tag_const;
    hash::poseidon_round_matrix(state.data(), 0, c);
  }

  size_t q = 0;  // next template LC
  uint32_t next_ref = uint32_t(t);
  // ensure_allocated(element): alloc v = value, enforce lc·1 = v.
  auto ensure_allocated = [&](const fr_t& value) {
    const variable v = cs.alloc([&] { return value; });
    const auto terms = tpl.lc(q++);
    cs.enforce(
        [&](linear_combination& lc) {
          lc.reserve(terms.size());
          for (const poseidon_lc_term_t& tm : terms)
            lc.push(tm.ref == 0 ? tm.coeff * tag_const : tm.coeff, refs[tm.ref]);
        },
        [&](linear_combination& lc) { lc += one; }, [&](linear_combination& lc) { lc += v; });
    return v;
  };
  // S-box on a state element: 4 constraints; `post` is null in the terminal round.
  auto sbox = [&](size_t i, const fr_t* post) {
    const variable v = ensure_allocated(state[i]);
    fr_t l2v{}, l4v{}, l5v{};
    if constexpr (CS::has_values) {
      l2v = state[i].sqr();
      l4v = l2v.sqr();
      l5v = l4v * state[i];
      if (post) l5v += *post;
    }
    const variable l2 = cs.alloc([&] { return l2v; });
    cs.enforce([&](linear_combination& lc) { lc += v; }, [&](linear_combination& lc) { lc += v; },
               [&](linear_combination& lc) { lc += l2; });
    const variable l4 = cs.alloc([&] { return l4v; });
    cs.enforce([&](linear_combination& lc) { lc += l2; }, [&](linear_combination& lc) { lc += l2; },
               [&](linear_combination& lc) { lc += l4; });
    const variable l5 = cs.alloc([&] { return l5v; });
    cs.enforce([&](linear_combination& lc) { lc += v; }, [&](linear_combination& lc) { lc += l4; },
               [&](linear_combination& lc) {
                 lc += l5;
                 if (post) lc.push(-*post, one);
               });
    refs[next_ref++] = l5;
    state[i] = l5v;
  };

  const size_t half = c.half_full_rounds(), rp = c.partial_rounds, total = c.total_rounds();
  // With values, the partial rounds' sparse layers run in blocks
  // (hash::poseidon_sparse_blocks: same values, fewer reductions); the constraints and
  // their order are those of the loop below.
  const hash::poseidon_partial_plan_t* plan = nullptr;
  if constexpr (CS::has_values) plan = hash::poseidon_partial_plan(c);
  for (size_t round = 1; round < total; ++round) {
    if (round == half && plan) {
      hash::poseidon_sparse_blocks(state.data(), c, *plan, [&](size_t) { sbox(0, key++); });
      round += rp - 1;
      continue;
    }
    const bool full = round < half || round >= half + rp;
    const bool terminal = round + 1 == total;
    if (full) {
      for (size_t i = 0; i < t; ++i) sbox(i, terminal ? nullptr : key + i);
      if (!terminal) key += t;
    } else {
      sbox(0, key++);
    }
    if constexpr (CS::has_values) {
      if (terminal) {
        state[1] = hash::poseidon_last_layer_element(state.data(), 1, c);  // the only output
      } else {
        hash::poseidon_round_matrix(state.data(), round, c);
      }
    }
  }
  assert(key == c.compressed_round_constants.data() + c.compressed_round_constants.size());
  const variable out = ensure_allocated(state[1]);
  return {out, CS::has_values ? state[1] : fr_t::zero()};
}

/// Same, reading the preimage values from a CS that has them.
template <r1cs::valued_constraint_system CS>
poseidon_result_t poseidon_hash(CS& cs, std::span<const r1cs::variable> preimage,
                                const hash::poseidon_constants_t& c, const ff::fr_t& tag) {
  std::array<ff::fr_t, hash::POSEIDON_MAX_ARITY> v;
  for (size_t i = 0; i < preimage.size(); ++i) v[i] = cs.value(preimage[i]);
  return poseidon_hash(cs, preimage, std::span<const ff::fr_t>(v.data(), preimage.size()), c, tag);
}

/// Constraints (= aux) of poseidon_hash for an arity: 3a + 4(7t + R_P) + 1, with R_P the partial
/// rounds (55 / 56 / 57 / 57 / 59): 311 / 377 / 505 / 598 / 761 for arity 2 / 4 / 8 / 11 / 16.
constexpr size_t poseidon_hash_constraints(size_t arity) {
  const size_t rp = arity == 2 ? 55 : arity == 4 ? 56 : arity == 8 ? 57 : arity == 11 ? 57 : 59;
  return 3 * arity + 4 * (7 * (arity + 1) + rp) + 1;
}

/// MerkleTree-tagged hash with arity = preimage.size() (tree nodes, column hashes, comm_r).
template <r1cs::constraint_system CS>
poseidon_result_t poseidon_hash_merkle(CS& cs, std::span<const r1cs::variable> preimage,
                                       std::span<const ff::fr_t> values) {
  return poseidon_hash(cs, preimage, values, hash::poseidon_constants(preimage.size()),
                       hash::poseidon_merkle_tag(preimage.size()));
}

}  // namespace cuzk::filecoin::gadgets
