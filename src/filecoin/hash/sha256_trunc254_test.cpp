// SPDX-License-Identifier: Apache-2.0
// SHA256-trunc254 (node form included) against its definition over OpenSSL's SHA-256, and the
// all-zero tree_d nodes of docs/spec/porep.md §5.
#include "filecoin/hash/sha256_trunc254.hpp"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <string>

#include "base/hex.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::hash {
namespace {

cuzk::hash::sha256_digest_t openssl_sha256(std::span<const uint8_t> d) {
  cuzk::hash::sha256_digest_t out;
  SHA256(d.data(), d.size(), out.data());
  return out;
}

TEST(sha256, trunc254) {
  auto rng = test::test_rng::from_env("sha256.trunc254");
  for (int i = 0; i < 100; ++i) {
    uint8_t lr[64];
    for (auto& b : lr) b = uint8_t(rng());
    cuzk::hash::sha256_digest_t want = openssl_sha256(lr);
    want[31] &= 0x3f;
    EXPECT_EQ(to_hex(sha256_trunc254(lr)), to_hex(want));
    EXPECT_EQ(to_hex(sha256_trunc254_node(lr, lr + 32)), to_hex(want));
  }
  // docs/spec/porep.md §5: the level-1 node of the all-zero tree_d starts f5a5fd42 and ends fb0b.
  const uint8_t zero[32] = {};
  const std::string z1 = to_hex(sha256_trunc254_node(zero, zero));
  EXPECT_EQ(z1.substr(0, 8), "f5a5fd42");
  EXPECT_EQ(z1.substr(60), "fb0b");
  // 2 KiB sector (level 6) comm_d.
  cuzk::hash::sha256_digest_t node{};
  for (int level = 0; level < 6; ++level) node = sha256_trunc254_node(node.data(), node.data());
  EXPECT_EQ(to_hex(node), "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
}

}  // namespace
}  // namespace cuzk::filecoin::hash
