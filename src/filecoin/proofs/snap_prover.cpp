// SPDX-License-Identifier: Apache-2.0
// SnapDeals on the CPU or GPU prover (snap_prover.hpp): parameter generation, proving every
// partition with self-verification, verification.
#include "filecoin/proofs/snap_prover.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "filecoin/circuits/empty_sector_update_circuit.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/proofs/prove_steps.hpp"
#include "groth16/assignment.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::filecoin::proofs {
namespace {

using steps::clock_type;
using steps::seconds_since;

}  // namespace

std::string update_params_path(const filecoin::snap::update_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / (filecoin::circuits::update_param_id(cfg) + ".params"))
      .string();
}

std::string update_vk_path(const filecoin::snap::update_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / (filecoin::circuits::update_param_id(cfg) + ".vk")).string();
}

result<generated_params_t> generate_update_parameters(
    filecoin::snap::registered_update_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress, const std::optional<std::vector<uint8_t>>& seed,
    int gpu_device) {
  auto cfg = filecoin::snap::update_config(proof);
  if (!cfg) return cfg.error();
  generated_params_t out;
  out.params_path = update_params_path(*cfg, out_dir);
  out.vk_path = update_vk_path(*cfg, out_dir);

  const filecoin::circuits::update_counts_t counts =
      filecoin::circuits::empty_sector_update_circuit_counts(*cfg);
  const auto blank = filecoin::circuits::blank_empty_sector_update_circuit(*cfg);
  if (status st = steps::setup_and_write(
          [&](groth16::qap_cs& cs) {
            filecoin::circuits::synthesize_empty_sector_update_circuit(cs, blank);
          },
          // aux ≈ constraints (the 2 KiB circuit: 1,703,569 aux for 1,705,039 constraints)
          counts.constraints, counts.inputs, counts.constraints, seed, pool, progress, out,
          gpu_device);
      !st)
    return st;
  return out;
}

result<std::vector<uint8_t>> prove_update(const update_inputs_t& in, const std::string& params_dir,
                                          thread_pool& pool, prove_timings_t* timings,
                                          const prove_options_t& opt) {
  prove_timings_t local;
  prove_timings_t& tm = timings ? *timings : local;
  tm = {};
  const auto t_start = clock_type::now();

  if (status s = check_backend_request(opt.gpu_device); !s) return s;
  auto cfg = filecoin::snap::update_config(in.proof);
  if (!cfg) return cfg.error();
  if (in.partitions.size() != cfg->partitions) {
    return status(status_code::size_mismatch, std::to_string(in.partitions.size()) +
                                                  " partition proofs, " +
                                                  std::string(filecoin::snap::name_of(in.proof)) +
                                                  " has " + std::to_string(cfg->partitions));
  }
  const std::string params_path = update_params_path(*cfg, params_dir);

  if (opt.check_digests) {
    auto t0 = clock_type::now();
    if (status st = steps::check_param_digests(params_path, update_vk_path(*cfg, params_dir),
                                               *opt.check_digests, tm.digests);
        !st)
      return st;
    tm.digest_check = seconds_since(t0);
  }

  if (opt.check_vanilla) {
    auto t0 = clock_type::now();
    if (status s = filecoin::snap::validate_partition_proofs(*cfg, in.comms, in.partitions, pool);
        !s) {
      return status(status_code::invalid_argument,
                    "the vanilla proofs do not verify: " + s.to_string());
    }
    tm.vanilla_check = seconds_since(t0);
  }

  std::vector<groth16::proof> proofs;
  std::unique_ptr<prover_backend> backend;
  std::optional<groth16::prepared_verifying_key> pvk;
  for (unsigned k = 0; k < cfg->partitions; ++k) {
    auto t0 = clock_type::now();
    auto circuit = filecoin::circuits::empty_sector_update_circuit_from_vanilla(*cfg, in.comms, k,
                                                                                in.partitions[k]);
    if (!circuit) {
      return status(status_code::invalid_argument,
                    "partition " + std::to_string(k) +
                        ": vanilla proof unfit for the circuit: " + circuit.error().to_string());
    }
    r1cs::proving_cs cs;
    if (status s =
            filecoin::circuits::synthesize_empty_sector_update_circuit_parallel(cs, *circuit, pool);
        !s)
      return status(s.code(), "partition " + std::to_string(k) + ": " + s.message());
    cs.finalize();
    tm.synthesis += seconds_since(t0);

    auto inputs = filecoin::circuits::empty_sector_update_public_inputs(*cfg, in.comms, k);
    if (!inputs) return inputs.error();
    if (cs.num_inputs() != inputs->size() + 1 ||
        !std::equal(inputs->begin(), inputs->end(), cs.inputs().begin() + 1)) {
      return status(status_code::invalid_argument,
                    "partition " + std::to_string(k) +
                        ": the circuit's public inputs differ from the derived ones");
    }

    if (!backend) {
      t0 = clock_type::now();
      auto b =
          steps::open_backend(params_path, groth16::make_assignment(cs), cs.num_rows(), opt, pool);
      if (!b) return b.error();
      backend = std::move(*b);
      pvk = groth16::prepare_verifying_key(backend->vk());
      tm.params_load = seconds_since(t0);
    }

    t0 = clock_type::now();
    groth16::prover_timings pt;
    auto pf = steps::prove_one(*backend, groth16::make_assignment(cs), pool, &pt);
    if (!pf) return pf.error();
    tm.prove += seconds_since(t0);
    steps::add(tm.prover, pt);

    // Never hand out an invalid proof: Curio stores what it gets back without verifying it.
    t0 = clock_type::now();
    auto ok = groth16::verify(*pvk, *pf, *inputs);
    tm.self_verify += seconds_since(t0);
    if (!ok) return ok.error();
    if (!*ok) {
      return status(status_code::invalid_argument,
                    "partition " + std::to_string(k) +
                        ": proof self-verification failed: the vanilla proof is inconsistent");
    }
    proofs.push_back(*pf);
  }
  tm.partitions = cfg->partitions;
  tm.total = seconds_since(t_start);
  return groth16::encode_proofs(proofs);
}

result<bool> verify_update(filecoin::snap::registered_update_proof proof,
                           const filecoin::snap::update_commitments_t& comms,
                           std::span<const uint8_t> proof_bytes, const std::string& params_dir) {
  auto cfg = filecoin::snap::update_config(proof);
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
    auto inputs = filecoin::circuits::empty_sector_update_public_inputs(*cfg, comms, k);
    if (!inputs) return inputs.error();
    auto ok = groth16::verify(pvk, (*proofs)[k], *inputs);
    if (!ok) return ok.error();
    if (!*ok) return false;
  }
  return true;
}

}  // namespace cuzk::filecoin::proofs
