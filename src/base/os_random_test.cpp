// SPDX-License-Identifier: Apache-2.0
#include "base/os_random.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

namespace cuzk {
namespace {

bool all_zero(std::span<const uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

TEST(os_random, empty_span_succeeds) {
  EXPECT_TRUE(fill_os_random({}).ok());
}

TEST(os_random, two_draws_differ) {
  std::array<uint8_t, 64> first{}, second{};
  ASSERT_TRUE(fill_os_random(first).ok());
  ASSERT_TRUE(fill_os_random(second).ok());
  EXPECT_FALSE(all_zero(first));  // each check fails by chance with probability 2^-512
  EXPECT_NE(first, second);
}

// Above 256 bytes getrandom may return short; every 4 KiB block of a 4 MiB fill must be written.
TEST(os_random, large_buffer_is_filled_to_the_end) {
  constexpr size_t block = 4096;
  std::vector<uint8_t> big(size_t(4) << 20, 0);
  ASSERT_TRUE(fill_os_random(big).ok());
  for (size_t off = 0; off < big.size(); off += block)
    ASSERT_FALSE(all_zero(std::span<const uint8_t>(big).subspan(off, block))) << "offset " << off;
}

}  // namespace
}  // namespace cuzk
