// SPDX-License-Identifier: Apache-2.0
// variable packing, linear_combination storage (inline -> heap, copy, move, operators) and
// merge_terms (bellpepper's Indexer semantics: sum per variable, order irrelevant, zeros dropped).
#include "r1cs/linear_combination.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test_rng.hpp"

namespace cuzk::r1cs {
namespace {

using ff::fr_t;

fr_t u(uint64_t v) {
  return fr_t::from_uint(v);
}

TEST(variable, packing_and_order) {
  EXPECT_EQ(variable(), variable::one());
  EXPECT_TRUE(variable::one().is_input());
  EXPECT_EQ(variable::aux(7).index(), 7u);
  EXPECT_TRUE(variable::aux(7).is_aux());
  EXPECT_EQ(variable::input(variable::MAX_INDEX).index(), variable::MAX_INDEX);
  EXPECT_LT(variable::input(1000), variable::aux(0));
  EXPECT_LT(variable::aux(3), variable::aux(4));
  EXPECT_NE(variable::input(3), variable::aux(3));
}

TEST(linear_combination, inline_then_heap_copy_move) {
  linear_combination lc;
  for (uint32_t i = 0; i < 20; ++i) {
    lc += u(i + 1) * variable::aux(i);
    EXPECT_EQ(lc.size(), i + 1);
    EXPECT_EQ(lc.capacity() > linear_combination::INLINE_TERMS, i >= 4);
  }
  linear_combination copy = lc;
  ASSERT_EQ(copy.size(), 20u);
  for (uint32_t i = 0; i < 20; ++i) {
    EXPECT_EQ(copy[i].var, variable::aux(i));
    EXPECT_EQ(copy[i].coeff, u(i + 1));
  }
  const lc_term* heap = lc.data();
  linear_combination moved = std::move(lc);
  EXPECT_EQ(moved.data(), heap);  // heap buffer stolen, not copied
  EXPECT_EQ(moved.size(), 20u);
  moved.clear();
  EXPECT_TRUE(moved.empty());
  EXPECT_GE(moved.capacity(), 20u);  // storage kept for reuse

  linear_combination small(variable::aux(1));
  linear_combination small_moved = std::move(small);
  ASSERT_EQ(small_moved.size(), 1u);
  EXPECT_EQ(small_moved[0].coeff, fr_t::one());
  copy = small_moved;
  EXPECT_EQ(copy.size(), 1u);
}

TEST(linear_combination, operators) {
  const variable x = variable::aux(0), y = variable::aux(1), one = variable::one();
  linear_combination lc = linear_combination(x) + y - x + u(5) * one - u(2) * y;
  std::vector<lc_term> m;
  merge_terms(lc.terms(), m);
  // x - x cancels; y - 2y = -y; 5·ONE
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].var, one);
  EXPECT_EQ(m[0].coeff, u(5));
  EXPECT_EQ(m[1].var, y);
  EXPECT_EQ(m[1].coeff, -fr_t::one());

  linear_combination other = linear_combination(x) + u(3) * y;
  linear_combination sum = lc;
  sum.add(u(2), other);  // + 2x + 6y
  sum *= u(10);
  merge_terms(sum.terms(), m);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].coeff, u(50));
  EXPECT_EQ(m[1].var, x);
  EXPECT_EQ(m[1].coeff, u(20));
  EXPECT_EQ(m[2].coeff, u(50));

  linear_combination self = other;
  self += self;  // 2x + 6y
  merge_terms(self.terms(), m);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].coeff, u(2));
  EXPECT_EQ(m[1].coeff, u(6));
  // Through a reference: the self-subtraction is the point, and clang's -Wself-assign-overloaded
  // (an error in the clang sanitizer build) would refuse `self -= self`.
  const linear_combination& same = self;
  self -= same;
  merge_terms(self.terms(), m);
  EXPECT_TRUE(m.empty());
}

// merge_terms against a brute-force per-variable sum, on random term lists with many repeats.
TEST(linear_combination, merge_terms_random) {
  auto rng = test::test_rng::from_env("merge_terms_random");
  std::vector<lc_term> merged;
  for (int iter = 0; iter < 300; ++iter) {
    const size_t n = rng.below(40);
    linear_combination lc;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t idx = uint32_t(rng.below(6));
      const variable v = rng.below(2) ? variable::aux(idx) : variable::input(idx);
      lc += (rng.below(4) == 0 ? -u(rng.below(3)) : u(rng.below(3))) * v;
    }
    merge_terms(lc.terms(), merged);
    std::vector<lc_term> expect;
    for (uint32_t kind = 0; kind < 2; ++kind) {
      for (uint32_t idx = 0; idx < 6; ++idx) {
        const variable v = kind ? variable::aux(idx) : variable::input(idx);
        fr_t s = fr_t::zero();
        for (const lc_term& t : lc)
          if (t.var == v) s += t.coeff;
        if (!s.is_zero()) expect.push_back({s, v});
      }
    }
    ASSERT_EQ(merged.size(), expect.size());
    for (size_t i = 0; i < merged.size(); ++i) {
      EXPECT_EQ(merged[i].var, expect[i].var);
      EXPECT_EQ(merged[i].coeff, expect[i].coeff);
    }
    EXPECT_EQ(has_duplicate_variables(lc.terms()), [&] {
      for (size_t i = 0; i < lc.size(); ++i)
        for (size_t j = i + 1; j < lc.size(); ++j)
          if (lc[i].var == lc[j].var) return true;
      return false;
    }());
  }
}

}  // namespace
}  // namespace cuzk::r1cs
