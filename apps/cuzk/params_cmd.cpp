// SPDX-License-Identifier: Apache-2.0
// `cuzk params generate --circuit porep|window-post|winning-post|snap --registered-proof NAME
// --out-dir D [--seed TEXT] [--gpu N]`: a single-party Groth16 setup of the PoRep StackedCircuit,
// the PoSt FallbackPoSt circuit or the SnapDeals EmptySectorUpdate circuit, written under the
// official file names (<D>/v28-stacked-proof-of-replication-…-<sha256>.params and .vk,
// <D>/v28-proof-of-spacetime-fallback-…, <D>/v28-empty-sector-update-…), progress on stderr.
// PoSt and update proofs are named by wire number, Go or Rust name (PoSt: of the circuit's kind).
// Without
// --seed the trapdoor is fresh OS randomness; with it anyone knowing the seed can forge proofs
// (tests only). --gpu N runs the fixed-base multiplications on CUDA device N (the same bytes as
// the CPU; groth16/setup_gpu.hpp). --out-dir defaults to $FIL_PROOFS_PARAMETER_CACHE or
// /var/tmp/filecoin-proof-parameters. Exit codes: 0 ok, 2 bad input or usage, 1 failure.
// `cuzk params check [--params-dir D] [--parameters-json FILE] [--circuit C --registered-proof P]`:
// the BLAKE2b-512 digest (first 32 hex chars) of each present official-named .params/.vk in D
// (or only P's, a seal proof for C = porep, the default, else a PoSt proof of C's kind) against
// parameters.json (default: the built-in PoRep and PoSt entries,
// filecoin/proofs/params_digest.hpp); one line per file "ok|MISMATCH|unknown NAME digest". Exit 0
// all ok, 1 a MISMATCH or I/O failure, 2 a file unknown to the facts, none present, or bad usage.
// `cuzk params load --params FILE [--checks batched|full|on-curve|none] [--gpu N [--decoder
// device|host] [--residency device|host]]`: decodes every point as the CPU prover does (or, with
// --gpu, loads the queries for GPU N as the daemon does: onto the device, decoded there or on the
// host, or into page-locked host memory), with progress lines and an ETA, and prints the time and
// rate (how the subgroup-check costs in docs/notes/params-format.md and the load rates in
// bench/results were measured). Exit 2 names the first bad point.
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
#include "groth16/params_io.hpp"
#if defined(CUZK_WITH_CUDA)
#include "groth16/prover_gpu.hpp"
#endif
#include "phase_progress.hpp"

namespace cuzk::app {
namespace {

int fail(const std::string& msg, int code = EXIT_BAD) {
  spdlog::error("cuzk params: {}", msg);
  return code;
}

struct generate_args {
  std::string circuit, proof_name, out_dir, seed;
  bool have_seed = false;
  int gpu = -1;
};

int run_params_generate(generate_args args) {
  const std::string& proof_name = args.proof_name;
  std::string& out_dir = args.out_dir;
  // The circuit's registered proof, checked before any work.
  std::optional<filecoin::porep::registered_seal_proof> seal;
  std::optional<filecoin::post::registered_post_proof> post_proof;
  std::optional<filecoin::snap::registered_update_proof> update_proof;
  std::string display_name;
  if (args.circuit == "porep") {
    const auto proof = filecoin::porep::parse_registered_seal_proof(proof_name);
    if (!proof) return fail("generate: " + proof.error().message());
    seal = *proof;
    display_name = filecoin::porep::name_of(*proof);
  } else if (args.circuit == "snap") {
    const auto proof = filecoin::snap::parse_registered_update_proof(proof_name);
    if (!proof) return fail("generate: " + proof.error().message());
    update_proof = *proof;
    display_name = filecoin::snap::name_of(*proof);
  } else {
    const auto proof = filecoin::post::parse_registered_post_proof(proof_name);
    if (!proof) return fail("generate: " + proof.error().message());
    if (filecoin::post::to_string(filecoin::post::kind_of(*proof)) != args.circuit) {
      return fail("generate: " + std::string(filecoin::post::name_of(*proof)) + " is a " +
                  std::string(filecoin::post::to_string(filecoin::post::kind_of(*proof))) +
                  " proof, not " + args.circuit);
    }
    post_proof = *proof;
    display_name = filecoin::post::name_of(*proof);
  }
  out_dir = filecoin::proofs::resolve_params_dir(out_dir);

  spdlog::info("cuzk params: generating {} parameters into {}", display_name, out_dir);
  const progress_fn progress = phase_progress_lines("cuzk params");
  std::optional<std::vector<uint8_t>> seed_bytes;
  if (args.have_seed) seed_bytes = std::vector<uint8_t>(args.seed.begin(), args.seed.end());
  thread_pool& pool = thread_pool::default_pool();
  auto gen = seal ? filecoin::proofs::generate_porep_parameters(*seal, out_dir, pool, progress,
                                                                seed_bytes, args.gpu)
             : update_proof ? filecoin::proofs::generate_update_parameters(
                                  *update_proof, out_dir, pool, progress, seed_bytes, args.gpu)
                            : filecoin::proofs::generate_post_parameters(
                                  *post_proof, out_dir, pool, progress, seed_bytes, args.gpu);
  if (!gen) return fail("generate: " + gen.error().to_string(), EXIT_FAIL);
  spdlog::info(
      "cuzk params: {} rows ({} inputs, {} aux), domain {}: synthesis {:.1f} s, setup {:.1f} s, "
      "write {:.1f} s, peak RSS {:.0f} MiB",
      gen->rows, gen->inputs, gen->aux, gen->domain_size, gen->synth_s, gen->setup_s, gen->write_s,
      double(filecoin::proofs::peak_rss_bytes()) / (1 << 20));
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
  dir = filecoin::proofs::resolve_params_dir(dir);
  // --registered-proof is a seal proof for porep, a PoSt proof of the circuit's kind otherwise
  // (the numbers overlap: 3 is StackedDrg32GiBV1 and StackedDrgWinning32GiBV1).
  std::optional<filecoin::porep::registered_seal_proof> proof;
  std::optional<filecoin::post::registered_post_proof> post_proof;
  if (!proof_name.empty() && args.circuit == "porep") {
    auto p = filecoin::porep::parse_registered_seal_proof(proof_name);
    if (!p) return fail("check: " + p.error().message());
    proof = *p;
  } else if (!proof_name.empty()) {
    auto p = filecoin::post::parse_registered_post_proof(proof_name);
    if (!p) return fail("check: " + p.error().message());
    if (filecoin::post::to_string(filecoin::post::kind_of(*p)) != args.circuit) {
      return fail("check: " + std::string(filecoin::post::name_of(*p)) + " is a " +
                  std::string(filecoin::post::to_string(filecoin::post::kind_of(*p))) +
                  " proof, not " + args.circuit);
    }
    post_proof = *p;
  }
  std::vector<filecoin::proofs::param_fact_t> facts;
  if (json_path.empty()) {
    facts = filecoin::proofs::builtin_param_facts();
  } else {
    if (status s = check_input_file("--parameters-json", json_path); !s)
      return fail("check: " + s.message());
    auto f = filecoin::proofs::read_parameters_json(json_path);
    if (!f) {
      return fail("check: " + f.error().to_string(),
                  f.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD);
    }
    facts = std::move(*f);
  }
  auto checks = post_proof ? filecoin::proofs::check_params_dir(dir, facts, *post_proof)
                           : filecoin::proofs::check_params_dir(dir, facts, proof);
  if (!checks) return fail("check: " + checks.error().to_string(), EXIT_FAIL);
  if (checks->empty()) return fail("check: no parameter files in " + dir);
  bool mismatch = false, unknown = false;
  for (const auto& c : *checks) {
    std::printf("%-8s %s %s", filecoin::proofs::name_of(c.verdict), c.name.c_str(),
                c.actual.c_str());
    if (c.verdict == filecoin::proofs::digest_verdict::mismatch) {
      std::printf(" (expected %s)", c.expected.c_str());
      mismatch = true;
    }
    if (c.verdict == filecoin::proofs::digest_verdict::unknown) unknown = true;
    std::printf("\n");
  }
  return mismatch ? EXIT_FAIL : unknown ? EXIT_BAD : EXIT_OK;
}

struct load_args {
  std::string path, checks = "batched";
  int gpu = -1;
  std::string decoder = "device", residency = "device";
};

/// The point checks by their CLI names (to_string(point_checks) spelled with dashes).
groth16::point_checks checks_named(const std::string& name) {
  using enum groth16::point_checks;
  return name == "full"       ? full
         : name == "on-curve" ? on_curve_only
         : name == "none"     ? none
                              : batched;
}

/// Loads the queries for GPU args.gpu as the daemon does; the vk is decoded on the host.
result<std::string> load_for_gpu(const groth16::params_file& file, groth16::point_checks checks,
                                 const load_args& args, const progress_fn& progress) {
#if defined(CUZK_WITH_CUDA)
  using groth16::cuda::device_parameters;
  using groth16::cuda::params_decoder;
  const bool on_host = args.residency == "host";
  const params_decoder decoder =
      args.decoder == "host" ? params_decoder::host : params_decoder::device;
  auto dp = on_host ? device_parameters::host_resident(file, checks, args.gpu,
                                                       thread_pool::default_pool(), progress,
                                                       groth16::cuda::default_ring_bytes, decoder)
                    : device_parameters::stream_from(
                          file, checks, args.gpu, thread_pool::default_pool(), progress, decoder);
  if (!dp) return dp.error();
  const bool device_decode =
      decoder == params_decoder::device &&
      (checks == groth16::point_checks::on_curve_only || checks == groth16::point_checks::none);
  const std::string gpu = std::to_string(args.gpu);
  const std::string decoded = device_decode ? ", decoded on the GPU" : ", decoded on the host";
  if (on_host) return "into page-locked host memory for GPU " + gpu + decoded;
  return "onto GPU " + gpu + decoded;
#else
  (void)file, (void)checks, (void)progress;
  return status(status_code::invalid_argument,
                "--gpu " + std::to_string(args.gpu) + ": this build has no CUDA support");
#endif
}

int run_params_load(const load_args& args) {
  if (status s = check_input_file("--params", args.path); !s) return fail("load: " + s.message());
  auto file = groth16::params_file::open(args.path);
  if (!file) return fail("load: " + file.error().to_string());
  const groth16::point_checks checks = checks_named(args.checks);
  const auto t0 = std::chrono::steady_clock::now();
  const progress_fn progress = phase_progress_lines("cuzk params load", progress_units::bytes);
  std::string where = "into host memory (CPU prover)";
  if (args.gpu >= 0) {
    auto r = load_for_gpu(*file, checks, args, progress);
    if (!r) return fail("load: " + args.path + ": " + r.error().to_string());
    where = *r;
  } else {
    auto params = file->load_all(checks, thread_pool::default_pool(), progress);
    if (!params) return fail("load: " + args.path + ": " + params.error().to_string());
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto q = file->sizes();
  const uint64_t g1 = q.ic + q.h + q.l + q.a + q.b_g1;
  std::printf(
      "%s: %llu G1 + %llu G2 points, checks %s, %s: %.2f s (%.0f points/s, %.2f GB/s on "
      "%u threads)\n",
      args.path.c_str(), (unsigned long long)g1, (unsigned long long)q.b_g2,
      std::string(groth16::to_string(checks)).c_str(), where.c_str(), secs,
      double(g1 + q.b_g2) / secs, double(file->file_size()) / secs / 1e9,
      thread_pool::default_pool().size());
  return EXIT_OK;
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
  generate
      ->add_option("--gpu", gen->gpu,
                   "run the fixed-base multiplications on CUDA device N (CUDA builds only)")
      ->check(CLI::NonNegativeNumber);
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

  auto ld = std::make_shared<load_args>();
  auto* load = params->add_subcommand(
      "load",
      "decode every point of a .params file as the prover does, with progress; prints the time "
      "(exit 2 names the first bad point)");
  load->add_option("--params", ld->path, "the .params file")->required();
  load->add_option("--checks", ld->checks,
                   "point checks: batched (curve per point, subgroup by random subset sums), "
                   "full (subgroup per point), on-curve (the provers' default), none")
      ->check(CLI::IsMember({"batched", "full", "on-curve", "none"}))
      ->capture_default_str();
  load->add_option("--gpu", ld->gpu, "load for this CUDA device as the daemon does")
      ->check(CLI::NonNegativeNumber);
  load->add_option("--decoder", ld->decoder,
                   "with --gpu: decode on the device (on-curve and none checks; through a device "
                   "scratch for --residency host) or on the host")
      ->check(CLI::IsMember({"device", "host"}))
      ->capture_default_str();
  load->add_option("--residency", ld->residency,
                   "with --gpu: the queries in device memory or in page-locked host memory")
      ->check(CLI::IsMember({"device", "host"}))
      ->capture_default_str();
  on_selected(load, chosen, [ld] { return run_params_load(*ld); });
}

}  // namespace cuzk::app
