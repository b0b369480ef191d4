// SPDX-License-Identifier: Apache-2.0
// Native Merkle trees: the filecoin-hashers binary Poseidon vector, zero-sector comm_d values
// (docs/spec/porep.md §5), the compound layout against an independent top-down recursion, paths
// (verification, index bits, tampering) and root-only builds equal to stored builds.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "base/hex.hpp"
#include "filecoin/hash/merkle.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::hash {
namespace {

using ff::fr_t;

fr_t fr_from_be_hex(const std::string& hex) {
  uint8_t be[32];
  EXPECT_TRUE(from_hex_into(hex, be).ok()) << hex;
  fr_t x;
  EXPECT_TRUE(fr_t::from_bytes_be(be, x));
  return x;
}

bytes32_t bytes_from_hex(const std::string& hex) {
  bytes32_t b;
  EXPECT_TRUE(from_hex_into(hex, b).ok()) << hex;
  return b;
}

// Top-down definition, independent of the level layout: the top-most level splits the leaves into
// `arity` equal slices (sub-trees / base trees), each reduced recursively with the lower levels.
template <class H>
typename H::value_t reference_root(std::span<const typename H::value_t> leaves,
                                   const std::vector<unsigned>& arities, size_t levels) {
  if (levels == 0) return leaves[0];
  const unsigned a = arities[levels - 1];
  const size_t slice = leaves.size() / a;
  std::vector<typename H::value_t> children;
  for (unsigned k = 0; k < a; ++k)
    children.push_back(reference_root<H>(leaves.subspan(k * slice, slice), arities, levels - 1));
  return hash_node<H>(a, children.data());
}

template <class H>
std::vector<unsigned> arities_of(const tree_shape& s) {
  std::vector<unsigned> a;
  for (unsigned l = 0; l < s.height(); ++l) a.push_back(s.arity_at(l));
  return a;
}

std::vector<fr_t> random_fr(test::test_rng& rng, size_t n) {
  std::vector<fr_t> v(n);
  for (auto& x : v) x = fr_t::random(rng);
  return v;
}

TEST(MerkleShape, FilecoinShapes) {
  struct row {
    uint64_t bytes;
    const char* name;
    unsigned height;
  };
  constexpr uint64_t KiB = 1024, MiB = KiB * KiB, GiB = MiB * KiB;
  for (const row& r :
       {row{2 * KiB, "8-0-0", 2}, row{4 * KiB, "8-2-0", 3}, row{16 * KiB, "8-8-0", 3},
        row{32 * KiB, "8-8-2", 4}, row{8 * MiB, "8-0-0", 6}, row{512 * MiB, "8-0-0", 8},
        row{32 * GiB, "8-8-0", 10}, row{64 * GiB, "8-8-2", 11}}) {
    auto s = tree_r_shape(r.bytes);
    ASSERT_TRUE(s.ok());
    EXPECT_TRUE(s->validate().ok());
    EXPECT_EQ(s->name(), r.name);
    EXPECT_EQ(s->height(), r.height) << r.bytes;
    EXPECT_EQ(s->index_bits(), unsigned(std::countr_zero(r.bytes / 32)));
    auto d = tree_d_shape(r.bytes);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->height(), unsigned(std::countr_zero(r.bytes / 32)));
  }
  EXPECT_FALSE(tree_r_shape(3 * KiB).ok());
  EXPECT_FALSE((tree_shape{8, 0, 0, 16}).validate().ok());   // 16 is not a power of 8
  EXPECT_FALSE((tree_shape{8, 0, 2, 128}).validate().ok());  // top without sub
  EXPECT_FALSE((tree_shape{3, 0, 0, 9}).validate().ok());
  EXPECT_FALSE((tree_shape{8, 8, 0, 8}).validate().ok());  // base trees of one leaf
  EXPECT_FALSE(poseidon_tree::build(tree_shape{8, 0, 0, 64}, std::vector<fr_t>(63)).ok());
  EXPECT_FALSE(sha256_tree::build(tree_shape{8, 0, 0, 64}, std::vector<bytes32_t>(64)).ok());
}

// filecoin-hashers poseidon.rs test_poseidon_hasher (docs/spec/poseidon.md §6).
TEST(MerkleTree, FilecoinHashersPoseidonVector) {
  std::vector<fr_t> leaves = {fr_t::one(), fr_t::zero(), fr_t::zero(), fr_t::one()};
  auto t = poseidon_tree::build(tree_shape::binary(4), leaves);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->level(1)[0],
            fr_from_be_hex("042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e"));
  EXPECT_EQ(t->root(),
            fr_from_be_hex("1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671"));
}

// Zero-sector comm_d (docs/spec/porep.md §5): z_0 = 0, z_{k+1} = SHA256-trunc254(z_k ‖ z_k).
TEST(MerkleTree, ZeroSectorCommD) {
  std::vector<bytes32_t> z(32);
  for (size_t k = 1; k < z.size(); ++k) {
    const bytes32_t pair[2] = {z[k - 1], z[k - 1]};
    z[k] = hash_node<sha256_hasher>(2, pair);
  }
  EXPECT_EQ(z[6],
            bytes_from_hex("fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"));
  EXPECT_EQ(z[30],
            bytes_from_hex("077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"));
  EXPECT_EQ(z[31],
            bytes_from_hex("e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02"));
  EXPECT_EQ(z[1][0], 0xf5);
  EXPECT_EQ(z[1][31], 0x0b);

  auto t = sha256_tree::build(*tree_d_shape(2048), std::vector<bytes32_t>(64));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->height(), 6u);
  EXPECT_EQ(t->root(), z[6]);
  for (unsigned l = 0; l <= 6; ++l)
    for (const bytes32_t& v : t->level(l)) ASSERT_EQ(v, z[l]);

  // 2^16 leaves exercise the chunked root-only path (4 chunks) and the parallel level hashing.
  std::vector<bytes32_t> zeros(size_t(1) << 16);
  auto r = merkle_root<sha256_hasher>(tree_shape::binary(zeros.size()), zeros);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, z[16]);
}

TEST(MerkleTree, ShaRandomTreeAgainstReference) {
  auto rng = test::test_rng::from_env("ShaRandomTreeAgainstReference");
  for (uint64_t n : {2u, 8u, 1024u, 1u << 17}) {
    std::vector<bytes32_t> leaves(n);
    for (auto& b : leaves)
      for (auto& x : b) x = uint8_t(rng());  // raw chunks, not necessarily < r: SHA trees take any
    const tree_shape s = tree_shape::binary(n);
    auto t = sha256_tree::build(s, leaves);
    ASSERT_TRUE(t.ok());
    if (n <= 1024) {
      EXPECT_EQ(t->root(),
                reference_root<sha256_hasher>(leaves, arities_of<sha256_hasher>(s), s.height()));
    }
    auto r = merkle_root<sha256_hasher>(s, leaves);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, t->root()) << n;
    for (int k = 0; k < 20; ++k) {
      const uint64_t i = rng.below(n);
      auto p = t->path(i);
      EXPECT_EQ(p.levels.size(), s.height());
      EXPECT_TRUE(verify_path<sha256_hasher>(p));
      auto bad = p;
      bad.leaf[0] ^= 1;
      EXPECT_FALSE(verify_path<sha256_hasher>(bad));
    }
  }
}

// Every compound shape: the level-by-level tree equals (1) the top-down recursion and (2) the
// Filecoin construction spelled out: independent base trees over equal slices, the sub level over
// consecutive groups of sub_arity base roots, the top level over the sub roots.
TEST(MerkleTree, PoseidonCompoundShapes) {
  auto rng = test::test_rng::from_env("PoseidonCompoundShapes");
  const tree_shape shapes[] = {{2, 0, 0, 256}, {4, 0, 0, 256}, {8, 0, 0, 512},  {8, 2, 0, 128},
                               {8, 4, 0, 256}, {8, 8, 0, 512}, {8, 8, 2, 1024}, {8, 4, 2, 512},
                               {4, 2, 2, 64},  {2, 8, 2, 64}};
  for (const tree_shape& s : shapes) {
    SCOPED_TRACE(s.name() + " leaves " + std::to_string(s.num_leaves));
    ASSERT_TRUE(s.validate().ok());
    const auto leaves = random_fr(rng, s.num_leaves);
    auto t = poseidon_tree::build(s, leaves);
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->root(),
              reference_root<poseidon_hasher>(leaves, arities_of<poseidon_hasher>(s), s.height()));
    // explicit construction
    std::vector<fr_t> base_roots;
    const uint64_t bl = s.base_leaves();
    for (uint64_t b = 0; b < s.num_base_trees(); ++b) {
      std::vector<fr_t> slice(leaves.begin() + b * bl, leaves.begin() + (b + 1) * bl);
      auto bt = poseidon_tree::build(tree_shape{s.base_arity, 0, 0, bl}, slice);
      ASSERT_TRUE(bt.ok());
      base_roots.push_back(bt->root());
    }
    std::vector<fr_t> sub_roots = base_roots;
    if (s.sub_arity) {
      sub_roots.clear();
      for (size_t g = 0; g < base_roots.size(); g += s.sub_arity)
        sub_roots.push_back(hash_node<poseidon_hasher>(s.sub_arity, &base_roots[g]));
    }
    fr_t root = sub_roots[0];
    if (s.top_arity) {
      ASSERT_EQ(sub_roots.size(), s.top_arity);
      root = hash_node<poseidon_hasher>(s.top_arity, sub_roots.data());
    } else {
      ASSERT_EQ(sub_roots.size(), 1u);
    }
    EXPECT_EQ(t->root(), root);

    auto r = merkle_root<poseidon_hasher>(s, leaves);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, t->root());

    // paths: every leaf for small trees, index bits = LE expansion of the leaf index
    for (uint64_t i = 0; i < s.num_leaves; i += (s.num_leaves > 256 ? 7 : 1)) {
      auto p = t->path(i);
      ASSERT_EQ(p.levels.size(), s.height());
      ASSERT_TRUE(verify_path<poseidon_hasher>(p)) << i;
      const auto bits = p.index_bits();
      ASSERT_EQ(bits.size(), s.index_bits());
      for (size_t k = 0; k < bits.size(); ++k) ASSERT_EQ(bits[k], bool((i >> k) & 1));
      // the sub-level index selects the base tree within its group, the top index the group
      if (s.sub_arity) {
        EXPECT_EQ(p.levels[s.base_height()].index, (i / bl) % s.sub_arity);
      }
      if (s.top_arity) {
        EXPECT_EQ(p.levels.back().index, i / bl / s.sub_arity);
      }
    }
    auto p = t->path(s.num_leaves - 1);
    auto bad = p;
    bad.levels.back().siblings[0] += fr_t::one();
    EXPECT_FALSE(verify_path<poseidon_hasher>(bad));
    bad = p;
    bad.leaf_index ^= 1;  // index bits no longer spell the claimed index
    EXPECT_FALSE(verify_path<poseidon_hasher>(bad));
    bad = p;
    bad.levels[0].index = (bad.levels[0].index + 1) % bad.levels[0].arity;
    EXPECT_FALSE(verify_path<poseidon_hasher>(bad));
  }
}

TEST(MerkleTree, PoolSizesAgree) {
  auto rng = test::test_rng::from_env("PoolSizesAgree");
  const tree_shape s{8, 8, 0, 8 * 512};  // level 0 has 512 parents: split over the pool
  const auto leaves = random_fr(rng, s.num_leaves);
  thread_pool one(1), two(2);
  auto a = poseidon_tree::build(s, leaves, one);
  auto b = poseidon_tree::build(s, leaves, two);
  ASSERT_TRUE(a.ok() && b.ok());
  for (unsigned l = 0; l <= a->height(); ++l)
    ASSERT_TRUE(std::equal(a->level(l).begin(), a->level(l).end(), b->level(l).begin()));
  auto r = merkle_root<poseidon_hasher>(s, leaves, two);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, a->root());
}

}  // namespace
}  // namespace cuzk::filecoin::hash
