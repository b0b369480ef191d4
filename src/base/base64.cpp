// SPDX-License-Identifier: Apache-2.0
// Base64 codec (RFC 4648 §4). Decoding maps each character through a 256-entry table (0xff =
// not in the alphabet) and ORs the four 6-bit values of a group, so one test per group finds any
// bad character; the error path then rescans the group to name it.
#include "base/base64.hpp"

#include <array>

#include "base/hex.hpp"

namespace cuzk {
namespace {

constexpr char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<uint8_t, 256> make_decode_table() {
  std::array<uint8_t, 256> t{};
  for (auto& v : t) v = 0xff;
  for (int i = 0; i < 64; ++i) t[uint8_t(ALPHABET[i])] = uint8_t(i);
  return t;
}
constexpr std::array<uint8_t, 256> DECODE = make_decode_table();

status bad_char(std::string_view text, size_t group) {
  for (size_t i = group; i < group + 4 && i < text.size(); ++i)
    if (DECODE[uint8_t(text[i])] == 0xff) {
      const char c = text[i];
      const uint8_t byte = uint8_t(c);
      std::string shown = (c >= 0x21 && c <= 0x7e) ? std::string(1, c) : "\\x" + to_hex({&byte, 1});
      return {status_code::bad_encoding,
              "base64: invalid character '" + shown + "' at offset " + std::to_string(i)};
    }
  return {status_code::bad_encoding, "base64: invalid group at offset " + std::to_string(group)};
}

template <class Out>
status decode_impl(std::string_view text, Out& out) {
  const size_t n = text.size();
  if (n % 4 != 0)
    return {status_code::bad_encoding,
            "base64: length " + std::to_string(n) + " is not a multiple of 4"};
  if (n == 0) return {};
  size_t pad = 0;
  if (text[n - 1] == '=') pad = text[n - 2] == '=' ? 2 : 1;
  const size_t base = out.size();
  out.resize(base + n / 4 * 3 - pad);
  uint8_t* dst = reinterpret_cast<uint8_t*>(out.data()) + base;
  const auto* src = reinterpret_cast<const uint8_t*>(text.data());
  const size_t full = pad ? n - 4 : n;  // groups without padding
  for (size_t i = 0; i < full; i += 4) {
    const uint32_t a = DECODE[src[i]], b = DECODE[src[i + 1]], c = DECODE[src[i + 2]],
                   d = DECODE[src[i + 3]];
    if ((a | b | c | d) & 0x80) return bad_char(text, i);
    const uint32_t v = a << 18 | b << 12 | c << 6 | d;
    dst[0] = uint8_t(v >> 16);
    dst[1] = uint8_t(v >> 8);
    dst[2] = uint8_t(v);
    dst += 3;
  }
  if (pad) {
    const size_t i = n - 4;
    const uint32_t a = DECODE[src[i]], b = DECODE[src[i + 1]];
    const uint32_t c = pad == 1 ? DECODE[src[i + 2]] : 0;
    if ((a | b | c) & 0x80) return bad_char(text.substr(0, n - pad), i);
    const uint32_t v = a << 18 | b << 12 | c << 6;
    // Canonical form: the bits below the last encoded byte are zero.
    if ((pad == 2 && (v & 0xffff)) || (pad == 1 && (v & 0xff)))
      return {status_code::bad_encoding,
              "base64: non-zero trailing bits at offset " + std::to_string(n - 1 - pad)};
    dst[0] = uint8_t(v >> 16);
    if (pad == 1) dst[1] = uint8_t(v >> 8);
  }
  return {};
}

}  // namespace

std::string base64_encode(std::span<const uint8_t> data) {
  std::string out;
  out.resize((data.size() + 2) / 3 * 4);
  char* dst = out.data();
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const uint32_t v = uint32_t(data[i]) << 16 | uint32_t(data[i + 1]) << 8 | data[i + 2];
    dst[0] = ALPHABET[v >> 18];
    dst[1] = ALPHABET[(v >> 12) & 63];
    dst[2] = ALPHABET[(v >> 6) & 63];
    dst[3] = ALPHABET[v & 63];
    dst += 4;
  }
  const size_t rest = data.size() - i;
  if (rest) {
    const uint32_t v = uint32_t(data[i]) << 16 | (rest == 2 ? uint32_t(data[i + 1]) << 8 : 0);
    dst[0] = ALPHABET[v >> 18];
    dst[1] = ALPHABET[(v >> 12) & 63];
    dst[2] = rest == 2 ? ALPHABET[(v >> 6) & 63] : '=';
    dst[3] = '=';
  }
  return out;
}

result<std::vector<uint8_t>> base64_decode(std::string_view text) {
  std::vector<uint8_t> out;
  status s = decode_impl(text, out);
  if (!s.ok()) return s;
  return out;
}

status base64_decode_into(std::string_view text, std::string& out) {
  return decode_impl(text, out);
}

}  // namespace cuzk
