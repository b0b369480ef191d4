// SPDX-License-Identifier: Apache-2.0
// `cuzk porep …`: the Filecoin PoRep vanilla-side tools. This file holds the dispatcher and
// `parents`; seal / gen-vanilla / public-inputs are implemented in their own porep_<x>_cmd.cpp
// files (porep_cmds.hpp).
//   parents --registered-proof NAME --out FILE [--threads N] [--check-json parent_cache.json]
//       writes the SDR parent cache of NAME (14 × u32 LE per node) to FILE; when FILE is a
//       directory, to FILE/v28-sdr-parent-<hex>.cache (the official name). Prints the path, the
//       size and the SHA-256; with --check-json, also checks name and digest against that file.
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr), 1 I/O or check failure.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "base/hex.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/parent_cache.hpp"
#include "porep_cmds.hpp"

namespace cuzk::app {
namespace {

int fail(const std::string& msg, int code = EXIT_BAD) {
  spdlog::error("cuzk porep: {}", msg);
  return code;
}

struct parents_args {
  std::string proof_name, out, check_json;
  uint64_t threads = 0;
};

int run_porep_parents(const parents_args& args) {
  const std::string &proof_name = args.proof_name, &out = args.out, &check_json = args.check_json;
  const auto proof = filecoin::porep::parse_registered_seal_proof(proof_name);
  if (!proof) return fail("parents: " + proof.error().message());
  const auto cfg = filecoin::porep::porep_config(*proof);
  if (!cfg) return fail("parents: " + cfg.error().message());
  std::vector<filecoin::porep::parent_cache_fact_t> facts;
  if (!check_json.empty()) {
    auto f = filecoin::porep::read_parent_cache_json(check_json);
    if (!f) return fail("parents: " + f.error().to_string());
    facts = std::move(*f);
  }

  const filecoin::porep::sdr_graph g(*cfg);
  std::error_code ec;
  std::string path = out;
  if (std::filesystem::is_directory(out, ec))
    path = (std::filesystem::path(out) / g.parent_cache_file_name()).string();

  thread_pool pool(unsigned(args.threads));
  cuzk::hash::sha256_digest_t digest;
  const auto t0 = std::chrono::steady_clock::now();
  if (status s = filecoin::porep::write_parent_cache_file(g, path, pool, &digest); !s)
    return fail("parents: " + s.to_string(), EXIT_FAIL);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string hex = to_hex(digest);
  std::printf("%s\n  proof %s, %llu nodes, %llu bytes, %.2f s (%u threads)\n  id %s\n  sha256 %s\n",
              path.c_str(), std::string(filecoin::porep::name_of(*proof)).c_str(),
              (unsigned long long)g.nodes(),
              (unsigned long long)(g.nodes() * filecoin::porep::PARENT_CACHE_NODE_BYTES), secs,
              pool.size(), g.parent_cache_id().c_str(), hex.c_str());
  if (!check_json.empty()) {
    for (const auto& f : facts) {
      if (f.id != g.parent_cache_id()) continue;
      if (f.digest_hex != hex || f.sector_size != cfg->sector.sector_bytes)
        return fail(
            "parents: digest " + hex + " differs from " + check_json + " (" + f.digest_hex + ")",
            EXIT_FAIL);
      std::printf("  matches %s\n", check_json.c_str());
      return EXIT_OK;
    }
    return fail("parents: " + check_json + " has no entry " + g.parent_cache_id(), EXIT_FAIL);
  }
  return EXIT_OK;
}

}  // namespace

void add_porep_parents(CLI::App& porep, command_runner& chosen) {
  auto args = std::make_shared<parents_args>();
  auto* parents = porep.add_subcommand(
      "parents", "write the SDR parent cache (official name when --out is a directory)");
  parents->add_option("--registered-proof", args->proof_name, "registered seal proof name or id")
      ->required();
  parents
      ->add_option("--out", args->out,
                   "output file, or a directory to write <dir>/v28-sdr-parent-<hex>.cache in")
      ->type_name("FILE|DIR")
      ->required();
  parents->add_option("--threads", args->threads, "worker threads (default: all cores)")
      ->transform(decimal_u64(1, 4096));
  parents->add_option("--check-json", args->check_json,
                      "parent_cache.json: check the file name and SHA-256 against it");
  parents->footer(REGISTERED_PROOFS_HELP);
  on_selected(parents, chosen, [args] { return run_porep_parents(*args); });
}

void add_porep_commands(CLI::App& root, command_runner& chosen) {
  auto* porep = root.add_subcommand("porep", "PoRep vanilla side: parent cache, seal, C1");
  porep->require_subcommand(1);
  add_porep_parents(*porep, chosen);
  add_porep_seal(*porep, chosen);
  add_porep_gen_vanilla(*porep, chosen);
  add_porep_public_inputs(*porep, chosen);
  porep->footer(REGISTERED_PROOFS_HELP);
}

}  // namespace cuzk::app
