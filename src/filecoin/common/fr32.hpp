// SPDX-License-Identifier: Apache-2.0
// Fr32 padding (docs/spec/primitives.md §3, fr32 padding.rs): every 254 bits of unpadded data fill
// one 32-byte node whose top two bits are zero, so each node is a valid Fr. 127 unpadded bytes
// (1016 bits = 4 × 254) become exactly 128 padded bytes. Bits run LSB-first within bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::filecoin::common {

inline constexpr size_t FR32_UNPADDED_CHUNK = 127;
inline constexpr size_t FR32_PADDED_CHUNK = 128;

/// Padded bytes of n unpadded bytes zero-extended to whole 127-byte chunks: ⌈n/127⌉·128.
constexpr uint64_t fr32_padded_size(uint64_t unpadded) {
  return (unpadded + FR32_UNPADDED_CHUNK - 1) / FR32_UNPADDED_CHUNK * FR32_PADDED_CHUNK;
}
/// Unpadded capacity of a padded size (a multiple of 128): padded/128·127.
constexpr uint64_t fr32_unpadded_size(uint64_t padded) {
  return padded / FR32_PADDED_CHUNK * FR32_UNPADDED_CHUNK;
}

/// One chunk: 127 bytes → 4 nodes (128 bytes). Cost: one pass of shifts over 128 bytes.
void fr32_pad_chunk(const uint8_t in[FR32_UNPADDED_CHUNK], uint8_t out[FR32_PADDED_CHUNK]);
/// The inverse: the 4 × 254 data bits of 128 padded bytes back to 127 bytes (the two top bits
/// of each node are ignored).
void fr32_unpad_chunk(const uint8_t in[FR32_PADDED_CHUNK], uint8_t out[FR32_UNPADDED_CHUNK]);

/// Pads `in`, zero-extended to a multiple of 127 bytes, into out; out.size() must be
/// fr32_padded_size(in.size()) (precondition).
void fr32_pad(std::span<const uint8_t> in, std::span<uint8_t> out);
/// Unpads in (a multiple of 128 bytes) into out (in.size()/128·127 bytes; precondition).
void fr32_unpad(std::span<const uint8_t> in, std::span<uint8_t> out);

}  // namespace cuzk::filecoin::common
