// SPDX-License-Identifier: Apache-2.0
// `cuzk porep …`: the Filecoin PoRep vanilla-side tools. This file holds the dispatcher and
// `parents`; seal / gen-vanilla / public-inputs are implemented in their own porep_<x>_cmd.cpp
// files (porep_cmds.hpp).
//   parents --registered-proof NAME --out FILE [--threads N] [--check-json parent_cache.json]
//       writes the SDR parent cache of NAME (14 × u32 LE per node) to FILE; when FILE is a
//       directory, to FILE/v28-sdr-parent-<hex>.cache (the official name). Prints the path, the
//       size and the SHA-256; with --check-json, also checks name and digest against that file.
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr), 1 I/O or check failure.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "base/hex.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/parent_cache.hpp"
#include "porep_cmds.hpp"

namespace cuzk::app {
namespace {

constexpr int EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BAD = 2;

const char* const USAGE =
    "usage: cuzk porep <command>\n"
    "  parents --registered-proof NAME --out FILE|DIR [--threads N] [--check-json FILE]\n"
    "                  write the SDR parent cache (official name when --out is a directory)\n"
    "  seal --registered-proof NAME [--data FILE] [--prover-id HEX|--miner-id N] [--sector-id N]\n"
    "       [--ticket HEX] [--seed HEX] --out-dir D\n"
    "                  seal a small sector, write D/c1.json, the replica and the trees\n"
    "  gen-vanilla --registered-proof NAME --synthetic [--miner-id N --sector-id N --ticket HEX\n"
    "       --seed HEX] --out c1.json\n"
    "                  a consistent synthetic C1 output for any sector size\n"
    "  public-inputs   circuit public inputs of a C1 file (cuzk porep public-inputs help)\n"
    "registered proofs: "
    "StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}{V1,V1_1,V1_1_Feat_SyntheticPoRep,\n"
    "  V1_2_Feat_NonInteractivePoRep} or their ids 0..19\n";

int fail(const std::string& msg, int code = EXIT_BAD) {
  std::fprintf(stderr, "cuzk porep: %s\n", msg.c_str());
  return code;
}

}  // namespace

int cmd_porep_parents(int argc, char** argv) {
  std::string proof_name, out, check_json;
  unsigned threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return fail("parents: missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--registered-proof") {
      proof_name = v;
    } else if (a == "--out") {
      out = v;
    } else if (a == "--check-json") {
      check_json = v;
    } else if (a == "--threads") {
      char* end = nullptr;
      const unsigned long t = std::strtoul(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || t == 0 || t > 4096)
        return fail("parents: --threads must be 1..4096, got '" + v + "'");
      threads = unsigned(t);
    } else {
      return fail("parents: unknown option " + a);
    }
  }
  if (proof_name.empty()) return fail("parents: --registered-proof is required");
  if (out.empty()) return fail("parents: --out is required");
  const auto proof = porep::parse_registered_seal_proof(proof_name);
  if (!proof) return fail("parents: " + proof.error().message());
  const auto cfg = porep::porep_config(*proof);
  if (!cfg) return fail("parents: " + cfg.error().message());
  std::vector<porep::parent_cache_fact_t> facts;
  if (!check_json.empty()) {
    auto f = porep::read_parent_cache_json(check_json);
    if (!f) return fail("parents: " + f.error().to_string());
    facts = std::move(*f);
  }

  const porep::sdr_graph g(*cfg);
  std::error_code ec;
  std::string path = out;
  if (std::filesystem::is_directory(out, ec))
    path = (std::filesystem::path(out) / g.parent_cache_file_name()).string();

  thread_pool pool(threads);
  sha256_digest_t digest;
  const auto t0 = std::chrono::steady_clock::now();
  if (status s = porep::write_parent_cache_file(g, path, pool, &digest); !s)
    return fail("parents: " + s.to_string(), EXIT_FAIL);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string hex = to_hex(digest);
  std::printf("%s\n  proof %s, %llu nodes, %llu bytes, %.2f s (%u threads)\n  id %s\n  sha256 %s\n",
              path.c_str(), std::string(porep::name_of(*proof)).c_str(),
              (unsigned long long)g.nodes(),
              (unsigned long long)(g.nodes() * porep::PARENT_CACHE_NODE_BYTES), secs, pool.size(),
              g.parent_cache_id().c_str(), hex.c_str());
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

int cmd_porep(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(USAGE, stderr);
    return EXIT_BAD;
  }
  const std::string sub = argv[1];
  if (sub == "parents") return cmd_porep_parents(argc - 1, argv + 1);
  if (sub == "seal") return cmd_porep_seal(argc - 1, argv + 1);
  if (sub == "gen-vanilla") return cmd_porep_gen_vanilla(argc - 1, argv + 1);
  if (sub == "public-inputs") return cmd_porep_public_inputs(argc - 1, argv + 1);
  if (sub == "help" || sub == "--help" || sub == "-h") {
    std::fputs(USAGE, stdout);
    return EXIT_OK;
  }
  return fail("unknown command '" + sub + "' (cuzk porep help)");
}

}  // namespace cuzk::app
