// SPDX-License-Identifier: Apache-2.0
// replica_id (docs/spec/porep.md §2, stacked/vanilla/params.rs generate_replica_id): the Fr-safe
// SHA-256 of prover_id ‖ sector_id (u64 big-endian) ‖ ticket ‖ comm_d ‖ porep_id (136 bytes,
// 3 compressions).
#pragma once

#include <cstdint>

#include "filecoin/porep/config.hpp"

namespace cuzk::filecoin::porep {

bytes32_t compute_replica_id(const bytes32_t& prover_id, uint64_t sector_id,
                             const bytes32_t& ticket, const bytes32_t& comm_d,
                             const porep_id_t& porep_id);

}  // namespace cuzk::filecoin::porep
