// SPDX-License-Identifier: Apache-2.0
// The EmptySectorUpdate gadgets (storage-proofs-update gadgets.rs; docs/spec/snap.md §6), built
// from the shared ones (bits, pack_bits, insert, select, Poseidon, SHA-256, PoR levels):
//  * alloc_bits_le_packed: n allocated bits of a number, LSB first, then (Σ 2^i b_i)·ONE = num
//    (the k_and_h_select split and allocated_num_to_allocated_bits; not to_bits_le's 0·0 form);
//  * poseidon_hash_randomness: H_R, Poseidon arity 2 with the 2^40 SnapDeals tag (311);
//  * por_no_challenge_input: a Merkle path whose siblings and index bits exist already: per level
//    insert + hash, then computed·ONE = root;
//  * apex_por: the apex tree from its leaves row by row (SHA hash2), then the partition path to
//    comm_d (317,654 constraints for 8 apex leaves, no partition bits);
//  * gen_challenge_bits: per digest j, digest_index = D·k + j, H_R(comm_r_new, digest_index), its
//    255 bits (568 per digest);
//  * get_challenge_high_bits: the top hs[t] bits of the challenge for each t, each times its
//    h_select bit, summed (13);
//  * label_r_new: leaf_r_old + leaf_d_new·rho (2).
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/insertion.hpp"
#include "filecoin/gadgets/multipack.hpp"
#include "filecoin/gadgets/num.hpp"
#include "filecoin/gadgets/por.hpp"
#include "filecoin/gadgets/poseidon.hpp"
#include "filecoin/gadgets/sha256.hpp"
#include "filecoin/hash/merkle.hpp"
#include "filecoin/hash/poseidon.hpp"

namespace cuzk::filecoin::gadgets {

/// Allocates the n low bits of x.value (LSB first), each with its boolean constraint, then
/// enforces (Σ 2^i b_i)·ONE = x. n + 1 constraints, n aux. n ≤ 255.
template <class CS>
std::vector<boolean_t> alloc_bits_le_packed(CS& cs, const allocated_num_t& x, size_t n) {
  assert(n <= FR_NUM_BITS);
  const auto limbs = x.value.to_canonical();
  std::vector<boolean_t> bits(n);
  for (size_t i = 0; i < n; ++i)
    bits[i] = boolean_t::from_bit(alloc_bit(cs, (limbs[i / 64] >> (i % 64)) & 1));
  cs.enforce([&](linear_combination& lc) { detail::add_packed(lc, bits); },
             [](linear_combination& lc) { lc += variable::one(); },
             [&](linear_combination& lc) { lc += x.var; });
  return bits;
}

/// H_R(a, b): Poseidon arity 2 with the gen-randomness tag 2^40. 311 constraints.
template <r1cs::constraint_system CS>
allocated_num_t poseidon_hash_randomness(CS& cs, const allocated_num_t& a,
                                         const allocated_num_t& b) {
  static const fr_t tag = hash::poseidon_gen_randomness_tag();
  const std::array<variable, 2> vars = {a.var, b.var};
  const std::array<fr_t, 2> values = {a.value, b.value};
  const poseidon_result_t r =
      poseidon_hash(cs, std::span<const variable>(vars), std::span<const fr_t>(values),
                    hash::poseidon_constants(2), tag);
  return {r.var, r.value};
}

/// por_no_challenge_input over a tree of `shape` (hash h): the levels leaf to root take log2(a)
/// of `bits` (in order) and a − 1 of `siblings` (in order) each; then computed·ONE = root.
/// Nothing is allocated but the inserts and hashes.
template <class CS>
void por_no_challenge_input(CS& cs, por_hash_t h, const hash::tree_shape& shape,
                            std::span<const boolean_t> bits, const allocated_num_t& leaf,
                            std::span<const allocated_num_t> siblings,
                            const allocated_num_t& root) {
  allocated_num_t cur = leaf;
  size_t bit = 0, sib = 0;
  for (unsigned l = 0; l < shape.height(); ++l) {
    const unsigned a = shape.arity_at(l);
    const size_t nbits = size_t(std::countr_zero(a));
    cur = por_insert_and_hash(cs, h, cur, bits.subspan(bit, nbits), siblings.subspan(sib, a - 1));
    bit += nbits;
    sib += a - 1;
  }
  assert(bit == bits.size() && sib == siblings.size());
  enforce_num_equal(cs, cur, root);
}

/// apex_por: hash the apex leaves row by row, left to right (SHA hash2), then climb the partition
/// path (one sibling per partition bit, binary SHA levels) and enforce the result·ONE = comm_d.
template <class CS>
void apex_por(CS& cs, std::span<const allocated_num_t> apex_leaves,
              std::span<const boolean_t> partition_bits,
              std::span<const allocated_num_t> partition_path, const allocated_num_t& comm_d) {
  std::vector<allocated_num_t> row(apex_leaves.begin(), apex_leaves.end());
  while (row.size() > 1) {
    std::vector<allocated_num_t> next(row.size() / 2);
    for (size_t i = 0; i < next.size(); ++i)
      next[i] = sha256_trunc254_hash2(cs, row[2 * i], row[2 * i + 1]);
    row.swap(next);
  }
  por_no_challenge_input(cs, por_hash_t::sha256,
                         hash::tree_shape::binary(uint64_t(1) << partition_bits.size()),
                         partition_bits, row[0], partition_path, comm_d);
}

/// gen_challenge_bits: the random bits of `challenges` challenges, `bits_per_challenge` each,
/// from `digests` digests of comm_r_new (every digest allocates all 255 bits; challenges past
/// the count are dropped). Returns the bits of challenge c at [c·bits_per_challenge, …).
template <r1cs::constraint_system CS>
std::vector<boolean_t> gen_challenge_bits(CS& cs, const allocated_num_t& comm_r_new,
                                          const allocated_num_t& partition, unsigned challenges,
                                          unsigned bits_per_challenge, unsigned digests) {
  const unsigned per_digest = unsigned(FR_CAPACITY) / bits_per_challenge;
  std::vector<boolean_t> out;
  out.reserve(size_t(challenges) * bits_per_challenge);
  const fr_t d = fr_t::from_uint(digests);
  for (unsigned j = 0; j < digests; ++j) {
    const fr_t jf = fr_t::from_uint(j);
    const allocated_num_t digest_index = alloc_num(cs, partition.value * d + jf);
    cs.enforce(
        [&](linear_combination& lc) {
          lc.push(d, partition.var);
          lc.push(jf, variable::one());
        },
        [](linear_combination& lc) { lc += variable::one(); },
        [&](linear_combination& lc) { lc += digest_index.var; });
    const allocated_num_t digest = poseidon_hash_randomness(cs, comm_r_new, digest_index);
    const std::vector<boolean_t> bits = alloc_bits_le_packed(cs, digest, FR_NUM_BITS);
    const size_t taken = out.size() / bits_per_challenge;
    const size_t take = j + 1 == digests ? challenges - taken : per_digest;
    out.insert(out.end(), bits.begin(), bits.begin() + take * bits_per_challenge);
  }
  return out;
}

/// get_challenge_high_bits: for each t, c_high_t = pack_bits of the top hs[t] of the challenge's
/// bits (LE), c_high_or_zero_t = c_high_t·h_select_bits[t]; returns Σ_t c_high_or_zero_t (in a
/// new aux, (Σ)·ONE = sum).
template <class CS>
allocated_num_t get_challenge_high_bits(CS& cs, std::span<const boolean_t> c_bits,
                                        std::span<const boolean_t> h_select_bits,
                                        std::span<const unsigned> hs) {
  assert(h_select_bits.size() == hs.size());
  std::vector<allocated_num_t> terms(hs.size());
  fr_t sum = fr_t::zero();
  for (size_t t = 0; t < hs.size(); ++t) {
    const allocated_num_t high = pack_bits(cs, c_bits.subspan(c_bits.size() - hs[t]));
    const boolean_t& sel = h_select_bits[t];
    terms[t] = alloc_num(cs, sel.value ? high.value : fr_t::zero());
    cs.enforce([&](linear_combination& lc) { lc += high.var; },
               [&](linear_combination& lc) { sel.add_to(lc); },
               [&](linear_combination& lc) { lc += terms[t].var; });
    sum += terms[t].value;
  }
  const allocated_num_t selected = alloc_num(cs, sum);
  cs.enforce(
      [&](linear_combination& lc) {
        for (const allocated_num_t& term : terms) lc += term.var;
      },
      [](linear_combination& lc) { lc += variable::one(); },
      [&](linear_combination& lc) { lc += selected.var; });
  return selected;
}

/// label_r_new = label_r_old + label_d_new·rho: the product (1/1), then the sum (1/1).
template <class CS>
allocated_num_t label_r_new(CS& cs, const allocated_num_t& label_r_old,
                            const allocated_num_t& label_d_new, const allocated_num_t& rho) {
  return num_add(cs, label_r_old, num_mul(cs, label_d_new, rho));
}

}  // namespace cuzk::filecoin::gadgets
