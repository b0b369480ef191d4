// SPDX-License-Identifier: Apache-2.0
// `cuzk porep gen-vanilla --registered-proof NAME --synthetic [--miner-id N] [--sector-id N]
//  [--ticket HEX] [--seed HEX] [--format wrapper|json] --out FILE`: writes a synthetic C1
// (porep/synthetic.hpp) for a sector that is never sealed, any size up to 64 GiB, in the c1.json
// wrapper format (default) or as the raw serde JSON. Defaults (deterministic): miner 1000,
// sector 1, ticket = 32 × 0x01, seed = 32 × 0x02. Exit codes: 0 ok, 2 bad input (one line on
// stderr), 1 other failure.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "base/hex.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/commp.hpp"  // parse_hex32
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/synthetic.hpp"
#include "porep_cmds.hpp"

namespace cuzk::app {
namespace {

constexpr int EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BAD = 2;

const char* const USAGE =
    "usage: cuzk porep gen-vanilla --registered-proof NAME --synthetic [--miner-id N]\n"
    "         [--sector-id N] [--ticket HEX] [--seed HEX] [--format wrapper|json] --out FILE\n"
    "  Synthetic (never sealed, CC) sector; interactive proofs only (V1, V1_1).\n"
    "  Defaults: --miner-id 1000 --sector-id 1 --ticket 0101..01 --seed 0202..02\n"
    "            --format wrapper ({\"SectorNum\",\"Phase1Out\",\"SectorSize\"}).\n";

int bad(const std::string& msg) {
  std::fprintf(stderr, "cuzk porep gen-vanilla: %s\n", msg.c_str());
  return EXIT_BAD;
}

std::optional<uint64_t> parse_u64(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  uint64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    const uint64_t d = uint64_t(ch - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

}  // namespace

int cmd_porep_gen_vanilla(int argc, char** argv) {
  std::string proof_name, out_path, format = "wrapper";
  bool synthetic = false;
  uint64_t miner = 1000, sector = 1;
  porep::bytes32_t ticket, seed;
  ticket.fill(0x01);
  seed.fill(0x02);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(USAGE, stdout);
      return EXIT_OK;
    }
    if (a == "--synthetic") {
      synthetic = true;
      continue;
    }
    if (i + 1 >= argc) return bad("missing value for " + a);
    const std::string v = argv[++i];
    if (a == "--registered-proof") {
      proof_name = v;
    } else if (a == "--out") {
      out_path = v;
    } else if (a == "--format") {
      if (v != "wrapper" && v != "json") return bad("--format must be wrapper or json");
      format = v;
    } else if (a == "--miner-id") {
      auto n = parse_u64(v);
      if (!n) return bad("bad --miner-id: " + v);
      miner = *n;
    } else if (a == "--sector-id") {
      auto n = parse_u64(v);
      if (!n || *n > uint64_t(INT64_MAX)) return bad("bad --sector-id: " + v);
      sector = *n;
    } else if (a == "--ticket" || a == "--seed") {
      auto h = porep::parse_hex32(v);
      if (!h) return bad("bad " + a + ": expected 64 hex digits");
      (a == "--ticket" ? ticket : seed) = *h;
    } else {
      return bad("unknown option " + a);
    }
  }
  if (proof_name.empty()) return bad("--registered-proof is required");
  if (out_path.empty()) return bad("--out is required");
  if (!synthetic)
    return bad("only --synthetic is supported here (cuzk porep seal writes a real C1)");
  auto rp = porep::parse_registered_seal_proof(proof_name);
  if (!rp.ok()) return bad("unknown registered proof " + proof_name);
  auto cfg = porep::porep_config(*rp);
  if (!cfg.ok()) return bad(cfg.error().message());

  porep::synthetic_request_t req;
  req.config = *cfg;
  req.prover_id = porep::prover_id_from_actor(miner);
  req.sector_id = sector;
  req.ticket = ticket;
  req.seed = seed;
  const auto t0 = std::chrono::steady_clock::now();
  porep::synthetic_stats_t st;
  auto c1 = porep::generate_synthetic_c1(req, thread_pool::default_pool(), &st);
  if (!c1.ok()) return bad(c1.error().message());
  const double gen_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::string text;
  if (format == "json") {
    auto j = porep::write_c1_json(*c1);
    if (!j.ok()) return bad(j.error().message());
    text = std::move(*j);
  } else {
    auto w = porep::c1_to_wrapper_json(*c1, int64_t(sector));
    if (!w.ok()) return bad(w.error().message());
    text = std::move(*w);
  }
  std::FILE* f = std::fopen(out_path.c_str(), "wb");
  if (!f) return bad("cannot create " + out_path);
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) {
    std::fprintf(stderr, "cuzk porep gen-vanilla: cannot write %s\n", out_path.c_str());
    return EXIT_FAIL;
  }
  std::printf(
      "%s: %s synthetic C1, %zu partitions x %zu challenges, %zu columns, %.3f s\n"
      "comm_d %s\ncomm_r %s\nreplica_id %s\n%zu bytes (%s)\n",
      out_path.c_str(), c1->registered_proof.c_str(), c1->vanilla_proofs.size(),
      c1->vanilla_proofs.empty() ? size_t(0) : c1->vanilla_proofs[0].size(), st.real_columns, gen_s,
      to_hex(c1->comm_d).c_str(), to_hex(c1->comm_r).c_str(), to_hex(c1->replica_id).c_str(),
      text.size(), format.c_str());
  return EXIT_OK;
}

}  // namespace cuzk::app
