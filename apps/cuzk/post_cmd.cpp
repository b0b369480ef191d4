// SPDX-License-Identifier: Apache-2.0
// `cuzk post gen-vanilla --registered-proof P --sector-dir D --sector-id N [--sector-dir D2
//  --sector-id N2 …] --randomness HEX [--partition-index K] --out FILE`: the PoSt vanilla proofs of
// sectors sealed by `cuzk porep seal` (each directory's replica rebuilt into tree_r_last and
// checked against its p_aux), sector i proven at position i of partition K, written as the JSON
// array of base64 FallbackPoStSectorProofs that `cuzk prove window-post|winning-post --vanilla`
// reads (Curio's vanilla_proofs, cuzk-bench's wpost-vanilla.json). For tests and benchmarks of
// 2 KiB … 512 MiB sectors. Exit codes: 0 ok, 1 I/O failure, 2 bad input or usage.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "cli_args.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/post/vanilla_prove.hpp"

namespace cuzk::app {
namespace {

struct gen_vanilla_args {
  std::string proof_name, randomness_hex, out;
  std::vector<std::string> dirs;
  std::vector<uint64_t> ids;
  unsigned partition = 0;
};

int fail(const std::string& msg, status_code code = status_code::invalid_argument) {
  spdlog::error("cuzk post gen-vanilla: {}", msg);
  return code == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
}

int run_gen_vanilla(const gen_vanilla_args& args) {
  auto proof = filecoin::post::parse_registered_post_proof(args.proof_name);
  if (!proof) return fail("--registered-proof: " + proof.error().message());
  auto cfg = filecoin::post::post_config(*proof);
  if (!cfg) return fail(cfg.error().message());
  auto randomness = parse_hex32(args.randomness_hex);
  if (!randomness) return fail("--randomness: " + randomness.error().message());
  auto elements = filecoin::post::vanilla_proofs_of_sector_dirs(*cfg, args.dirs, args.ids,
                                                                *randomness, args.partition);
  if (!elements) {
    const status_code c = elements.error().code();
    return fail(elements.error().message(),
                c == status_code::io_error ? c : status_code::invalid_argument);
  }
  const std::string json = filecoin::post::vanilla_file_json(*elements);
  const auto* bytes = reinterpret_cast<const uint8_t*>(json.data());
  if (status s = write_file_atomic(args.out, {bytes, json.size()}); !s)
    return fail(args.out + ": " + s.to_string(), status_code::io_error);
  spdlog::info("cuzk post gen-vanilla: {} sector(s) of {}, partition {} -> {}", elements->size(),
               filecoin::post::name_of(*proof), args.partition, args.out);
  return EXIT_OK;
}

}  // namespace

void add_post_public_inputs(CLI::App& post, command_runner& chosen);  // post_prove_cmd.cpp

void add_post_commands(CLI::App& root, command_runner& chosen) {
  auto* post_cmd = root.add_subcommand("post", "PoSt tools (vanilla proofs of sealed sectors)");
  post_cmd->require_subcommand(1);
  auto args = std::make_shared<gen_vanilla_args>();
  auto* gen = post_cmd->add_subcommand(
      "gen-vanilla",
      "vanilla proofs of sectors sealed by `cuzk porep seal`, as the JSON array of base64 that "
      "`cuzk prove window-post|winning-post --vanilla` reads");
  gen->add_option("--registered-proof", args->proof_name, "registered PoSt proof: number or name")
      ->required();
  gen->add_option("--sector-dir", args->dirs, "a `cuzk porep seal` output directory (repeatable)")
      ->required();
  gen->add_option("--sector-id", args->ids, "its sector id (one per --sector-dir, in order)")
      ->required()
      ->transform(decimal_u64());
  gen->add_option("--randomness", args->randomness_hex, "randomness as 64 hex digits")->required();
  gen->add_option("--partition-index", args->partition, "WindowPoSt partition (default 0)")
      ->transform(decimal_u64(0, 1u << 20));
  gen->add_option("--out", args->out, "the vanilla file to write")->required();
  gen->footer(std::string(REGISTERED_POST_PROOFS_HELP) +
              "\nexit status: 0 ok, 1 I/O failure, 2 bad input or usage");
  on_selected(gen, chosen, [args] { return run_gen_vanilla(*args); });
  add_post_public_inputs(*post_cmd, chosen);
}

}  // namespace cuzk::app
