// SPDX-License-Identifier: Apache-2.0
// advise_huge_pages / reserve_huge: the advice covers only whole 2 MiB pages inside the range,
// and reserve_huge is a reserve (capacity, contents) whatever the advice does.
#include "base/huge_pages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

namespace cuzk {
namespace {

TEST(HugePages, SmallOrNullRangesAreLeftAlone) {
  std::vector<uint8_t> small(4096);
  EXPECT_FALSE(advise_huge_pages(small.data(), small.size()));
  EXPECT_FALSE(advise_huge_pages(nullptr, size_t(1) << 30));
  EXPECT_FALSE(advise_huge_pages(small.data(), 0));
}

TEST(HugePages, ReserveKeepsContentsAndCapacity) {
  std::vector<uint64_t> v(1000);
  std::iota(v.begin(), v.end(), uint64_t(7));
  reserve_huge(v, size_t(3) << 20);  // 24 MiB: at least 11 whole huge pages inside
  ASSERT_GE(v.capacity(), size_t(3) << 20);
  ASSERT_EQ(v.size(), 1000u);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], 7 + i);
  v.resize(v.capacity(), 1);  // touch every page
  EXPECT_EQ(v.back(), 1u);
  const size_t cap = v.capacity();
  reserve_huge(v, 10);  // never shrinks
  EXPECT_EQ(v.capacity(), cap);
}

}  // namespace
}  // namespace cuzk
