// SPDX-License-Identifier: Apache-2.0
#include "filecoin/hash/sha256_trunc254.hpp"

#include <cstring>

namespace cuzk::filecoin::hash {

cuzk::hash::sha256_digest_t sha256_trunc254(std::span<const uint8_t> data) {
  cuzk::hash::sha256_digest_t d = cuzk::hash::sha256_digest(data);
  trim_to_fr32(d);
  return d;
}

cuzk::hash::sha256_digest_t sha256_trunc254_node(const uint8_t left[32], const uint8_t right[32]) {
  // Block 1 = left ‖ right; block 2 = 0x80, zeros, bit length 512 (0x0200) big-endian.
  alignas(16) uint8_t blocks[128] = {};
  std::memcpy(blocks, left, 32);
  std::memcpy(blocks + 32, right, 32);
  blocks[64] = 0x80;
  blocks[126] = 0x02;
  uint32_t h[8];
  std::memcpy(h, cuzk::hash::SHA256_IV.data(), sizeof h);
  cuzk::hash::sha256_compress(h, blocks, 2);
  cuzk::hash::sha256_digest_t out = cuzk::hash::sha256_state_digest(h);
  trim_to_fr32(out);
  return out;
}

}  // namespace cuzk::filecoin::hash
