// SPDX-License-Identifier: Apache-2.0
#include "base/hex.hpp"

namespace cuzk {

namespace {

constexpr char DIGITS[] = "0123456789abcdef";

status bad_digit(std::string_view text, size_t offset) {
  const char c = text[offset];
  const std::string shown =
      (c >= 0x21 && c <= 0x7e)
          ? std::string(1, c)
          : std::string("\\x") + DIGITS[uint8_t(c) >> 4] + DIGITS[uint8_t(c) & 15];
  return {status_code::bad_encoding,
          "hex: invalid character '" + shown + "' at offset " + std::to_string(offset)};
}

}  // namespace

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string to_hex(std::span<const uint8_t> bytes) {
  std::string s;
  s.reserve(2 * bytes.size());
  for (uint8_t b : bytes) {
    s.push_back(DIGITS[b >> 4]);
    s.push_back(DIGITS[b & 15]);
  }
  return s;
}

status from_hex_into(std::string_view text, std::span<uint8_t> out) {
  if (text.size() != 2 * out.size())
    return {status_code::bad_length, "hex: " + std::to_string(text.size()) + " digits, expected " +
                                         std::to_string(2 * out.size())};
  for (size_t i = 0; i < out.size(); ++i) {
    const int hi = hex_digit_value(text[2 * i]);
    if (hi < 0) return bad_digit(text, 2 * i);
    const int lo = hex_digit_value(text[2 * i + 1]);
    if (lo < 0) return bad_digit(text, 2 * i + 1);
    out[i] = uint8_t(hi << 4 | lo);
  }
  return {};
}

result<std::vector<uint8_t>> from_hex(std::string_view text) {
  if (text.size() % 2 != 0)
    return status(status_code::bad_length,
                  "hex: odd number of digits (" + std::to_string(text.size()) + ")");
  std::vector<uint8_t> out(text.size() / 2);
  if (status s = from_hex_into(text, out); !s) return s;
  return out;
}

std::string_view strip_hex_prefix(std::string_view text) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    return text.substr(2);
  return text;
}

result<std::array<uint8_t, 32>> parse_hex32(std::string_view text) {
  std::array<uint8_t, 32> out{};
  if (status s = from_hex_into(strip_hex_prefix(text), out); !s) return s;
  return out;
}

}  // namespace cuzk
