// SPDX-License-Identifier: Apache-2.0
// BLAKE2b (RFC 7693): 64-bit BLAKE2 with 12 rounds, digests of 1..64 bytes, optional key of up to
// 64 bytes. Filecoin uses unkeyed Blake2b-512 in the SDR Feistel round function and keyed
// Blake2b-256 for synthetic PoRep challenges (docs/spec/primitives.md §2, porep.md §6). The
// streaming class is a thin wrapper over libb2 (Debian libb2-dev; cold paths: file digests,
// challenge keys); the compression function stays here, inlinable, for the hot single-block Feistel
// round (porep/graph.cpp), where the constant message words fold away.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

namespace cuzk::hash {

namespace blake2b_detail {

/// RFC 7693 §2.7 message schedule; BLAKE2b's 12 rounds use rows 0..9 then 0..1.
inline constexpr uint8_t SIGMA[10][16] = {
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

/// RFC 7693 §2.6 IV (= SHA-512's initial hash value).
inline constexpr uint64_t IV[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                   0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                   0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

inline uint64_t rotr(uint64_t x, unsigned n) {
  return (x >> n) | (x << (64 - n));
}

// G (RFC 7693 §3.1) with BLAKE2b's rotations 32, 24, 16, 63.
inline void mix(uint64_t v[16], int a, int b, int c, int d, uint64_t x, uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 63);
}

template <size_t R>
inline void round(uint64_t v[16], const uint64_t m[16]) {
  constexpr const uint8_t* s = SIGMA[R % 10];
  mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
  mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
  mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
  mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
  mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
  mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
  mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
  mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

/// The compression function F (RFC 7693 §3.2), fully unrolled so that the message indices are
/// compile-time constants: inlined into a caller whose block is mostly constant (the Feistel
/// round function hashes 16 bytes), the zero words fold away.
inline void compress_inline(uint64_t h[8], const uint64_t m[16], uint64_t t, bool last) {
  uint64_t v[16];
  for (int i = 0; i < 8; ++i) {
    v[i] = h[i];
    v[i + 8] = IV[i];
  }
  v[12] ^= t;  // the high word of the 128-bit counter is always 0 here (< 2^64 bytes)
  if (last) v[14] = ~v[14];
  [&]<size_t... R>(std::index_sequence<R...>) {
    (round<R>(v, m), ...);
  }
  (std::make_index_sequence<12>{});
  for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

}  // namespace blake2b_detail

/// Streaming BLAKE2b (sequential mode) on libb2's blake2b_state, held as opaque bytes so that
/// <blake2.h> (whose global functions blake2b()/blake2s() would clash with these classes in code
/// that uses namespace cuzk) stays out of this header; copyable.
class blake2b {
 public:
  static constexpr size_t BLOCK_BYTES = 128;
  static constexpr size_t MAX_DIGEST_BYTES = 64;
  static constexpr size_t MAX_KEY_BYTES = 64;

  /// Unkeyed BLAKE2b with a digest of `digest_bytes` (1..64; 64 = BLAKE2b-512).
  explicit blake2b(size_t digest_bytes = 64) : blake2b(digest_bytes, {}) {}
  /// Keyed BLAKE2b (RFC 7693 §3.3: the key, zero-padded to one block, is the first block). Keys
  /// longer than 64 bytes are cut to 64 (callers pass at most 64).
  blake2b(size_t digest_bytes, std::span<const uint8_t> key);

  void update(std::span<const uint8_t> data);
  void update(const void* data, size_t len) {
    update(std::span<const uint8_t>(static_cast<const uint8_t*>(data), len));
  }
  /// Writes digest_bytes() bytes. The object must not be updated or finalized again.
  void finalize(uint8_t* out);
  size_t digest_bytes() const { return digest_bytes_; }

  /// One-shot BLAKE2b-512.
  static std::array<uint8_t, 64> hash512(std::span<const uint8_t> data);
  /// One-shot BLAKE2b-256, optionally keyed.
  static std::array<uint8_t, 32> hash256(std::span<const uint8_t> data,
                                         std::span<const uint8_t> key = {});

 private:
  static constexpr size_t STATE_BYTES = 384;  ///< ≥ sizeof(blake2b_state), checked in the .cpp
  alignas(8) unsigned char state_[STATE_BYTES];
  size_t digest_bytes_;
};

}  // namespace cuzk::hash
