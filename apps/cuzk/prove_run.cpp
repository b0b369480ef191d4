// SPDX-License-Identifier: Apache-2.0
// The one prove loop of `cuzk prove <kind>` (prove_run.hpp): the kind's loader builds the
// request, then the same steps for every kind, the proof made by an in-process engine exactly as
// the daemon makes it.
#include "prove_run.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/file_io.hpp"
#include "filecoin/common/vanilla_file.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/prove_steps.hpp"
#include "filecoin/proofs/prover_backend.hpp"
#include "logging.hpp"
#include "phase_progress.hpp"

namespace cuzk::app {
namespace {

/// The flags every prove command shares.
struct prove_flags {
  bool check_digests = false;
  std::string parameters_json;
  std::string param_checks = default_param_checks();  // --param-checks
  int gpu = -1;
  uint64_t gpu_memory_mib = 0;  // --gpu-memory-mib; 0: what the device has free
};

/// A failure of the work rather than of its input exits 1: files that cannot be read, the
/// machine's memory, a device, an internal error; everything else is bad input (2).
int exit_code_of(status_code c) {
  switch (c) {
    case status_code::io_error:
    case status_code::internal:
    case status_code::resource_exhausted:
    case status_code::unavailable:
    case status_code::cancelled:
      return EXIT_FAIL;
    default:
      return EXIT_BAD;
  }
}

engine::engine_config::param_checks engine_checks_of(const std::string& word) {
  using enum engine::engine_config::param_checks;
  return word == "full" ? full : word == "batched" ? batched : on_curve;
}

/// --check-digests, a CLI-only step before the proof (the daemon's files are checked when they
/// are fetched): -1 when both files match, else the exit code (a MISMATCH exits 1 like `cuzk
/// params check`, an unknown file 2).
int check_digests(const std::string& prefix, const prove_kind_spec& spec, const prove_flags& flags,
                  const prove_job& job) {
  std::vector<filecoin::proofs::param_fact_t> facts;
  if (flags.parameters_json.empty()) {
    facts.assign(spec.builtin_facts.begin(), spec.builtin_facts.end());
  } else {
    if (status s = check_input_file("--parameters-json", flags.parameters_json); !s) {
      spdlog::error("{}: {}", prefix, s.message());
      return EXIT_BAD;
    }
    auto f = filecoin::proofs::read_parameters_json(flags.parameters_json);
    if (!f) {
      spdlog::error("{}: --parameters-json: {}", prefix, f.error().to_string());
      return f.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
    }
    facts = std::move(*f);
  }
  std::vector<filecoin::proofs::digest_check_t> digests;
  // Every official pair is <id>.params and <id>.vk (filecoin/circuits/params_name.hpp).
  const std::string vk_path =
      std::filesystem::path(job.params_path).replace_extension(".vk").string();
  const status st =
      filecoin::proofs::steps::check_param_digests(job.params_path, vk_path, facts, digests);
  bool mismatch = false;
  for (const auto& c : digests) {
    const bool ok = c.verdict == filecoin::proofs::digest_verdict::ok;
    mismatch |= c.verdict == filecoin::proofs::digest_verdict::mismatch;
    spdlog::log(ok ? spdlog::level::info : spdlog::level::err, "{}: digest {:<8} {} {}", prefix,
                filecoin::proofs::name_of(c.verdict), c.name, c.actual);
  }
  if (st) return -1;
  spdlog::error("{}: {}", prefix, st.to_string());
  return mismatch ? EXIT_FAIL : exit_code_of(st.code());
}

/// The engine the command proves with: the daemon's, on the CPU or on GPU --gpu N alone (no CPU
/// fallback: the command proves where it was told), the whole machine's memory its budget (one
/// proof, as the command had before the engine).
result<engine::engine_config> engine_config_of(const std::string& prefix, const prove_flags& flags,
                                               const std::string& params_dir, bool digests_ok) {
  engine::engine_config cfg;
  cfg.param_dir = params_dir;
  // Files whose BLAKE2b-512 digest matched the official parameters.json are the official setup:
  // a subgroup check (--param-checks batched|full) adds nothing for them.
  cfg.params_checks = digests_ok ? engine::engine_config::param_checks::on_curve
                                 : engine_checks_of(flags.param_checks);
  cfg.log = spdlog_log_sink();
  cfg.host_safety_margin = 0;
  cfg.express_lane = false;  // one job: no PoRep to overtake
  if (flags.gpu < 0) {
    cfg.disable_gpus = true;
    return cfg;
  }
  if (status s = filecoin::proofs::check_backend_request(flags.gpu); !s) return s;
  bool present = false;
  const auto gpus = filecoin::proofs::list_gpus();
  for (const auto& g : gpus) present |= g.ordinal == flags.gpu;
  if (!present) {
    if (!gpus.empty()) {
      return status(status_code::invalid_argument, "--gpu " + std::to_string(flags.gpu) +
                                                       ": no such CUDA device (" +
                                                       std::to_string(gpus.size()) + " present)");
    }
    spdlog::warn("{}: --gpu {}: no CUDA device present, proving on the CPU", prefix, flags.gpu);
    cfg.disable_gpus = true;
    return cfg;
  }
  cfg.gpu_devices = {flags.gpu};
  cfg.device_memory_budget = flags.gpu_memory_mib ? flags.gpu_memory_mib << 20
                                                  : filecoin::proofs::gpu_free_bytes(flags.gpu);
  cfg.cpu_fallback_max_param_bytes = 0;
  return cfg;
}

int run_prove(const prove_kind_spec& spec, const prove_flags& flags) {
  const std::string prefix = "cuzk prove " + spec.name;
  prove_job job;
  if (int rc = spec.load(prefix, job); rc >= 0) return rc;
  // The output is opened before the work: a directory, a device (/dev/full) or an unwritable
  // directory is refused now, not after minutes of proving.
  auto out = atomic_file_writer::create(job.proof_path);
  if (!out) {
    spdlog::error("{}: --proof-out: {}", prefix, out.error().to_string());
    return EXIT_BAD;
  }
  if (flags.check_digests) {
    if (int rc = check_digests(prefix, spec, flags, job); rc >= 0) return rc;
  }
  auto cfg = engine_config_of(prefix, flags, job.params_dir, flags.check_digests);
  if (!cfg) {
    spdlog::error("{}: {}", prefix, cfg.error().to_string());
    return exit_code_of(cfg.error().code());
  }
  auto engine = engine::proving_engine::create(*cfg);
  if (!engine) {
    spdlog::error("{}: {}", prefix, engine.error().to_string());
    return exit_code_of(engine.error().code());
  }
  auto submitted = (*engine)->submit(std::move(job.request));
  if (!submitted) {
    spdlog::error("{}: {}", prefix, submitted.error().to_string());
    return exit_code_of(submitted.error().code());
  }
  // The parameter load with progress lines and ETA (from the engine's status), as `cuzk params
  // generate` shows its phases.
  const progress_fn progress = phase_progress_lines(prefix + ": parameters", progress_units::bytes);
  result<engine::job_result> r = status(status_code::internal, "not awaited");
  for (;;) {
    r = (*engine)->await(submitted->job_id, std::chrono::seconds(1));
    if (!r || (r->state != engine::job_state::queued && r->state != engine::job_state::running))
      break;
    for (const engine::srs_status& s : (*engine)->status().srs)
      if (s.loading && s.load_total_bytes) progress("load", s.loaded_bytes, s.load_total_bytes);
  }
  (*engine)->shutdown();
  if (!r) {
    spdlog::error("{}: {}", prefix, r.error().to_string());
    return EXIT_FAIL;
  }
  if (r->state != engine::job_state::completed) {
    spdlog::error("{}: {}", prefix, r->error.to_string());
    return exit_code_of(r->error.code());
  }
  if (status s = out->write(r->proof); !s || !(s = out->commit())) {
    spdlog::error("{}: cannot write the proof: {}", prefix, s.to_string());
    return EXIT_FAIL;
  }
  const engine::job_timings& t = r->timings;
  engine::partition_timings sum;
  for (const engine::partition_timings& p : t.partitions) {
    sum.ntt += p.ntt;
    sum.h += p.h;
    sum.msm_h += p.msm_h;
    sum.msm_l += p.msm_l;
    sum.msm_a += p.msm_a;
    sum.msm_b_g1 += p.msm_b_g1;
    sum.msm_b_g2 += p.msm_b_g2;
  }
  const std::string summary =
      job.summary.empty() ? std::to_string(t.partitions.size()) + " partition(s)" : job.summary;
  spdlog::info("{}: {}, {} bytes -> {} (self-verified)", prefix, summary, r->proof.size(),
               job.proof_path);
  spdlog::info(
      "{}: decode and checks {:.2f} s | params load {:.2f} s | synthesis {:.2f} s | prove {:.2f} "
      "s (ntt {:.2f}, h {:.2f}, msm h {:.2f}, l {:.2f}, a {:.2f}, b_g1 {:.2f}, b_g2 {:.2f} s) | "
      "self-verify {:.3f} s | total {:.2f} s | peak RSS {:.0f} MiB",
      prefix, t.prepare / 1e3, t.srs_load / 1e3, t.synthesis / 1e3, (t.prove + t.finalize) / 1e3,
      sum.ntt / 1e3, sum.h / 1e3, sum.msm_h / 1e3, sum.msm_l / 1e3, sum.msm_a / 1e3,
      sum.msm_b_g1 / 1e3, sum.msm_b_g2 / 1e3, t.verify / 1e3, t.total / 1e3,
      double(filecoin::proofs::peak_rss_bytes()) / (1 << 20));
  return EXIT_OK;
}

}  // namespace

int read_vanilla_file(const std::string& prefix, const std::string& path, uint64_t max_bytes,
                      std::vector<std::vector<uint8_t>>& out) {
  if (status s = check_input_file("--vanilla", path); !s) {
    spdlog::error("{}: {}", prefix, s.message());
    return EXIT_BAD;
  }
  auto text = read_text_file_bounded(path, max_bytes);
  if (!text) {
    spdlog::error("{}: --vanilla: {}", prefix, text.error().to_string());
    return text.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  auto elements = filecoin::common::parse_vanilla_file(*text);
  if (!elements) {
    spdlog::error("{}: --vanilla {}: {}", prefix, path, elements.error().to_string());
    return EXIT_BAD;
  }
  out = std::move(*elements);
  return -1;
}

int report_verdict(const std::string& prefix, const result<bool>& ok) {
  if (!ok) {
    spdlog::error("{}: {}", prefix, ok.error().to_string());
    return ok.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  std::printf("%s\n", *ok ? "valid" : "invalid");
  return *ok ? EXIT_OK : EXIT_FAIL;
}

void add_prove_command(CLI::App& prove, command_runner& chosen, prove_kind_spec spec) {
  auto* cmd = prove.add_subcommand(spec.name, spec.help);
  spec.add_inputs(*cmd);
  auto flags = std::make_shared<prove_flags>();
  const bool builtin = !spec.builtin_facts.empty();
  auto* check = cmd->add_flag(
      "--check-digests", flags->check_digests,
      builtin ? "first check the .params/.vk BLAKE2b-512 digests; refuse a mismatched or unknown "
                "file"
              : "first check the .params/.vk BLAKE2b-512 digests against --parameters-json");
  auto* json = cmd->add_option("--parameters-json", flags->parameters_json,
                               builtin ? "parameters.json for --check-digests (default: the "
                                         "built-in facts of the official files)"
                                       : "parameters.json for --check-digests");
  json->needs(check);
  if (!builtin) check->needs(json);
  add_param_checks_option(*cmd, flags->param_checks);
  auto* gpu = cmd->add_option("--gpu", flags->gpu, "prove on CUDA device N (CUDA builds only)")
                  ->transform(decimal_u64(0, 1023));
  cmd->add_option("--gpu-memory-mib", flags->gpu_memory_mib,
                  "device memory the prover may use (default: what is free); parameters that "
                  "do not fit with the working set stay in host memory, streamed per partition")
      ->transform(decimal_u64(1, uint64_t(1) << 30))
      ->needs(gpu);
  auto shared = std::make_shared<const prove_kind_spec>(std::move(spec));
  on_selected(cmd, chosen, [shared, flags] { return run_prove(*shared, *flags); });
}

}  // namespace cuzk::app
