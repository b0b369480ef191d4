// SPDX-License-Identifier: Apache-2.0
// `cuzk porep gen-vanilla --registered-proof NAME --synthetic [--miner-id N] [--sector-id N]
//  [--ticket HEX] [--seed HEX] [--format wrapper|json] --out FILE`: writes a synthetic C1
// (porep/synthetic.hpp) for a sector that is never sealed, any size up to 64 GiB, in the c1.json
// wrapper format (default) or as the raw serde JSON. Defaults (deterministic): miner 1000,
// sector 1, ticket = 32 × 0x01, seed = 32 × 0x02. Exit codes: 0 ok, 2 bad input (one line on
// stderr), 1 other failure.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/synthetic.hpp"
#include "porep_cmds.hpp"

namespace cuzk::app {
namespace {

int bad(const std::string& msg) {
  spdlog::error("cuzk porep gen-vanilla: {}", msg);
  return EXIT_BAD;
}

struct gen_vanilla_args {
  std::string proof_name, out_path, format = "wrapper", ticket_hex, seed_hex;
  bool synthetic = false;
  uint64_t miner = 1000, sector = 1;
};

int run_porep_gen_vanilla(const gen_vanilla_args& args) {
  const std::string &proof_name = args.proof_name, &out_path = args.out_path, &format = args.format;
  const uint64_t miner = args.miner, sector = args.sector;
  if (!args.synthetic)
    return bad("only --synthetic is supported here (cuzk porep seal writes a real C1)");
  filecoin::porep::bytes32_t ticket, seed;
  ticket.fill(0x01);
  seed.fill(0x02);
  for (const auto& [flag, text, out] : {std::tuple{"--ticket", &args.ticket_hex, &ticket},
                                        std::tuple{"--seed", &args.seed_hex, &seed}}) {
    if (text->empty()) continue;
    auto h = parse_hex32(*text);
    if (!h) return bad(std::string("bad ") + flag + ": expected 64 hex digits");
    *out = *h;
  }
  auto rp = filecoin::porep::parse_registered_seal_proof(proof_name);
  if (!rp.ok()) return bad("unknown registered proof " + proof_name);
  auto cfg = filecoin::porep::porep_config(*rp);
  if (!cfg.ok()) return bad(cfg.error().message());

  filecoin::porep::synthetic_request_t req;
  req.config = *cfg;
  req.prover_id = filecoin::porep::prover_id_from_actor(miner);
  req.sector_id = sector;
  req.ticket = ticket;
  req.seed = seed;
  const auto t0 = std::chrono::steady_clock::now();
  filecoin::porep::synthetic_stats_t st;
  auto c1 = filecoin::porep::generate_synthetic_c1(req, thread_pool::default_pool(), &st);
  if (!c1.ok()) return bad(c1.error().message());
  const double gen_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::string text;
  if (format == "json") {
    auto j = filecoin::porep::write_c1_json(*c1);
    if (!j.ok()) return bad(j.error().message());
    text = std::move(*j);
  } else {
    auto w = filecoin::porep::c1_to_wrapper_json(*c1, int64_t(sector));
    if (!w.ok()) return bad(w.error().message());
    text = std::move(*w);
  }
  if (status s = write_file_atomic(out_path, text); !s) {
    spdlog::error("cuzk porep gen-vanilla: cannot write the C1: {}", s.to_string());
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

}  // namespace

void add_porep_gen_vanilla(CLI::App& porep, command_runner& chosen) {
  auto args = std::make_shared<gen_vanilla_args>();
  auto* gen = porep.add_subcommand(
      "gen-vanilla",
      "a consistent synthetic (never sealed, CC) C1 output for any sector size; interactive "
      "proofs only (V1, V1_1)");
  gen->add_option("--registered-proof", args->proof_name, "registered seal proof name or id")
      ->required();
  gen->add_flag("--synthetic", args->synthetic, "required: the sector is never sealed");
  gen->add_option("--miner-id", args->miner, "miner actor id")
      ->transform(decimal_u64())
      ->capture_default_str();
  gen->add_option("--sector-id", args->sector, "sector number")
      ->transform(decimal_u64(0, uint64_t(INT64_MAX)))
      ->capture_default_str();
  gen->add_option("--ticket", args->ticket_hex, "64 hex digits (default 0101…01)")
      ->type_name("HEX");
  gen->add_option("--seed", args->seed_hex, "64 hex digits (default 0202…02)")->type_name("HEX");
  gen->add_option("--format", args->format,
                  "wrapper ({\"SectorNum\",\"Phase1Out\",\"SectorSize\"}) or json (raw serde C1)")
      ->check(CLI::IsMember({"wrapper", "json"}))
      ->capture_default_str();
  gen->add_option("--out", args->out_path, "output file")->required();
  gen->footer(REGISTERED_PROOFS_HELP);
  on_selected(gen, chosen, [args] { return run_porep_gen_vanilla(*args); });
}

}  // namespace cuzk::app
