// SPDX-License-Identifier: Apache-2.0
// storage-proofs-core PoRCircuit (gadgets/por.rs), constraint-exact (docs/spec/porep.md §8,
// gadgets.md §2.4): Merkle inclusion of a leaf under a root for Poseidon trees with base/sub/top
// arities and binary SHA256-trunc254 trees. Per level: log2(a) index bits (LSB first), a − 1 path
// elements, insert, hash; then pack_into_inputs(all index bits) (1 input) and computed·1 = root.
// Cost with Poseidon levels Σ(log2 a + ins(a) + Poseidon(a)) + 2: 1,062 (2 KiB), 5,302 (32 GiB),
// 5,616 (64 GiB).
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/insertion.hpp"
#include "filecoin/gadgets/multipack.hpp"
#include "filecoin/gadgets/num.hpp"
#include "filecoin/gadgets/poseidon.hpp"
#include "filecoin/gadgets/sha256.hpp"
#include "filecoin/hash/merkle.hpp"

namespace cuzk::filecoin::gadgets {

/// The tree hash of a PoR: Poseidon (tree_c, tree_r_last, any arity 2/4/8 per level) or binary
/// SHA256-trunc254 (tree_d, filecoin-hashers hash_multi_leaf_circuit).
enum class por_hash_t { poseidon, sha256 };

/// storage-proofs' Root: an existing variable (Var) or a value the circuit allocates (Val, 1 aux).
struct por_num_t {
  bool is_var = false;
  allocated_num_t num;  ///< the variable (Var) or the value to allocate (Val, num.value)

  static por_num_t var(const allocated_num_t& n) { return {true, n}; }
  static por_num_t val(const fr_t& v) { return {false, {variable::one(), v}}; }

  template <class CS>
  allocated_num_t allocated(CS& cs) const {
    return is_var ? num : alloc_num(cs, num.value);
  }
};

/// The witness of a path: per level (leaf first) its arity, index and siblings. Only the arities
/// matter in a CS without values (blank_por_path).
using por_path_t = hash::merkle_path<fr_t>;

/// A path of the shape with zero values (bellperson's blank circuit: shape_cs, matrix_cs, setup).
inline por_path_t blank_por_path(const hash::tree_shape& shape) {
  por_path_t p;
  for (unsigned l = 0; l < shape.height(); ++l) {
    const unsigned a = shape.arity_at(l);
    p.levels.push_back({a, 0, std::vector<fr_t>(a - 1, fr_t::zero())});
  }
  return p;
}

/// A SHA tree path as field elements (every node is < 2^254; the leaf must be a canonical Fr, as
/// Fr32-padded tree_d leaves are). False if some value is not.
inline bool to_fr_path(const hash::merkle_path<hash::bytes32_t>& in, por_path_t& out) {
  out.leaf_index = in.leaf_index;
  out.levels.clear();
  bool ok = hash::bytes_to_fr(in.leaf, out.leaf) && hash::bytes_to_fr(in.root, out.root);
  for (const auto& l : in.levels) {
    hash::merkle_path_level<fr_t> o{l.arity, l.index, std::vector<fr_t>(l.siblings.size())};
    for (size_t k = 0; k < l.siblings.size(); ++k)
      ok &= hash::bytes_to_fr(l.siblings[k], o.siblings[k]);
    out.levels.push_back(std::move(o));
  }
  return ok;
}

/// Constraints of one PoR level (index bits + insert + hash), for tests and planning.
constexpr size_t por_level_constraints(por_hash_t h, unsigned arity) {
  const size_t bits = arity == 2 ? 1 : arity == 4 ? 2 : arity == 8 ? 3 : 4;
  return bits + insert_constraints(arity) +
         (h == por_hash_t::poseidon ? poseidon_hash_constraints(arity) : 2 * 256 + 44'866 + 1);
}

/// Constraints of one PoR over a tree of `shape`: its levels, the packing row and the root
/// equality (1,062 for a 2 KiB tree_r, 5,302 for 32 GiB, 5,616 for 64 GiB).
inline size_t por_constraints(por_hash_t h, const hash::tree_shape& shape) {
  size_t n = 2;
  for (unsigned l = 0; l < shape.height(); ++l) n += por_level_constraints(h, shape.arity_at(l));
  return n;
}

/// The running hash `cur` up one level of arity a = 2^bits.size() whose a − 1 siblings are already
/// allocated: insert `cur` at the index the (LE) bits spell, then hash the a slots (Poseidon with
/// the MerkleTree tag, or the binary SHA256-trunc254 hash). ins(a) + hash constraints.
template <class CS>
allocated_num_t por_insert_and_hash(CS& cs, por_hash_t h, const allocated_num_t& cur,
                                    std::span<const boolean_t> bits,
                                    std::span<const allocated_num_t> siblings) {
  constexpr size_t MAX_ARITY = 16;
  const size_t a = siblings.size() + 1;
  assert(a <= MAX_ARITY && a == (size_t(1) << bits.size()));
  std::array<allocated_num_t, MAX_ARITY> slots;
  insert(cs, cur, bits, siblings, slots.data());
  if (h == por_hash_t::sha256) {
    assert(a == 2);
    return sha256_trunc254_leaves(cs, std::span<const allocated_num_t>(slots.data(), 2));
  }
  std::array<variable, MAX_ARITY> vars;
  std::array<fr_t, MAX_ARITY> values;
  for (size_t k = 0; k < a; ++k) {
    vars[k] = slots[k].var;
    values[k] = slots[k].value;
  }
  const poseidon_result_t r = poseidon_hash_merkle(cs, std::span<const variable>(vars.data(), a),
                                                   std::span<const fr_t>(values.data(), a));
  return {r.var, r.value};
}

/// The running hash `cur` up one level: allocate the index bits (appended to `bits_out`) and the
/// a − 1 path elements, then por_insert_and_hash.
template <class CS>
allocated_num_t por_level(CS& cs, por_hash_t h, const hash::merkle_path_level<fr_t>& level,
                          const allocated_num_t& cur, std::vector<boolean_t>& bits_out) {
  constexpr size_t MAX_ARITY = 16;
  const unsigned a = level.arity;
  assert(a >= 2 && a <= MAX_ARITY && (a & (a - 1)) == 0 && level.siblings.size() == a - 1);
  const size_t first_bit = bits_out.size();
  for (unsigned m = 1, k = 0; m < a; m <<= 1, ++k)
    bits_out.push_back(boolean_t::from_bit(alloc_bit(cs, (level.index >> k) & 1)));
  std::array<allocated_num_t, MAX_ARITY> path;
  for (unsigned k = 0; k + 1 < a; ++k) path[k] = alloc_num(cs, level.siblings[k]);
  return por_insert_and_hash(
      cs, h, cur,
      std::span<const boolean_t>(bits_out.data() + first_bit, bits_out.size() - first_bit),
      std::span<const allocated_num_t>(path.data(), a - 1));
}

/// PoRCircuit::synthesize. `value` and `root` are Var (existing variables) or Val (allocated
/// here: the value first, the root after the index input). Levels run leaf to root (base, sub,
/// top: the order of path.levels). Then pack_into_inputs of every index bit, computed·1 = root,
/// and, when !is_private, inputize(root) (a second input). Returns the computed root.
///   PoRep (comm_d, comm_c, comm_r_last): value and root Var, is_private = true.
///   PoSt: value Val (1 aux), root Var (comm_r_last), is_private = true.
///   PoRCompound public: value Val, root Val, is_private = false.
template <class CS>
allocated_num_t por(CS& cs, por_hash_t h, const por_path_t& path, const por_num_t& value,
                    const por_num_t& root, bool is_private) {
  allocated_num_t cur = value.allocated(cs);
  std::vector<boolean_t> bits;
  bits.reserve(64);
  for (const auto& level : path.levels) cur = por_level(cs, h, level, cur, bits);
  pack_into_inputs(cs, std::span<const boolean_t>(bits));
  const allocated_num_t rt = root.allocated(cs);
  enforce_num_equal(cs, cur, rt);
  if (!is_private) inputize(cs, rt);
  return cur;
}

}  // namespace cuzk::filecoin::gadgets
