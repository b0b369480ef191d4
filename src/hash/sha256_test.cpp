// SPDX-License-Identifier: Apache-2.0
// SHA-256 against the FIPS 180-4 / NIST CAVS example vectors ("abc", empty, the 448-bit message,
// one million 'a'), against OpenSSL (an independent implementation) on random inputs of every
// length around the padding boundaries and split at random points, SHA-NI against the portable
// path.
#include "hash/sha256.hpp"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <string>
#include <vector>

#include "base/hex.hpp"
#include "test_rng.hpp"

namespace cuzk::hash {
namespace {

std::span<const uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

sha256_digest_t openssl_sha256(std::span<const uint8_t> d) {
  sha256_digest_t out;
  SHA256(d.data(), d.size(), out.data());
  return out;
}

TEST(sha256, fips_vectors) {
  EXPECT_EQ(to_hex(sha256_digest(bytes_of("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256_digest({})),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(
      to_hex(sha256_digest(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a', fed in uneven pieces through the streaming interface.
  sha256_t h;
  const std::string chunk(997, 'a');
  size_t left = 1000000;
  while (left > 0) {
    const size_t n = std::min(left, chunk.size());
    h.update(chunk.data(), n);
    left -= n;
  }
  EXPECT_EQ(to_hex(h.finalize()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(sha256, matches_openssl_random) {
  auto rng = test::test_rng::from_env("sha256.matches_openssl_random");
  for (size_t len = 0; len < 300; ++len) {
    std::vector<uint8_t> d(len);
    for (auto& b : d) b = uint8_t(rng());
    ASSERT_EQ(to_hex(sha256_digest(d)), to_hex(openssl_sha256(d))) << "len " << len;
    // Streaming with a random split point.
    const size_t cut = len ? rng.below(len + 1) : 0;
    sha256_t h;
    h.update(std::span<const uint8_t>(d).first(cut));
    h.update(std::span<const uint8_t>(d).subspan(cut));
    ASSERT_EQ(to_hex(h.finalize()), to_hex(openssl_sha256(d))) << "len " << len;
  }
  for (int i = 0; i < 20; ++i) {
    std::vector<uint8_t> d(rng.below(20000));
    for (auto& b : d) b = uint8_t(rng());
    ASSERT_EQ(to_hex(sha256_digest(d)), to_hex(openssl_sha256(d)));
  }
}

TEST(sha256, shani_matches_portable) {
  std::printf("SHA-NI in use: %s\n", sha256_uses_shani() ? "yes" : "no");
  auto rng = test::test_rng::from_env("sha256.shani_matches_portable");
  for (int i = 0; i < 200; ++i) {
    uint32_t s1[8], s2[8];
    for (int j = 0; j < 8; ++j) s1[j] = s2[j] = uint32_t(rng());
    const size_t nb = 1 + rng.below(5);
    std::vector<uint8_t> blocks(64 * nb);
    for (auto& b : blocks) b = uint8_t(rng());
    sha256_compress(s1, blocks.data(), nb);
    sha256_compress_portable(s2, blocks.data(), nb);
    for (int j = 0; j < 8; ++j) ASSERT_EQ(s1[j], s2[j]);
  }
}

}  // namespace
}  // namespace cuzk::hash
