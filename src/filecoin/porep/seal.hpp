// SPDX-License-Identifier: Apache-2.0
// Sealing a small sector (docs/spec/porep.md §2–§5): payload (or zeros) → Fr32 padding → tree_d
// (binary SHA256-trunc254, root comm_d) → replica_id → SDR labels → encoding (replica node =
// label_L + data node in Fr) → tree_c over column hashes (Poseidon_L with the MerkleTree tag)
// and tree_r_last over the replica (sector shape, Poseidon arity 8) → comm_r = Poseidon_2(comm_c,
// comm_r_last). Everything stays in memory (≈ (L + 4)·sector bytes), so sizes are capped at
// 512 MiB; the state is what vanilla_prove.hpp opens the challenges from.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/common/replica.hpp"
#include "filecoin/hash/merkle.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/labels.hpp"
#include "filecoin/porep/parent_cache.hpp"

namespace cuzk::filecoin::porep {

/// Largest sector seal_sector accepts (memory: labels, trees and parents all held).
inline constexpr uint64_t MAX_SEAL_SECTOR_BYTES = common::MAX_IN_MEMORY_SECTOR_BYTES;

/// What identifies one sealing: the config (size, version, feature, porep_id), the prover, the
/// sector number and the ticket.
struct seal_request_t {
  porep_config_t config;
  bytes32_t prover_id{};
  uint64_t sector_id = 0;
  bytes32_t ticket{};
};

/// Wall-clock seconds of each sealing phase.
struct seal_timings_t {
  double parents = 0, tree_d = 0, labels = 0, tree_c = 0, tree_r_last = 0;
  double total() const { return parents + tree_d + labels + tree_c + tree_r_last; }
};

/// A sealed sector and every intermediate the vanilla proofs open.
struct sealed_sector_t {
  seal_request_t request;
  bytes32_t replica_id{};
  bytes32_t comm_d{};       ///< tree_d root
  bytes32_t comm_c{};       ///< tree_c root
  bytes32_t comm_r_last{};  ///< tree_r_last root
  bytes32_t comm_r{};       ///< Poseidon_2(comm_c, comm_r_last)
  parent_cache parents;
  hash::sha256_tree tree_d;         ///< leaves: the Fr32-padded sector data
  sdr_labels_t labels;              ///< layers 1..L
  hash::poseidon_tree tree_c;       ///< leaves: column hashes
  hash::poseidon_tree tree_r_last;  ///< leaves: replica nodes
  seal_timings_t timings;

  const porep_config_t& config() const { return request.config; }
  std::span<const ff::fr_t> replica() const { return tree_r_last.leaves(); }
  /// The sector as PoSt proves it and SnapDeals updates it (filecoin/common/replica.hpp),
  /// borrowed; implicit, as replica_t's.
  operator common::replica_view_t() const {
    return {request.sector_id, comm_c, comm_r_last, comm_r, tree_r_last};
  }
};

/// Column hash of node v: Poseidon_L(label(1, v) … label(L, v)), tag 2^L − 1 (arity L = 2 or 11).
ff::fr_t column_hash(const sdr_labels_t& labels, uint64_t v);
/// The same from the rows of a column (as stored in a ColumnProof); false if a row is ≥ r.
bool column_hash(std::span<const bytes32_t> rows, ff::fr_t& out);

/// Seals an unpadded payload (at most sector·127/128 bytes; empty = a CC sector), zero-extended
/// to the sector. invalid_argument for an oversized payload or sector.
result<sealed_sector_t> seal_sector(const seal_request_t& req, std::span<const uint8_t> payload,
                                    thread_pool& pool = thread_pool::default_pool());
/// Seals already padded sector data: exactly nodes leaves, each a canonical Fr (else
/// non_canonical naming the node).
result<sealed_sector_t> seal_padded_sector(const seal_request_t& req,
                                           std::vector<hash::bytes32_t> leaves,
                                           thread_pool& pool = thread_pool::default_pool());

/// Writes the sealed state to `dir` (created if missing), rust-fil-proofs cache names:
///   unsealed                    the Fr32-padded sector data (tree_d leaves)
///   sealed                      the replica, nodes × 32-byte LE Fr
///   sc-02-data-tree-d.dat       tree_d, all levels from the leaves up, 32 bytes a node
///   sc-02-data-tree-c.dat       tree_c, same layout (mixed-arity levels for compound shapes)
///   sc-02-data-tree-r-last.dat  tree_r_last (all levels; rust keeps only the top rows)
///   sc-02-data-layer-<l>.dat    labels of layer l
///   p_aux                       comm_c ‖ comm_r_last (64 bytes, the bincode PersistentAux)
/// io_error on failure.
status write_sealed_sector(const sealed_sector_t& s, const std::string& dir);

}  // namespace cuzk::filecoin::porep
