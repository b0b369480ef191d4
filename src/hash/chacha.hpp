// SPDX-License-Identifier: Apache-2.0
// ChaCha keystreams (D. J. Bernstein; RFC 8439) in the two framings Filecoin uses:
//  * chacha_rng: rand_chacha 0.3's ChaChaXRng (ChaCha8Rng for the SDR DRG, docs/spec/porep.md §3):
//    32-byte seed as key, 64-bit block counter in words 12-13 from 0, 64-bit stream id (0) in
//    words 14-15; output consumed as consecutive u32 LE words, a u64 = two words, low first.
//  * chacha20_ietf: RFC 8439 ChaCha20 (the `chacha20` crate's ChaCha20): 32-bit block counter in
//    word 12, 96-bit nonce in words 13-15; a seekable byte keystream (synthetic PoRep, porep.md
// §6).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cuzk::hash {

/// One ChaCha block: out = in + (rounds/2 double rounds of in), all 16 words. rounds ∈ {8,12,20}.
void chacha_block(const uint32_t in[16], unsigned rounds, uint32_t out[16]);

/// rand_chacha's ChaCha{8,12,20}Rng: a deterministic word stream.
class chacha_rng {
 public:
  chacha_rng(unsigned rounds, const std::array<uint8_t, 32>& seed, uint64_t stream = 0);

  uint32_t next_u32() {
    if (idx_ == 16) refill();
    return buf_[idx_++];
  }
  /// Two consecutive words, the first one the low half (rand_core BlockRng::next_u64).
  uint64_t next_u64() {
    const uint64_t lo = next_u32();
    return lo | uint64_t(next_u32()) << 32;
  }
  /// rand_core fill_bytes: whole words, LE; a partial last word is consumed entirely.
  void fill_bytes(uint8_t* out, size_t n);

 private:
  void refill();

  unsigned rounds_;
  uint32_t state_[16];
  uint32_t buf_[16];
  unsigned idx_ = 16;
};

/// rand_chacha ChaCha8Rng::from_seed(seed).
inline chacha_rng chacha8_rng(const std::array<uint8_t, 32>& seed) {
  return chacha_rng(8, seed, 0);
}

/// RFC 8439 ChaCha20 with a 96-bit nonce. Positions are byte offsets into the keystream that
/// starts at block counter 0 (the `chacha20` crate's seek()).
class chacha20_ietf {
 public:
  chacha20_ietf(const std::array<uint8_t, 32>& key, const std::array<uint8_t, 12>& nonce,
                uint32_t initial_counter = 0);

  /// Moves to keystream byte `offset` (relative to counter 0, so initial_counter·64 is where the
  /// stream starts). The keystream is 2^32 blocks long; offsets past it are a precondition error.
  void seek(uint64_t offset);
  uint64_t position() const { return pos_; }
  /// Writes the next n keystream bytes.
  void keystream(uint8_t* out, size_t n);
  /// XORs the next n keystream bytes into data (encryption = decryption).
  void apply(uint8_t* data, size_t n);

 private:
  uint32_t state_[16];
  uint64_t pos_ = 0;
};

}  // namespace cuzk::hash
