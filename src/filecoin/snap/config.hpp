// SPDX-License-Identifier: Apache-2.0
// Registered update proofs and the per-size EmptySectorUpdate constants (docs/spec/snap.md §1,
// §2; storage-proofs-update constants.rs): RegisteredUpdateProof StackedDrg{2KiB … 64GiB}V1 =
// wire 0..4, and per sector size the partitions, challenges, challenge bits, digests, apex leaves,
// the h values and h_select, the tree_r shape. The rules are functions of the node count, so the
// upstream test sizes (1 KiB … 32 KiB, their tree_r shapes given explicitly) use the same code.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "cuzk/status.hpp"
#include "filecoin/common/sector.hpp"
#include "filecoin/hash/merkle.hpp"

namespace cuzk::filecoin::snap {

using common::bytes32_t;

/// abi.RegisteredUpdateProof (go-state-types abi/sector.go): the gRPC registered_proof of
/// SNAP_DEALS_UPDATE.
enum class registered_update_proof : uint32_t {
  stacked_drg_2kib_v1 = 0,
  stacked_drg_8mib_v1 = 1,
  stacked_drg_512mib_v1 = 2,
  stacked_drg_32gib_v1 = 3,
  stacked_drg_64gib_v1 = 4,
};
inline constexpr uint32_t NUM_REGISTERED_UPDATE_PROOFS = 5;

inline uint32_t id_of(registered_update_proof p) {
  return uint32_t(p);
}
/// "StackedDrg2KiBV1" … "StackedDrg64GiBV1": the Rust variant name, which is also the Go
/// constant's name after its "RegisteredUpdateProof_" prefix.
std::string_view name_of(registered_update_proof p);
/// "RegisteredUpdateProof_StackedDrg32GiBV1" (the Go constant).
std::string go_name_of(registered_update_proof p);
result<registered_update_proof> registered_update_proof_from_id(uint64_t id);
/// From a decimal wire number, the Rust name or the Go constant (with or without its prefix).
result<registered_update_proof> parse_registered_update_proof(std::string_view name_or_id);
uint64_t sector_size_of(registered_update_proof p);

/// Number of h values (and h_select bits) of every size.
inline constexpr unsigned H_SELECT_BITS = 6;
/// Index of h_default in hs (constants.rs: h_default = hs[3]).
inline constexpr unsigned H_DEFAULT_INDEX = 3;

/// Everything an update of one sector size fixes. With N nodes: L = log2 N, P partitions
/// (p = log2 P), A apex leaves (a = log2 A).
struct update_config_t {
  uint64_t sector_bytes = 0;
  uint64_t nodes = 0;                  ///< N
  unsigned node_bits = 0;              ///< L
  unsigned partitions = 0;             ///< P
  unsigned partition_bits = 0;         ///< p
  unsigned challenges = 0;             ///< per partition: 10, or 86 above 2^19 nodes
  unsigned challenge_bits = 0;         ///< random bits per challenge: L − p
  unsigned challenges_per_digest = 0;  ///< ⌊254 / (L − p)⌋
  unsigned digests = 0;                ///< per partition: ceil(challenges / per_digest) in f32
  unsigned apex_leaves = 0;            ///< A: 8, or 128 above 2^8 nodes
  unsigned apex_bits = 0;              ///< a
  std::array<unsigned, H_SELECT_BITS> hs{};
  unsigned h = 0;           ///< h_default = hs[3]
  unsigned h_select = 0;    ///< 2^(first t with hs[t] = h)
  hash::tree_shape tree_r;  ///< tree_r_last of the sector key and of the new replica
  hash::tree_shape tree_d;  ///< binary SHA256-trunc254 over the new data

  /// tree_d levels below the apex leaves: L − p − a.
  unsigned tree_d_levels_below_apex() const { return node_bits - partition_bits - apex_bits; }
  /// The public input k_and_h_select = k | h_select << p.
  uint64_t k_and_h_select(unsigned k) const {
    return uint64_t(k) | uint64_t(h_select) << partition_bits;
  }
};

/// The config of a registered update proof (production sizes, tree_r 8-0-0 / 8-8-0 / 8-8-2).
result<update_config_t> update_config(registered_update_proof p);
/// The config of any tree_r shape whose node count is a power of two ≥ 32 (the upstream test
/// sizes: 1 KiB 8-4-0, 2 KiB 8-0-0, 4 KiB 8-2-0, 8 KiB 8-4-0, 16 KiB 8-8-0, 32 KiB 8-8-2, …).
result<update_config_t> update_config_for_shape(const hash::tree_shape& tree_r);

}  // namespace cuzk::filecoin::snap
