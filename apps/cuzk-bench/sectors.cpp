// SPDX-License-Identifier: Apache-2.0
#include "sectors.hpp"

#include <random>

#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"

namespace cuzk::bench {

result<std::vector<sealed_c1>> seal_random_sectors(const porep::porep_config_t& cfg, unsigned count,
                                                   uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<sealed_c1> out;
  for (unsigned i = 0; i < count; ++i) {
    porep::seal_request_t req;
    req.config = cfg;
    sealed_c1 s;
    s.miner = 1000 + rng() % 1000;
    s.sector = i + 1;
    req.prover_id = porep::prover_id_from_actor(s.miner);
    req.sector_id = s.sector;
    for (auto& b : req.ticket) b = uint8_t(rng());
    std::vector<uint8_t> payload(cfg.sector.sector_bytes / 128 * 127);
    for (auto& b : payload) b = uint8_t(rng());
    auto sealed = porep::seal_sector(req, payload);
    if (!sealed) return status(sealed.error().code(), "seal: " + sealed.error().message());
    porep::bytes32_t c1_seed;
    for (auto& b : c1_seed) b = uint8_t(rng());
    auto c1 = porep::seal_commit_phase1(*sealed, c1_seed);
    if (!c1) return status(c1.error().code(), "C1: " + c1.error().message());
    s.c1 = std::move(*c1);
    auto w = porep::c1_to_wrapper_json(s.c1, s.sector);
    if (!w) return w.error();
    s.wrapper = std::move(*w);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace cuzk::bench
