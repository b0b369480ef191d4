// SPDX-License-Identifier: Apache-2.0
// 2 KiB sectors sealed in the test process (milliseconds each), for the tests that prove: a
// deterministic one per sector id (miner 1000), or a random one with its C1 in every form a test
// sends (the struct, and Curio's {"SectorNum","Phase1Out","SectorSize"} wrapper).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "filecoin/snap/encode.hpp"

namespace cuzk::test {

/// Miner 1000, sector `sector_id`; ticket and payload derived from the id.
inline filecoin::porep::sealed_sector_t seal_2kib(uint64_t sector_id) {
  filecoin::porep::seal_request_t req;
  req.config =
      *filecoin::porep::porep_config(filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1);
  req.prover_id = filecoin::porep::prover_id_from_actor(1000);
  req.sector_id = sector_id;
  req.ticket.fill(uint8_t(sector_id));
  std::vector<uint8_t> payload(2032);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * 13 + sector_id);
  auto s = filecoin::porep::seal_sector(req, payload);
  EXPECT_TRUE(s.ok()) << s.error().to_string();
  return std::move(*s);
}

/// A SnapDeals update (StackedDrg2KiBV1) of seal_2kib(sector_id) to new data whose byte i is
/// i·mul + add.
inline result<filecoin::snap::updated_sector_t> update_2kib(uint64_t sector_id, unsigned mul,
                                                            unsigned add) {
  const auto cfg =
      *filecoin::snap::update_config(filecoin::snap::registered_update_proof::stacked_drg_2kib_v1);
  const filecoin::porep::sealed_sector_t key = seal_2kib(sector_id);
  std::vector<uint8_t> payload(2032);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * mul + add);
  return filecoin::snap::encode_update(cfg, key, payload);
}

/// A sealed sector's C1 with the identity that proves it.
struct sealed_c1 {
  filecoin::porep::c1_output_t c1;
  uint64_t miner = 0, sector = 0;
  std::string wrapper;  ///< Curio's wrapper JSON of c1
};

/// A 2 KiB sector with random miner (1000..1999), sector number (below `max_sector`), ticket,
/// data and seed from `rng`, and its C1.
template <class Rng>
sealed_c1 seal_random_2kib_c1(Rng& rng, uint64_t max_sector = uint64_t(1) << 20) {
  filecoin::porep::seal_request_t req;
  req.config =
      *filecoin::porep::porep_config(filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1);
  sealed_c1 s;
  s.miner = 1000 + rng() % 1000;
  s.sector = 1 + rng() % max_sector;
  req.prover_id = filecoin::porep::prover_id_from_actor(s.miner);
  req.sector_id = s.sector;
  for (auto& b : req.ticket) b = uint8_t(rng());
  std::vector<uint8_t> payload(2032);
  for (auto& b : payload) b = uint8_t(rng());
  auto sealed = filecoin::porep::seal_sector(req, payload);
  EXPECT_TRUE(sealed.ok()) << sealed.error().to_string();
  filecoin::porep::bytes32_t seed;
  for (auto& b : seed) b = uint8_t(rng());
  auto c1 = filecoin::porep::seal_commit_phase1(*sealed, seed);
  EXPECT_TRUE(c1.ok()) << c1.error().to_string();
  s.c1 = std::move(*c1);
  auto w = filecoin::porep::c1_to_wrapper_json(s.c1, s.sector);
  EXPECT_TRUE(w.ok());
  s.wrapper = std::move(*w);
  return s;
}

}  // namespace cuzk::test
