// SPDX-License-Identifier: Apache-2.0
// `cuzk params generate --circuit porep|window-post|winning-post|snap --registered-proof NAME
// --out-dir D [--seed TEXT]`: a single-party Groth16 setup of the PoRep StackedCircuit, the PoSt
// FallbackPoSt circuit or the SnapDeals EmptySectorUpdate circuit, written under the official
// file names (<D>/v28-stacked-proof-of-replication-…-<sha256>.params and .vk,
// <D>/v28-proof-of-spacetime-fallback-…, <D>/v28-empty-sector-update-…), progress on stderr.
// PoSt and update proofs are named by wire number, Go or Rust name (PoSt: of the circuit's kind).
// Without
// --seed the trapdoor is fresh OS randomness; with it anyone knowing the seed can forge proofs
// (tests only). --out-dir defaults to $FIL_PROOFS_PARAMETER_CACHE or
// /var/tmp/filecoin-proof-parameters. Exit codes: 0 ok, 2 bad input or usage, 1 failure.
// `cuzk params check [--params-dir D] [--parameters-json FILE] [--circuit C --registered-proof P]`:
// the BLAKE2b-512 digest (first 32 hex chars) of each present official-named .params/.vk in D
// (or only P's, a seal proof for C = porep, the default, else a PoSt proof of C's kind) against
// parameters.json (default: the built-in PoRep and PoSt entries,
// filecoin/proofs/params_digest.hpp); one line per file "ok|MISMATCH|unknown NAME digest". Exit 0
// all ok, 1 a MISMATCH or I/O failure, 2 a file unknown to the facts, none present, or bad usage.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/proofs/params_digest.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "filecoin/proofs/snap_prover.hpp"
#include "filecoin/snap/config.hpp"

namespace cuzk::app {
namespace {

int fail(const std::string& msg, int code = EXIT_BAD) {
  spdlog::error("cuzk params: {}", msg);
  return code;
}

struct generate_args {
  std::string circuit, proof_name, out_dir, seed;
  bool have_seed = false;
};

int run_params_generate(generate_args args) {
  const std::string& proof_name = args.proof_name;
  std::string& out_dir = args.out_dir;
  // The circuit's registered proof, checked before any work.
  std::optional<porep::registered_seal_proof> seal;
  std::optional<post::registered_post_proof> post_proof;
  std::optional<snap::registered_update_proof> update_proof;
  std::string display_name;
  if (args.circuit == "porep") {
    const auto proof = porep::parse_registered_seal_proof(proof_name);
    if (!proof) return fail("generate: " + proof.error().message());
    seal = *proof;
    display_name = porep::name_of(*proof);
  } else if (args.circuit == "snap") {
    const auto proof = snap::parse_registered_update_proof(proof_name);
    if (!proof) return fail("generate: " + proof.error().message());
    update_proof = *proof;
    display_name = snap::name_of(*proof);
  } else {
    const auto proof = post::parse_registered_post_proof(proof_name);
    if (!proof) return fail("generate: " + proof.error().message());
    if (post::to_string(post::kind_of(*proof)) != args.circuit) {
      return fail("generate: " + std::string(post::name_of(*proof)) + " is a " +
                  std::string(post::to_string(post::kind_of(*proof))) + " proof, not " +
                  args.circuit);
    }
    post_proof = *proof;
    display_name = post::name_of(*proof);
  }
  out_dir = proofs::resolve_params_dir(out_dir);

  spdlog::info("cuzk params: generating {} parameters into {}", display_name, out_dir);
  // Every 10 % of a phase: its share done and, from the pace so far, the time it has left
  // (elapsed / done · (total − done)).
  std::string last_phase;
  size_t last_pct = 101;
  auto phase_start = std::chrono::steady_clock::now();
  auto progress = [&](const char* phase, size_t done, size_t total) {
    const size_t pct = total ? done * 100 / total : 100;
    if (phase != last_phase) phase_start = std::chrono::steady_clock::now();
    if (phase != last_phase || pct / 10 != last_pct / 10) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - phase_start).count();
      if (done > 0 && done < total) {
        spdlog::info("cuzk params: {:<9} {:>3}%  ETA {:.0f} s", phase, pct,
                     elapsed / double(done) * double(total - done));
      } else {
        spdlog::info("cuzk params: {:<9} {:>3}%", phase, pct);
      }
      last_phase = phase;
      last_pct = pct;
    }
  };
  std::optional<std::vector<uint8_t>> seed_bytes;
  if (args.have_seed) seed_bytes = std::vector<uint8_t>(args.seed.begin(), args.seed.end());
  thread_pool& pool = thread_pool::default_pool();
  auto gen =
      seal ? proofs::generate_porep_parameters(*seal, out_dir, pool, progress, seed_bytes)
      : update_proof
          ? proofs::generate_update_parameters(*update_proof, out_dir, pool, progress, seed_bytes)
          : proofs::generate_post_parameters(*post_proof, out_dir, pool, progress, seed_bytes);
  if (!gen) return fail("generate: " + gen.error().to_string(), EXIT_FAIL);
  spdlog::info(
      "cuzk params: {} rows ({} inputs, {} aux), domain {}: synthesis {:.1f} s, setup {:.1f} s, "
      "write {:.1f} s, peak RSS {:.0f} MiB",
      gen->rows, gen->inputs, gen->aux, gen->domain_size, gen->synth_s, gen->setup_s, gen->write_s,
      double(proofs::peak_rss_bytes()) / (1 << 20));
  std::printf("%s\n%s\n", gen->params_path.c_str(), gen->vk_path.c_str());
  return EXIT_OK;
}

struct check_args {
  std::string dir, json_path, proof_name, circuit = "porep";
};

int run_params_check(check_args args) {
  std::string& dir = args.dir;
  const std::string& json_path = args.json_path;
  const std::string& proof_name = args.proof_name;
  dir = proofs::resolve_params_dir(dir);
  // --registered-proof is a seal proof for porep, a PoSt proof of the circuit's kind otherwise
  // (the numbers overlap: 3 is StackedDrg32GiBV1 and StackedDrgWinning32GiBV1).
  std::optional<porep::registered_seal_proof> proof;
  std::optional<post::registered_post_proof> post_proof;
  if (!proof_name.empty() && args.circuit == "porep") {
    auto p = porep::parse_registered_seal_proof(proof_name);
    if (!p) return fail("check: " + p.error().message());
    proof = *p;
  } else if (!proof_name.empty()) {
    auto p = post::parse_registered_post_proof(proof_name);
    if (!p) return fail("check: " + p.error().message());
    if (post::to_string(post::kind_of(*p)) != args.circuit) {
      return fail("check: " + std::string(post::name_of(*p)) + " is a " +
                  std::string(post::to_string(post::kind_of(*p))) + " proof, not " + args.circuit);
    }
    post_proof = *p;
  }
  std::vector<proofs::param_fact_t> facts;
  if (json_path.empty()) {
    facts = proofs::builtin_param_facts();
  } else {
    auto f = proofs::read_parameters_json(json_path);
    if (!f) {
      return fail("check: " + f.error().to_string(),
                  f.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD);
    }
    facts = std::move(*f);
  }
  auto checks = post_proof ? proofs::check_params_dir(dir, facts, *post_proof)
                           : proofs::check_params_dir(dir, facts, proof);
  if (!checks) return fail("check: " + checks.error().to_string(), EXIT_FAIL);
  if (checks->empty()) return fail("check: no parameter files in " + dir);
  bool mismatch = false, unknown = false;
  for (const auto& c : *checks) {
    std::printf("%-8s %s %s", proofs::name_of(c.verdict), c.name.c_str(), c.actual.c_str());
    if (c.verdict == proofs::digest_verdict::mismatch) {
      std::printf(" (expected %s)", c.expected.c_str());
      mismatch = true;
    }
    if (c.verdict == proofs::digest_verdict::unknown) unknown = true;
    std::printf("\n");
  }
  return mismatch ? EXIT_FAIL : unknown ? EXIT_BAD : EXIT_OK;
}

}  // namespace

void add_params_commands(CLI::App& root, command_runner& chosen) {
  auto* params = root.add_subcommand(
      "params", "generate and check PoRep, PoSt and SnapDeals Groth16 parameters");
  params->require_subcommand(1);

  auto gen = std::make_shared<generate_args>();
  auto* generate = params->add_subcommand(
      "generate",
      "single-party Groth16 setup of the PoRep, PoSt or SnapDeals circuit, written as the official "
      ".params/.vk names in the output directory");
  generate
      ->add_option("--circuit", gen->circuit,
                   "the circuit: porep, window-post, winning-post or snap (EmptySectorUpdate)")
      ->required()
      ->check(CLI::IsMember({"porep", "window-post", "winning-post", "snap"}));
  generate
      ->add_option("--registered-proof", gen->proof_name,
                   "registered seal proof (porep), PoSt proof or update proof (snap): name or id")
      ->required();
  generate->add_option("--out-dir", gen->out_dir,
                       "output directory (default $FIL_PROOFS_PARAMETER_CACHE or "
                       "/var/tmp/filecoin-proof-parameters)");
  generate
      ->add_option("--seed", gen->seed,
                   "makes the setup deterministic (tests only: the seed is the trapdoor)")
      ->type_name("TEXT")
      ->each([gen](const std::string&) { gen->have_seed = true; });
  generate->footer(std::string(REGISTERED_PROOFS_HELP) + "\n" + REGISTERED_POST_PROOFS_HELP + "\n" +
                   REGISTERED_UPDATE_PROOFS_HELP);
  on_selected(generate, chosen, [gen] { return run_params_generate(*gen); });

  auto chk = std::make_shared<check_args>();
  auto* check = params->add_subcommand(
      "check",
      "BLAKE2b-512 digests of the .params/.vk in a directory against parameters.json; prints "
      "ok|MISMATCH|unknown per file");
  check->add_option("--params-dir", chk->dir,
                    "parameter directory (default $FIL_PROOFS_PARAMETER_CACHE or "
                    "/var/tmp/filecoin-proof-parameters)");
  check->add_option(
      "--parameters-json", chk->json_path,
      "parameters.json with the expected digests (default: built-in PoRep and PoSt facts)");
  check->add_option("--registered-proof", chk->proof_name,
                    "check only this registered proof's files (of --circuit's kind)");
  check
      ->add_option("--circuit", chk->circuit,
                   "the kind of --registered-proof: porep (default), window-post or winning-post")
      ->check(CLI::IsMember({"porep", "window-post", "winning-post"}));
  check->footer(
      "exit status: 0 all ok, 1 a MISMATCH or I/O failure, 2 an unknown file, none "
      "present, or bad usage");
  on_selected(check, chosen, [chk] { return run_params_check(*chk); });
}

}  // namespace cuzk::app
