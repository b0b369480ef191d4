// SPDX-License-Identifier: Apache-2.0
#include "base/hex.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace cuzk {
namespace {

TEST(hex, encodes_lower_case_in_order) {
  const std::vector<uint8_t> bytes = {0x00, 0x01, 0x7f, 0x80, 0xab, 0xff};
  EXPECT_EQ(to_hex(bytes), "00017f80abff");
  EXPECT_EQ(to_hex({}), "");
}

TEST(hex, round_trips_every_byte_value) {
  std::vector<uint8_t> all(256);
  for (size_t i = 0; i < all.size(); ++i) all[i] = uint8_t(i);
  auto back = from_hex(to_hex(all));
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(*back, all);
}

TEST(hex, decodes_either_case) {
  auto b = from_hex("DeadBEEF");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, (std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef}));
  auto empty = from_hex("");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(hex, rejects_odd_length) {
  EXPECT_EQ(from_hex("abc").error().code(), status_code::bad_length);
}

TEST(hex, rejects_non_digits_with_offset) {
  for (const char* text : {"0g", "g0", "0x12", " 012", "01 2", "+1", "12\n3"}) {
    auto r = from_hex(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().code(), status_code::ok) << text;
  }
  auto r = from_hex("00zz");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::bad_encoding);
  EXPECT_NE(r.error().message().find("offset 2"), std::string::npos) << r.error().message();
  auto nul = from_hex(std::string_view("0\0", 2));
  ASSERT_FALSE(nul.ok());
  EXPECT_NE(nul.error().message().find("\\x00"), std::string::npos) << nul.error().message();
}

TEST(hex, into_fixed_size_checks_the_length) {
  std::array<uint8_t, 2> out{};
  ASSERT_TRUE(from_hex_into("a1B2", out).ok());
  EXPECT_EQ(out, (std::array<uint8_t, 2>{0xa1, 0xb2}));
  EXPECT_EQ(from_hex_into("a1b2c3", out).code(), status_code::bad_length);
  EXPECT_EQ(from_hex_into("a1", out).code(), status_code::bad_length);
  EXPECT_EQ(from_hex_into("a1xx", out).code(), status_code::bad_encoding);
}

TEST(hex, strips_only_a_leading_prefix) {
  EXPECT_EQ(strip_hex_prefix("0xab"), "ab");
  EXPECT_EQ(strip_hex_prefix("0Xab"), "ab");
  EXPECT_EQ(strip_hex_prefix("ab"), "ab");
  EXPECT_EQ(strip_hex_prefix("0x"), "");
  EXPECT_EQ(strip_hex_prefix("x0ab"), "x0ab");
}

}  // namespace
}  // namespace cuzk
