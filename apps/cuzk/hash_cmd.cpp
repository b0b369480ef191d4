// SPDX-License-Identifier: Apache-2.0
// `cuzk hash …`: the native Filecoin hashes from the command line.
//   poseidon --arity A [--tag merkle|constant-length:N|custom:N] X1 … Xk
//       field elements as decimal or 0x-hex (big-endian integers, < r); k = A, or k = N for
//       constant-length:N (1 ≤ N ≤ A, the rest of the state is zero, as neptune pads it);
//       prints the hash as 0x + 64 hex digits (big-endian integer).
//   sha256-trunc254 HEXDATA
//       prints SHA-256(data) with byte 31 &= 0x3f, as 64 hex digits (the 32 digest bytes in order,
//       i.e. the LE repr of the field element).
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/hex.hpp"
#include "ff/fields.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256_trunc254.hpp"

namespace cuzk::app {
namespace {

using ff::fr_t;

constexpr int EXIT_OK = 0, EXIT_BAD = 2;

const char* const USAGE =
    "usage: cuzk hash <command>\n"
    "  poseidon --arity A [--tag merkle|constant-length:N|custom:N] X1 .. XA\n"
    "                  Poseidon (neptune) of field elements given as decimal or 0x-hex\n"
    "  sha256-trunc254 HEXDATA\n"
    "                  SHA-256 of the bytes, byte 31 &= 0x3f, as 32 bytes of hex\n";

int fail(const std::string& msg) {
  std::fprintf(stderr, "cuzk hash: %s\n", msg.c_str());
  return EXIT_BAD;
}

int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

// A 256-bit unsigned integer from decimal or 0x-hex; nullopt when malformed or ≥ 2^256.
std::optional<ff::limbs<4>> parse_u256(const std::string& s) {
  ff::limbs<4> x{};
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (size_t i = 2; i < s.size(); ++i) {
      const int d = hex_digit(s[i]);
      if (d < 0) return std::nullopt;
      if (x[3] >> 60) return std::nullopt;  // a fourth nibble would overflow 256 bits
      for (int k = 3; k > 0; --k) x[k] = (x[k] << 4) | (x[k - 1] >> 60);
      x[0] = (x[0] << 4) | uint64_t(d);
    }
    return x;
  }
  if (s.empty()) return std::nullopt;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    // x = 10·x + d, detecting a carry out of the top limb
    unsigned __int128 carry = unsigned(ch - '0');
    for (int k = 0; k < 4; ++k) {
      const unsigned __int128 v = (unsigned __int128)x[k] * 10 + carry;
      x[k] = uint64_t(v);
      carry = v >> 64;
    }
    if (carry) return std::nullopt;
  }
  return x;
}

std::optional<uint64_t> parse_u64(const std::string& s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  uint64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + uint64_t(ch - '0');
  }
  return v;
}

std::string fr_to_hex_be(const fr_t& f) {
  uint8_t be[32];
  f.to_bytes_be(be);
  return "0x" + to_hex(be);
}

int cmd_poseidon(int argc, char** argv) {
  std::optional<uint64_t> arity;
  std::string tag_spec = "merkle";
  std::vector<std::string> values;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    auto value_of = [&](const char* name) -> std::optional<std::string> {
      const std::string eq = std::string(name) + "=";
      if (a.rfind(eq, 0) == 0) return a.substr(eq.size());
      if (a == name && i + 1 < argc) return std::string(argv[++i]);
      return std::nullopt;
    };
    if (a.rfind("--arity", 0) == 0) {
      const auto v = value_of("--arity");
      if (!v || !(arity = parse_u64(*v))) return fail("--arity needs a number");
    } else if (a.rfind("--tag", 0) == 0) {
      const auto v = value_of("--tag");
      if (!v) return fail("--tag needs a value");
      tag_spec = *v;
    } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
      return fail("unknown option '" + a + "'");
    } else {
      values.push_back(a);
    }
  }
  if (!arity) return fail("--arity is required");
  if (!hash::poseidon_arity_supported(*arity))
    return fail("unsupported arity " + std::to_string(*arity) + " (2, 4, 8, 11, 16, 24, 36)");

  fr_t tag;
  size_t expected = *arity;
  if (tag_spec == "merkle") {
    tag = hash::poseidon_merkle_tag(*arity);
  } else if (tag_spec.rfind("constant-length:", 0) == 0) {
    const auto n = parse_u64(tag_spec.substr(std::strlen("constant-length:")));
    if (!n || *n == 0 || *n > *arity) return fail("constant-length:N needs 1 <= N <= arity");
    tag = hash::poseidon_constant_length_tag(*n);
    expected = *n;
  } else if (tag_spec.rfind("custom:", 0) == 0) {
    const auto id = parse_u64(tag_spec.substr(std::strlen("custom:")));
    if (!id || *id == 0 || *id > 256) return fail("custom:N needs 1 <= N <= 256");
    tag = hash::poseidon_custom_tag(*id);
  } else {
    return fail("unknown tag '" + tag_spec + "' (merkle, constant-length:N, custom:N)");
  }
  if (values.size() != expected)
    return fail("expected " + std::to_string(expected) + " field elements, got " +
                std::to_string(values.size()));

  std::vector<fr_t> preimage;
  for (const std::string& s : values) {
    const auto x = parse_u256(s);
    if (!x) return fail("'" + s + "' is not a decimal or 0x-hex integer below 2^256");
    fr_t f;
    if (!fr_t::from_canonical_checked(*x, f)) return fail("'" + s + "' is not below r");
    preimage.push_back(f);
  }
  const fr_t h = hash::poseidon_hash(preimage, tag, hash::poseidon_constants(*arity));
  std::printf("%s\n", fr_to_hex_be(h).c_str());
  return EXIT_OK;
}

int cmd_sha256_trunc254(int argc, char** argv) {
  if (argc != 1) return fail("sha256-trunc254 takes one HEXDATA argument");
  auto data = from_hex(strip_hex_prefix(argv[0]));
  if (!data) return fail("HEXDATA: " + data.error().message());
  std::printf("%s\n", to_hex(sha256_trunc254(*data)).c_str());
  return EXIT_OK;
}

}  // namespace

int cmd_hash(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(USAGE, stderr);
    return EXIT_BAD;
  }
  const std::string sub = argv[1];
  if (sub == "poseidon") return cmd_poseidon(argc - 2, argv + 2);
  if (sub == "sha256-trunc254") return cmd_sha256_trunc254(argc - 2, argv + 2);
  if (sub == "help" || sub == "--help" || sub == "-h") {
    std::fputs(USAGE, stdout);
    return EXIT_OK;
  }
  return fail("unknown command '" + sub + "' (poseidon, sha256-trunc254)");
}

}  // namespace cuzk::app
