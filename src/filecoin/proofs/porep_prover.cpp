// SPDX-License-Identifier: Apache-2.0
// PoRep C2 around the proof (porep_prover.hpp, docs/notes/porep-prove.md): parameter generation,
// batch verification.
#include "filecoin/proofs/porep_prover.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/replica_id.hpp"
#include "filecoin/proofs/prove_steps.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::filecoin::proofs {
namespace {

result<porep::porep_config_t> config_of(const porep::c1_output_t& c1) {
  auto p = porep::parse_registered_seal_proof(c1.registered_proof);
  if (!p) return status(status_code::invalid_argument, "registered_proof: " + p.error().message());
  return porep::porep_config(*p);
}

// The replica_id the circuit and its public inputs use: re-derived from the prover identity as
// C2 does (prover_id, sector_id, ticket, comm_d, porep_id), or the C1's.
porep::bytes32_t replica_id_of(const porep::porep_config_t& cfg, const porep::c1_output_t& c1,
                               const std::optional<prover_identity_t>& who) {
  if (!who) return c1.replica_id;
  return porep::compute_replica_id(who->prover_id, who->sector_id, c1.ticket, c1.comm_d,
                                   cfg.porep_id);
}

}  // namespace

std::string resolve_params_dir(std::string_view explicit_dir) {
  if (!explicit_dir.empty()) return std::string(explicit_dir);
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env && *env) return env;
  return DEFAULT_PARAMS_DIR;
}

std::string porep_params_path(const porep::porep_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / circuits::porep_params_file_name(cfg)).string();
}

std::string porep_vk_path(const porep::porep_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / circuits::porep_vk_file_name(cfg)).string();
}

uint64_t peak_rss_bytes() {
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return uint64_t(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

result<generated_params_t> generate_porep_parameters(
    porep::registered_seal_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress, const std::optional<std::vector<uint8_t>>& seed,
    int gpu_device) {
  auto cfg = porep::porep_config(proof);
  if (!cfg) return cfg.error();
  generated_params_t out;
  out.params_path = porep_params_path(*cfg, out_dir);
  out.vk_path = porep_vk_path(*cfg, out_dir);

  // The blank circuit, synthesized straight into the QAP at τ (bellperson synthesizes it into a
  // KeypairAssembly; we skip the matrices: 30 GB for a 32 GiB partition).
  const circuits::stacked_circuit_t blank = circuits::blank_stacked_circuit(*cfg);
  const circuits::stacked_counts_t counts = circuits::stacked_circuit_counts(
      blank.layers, blank.tree_d, blank.tree_r, unsigned(blank.challenges.size()));
  // aux is within 0.1 % of the constraint count for every size (porep_prover's reserve).
  if (status st = steps::setup_and_write(
          [&](groth16::qap_cs& cs) { circuits::synthesize_stacked_circuit(cs, blank); },
          counts.constraints, counts.inputs, counts.constraints, seed, pool, progress, out,
          gpu_device);
      !st)
    return st;
  return out;
}

result<bool> verify_porep(const porep::c1_output_t& c1, const std::optional<prover_identity_t>& who,
                          std::span<const uint8_t> proof_bytes, const std::string& params_dir) {
  auto cfg = config_of(c1);
  if (!cfg) return cfg.error();
  const unsigned partitions = cfg->partitions();
  auto proofs = groth16::decode_proofs(proof_bytes);
  if (!proofs) return status(proofs.error().code(), "proof: " + proofs.error().message());
  if (proofs->size() != partitions) {
    return status(status_code::size_mismatch, "proof: " + std::to_string(proofs->size()) +
                                                  " partition proofs, " + c1.registered_proof +
                                                  " has " + std::to_string(partitions));
  }
  const std::string vk_path = porep_vk_path(*cfg, params_dir);
  auto vk = groth16::read_vk(vk_path);
  if (!vk) return status(vk.error().code(), vk_path + ": " + vk.error().message());
  const groth16::prepared_verifying_key pvk = groth16::prepare_verifying_key(*vk);

  const porep::sdr_graph graph(*cfg);
  const circuits::porep_publics_t pub{replica_id_of(*cfg, c1, who), c1.comm_d, c1.comm_r, c1.seed};
  std::vector<std::vector<ff::fr_t>> inputs;
  inputs.reserve(partitions);
  for (unsigned k = 0; k < partitions; ++k) {
    auto in = circuits::porep_public_inputs(*cfg, graph, pub, k);
    if (!in) return in.error();
    inputs.push_back(std::move(*in));
  }
  return groth16::verify_batch(pvk, *proofs, inputs);
}

}  // namespace cuzk::filecoin::proofs
