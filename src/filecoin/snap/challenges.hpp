// SPDX-License-Identifier: Apache-2.0
// SnapDeals randomness and challenges (docs/spec/snap.md §3; storage-proofs-update challenges.rs,
// vanilla.rs phi/rho). H_R is Poseidon arity 2 with the custom domain tag 1·2^40
// (HashType::Custom(Arbitrary(1)), neptune ≥ 11):
//  * phi = H_R(comm_d_new, comm_r_old);
//  * rho(high) = H_R(phi, high), high = the top h bits of a node index;
//  * the challenges of partition k: digest d_j = H_R(comm_r_new, k·D + j); challenge i of a digest
//    is bits [i·b, (i + 1)·b) of d_j (LE, b = L − p), OR-ed with k << b; unused ones are dropped.
#pragma once

#include <cstdint>
#include <vector>

#include "ff/fields.hpp"
#include "filecoin/snap/config.hpp"

namespace cuzk::filecoin::snap {

using ff::fr_t;

/// H_R(a, b): Poseidon arity 2, tag 2^40.
fr_t hash_randomness(const fr_t& a, const fr_t& b);
/// phi = H_R(comm_d_new, comm_r_old).
fr_t phi(const fr_t& comm_d_new, const fr_t& comm_r_old);
/// rho of the nodes whose top h bits are `high`: H_R(phi, high).
fr_t rho(const fr_t& phi, uint64_t high);
/// The top h bits of node `node` (node >> (L − h)).
inline uint64_t rho_high(const update_config_t& c, uint64_t node) {
  return node >> (c.node_bits - c.h);
}

/// The c.challenges node indices of partition k (all in [k·N/P, (k + 1)·N/P)).
std::vector<uint64_t> partition_challenges(const update_config_t& c, const fr_t& comm_r_new,
                                           unsigned k);

}  // namespace cuzk::filecoin::snap
