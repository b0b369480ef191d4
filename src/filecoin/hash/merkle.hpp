// SPDX-License-Identifier: Apache-2.0
// Native Merkle trees as Filecoin builds them (docs/spec/primitives.md §2, porep.md §5;
// storage-proofs-core merkle/): binary SHA256-trunc254 trees over raw 32-byte leaves (tree_d) and
// Poseidon trees of arity 2/4/8 with the compound base/sub/top shapes (tree_c, tree_r_last). A
// compound tree is stored as one mixed-arity tree, level by level (leaves first), which holds
// exactly the same values as the separate base trees plus the sub/top levels over their roots.
// Paths, path checks, root-only builds in bounded memory. Layout, value types and costs:
// docs/notes/merkle.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"

namespace cuzk::filecoin::hash {

/// A 32-byte tree_d node or leaf (SHA trees): the LE repr of a field element
/// (docs/spec/primitives.md §1).
using bytes32_t = std::array<uint8_t, 32>;

/// The shape of a (possibly compound) tree. base_arity ∈ {2, 4, 8}; sub_arity ∈ {0, 2, 4, 8};
/// top_arity ∈ {0, 2, 4, 8}, and a top level needs a sub level. The leaves are split into
/// max(sub,1)·max(top,1) equal contiguous slices, one base tree each; the sub level hashes groups
/// of sub_arity consecutive base roots, the top level hashes all top_arity sub roots.
struct tree_shape {
  unsigned base_arity = 2;
  unsigned sub_arity = 0;
  unsigned top_arity = 0;
  uint64_t num_leaves = 0;

  /// Checks the arities, and that each base tree holds a positive power of base_arity leaves.
  status validate() const;

  uint64_t num_base_trees() const {
    return uint64_t(sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1);
  }
  uint64_t base_leaves() const { return num_leaves / num_base_trees(); }
  /// Hashing levels inside one base tree (base_path_length in storage-proofs-core).
  unsigned base_height() const;
  /// All hashing levels: base_height + (sub ? 1 : 0) + (top ? 1 : 0) = path length.
  unsigned height() const { return base_height() + (sub_arity ? 1 : 0) + (top_arity ? 1 : 0); }
  /// Arity of hashing level l (0 = the level whose children are the leaves).
  unsigned arity_at(unsigned level) const;
  /// Σ log2(arity) over the levels = log2(num_leaves): the PoR index bits.
  unsigned index_bits() const;
  /// "8-8-2", "2-0-0", … (base-sub-top).
  std::string name() const;

  static tree_shape binary(uint64_t num_leaves) { return {2, 0, 0, num_leaves}; }
};

/// tree_d shape of a sector: binary over sector_bytes / 32 leaves.
result<tree_shape> tree_d_shape(uint64_t sector_bytes);
/// tree_c / tree_r_last shape of a sector (filecoin-proofs constants.rs SectorShape*):
/// 2 KiB, 8 MiB, 512 MiB: 8-0-0; 4 KiB, 16 MiB, 1 GiB: 8-2-0; 16 KiB, 32 GiB: 8-8-0;
/// 32 KiB, 64 GiB: 8-8-2. Other sizes are invalid_argument.
result<tree_shape> tree_r_shape(uint64_t sector_bytes);

// ---- hashers ---------------------------------------------------------------------------------

/// SHA256-trunc254 binary nodes: node = sha256(left ‖ right) with byte 31 &= 0x3f, no leaf
/// hashing and no domain separation (filecoin-hashers sha256.rs).
struct sha256_hasher {
  using value_t = bytes32_t;
  static bool supports_arity(unsigned arity) { return arity == 2; }
  /// out[i] = H(in[arity·i], …, in[arity·i + arity − 1]) for i < n_out.
  static void hash_level(unsigned arity, const value_t* in, value_t* out, size_t n_out);
};

/// Poseidon nodes with the MerkleTree tag 2^arity − 1 (filecoin-hashers poseidon.rs).
struct poseidon_hasher {
  using value_t = ff::fr_t;
  static bool supports_arity(unsigned arity) { return arity == 2 || arity == 4 || arity == 8; }
  static void hash_level(unsigned arity, const value_t* in, value_t* out, size_t n_out);
};

/// One node: H(children[0..arity)).
template <class Hasher>
typename Hasher::value_t hash_node(unsigned arity, const typename Hasher::value_t* children) {
  typename Hasher::value_t out;
  Hasher::hash_level(arity, children, &out, 1);
  return out;
}

// ---- paths -----------------------------------------------------------------------------------

template <class T>
struct merkle_path_level {
  unsigned arity = 0;
  unsigned index = 0;       ///< position of the running hash among the arity children
  std::vector<T> siblings;  ///< the other arity − 1 children, in order (index skipped)
};

/// An inclusion proof, levels from the leaf up: base levels, then sub, then top
/// (storage-proofs-core merkle/proof.rs). leaf_index = Σ index_l · Π_{j<l} arity_j.
template <class T>
struct merkle_path {
  uint64_t leaf_index = 0;
  T leaf{};
  T root{};
  std::vector<merkle_path_level<T>> levels;

  /// The PoR index bits: log2(arity_l) bits of index_l, LSB first, concatenated from the leaf
  /// level up; equal to the LE binary expansion of leaf_index.
  std::vector<bool> index_bits() const {
    std::vector<bool> bits;
    for (const auto& l : levels)
      for (unsigned a = l.arity, i = l.index; a > 1; a >>= 1, i >>= 1) bits.push_back(i & 1);
    return bits;
  }
};

/// Recomputes the root from leaf and siblings; true when it equals path.root, every level's
/// arity is supported and index < arity, and the indices spell path.leaf_index.
template <class Hasher>
bool verify_path(const merkle_path<typename Hasher::value_t>& path);

// ---- trees -----------------------------------------------------------------------------------

/// A fully stored tree: level 0 = the leaves, level height() = {root}. Level l + 1 has
/// |level l| / arity_at(l) nodes; node i of level l + 1 hashes nodes [a·i, a·i + a) of level l.
/// Memory: about leaves · sizeof(value_t) · a/(a − 1).
template <class Hasher>
class basic_merkle_tree {
 public:
  using value_t = typename Hasher::value_t;

  /// Builds every level; a level with at least 512 parents is split over the pool.
  static result<basic_merkle_tree> build(const tree_shape& shape, std::vector<value_t> leaves,
                                         thread_pool& pool = thread_pool::default_pool());

  const tree_shape& shape() const { return shape_; }
  unsigned height() const { return unsigned(levels_.size() - 1); }
  std::span<const value_t> level(unsigned l) const { return levels_[l]; }
  std::span<const value_t> leaves() const { return levels_[0]; }
  const value_t& root() const { return levels_.back()[0]; }
  /// The path of leaf `leaf_index` (< num_leaves; precondition).
  merkle_path<value_t> path(uint64_t leaf_index) const;

 private:
  tree_shape shape_;
  std::vector<std::vector<value_t>> levels_;
};

using sha256_tree = basic_merkle_tree<sha256_hasher>;
using poseidon_tree = basic_merkle_tree<poseidon_hasher>;

/// The root only, in bounded memory: the leaves are cut into chunks of whole subtrees (about
/// 2^14 leaves), each reduced on one thread in a private buffer; the chunk roots then form a
/// small tree. For trees too large to store (a 32 GiB tree_d is 2^30 leaves).
template <class Hasher>
result<typename Hasher::value_t> merkle_root(const tree_shape& shape,
                                             std::span<const typename Hasher::value_t> leaves,
                                             thread_pool& pool = thread_pool::default_pool());

/// Field element of a SHA tree value (its LE repr). Nodes always qualify (top two bits clear);
/// false for a raw leaf ≥ r.
inline bool bytes_to_fr(const bytes32_t& b, ff::fr_t& out) {
  return ff::fr_t::from_bytes_le(b.data(), out);
}
inline bytes32_t fr_to_bytes(const ff::fr_t& x) {
  bytes32_t b;
  x.to_bytes_le(b.data());
  return b;
}

}  // namespace cuzk::filecoin::hash
