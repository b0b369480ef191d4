// SPDX-License-Identifier: Apache-2.0
// SDR labeling (docs/spec/porep.md §4, create_label/single.rs): label(l, v) = SHA256-trunc254(
// replica_id ‖ l u32 BE ‖ v u64 BE ‖ 20 zero bytes ‖ 37 parent labels). Layer 1 hashes its 6 DRG
// parents (same layer) ×6 then DRG 0; layers ≥ 2 hash the 6 DRG parents (this layer) and the
// 8 expander parents (layer l − 1), ×2, then the first 9. Node 0 hashes the 64-byte prefix only.
// Cost: 20 SHA-256 compressions per node and layer (64 + 1184 bytes + padding).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/porep/config.hpp"
#include "filecoin/porep/parent_cache.hpp"

namespace cuzk::filecoin::porep {

inline constexpr size_t LABEL_PARENT_SLOTS = 37;  ///< TOTAL_PARENTS

/// Every label of every layer, layer-major: at(l, v) for l in [1, layers], v < nodes.
/// Memory: layers · nodes · 32 bytes.
struct sdr_labels_t {
  uint64_t nodes = 0;
  unsigned layers = 0;
  std::vector<bytes32_t> data;

  std::span<const bytes32_t> layer(unsigned l) const {
    return {data.data() + (l - 1) * nodes, size_t(nodes)};
  }
  const bytes32_t& at(unsigned l, uint64_t v) const { return data[(l - 1) * nodes + v]; }
};

/// The 37 parent-label slots that label(l, v) hashes, from labels already computed (the same
/// layer for DRG parents, layer l − 1 for expander parents). `parents` = the 14 parents of v.
/// Used both by labeling and by the labeling proofs.
std::array<bytes32_t, LABEL_PARENT_SLOTS> label_parent_slots(const sdr_labels_t& labels,
                                                             unsigned layer,
                                                             const uint32_t* parents);

/// label(layer, node) from its 37 parent slots (what a labeling proof's verify recomputes).
bytes32_t label_from_slots(const bytes32_t& replica_id, unsigned layer, uint64_t node,
                           std::span<const bytes32_t, LABEL_PARENT_SLOTS> slots);
/// label(layer, 0): the prefix block alone.
bytes32_t label_node_zero(const bytes32_t& replica_id, unsigned layer);

/// All layers of a replica. Within a layer every node depends on its DRG parents in the same
/// layer (v − 1 among them), so the hash chain is sequential; the work per node is the 20
/// compressions and a 1.2 KB gather, about 1–2 µs with SHA-NI (8 MiB, 2 layers: ~1 s).
sdr_labels_t compute_labels(const bytes32_t& replica_id, const parent_cache& parents,
                            unsigned layers);

}  // namespace cuzk::filecoin::porep
