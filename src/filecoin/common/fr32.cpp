// SPDX-License-Identifier: Apache-2.0
// Fr32 padding by byte shifts: node f of a chunk starts at bit 254·f = byte 31·f + (6f mod 8)...
// precisely at byte offsets 0, 31 (bit 6), 63 (bit 4), 95 (bit 2), so each output byte is two
// neighbouring input bytes shifted by 0, 2, 4 or 6 bits.
#include "filecoin/common/fr32.hpp"

#include <cstring>

namespace cuzk::filecoin::common {

void fr32_pad_chunk(const uint8_t in[FR32_UNPADDED_CHUNK], uint8_t out[FR32_PADDED_CHUNK]) {
  // Node 0: bits 0..253 = bytes 0..31 with the top two bits of byte 31 cleared.
  std::memcpy(out, in, 32);
  out[31] &= 0x3f;
  // Node 1: bits 254..507 = input bit 6 of byte 31 onwards.
  for (int i = 32; i < 64; ++i) out[i] = uint8_t(in[i] << 2 | in[i - 1] >> 6);
  out[63] &= 0x3f;
  // Node 2: bits 508..761, from bit 4 of byte 63.
  for (int i = 64; i < 96; ++i) out[i] = uint8_t(in[i] << 4 | in[i - 1] >> 4);
  out[95] &= 0x3f;
  // Node 3: bits 762..1015, from bit 2 of byte 95; its last byte holds the 6 top bits of in[126].
  for (int i = 96; i < 127; ++i) out[i] = uint8_t(in[i] << 6 | in[i - 1] >> 2);
  out[127] = uint8_t(in[126] >> 2);
}

void fr32_unpad_chunk(const uint8_t in[FR32_PADDED_CHUNK], uint8_t out[FR32_UNPADDED_CHUNK]) {
  // Output byte j holds stream bits 8j..8j+7; stream bit b is bit (b mod 254) of node b/254.
  // Bytes that fall inside one node are a shifted byte pair of that node; the three bytes that
  // straddle a node boundary (31, 63, 95) combine the 6/4/2 top data bits with the next node.
  std::memcpy(out, in, 31);
  out[31] = uint8_t((in[31] & 0x3f) | in[32] << 6);
  for (int j = 32; j < 63; ++j) out[j] = uint8_t(in[j] >> 2 | in[j + 1] << 6);
  out[63] = uint8_t((in[63] & 0x3f) >> 2 | in[64] << 4);
  for (int j = 64; j < 95; ++j) out[j] = uint8_t(in[j] >> 4 | in[j + 1] << 4);
  out[95] = uint8_t((in[95] & 0x3f) >> 4 | in[96] << 2);
  for (int j = 96; j < 127; ++j) out[j] = uint8_t(in[j] >> 6 | in[j + 1] << 2);
}

void fr32_pad(std::span<const uint8_t> in, std::span<uint8_t> out) {
  const size_t full = in.size() / FR32_UNPADDED_CHUNK;
  for (size_t c = 0; c < full; ++c)
    fr32_pad_chunk(in.data() + c * FR32_UNPADDED_CHUNK, out.data() + c * FR32_PADDED_CHUNK);
  if (const size_t rest = in.size() - full * FR32_UNPADDED_CHUNK; rest) {
    uint8_t tail[FR32_UNPADDED_CHUNK] = {};
    std::memcpy(tail, in.data() + full * FR32_UNPADDED_CHUNK, rest);
    fr32_pad_chunk(tail, out.data() + full * FR32_PADDED_CHUNK);
  }
}

void fr32_unpad(std::span<const uint8_t> in, std::span<uint8_t> out) {
  const size_t chunks = in.size() / FR32_PADDED_CHUNK;
  for (size_t c = 0; c < chunks; ++c)
    fr32_unpad_chunk(in.data() + c * FR32_PADDED_CHUNK, out.data() + c * FR32_UNPADDED_CHUNK);
}

}  // namespace cuzk::filecoin::common
