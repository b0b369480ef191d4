// SPDX-License-Identifier: Apache-2.0
// Random small sectors sealed in this process (2 KiB … 8 MiB: seal_sector holds everything in
// memory), with their C1 in Curio's wrapper form: the inputs of cuzk-bench pipeline and stress;
// and random SnapDeals updates of such a sector (gen-vanilla snap-prove).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuzk/status.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_proof.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/encode.hpp"

namespace cuzk::bench {

struct sealed_c1 {
  filecoin::porep::c1_output_t c1;
  uint64_t miner = 0, sector = 0;
  std::string wrapper;  ///< {"SectorNum","Phase1Out","SectorSize"}, as Curio sends it
};

/// `count` sectors of `cfg`'s size with random data, tickets and seeds drawn from `seed`;
/// sector numbers 1..count.
result<std::vector<sealed_c1>> seal_random_sectors(const filecoin::porep::porep_config_t& cfg,
                                                   unsigned count, uint64_t seed);

/// One sector of `cfg`'s size for `miner`/`sector` with a ticket and a full payload from `rng`.
result<filecoin::porep::sealed_sector_t> seal_random_sector(
    const filecoin::porep::porep_config_t& cfg, uint64_t miner, uint64_t sector,
    std::mt19937_64& rng);

/// A sector key of the update's size (its V1_1 seal proof) sealed for `miner`/`sector`, with a full
/// random payload encoded into it as the new data; everything drawn from `seed`.
result<filecoin::snap::updated_sector_t> update_random_sector(
    const filecoin::snap::update_config_t& cfg, uint64_t miner, uint64_t sector, uint64_t seed);

}  // namespace cuzk::bench
