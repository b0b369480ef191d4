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
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/hex.hpp"
#include "cli_args.hpp"
#include "ff/fields.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256_trunc254.hpp"

namespace cuzk::app {
namespace {

using ff::fr_t;

int fail(const std::string& msg) {
  spdlog::error("cuzk hash: {}", msg);
  return EXIT_BAD;
}

// A 256-bit unsigned integer from decimal or 0x-hex; nullopt when malformed or ≥ 2^256.
std::optional<ff::limbs<4>> parse_u256(const std::string& s) {
  ff::limbs<4> x{};
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (size_t i = 2; i < s.size(); ++i) {
      const int d = hex_digit_value(s[i]);
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

/// A decimal u64 inside a --tag value, or nullopt.
std::optional<uint64_t> tag_number(const std::string& s) {
  uint64_t v = 0;
  if (!parse_u64(s, v)) return std::nullopt;
  return v;
}

std::string fr_to_hex_be(const fr_t& f) {
  uint8_t be[32];
  f.to_bytes_be(be);
  return "0x" + to_hex(be);
}

struct poseidon_args {
  uint64_t arity = 0;
  std::string tag_spec = "merkle";
  std::vector<std::string> values;
};

int run_poseidon(const poseidon_args& args) {
  const uint64_t arity = args.arity;
  const std::string& tag_spec = args.tag_spec;
  const std::vector<std::string>& values = args.values;
  if (!filecoin::hash::poseidon_arity_supported(arity))
    return fail("unsupported arity " + std::to_string(arity) + " (2, 4, 8, 11, 16, 24, 36)");

  fr_t tag;
  size_t expected = arity;
  if (tag_spec == "merkle") {
    tag = filecoin::hash::poseidon_merkle_tag(arity);
  } else if (tag_spec.rfind("constant-length:", 0) == 0) {
    const auto n = tag_number(tag_spec.substr(std::strlen("constant-length:")));
    if (!n || *n == 0 || *n > arity) return fail("constant-length:N needs 1 <= N <= arity");
    tag = filecoin::hash::poseidon_constant_length_tag(*n);
    expected = *n;
  } else if (tag_spec.rfind("custom:", 0) == 0) {
    const auto id = tag_number(tag_spec.substr(std::strlen("custom:")));
    if (!id || *id == 0 || *id > 256) return fail("custom:N needs 1 <= N <= 256");
    tag = filecoin::hash::poseidon_custom_tag(*id);
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
  const fr_t h =
      filecoin::hash::poseidon_hash(preimage, tag, filecoin::hash::poseidon_constants(arity));
  std::printf("%s\n", fr_to_hex_be(h).c_str());
  return EXIT_OK;
}

int run_sha256_trunc254(std::string s) {
  auto data = from_hex(strip_hex_prefix(s));
  if (!data) return fail("HEXDATA: " + data.error().message());
  std::printf("%s\n", to_hex(filecoin::hash::sha256_trunc254(*data)).c_str());
  return EXIT_OK;
}

}  // namespace

void add_hash_commands(CLI::App& root, command_runner& chosen) {
  auto* hash = root.add_subcommand("hash", "Poseidon and SHA256-trunc254 of given inputs");
  hash->require_subcommand(1);

  auto args = std::make_shared<poseidon_args>();
  auto* poseidon = hash->add_subcommand(
      "poseidon", "Poseidon (neptune) of field elements given as decimal or 0x-hex");
  poseidon->add_option("--arity", args->arity, "2, 4, 8, 11, 16, 24 or 36")
      ->required()
      ->transform(decimal_u64());
  poseidon
      ->add_option("--tag", args->tag_spec,
                   "merkle | constant-length:N (1 <= N <= arity; the rest of the state is zero) "
                   "| custom:N (1 <= N <= 256)")
      ->capture_default_str();
  poseidon->add_option("values", args->values,
                       "X1 .. XA: field elements below r, decimal or 0x-hex (big-endian); "
                       "N of them for constant-length:N");
  on_selected(poseidon, chosen, [args] { return run_poseidon(*args); });

  auto data = std::make_shared<std::string>();
  auto* sha = hash->add_subcommand("sha256-trunc254",
                                   "SHA-256 of the bytes, byte 31 &= 0x3f, as 32 bytes of hex");
  sha->add_option("HEXDATA", *data, "the bytes as hex digits (optional 0x)")->required();
  on_selected(sha, chosen, [data] { return run_sha256_trunc254(*data); });
}

}  // namespace cuzk::app
