// SPDX-License-Identifier: Apache-2.0
// ChaCha against independent vectors: RFC 8439 §2.3.2 (block) and §2.4.2 (encryption), the
// draft-strombergson-chacha-test-vectors TC1 for ChaCha8 with a 256-bit zero key (two blocks,
// so the 64-bit counter framing of rand_chacha is exercised), the classic zero-key ChaCha20
// stream (= rand_chacha ChaCha20Rng::from_seed([0;32])), and Python `cryptography` ChaCha20
// keystreams at arbitrary offsets with the synthetic-PoRep nonce.
#include "hash/chacha.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/hex.hpp"

namespace cuzk::hash {
namespace {

std::array<uint8_t, 32> key_0_to_31() {
  std::array<uint8_t, 32> k;
  for (size_t i = 0; i < 32; ++i) k[i] = uint8_t(i);
  return k;
}

std::string rng_bytes(chacha_rng& rng, size_t n) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; i += 4) {
    const uint32_t w = rng.next_u32();
    for (size_t j = 0; j < 4; ++j) out[i + j] = uint8_t(w >> (8 * j));
  }
  return to_hex(out);
}

TEST(chacha, chacha8_zero_key_tc1) {
  chacha_rng rng = chacha8_rng({});
  EXPECT_EQ(rng_bytes(rng, 128),
            "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
            "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
            "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
            "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa");
}

TEST(chacha, chacha20_rng_zero_seed) {
  chacha_rng rng(20, {}, 0);
  EXPECT_EQ(rng_bytes(rng, 128),
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
            "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
            "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
            "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f");
}

TEST(chacha, rng_u64_takes_low_word_first) {
  chacha_rng a = chacha8_rng({}), b = chacha8_rng({});
  for (int i = 0; i < 40; ++i) {
    const uint64_t lo = a.next_u32(), hi = a.next_u32();
    EXPECT_EQ(b.next_u64(), lo | hi << 32);
  }
  chacha_rng c = chacha8_rng({}), d = chacha8_rng({});
  uint8_t buf[7];
  c.fill_bytes(buf, 7);  // consumes two whole words
  d.next_u32();
  d.next_u32();
  EXPECT_EQ(c.next_u32(), d.next_u32());
  EXPECT_EQ(buf[0], 0x3e);
  EXPECT_EQ(buf[6], 0x40);
}

TEST(chacha, rfc8439_block_2_3_2) {
  const std::array<uint8_t, 12> nonce = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};
  chacha20_ietf c(key_0_to_31(), nonce, 1);
  uint8_t out[64];
  c.keystream(out, 64);
  EXPECT_EQ(to_hex(out),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
}

TEST(chacha, rfc8439_encrypt_2_4_2) {
  const std::string pt =
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
      "future, sunscreen would be it.";
  const std::array<uint8_t, 12> nonce = {0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0};
  std::vector<uint8_t> data(pt.begin(), pt.end());
  chacha20_ietf c(key_0_to_31(), nonce, 1);
  c.apply(data.data(), data.size());
  EXPECT_EQ(to_hex(data),
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593d"
            "abcd62b3571639d624e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16cc"
            "f806818ce91ab77937365af90bbf74a35be6b40b8eedf2785e42874d");
  chacha20_ietf d(key_0_to_31(), nonce, 1);
  d.apply(data.data(), data.size());
  EXPECT_EQ(std::string(data.begin(), data.end()), pt);
}

// cryptography's ChaCha20(key, counter LE ‖ nonce) keystream, key 00..1f, nonce 000000090000004a…
TEST(chacha, seek_offsets_match_cryptography) {
  const std::array<uint8_t, 12> nonce = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};
  chacha20_ietf c(key_0_to_31(), nonce);
  struct {
    uint64_t off;
    size_t len;
    const char* hex;
  } cases[] = {
      {37, 100,
       "0a54d57d3c9e998f490ee69ca34c1ff9e939a75584c52d690a35d410f1e7e4d13b5915500fdd1fa32071c4c7d1"
       "f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c"
       "4e0a88837739d7bf4ef8"},
      {200, 5, "2ed5c20eae"},
      {383, 1, "8f"},
  };
  for (const auto& t : cases) {
    std::vector<uint8_t> out(t.len);
    c.seek(t.off);
    c.keystream(out.data(), out.size());
    EXPECT_EQ(to_hex(out), t.hex) << t.off;
    EXPECT_EQ(c.position(), t.off + t.len);
  }
}

// The synthetic PoRep framing: nonce "synth-porep\0", 32-byte challenge blocks at offset 32·i.
TEST(chacha, synthetic_nonce_blocks_match_cryptography) {
  const std::array<uint8_t, 12> nonce = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
  chacha20_ietf c(key_0_to_31(), nonce);
  const std::pair<uint64_t, const char*> cases[] = {
      {0, "f7fbe871ea2100b4397761069c23287a25bd2b6e240a3d1de92f4d6925310558"},
      {1, "59a2561af3cb2109abb0f22f46c7f7c286fba1710a4c87759b0afadd2acb3e4d"},
      {1000, "df6bfdbb554c9148d9056ff219e29a13147be534b78d4b5d4442c01d70706746"},
      {262143, "a5d64aab7d9964d1838df9b7ba08268e70e168ac95b453df29fc5602f574512b"},
  };
  for (const auto& [i, hex] : cases) {
    uint8_t out[32];
    c.seek(32 * i);
    c.keystream(out, 32);
    EXPECT_EQ(to_hex(out), hex) << i;
  }
}

}  // namespace
}  // namespace cuzk::hash
