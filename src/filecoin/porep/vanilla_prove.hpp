// SPDX-License-Identifier: Apache-2.0
// Vanilla SDR proofs from a sealed sector (docs/spec/porep.md §4–§6, c1.md §1;
// stacked/vanilla/proof.rs prove_layers): per challenge the tree_d opening (comm_d_proofs), the
// tree_r_last opening, the columns of the node and its 6 DRG + 8 expander parents with their tree_c
// openings, one labeling proof per layer (37 parent slots) and the encoding proof (= the last
// labeling proof). Also the native verifier of such proofs, used by the tests and for any C1
// (sealed or synthetic).
#pragma once

#include <cstdint>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_proof.hpp"

namespace cuzk::filecoin::porep {

/// The proof of one challenge (1 ≤ challenge < nodes; precondition).
challenge_proof_t prove_challenge(const sealed_sector_t& s, uint64_t challenge);

/// vanilla_proofs[k][i] for every partition k of the config and its challenges (interactive,
/// synthetic selection or non-interactive, challenges.hpp), proved over the pool.
std::vector<std::vector<challenge_proof_t>> prove_partitions(
    const sealed_sector_t& s, const bytes32_t& seed,
    thread_pool& pool = thread_pool::default_pool());

/// The SealCommitPhase1Output of a sealed sector and a seed. invalid_argument when the config
/// has no registered proof (C1 names it).
result<c1_output_t> seal_commit_phase1(const sealed_sector_t& s, const bytes32_t& seed,
                                       thread_pool& pool = thread_pool::default_pool());

/// Public values one challenge proof is checked against.
struct challenge_publics_t {
  bytes32_t replica_id{};
  bytes32_t comm_d{};
  bytes32_t comm_c{};
  bytes32_t comm_r_last{};
  uint64_t challenge = 0;
};

/// Checks everything a vanilla verifier can: each Merkle path recomputes its root (comm_d,
/// comm_r_last, comm_c) at the right leaf index (challenge, or the graph's parents); column
/// leaves are the column hashes of their rows; every labeling proof's slots are the parents'
/// rows, and hashing them gives the challenged column's row; the encoding proof repeats the last
/// one and replica leaf = label_L + data leaf in Fr. The first failure is returned, naming it.
status verify_challenge_proof(const challenge_proof_t& p, const sdr_graph& g, unsigned layers,
                              const hash::tree_shape& tree_r_shape, const challenge_publics_t& pub);

/// Checks a whole C1 output for cfg: partition and challenge counts, comm_r = Poseidon_2(comm_c,
/// comm_r_last) with comm_c / comm_r_last the roots its proofs open (the same in every proof),
/// the challenges re-derived from replica_id, seed and comm_r, and verify_challenge_proof on each
/// (in parallel on `pool`; the first failure in partition order is reported).
status verify_c1_output(const c1_output_t& c1, const porep_config_t& cfg,
                        thread_pool& pool = thread_pool::default_pool());

}  // namespace cuzk::filecoin::porep
