// SPDX-License-Identifier: Apache-2.0
// Native Poseidon over BLS12-381 Fr exactly as neptune computes it (docs/spec/poseidon.md §4):
// state [domain_tag, x_1 .. x_a], R_F = 8 full and R_P partial rounds of x^5, output state[1]. The
// optimized permutation (compressed constants, pre-sparse and sparse matrices) is the one used;
// the reference permutation (plain Grain constants and M every round) exists to test it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fields.hpp"
#include "ff/fr_accumulate.hpp"
#include "filecoin/hash/poseidon_constants.hpp"

namespace cuzk::filecoin::hash {

// ---- domain tags (neptune hash_type.rs) -------------------------------------------------------

/// HashType::MerkleTree: 2^arity - 1 (tree nodes, comm_r, column hashes).
fr_t poseidon_merkle_tag(size_t arity);
/// HashType::ConstantLength(n): n·2^64.
fr_t poseidon_constant_length_tag(uint64_t n);
/// HashType::Custom(id): id·2^40 (neptune accepts 1 ≤ id ≤ 256; SnapDeals uses id 1).
fr_t poseidon_custom_tag(uint64_t id);
/// SnapDeals' HASH_TYPE_GEN_RANDOMNESS (storage-proofs-update constants.rs): Custom(Arbitrary(1)),
/// the tag of phi, rho and the challenge digests (docs/spec/snap.md §3).
inline fr_t poseidon_gen_randomness_tag() {
  return poseidon_custom_tag(1);
}

// ---- permutation -------------------------------------------------------------------------------

/// x^5 (two squarings and a multiplication).
inline fr_t quintic(const fr_t& x) {
  const fr_t x2 = x.sqr();
  return x2.sqr() * x;
}

/// The optimized ("static") permutation in place; state.size() == c.width.
/// Cost: (t·R_F + R_P)·3 mults for the S-boxes, t²·(R_F - 1) for the dense layers (the last full
/// layer included), t² for the pre-sparse layer and (2t - 1)·R_P for the sparse ones.
void poseidon_permute(std::span<fr_t> state, const poseidon_constants_t& c);

/// The plain permutation: add RC_r, S-box (all elements in full rounds, element 0 in partial
/// ones), multiply by M, for r = 0 .. R_F + R_P - 1.
void poseidon_permute_reference(std::span<fr_t> state, const poseidon_constants_t& c);

/// The linear layer that follows S-box round `round` (0-based) in the optimized permutation:
/// the pre-sparse matrix after round R_F/2 - 1, sparse matrix k after partial round k (round
/// R_F/2 + k), M after every other round. Shared by the native hash and the circuit.
void poseidon_round_matrix(fr_t* state, size_t round, const poseidon_constants_t& c);

/// Element j of the last linear layer (after the terminal round, always M): Σ_i s_i·M[i][j] with
/// one reduction. A hash outputs only state[1], so it needs t products there instead of t².
fr_t poseidon_last_layer_element(const fr_t* state, size_t j, const poseidon_constants_t& c);

// ---- partial rounds in blocks ------------------------------------------------------------------

/// Partial rounds per block of poseidon_sparse_blocks().
inline constexpr size_t POSEIDON_PARTIAL_BLOCK = 4;

/// Constants for running the R_P sparse layers in blocks of B = POSEIDON_PARTIAL_BLOCK. Inside a
/// block starting at partial round k0, with y_l the post-S-box value of round k0 + l and s_j the
/// state at the block start (j ≥ 1), the sparse layer of round k = k0 + m yields
///   s'_0 = Σ_{j≥1} w_hat^(k)_j·s_j + Σ_{l≤m} coeff(k, l)·y_l,
///   coeff(k, m) = w_hat^(k)_0,  coeff(k, l<m) = Σ_{j≥1} w_hat^(k)_j·v_rest^(k0+l)_{j-1},
/// and s_j (j ≥ 1) is only brought up to date at the block end: s_j + Σ_l v_rest^(k0+l)_{j-1}·y_l.
/// Every sum is one ff::fr_accumulator_t with one reduction; the per-round v_rest products (t - 1
/// full Montgomery products each) become B-term lazy sums.
struct poseidon_partial_plan_t {
  std::vector<uint32_t> offset;  ///< coeff(k, ·) starts at coeff[offset[k]], k = 0..R_P-1
  std::vector<fr_t> coeff;
};

/// The plan for the cached constants of c.arity, or nullptr when `c` is not that cached object
/// (callers then apply poseidon_round_matrix round by round).
const poseidon_partial_plan_t* poseidon_partial_plan(const poseidon_constants_t& c);

namespace detail {

// poseidon_sparse_blocks for width T (T = 0: the width is c.width, read at run time). A fixed
// width lets the compiler unroll the t-term sums.
template <size_t T, class Sbox>
void poseidon_sparse_blocks_w(fr_t* s, const poseidon_constants_t& c,
                              const poseidon_partial_plan_t& plan, Sbox& sbox) {
  const size_t t = T ? T : c.width, rp = c.partial_rounds;
  for (size_t k0 = 0; k0 < rp; k0 += POSEIDON_PARTIAL_BLOCK) {
    const size_t nb = std::min(POSEIDON_PARTIAL_BLOCK, rp - k0);
    fr_t y[POSEIDON_PARTIAL_BLOCK];
    for (size_t m = 0; m < nb; ++m) {
      const size_t k = k0 + m;
      sbox(k);
      y[m] = s[0];
      const fr_t* w = c.sparse[k].w_hat.data();
      const fr_t* co = plan.coeff.data() + plan.offset[k];
      ff::fr_accumulator_t acc;
      for (size_t j = 1; j < t; ++j) acc.mac(w[j], s[j]);
      for (size_t l = 0; l <= m; ++l) acc.mac(co[l], y[l]);
      s[0] = acc.reduce();
    }
    const fr_t* v[POSEIDON_PARTIAL_BLOCK];
    for (size_t l = 0; l < nb; ++l) v[l] = c.sparse[k0 + l].v_rest.data();
    for (size_t j = 1; j < t; ++j) {
      ff::fr_accumulator_t acc;
      acc.add(s[j]);
      for (size_t l = 0; l < nb; ++l) acc.mac(v[l][j - 1], y[l]);
      s[j] = acc.reduce();
    }
  }
}

}  // namespace detail

/// Runs the R_P partial rounds on state s (s[0] is the input of the first partial S-box).
/// sbox(k) must replace s[0] by S(s[0]) + key of partial round k; then the round's sparse layer
/// is applied as above. Equal to, for each k: sbox(k); poseidon_round_matrix(s, R_F/2 + k, c).
template <class Sbox>
void poseidon_sparse_blocks(fr_t* s, const poseidon_constants_t& c,
                            const poseidon_partial_plan_t& plan, Sbox&& sbox) {
  switch (c.width) {  // the Filecoin widths: arity 2, 8, 11 (and 4, 16)
    case 3:
      return detail::poseidon_sparse_blocks_w<3>(s, c, plan, sbox);
    case 5:
      return detail::poseidon_sparse_blocks_w<5>(s, c, plan, sbox);
    case 9:
      return detail::poseidon_sparse_blocks_w<9>(s, c, plan, sbox);
    case 12:
      return detail::poseidon_sparse_blocks_w<12>(s, c, plan, sbox);
    case 17:
      return detail::poseidon_sparse_blocks_w<17>(s, c, plan, sbox);
    default:
      return detail::poseidon_sparse_blocks_w<0>(s, c, plan, sbox);
  }
}

// ---- hashing -----------------------------------------------------------------------------------

/// Poseidon of `preimage` (size ≤ c.arity; missing elements are zero, as with ConstantLength)
/// with the given domain tag, optimized permutation.
fr_t poseidon_hash(std::span<const fr_t> preimage, const fr_t& tag, const poseidon_constants_t& c);
/// MerkleTree hash with arity = preimage.size() (which must be supported).
fr_t poseidon_hash(std::span<const fr_t> preimage);
/// Same as poseidon_hash(preimage, tag, c) through the reference permutation.
fr_t poseidon_hash_reference(std::span<const fr_t> preimage, const fr_t& tag,
                             const poseidon_constants_t& c);

}  // namespace cuzk::filecoin::hash
