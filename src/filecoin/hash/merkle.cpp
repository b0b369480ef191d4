// SPDX-License-Identifier: Apache-2.0
// Native Merkle trees: shapes, level-by-level multi-threaded builds, paths, path checks and
// bounded-memory roots (merkle.hpp; docs/notes/merkle.md).
#include "filecoin/hash/merkle.hpp"

#include <algorithm>
#include <bit>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256_trunc254.hpp"

namespace cuzk::filecoin::hash {
namespace {

bool is_arity(unsigned a) {
  return a == 2 || a == 4 || a == 8;
}

unsigned log2u(uint64_t x) {
  return unsigned(std::countr_zero(x));
}

// Minimum parents per task when a level is split over the pool: even 256 SHA nodes (~0.25 µs each
// with SHA-NI, ~64 µs a task) dwarf the mutex hand-out and the std::function call.
constexpr size_t PARALLEL_GRAIN = 256;

template <class Hasher>
void hash_level_parallel(unsigned arity, const typename Hasher::value_t* in,
                         typename Hasher::value_t* out, size_t n_out, thread_pool& pool) {
  if (n_out < 2 * PARALLEL_GRAIN || pool.size() == 1) {
    Hasher::hash_level(arity, in, out, n_out);
    return;
  }
  pool.parallel_range(
      n_out, [&](size_t b, size_t e) { Hasher::hash_level(arity, in + arity * b, out + b, e - b); },
      PARALLEL_GRAIN);
}

}  // namespace

// ---- shapes ----------------------------------------------------------------------------------

status tree_shape::validate() const {
  if (!is_arity(base_arity)) return {status_code::invalid_argument, "base arity must be 2, 4 or 8"};
  if (sub_arity != 0 && !is_arity(sub_arity))
    return {status_code::invalid_argument, "sub arity must be 0, 2, 4 or 8"};
  if (top_arity != 0 && !is_arity(top_arity))
    return {status_code::invalid_argument, "top arity must be 0, 2, 4 or 8"};
  if (top_arity != 0 && sub_arity == 0)
    return {status_code::invalid_argument, "a top level needs a sub level"};
  const uint64_t trees = num_base_trees();
  if (num_leaves == 0 || num_leaves % trees != 0)
    return {status_code::invalid_argument, "leaves do not split into equal base trees"};
  uint64_t n = num_leaves / trees;
  if (n < base_arity) return {status_code::invalid_argument, "base trees need >= arity leaves"};
  while (n > 1) {
    if (n % base_arity != 0)
      return {status_code::invalid_argument, "base tree leaves must be a power of the arity"};
    n /= base_arity;
  }
  return {};
}

unsigned tree_shape::base_height() const {
  return log2u(base_leaves()) / log2u(base_arity);
}

unsigned tree_shape::arity_at(unsigned level) const {
  const unsigned bh = base_height();
  if (level < bh) return base_arity;
  if (level == bh && sub_arity) return sub_arity;
  return top_arity;
}

unsigned tree_shape::index_bits() const {
  return log2u(num_leaves);
}

std::string tree_shape::name() const {
  return std::to_string(base_arity) + "-" + std::to_string(sub_arity) + "-" +
         std::to_string(top_arity);
}

result<tree_shape> tree_d_shape(uint64_t sector_bytes) {
  if (sector_bytes < 64 || !std::has_single_bit(sector_bytes))
    return {status_code::invalid_argument, "sector size must be a power of two >= 64 bytes"};
  return tree_shape::binary(sector_bytes / 32);
}

result<tree_shape> tree_r_shape(uint64_t sector_bytes) {
  constexpr uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;
  tree_shape s{8, 0, 0, sector_bytes / 32};
  switch (sector_bytes) {
    case 2 * KiB:
    case 8 * MiB:
    case 512 * MiB:
      break;
    case 4 * KiB:
    case 16 * MiB:
    case 1 * GiB:
      s.sub_arity = 2;
      break;
    case 16 * KiB:
    case 32 * GiB:
      s.sub_arity = 8;
      break;
    case 32 * KiB:
    case 64 * GiB:
      s.sub_arity = 8;
      s.top_arity = 2;
      break;
    default:
      return {status_code::invalid_argument, "not a Filecoin sector size"};
  }
  return s;
}

// ---- hashers ---------------------------------------------------------------------------------

void sha256_hasher::hash_level(unsigned arity, const value_t* in, value_t* out, size_t n_out) {
  (void)arity;  // always 2 (supports_arity)
  for (size_t i = 0; i < n_out; ++i)
    out[i] = sha256_trunc254_node(in[2 * i].data(), in[2 * i + 1].data());
}

void poseidon_hasher::hash_level(unsigned arity, const value_t* in, value_t* out, size_t n_out) {
  // Constants and tag once per call, not per node (the cache lookup and 2^a − 1 are not free).
  const poseidon_constants_t& c = poseidon_constants(arity);
  const fr_t tag = poseidon_merkle_tag(arity);
  for (size_t i = 0; i < n_out; ++i)
    out[i] = poseidon_hash(std::span<const value_t>(in + size_t(arity) * i, arity), tag, c);
}

// ---- paths -----------------------------------------------------------------------------------

template <class Hasher>
bool verify_path(const merkle_path<typename Hasher::value_t>& path) {
  using value_t = typename Hasher::value_t;
  value_t cur = path.leaf;
  uint64_t index = 0, weight = 1;
  value_t children[8];
  for (const auto& l : path.levels) {
    if (!Hasher::supports_arity(l.arity) || l.index >= l.arity || l.siblings.size() != l.arity - 1)
      return false;
    for (unsigned k = 0, s = 0; k < l.arity; ++k)
      children[k] = k == l.index ? cur : l.siblings[s++];
    cur = hash_node<Hasher>(l.arity, children);
    index += weight * l.index;
    weight *= l.arity;
  }
  return index == path.leaf_index && cur == path.root;
}

// ---- trees -----------------------------------------------------------------------------------

template <class Hasher>
result<basic_merkle_tree<Hasher>> basic_merkle_tree<Hasher>::build(const tree_shape& shape,
                                                                   std::vector<value_t> leaves,
                                                                   thread_pool& pool) {
  if (status s = shape.validate(); !s) return s;
  if (leaves.size() != shape.num_leaves)
    return {status_code::size_mismatch, "leaf count differs from the shape"};
  const unsigned h = shape.height();
  for (unsigned l = 0; l < h; ++l)
    if (!Hasher::supports_arity(shape.arity_at(l)))
      return {status_code::invalid_argument, "arity not supported by this hash: " + shape.name()};
  basic_merkle_tree t;
  t.shape_ = shape;
  t.levels_.reserve(h + 1);
  t.levels_.push_back(std::move(leaves));
  for (unsigned l = 0; l < h; ++l) {
    const unsigned a = shape.arity_at(l);
    const std::vector<value_t>& in = t.levels_.back();
    std::vector<value_t> out(in.size() / a);
    hash_level_parallel<Hasher>(a, in.data(), out.data(), out.size(), pool);
    t.levels_.push_back(std::move(out));
  }
  return t;
}

template <class Hasher>
merkle_path<typename Hasher::value_t> basic_merkle_tree<Hasher>::path(uint64_t leaf_index) const {
  merkle_path<value_t> p;
  p.leaf_index = leaf_index;
  p.leaf = levels_[0][leaf_index];
  p.root = root();
  uint64_t i = leaf_index;
  for (unsigned l = 0; l < height(); ++l) {
    const unsigned a = shape_.arity_at(l);
    merkle_path_level<value_t> lv;
    lv.arity = a;
    lv.index = unsigned(i % a);
    const uint64_t first = i - lv.index;
    lv.siblings.reserve(a - 1);
    for (unsigned k = 0; k < a; ++k)
      if (k != lv.index) lv.siblings.push_back(levels_[l][first + k]);
    p.levels.push_back(std::move(lv));
    i /= a;
  }
  return p;
}

template <class Hasher>
result<typename Hasher::value_t> merkle_root(const tree_shape& shape,
                                             std::span<const typename Hasher::value_t> leaves,
                                             thread_pool& pool) {
  using value_t = typename Hasher::value_t;
  if (status s = shape.validate(); !s) return s;
  if (leaves.size() != shape.num_leaves)
    return {status_code::size_mismatch, "leaf count differs from the shape"};
  const unsigned h = shape.height();
  for (unsigned l = 0; l < h; ++l)
    if (!Hasher::supports_arity(shape.arity_at(l)))
      return {status_code::invalid_argument, "arity not supported by this hash: " + shape.name()};

  // Chunk = the leaves under one node of level k, the highest level whose subtrees stay within
  // CHUNK_LEAVES; each chunk is reduced in place in a private copy (node i of the next level is
  // written over slot i, which no later parent still needs to read since a·j ≥ i for j ≥ i).
  constexpr uint64_t CHUNK_LEAVES = uint64_t(1) << 14;
  unsigned k = 0;
  uint64_t chunk = 1;
  while (k < h && chunk * shape.arity_at(k) <= CHUNK_LEAVES) chunk *= shape.arity_at(k++);
  const uint64_t n_chunks = shape.num_leaves / chunk;
  std::vector<value_t> level(n_chunks);
  pool.parallel_for(n_chunks, [&](size_t c) {
    std::vector<value_t> buf(leaves.begin() + c * chunk, leaves.begin() + (c + 1) * chunk);
    size_t n = buf.size();
    for (unsigned l = 0; l < k; ++l) {
      const unsigned a = shape.arity_at(l);
      n /= a;
      for (size_t i = 0; i < n; ++i) Hasher::hash_level(a, buf.data() + a * i, buf.data() + i, 1);
    }
    level[c] = buf[0];
  });
  for (unsigned l = k; l < h; ++l) {
    const unsigned a = shape.arity_at(l);
    std::vector<value_t> next(level.size() / a);
    hash_level_parallel<Hasher>(a, level.data(), next.data(), next.size(), pool);
    level = std::move(next);
  }
  return level[0];
}

template class basic_merkle_tree<sha256_hasher>;
template class basic_merkle_tree<poseidon_hasher>;
template bool verify_path<sha256_hasher>(const merkle_path<bytes32_t>&);
template bool verify_path<poseidon_hasher>(const merkle_path<ff::fr_t>&);
template result<bytes32_t> merkle_root<sha256_hasher>(const tree_shape&, std::span<const bytes32_t>,
                                                      thread_pool&);
template result<ff::fr_t> merkle_root<poseidon_hasher>(const tree_shape&, std::span<const ff::fr_t>,
                                                       thread_pool&);

}  // namespace cuzk::filecoin::hash
