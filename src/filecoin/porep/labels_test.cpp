// SPDX-License-Identifier: Apache-2.0
// SDR labels against rust-fil-proofs' hard-coded last labels (create_label/multi.rs
// test_create_labels: 11 layers, replica_id [9; 32], 2 KiB and 4 KiB, porep_id [0; 32] with V1_0
// and [123; 32] with V1_1), and label_from_slots / label_parent_slots against compute_labels.
#include "filecoin/porep/labels.hpp"

#include <gtest/gtest.h>

#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/parent_cache.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::porep {
namespace {

bytes32_t from_u64s_le(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  bytes32_t out;
  const uint64_t w[4] = {a, b, c, d};
  for (int i = 0; i < 32; ++i) out[i] = uint8_t(w[i / 8] >> (8 * (i % 8)));
  return out;
}

bytes32_t last_label(uint64_t sector_bytes, uint8_t porep_byte, graph_version v) {
  porep_id_t porep_id;
  porep_id.fill(porep_byte);
  bytes32_t replica_id;
  replica_id.fill(9);
  const sdr_graph g(sector_bytes / 32, porep_id, v);
  const parent_cache pc = parent_cache::generate(g);
  const sdr_labels_t L = compute_labels(replica_id, pc, 11);
  return L.at(11, L.nodes - 1);
}

TEST(labels, rust_create_labels_vectors) {
  EXPECT_EQ(
      last_label(2048, 0, graph_version::v1_0),
      from_u64s_le(0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37));
  EXPECT_EQ(
      last_label(4096, 0, graph_version::v1_0),
      from_u64s_le(0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be));
  EXPECT_EQ(
      last_label(2048, 123, graph_version::v1_1),
      from_u64s_le(0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5));
  EXPECT_EQ(
      last_label(4096, 123, graph_version::v1_1),
      from_u64s_le(0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd));
}

TEST(labels, slots_recompute_every_label) {
  auto rng = test::test_rng::from_env("labels");
  bytes32_t replica_id;
  for (auto& b : replica_id) b = uint8_t(rng());
  replica_id[31] &= 0x3f;
  porep_id_t porep_id{};
  porep_id[0] = 5;
  const sdr_graph g(64, porep_id, graph_version::v1_1);
  const parent_cache pc = parent_cache::generate(g);
  const sdr_labels_t L = compute_labels(replica_id, pc, 3);
  for (unsigned l = 1; l <= 3; ++l) {
    EXPECT_EQ(L.at(l, 0), label_node_zero(replica_id, l));
    for (uint64_t v = 1; v < 64; ++v) {
      const auto slots = label_parent_slots(L, l, pc.parents(v));
      EXPECT_EQ(label_from_slots(replica_id, l, v, slots), L.at(l, v)) << l << " " << v;
      // Slot layout: layer 1 = DRG ×6 + DRG 0; layers ≥ 2 = 14 ×2 + first 9.
      const unsigned base = l == 1 ? 6 : 14;
      for (size_t s = 0; s < LABEL_PARENT_SLOTS; ++s) EXPECT_EQ(slots[s], slots[s % base]);
    }
    for (uint64_t v = 0; v < 64; ++v) EXPECT_EQ(L.at(l, v)[31] & 0xc0, 0);
  }
}

}  // namespace
}  // namespace cuzk::filecoin::porep
