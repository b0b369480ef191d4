// SPDX-License-Identifier: Apache-2.0
// `cuzk prove window-post|winning-post --vanilla FILE --randomness HEX --registered-proof P
//  [--miner-id N] [--partition-index K] [--params-dir D] --proof-out proof.bin` and
// `cuzk verify window-post|winning-post … --proof proof.bin`: one PoSt partition from the inputs
// Curio sends, proved through the one prove loop (prove_run.hpp: an in-process engine, as the
// daemon proves) and verified against the .vk (filecoin/proofs/post_prover.hpp). The vanilla file
// is a JSON array of base64 bincode FallbackPoStSectorProofs (cuzk-bench's wpost-vanilla.json);
// verify takes the same file for the public sectors (sector ids and comm_r), as a verifier knows
// them. The randomness is 64 hex digits, a canonical field element (Curio masks byte 31 with 0x3f).
// P is the wire number, Go or Rust name and must be of the command's kind. `--check-digests`,
// `--parameters-json` and
// `--gpu` as for `cuzk prove porep`. `cuzk post public-inputs --vanilla FILE --randomness HEX
// --registered-proof P [--partition-index K] --out FILE|-` writes the partition's circuit public
// inputs (filecoin::circuits::fallback_post_public_inputs of the vanilla file's public sectors) as
// snarkjs public.json. Exit codes: 0 ok / valid, 1 invalid proof or a failure of the work, 2 bad
// input.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "cli_args.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/proofs/params_digest.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "prove_run.hpp"
#include "public_inputs_json.hpp"

namespace cuzk::app {
namespace {

/// A 32 GiB WindowPoSt partition is 2,349 × 24,960 bytes, ~78 MB in base64; this bounds a file
/// that cannot be one.
constexpr uint64_t MAX_VANILLA_FILE_BYTES = uint64_t(512) << 20;

struct post_args {
  std::string kind;  // "window-post" or "winning-post"; empty: either (public-inputs)
  // proof_path: the proof (prove: out, verify: in) or public-inputs' --out.
  std::string vanilla_path, randomness_hex, proof_name, params_dir, proof_path;
  uint64_t miner_id = 0;
  unsigned partition = 0;
  std::vector<std::vector<uint8_t>> elements;  // the vanilla file's bincode proofs, as sent
  filecoin::proofs::post_inputs_t in;          // their decoding (verify, public-inputs)
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

/// Reads the inputs; -1 on success, else the exit code (the error already logged). The vanilla
/// proofs are decoded into args.in when `decode` (verify and public-inputs need their sectors; the
/// engine decodes and checks them for prove).
int load_inputs(const std::string& prefix, post_args& args, bool decode = true) {
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
  if (int rc = read_vanilla_file(prefix, args.vanilla_path, MAX_VANILLA_FILE_BYTES, args.elements);
      rc >= 0)
    return rc;
  args.in.proof = *proof;
  args.in.randomness = *randomness;
  args.in.miner_id = args.miner_id;
  args.in.partition = args.partition;
  if (!decode) return -1;
  auto vanilla = filecoin::post::parse_fallback_sector_proofs(args.elements);
  if (!vanilla) {
    spdlog::error("{}: --vanilla {}: {}", prefix, args.vanilla_path, vanilla.error().to_string());
    return EXIT_BAD;
  }
  args.in.vanilla = std::move(*vanilla);
  return -1;
}

/// `cuzk prove window-post|winning-post`'s request: the vanilla file's proofs as Curio sends them.
int load_post_job(const std::string& prefix, post_args& args, prove_job& job) {
  if (int rc = load_inputs(prefix, args, false); rc >= 0) return rc;
  auto cfg = filecoin::post::post_config(args.in.proof);
  if (!cfg) {
    spdlog::error("{}: --registered-proof: {}", prefix, cfg.error().message());
    return EXIT_BAD;
  }
  engine::proof_request& r = job.request;
  r.kind = cfg->kind == filecoin::post::post_kind::window
               ? engine::proof_kind::window_post_partition
               : engine::proof_kind::winning_post;
  r.registered_proof = filecoin::post::id_of(args.in.proof);
  r.sector_size = cfg->sector_bytes;
  r.vanilla_proofs = args.elements;
  r.randomness.assign(args.in.randomness.begin(), args.in.randomness.end());
  r.miner_id = args.miner_id;
  r.partition_index = args.partition;
  job.params_dir = args.params_dir;
  job.params_path = filecoin::proofs::post_params_path(*cfg, args.params_dir);
  job.proof_path = args.proof_path;
  job.summary = std::to_string(args.elements.size()) + " sector(s), partition " +
                std::to_string(args.partition);
  return -1;
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
  return report_verdict(prefix,
                        filecoin::proofs::verify_post(args.in.proof, sectors, args.in.randomness,
                                                      args.in.partition, *bytes, args.params_dir));
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
    add_prove_command(
        prove, chosen,
        {.name = kind,
         .help =
             std::string("one ") + kind + " partition from Curio's vanilla proofs (CPU or --gpu N)",
         .builtin_facts = filecoin::proofs::builtin_post_facts(),
         .add_inputs =
             [pa](CLI::App& cmd) {
               add_post_options(cmd, *pa, "--proof-out", "where to write the 192-byte proof");
             },
         .load = [pa](const std::string& prefix,
                      prove_job& job) { return load_post_job(prefix, *pa, job); }});

    auto va = std::make_shared<post_args>();
    va->kind = kind;
    auto* v = verify.add_subcommand(kind, std::string("verify a ") + kind + " partition proof");
    add_post_options(*v, *va, "--proof", "the proof to verify");
    on_selected(v, chosen, [va] { return run_verify_post(*va); });
  }
}

}  // namespace cuzk::app
