// SPDX-License-Identifier: Apache-2.0
// Synthetic vanilla proofs: a self-consistent C1 output for a sector that is never sealed, of any
// size (32/64 GiB included), for exercising and benchmarking C2. The sector is a CC sector (all
// data zero, so comm_d is the real zero-sector commitment and replica_id is derived exactly as
// docs/spec/porep.md §2); the interactive challenges follow from replica_id and seed (§6). Only the
// nodes the proofs touch get real values: each challenged node's labels are the true SDR hashes of
// its parents' labels; labels of parents that are not themselves challenged are pseudo-random; all
// other nodes carry a default label. tree_c / tree_r_last / tree_d are sparse: real values on
// the proven paths, every other subtree the root of an all-default subtree (one value per level).
// Every Merkle path verifies, comm_r = Poseidon_2(comm_c, comm_r_last), so the circuit witness
// is satisfiable. docs/notes/c1-formats.md.
#pragma once

#include <cstdint>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/vanilla_proof.hpp"

namespace cuzk::filecoin::porep {

struct synthetic_request_t {
  porep_config_t config;  ///< interactive configs only (no SyntheticPoRep / NI feature)
  bytes32_t prover_id{};
  uint64_t sector_id = 0;
  bytes32_t ticket{};
  bytes32_t seed{};
};

/// Where the time goes (seconds) and how much was built.
struct synthetic_stats_t {
  double challenges = 0, labels = 0, trees = 0, proofs = 0;
  size_t real_columns = 0;     ///< distinct nodes with a column proof (challenges + parents)
  size_t poseidon_hashes = 0;  ///< column hashes + sparse tree nodes
  double total() const { return challenges + labels + trees + proofs; }
};

/// The pseudo-random label of a node that is not challenged: SHA256-trunc254(
/// "cuzk/synthetic/label" ‖ replica_id ‖ layer u32 LE ‖ node u64 LE).
bytes32_t synthetic_label(const bytes32_t& replica_id, unsigned layer, uint64_t node);
/// The label every untouched node has: SHA256-trunc254("cuzk/synthetic/default" ‖ replica_id).
bytes32_t synthetic_default_label(const bytes32_t& replica_id);

/// Builds the C1 output (registered_proof from config.proof; empty for a custom config).
/// invalid_argument for a SyntheticPoRep / NonInteractivePoRep config: their challenges depend
/// on comm_r, which depends on the proven paths.
result<c1_output_t> generate_synthetic_c1(const synthetic_request_t& req,
                                          thread_pool& pool = thread_pool::default_pool(),
                                          synthetic_stats_t* stats = nullptr);

}  // namespace cuzk::filecoin::porep
