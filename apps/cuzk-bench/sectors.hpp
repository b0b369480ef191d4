// SPDX-License-Identifier: Apache-2.0
// Random small sectors sealed in this process (2 KiB … 8 MiB: seal_sector holds everything in
// memory), with their C1 in Curio's wrapper form: the inputs of cuzk-bench pipeline and stress.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/vanilla_proof.hpp"

namespace cuzk::bench {

struct sealed_c1 {
  porep::c1_output_t c1;
  uint64_t miner = 0, sector = 0;
  std::string wrapper;  ///< {"SectorNum","Phase1Out","SectorSize"}, as Curio sends it
};

/// `count` sectors of `cfg`'s size with random data, tickets and seeds drawn from `seed`;
/// sector numbers 1..count.
result<std::vector<sealed_c1>> seal_random_sectors(const porep::porep_config_t& cfg, unsigned count,
                                                   uint64_t seed);

}  // namespace cuzk::bench
