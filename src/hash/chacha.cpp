// SPDX-License-Identifier: Apache-2.0
// ChaCha block function (RFC 8439 §2.1-2.3: quarter rounds on columns then diagonals, rotations
// 16, 12, 8, 7, then the input is added back) with the rand_chacha and RFC 8439 state framings.
// Written from the RFC; checked against its vectors and rand_chacha outputs (chacha_test.cpp).
#include "hash/chacha.hpp"

#include <algorithm>
#include <cstring>

namespace cuzk::hash {
namespace {

// "expand 32-byte k" as four LE words.
constexpr uint32_t SIGMA_WORDS[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

inline uint32_t rotl(uint32_t x, unsigned n) {
  return (x << n) | (x >> (32 - n));
}

inline uint32_t load_le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

inline void quarter(uint32_t x[16], int a, int b, int c, int d) {
  x[a] += x[b];
  x[d] = rotl(x[d] ^ x[a], 16);
  x[c] += x[d];
  x[b] = rotl(x[b] ^ x[c], 12);
  x[a] += x[b];
  x[d] = rotl(x[d] ^ x[a], 8);
  x[c] += x[d];
  x[b] = rotl(x[b] ^ x[c], 7);
}

void init_key(uint32_t state[16], const std::array<uint8_t, 32>& key) {
  for (int i = 0; i < 4; ++i) state[i] = SIGMA_WORDS[i];
  for (int i = 0; i < 8; ++i) state[4 + i] = load_le32(key.data() + 4 * i);
}

}  // namespace

void chacha_block(const uint32_t in[16], unsigned rounds, uint32_t out[16]) {
  uint32_t x[16];
  std::memcpy(x, in, sizeof(x));
  for (unsigned r = 0; r < rounds; r += 2) {
    quarter(x, 0, 4, 8, 12);
    quarter(x, 1, 5, 9, 13);
    quarter(x, 2, 6, 10, 14);
    quarter(x, 3, 7, 11, 15);
    quarter(x, 0, 5, 10, 15);
    quarter(x, 1, 6, 11, 12);
    quarter(x, 2, 7, 8, 13);
    quarter(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) out[i] = x[i] + in[i];
}

// ---- rand_chacha framing
// -------------------------------------------------------------------------

chacha_rng::chacha_rng(unsigned rounds, const std::array<uint8_t, 32>& seed, uint64_t stream)
    : rounds_(rounds) {
  init_key(state_, seed);
  state_[12] = 0;
  state_[13] = 0;
  state_[14] = uint32_t(stream);
  state_[15] = uint32_t(stream >> 32);
}

void chacha_rng::refill() {
  chacha_block(state_, rounds_, buf_);
  // 64-bit block counter across words 12 and 13.
  if (++state_[12] == 0) ++state_[13];
  idx_ = 0;
}

void chacha_rng::fill_bytes(uint8_t* out, size_t n) {
  while (n > 0) {
    const uint32_t w = next_u32();
    const size_t take = std::min<size_t>(n, 4);
    for (size_t i = 0; i < take; ++i) out[i] = uint8_t(w >> (8 * i));
    out += take;
    n -= take;
  }
}

// ---- RFC 8439 framing
// ----------------------------------------------------------------------------

chacha20_ietf::chacha20_ietf(const std::array<uint8_t, 32>& key,
                             const std::array<uint8_t, 12>& nonce, uint32_t initial_counter) {
  init_key(state_, key);
  state_[12] = 0;
  for (int i = 0; i < 3; ++i) state_[13 + i] = load_le32(nonce.data() + 4 * i);
  pos_ = uint64_t(initial_counter) * 64;
}

void chacha20_ietf::seek(uint64_t offset) {
  pos_ = offset;
}

void chacha20_ietf::keystream(uint8_t* out, size_t n) {
  std::memset(out, 0, n);
  apply(out, n);
}

void chacha20_ietf::apply(uint8_t* data, size_t n) {
  uint32_t in[16], block[16];
  std::memcpy(in, state_, sizeof(in));
  while (n > 0) {
    in[12] = uint32_t(pos_ / 64);
    chacha_block(in, 20, block);
    const size_t off = size_t(pos_ % 64);
    const size_t take = std::min(n, 64 - off);
    for (size_t i = 0; i < take; ++i)
      data[i] ^= uint8_t(block[(off + i) / 4] >> (8 * ((off + i) % 4)));
    data += take;
    n -= take;
    pos_ += take;
  }
}

}  // namespace cuzk::hash
