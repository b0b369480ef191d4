// SPDX-License-Identifier: Apache-2.0
// WindowPoSt and WinningPoSt on the CPU or GPU prover (post_prover.hpp): parameter generation,
// proving one partition with self-verification, verification.
#include "filecoin/proofs/post_prover.hpp"

#include <algorithm>
#include <filesystem>

#include "filecoin/circuits/fallback_post_circuit.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/post/challenges.hpp"
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

std::string post_params_path(const filecoin::post::post_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / (filecoin::circuits::post_param_id(cfg) + ".params"))
      .string();
}

std::string post_vk_path(const filecoin::post::post_config_t& cfg, const std::string& dir) {
  return (std::filesystem::path(dir) / (filecoin::circuits::post_param_id(cfg) + ".vk")).string();
}

result<generated_params_t> generate_post_parameters(filecoin::post::registered_post_proof proof,
                                                    const std::string& out_dir, thread_pool& pool,
                                                    const groth16::progress_fn& progress,
                                                    const std::optional<std::vector<uint8_t>>& seed,
                                                    int gpu_device) {
  auto cfg = filecoin::post::post_config(proof);
  if (!cfg) return cfg.error();
  generated_params_t out;
  out.params_path = post_params_path(*cfg, out_dir);
  out.vk_path = post_vk_path(*cfg, out_dir);

  const filecoin::circuits::fallback_post_counts_t counts =
      filecoin::circuits::fallback_post_circuit_counts(*cfg);
  const auto blank = filecoin::circuits::blank_fallback_post_circuit(*cfg);
  if (status st = steps::setup_and_write(
          [&](groth16::qap_cs& cs) {
            filecoin::circuits::synthesize_fallback_post_circuit(cs, blank);
          },
          counts.constraints, counts.inputs, counts.aux, seed, pool, progress, out, gpu_device);
      !st)
    return st;
  return out;
}

std::vector<filecoin::post::public_sector_t> public_sectors_of(
    std::span<const filecoin::post::fallback_sector_proof_t> vanilla) {
  std::vector<filecoin::post::public_sector_t> out;
  out.reserve(vanilla.size());
  for (const auto& v : vanilla) out.push_back({v.sector_id, v.comm_r});
  return out;
}

result<std::vector<uint8_t>> prove_post(const post_inputs_t& in, const std::string& params_dir,
                                        thread_pool& pool, prove_timings_t* timings,
                                        const prove_options_t& opt) {
  prove_timings_t local;
  prove_timings_t& tm = timings ? *timings : local;
  tm = {};
  const auto t_start = clock_type::now();

  if (status s = check_backend_request(opt.gpu_device); !s) return s;
  auto cfg = filecoin::post::post_config(in.proof);
  if (!cfg) return cfg.error();
  if (cfg->kind == filecoin::post::post_kind::winning && in.partition != 0) {
    return status(status_code::invalid_argument,
                  "WinningPoSt has only partition 0, not " + std::to_string(in.partition));
  }
  if (status s = filecoin::post::check_safe_commitment(in.randomness, "randomness"); !s) return s;
  const std::string params_path = post_params_path(*cfg, params_dir);

  if (opt.check_digests) {
    auto t0 = clock_type::now();
    if (status st = steps::check_param_digests(params_path, post_vk_path(*cfg, params_dir),
                                               *opt.check_digests, tm.digests);
        !st)
      return st;
    tm.digest_check = seconds_since(t0);
  }

  if (opt.check_vanilla) {
    auto t0 = clock_type::now();
    if (status s =
            filecoin::post::validate_partition(*cfg, in.vanilla, in.randomness, in.partition, pool);
        !s) {
      return status(status_code::invalid_argument,
                    "the vanilla proofs do not verify: " + s.to_string());
    }
    tm.vanilla_check = seconds_since(t0);
  }

  auto t0 = clock_type::now();
  auto circuit = filecoin::circuits::fallback_post_circuit_from_vanilla(*cfg, in.vanilla);
  if (!circuit) {
    return status(status_code::invalid_argument,
                  "vanilla proofs unfit for the circuit: " + circuit.error().to_string());
  }
  const filecoin::circuits::fallback_post_counts_t counts =
      filecoin::circuits::fallback_post_circuit_counts(*cfg);
  r1cs::proving_cs cs;
  cs.reserve(counts.constraints, counts.aux, counts.inputs);
  if (status s = filecoin::circuits::synthesize_fallback_post_circuit_parallel(cs, *circuit, pool);
      !s)
    return s;
  cs.finalize();
  tm.synthesis = seconds_since(t0);

  const std::vector<filecoin::post::public_sector_t> sectors = public_sectors_of(in.vanilla);
  auto inputs =
      filecoin::circuits::fallback_post_public_inputs(*cfg, sectors, in.randomness, in.partition);
  if (!inputs) return inputs.error();
  // The circuit's own input values must be the verifier's (ONE first): names an inconsistent
  // vanilla proof more precisely than the pairing check.
  if (cs.num_inputs() != inputs->size() + 1 ||
      !std::equal(inputs->begin(), inputs->end(), cs.inputs().begin() + 1)) {
    return status(status_code::invalid_argument,
                  "the circuit's public inputs differ from the derived ones: the vanilla proofs "
                  "are inconsistent with the randomness or partition");
  }

  t0 = clock_type::now();
  auto backend =
      steps::open_backend(params_path, groth16::make_assignment(cs), cs.num_rows(), opt, pool);
  if (!backend) return backend.error();
  const groth16::prepared_verifying_key pvk = groth16::prepare_verifying_key((*backend)->vk());
  tm.params_load = seconds_since(t0);

  t0 = clock_type::now();
  groth16::prover_timings pt;
  auto pf = steps::prove_one(**backend, groth16::make_assignment(cs), pool, &pt);
  if (!pf) return pf.error();
  tm.prove = seconds_since(t0);
  steps::add(tm.prover, pt);

  // Never hand out an invalid proof: an unsatisfied witness (vanilla proofs that slipped past the
  // checks above, or opt.check_vanilla off) yields a proof that fails here.
  t0 = clock_type::now();
  auto ok = groth16::verify(pvk, *pf, *inputs);
  tm.self_verify = seconds_since(t0);
  if (!ok) return ok.error();
  if (!*ok) {
    return steps::self_check_failure("", groth16::make_assignment(cs), params_path, opt, pool,
                                     "the vanilla proofs are inconsistent");
  }
  tm.partitions = 1;
  tm.total = seconds_since(t_start);
  const groth16::proof one[] = {*pf};
  return groth16::encode_proofs(one);
}

result<bool> verify_post(filecoin::post::registered_post_proof proof,
                         std::span<const filecoin::post::public_sector_t> sectors,
                         const filecoin::post::bytes32_t& randomness, unsigned partition,
                         std::span<const uint8_t> proof_bytes, const std::string& params_dir) {
  auto cfg = filecoin::post::post_config(proof);
  if (!cfg) return cfg.error();
  auto proofs = groth16::decode_proofs(proof_bytes);
  if (!proofs) return status(proofs.error().code(), "proof: " + proofs.error().message());
  if (proofs->size() != 1) {
    return status(status_code::size_mismatch,
                  "proof: " + std::to_string(proofs->size()) + " proofs, a PoSt partition has 1");
  }
  auto inputs =
      filecoin::circuits::fallback_post_public_inputs(*cfg, sectors, randomness, partition);
  if (!inputs) return inputs.error();
  const std::string vk_path = post_vk_path(*cfg, params_dir);
  auto vk = groth16::read_vk(vk_path);
  if (!vk) return status(vk.error().code(), vk_path + ": " + vk.error().message());
  return groth16::verify(groth16::prepare_verifying_key(*vk), proofs->front(), *inputs);
}

}  // namespace cuzk::filecoin::proofs
