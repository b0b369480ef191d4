// SPDX-License-Identifier: Apache-2.0
// SHA-256 block function: portable FIPS 180-4 rounds, and an x86 SHA-NI path (SHA256RNDS2 does two
// rounds on the ABEF/CDGH state halves; SHA256MSG1/MSG2 extend the schedule four words at a time),
// picked once at run time from CPUID leaf 7 EBX bit 29.
#include "hash/sha256.hpp"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace cuzk::hash {

namespace {

inline uint32_t rotr(uint32_t x, int n) {
  return (x >> n) | (x << (32 - n));
}
inline uint32_t load_be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}
inline void store_be32(uint8_t* p, uint32_t x) {
  p[0] = uint8_t(x >> 24);
  p[1] = uint8_t(x >> 16);
  p[2] = uint8_t(x >> 8);
  p[3] = uint8_t(x);
}

#if defined(__x86_64__)
bool cpu_has_shani() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  const bool sha = ebx & (1u << 29);
  unsigned eax1 = 0, ebx1 = 0, ecx1 = 0, edx1 = 0;
  if (!__get_cpuid(1, &eax1, &ebx1, &ecx1, &edx1)) return false;
  const bool sse41 = ecx1 & (1u << 19), ssse3 = ecx1 & (1u << 9);
  return sha && sse41 && ssse3;
}

__attribute__((target("sha,sse4.1,ssse3"))) void compress_shani(uint32_t state[8],
                                                                const uint8_t* blocks,
                                                                size_t num_blocks) {
  // Per-lane byte swap: message words are big-endian.
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
  // The SHA instructions keep the state as ABEF and CDGH (lane 3 = A resp. C).
  __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));       // lanes a b c d
  __m128i s1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));  // e f g h
  t = _mm_shuffle_epi32(t, 0xB1);                                             // b a d c
  s1 = _mm_shuffle_epi32(s1, 0x1B);                                           // h g f e
  __m128i s0 = _mm_alignr_epi8(t, s1, 8);                                     // f e b a
  s1 = _mm_blend_epi16(s1, t, 0xF0);                                          // h g d c
  for (size_t blk = 0; blk < num_blocks; ++blk, blocks += 64) {
    const __m128i save0 = s0, save1 = s1;
    __m128i msg[4];
    for (int i = 0; i < 4; ++i) {
      msg[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16 * i)),
                                bswap);
    }
    for (int r = 0; r < 16; ++r) {  // four rounds per step
      if (r >= 4) {
        // W[4r..4r+3] = W[-16] + σ0(W[-15]) + W[-7] + σ1(W[-2]) (indices relative to 4r)
        __m128i w = _mm_sha256msg1_epu32(msg[r & 3], msg[(r + 1) & 3]);
        w = _mm_add_epi32(w, _mm_alignr_epi8(msg[(r + 3) & 3], msg[(r + 2) & 3], 4));
        msg[r & 3] = _mm_sha256msg2_epu32(w, msg[(r + 3) & 3]);
      }
      const __m128i wk = _mm_add_epi32(
          msg[r & 3], _mm_loadu_si128(reinterpret_cast<const __m128i*>(SHA256_K.data() + 4 * r)));
      s1 = _mm_sha256rnds2_epu32(s1, s0, wk);
      s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(wk, 0x0E));
    }
    s0 = _mm_add_epi32(s0, save0);
    s1 = _mm_add_epi32(s1, save1);
  }
  t = _mm_shuffle_epi32(s0, 0x1B);    // a b e f
  s1 = _mm_shuffle_epi32(s1, 0xB1);   // c d g h
  s0 = _mm_blend_epi16(t, s1, 0xF0);  // a b c d
  s1 = _mm_alignr_epi8(s1, t, 8);     // e f g h
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), s0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), s1);
}
#endif

using compress_fn = void (*)(uint32_t*, const uint8_t*, size_t);

compress_fn pick_compress() {
#if defined(__x86_64__)
  if (cpu_has_shani()) return compress_shani;
#endif
  return sha256_compress_portable;
}

// Function-local, so a static initializer elsewhere may hash before this file's globals exist.
compress_fn active_compress() {
  static const compress_fn f = pick_compress();
  return f;
}

}  // namespace

void sha256_compress_portable(uint32_t state[8], const uint8_t* blocks, size_t num_blocks) {
  for (size_t blk = 0; blk < num_blocks; ++blk, blocks += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) w[i] = load_be32(blocks + 4 * i);
    for (int i = 16; i < 64; ++i) {
      const uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; ++i) {
      const uint32_t t1 =
          h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i];
      const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

void sha256_compress(uint32_t state[8], const uint8_t* blocks, size_t num_blocks) {
  active_compress()(state, blocks, num_blocks);
}

bool sha256_uses_shani() {
  return active_compress() != sha256_compress_portable;
}

void sha256_t::update(std::span<const uint8_t> data) {
  const uint8_t* p = data.data();
  size_t n = data.size();
  // An empty span may carry a null pointer, and memcpy(dst, nullptr, 0) is undefined (UBSan).
  if (n == 0) return;
  total_ += n;
  if (buf_len_ > 0) {
    const size_t take = std::min(n, BLOCK_BYTES - buf_len_);
    std::memcpy(buf_.data() + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    n -= take;
    if (buf_len_ < BLOCK_BYTES) return;
    sha256_compress(h_.data(), buf_.data(), 1);
    buf_len_ = 0;
  }
  if (n >= BLOCK_BYTES) {
    const size_t whole = n / BLOCK_BYTES;
    sha256_compress(h_.data(), p, whole);
    p += whole * BLOCK_BYTES;
    n -= whole * BLOCK_BYTES;
  }
  if (n > 0) {
    std::memcpy(buf_.data(), p, n);
    buf_len_ = n;
  }
}

sha256_digest_t sha256_t::finalize() {
  const uint64_t bits = total_ * 8;
  buf_[buf_len_++] = 0x80;
  if (buf_len_ > BLOCK_BYTES - 8) {
    std::memset(buf_.data() + buf_len_, 0, BLOCK_BYTES - buf_len_);
    sha256_compress(h_.data(), buf_.data(), 1);
    buf_len_ = 0;
  }
  std::memset(buf_.data() + buf_len_, 0, BLOCK_BYTES - 8 - buf_len_);
  for (int i = 0; i < 8; ++i) buf_[BLOCK_BYTES - 8 + i] = uint8_t(bits >> (56 - 8 * i));
  sha256_compress(h_.data(), buf_.data(), 1);
  sha256_digest_t out;
  for (int i = 0; i < 8; ++i) store_be32(out.data() + 4 * i, h_[i]);
  return out;
}

sha256_digest_t sha256_digest(std::span<const uint8_t> data) {
  sha256_t h;
  h.update(data);
  return h.finalize();
}

sha256_digest_t sha256_state_digest(const uint32_t state[8]) {
  sha256_digest_t out;
  for (int i = 0; i < 8; ++i) store_be32(out.data() + 4 * i, state[i]);
  return out;
}

}  // namespace cuzk::hash
