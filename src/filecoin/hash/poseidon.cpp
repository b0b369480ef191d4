// SPDX-License-Identifier: Apache-2.0
// Native Poseidon (neptune "OptimizedStatic" and "Correct" modes). The state lives on the stack
// (t ≤ 37); all loops are over the width, so one routine serves every arity.
#include "filecoin/hash/poseidon.hpp"

#include <array>
#include <cassert>
#include <memory>
#include <mutex>

#include "ff/fr_accumulate.hpp"

namespace cuzk::filecoin::hash {

namespace {

using state_t = std::array<fr_t, POSEIDON_MAX_WIDTH>;

// s ← s × P (row vector times matrix): s'_j = Σ_i s_i P[i][j]. For the symmetric M this equals
// M·s; the pre-sparse matrix is not symmetric and is applied this way by neptune. Each output is
// one t-term dot product with a single Montgomery reduction (ff::fr_accumulator_t): t² plain
// 512-bit products and t reductions instead of t² full Montgomery products.
template <size_t T>
void mul_row_vector_w(fr_t* s, const square_matrix_t& p) {
  const size_t t = T ? T : p.n;
  state_t r;
  for (size_t j = 0; j < t; ++j) {
    ff::fr_accumulator_t acc;
    const fr_t* col = &p.m[j];
    for (size_t i = 0; i < t; ++i) acc.mac(s[i], col[i * t]);
    r[j] = acc.reduce();
  }
  for (size_t j = 0; j < t; ++j) s[j] = r[j];
}

// A fixed width for the Filecoin arities lets the compiler unroll the t-term sums.
void mul_row_vector(fr_t* s, const square_matrix_t& p) {
  switch (p.n) {
    case 3:
      return mul_row_vector_w<3>(s, p);
    case 5:
      return mul_row_vector_w<5>(s, p);
    case 9:
      return mul_row_vector_w<9>(s, p);
    case 12:
      return mul_row_vector_w<12>(s, p);
    case 17:
      return mul_row_vector_w<17>(s, p);
    default:
      return mul_row_vector_w<0>(s, p);
  }
}

// s ← s × M'' for the sparse factor: s'_0 = Σ_i w_hat_i s_i (one reduction); s'_j = s_j +
// v_rest_{j-1}·s_0 (one product each: nothing to batch).
void mul_sparse(fr_t* s, const sparse_matrix_t& m, size_t t) {
  ff::fr_accumulator_t acc;
  for (size_t i = 0; i < t; ++i) acc.mac(m.w_hat[i], s[i]);
  const fr_t s0 = s[0];
  for (size_t j = 1; j < t; ++j) s[j] += m.v_rest[j - 1] * s0;
  s[0] = acc.reduce();
}

fr_t pow2(unsigned n) {
  return fr_t::from_uint(2).pow(n);
}

void load_state(fr_t* s, std::span<const fr_t> preimage, const fr_t& tag,
                const poseidon_constants_t& c) {
  assert(preimage.size() <= c.arity);
  s[0] = tag;
  for (size_t i = 0; i < c.arity; ++i) s[i + 1] = i < preimage.size() ? preimage[i] : fr_t::zero();
}

}  // namespace

fr_t poseidon_merkle_tag(size_t arity) {
  return fr_t::from_uint((uint64_t(1) << arity) - 1);
}
fr_t poseidon_constant_length_tag(uint64_t n) {
  return fr_t::from_uint(n) * pow2(64);
}
fr_t poseidon_custom_tag(uint64_t id) {
  return fr_t::from_uint(id) * pow2(40);
}

void poseidon_round_matrix(fr_t* s, size_t round, const poseidon_constants_t& c) {
  const size_t half = c.half_full_rounds();
  if (round == half - 1) {
    mul_row_vector(s, c.pre_sparse);
  } else if (round >= half && round < half + c.partial_rounds) {
    mul_sparse(s, c.sparse[round - half], c.width);
  } else {
    mul_row_vector(s, c.mds);
  }
}

namespace {

poseidon_partial_plan_t make_partial_plan(const poseidon_constants_t& c) {
  const size_t t = c.width, rp = c.partial_rounds;
  poseidon_partial_plan_t plan;
  for (size_t k = 0; k < rp; ++k) {
    const size_t k0 = k - k % POSEIDON_PARTIAL_BLOCK;
    const std::vector<fr_t>& w = c.sparse[k].w_hat;
    plan.offset.push_back(uint32_t(plan.coeff.size()));
    for (size_t l = k0; l < k; ++l) {
      const std::vector<fr_t>& v = c.sparse[l].v_rest;
      fr_t sum = fr_t::zero();
      for (size_t j = 1; j < t; ++j) sum += w[j] * v[j - 1];
      plan.coeff.push_back(sum);
    }
    plan.coeff.push_back(w[0]);
  }
  return plan;
}

}  // namespace

const poseidon_partial_plan_t* poseidon_partial_plan(const poseidon_constants_t& c) {
  struct slot {
    std::once_flag once;
    std::unique_ptr<poseidon_partial_plan_t> value;
  };
  static slot slots[POSEIDON_MAX_ARITY + 1];
  if (c.arity > POSEIDON_MAX_ARITY || !poseidon_arity_supported(c.arity) ||
      &c != &poseidon_constants(c.arity))
    return nullptr;
  slot& sl = slots[c.arity];
  std::call_once(
      sl.once, [&] { sl.value = std::make_unique<poseidon_partial_plan_t>(make_partial_plan(c)); });
  return sl.value.get();
}

fr_t poseidon_last_layer_element(const fr_t* s, size_t j, const poseidon_constants_t& c) {
  const size_t t = c.width;
  ff::fr_accumulator_t acc;
  for (size_t i = 0; i < t; ++i) acc.mac(s[i], c.mds.m[i * t + j]);
  return acc.reduce();
}

namespace {

// The optimized permutation; with `output_only` the last layer computes s[1] alone (the hash).
void permute(fr_t* s, const poseidon_constants_t& c, bool output_only) {
  const size_t t = c.width, half = c.half_full_rounds(), rp = c.partial_rounds;
  const fr_t* k = c.compressed_round_constants.data();
  // Round 0's constants go in front; every later key is added right after an S-box.
  for (size_t i = 0; i < t; ++i) s[i] += *k++;
  size_t round = 0;
  for (; round < half; ++round) {
    for (size_t i = 0; i < t; ++i) s[i] = quintic(s[i]) + *k++;
    poseidon_round_matrix(s, round, c);
  }
  if (const poseidon_partial_plan_t* plan = poseidon_partial_plan(c)) {
    poseidon_sparse_blocks(s, c, *plan, [&](size_t) { s[0] = quintic(s[0]) + *k++; });
    round += rp;
  } else {
    for (; round < half + rp; ++round) {
      s[0] = quintic(s[0]) + *k++;
      poseidon_round_matrix(s, round, c);
    }
  }
  for (; round + 1 < c.total_rounds(); ++round) {
    for (size_t i = 0; i < t; ++i) s[i] = quintic(s[i]) + *k++;
    poseidon_round_matrix(s, round, c);
  }
  for (size_t i = 0; i < t; ++i) s[i] = quintic(s[i]);  // terminal round: no key
  if (output_only) {
    s[1] = poseidon_last_layer_element(s, 1, c);
  } else {
    poseidon_round_matrix(s, round, c);
  }
  assert(size_t(k - c.compressed_round_constants.data()) == c.compressed_round_constants.size());
}

}  // namespace

void poseidon_permute(std::span<fr_t> state, const poseidon_constants_t& c) {
  assert(state.size() == c.width);
  permute(state.data(), c, false);
}

void poseidon_permute_reference(std::span<fr_t> state, const poseidon_constants_t& c) {
  assert(state.size() == c.width);
  const size_t t = c.width, half = c.half_full_rounds();
  fr_t* s = state.data();
  for (size_t r = 0; r < c.total_rounds(); ++r) {
    const fr_t* rc = &c.round_constants[r * t];
    for (size_t i = 0; i < t; ++i) s[i] += rc[i];
    const bool full = r < half || r >= half + c.partial_rounds;
    for (size_t i = 0; i < (full ? t : 1); ++i) s[i] = quintic(s[i]);
    mul_row_vector(s, c.mds);
  }
}

fr_t poseidon_hash(std::span<const fr_t> preimage, const fr_t& tag, const poseidon_constants_t& c) {
  state_t s;
  load_state(s.data(), preimage, tag, c);
  permute(s.data(), c, true);
  return s[1];
}

fr_t poseidon_hash(std::span<const fr_t> preimage) {
  const poseidon_constants_t& c = poseidon_constants(preimage.size());
  return poseidon_hash(preimage, poseidon_merkle_tag(preimage.size()), c);
}

fr_t poseidon_hash_reference(std::span<const fr_t> preimage, const fr_t& tag,
                             const poseidon_constants_t& c) {
  state_t s;
  load_state(s.data(), preimage, tag, c);
  poseidon_permute_reference(std::span<fr_t>(s.data(), c.width), c);
  return s[1];
}

}  // namespace cuzk::filecoin::hash
