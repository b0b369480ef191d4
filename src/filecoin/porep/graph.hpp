// SPDX-License-Identifier: Apache-2.0
// The SDR parent graph (docs/spec/porep.md §3): a BucketGraph DRG of degree 6 (ChaCha8 bucket
// sampling) stacked with a Feistel-permutation expander of degree 8 (Blake2b-512 round function, 3
// rounds, cycle walking). parents(v) = [6 DRG parents, 8 expander parents]. V1_0 and V1_1 differ in
// the DRG slot order and in a u32 truncation of the Feistel output. docs/notes/porep-graph.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "filecoin/porep/config.hpp"

namespace cuzk::filecoin::porep {

inline constexpr unsigned DRG_DEGREE = 6;      ///< BASE_DEGREE (5 random parents + v − 1)
inline constexpr unsigned EXP_DEGREE = 8;      ///< EXP_DEGREE
inline constexpr unsigned PARENT_COUNT = 14;   ///< DRG_DEGREE + EXP_DEGREE
inline constexpr unsigned TOTAL_PARENTS = 37;  ///< parent slots in one label hash (porep.md §4)

using drg_seed_t = std::array<uint8_t, 28>;
using feistel_keys_t = std::array<uint64_t, 4>;

/// drg_seed = SHA256("Filecoin_DRSample" ‖ porep_id)[0..28].
drg_seed_t derive_drg_seed(const porep_id_t& porep_id);
/// SHA256("Filecoin_Feistel" ‖ porep_id) read as 4 × u64 LE (rounds use keys[0..3]).
feistel_keys_t derive_feistel_keys(const porep_id_t& porep_id);

/// The Feistel permutation of [0, n) (crypto/feistel.rs): a balanced network over 2k bits with
/// 4^k ≥ n, cycle-walked back into [0, n).
class feistel_t {
 public:
  feistel_t() = default;
  feistel_t(uint64_t n, const feistel_keys_t& keys);
  /// One 3-round network pass over 2·half_bits bits (may land ≥ n).
  uint64_t encode(uint64_t x) const;
  /// encode, repeated while the result is ≥ n. Precondition: x < n.
  uint64_t permute(uint64_t x) const;
  uint64_t n() const { return n_; }
  unsigned half_bits() const { return half_bits_; }

 private:
  uint64_t round_fn(uint64_t r, uint64_t key) const;

  uint64_t n_ = 0;
  unsigned half_bits_ = 0;
  uint64_t right_mask_ = 0, left_mask_ = 0;
  feistel_keys_t keys_{};
};

/// The stacked SDR graph of one sector size and porep_id. Immutable after construction, so
/// parents() may be called from any number of threads.
class sdr_graph {
 public:
  /// nodes ≥ 2 and ≤ 2^32 (precondition; porep configs always satisfy it).
  sdr_graph(uint64_t nodes, const porep_id_t& porep_id, graph_version version);
  explicit sdr_graph(const porep_config_t& cfg)
      : sdr_graph(cfg.nodes(), cfg.porep_id, cfg.graph()) {}

  uint64_t nodes() const { return nodes_; }
  graph_version version() const { return version_; }
  const porep_id_t& porep_id() const { return porep_id_; }
  const drg_seed_t& drg_seed() const { return drg_seed_; }
  const feistel_keys_t& feistel_keys() const { return feistel_keys_; }
  const feistel_t& feistel() const { return feistel_; }

  /// The 6 DRG parents of v in slot order (all 0 for v < 2).
  void drg_parents(uint64_t v, uint32_t out[DRG_DEGREE]) const;
  /// The 8 expander parents of v.
  void exp_parents(uint64_t v, uint32_t out[EXP_DEGREE]) const;
  /// All 14: DRG then expander. Precondition: v < nodes.
  void parents(uint64_t v, uint32_t out[PARENT_COUNT]) const {
    drg_parents(v, out);
    exp_parents(v, out + DRG_DEGREE);
  }
  std::array<uint32_t, PARENT_COUNT> parents(uint64_t v) const {
    std::array<uint32_t, PARENT_COUNT> p;
    parents(v, p.data());
    return p;
  }

  /// graph.identifier(): "stacked_graph::StackedGraph{expansion_degree: 8 base_graph:
  /// drgraph::BucketGraph{size: N; degree: 6; hasher: poseidon_hasher} }".
  std::string identifier() const;
  /// "v28-sdr-parent-<hex>" where hex = SHA256("poseidon_hasher" ‖ identifier ‖ 4 feistel keys
  /// u64 LE ‖ nodes u32 LE). The file name adds ".cache"; parent_cache.json keys omit it.
  std::string parent_cache_id() const;
  std::string parent_cache_file_name() const { return parent_cache_id() + ".cache"; }

 private:
  uint64_t nodes_;
  graph_version version_;
  porep_id_t porep_id_;
  drg_seed_t drg_seed_;
  feistel_keys_t feistel_keys_;
  feistel_t feistel_;
};

}  // namespace cuzk::filecoin::porep
