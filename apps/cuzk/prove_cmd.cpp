// SPDX-License-Identifier: Apache-2.0
// `cuzk prove porep --c1 c1.json --params-dir D [--miner-id N|--prover-id HEX] [--sector-id N]
//  --proof-out proof.bin` and `cuzk verify porep … --proof proof.bin`: PoRep C2 on the CPU prover
// (engine/porep_prover.hpp). With a miner/prover id the replica_id is re-derived as C2 does and
// must match the C1's (prove) or defines the public inputs (verify); without one the C1's
// replica_id is used. --sector-id defaults to the wrapper's SectorNum; --params-dir to
// $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters. Per-phase timings and peak
// RSS go to stderr. `prove --check-digests` first checks the BLAKE2b-512 digests of the .params and
// .vk against parameters.json (--parameters-json FILE, default the built-in PoRep facts) and
// refuses to prove with a mismatched or unknown file. The parameters' points are checked on the
// curve while they load, as the daemon does; --param-checks batched|full adds the subgroup, except
// after a digest check (the official file). The load shows progress lines with an ETA. A proof
// that fails self-verification names the suspect input: the C1 (a constraint does not hold) or the
// parameters. `--gpu N` proves on CUDA device N (CUDA builds only). Exit codes: 0 ok / valid, 1
// invalid proof or I/O failure, 2 bad input.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/file_io.hpp"
#include "cli_args.hpp"
#include "cuzk/log.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "logging.hpp"
#include "phase_progress.hpp"

namespace cuzk::app {
namespace {

struct porep_args {
  std::string c1_path, params_dir, proof_path, proof_name, parameters_json;
  bool check_digests = false;
  std::string param_checks = default_param_checks();  // --param-checks
  int gpu = -1;
  uint64_t gpu_memory_mib = 0;  // --gpu-memory-mib; 0: what the device has free
  identity_args id;
  filecoin::porep::c1_output_t c1;
  std::optional<filecoin::proofs::prover_identity_t> who;
};

/// Adds the options prove and verify share; `proof_flag` is --proof-out (prove) or --proof
/// (verify).
void add_porep_options(CLI::App& cmd, porep_args& args, const std::string& proof_flag,
                       const std::string& proof_help) {
  cmd.add_option("--c1", args.c1_path, "C1 output: the lotus-bench c1.json wrapper or raw JSON")
      ->required();
  cmd.add_option("--params-dir", args.params_dir,
                 "parameter directory (default $FIL_PROOFS_PARAMETER_CACHE or "
                 "/var/tmp/filecoin-proof-parameters)");
  args.id.add_to(cmd);
  cmd.add_option(proof_flag, args.proof_path, proof_help)->required();
  cmd.add_option("--registered-proof", args.proof_name, "registered seal proof (bincode C1 only)");
}

/// Reads the C1 and resolves the prover identity; -1 on success, else the exit code (the error
/// already logged with `prefix`).
int load_c1(const char* prefix, porep_args& args) {
  args.params_dir = filecoin::proofs::resolve_params_dir(args.params_dir);
  if (status s = check_input_file("--c1", args.c1_path); !s) {
    spdlog::error("{}: {}", prefix, s.message());
    return EXIT_BAD;
  }
  std::optional<uint64_t> sector_num;
  auto c1 = filecoin::porep::read_c1_file(args.c1_path, args.proof_name, &sector_num);
  if (!c1) {
    spdlog::error("{}: --c1: {}", prefix, c1.error().to_string());
    return c1.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  args.c1 = std::move(*c1);
  auto who = args.id.resolve(sector_num);
  if (!who) {
    spdlog::error("{}: {}", prefix, who.error().message());
    return EXIT_BAD;
  }
  if (*who) {
    args.who = filecoin::proofs::prover_identity_t{(*who)->first, (*who)->second};
  } else {
    spdlog::warn("{}: no --miner-id/--prover-id: using the C1's replica_id", prefix);
  }
  return -1;
}

int run_prove_porep(porep_args& args) {
  const char* prefix = "cuzk prove porep";
  if (int rc = load_c1(prefix, args); rc >= 0) return rc;
  // The output is opened before the work: a directory, a device (/dev/full) or an unwritable
  // directory is refused now, not after minutes of proving.
  auto out = atomic_file_writer::create(args.proof_path);
  if (!out) {
    spdlog::error("{}: --proof-out: {}", prefix, out.error().to_string());
    return EXIT_BAD;
  }
  filecoin::proofs::prove_options_t opt;
  opt.gpu_device = args.gpu;
  opt.gpu_memory_budget = args.gpu_memory_mib << 20;
  opt.params_checks = param_checks_of(args.param_checks);
  // The backend choice (and a CPU fallback when a GPU was asked for but none is present).
  opt.log = spdlog_log_sink();
  if (args.check_digests) {
    if (args.parameters_json.empty()) {
      const auto b = filecoin::proofs::builtin_porep_facts();
      opt.check_digests.emplace(b.begin(), b.end());
    } else {
      if (status s = check_input_file("--parameters-json", args.parameters_json); !s) {
        spdlog::error("{}: {}", prefix, s.message());
        return EXIT_BAD;
      }
      auto f = filecoin::proofs::read_parameters_json(args.parameters_json);
      if (!f) {
        spdlog::error("{}: --parameters-json: {}", prefix, f.error().to_string());
        return f.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
      }
      opt.check_digests = std::move(*f);
    }
  }
  // The parameter load with progress lines and ETA, as `cuzk params generate` shows its phases.
  opt.params_progress =
      phase_progress_lines(std::string(prefix) + ": parameters", progress_units::bytes);
  // Files whose BLAKE2b-512 digest matched the official parameters.json are the official setup:
  // a subgroup check (--param-checks batched|full) adds nothing for them.
  if (args.check_digests) opt.params_checks = groth16::point_checks::on_curve_only;
  filecoin::proofs::prove_timings_t tm;
  auto proof = filecoin::proofs::prove_porep(args.c1, args.who, args.params_dir,
                                             thread_pool::default_pool(), &tm, opt);
  for (const auto& c : tm.digests) {
    const auto level = c.verdict == filecoin::proofs::digest_verdict::ok ? spdlog::level::info
                                                                         : spdlog::level::err;
    spdlog::log(level, "{}: digest {:<8} {} {}", prefix, filecoin::proofs::name_of(c.verdict),
                c.name, c.actual);
  }
  if (!proof) {
    const status_code c = proof.error().code();
    spdlog::error("{}: {}", prefix, proof.error().to_string());
    // A digest MISMATCH exits 1 like `cuzk params check`; an unknown file 2.
    const bool mismatch = std::any_of(tm.digests.begin(), tm.digests.end(), [](const auto& d) {
      return d.verdict == filecoin::proofs::digest_verdict::mismatch;
    });
    return mismatch || c == status_code::io_error || c == status_code::internal ? EXIT_FAIL
                                                                                : EXIT_BAD;
  }
  if (status s = out->write(*proof); !s || !(s = out->commit())) {
    spdlog::error("{}: cannot write the proof: {}", prefix, s.to_string());
    return EXIT_FAIL;
  }
  const auto& t = tm.prover;
  spdlog::info("{}: {} partition(s), {} bytes -> {} (self-verified)", prefix, tm.partitions,
               proof->size(), args.proof_path);
  spdlog::info(
      "{}: vanilla check {:.2f} s | params load {:.1f} s | synthesis {:.1f} s | prove {:.1f} s "
      "(ntt {:.1f}, h {:.1f}, msm h {:.1f}, l {:.1f}, a {:.1f}, b_g1 {:.1f}, b_g2 {:.1f} s) | "
      "self-verify {:.2f} s | total {:.1f} s | peak RSS {:.0f} MiB",
      prefix, tm.vanilla_check, tm.params_load, tm.synthesis, tm.prove,
      (t.ntt_a + t.ntt_b + t.ntt_c) / 1e3, t.h_compute / 1e3, t.msm_h / 1e3, t.msm_l / 1e3,
      t.msm_a / 1e3, t.msm_b_g1 / 1e3, t.msm_b_g2 / 1e3, tm.self_verify, tm.total,
      double(filecoin::proofs::peak_rss_bytes()) / (1 << 20));
  return EXIT_OK;
}

int run_verify_porep(porep_args& args) {
  const char* prefix = "cuzk verify porep";
  if (int rc = load_c1(prefix, args); rc >= 0) return rc;
  auto bytes = read_file_bounded(args.proof_path, MAX_PROOF_FILE_BYTES);
  if (!bytes) {
    spdlog::error("{}: --proof: {}", prefix, bytes.error().to_string());
    return EXIT_BAD;
  }
  auto ok = filecoin::proofs::verify_porep(args.c1, args.who, *bytes, args.params_dir);
  if (!ok) {
    spdlog::error("{}: {}", prefix, ok.error().to_string());
    return ok.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  std::printf("%s\n", *ok ? "valid" : "invalid");
  return *ok ? EXIT_OK : EXIT_FAIL;
}

}  // namespace

void add_post_prove_commands(CLI::App& prove, CLI::App& verify, command_runner& chosen);
void add_snap_prove_commands(CLI::App& prove, CLI::App& verify, command_runner& chosen);

void add_prove_commands(CLI::App& root, command_runner& chosen) {
  auto* prove = root.add_subcommand(
      "prove", "prove PoRep C2 from a C1 file, a PoSt partition or a SnapDeals update");
  prove->require_subcommand(1);
  auto prove_args = std::make_shared<porep_args>();
  auto* prove_porep = prove->add_subcommand(
      "porep", "PoRep C2 on the CPU prover (or --gpu N); per-phase timings on stderr");
  add_porep_options(*prove_porep, *prove_args, "--proof-out", "where to write the proof");
  auto* check = prove_porep->add_flag(
      "--check-digests", prove_args->check_digests,
      "first check the .params/.vk BLAKE2b-512 digests; refuse a mismatched or unknown file");
  prove_porep
      ->add_option("--parameters-json", prove_args->parameters_json,
                   "parameters.json for --check-digests (default: built-in PoRep facts)")
      ->needs(check);
  add_param_checks_option(*prove_porep, prove_args->param_checks);
  auto* gpu =
      prove_porep->add_option("--gpu", prove_args->gpu, "prove on CUDA device N (CUDA builds only)")
          ->transform(decimal_u64(0, 1023));
  prove_porep
      ->add_option("--gpu-memory-mib", prove_args->gpu_memory_mib,
                   "device memory the prover may use (default: what is free); parameters that "
                   "do not fit with the working set stay in host memory, streamed per partition")
      ->transform(decimal_u64(1, uint64_t(1) << 30))
      ->needs(gpu);
  on_selected(prove_porep, chosen, [prove_args] { return run_prove_porep(*prove_args); });

  auto* verify = root.add_subcommand("verify", "verify a PoRep, PoSt or SnapDeals proof");
  verify->require_subcommand(1);
  auto verify_args = std::make_shared<porep_args>();
  auto* verify_porep = verify->add_subcommand("porep", "verify a PoRep C2 proof");
  add_porep_options(*verify_porep, *verify_args, "--proof", "the proof to verify");
  verify_porep->footer("exit status: 0 valid, 1 invalid proof or I/O failure, 2 bad input");
  on_selected(verify_porep, chosen, [verify_args] { return run_verify_porep(*verify_args); });
  add_post_prove_commands(*prove, *verify, chosen);
  add_snap_prove_commands(*prove, *verify, chosen);
}

}  // namespace cuzk::app
