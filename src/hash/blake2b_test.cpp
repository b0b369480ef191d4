// SPDX-License-Identifier: Apache-2.0
// BLAKE2b against RFC 7693 (Appendix A "abc", Appendix E self-test) and Python hashlib.blake2b (an
// independent implementation): keyed and unkeyed, digest lengths 1..64, messages across the
// 128-byte block boundaries, and split updates.
#include "hash/blake2b.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/hex.hpp"

namespace cuzk::hash {
namespace {

std::vector<uint8_t> msg(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i * 7 + 3);
  return v;
}
std::vector<uint8_t> key(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i * 13 + 1);
  return v;
}

std::string digest_hex(size_t out_len, std::span<const uint8_t> k, std::span<const uint8_t> m) {
  blake2b h(out_len, k);
  h.update(m);
  uint8_t out[64];
  h.finalize(out);
  return to_hex({out, out_len});
}

TEST(blake2b, rfc7693_abc) {
  const uint8_t abc[] = {'a', 'b', 'c'};
  EXPECT_EQ(to_hex(blake2b::hash512(abc)),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
}

// RFC 7693 Appendix E: digests of lengths 20/32/48/64 over inputs of lengths 0..1024 from a
// Fibonacci-like generator, unkeyed and keyed, all fed into one BLAKE2b-256.
void selftest_seq(uint8_t* out, size_t len, uint32_t seed) {
  uint32_t a = 0xDEAD4BAD * seed, b = 1;
  for (size_t i = 0; i < len; ++i) {
    const uint32_t t = a + b;
    a = b;
    b = t;
    out[i] = uint8_t(t >> 24);
  }
}

TEST(blake2b, rfc7693_selftest) {
  const size_t md_len[] = {20, 32, 48, 64};
  const size_t in_len[] = {0, 3, 128, 129, 255, 1024};
  uint8_t in[1024], md[64], k[64];
  blake2b grand(32);
  for (size_t outlen : md_len) {
    for (size_t inlen : in_len) {
      selftest_seq(in, inlen, uint32_t(inlen));
      blake2b h(outlen);
      h.update(in, inlen);
      h.finalize(md);
      grand.update(md, outlen);
      selftest_seq(k, outlen, uint32_t(outlen));
      blake2b hk(outlen, {k, outlen});
      hk.update(in, inlen);
      hk.finalize(md);
      grand.update(md, outlen);
    }
  }
  uint8_t out[32];
  grand.finalize(out);
  EXPECT_EQ(to_hex(out), "c23a7800d98123bd10f506c61e29da5603d763b8bbad2e737f5e765a7bccd475");
}

// hashlib.blake2b(msg(m), digest_size=o, key=key(k)) with msg(n)[i] = i·7 + 3, key(n)[i] = i·13 + 1
// (mod 256), Python 3.
struct hashlib_case {
  size_t msg_len, key_len, out_len;
  const char* hex;
};
const hashlib_case HASHLIB[] = {
    {0, 0, 64,
     "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb"
     "04b903a685b1448b755d56f701afe9be2ce"},
    {1, 0, 64,
     "4fe4da61bcc756071b226843361d74944c72245d23e8245ea678c13fdcd7fe2ae529cf999ad99cc24f7a73416a18b"
     "a53e76c0afef83b16a568b12fbfc1a2674d"},
    {3, 0, 64,
     "76ce7e90c577d436a65b691e51f0a1ad536130d70a18df3bf5368551327258b6f706f4a47c45f2d0d8147cfbb5623"
     "077e798247972e4f9338603a13abc05a4db"},
    {127, 0, 64,
     "71546bbf9110ad184cc60f2eb120fcfd9b4dbbca7a7f1270045b8a23a6a4f4330f65c1f030dd2f5fabc6c57617242"
     "c37cf427bd90407fac5b9deffd3ae888c39"},
    {128, 0, 64,
     "2d9e329f42afa3601d646692b81c13e87fcaff5bf15972e9813d7373cb6d181f9599f4d513d4af4fd6ebd37497ace"
     "b29aba5ee23ed764d8510b552bd088814fb"},
    {129, 0, 64,
     "47889df9eb4d717afc5019df5c6a83df00a0b8677395e078cd5778ace0f338a618e68b7d9afb065d9e6a01ccd31d1"
     "09447e7fae771c3ee3e105709194122ba2b"},
    {255, 0, 64,
     "1a5199ac66a00e8a87ad1c7fbad30b33137dd8312bf6d98602dacf8f40ea2cb623a7fbc63e5a6bfa434d337ae7da5"
     "ca1a52502a215a3fe0297a151be85d88789"},
    {256, 0, 64,
     "91019c558584980249ca43eceed27e19f1c3c24161b93eed1eee2a6a774f60bf8a81b43750870bee1698feac9c533"
     "6ae4d5c842e7ead159bf3916387e8ded9ae"},
    {1000, 0, 64,
     "4bdd2c9cf31d797a81d245c989ffb7515143ca345c66f73087dd5c58bf642bf083ba16894eab79e3b08d5126404d8"
     "33e7510271b50be36a7b7cbbb46f5c89fac"},
    {16, 0, 64,
     "8518ca954f1d14056d4e5f020cc3fab00162f721ac66f921e23bc435a9c62b2bee7121273145ec91fa59ae39b1a3f"
     "59461308e7ad4c315c508f7848b5452eda4"},
    {0, 0, 32, "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"},
    {200, 0, 32, "6dd0baea688c7db92ca8f8c0a0a62cda1f3bf8002e628e58c3042bb576daabe4"},
    {64, 32, 32, "51761909c9be8514b12581138d5d80df8774890d8024c3db8f572ca14b059b28"},
    {0, 64, 64,
     "e0c5144fda1b1d28b5b1422dcffe6b1cfa33702c64a76fe292cb3705f5fcec7ad32faaa7170493524c80179ed71f0"
     "61dcc6debf2c30559666840e221e673d0cf"},
    {128, 64, 64,
     "dccb04930ff90ad8679067df87d4b3ebb0ecf7c26ab1cfde55a78b4920dbccab908df2e41468e994bd14f3461e4b9"
     "fcaad9949d89a925e7c18c0b49f3a3d88dd"},
    {129, 1, 20, "8b2076248523b39e11012e428ca961c67f6a23fd"},
    {300, 43, 32, "1a6b8cc321ec92d53d640c5381960b5b8e64c4afca68a6413bbefa0986672376"},
    {5, 0, 1, "e4"},
    {256, 64, 48,
     "e35858f5f36c00d453ad343ff45d5091d5e071c42efa5f08cb1e72555ea1c40ca448804fa500f2d825eadc88b6315"
     "509"},
};

TEST(blake2b, hashlib_vectors) {
  for (const auto& c : HASHLIB) {
    const auto m = msg(c.msg_len), k = key(c.key_len);
    EXPECT_EQ(digest_hex(c.out_len, k, m), c.hex)
        << c.msg_len << "/" << c.key_len << "/" << c.out_len;
    if (c.key_len == 0 && c.out_len == 64) {
      EXPECT_EQ(to_hex(blake2b::hash512(m)), c.hex);
    }
    if (c.out_len == 32) {
      EXPECT_EQ(to_hex(blake2b::hash256(m, k)), c.hex);
    }
  }
}

TEST(blake2b, split_updates_match_one_shot) {
  const auto m = msg(1000), k = key(17);
  const std::string want = digest_hex(32, k, m);
  for (size_t step : {1, 7, 127, 128, 129, 300}) {
    blake2b h(32, k);
    for (size_t i = 0; i < m.size(); i += step)
      h.update(m.data() + i, std::min(step, m.size() - i));
    uint8_t out[32];
    h.finalize(out);
    EXPECT_EQ(to_hex(out), want) << step;
  }
}

// Synthetic PoRep key-derivation shape: keyed Blake2b-256 with the Filecoin domain tag (hashlib).
TEST(blake2b, filecoin_synthetic_key_tag) {
  const std::string tag = "filecoin.io|PoRep|1|Synthetic|1|Generation";
  const std::span<const uint8_t> k(reinterpret_cast<const uint8_t*>(tag.data()), tag.size());
  EXPECT_EQ(to_hex(blake2b::hash256({}, k)),
            "0364e533861079b5fcfa8c364d75dfed9288d3bebdb5f8c67b7c09079342fc77");
}

// The hand-written compression function (the SDR Feistel hot path, porep/graph.cpp) against the
// streaming class (libb2): unkeyed BLAKE2b-512 of every single-block message, as graph.cpp uses it.
TEST(blake2b, compress_inline_matches_streaming) {
  for (size_t n = 1; n <= blake2b::BLOCK_BYTES; ++n) {
    const auto m = msg(n);
    uint8_t block[blake2b::BLOCK_BYTES] = {};
    std::copy(m.begin(), m.end(), block);
    uint64_t words[16];
    for (int i = 0; i < 16; ++i) {
      words[i] = 0;
      for (int b = 7; b >= 0; --b) words[i] = (words[i] << 8) | block[8 * i + b];
    }
    uint64_t h[8];
    for (int i = 0; i < 8; ++i) h[i] = blake2b_detail::IV[i];
    h[0] ^= 0x01010000u ^ 64u;  // digest length 64, no key, fanout 1, depth 1
    blake2b_detail::compress_inline(h, words, n, true);
    uint8_t out[64];
    for (int i = 0; i < 64; ++i) out[i] = uint8_t(h[i / 8] >> (8 * (i % 8)));
    EXPECT_EQ(to_hex(out), to_hex(blake2b::hash512(m))) << n;
  }
}

}  // namespace
}  // namespace cuzk::hash
