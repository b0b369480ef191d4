// SPDX-License-Identifier: Apache-2.0
// A synthetic SnapDeals update: the PartitionProofs and commitments of a sector key and new data
// that are never written out, of any size (32/64 GiB included), for exercising and benchmarking
// the update prover. The challenges come from comm_r_new, so the trees' roots must be known
// before anyone knows which nodes are proven: the sector key and the data are constant over
// aligned blocks of 2^block_bits nodes (hash::block_tree; a pseudo-random key value and
// data value per block), with block_bits ≤ L − h so each block has one rho. The new replica is then
// also constant per block (key + data·rho), and every tree is hashed once per block and level
// inside it plus once per node above the blocks. Up to 2^16 blocks (32 GiB: blocks of 2^14
// nodes, ≈ 0.5 M Poseidon-8 and 1 M SHA-256 nodes); sizes of ≤ 2^16 nodes get one block per node,
// i.e. a fully random sector. Everything is exact: comm_d_new, phi, rho, the encoding, comm_r_old
// and comm_r_new follow docs/spec/snap.md §3, and every proof passes validate_partition_proofs.
// Values: SHA256-trunc254("cuzk/synthetic/snap/<what>" ‖ seed u64 LE ‖ block u64 LE).
#pragma once

#include <cstdint>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/vanilla_prove.hpp"

namespace cuzk::filecoin::snap {

/// log2 of the most blocks a synthetic update uses.
inline constexpr unsigned SYNTHETIC_MAX_BLOCK_COUNT_BITS = 16;

struct synthetic_update_t {
  update_commitments_t commitments;
  /// The serialized PartitionProofs of every partition, in order (Curio's vanilla_proofs).
  std::vector<std::vector<uint8_t>> partition_proofs;
  unsigned block_bits = 0;  ///< nodes per constant block: 2^block_bits
  size_t poseidon_hashes = 0, sha256_hashes = 0;
};

/// The update of config's size from `seed`.
result<synthetic_update_t> generate_synthetic_update(
    const update_config_t& config, uint64_t seed, thread_pool& pool = thread_pool::default_pool());

}  // namespace cuzk::filecoin::snap
