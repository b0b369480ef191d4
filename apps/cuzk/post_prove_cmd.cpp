// SPDX-License-Identifier: Apache-2.0
// `cuzk prove window-post|winning-post --vanilla FILE --randomness HEX --registered-proof P
//  [--miner-id N] [--partition-index K] [--params-dir D] --proof-out proof.bin` and
// `cuzk verify window-post|winning-post … --proof proof.bin`: one PoSt partition from the inputs
// Curio sends (filecoin/proofs/post_prover.hpp). The vanilla file is a JSON array of base64
// bincode FallbackPoStSectorProofs (cuzk-bench's wpost-vanilla.json); verify takes the same file
// for the public sectors (sector ids and comm_r), as a verifier knows them. The randomness is 64
// hex digits, a canonical field element (Curio masks byte 31 with 0x3f). P is the wire number, Go
// or Rust name and must be of the command's kind. `--check-digests`, `--parameters-json` and
// `--gpu` as for `cuzk prove porep`. `cuzk post public-inputs --vanilla FILE --randomness HEX
// --registered-proof P [--partition-index K] --out FILE|-` writes the partition's circuit public
// inputs (filecoin::circuits::fallback_post_public_inputs of the vanilla file's public sectors) as
// snarkjs public.json. Exit codes: 0 ok / valid, 1 invalid proof or I/O failure, 2 bad input.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "cli_args.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/proofs/params_digest.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "logging.hpp"
#include "phase_progress.hpp"
#include "public_inputs_json.hpp"

namespace cuzk::app {
namespace {

/// A 32 GiB WindowPoSt partition is 2,349 × 24,960 bytes, ~78 MB in base64; this bounds a file
/// that cannot be one.
constexpr uint64_t MAX_VANILLA_FILE_BYTES = uint64_t(512) << 20;

struct post_args {
  std::string kind;  // "window-post" or "winning-post"; empty: either (public-inputs)
  // proof_path: the proof (prove: out, verify: in) or public-inputs' --out.
  std::string vanilla_path, randomness_hex, proof_name, params_dir, proof_path, parameters_json;
  uint64_t miner_id = 0;
  unsigned partition = 0;
  bool check_digests = false;
  std::string param_checks = default_param_checks();  // --param-checks
  int gpu = -1;
  filecoin::proofs::post_inputs_t in;
};

void add_post_options(CLI::App& cmd, post_args& args, const std::string& proof_flag,
                      const std::string& proof_help) {
  cmd.add_option("--vanilla", args.vanilla_path,
                 "vanilla proofs: JSON array of base64 FallbackPoStSectorProofs")
      ->required();
  cmd.add_option("--randomness", args.randomness_hex, "randomness as 64 hex digits")->required();
  cmd.add_option("--registered-proof", args.proof_name, "registered PoSt proof: number or name")
      ->required();
  cmd.add_option("--miner-id", args.miner_id, "miner actor id (not part of the proof)")
      ->transform(decimal_u64());
  cmd.add_option("--partition-index", args.partition, "WindowPoSt partition (default 0)")
      ->transform(decimal_u64(0, 1u << 20));
  cmd.add_option("--params-dir", args.params_dir,
                 "parameter directory (default $FIL_PROOFS_PARAMETER_CACHE or "
                 "/var/tmp/filecoin-proof-parameters)");
  cmd.add_option(proof_flag, args.proof_path, proof_help)->required();
  cmd.footer(std::string(REGISTERED_POST_PROOFS_HELP) +
             "\nexit status: 0 ok/valid, 1 invalid proof or I/O failure, 2 bad input");
}

/// Reads and decodes the inputs; -1 on success, else the exit code (the error already logged).
int load_inputs(const std::string& prefix, post_args& args) {
  args.params_dir = filecoin::proofs::resolve_params_dir(args.params_dir);
  auto proof = filecoin::post::parse_registered_post_proof(args.proof_name);
  if (!proof) {
    spdlog::error("{}: --registered-proof: {}", prefix, proof.error().message());
    return EXIT_BAD;
  }
  if (!args.kind.empty() &&
      filecoin::post::to_string(filecoin::post::kind_of(*proof)) != args.kind) {
    spdlog::error("{}: --registered-proof: {} is a {} proof", prefix,
                  filecoin::post::name_of(*proof),
                  filecoin::post::to_string(filecoin::post::kind_of(*proof)));
    return EXIT_BAD;
  }
  auto randomness = parse_hex32(args.randomness_hex);
  if (!randomness) {
    spdlog::error("{}: --randomness: {}", prefix, randomness.error().message());
    return EXIT_BAD;
  }
  if (status s = check_input_file("--vanilla", args.vanilla_path); !s) {
    spdlog::error("{}: {}", prefix, s.message());
    return EXIT_BAD;
  }
  auto text = read_text_file_bounded(args.vanilla_path, MAX_VANILLA_FILE_BYTES);
  if (!text) {
    spdlog::error("{}: --vanilla: {}", prefix, text.error().to_string());
    return text.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  auto elements = filecoin::post::parse_vanilla_file(*text);
  if (!elements) {
    spdlog::error("{}: --vanilla {}: {}", prefix, args.vanilla_path, elements.error().to_string());
    return EXIT_BAD;
  }
  auto vanilla = filecoin::post::parse_fallback_sector_proofs(*elements);
  if (!vanilla) {
    spdlog::error("{}: --vanilla {}: {}", prefix, args.vanilla_path, vanilla.error().to_string());
    return EXIT_BAD;
  }
  args.in.proof = *proof;
  args.in.vanilla = std::move(*vanilla);
  args.in.randomness = *randomness;
  args.in.miner_id = args.miner_id;
  args.in.partition = args.partition;
  return -1;
}

int run_prove_post(post_args& args) {
  const std::string prefix = "cuzk prove " + args.kind;
  if (int rc = load_inputs(prefix, args); rc >= 0) return rc;
  // The output is opened before the work: a directory, a device (/dev/full) or an unwritable
  // directory is refused now, not after minutes of proving.
  auto out = atomic_file_writer::create(args.proof_path);
  if (!out) {
    spdlog::error("{}: --proof-out: {}", prefix, out.error().to_string());
    return EXIT_BAD;
  }
  filecoin::proofs::prove_options_t opt;
  opt.gpu_device = args.gpu;
  opt.params_checks = param_checks_of(args.param_checks);
  opt.log = spdlog_log_sink();
  if (args.check_digests) {
    if (args.parameters_json.empty()) {
      const auto b = filecoin::proofs::builtin_post_facts();
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
  opt.params_progress = phase_progress_lines(prefix + ": parameters", progress_units::bytes);
  // Files whose BLAKE2b-512 digest matched the official parameters.json are the official setup:
  // a subgroup check (--param-checks batched|full) adds nothing for them.
  if (args.check_digests) opt.params_checks = groth16::point_checks::on_curve_only;
  filecoin::proofs::prove_timings_t tm;
  auto proof =
      filecoin::proofs::prove_post(args.in, args.params_dir, thread_pool::default_pool(), &tm, opt);
  bool mismatch = false;
  for (const auto& c : tm.digests) {
    const bool ok = c.verdict == filecoin::proofs::digest_verdict::ok;
    mismatch |= c.verdict == filecoin::proofs::digest_verdict::mismatch;
    spdlog::log(ok ? spdlog::level::info : spdlog::level::err, "{}: digest {:<8} {} {}", prefix,
                filecoin::proofs::name_of(c.verdict), c.name, c.actual);
  }
  if (!proof) {
    const status_code c = proof.error().code();
    spdlog::error("{}: {}", prefix, proof.error().to_string());
    return mismatch || c == status_code::io_error || c == status_code::internal ? EXIT_FAIL
                                                                                : EXIT_BAD;
  }
  if (status s = out->write(*proof); !s || !(s = out->commit())) {
    spdlog::error("{}: cannot write the proof: {}", prefix, s.to_string());
    return EXIT_FAIL;
  }
  spdlog::info(
      "{}: {} sector(s), partition {}, {} bytes -> {} (self-verified) | vanilla check {:.3f} s | "
      "synthesis {:.2f} s | params load {:.2f} s | prove {:.2f} s | self-verify {:.3f} s | total "
      "{:.2f} s",
      prefix, args.in.vanilla.size(), args.in.partition, proof->size(), args.proof_path,
      tm.vanilla_check, tm.synthesis, tm.params_load, tm.prove, tm.self_verify, tm.total);
  return EXIT_OK;
}

int run_verify_post(post_args& args) {
  const std::string prefix = "cuzk verify " + args.kind;
  if (int rc = load_inputs(prefix, args); rc >= 0) return rc;
  auto bytes = read_file_bounded(args.proof_path, MAX_PROOF_FILE_BYTES);
  if (!bytes) {
    spdlog::error("{}: --proof: {}", prefix, bytes.error().to_string());
    return EXIT_BAD;
  }
  const auto sectors = filecoin::proofs::public_sectors_of(args.in.vanilla);
  auto ok = filecoin::proofs::verify_post(args.in.proof, sectors, args.in.randomness,
                                          args.in.partition, *bytes, args.params_dir);
  if (!ok) {
    spdlog::error("{}: {}", prefix, ok.error().to_string());
    return ok.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  std::printf("%s\n", *ok ? "valid" : "invalid");
  return *ok ? EXIT_OK : EXIT_FAIL;
}

int run_post_public_inputs(post_args& args) {
  const std::string prefix = "cuzk post public-inputs";
  if (int rc = load_inputs(prefix, args); rc >= 0) return rc;
  const auto cfg = filecoin::post::post_config(args.in.proof);
  if (!cfg) {
    spdlog::error("{}: {}", prefix, cfg.error().to_string());
    return EXIT_BAD;
  }
  const auto sectors = filecoin::proofs::public_sectors_of(args.in.vanilla);
  auto inputs = filecoin::circuits::fallback_post_public_inputs(*cfg, sectors, args.in.randomness,
                                                                args.in.partition);
  if (!inputs) {
    spdlog::error("{}: {}", prefix, inputs.error().to_string());
    return EXIT_BAD;
  }
  return write_public_inputs_json(prefix, args.proof_path, *inputs,
                                  "partition " + std::to_string(args.in.partition) + " (" +
                                      std::string(filecoin::post::name_of(args.in.proof)) + ", " +
                                      std::to_string(sectors.size()) + " sector(s))");
}

}  // namespace

void add_post_public_inputs(CLI::App& post, command_runner& chosen) {
  auto args = std::make_shared<post_args>();
  auto* cmd = post.add_subcommand(
      "public-inputs",
      "writes a window-post or winning-post partition's circuit public inputs as snarkjs "
      "public.json (decimal strings), from the public sectors of its vanilla file");
  add_post_options(*cmd, *args, "--out", "output file, - for stdout");
  cmd->get_option("--out")->type_name("FILE|-");
  cmd->remove_option(cmd->get_option("--params-dir"));
  cmd->footer(std::string(REGISTERED_POST_PROOFS_HELP) +
              "\nexit status: 0 ok, 1 I/O failure, 2 bad input");
  cmd->remove_option(cmd->get_option("--miner-id"));
  on_selected(cmd, chosen, [args] { return run_post_public_inputs(*args); });
}

void add_post_prove_commands(CLI::App& prove, CLI::App& verify, command_runner& chosen) {
  for (const char* kind : {"window-post", "winning-post"}) {
    auto pa = std::make_shared<post_args>();
    pa->kind = kind;
    auto* p =
        prove.add_subcommand(kind, std::string("one ") + kind +
                                       " partition from Curio's vanilla proofs (CPU or --gpu N)");
    add_post_options(*p, *pa, "--proof-out", "where to write the 192-byte proof");
    auto* check = p->add_flag(
        "--check-digests", pa->check_digests,
        "first check the .params/.vk BLAKE2b-512 digests; refuse a mismatched or unknown file");
    p->add_option("--parameters-json", pa->parameters_json,
                  "parameters.json for --check-digests (default: built-in PoSt facts)")
        ->needs(check);
    add_param_checks_option(*p, pa->param_checks);
    p->add_option("--gpu", pa->gpu, "prove on CUDA device N (CUDA builds only)")
        ->transform(decimal_u64(0, 1023));
    on_selected(p, chosen, [pa] { return run_prove_post(*pa); });

    auto va = std::make_shared<post_args>();
    va->kind = kind;
    auto* v = verify.add_subcommand(kind, std::string("verify a ") + kind + " partition proof");
    add_post_options(*v, *va, "--proof", "the proof to verify");
    on_selected(v, chosen, [va] { return run_verify_post(*va); });
  }
}

}  // namespace cuzk::app
