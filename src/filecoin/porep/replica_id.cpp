// SPDX-License-Identifier: Apache-2.0
// replica_id = SHA256-trunc254(prover_id ‖ sector_id BE ‖ ticket ‖ comm_d ‖ porep_id).
#include "filecoin/porep/replica_id.hpp"

#include "filecoin/hash/sha256_trunc254.hpp"

namespace cuzk::filecoin::porep {

bytes32_t compute_replica_id(const bytes32_t& prover_id, uint64_t sector_id,
                             const bytes32_t& ticket, const bytes32_t& comm_d,
                             const porep_id_t& porep_id) {
  uint8_t id_be[8];
  for (int i = 0; i < 8; ++i) id_be[i] = uint8_t(sector_id >> (56 - 8 * i));
  cuzk::hash::sha256_t h;
  h.update(prover_id.data(), 32);
  h.update(id_be, 8);
  h.update(ticket.data(), 32);
  h.update(comm_d.data(), 32);
  h.update(porep_id.data(), 32);
  bytes32_t out = h.finalize();
  hash::trim_to_fr32(out);
  return out;
}

}  // namespace cuzk::filecoin::porep
