// SPDX-License-Identifier: Apache-2.0
// BLAKE2s per RFC 7693 §3: state h[8], 64-byte blocks, 64-bit byte counter t, compression F with
// 10 rounds of the G mixing function (rotations 16, 12, 8, 7) over the SIGMA message schedule.
// Written from the RFC text; checked against the RFC's vectors and self-test (blake2s_test.cpp).
#include "hash/blake2s.hpp"

#include <algorithm>
#include <cstring>

namespace cuzk {
namespace {

// IV = first 32 bits of the fractional parts of the square roots of the first 8 primes (same as
// SHA-256's initial hash value), RFC 7693 §2.6.
constexpr uint32_t IV[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                            0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};

// Message word permutations, RFC 7693 §2.7 (BLAKE2s uses rows 0..9).
constexpr uint8_t SIGMA[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

inline uint32_t rotr(uint32_t x, unsigned n) {
  return (x >> n) | (x << (32 - n));
}

inline uint32_t load_le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// G (RFC 7693 §3.1) with BLAKE2s's rotation constants R1..R4 = 16, 12, 8, 7.
inline void mix(uint32_t v[16], int a, int b, int c, int d, uint32_t x, uint32_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 12);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr(v[d] ^ v[a], 8);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 7);
}

}  // namespace

blake2s::blake2s(size_t digest_bytes, std::span<const uint8_t> key) : digest_bytes_(digest_bytes) {
  digest_bytes_ = std::clamp<size_t>(digest_bytes_, 1, MAX_DIGEST_BYTES);
  const size_t key_len = std::min(key.size(), MAX_KEY_BYTES);
  for (int i = 0; i < 8; ++i) h_[i] = IV[i];
  // Parameter block word 0: digest length, key length << 8, fanout 1 << 16, depth 1 << 24.
  h_[0] ^= 0x01010000u ^ uint32_t(key_len << 8) ^ uint32_t(digest_bytes_);
  if (key_len > 0) {
    std::memcpy(buf_.data(), key.data(), key_len);  // rest of the block stays zero
    buf_len_ = BLOCK_BYTES;
  }
}

void blake2s::compress(const uint8_t* block, bool last) {
  uint32_t m[16], v[16];
  for (int i = 0; i < 16; ++i) m[i] = load_le32(block + 4 * i);
  for (int i = 0; i < 8; ++i) {
    v[i] = h_[i];
    v[i + 8] = IV[i];
  }
  v[12] ^= uint32_t(total_);
  v[13] ^= uint32_t(total_ >> 32);
  if (last) v[14] = ~v[14];
  for (const auto& s : SIGMA) {
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h_[i] ^= v[i] ^ v[i + 8];
}

void blake2s::update(std::span<const uint8_t> data) {
  const uint8_t* p = data.data();
  size_t n = data.size();
  // A full buffer is compressed only once more input arrives: the last block must be compressed
  // with the final flag, so it is always held back.
  while (n > 0) {
    if (buf_len_ == BLOCK_BYTES) {
      total_ += BLOCK_BYTES;
      compress(buf_.data(), false);
      buf_len_ = 0;
    }
    if (buf_len_ == 0) {
      // Whole blocks straight from the input, keeping at least one byte back.
      while (n > BLOCK_BYTES) {
        total_ += BLOCK_BYTES;
        compress(p, false);
        p += BLOCK_BYTES;
        n -= BLOCK_BYTES;
      }
    }
    const size_t take = std::min(n, BLOCK_BYTES - buf_len_);
    std::memcpy(buf_.data() + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    n -= take;
  }
}

void blake2s::finalize(uint8_t* out) {
  total_ += buf_len_;
  std::memset(buf_.data() + buf_len_, 0, BLOCK_BYTES - buf_len_);
  compress(buf_.data(), true);
  for (size_t i = 0; i < digest_bytes_; ++i) out[i] = uint8_t(h_[i / 4] >> (8 * (i % 4)));
}

std::array<uint8_t, 32> blake2s::hash256(std::span<const uint8_t> data) {
  blake2s h(32);
  h.update(data);
  std::array<uint8_t, 32> out{};
  h.finalize(out.data());
  return out;
}

}  // namespace cuzk
