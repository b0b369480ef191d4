// SPDX-License-Identifier: Apache-2.0
// SHA-256 (FIPS 180-4). Filecoin's SHA256-trunc254 is built on it in
// filecoin/hash/sha256_trunc254.hpp. The block function uses the x86 SHA extensions (SHA-NI) when
// the CPU has them at run time and a portable C++ path otherwise; both are tested against each
// other, the FIPS vectors and OpenSSL.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::hash {

using sha256_digest_t = std::array<uint8_t, 32>;

/// FIPS 180-4 §5.3.3 initial hash value and §4.2.2 round constants.
inline constexpr std::array<uint32_t, 8> SHA256_IV = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
inline constexpr std::array<uint32_t, 64> SHA256_K = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/// Applies the compression function to `num_blocks` consecutive 64-byte blocks (SHA-NI when
/// available, else portable).
void sha256_compress(uint32_t state[8], const uint8_t* blocks, size_t num_blocks);
/// The portable reference path (always available; what the SHA-NI path is tested against).
void sha256_compress_portable(uint32_t state[8], const uint8_t* blocks, size_t num_blocks);
/// True when sha256_compress uses the SHA extensions on this CPU.
bool sha256_uses_shani();

/// Streaming SHA-256.
class sha256_t {
 public:
  static constexpr size_t BLOCK_BYTES = 64;
  static constexpr size_t DIGEST_BYTES = 32;

  sha256_t() = default;
  void update(std::span<const uint8_t> data);
  void update(const void* data, size_t len) {
    update(std::span<const uint8_t>(static_cast<const uint8_t*>(data), len));
  }
  /// Pads (0x80, zeros, 64-bit big-endian bit length) and returns the digest. The object must not
  /// be updated or finalized again.
  sha256_digest_t finalize();

 private:
  std::array<uint32_t, 8> h_ = SHA256_IV;
  std::array<uint8_t, BLOCK_BYTES> buf_{};
  size_t buf_len_ = 0;
  uint64_t total_ = 0;  ///< bytes absorbed
};

/// One-shot SHA-256.
sha256_digest_t sha256_digest(std::span<const uint8_t> data);

/// The big-endian digest bytes of a compression state (FIPS 180-4 §6.2.2 step 4).
sha256_digest_t sha256_state_digest(const uint32_t state[8]);

}  // namespace cuzk::hash
