// SPDX-License-Identifier: Apache-2.0
// BLAKE2s (RFC 7693): 32-bit BLAKE2 with 10 rounds, digests of 1..32 bytes, optional key of up to
// 32 bytes. Used for stable fingerprints (the R1CS shape hash, r1cs/shape_cs.hpp); not a
// Filecoin-protocol hash here. Sequential mode only (fanout 1, depth 1, no salt/personalization).
// A thin wrapper over libb2 (Debian libb2-dev): every use is a cold path.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace cuzk::hash {

class blake2s {
 public:
  static constexpr size_t BLOCK_BYTES = 64;
  static constexpr size_t MAX_DIGEST_BYTES = 32;
  static constexpr size_t MAX_KEY_BYTES = 32;

  /// Unkeyed BLAKE2s with a digest of `digest_bytes` (1..32; 32 = BLAKE2s-256).
  explicit blake2s(size_t digest_bytes = 32) : blake2s(digest_bytes, {}) {}
  /// Keyed BLAKE2s (RFC 7693 §3.3: the key, zero-padded to one block, is the first block).
  blake2s(size_t digest_bytes, std::span<const uint8_t> key);

  void update(std::span<const uint8_t> data);
  void update(const void* data, size_t len) {
    update(std::span<const uint8_t>(static_cast<const uint8_t*>(data), len));
  }
  /// Writes digest_bytes() bytes. The object must not be updated or finalized again.
  void finalize(uint8_t* out);
  size_t digest_bytes() const { return digest_bytes_; }

  /// One-shot BLAKE2s-256.
  static std::array<uint8_t, 32> hash256(std::span<const uint8_t> data);

 private:
  // libb2's blake2s_state as opaque bytes: <blake2.h> stays out of this header (see blake2b.hpp).
  static constexpr size_t STATE_BYTES = 192;  ///< ≥ sizeof(blake2s_state), checked in the .cpp
  alignas(8) unsigned char state_[STATE_BYTES];
  size_t digest_bytes_;
};

}  // namespace cuzk::hash
