// SPDX-License-Identifier: Apache-2.0
// PoRep C2 on the CPU or GPU prover (prover_backend.hpp): parameter generation, proving with
// self-verification, batch verification (porep_prover.hpp, docs/notes/porep-prove.md).
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
#include "filecoin/porep/vanilla_prove.hpp"
#include "filecoin/proofs/prove_steps.hpp"
#include "filecoin/proofs/prover_backend.hpp"
#include "groth16/assignment.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::filecoin::proofs {
namespace {

using steps::clock_type;
using steps::seconds_since;

result<filecoin::porep::porep_config_t> config_of(const filecoin::porep::c1_output_t& c1) {
  auto p = filecoin::porep::parse_registered_seal_proof(c1.registered_proof);
  if (!p) return status(status_code::invalid_argument, "registered_proof: " + p.error().message());
  return filecoin::porep::porep_config(*p);
}

// The replica_id the circuit and its public inputs use: re-derived from the prover identity as
// C2 does (prover_id, sector_id, ticket, comm_d, porep_id), or the C1's.
filecoin::porep::bytes32_t replica_id_of(const filecoin::porep::porep_config_t& cfg,
                                         const filecoin::porep::c1_output_t& c1,
                                         const std::optional<prover_identity_t>& who) {
  if (!who) return c1.replica_id;
  return filecoin::porep::compute_replica_id(who->prover_id, who->sector_id, c1.ticket, c1.comm_d,
                                             cfg.porep_id);
}

}  // namespace

std::string resolve_params_dir(std::string_view explicit_dir) {
  if (!explicit_dir.empty()) return std::string(explicit_dir);
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env && *env) return env;
  return DEFAULT_PARAMS_DIR;
}

std::string porep_params_path(const filecoin::porep::porep_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / filecoin::circuits::porep_params_file_name(cfg)).string();
}

std::string porep_vk_path(const filecoin::porep::porep_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / filecoin::circuits::porep_vk_file_name(cfg)).string();
}

uint64_t peak_rss_bytes() {
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return uint64_t(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

result<generated_params_t> generate_porep_parameters(
    filecoin::porep::registered_seal_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress, const std::optional<std::vector<uint8_t>>& seed,
    int gpu_device) {
  auto cfg = filecoin::porep::porep_config(proof);
  if (!cfg) return cfg.error();
  generated_params_t out;
  out.params_path = porep_params_path(*cfg, out_dir);
  out.vk_path = porep_vk_path(*cfg, out_dir);

  // The blank circuit, synthesized straight into the QAP at τ (bellperson synthesizes it into a
  // KeypairAssembly; we skip the matrices: 30 GB for a 32 GiB partition).
  const filecoin::circuits::stacked_circuit_t blank =
      filecoin::circuits::blank_stacked_circuit(*cfg);
  const filecoin::circuits::stacked_counts_t counts = filecoin::circuits::stacked_circuit_counts(
      blank.layers, blank.tree_d, blank.tree_r, unsigned(blank.challenges.size()));
  // aux is within 0.1 % of the constraint count for every size (porep_prover's reserve).
  if (status st = steps::setup_and_write(
          [&](groth16::qap_cs& cs) { filecoin::circuits::synthesize_stacked_circuit(cs, blank); },
          counts.constraints, counts.inputs, counts.constraints, seed, pool, progress, out,
          gpu_device);
      !st)
    return st;
  return out;
}

result<std::vector<uint8_t>> prove_porep(const filecoin::porep::c1_output_t& c1,
                                         const std::optional<prover_identity_t>& who,
                                         const std::string& params_dir, thread_pool& pool,
                                         prove_timings_t* timings, const prove_options_t& opt) {
  prove_timings_t local;
  prove_timings_t& tm = timings ? *timings : local;
  tm = {};
  const auto t_start = clock_type::now();

  if (status s = check_backend_request(opt.gpu_device); !s) return s;
  auto cfg = config_of(c1);
  if (!cfg) return cfg.error();
  const unsigned partitions = cfg->partitions();
  if (c1.vanilla_proofs.size() != partitions) {
    return status(status_code::invalid_argument,
                  "the C1 has " + std::to_string(c1.vanilla_proofs.size()) + " partitions, " +
                      c1.registered_proof + " needs " + std::to_string(partitions));
  }
  const filecoin::porep::bytes32_t replica_id = replica_id_of(*cfg, c1, who);
  if (replica_id != c1.replica_id) {
    return status(status_code::invalid_argument,
                  "the replica_id derived from prover id, sector id " +
                      std::to_string(who->sector_id) +
                      ", ticket, comm_d and porep_id differs from the C1's replica_id");
  }

  if (opt.check_digests) {
    auto t0 = clock_type::now();
    if (status st = steps::check_param_digests(porep_params_path(*cfg, params_dir),
                                               porep_vk_path(*cfg, params_dir), *opt.check_digests,
                                               tm.digests);
        !st)
      return st;
    tm.digest_check = seconds_since(t0);
  }

  if (opt.check_vanilla) {
    auto t0 = clock_type::now();
    if (status s = filecoin::porep::verify_c1_output(c1, *cfg, pool); !s) {
      return status(status_code::invalid_argument,
                    "the C1's vanilla proofs do not verify: " + s.to_string());
    }
    tm.vanilla_check = seconds_since(t0);
  }

  const filecoin::porep::sdr_graph graph(*cfg);
  const filecoin::circuits::porep_publics_t pub{replica_id, c1.comm_d, c1.comm_r, c1.seed};
  const filecoin::circuits::stacked_counts_t counts = filecoin::circuits::stacked_circuit_counts(
      cfg->layers(), cfg->sector.tree_d, cfg->sector.tree_r, cfg->challenges_per_partition());

  std::optional<groth16::prepared_verifying_key> pvk;
  // Made once from the mapped parameters (the CPU's decodes them into memory, the GPU's streams
  // them to the device), for every partition.
  std::unique_ptr<prover_backend> backend;
  std::vector<groth16::proof> proofs;
  proofs.reserve(partitions);
  for (unsigned k = 0; k < partitions; ++k) {
    const std::string part = "partition " + std::to_string(k) + ": ";
    auto t0 = clock_type::now();
    auto circuit = filecoin::circuits::stacked_circuit_from_c1(*cfg, c1, k);
    if (!circuit) {
      return status(status_code::invalid_argument,
                    part + "bad C1 for the circuit: " + circuit.error().to_string());
    }
    r1cs::proving_cs cs;
    // The blank counts are exact; aux is within 0.1 % of the constraint count for every size.
    cs.reserve(counts.constraints, counts.constraints, counts.inputs);
    if (status s = filecoin::circuits::synthesize_stacked_circuit_parallel(cs, *circuit, pool); !s)
      return status(s.code(), part + s.message());
    cs.finalize();
    tm.synthesis += seconds_since(t0);

    auto inputs = filecoin::circuits::porep_public_inputs(*cfg, graph, pub, k);
    if (!inputs) return status(inputs.error().code(), part + inputs.error().message());
    // The circuit's own input values must be the verifier's (ONE first): cheap, and it names the
    // failure more precisely than the pairing check would.
    if (cs.num_inputs() != inputs->size() + 1 ||
        !std::equal(inputs->begin(), inputs->end(), cs.inputs().begin() + 1)) {
      return status(status_code::invalid_argument,
                    part +
                        "the circuit's public inputs differ from the derived ones: the C1 is "
                        "inconsistent");
    }

    if (!backend) {
      t0 = clock_type::now();
      auto b = steps::open_backend(porep_params_path(*cfg, params_dir),
                                   groth16::make_assignment(cs), cs.num_rows(), opt, pool);
      if (!b) return b.error();
      backend = std::move(*b);
      pvk = groth16::prepare_verifying_key(backend->vk());
      tm.params_load = seconds_since(t0);
    }

    t0 = clock_type::now();
    groth16::prover_timings pt;
    auto pf = steps::prove_one(*backend, groth16::make_assignment(cs), pool, &pt);
    if (!pf) return status(pf.error().code(), part + pf.error().message());
    tm.prove += seconds_since(t0);
    steps::add(tm.prover, pt);

    // Never hand out an invalid proof: an unsatisfied witness (a corrupted C1 that slipped past
    // the checks above) yields a proof that fails here.
    t0 = clock_type::now();
    auto ok = groth16::verify(*pvk, *pf, *inputs);
    tm.self_verify += seconds_since(t0);
    if (!ok) return status(ok.error().code(), part + ok.error().message());
    if (!*ok) {
      return steps::self_check_failure(part, groth16::make_assignment(cs),
                                       porep_params_path(*cfg, params_dir), opt, pool,
                                       "the C1 is inconsistent");
    }
    proofs.push_back(*pf);
  }
  tm.partitions = partitions;
  tm.total = seconds_since(t_start);
  return groth16::encode_proofs(proofs);
}

result<bool> verify_porep(const filecoin::porep::c1_output_t& c1,
                          const std::optional<prover_identity_t>& who,
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

  const filecoin::porep::sdr_graph graph(*cfg);
  const filecoin::circuits::porep_publics_t pub{replica_id_of(*cfg, c1, who), c1.comm_d, c1.comm_r,
                                                c1.seed};
  std::vector<std::vector<ff::fr_t>> inputs;
  inputs.reserve(partitions);
  for (unsigned k = 0; k < partitions; ++k) {
    auto in = filecoin::circuits::porep_public_inputs(*cfg, graph, pub, k);
    if (!in) return in.error();
    inputs.push_back(std::move(*in));
  }
  return groth16::verify_batch(pvk, *proofs, inputs);
}

}  // namespace cuzk::filecoin::proofs
