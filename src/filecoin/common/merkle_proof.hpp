// SPDX-License-Identifier: Apache-2.0
// The Merkle inclusion proof of the vanilla proofs of every proof kind (storage-proofs-core
// merkle/proof.rs MerkleProof: Single, Sub or Top by tree shape; docs/spec/c1.md §1): PoRep's
// tree_d / tree_c / tree_r_last openings, PoSt's tree_r_last openings and SnapDeals' three trees.
// Storage is compact: all sibling hashes of all levels in one flat vector. Also the conversions to
// and from the native hash::merkle_path, and the check that a proof fits a tree shape.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/status.hpp"
#include "filecoin/hash/merkle.hpp"

namespace cuzk::filecoin::common {

/// Every 32-byte value of a vanilla proof (Sha256Domain, PoseidonDomain, Commitment, Ticket): the
/// little-endian canonical repr of an Fr (docs/spec/primitives.md §1), kept as raw bytes so that
/// reading and writing never converts (tree_d leaves are raw data and need not be < r; use
/// hash::bytes_to_fr where a field element is needed). Same type as
/// hash::bytes32_t.
using domain_t = std::array<uint8_t, 32>;

/// ProofData variant of storage-proofs-core merkle/proof.rs; the value is the bincode variant id.
enum class merkle_proof_kind : uint8_t { single = 0, sub = 1, top = 2 };

/// One PathElement: `num_hashes` (= arity − 1) sibling hashes stored in merkle_proof_t::hashes,
/// and the position `index` (< arity) of the running hash among the arity children.
struct path_element_t {
  uint32_t num_hashes = 0;
  uint32_t index = 0;
  bool operator==(const path_element_t&) const = default;
};

/// MerkleProof<H, Base, Sub, Top>. `path` lists every level from the leaf up: the base_proof
/// levels, then (sub, top) the sub_proof levels, then (top) the top_proof levels; base_len /
/// sub_len / top_len say how many of `path` belong to each part (Single: base_len = path.size(),
/// sub_len = top_len = 0). `hashes` holds all levels' siblings concatenated in path order.
/// JSON: Single {root, leaf, path}; Sub {base_proof, sub_proof, root, leaf}; Top {base_proof,
/// sub_proof, top_proof, root, leaf}; each InclusionPath is {"path": [{hashes, index}…]}.
struct merkle_proof_t {
  merkle_proof_kind kind = merkle_proof_kind::single;
  domain_t root{};
  domain_t leaf{};
  std::vector<path_element_t> path;
  std::vector<domain_t> hashes;
  uint32_t base_len = 0;
  uint32_t sub_len = 0;
  uint32_t top_len = 0;

  bool operator==(const merkle_proof_t&) const = default;

  /// Appends a level to part 0 (base_proof), 1 (sub_proof) or 2 (top_proof); parts are appended
  /// in that order.
  void push_level(unsigned part, uint32_t index, std::span<const domain_t> siblings) {
    path.push_back({uint32_t(siblings.size()), index});
    hashes.insert(hashes.end(), siblings.begin(), siblings.end());
    (part == 0 ? base_len : part == 1 ? sub_len : top_len)++;
  }
  /// Reserves for `levels` levels of `arity` (sizes known up front: no reallocation).
  void reserve(size_t levels, unsigned arity) {
    path.reserve(levels);
    hashes.reserve(levels * (arity - 1));
  }
  /// The leaf index spelled by the path: Σ index_l · Π_{j<l} arity_j (arity = num_hashes + 1).
  uint64_t leaf_index() const {
    uint64_t idx = 0, mul = 1;
    for (const auto& e : path) {
      idx += mul * e.index;
      mul *= uint64_t(e.num_hashes) + 1;
    }
    return idx;
  }
  /// True when the part lengths add up and the hash count matches the levels.
  bool well_formed() const {
    size_t n = 0;
    for (const auto& e : path) n += e.num_hashes;
    return n == hashes.size() && size_t(base_len) + sub_len + top_len == path.size() &&
           (kind == merkle_proof_kind::single ? sub_len == 0 && top_len == 0
            : kind == merkle_proof_kind::sub  ? top_len == 0
                                              : true);
  }
};

// ---- conversions for native verification --------------------------------------------------------

/// The proof as a hash::merkle_path over raw 32-byte values (tree_d / SHA trees).
inline hash::merkle_path<hash::bytes32_t> to_sha_path(const merkle_proof_t& p) {
  hash::merkle_path<hash::bytes32_t> out;
  out.leaf_index = p.leaf_index();
  out.leaf = p.leaf;
  out.root = p.root;
  out.levels.reserve(p.path.size());
  size_t off = 0;
  for (const auto& e : p.path) {
    hash::merkle_path_level<hash::bytes32_t> l;
    l.arity = e.num_hashes + 1;
    l.index = e.index;
    l.siblings.assign(p.hashes.begin() + off, p.hashes.begin() + off + e.num_hashes);
    off += e.num_hashes;
    out.levels.push_back(std::move(l));
  }
  return out;
}

/// The proof as a hash::merkle_path over Fr (Poseidon trees); false when a value is ≥ r.
inline bool to_poseidon_path(const merkle_proof_t& p, hash::merkle_path<ff::fr_t>& out) {
  out = {};
  out.leaf_index = p.leaf_index();
  if (!hash::bytes_to_fr(p.leaf, out.leaf) || !hash::bytes_to_fr(p.root, out.root)) return false;
  out.levels.reserve(p.path.size());
  size_t off = 0;
  for (const auto& e : p.path) {
    hash::merkle_path_level<ff::fr_t> l;
    l.arity = e.num_hashes + 1;
    l.index = e.index;
    l.siblings.resize(e.num_hashes);
    for (uint32_t i = 0; i < e.num_hashes; ++i)
      if (!hash::bytes_to_fr(p.hashes[off + i], l.siblings[i])) return false;
    off += e.num_hashes;
    out.levels.push_back(std::move(l));
  }
  return true;
}

/// A merkle_proof_t from a native path of a tree of `shape` (Single for x-0-0, Sub for x-y-0,
/// Top for x-y-z: the last one or two levels are the sub / top parts).
inline merkle_proof_t make_merkle_proof(const hash::tree_shape& shape,
                                        const hash::merkle_path<hash::bytes32_t>& p) {
  merkle_proof_t out;
  out.kind = shape.top_arity   ? merkle_proof_kind::top
             : shape.sub_arity ? merkle_proof_kind::sub
                               : merkle_proof_kind::single;
  out.root = p.root;
  out.leaf = p.leaf;
  const size_t base = shape.base_height();
  out.reserve(p.levels.size(), shape.base_arity);
  for (size_t l = 0; l < p.levels.size(); ++l)
    out.push_level(l < base ? 0 : l == base ? 1 : 2, p.levels[l].index, p.levels[l].siblings);
  return out;
}
inline merkle_proof_t make_merkle_proof(const hash::tree_shape& shape,
                                        const hash::merkle_path<ff::fr_t>& p) {
  hash::merkle_path<hash::bytes32_t> b;
  b.leaf_index = p.leaf_index;
  b.leaf = hash::fr_to_bytes(p.leaf);
  b.root = hash::fr_to_bytes(p.root);
  for (const auto& l : p.levels) {
    hash::merkle_path_level<hash::bytes32_t> bl;
    bl.arity = l.arity;
    bl.index = l.index;
    for (const auto& s : l.siblings) bl.siblings.push_back(hash::fr_to_bytes(s));
    b.levels.push_back(std::move(bl));
  }
  return make_merkle_proof(shape, b);
}

/// The MerkleProof variant of a tree shape: Single (x-0-0), Sub (x-y-0), Top (x-y-z).
merkle_proof_kind merkle_proof_kind_for(const hash::tree_shape& t);

/// A Merkle proof fits tree t: its variant, the base/sub/top level counts, every level's arity
/// and index < arity. Errors are size_mismatch prefixed with `what`.
status check_merkle_shape(const hash::tree_shape& t, const merkle_proof_t& m,
                          const std::string& what);

}  // namespace cuzk::filecoin::common
