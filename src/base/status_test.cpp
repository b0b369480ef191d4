// SPDX-License-Identifier: Apache-2.0
#include "cuzk/status.hpp"

#include <gtest/gtest.h>

namespace cuzk {
namespace {

TEST(status, ok_and_error) {
  status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.to_string(), "ok");
  status e(status_code::not_on_curve, "G1");
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.to_string(), "not_on_curve: G1");
}

TEST(result, value_or_error) {
  result<int> r = 5;
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 5);
  result<int> e(status_code::bad_length, "want 48 bytes");
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.error().code(), status_code::bad_length);
}

}  // namespace
}  // namespace cuzk
