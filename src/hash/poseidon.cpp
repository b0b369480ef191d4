// SPDX-License-Identifier: Apache-2.0
// Native Poseidon (neptune "OptimizedStatic" and "Correct" modes). The state lives on the stack
// (t ≤ 37); all loops are over the width, so one routine serves every arity.
#include "hash/poseidon.hpp"

#include <array>
#include <cassert>

namespace cuzk::hash {

namespace {

using state_t = std::array<fr_t, POSEIDON_MAX_WIDTH>;

// s ← s × P (row vector times matrix): s'_j = Σ_i s_i P[i][j]. For the symmetric M this equals
// M·s; the pre-sparse matrix is not symmetric and is applied this way by neptune.
void mul_row_vector(fr_t* s, const square_matrix_t& p) {
  const size_t t = p.n;
  state_t r;
  for (size_t j = 0; j < t; ++j) r[j] = fr_t::zero();
  for (size_t i = 0; i < t; ++i) {
    const fr_t si = s[i];
    const fr_t* row = &p.m[i * t];
    for (size_t j = 0; j < t; ++j) r[j] += si * row[j];
  }
  for (size_t j = 0; j < t; ++j) s[j] = r[j];
}

// s ← s × M'' for the sparse factor: s'_0 = Σ_i w_hat_i s_i; s'_j = s_j + v_rest_{j-1}·s_0.
void mul_sparse(fr_t* s, const sparse_matrix_t& m, size_t t) {
  fr_t r0 = fr_t::zero();
  for (size_t i = 0; i < t; ++i) r0 += m.w_hat[i] * s[i];
  const fr_t s0 = s[0];
  for (size_t j = 1; j < t; ++j) s[j] += m.v_rest[j - 1] * s0;
  s[0] = r0;
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

void poseidon_permute(std::span<fr_t> state, const poseidon_constants_t& c) {
  assert(state.size() == c.width);
  const size_t t = c.width, half = c.half_full_rounds(), rp = c.partial_rounds;
  fr_t* s = state.data();
  const fr_t* k = c.compressed_round_constants.data();
  // Round 0's constants go in front; every later key is added right after an S-box.
  for (size_t i = 0; i < t; ++i) s[i] += *k++;
  size_t round = 0;
  for (; round < half; ++round) {
    for (size_t i = 0; i < t; ++i) s[i] = quintic(s[i]) + *k++;
    poseidon_round_matrix(s, round, c);
  }
  for (; round < half + rp; ++round) {
    s[0] = quintic(s[0]) + *k++;
    poseidon_round_matrix(s, round, c);
  }
  for (; round + 1 < c.total_rounds(); ++round) {
    for (size_t i = 0; i < t; ++i) s[i] = quintic(s[i]) + *k++;
    poseidon_round_matrix(s, round, c);
  }
  for (size_t i = 0; i < t; ++i) s[i] = quintic(s[i]);  // terminal round: no key
  poseidon_round_matrix(s, round, c);
  assert(size_t(k - c.compressed_round_constants.data()) == c.compressed_round_constants.size());
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
  poseidon_permute(std::span<fr_t>(s.data(), c.width), c);
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

}  // namespace cuzk::hash
