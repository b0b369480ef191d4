// SPDX-License-Identifier: Apache-2.0
// SnapDeals around the proof (snap_prover.hpp): parameter generation, verification.
#include "filecoin/proofs/snap_prover.hpp"

#include <filesystem>

#include "filecoin/circuits/empty_sector_update_circuit.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/proofs/prove_steps.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::filecoin::proofs {
std::string update_params_path(const snap::update_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / (circuits::update_param_id(cfg) + ".params")).string();
}

std::string update_vk_path(const snap::update_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / (circuits::update_param_id(cfg) + ".vk")).string();
}

result<generated_params_t> generate_update_parameters(
    snap::registered_update_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress, const std::optional<std::vector<uint8_t>>& seed,
    int gpu_device) {
  auto cfg = snap::update_config(proof);
  if (!cfg) return cfg.error();
  generated_params_t out;
  out.params_path = update_params_path(*cfg, out_dir);
  out.vk_path = update_vk_path(*cfg, out_dir);

  const circuits::update_counts_t counts = circuits::empty_sector_update_circuit_counts(*cfg);
  const auto blank = circuits::blank_empty_sector_update_circuit(*cfg);
  if (status st = steps::setup_and_write(
          [&](groth16::qap_cs& cs) { circuits::synthesize_empty_sector_update_circuit(cs, blank); },
          // aux ≈ constraints (the 2 KiB circuit: 1,703,569 aux for 1,705,039 constraints)
          counts.constraints, counts.inputs, counts.constraints, seed, pool, progress, out,
          gpu_device);
      !st)
    return st;
  return out;
}

result<bool> verify_update(snap::registered_update_proof proof,
                           const snap::update_commitments_t& comms,
                           std::span<const uint8_t> proof_bytes, const std::string& params_dir) {
  auto cfg = snap::update_config(proof);
  if (!cfg) return cfg.error();
  auto proofs = groth16::decode_proofs(proof_bytes);
  if (!proofs) return status(proofs.error().code(), "proof: " + proofs.error().message());
  if (proofs->size() != cfg->partitions) {
    return status(status_code::size_mismatch, "proof: " + std::to_string(proofs->size()) +
                                                  " partition proofs, expected " +
                                                  std::to_string(cfg->partitions));
  }
  const std::string vk_path = update_vk_path(*cfg, params_dir);
  auto vk = groth16::read_vk(vk_path);
  if (!vk) return status(vk.error().code(), vk_path + ": " + vk.error().message());
  const groth16::prepared_verifying_key pvk = groth16::prepare_verifying_key(*vk);
  for (unsigned k = 0; k < cfg->partitions; ++k) {
    auto inputs = circuits::empty_sector_update_public_inputs(*cfg, comms, k);
    if (!inputs) return inputs.error();
    auto ok = groth16::verify(pvk, (*proofs)[k], *inputs);
    if (!ok) return ok.error();
    if (!*ok) return false;
  }
  return true;
}

}  // namespace cuzk::filecoin::proofs
