// SPDX-License-Identifier: Apache-2.0
// `cuzk params generate --circuit porep --registered-proof NAME --out-dir D [--seed TEXT]`: a
// single-party Groth16 setup of the PoRep StackedCircuit, written under the official file names
// (<D>/v28-stacked-proof-of-replication-…-<sha256>.params and .vk), progress on stderr. Without
// --seed the trapdoor is fresh OS randomness; with it anyone knowing the seed can forge proofs
// (tests only). --out-dir defaults to $FIL_PROOFS_PARAMETER_CACHE or
// /var/tmp/filecoin-proof-parameters. Exit codes: 0 ok, 2 bad input or usage, 1 failure.
// `cuzk params check [--params-dir D] [--parameters-json FILE] [--registered-proof NAME]`: the
// BLAKE2b-512 digest (first 32 hex chars) of each present official-named .params/.vk in D against
// parameters.json (default: the built-in PoRep entries, engine/params_digest.hpp); one line per
// file "ok|MISMATCH|unknown NAME digest". Exit 0 all ok, 1 a MISMATCH or I/O failure, 2 a file
// unknown to the facts, none present, or bad usage.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "filecoin/porep/config.hpp"
#include "filecoin/proofs/params_digest.hpp"
#include "filecoin/proofs/porep_prover.hpp"

namespace cuzk::app {
namespace {

constexpr int EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BAD = 2;

const char* const USAGE =
    "usage: cuzk params generate --circuit porep --registered-proof NAME [--out-dir D]\n"
    "         [--seed TEXT]\n"
    "  single-party Groth16 setup of the PoRep circuit, written as the official .params/.vk\n"
    "  names in D (default $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters);\n"
    "  --seed makes it deterministic (tests only: the seed is the trapdoor)\n"
    "       cuzk params check [--params-dir D] [--parameters-json FILE] [--registered-proof NAME]\n"
    "  BLAKE2b-512 digests of the .params/.vk in D against parameters.json (default: built-in\n"
    "  PoRep facts); prints ok|MISMATCH|unknown per file; exit 0 all ok, 1 mismatch, 2 unknown\n";

int fail(const std::string& msg, int code = EXIT_BAD) {
  std::fprintf(stderr, "cuzk params: %s\n", msg.c_str());
  return code;
}

int cmd_params_generate(int argc, char** argv) {
  std::string circuit, proof_name, out_dir, seed;
  bool have_seed = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "help" || a == "--help" || a == "-h") {
      std::fputs(USAGE, stdout);
      return EXIT_OK;
    }
    if (i + 1 >= argc) return fail("generate: missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--circuit") {
      circuit = v;
    } else if (a == "--registered-proof") {
      proof_name = v;
    } else if (a == "--out-dir") {
      out_dir = v;
    } else if (a == "--seed") {
      seed = v;
      have_seed = true;
    } else {
      return fail("generate: unknown option " + a);
    }
  }
  if (circuit != "porep") return fail("generate: --circuit must be 'porep'");
  if (proof_name.empty()) return fail("generate: --registered-proof is required");
  const auto proof = porep::parse_registered_seal_proof(proof_name);
  if (!proof) return fail("generate: " + proof.error().message());
  out_dir = engine::resolve_params_dir(out_dir);

  std::fprintf(stderr, "cuzk params: generating %s parameters into %s\n",
               std::string(porep::name_of(*proof)).c_str(), out_dir.c_str());
  std::string last_phase;
  size_t last_pct = 101;
  auto progress = [&](const char* phase, size_t done, size_t total) {
    const size_t pct = total ? done * 100 / total : 100;
    if (phase != last_phase || pct / 10 != last_pct / 10) {
      std::fprintf(stderr, "  %-9s %3zu%%\n", phase, pct);
      last_phase = phase;
      last_pct = pct;
    }
  };
  std::optional<std::vector<uint8_t>> seed_bytes;
  if (have_seed) seed_bytes = std::vector<uint8_t>(seed.begin(), seed.end());
  auto gen = engine::generate_porep_parameters(*proof, out_dir, thread_pool::default_pool(),
                                               progress, seed_bytes);
  if (!gen) return fail("generate: " + gen.error().to_string(), EXIT_FAIL);
  std::fprintf(stderr,
               "cuzk params: %zu rows (%zu inputs, %zu aux), domain %llu: synthesis %.1f s, "
               "setup %.1f s, write %.1f s, peak RSS %.0f MiB\n",
               gen->rows, gen->inputs, gen->aux, (unsigned long long)gen->domain_size, gen->synth_s,
               gen->setup_s, gen->write_s, double(engine::peak_rss_bytes()) / (1 << 20));
  std::printf("%s\n%s\n", gen->params_path.c_str(), gen->vk_path.c_str());
  return EXIT_OK;
}

int cmd_params_check(int argc, char** argv) {
  std::string dir, json_path, proof_name;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "help" || a == "--help" || a == "-h") {
      std::fputs(USAGE, stdout);
      return EXIT_OK;
    }
    if (i + 1 >= argc) return fail("check: missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--params-dir") {
      dir = v;
    } else if (a == "--parameters-json") {
      json_path = v;
    } else if (a == "--registered-proof") {
      proof_name = v;
    } else {
      return fail("check: unknown option " + a);
    }
  }
  dir = engine::resolve_params_dir(dir);
  std::optional<porep::registered_seal_proof> proof;
  if (!proof_name.empty()) {
    auto p = porep::parse_registered_seal_proof(proof_name);
    if (!p) return fail("check: " + p.error().message());
    proof = *p;
  }
  std::vector<engine::param_fact_t> facts;
  if (json_path.empty()) {
    const auto b = engine::builtin_porep_facts();
    facts.assign(b.begin(), b.end());
  } else {
    auto f = engine::read_parameters_json(json_path);
    if (!f) {
      return fail("check: " + f.error().to_string(),
                  f.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD);
    }
    facts = std::move(*f);
  }
  auto checks = engine::check_params_dir(dir, facts, proof);
  if (!checks) return fail("check: " + checks.error().to_string(), EXIT_FAIL);
  if (checks->empty()) return fail("check: no parameter files in " + dir);
  bool mismatch = false, unknown = false;
  for (const auto& c : *checks) {
    std::printf("%-8s %s %s", engine::name_of(c.verdict), c.name.c_str(), c.actual.c_str());
    if (c.verdict == engine::digest_verdict::mismatch) {
      std::printf(" (expected %s)", c.expected.c_str());
      mismatch = true;
    }
    if (c.verdict == engine::digest_verdict::unknown) unknown = true;
    std::printf("\n");
  }
  return mismatch ? EXIT_FAIL : unknown ? EXIT_BAD : EXIT_OK;
}

}  // namespace

int cmd_params(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(USAGE, stderr);
    return EXIT_BAD;
  }
  const std::string sub = argv[1];
  if (sub == "generate") return cmd_params_generate(argc - 1, argv + 1);
  if (sub == "check") return cmd_params_check(argc - 1, argv + 1);
  if (sub == "help" || sub == "--help" || sub == "-h") {
    std::fputs(USAGE, stdout);
    return EXIT_OK;
  }
  return fail("unknown subcommand '" + sub + "'");
}

}  // namespace cuzk::app
