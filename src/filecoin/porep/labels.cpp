// SPDX-License-Identifier: Apache-2.0
// SDR labels: the 1248-byte preimage is laid out once in a 20-block buffer whose padding block is
// constant (0x80, zeros, bit length 9984), so a label is one sha256_compress over 20 blocks.
#include "filecoin/porep/labels.hpp"

#include <cstring>

#include "filecoin/hash/sha256_trunc254.hpp"

namespace cuzk::filecoin::porep {

namespace {

constexpr size_t PREFIX_BYTES = 64;
constexpr size_t MESSAGE_BYTES = PREFIX_BYTES + LABEL_PARENT_SLOTS * 32;  // 1248
constexpr size_t BUFFER_BYTES = 20 * 64;                                  // 1280

void write_prefix(uint8_t* p, const bytes32_t& replica_id, unsigned layer, uint64_t node) {
  std::memcpy(p, replica_id.data(), 32);
  for (int i = 0; i < 4; ++i) p[32 + i] = uint8_t(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) p[36 + i] = uint8_t(node >> (56 - 8 * i));
  std::memset(p + 44, 0, 20);
}

bytes32_t digest_of_state(const uint32_t st[8]) {
  bytes32_t out;
  for (int i = 0; i < 8; ++i)
    for (int b = 0; b < 4; ++b) out[4 * i + b] = uint8_t(st[i] >> (24 - 8 * b));
  hash::trim_to_fr32(out);
  return out;
}

// The message buffer of one labeling: prefix, 37 slots, SHA padding for a 1248-byte message.
struct label_buffer {
  alignas(64) uint8_t b[BUFFER_BYTES];
  label_buffer() {
    std::memset(b, 0, sizeof(b));
    b[MESSAGE_BYTES] = 0x80;
    const uint64_t bits = uint64_t(MESSAGE_BYTES) * 8;
    for (int i = 0; i < 8; ++i) b[BUFFER_BYTES - 1 - i] = uint8_t(bits >> (8 * i));
  }
  uint8_t* slot(size_t i) { return b + PREFIX_BYTES + 32 * i; }
  bytes32_t hash() const {
    uint32_t st[8];
    std::memcpy(st, cuzk::hash::SHA256_IV.data(), sizeof(st));
    cuzk::hash::sha256_compress(st, b, 20);
    return digest_of_state(st);
  }
};

}  // namespace

std::array<bytes32_t, LABEL_PARENT_SLOTS> label_parent_slots(const sdr_labels_t& labels,
                                                             unsigned layer,
                                                             const uint32_t* parents) {
  // Slot s holds base parent s mod base: layer 1 repeats the 6 DRG parents (chunks 6 × 6, then
  // 1); layers ≥ 2 repeat all 14 (chunks 14, 14, 9).
  std::array<bytes32_t, LABEL_PARENT_SLOTS> slots;
  const unsigned base = layer == 1 ? DRG_DEGREE : PARENT_COUNT;
  for (size_t s = 0; s < LABEL_PARENT_SLOTS; ++s) {
    const unsigned p = unsigned(s % base);
    slots[s] = p < DRG_DEGREE ? labels.at(layer, parents[p]) : labels.at(layer - 1, parents[p]);
  }
  return slots;
}

bytes32_t label_from_slots(const bytes32_t& replica_id, unsigned layer, uint64_t node,
                           std::span<const bytes32_t, LABEL_PARENT_SLOTS> slots) {
  label_buffer buf;
  write_prefix(buf.b, replica_id, layer, node);
  for (size_t s = 0; s < LABEL_PARENT_SLOTS; ++s) std::memcpy(buf.slot(s), slots[s].data(), 32);
  return buf.hash();
}

bytes32_t label_node_zero(const bytes32_t& replica_id, unsigned layer) {
  // A 64-byte message: the prefix block, then a padding block with bit length 512.
  alignas(64) uint8_t b[128] = {};
  write_prefix(b, replica_id, layer, 0);
  b[64] = 0x80;
  b[126] = 0x02;  // 512 = 0x0200
  uint32_t st[8];
  std::memcpy(st, cuzk::hash::SHA256_IV.data(), sizeof(st));
  cuzk::hash::sha256_compress(st, b, 2);
  return digest_of_state(st);
}

sdr_labels_t compute_labels(const bytes32_t& replica_id, const parent_cache& parents,
                            unsigned layers) {
  sdr_labels_t L;
  L.nodes = parents.nodes();
  L.layers = layers;
  L.data.resize(size_t(layers) * L.nodes);
  label_buffer buf;
  for (unsigned layer = 1; layer <= layers; ++layer) {
    bytes32_t* cur = L.data.data() + size_t(layer - 1) * L.nodes;
    const bytes32_t* prev = layer > 1 ? cur - L.nodes : nullptr;
    cur[0] = label_node_zero(replica_id, layer);
    const unsigned base = layer == 1 ? DRG_DEGREE : PARENT_COUNT;
    for (uint64_t v = 1; v < L.nodes; ++v) {
      const uint32_t* p = parents.parents(v);
      write_prefix(buf.b, replica_id, layer, v);
      // The first `base` slots gathered, the rest copied from them (slot s = slot s mod base).
      for (unsigned s = 0; s < base; ++s)
        std::memcpy(buf.slot(s), (s < DRG_DEGREE ? cur[p[s]] : prev[p[s]]).data(), 32);
      for (size_t s = base; s < LABEL_PARENT_SLOTS; ++s)
        std::memcpy(buf.slot(s), buf.slot(s % base), 32);
      cur[v] = buf.hash();
    }
  }
  return L;
}

}  // namespace cuzk::filecoin::porep
