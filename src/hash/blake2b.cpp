// SPDX-License-Identifier: Apache-2.0
// BLAKE2b per RFC 7693 §3: state h[8] of u64, 128-byte blocks, byte counter t, compression F with
// 12 rounds of G (rotations 32, 24, 16, 63) over the SIGMA schedule (blake2b.hpp).
// Written from the RFC text; checked against the RFC vectors and Python hashlib (blake2b_test.cpp).
#include "hash/blake2b.hpp"

#include <algorithm>
#include <cstring>

namespace cuzk {
namespace {

inline uint64_t load_le64(const uint8_t* p) {
  uint64_t x = 0;
  for (int i = 7; i >= 0; --i) x = (x << 8) | p[i];
  return x;
}

}  // namespace

void blake2b::compress(uint64_t h[8], const uint64_t m[16], uint64_t t, bool last) {
  blake2b_detail::compress_inline(h, m, t, last);
}

blake2b::blake2b(size_t digest_bytes, std::span<const uint8_t> key) : digest_bytes_(digest_bytes) {
  digest_bytes_ = std::clamp<size_t>(digest_bytes_, 1, MAX_DIGEST_BYTES);
  const size_t key_len = std::min(key.size(), MAX_KEY_BYTES);
  for (int i = 0; i < 8; ++i) h_[i] = blake2b_detail::IV[i];
  // Parameter block word 0: digest length, key length << 8, fanout 1 << 16, depth 1 << 24.
  h_[0] ^= 0x01010000u ^ uint64_t(key_len << 8) ^ uint64_t(digest_bytes_);
  if (key_len > 0) {
    std::memcpy(buf_.data(), key.data(), key_len);
    buf_len_ = BLOCK_BYTES;
  }
}

void blake2b::compress_block(const uint8_t* block, bool last) {
  uint64_t m[16];
  for (int i = 0; i < 16; ++i) m[i] = load_le64(block + 8 * i);
  compress(h_.data(), m, total_, last);
}

void blake2b::update(std::span<const uint8_t> data) {
  const uint8_t* p = data.data();
  size_t n = data.size();
  // The last block must carry the final flag, so a full buffer is held back until more arrives.
  while (n > 0) {
    if (buf_len_ == BLOCK_BYTES) {
      total_ += BLOCK_BYTES;
      compress_block(buf_.data(), false);
      buf_len_ = 0;
    }
    if (buf_len_ == 0) {
      while (n > BLOCK_BYTES) {
        total_ += BLOCK_BYTES;
        compress_block(p, false);
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

void blake2b::finalize(uint8_t* out) {
  total_ += buf_len_;
  std::memset(buf_.data() + buf_len_, 0, BLOCK_BYTES - buf_len_);
  compress_block(buf_.data(), true);
  for (size_t i = 0; i < digest_bytes_; ++i) out[i] = uint8_t(h_[i / 8] >> (8 * (i % 8)));
}

std::array<uint8_t, 64> blake2b::hash512(std::span<const uint8_t> data) {
  std::array<uint8_t, 64> out;
  blake2b h(64);
  h.update(data);
  h.finalize(out.data());
  return out;
}

std::array<uint8_t, 32> blake2b::hash256(std::span<const uint8_t> data,
                                         std::span<const uint8_t> key) {
  std::array<uint8_t, 32> out;
  blake2b h(32, key);
  h.update(data);
  h.finalize(out.data());
  return out;
}

}  // namespace cuzk
