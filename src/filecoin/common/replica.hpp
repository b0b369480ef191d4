// SPDX-License-Identifier: Apache-2.0
// A sealed sector as PoSt proves it and SnapDeals updates it: its number, comm_c, comm_r_last,
// comm_r = Poseidon_2(comm_c, comm_r_last) (docs/spec/porep.md §5) and tree_r_last over the
// replica. Read from the directory `cuzk porep seal` writes (porep::write_sealed_sector:
// the replica `sealed`, nodes × 32-byte LE Fr, and `p_aux` = comm_c ‖ comm_r_last), or borrowed
// from a sector sealed in memory (porep::sealed_sector_t converts to a replica_view_t).
// Everything is held in memory, so sizes are capped at MAX_IN_MEMORY_SECTOR_BYTES.
#pragma once

#include <cstdint>
#include <string>

#include "cuzk/status.hpp"
#include "filecoin/common/sector.hpp"
#include "filecoin/hash/merkle.hpp"

namespace cuzk::filecoin::common {

/// Largest sector held whole in memory: sealing, opening a replica, encoding an update (labels,
/// trees and parents all held).
inline constexpr uint64_t MAX_IN_MEMORY_SECTOR_BYTES = 512 * MiB;

/// A sealed sector's replica and commitments, owned.
struct replica_t {
  uint64_t sector_id = 0;
  bytes32_t comm_c{};
  bytes32_t comm_r_last{};
  bytes32_t comm_r{};  ///< Poseidon_2(comm_c, comm_r_last)
  hash::poseidon_tree tree_r_last;
};

/// The same, borrowed (what the PoSt and SnapDeals provers read): from a replica_t, or from a
/// sector sealed in memory, which keeps its tree (porep::sealed_sector_t converts to it).
struct replica_view_t {
  uint64_t sector_id = 0;
  const bytes32_t& comm_c;
  const bytes32_t& comm_r_last;
  const bytes32_t& comm_r;
  const hash::poseidon_tree& tree_r_last;

  replica_view_t(uint64_t id, const bytes32_t& c, const bytes32_t& r_last, const bytes32_t& r,
                 const hash::poseidon_tree& tree)
      : sector_id(id), comm_c(c), comm_r_last(r_last), comm_r(r), tree_r_last(tree) {}
  replica_view_t(const replica_t& r)  // implicit, as std::string to std::string_view
      : replica_view_t(r.sector_id, r.comm_c, r.comm_r_last, r.comm_r, r.tree_r_last) {}
};

/// Opens the sealed sector in `dir` (files `sealed` and `p_aux`) as sector `sector_id` whose
/// tree_r_last has shape `tree_r_last` (its leaves fix the sector size): invalid_argument above
/// MAX_IN_MEMORY_SECTOR_BYTES, io_error / bad_length for missing or mis-sized files,
/// non_canonical for a replica node ≥ r, invalid_argument when the rebuilt tree_r_last root is not
/// p_aux's comm_r_last.
result<replica_t> open_replica(const hash::tree_shape& tree_r_last, const std::string& dir,
                               uint64_t sector_id);

}  // namespace cuzk::filecoin::common
