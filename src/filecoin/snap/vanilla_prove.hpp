// SPDX-License-Identifier: Apache-2.0
// SnapDeals vanilla PartitionProofs (docs/spec/snap.md §4, §8; storage-proofs-update vanilla.rs
// prove / verify): generation from an updated sector held in memory, and the checks a vanilla
// verifier makes before a proof is built from them (Curio does not check what it gets back, so
// cuzk checks what it is given): shapes, every path, the challenges, the encoding of each
// challenged node, the apex leaves against comm_d_new.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/snap/challenges.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/encode.hpp"
#include "filecoin/snap/vanilla_proof.hpp"

namespace cuzk::filecoin::snap {

/// What the verifier knows of an update (the public inputs besides k).
struct update_commitments_t {
  bytes32_t comm_r_old{};
  bytes32_t comm_r_new{};
  bytes32_t comm_d_new{};
};

inline update_commitments_t commitments_of(const updated_sector_t& s) {
  return {s.comm_r_old, s.comm_r_new, s.comm_d_new};
}

/// {"comm_r_old":"<64 hex>","comm_r_new":"…","comm_d_new":"…"}: the commitments file written
/// beside a vanilla file (`cuzk snap encode`, `cuzk-bench gen-vanilla snap-prove`), so a client can
/// send the raw 32-byte commitments of a SNAP_DEALS_UPDATE request.
std::string commitments_json(const update_commitments_t& c);
/// The same back: exactly those three fields (in any order), each 64 hex digits; errors name the
/// field.
result<update_commitments_t> parse_commitments_json(std::string_view json);

/// The PartitionProof of partition k < config.partitions: the apex leaves [k·A, (k + 1)·A) of
/// tree_d_new's row at height L − p − a and, per challenge of k, the openings of the challenged
/// node in tree_r_old, tree_d_new and tree_r_new.
result<partition_proof_t> prove_partition(const updated_sector_t& s, unsigned k);

/// The same from any trees that give path(node) in hash::merkle_path form (stored trees,
/// or hash::block_tree for a synthetic sector); d_node(level, i) is tree_d_new's node i
/// of `level`. k < c.partitions is the caller's to check.
template <class TreeR, class TreeD, class DNode>
partition_proof_t build_partition_proof(const update_config_t& c, const bytes32_t& comm_c,
                                        const ff::fr_t& comm_r_new, const TreeR& tree_r_old,
                                        const TreeD& tree_d_new, const TreeR& tree_r_new,
                                        const DNode& d_node, unsigned k) {
  partition_proof_t p;
  p.comm_c = comm_c;
  const unsigned apex_level = c.tree_d_levels_below_apex();
  for (uint64_t i = uint64_t(k) * c.apex_leaves; i < uint64_t(k + 1) * c.apex_leaves; ++i)
    p.apex_leafs.push_back(d_node(apex_level, i));
  for (uint64_t node : partition_challenges(c, comm_r_new, k)) {
    challenge_proof_t& cp = p.challenge_proofs.emplace_back();
    cp.proof_r_old = common::make_merkle_proof(c.tree_r, tree_r_old.path(node));
    cp.proof_d_new = common::make_merkle_proof(c.tree_d, tree_d_new.path(node));
    cp.proof_r_new = common::make_merkle_proof(c.tree_r, tree_r_new.path(node));
  }
  return p;
}

/// The serialized PartitionProofs of every partition, in partition order: what Curio sends as a
/// SNAP_DEALS_UPDATE request's vanilla_proofs.
std::vector<std::vector<uint8_t>> prove_all_partitions(const updated_sector_t& s);

/// The layout the circuit relies on: A apex leaves, `challenges` challenge proofs, each r proof of
/// the tree_r shape and each d proof Single over the binary tree_d. Errors name the challenge.
status check_partition_proof_shape(const update_config_t& c, const partition_proof_t& p);

/// Everything a vanilla verifier checks of partition k: the shape; every value canonical; every
/// path's leaf index equals the derived challenge and every path hashes to its root; the
/// proof_r_old roots agree and Poseidon_2(comm_c, root) = comm_r_old (the same for new);
/// proof_d_new's roots are comm_d_new; leaf_r_new = leaf_r_old + leaf_d_new·rho; the node at
/// the apex height of each d path is its apex leaf; the last p d siblings agree across challenges;
/// the apex tree with that partition path hashes to comm_d_new. Errors name the challenge.
status validate_partition_proof(const update_config_t& c, const update_commitments_t& comms,
                                unsigned k, const partition_proof_t& p);

/// validate_partition_proof on each proof, proof k as partition k; the count must be P. The
/// partitions are checked in parallel on `pool`; the error reported is the lowest partition's.
status validate_partition_proofs(const update_config_t& c, const update_commitments_t& comms,
                                 std::span<const partition_proof_t> proofs,
                                 thread_pool& pool = thread_pool::default_pool());

}  // namespace cuzk::filecoin::snap
