// SPDX-License-Identifier: Apache-2.0
// BLAKE2s against RFC 7693: the Appendix B "abc" vector, the empty string, the Appendix E
// self-test (a BLAKE2s-256 of 48 keyed and unkeyed digests of several lengths), and vectors from
// Python's hashlib.blake2s (an independent implementation) across block boundaries.
#include "hash/blake2s.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/hex.hpp"

namespace cuzk::hash {
namespace {

std::string hex_of(blake2s& h) {
  uint8_t out[32];
  h.finalize(out);
  return to_hex({out, h.digest_bytes()});
}

std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i % 251);
  return v;
}

TEST(blake2s, rfc7693_vectors) {
  const uint8_t abc[] = {'a', 'b', 'c'};
  EXPECT_EQ(to_hex(blake2s::hash256(abc)),
            "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982");
  EXPECT_EQ(to_hex(blake2s::hash256({})),
            "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9");
}

// RFC 7693 Appendix E: inputs from a Fibonacci-like generator, digest lengths 16/20/28/32, input
// lengths 0..1024, each hashed unkeyed and keyed; the digests are hashed together.
void selftest_seq(uint8_t* out, size_t len, uint32_t seed) {
  uint32_t a = 0xDEAD4BAD * seed, b = 1;
  for (size_t i = 0; i < len; ++i) {
    const uint32_t t = a + b;
    a = b;
    b = t;
    out[i] = uint8_t(t >> 24);
  }
}

TEST(blake2s, rfc7693_selftest) {
  const size_t md_len[] = {16, 20, 28, 32};
  const size_t in_len[] = {0, 3, 64, 65, 255, 1024};
  uint8_t in[1024], md[32], key[32];
  blake2s grand(32);
  for (size_t outlen : md_len) {
    for (size_t inlen : in_len) {
      selftest_seq(in, inlen, uint32_t(inlen));
      blake2s h(outlen);
      h.update(in, inlen);
      h.finalize(md);
      grand.update(md, outlen);
      selftest_seq(key, outlen, uint32_t(outlen));
      blake2s hk(outlen, {key, outlen});
      hk.update(in, inlen);
      hk.finalize(md);
      grand.update(md, outlen);
    }
  }
  EXPECT_EQ(hex_of(grand), "6a411f08ce25adcdfb02aba641451cec53c598b24f4fc787fbdc88797f4c1dfe");
}

// Expected values: hashlib.blake2s(bytes(i % 251 for i in range(n)), ...) in Python 3.
TEST(blake2s, hashlib_vectors) {
  const std::pair<size_t, const char*> unkeyed[] = {
      {1, "e34d74dbaf4ff4c6abd871cc220451d2ea2648846c7757fbaac82fe51ad64bea"},
      {63, "e57cb79487dd57902432b250733813bd96a84efce59f650fac26e6696aefafc3"},
      {64, "56f34e8b96557e90c1f24b52d0c89d51086acf1b00f634cf1dde9233b8eaaa3e"},
      {65, "1b53ee94aaf34e4b159d48de352c7f0661d0a40edff95a0b1639b4090e974472"},
      {127, "f18417b39d617ab1c18fdf91ebd0fc6d5516bb34cf39364037bce81fa04cecb1"},
      {128, "1fa877de67259d19863a2a34bcc6962a2b25fcbf5cbecd7ede8f1fa36688a796"},
      {129, "5bd169e67c82c2c2e98ef7008bdf261f2ddf30b1c00f9e7f275bb3e8a28dc9a2"},
      {1000, "1c067a5e746fb0f6734efac9a8cdb0e11061f0077f255184365c690115392501"},
  };
  for (auto [n, want] : unkeyed) {
    const auto data = pattern(n);
    EXPECT_EQ(to_hex(blake2s::hash256(data)), want) << "n=" << n;
    // The same bytes fed in uneven pieces must give the same digest.
    for (size_t step : {1, 7, 64, 65}) {
      blake2s h;
      for (size_t off = 0; off < n; off += step)
        h.update(data.data() + off, std::min(step, n - off));
      EXPECT_EQ(hex_of(h), want) << "n=" << n << " step=" << step;
    }
  }
  uint8_t key[32];
  for (int i = 0; i < 32; ++i) key[i] = uint8_t(i);
  const std::pair<size_t, const char*> keyed[] = {
      {0, "48a8997da407876b3d79c0d92325ad3b89cbb754d86ab71aee047ad345fd2c49"},
      {64, "8975b0577fd35566d750b362b0897a26c399136df07bababbde6203ff2954ed4"},
      {200, "13c88480a5d00d6c8c7ad2110d76a82d9b70f4fa6696d4e5dd42a066dcaf9920"},
  };
  for (auto [n, want] : keyed) {
    blake2s h(32, key);
    h.update(pattern(n));
    EXPECT_EQ(hex_of(h), want) << "keyed n=" << n;
  }
  blake2s h(20, {key, 16});
  h.update(pattern(100));
  EXPECT_EQ(hex_of(h), "2208f709283f8df6da7096bb199579023f8c387a");
}

}  // namespace
}  // namespace cuzk::hash
