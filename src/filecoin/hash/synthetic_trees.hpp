// SPDX-License-Identifier: Apache-2.0
// Merkle trees of sectors that are never written out in full, for synthetic vanilla proofs of any
// size (32/64 GiB included): only what the proven paths touch is hashed, yet every node has a
// definite value, so every path verifies against the root like a stored tree's.
//  * sparse_tree: given leaves at a few indices, every other leaf a default value. A node whose
//    subtree holds no given leaf equals defaults[l] (defaults[l + 1] = H(defaults[l] × a_l));
//    the others are stored. Cost: the given leaves' ancestors, one hash each.
//  * block_tree: the leaves are constant over aligned blocks of 2^block_bits leaves (one value
//    per block). A node inside one block equals that block's per-level value (one hash per block
//    and level inside it); the nodes above the blocks are stored. Cost: about
//    blocks · (levels inside a block + 1/(a − 1)) hashes, independent of which leaves are proven,
//    so the root can be known before the challenges are (SnapDeals derives them from comm_r_new).
// Both give path(leaf) in the form of basic_merkle_tree::path, so the vanilla-proof code that
// takes one takes the other.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "base/thread_pool.hpp"
#include "filecoin/hash/merkle.hpp"
#include "filecoin/hash/sha256_trunc254.hpp"

namespace cuzk::filecoin::hash {

/// A synthetic sector's pseudo-random value: SHA256-trunc254(tag ‖ each word u64 LE). Below 2^254,
/// so always a canonical Fr encoding (and Fr32-padded data).
inline bytes32_t synthetic_digest(std::string_view tag, std::initializer_list<uint64_t> words) {
  std::vector<uint8_t> msg(tag.begin(), tag.end());
  for (uint64_t v : words)
    for (int i = 0; i < 8; ++i) msg.push_back(uint8_t(v >> (8 * i)));
  return sha256_trunc254(msg);
}

/// The inclusion path of `leaf` in a tree of `shape` whose node (level, index) is get(level, i).
template <class T, class Get>
merkle_path<T> path_from_nodes(const tree_shape& shape, uint64_t leaf, const Get& get) {
  merkle_path<T> p;
  p.leaf_index = leaf;
  p.leaf = get(0, leaf);
  p.root = get(shape.height(), 0);
  uint64_t i = leaf;
  for (unsigned l = 0; l < shape.height(); ++l) {
    const unsigned a = shape.arity_at(l);
    merkle_path_level<T> lv;
    lv.arity = a;
    lv.index = unsigned(i % a);
    for (unsigned j = 0; j < a; ++j)
      if (j != lv.index) lv.siblings.push_back(get(l, i - lv.index + j));
    p.levels.push_back(std::move(lv));
    i /= a;
  }
  return p;
}

template <class Hasher>
class sparse_tree {
 public:
  using value_t = typename Hasher::value_t;

  /// `leaves` sorted by index, indices unique and < shape.num_leaves. `hashes` grows by the
  /// number of nodes hashed.
  sparse_tree(const tree_shape& shape, const std::vector<std::pair<uint64_t, value_t>>& leaves,
              const value_t& default_leaf, thread_pool& pool, size_t& hashes)
      : shape_(shape) {
    const unsigned h = shape.height();
    idx_.resize(h + 1);
    val_.resize(h + 1);
    defaults_.resize(h + 1);
    defaults_[0] = default_leaf;
    for (const auto& [i, v] : leaves) {
      idx_[0].push_back(i);
      val_[0].push_back(v);
    }
    for (unsigned l = 0; l < h; ++l) {
      const unsigned a = shape.arity_at(l);
      std::vector<value_t> kids(a, defaults_[l]);
      defaults_[l + 1] = hash_node<Hasher>(a, kids.data());
      auto& up = idx_[l + 1];
      for (uint64_t i : idx_[l])
        if (up.empty() || up.back() != i / a) up.push_back(i / a);
      val_[l + 1].resize(up.size());
      pool.parallel_range(
          up.size(),
          [&](size_t b, size_t e) {
            std::vector<value_t> ch(a);
            for (size_t k = b; k < e; ++k) {
              for (unsigned j = 0; j < a; ++j) ch[j] = get(l, up[k] * a + j);
              val_[l + 1][k] = hash_node<Hasher>(a, ch.data());
            }
          },
          16);
      hashes += up.size();
    }
    if (idx_[h].empty()) {  // no given leaf at all: the root is the default one
      idx_[h].push_back(0);
      val_[h].push_back(defaults_[h]);
    }
  }

  const tree_shape& shape() const { return shape_; }
  const value_t& root() const { return val_.back()[0]; }

  value_t get(unsigned level, uint64_t i) const {
    const auto& ix = idx_[level];
    auto it = std::lower_bound(ix.begin(), ix.end(), i);
    return (it != ix.end() && *it == i) ? val_[level][size_t(it - ix.begin())] : defaults_[level];
  }

  merkle_path<value_t> path(uint64_t leaf) const {
    return path_from_nodes<value_t>(shape_, leaf,
                                    [this](unsigned l, uint64_t i) { return get(l, i); });
  }

 private:
  tree_shape shape_;
  std::vector<std::vector<uint64_t>> idx_;
  std::vector<std::vector<value_t>> val_;
  std::vector<value_t> defaults_;
};

template <class Hasher>
class block_tree {
 public:
  using value_t = typename Hasher::value_t;

  /// Leaf i is block_leaves[i >> block_bits]; block_leaves.size() · 2^block_bits must be
  /// shape.num_leaves and every arity a power of two (Filecoin's 2, 4, 8), so a node either lies
  /// inside one block or covers whole blocks. `hashes` grows by the number of nodes hashed.
  block_tree(const tree_shape& shape, std::vector<value_t> block_leaves, unsigned block_bits,
             thread_pool& pool, size_t& hashes)
      : shape_(shape), block_bits_(block_bits) {
    const unsigned h = shape.height();
    const size_t blocks = block_leaves.size();
    span_bits_.assign(h + 1, 0);
    for (unsigned l = 0; l < h; ++l) {
      unsigned b = 0;
      for (unsigned a = shape.arity_at(l); a > 1; a >>= 1) ++b;
      span_bits_[l + 1] = span_bits_[l] + b;
    }
    inner_.resize(h + 1);
    outer_.resize(h + 1);
    inner_[0] = std::move(block_leaves);
    for (unsigned l = 0; l < h; ++l) {
      const unsigned a = shape.arity_at(l);
      if (span_bits_[l + 1] <= block_bits_) {  // level l + 1 still inside the blocks
        inner_[l + 1].resize(blocks);
        pool.parallel_range(
            blocks,
            [&](size_t b, size_t e) {
              std::vector<value_t> ch(a);
              for (size_t k = b; k < e; ++k) {
                std::fill(ch.begin(), ch.end(), inner_[l][k]);
                inner_[l + 1][k] = hash_node<Hasher>(a, ch.data());
              }
            },
            64);
        hashes += blocks;
      } else {
        const size_t n = size_t(shape.num_leaves >> span_bits_[l + 1]);
        outer_[l + 1].resize(n);
        pool.parallel_range(
            n,
            [&](size_t b, size_t e) {
              std::vector<value_t> ch(a);
              for (size_t k = b; k < e; ++k) {
                for (unsigned j = 0; j < a; ++j) ch[j] = get(l, k * a + j);
                outer_[l + 1][k] = hash_node<Hasher>(a, ch.data());
              }
            },
            64);
        hashes += n;
      }
    }
  }

  const tree_shape& shape() const { return shape_; }
  value_t root() const { return get(shape_.height(), 0); }

  /// Node i of level l (level 0: the leaves).
  value_t get(unsigned level, uint64_t i) const {
    if (span_bits_[level] <= block_bits_)
      return inner_[level][size_t((i << span_bits_[level]) >> block_bits_)];
    return outer_[level][size_t(i)];
  }

  merkle_path<value_t> path(uint64_t leaf) const {
    return path_from_nodes<value_t>(shape_, leaf,
                                    [this](unsigned l, uint64_t i) { return get(l, i); });
  }

 private:
  tree_shape shape_;
  unsigned block_bits_;
  std::vector<unsigned> span_bits_;          ///< log2 of the leaves under one node of each level
  std::vector<std::vector<value_t>> inner_;  ///< [level][block], levels inside a block
  std::vector<std::vector<value_t>> outer_;  ///< [level][node], levels above the blocks
};

}  // namespace cuzk::filecoin::hash
