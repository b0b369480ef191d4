// SPDX-License-Identifier: Apache-2.0
// Native Poseidon over BLS12-381 Fr exactly as neptune computes it (FILECOIN.md §4.4): state
// [domain_tag, x_1 .. x_a], R_F = 8 full and R_P partial rounds of x^5, output state[1]. The
// optimized permutation (compressed constants, pre-sparse and sparse matrices) is the one used;
// the reference permutation (plain Grain constants and M every round) exists to test it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ff/fields.hpp"
#include "hash/poseidon_constants.hpp"

namespace cuzk::hash {

// ---- domain tags (neptune hash_type.rs) -------------------------------------------------------

/// HashType::MerkleTree: 2^arity - 1 (tree nodes, comm_r, column hashes).
fr_t poseidon_merkle_tag(size_t arity);
/// HashType::ConstantLength(n): n·2^64.
fr_t poseidon_constant_length_tag(uint64_t n);
/// HashType::Custom(id): id·2^40 (neptune accepts 1 ≤ id ≤ 256; SnapDeals uses id 1).
fr_t poseidon_custom_tag(uint64_t id);

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

// ---- hashing -----------------------------------------------------------------------------------

/// Poseidon of `preimage` (size ≤ c.arity; missing elements are zero, as with ConstantLength)
/// with the given domain tag, optimized permutation.
fr_t poseidon_hash(std::span<const fr_t> preimage, const fr_t& tag, const poseidon_constants_t& c);
/// MerkleTree hash with arity = preimage.size() (which must be supported).
fr_t poseidon_hash(std::span<const fr_t> preimage);
/// Same as poseidon_hash(preimage, tag, c) through the reference permutation.
fr_t poseidon_hash_reference(std::span<const fr_t> preimage, const fr_t& tag,
                             const poseidon_constants_t& c);

}  // namespace cuzk::hash
