// SPDX-License-Identifier: Apache-2.0
// WindowPoSt and WinningPoSt around the proof (post_prover.hpp): parameter generation,
// verification.
#include "filecoin/proofs/post_prover.hpp"

#include <filesystem>

#include "filecoin/circuits/fallback_post_circuit.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/proofs/prove_steps.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::filecoin::proofs {
std::string post_params_path(const post::post_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / (circuits::post_param_id(cfg) + ".params")).string();
}

std::string post_vk_path(const post::post_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / (circuits::post_param_id(cfg) + ".vk")).string();
}

result<generated_params_t> generate_post_parameters(post::registered_post_proof proof,
                                                    const std::string& out_dir, thread_pool& pool,
                                                    const groth16::progress_fn& progress,
                                                    const std::optional<std::vector<uint8_t>>& seed,
                                                    int gpu_device) {
  auto cfg = post::post_config(proof);
  if (!cfg) return cfg.error();
  generated_params_t out;
  out.params_path = post_params_path(*cfg, out_dir);
  out.vk_path = post_vk_path(*cfg, out_dir);

  const circuits::fallback_post_counts_t counts = circuits::fallback_post_circuit_counts(*cfg);
  const auto blank = circuits::blank_fallback_post_circuit(*cfg);
  if (status st = steps::setup_and_write(
          [&](groth16::qap_cs& cs) { circuits::synthesize_fallback_post_circuit(cs, blank); },
          counts.constraints, counts.inputs, counts.aux, seed, pool, progress, out, gpu_device);
      !st)
    return st;
  return out;
}

std::vector<post::public_sector_t> public_sectors_of(
    std::span<const post::fallback_sector_proof_t> vanilla) {
  std::vector<post::public_sector_t> out;
  out.reserve(vanilla.size());
  for (const auto& v : vanilla) out.push_back({v.sector_id, v.comm_r});
  return out;
}

result<bool> verify_post(post::registered_post_proof proof,
                         std::span<const post::public_sector_t> sectors,
                         const post::bytes32_t& randomness, unsigned partition,
                         std::span<const uint8_t> proof_bytes, const std::string& params_dir) {
  auto cfg = post::post_config(proof);
  if (!cfg) return cfg.error();
  auto proofs = groth16::decode_proofs(proof_bytes);
  if (!proofs) return status(proofs.error().code(), "proof: " + proofs.error().message());
  if (proofs->size() != 1) {
    return status(status_code::size_mismatch,
                  "proof: " + std::to_string(proofs->size()) + " proofs, a PoSt partition has 1");
  }
  auto inputs = circuits::fallback_post_public_inputs(*cfg, sectors, randomness, partition);
  if (!inputs) return inputs.error();
  const std::string vk_path = post_vk_path(*cfg, params_dir);
  auto vk = groth16::read_vk(vk_path);
  if (!vk) return status(vk.error().code(), vk_path + ": " + vk.error().message());
  return groth16::verify(groth16::prepare_verifying_key(*vk), proofs->front(), *inputs);
}

}  // namespace cuzk::filecoin::proofs
