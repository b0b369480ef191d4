// SPDX-License-Identifier: Apache-2.0
// `cuzk prove porep --c1 c1.json --params-dir D [--miner-id N|--prover-id HEX] [--sector-id N]
//  --proof-out proof.bin` and `cuzk verify porep … --proof proof.bin`: PoRep C2 on the CPU prover
// (engine/porep_prover.hpp). With a miner/prover id the replica_id is re-derived as C2 does and
// must match the C1's (prove) or defines the public inputs (verify); without one the C1's
// replica_id is used. --sector-id defaults to the wrapper's SectorNum; --params-dir to
// $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters. Per-phase timings and peak
// RSS go to stderr. `prove --check-digests` first checks the BLAKE2b-512 digests of the .params and
// .vk against parameters.json (--parameters-json FILE, default the built-in PoRep facts) and
// refuses to prove with a mismatched or unknown file. `--gpu N` proves on CUDA device N (CUDA
// builds only). Exit codes: 0 ok / valid, 1 invalid proof or I/O failure, 2 bad input.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/log.hpp"
#include "cli_args.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/proofs/porep_prover.hpp"

namespace cuzk::app {
namespace {

constexpr int EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BAD = 2;

const char* const PROVE_USAGE =
    "usage: cuzk prove porep --c1 FILE [--params-dir D] [--miner-id N|--prover-id HEX]\n"
    "         [--sector-id N] --proof-out FILE [--registered-proof NAME (bincode C1 only)]\n"
    "         [--check-digests [--parameters-json FILE]] [--gpu N]\n";
const char* const VERIFY_USAGE =
    "usage: cuzk verify porep --c1 FILE [--params-dir D] [--miner-id N|--prover-id HEX]\n"
    "         [--sector-id N] --proof FILE [--registered-proof NAME (bincode C1 only)]\n";

struct porep_args {
  std::string c1_path, params_dir, proof_path, proof_name, parameters_json;
  bool check_digests = false;
  int gpu = -1;
  porep::c1_output_t c1;
  std::optional<engine::prover_identity_t> who;
};

// Parses the shared options; `proof_flag` is --proof-out (prove) or --proof (verify). Returns -1
// on success, else the exit code (the error already printed with `prefix`).
int parse_porep_args(int argc, char** argv, const char* prefix, const char* usage,
                     const std::string& proof_flag, porep_args& out) {
  auto fail = [&](const std::string& msg, int code = EXIT_BAD) {
    std::fprintf(stderr, "%s: %s\n", prefix, msg.c_str());
    return code;
  };
  identity_args id;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "help" || a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return EXIT_OK;
    }
    if (a == "--check-digests" && proof_flag == "--proof-out") {
      out.check_digests = true;
      continue;
    }
    if (i + 1 >= argc) return fail("missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--c1") {
      out.c1_path = v;
    } else if (a == "--params-dir") {
      out.params_dir = v;
    } else if (a == proof_flag) {
      out.proof_path = v;
    } else if (a == "--registered-proof") {
      out.proof_name = v;
    } else if (a == "--parameters-json" && proof_flag == "--proof-out") {
      out.parameters_json = v;
    } else if (a == "--gpu" && proof_flag == "--proof-out") {
      uint64_t g = 0;
      if (!parse_u64(v, g) || g > 1023)
        return fail("--gpu must be a device index, got '" + v + "'");
      out.gpu = int(g);
    } else if (std::string err; id.take(a, v, err)) {
      if (!err.empty()) return fail(err);
    } else {
      return fail("unknown option " + a);
    }
  }
  if (out.c1_path.empty()) return fail("--c1 is required");
  if (out.proof_path.empty()) return fail(proof_flag + " is required");
  if (const std::string c = id.conflict(); !c.empty()) return fail(c);
  out.params_dir = engine::resolve_params_dir(out.params_dir);

  int64_t sector_num = -1;
  auto c1 = porep::read_c1_file(out.c1_path, out.proof_name, &sector_num);
  if (!c1) {
    return fail("--c1: " + c1.error().to_string(),
                c1.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD);
  }
  out.c1 = std::move(*c1);
  auto who = id.resolve(sector_num);
  if (!who) return fail(who.error().message());
  if (*who) {
    out.who = engine::prover_identity_t{(*who)->first, (*who)->second};
  } else {
    std::fprintf(stderr, "%s: no --miner-id/--prover-id: using the C1's replica_id\n", prefix);
  }
  return -1;
}

int cmd_prove_porep(int argc, char** argv) {
  const char* prefix = "cuzk prove porep";
  porep_args args;
  if (int rc = parse_porep_args(argc, argv, prefix, PROVE_USAGE, "--proof-out", args); rc >= 0)
    return rc;
  engine::prove_options_t opt;
  opt.gpu_device = args.gpu;
  // The backend choice (and a CPU fallback when a GPU was asked for but none is present).
  opt.log = [prefix](log_level level, std::string_view msg) {
    if (level >= log_level::info)
      std::fprintf(stderr, "%s: %.*s\n", prefix, int(msg.size()), msg.data());
  };
  if (args.check_digests) {
    if (args.parameters_json.empty()) {
      const auto b = engine::builtin_porep_facts();
      opt.check_digests.emplace(b.begin(), b.end());
    } else {
      auto f = engine::read_parameters_json(args.parameters_json);
      if (!f) {
        std::fprintf(stderr, "%s: --parameters-json: %s\n", prefix, f.error().to_string().c_str());
        return f.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
      }
      opt.check_digests = std::move(*f);
    }
  } else if (!args.parameters_json.empty()) {
    std::fprintf(stderr, "%s: --parameters-json needs --check-digests\n", prefix);
    return EXIT_BAD;
  }
  engine::prove_timings_t tm;
  auto proof = engine::prove_porep(args.c1, args.who, args.params_dir, thread_pool::default_pool(),
                                   &tm, opt);
  for (const auto& c : tm.digests) {
    std::fprintf(stderr, "%s: digest %-8s %s %s\n", prefix, engine::name_of(c.verdict),
                 c.name.c_str(), c.actual.c_str());
  }
  if (!proof) {
    const status_code c = proof.error().code();
    std::fprintf(stderr, "%s: %s\n", prefix, proof.error().to_string().c_str());
    // A digest MISMATCH exits 1 like `cuzk params check`; an unknown file 2.
    const bool mismatch = std::any_of(tm.digests.begin(), tm.digests.end(), [](const auto& d) {
      return d.verdict == engine::digest_verdict::mismatch;
    });
    return mismatch || c == status_code::io_error || c == status_code::internal ? EXIT_FAIL
                                                                                : EXIT_BAD;
  }
  std::ofstream f(args.proof_path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(proof->data()), std::streamsize(proof->size()));
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s\n", prefix, args.proof_path.c_str());
    return EXIT_FAIL;
  }
  const auto& t = tm.prover;
  std::fprintf(stderr,
               "%s: %u partition(s), %zu bytes -> %s (self-verified)\n"
               "  vanilla check %.2f s | params load %.1f s | synthesis %.1f s | prove %.1f s "
               "(ntt %.1f, h %.1f, msm h %.1f, l %.1f, a %.1f, b_g1 %.1f, b_g2 %.1f s) | "
               "self-verify %.2f s | total %.1f s | peak RSS %.0f MiB\n",
               prefix, tm.partitions, proof->size(), args.proof_path.c_str(), tm.vanilla_check,
               tm.params_load, tm.synthesis, tm.prove, (t.ntt_a + t.ntt_b + t.ntt_c) / 1e3,
               t.h_compute / 1e3, t.msm_h / 1e3, t.msm_l / 1e3, t.msm_a / 1e3, t.msm_b_g1 / 1e3,
               t.msm_b_g2 / 1e3, tm.self_verify, tm.total,
               double(engine::peak_rss_bytes()) / (1 << 20));
  return EXIT_OK;
}

int cmd_verify_porep(int argc, char** argv) {
  const char* prefix = "cuzk verify porep";
  porep_args args;
  if (int rc = parse_porep_args(argc, argv, prefix, VERIFY_USAGE, "--proof", args); rc >= 0)
    return rc;
  std::ifstream f(args.proof_path, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "%s: cannot read %s\n", prefix, args.proof_path.c_str());
    return EXIT_BAD;
  }
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                   std::istreambuf_iterator<char>());
  auto ok = engine::verify_porep(args.c1, args.who, bytes, args.params_dir);
  if (!ok) {
    std::fprintf(stderr, "%s: %s\n", prefix, ok.error().to_string().c_str());
    return ok.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  std::printf("%s\n", *ok ? "valid" : "invalid");
  return *ok ? EXIT_OK : EXIT_FAIL;
}

}  // namespace

int cmd_prove(int argc, char** argv) {
  const std::string sub = argc >= 2 ? argv[1] : "";
  if (sub == "porep") return cmd_prove_porep(argc - 1, argv + 1);
  if (sub == "help" || sub == "--help" || sub == "-h") {
    std::fputs(PROVE_USAGE, stdout);
    return EXIT_OK;
  }
  std::fputs(PROVE_USAGE, stderr);
  return EXIT_BAD;
}

int cmd_verify(int argc, char** argv) {
  const std::string sub = argc >= 2 ? argv[1] : "";
  if (sub == "porep") return cmd_verify_porep(argc - 1, argv + 1);
  if (sub == "help" || sub == "--help" || sub == "-h") {
    std::fputs(VERIFY_USAGE, stdout);
    return EXIT_OK;
  }
  std::fputs(VERIFY_USAGE, stderr);
  return EXIT_BAD;
}

}  // namespace cuzk::app
