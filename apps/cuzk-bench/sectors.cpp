// SPDX-License-Identifier: Apache-2.0
#include "sectors.hpp"

#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"

namespace cuzk::bench {

result<filecoin::porep::sealed_sector_t> seal_random_sector(
    const filecoin::porep::porep_config_t& cfg, uint64_t miner, uint64_t sector,
    std::mt19937_64& rng) {
  filecoin::porep::seal_request_t req;
  req.config = cfg;
  req.prover_id = filecoin::porep::prover_id_from_actor(miner);
  req.sector_id = sector;
  for (auto& b : req.ticket) b = uint8_t(rng());
  std::vector<uint8_t> payload(cfg.sector.sector_bytes / 128 * 127);
  for (auto& b : payload) b = uint8_t(rng());
  auto sealed = filecoin::porep::seal_sector(req, payload);
  if (!sealed) return status(sealed.error().code(), "seal: " + sealed.error().message());
  return sealed;
}

result<std::vector<sealed_c1>> seal_random_sectors(const filecoin::porep::porep_config_t& cfg,
                                                   unsigned count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<sealed_c1> out;
  for (unsigned i = 0; i < count; ++i) {
    sealed_c1 s;
    s.miner = 1000 + rng() % 1000;
    s.sector = i + 1;
    auto sealed = seal_random_sector(cfg, s.miner, s.sector, rng);
    if (!sealed) return sealed.error();
    filecoin::porep::bytes32_t c1_seed;
    for (auto& b : c1_seed) b = uint8_t(rng());
    auto c1 = filecoin::porep::seal_commit_phase1(*sealed, c1_seed);
    if (!c1) return status(c1.error().code(), "C1: " + c1.error().message());
    s.c1 = std::move(*c1);
    auto w = filecoin::porep::c1_to_wrapper_json(s.c1, s.sector);
    if (!w) return w.error();
    s.wrapper = std::move(*w);
    out.push_back(std::move(s));
  }
  return out;
}

result<filecoin::snap::updated_sector_t> update_random_sector(
    const filecoin::snap::update_config_t& cfg, uint64_t miner, uint64_t sector, uint64_t seed) {
  // The sector key is sealed with the current (V1_1) proof of the same size; the update proof
  // does not depend on the seal proof's version.
  auto seal_proof = filecoin::porep::parse_registered_seal_proof(
      "StackedDrg" + filecoin::porep::sector_size_name(cfg.sector_bytes) + "V1_1");
  if (!seal_proof) return seal_proof.error();
  auto seal_cfg = filecoin::porep::porep_config(*seal_proof);
  if (!seal_cfg) return seal_cfg.error();
  std::mt19937_64 rng(seed);
  auto key = seal_random_sector(*seal_cfg, miner, sector, rng);
  if (!key) return key.error();
  std::vector<uint8_t> new_data(cfg.sector_bytes / 128 * 127);
  for (auto& b : new_data) b = uint8_t(rng());
  auto updated = filecoin::snap::encode_update(cfg, *key, new_data);
  if (!updated) return status(updated.error().code(), "encode: " + updated.error().message());
  return updated;
}

}  // namespace cuzk::bench
