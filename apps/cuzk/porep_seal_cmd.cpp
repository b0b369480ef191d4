// SPDX-License-Identifier: Apache-2.0
// `cuzk porep seal`: seal a small sector and write its C1 output.
//   seal --registered-proof NAME [--data FILE] [--prover-id HEX|--miner-id N] [--sector-id N]
//        [--ticket HEX] [--seed HEX] [--threads N] --out-dir D
// NAME is a registered seal proof of at most 512 MiB (StackedDrg2KiBV1_1, 6, …). FILE is the
// unpadded payload (≤ sector·127/128 bytes), Fr32-padded and zero-extended to the sector; without
// it the sector is all zeros (CC). Defaults, all deterministic: --miner-id 1000 (prover_id =
// LEB128(1000) zero-padded), --sector-id 1, --ticket 01…01, --seed 02…02 (32 bytes each, given
// as 64 hex digits). The seed is ignored by NonInteractivePoRep proofs.
// Writes D/c1.json (the lotus-bench wrapper: SectorNum = sector id, Phase1Out = base64 of the
// serde JSON C1, SectorSize) and the sealed state (seal.hpp write_sealed_sector: unsealed, sealed,
// sc-02-data-tree-{d,c,r-last}.dat, sc-02-data-layer-<l>.dat, p_aux); prints the commitments.
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr), 1 sealing or I/O failure.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "cli_args.hpp"
#include "filecoin/common/commp.hpp"
#include "filecoin/common/fr32.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "porep_cmds.hpp"

namespace cuzk::app {
namespace {

int fail(const std::string& msg, int code = EXIT_BAD) {
  spdlog::error("cuzk porep seal: {}", msg);
  return code;
}

struct seal_args {
  std::string proof_name, data_path, out_dir, prover_hex, ticket_hex, seed_hex;
  uint64_t miner_id = 1000, sector_id = 1, threads = 0;
};

int run_porep_seal(const seal_args& args) {
  const std::string &proof_name = args.proof_name, &data_path = args.data_path,
                    &out_dir = args.out_dir, &prover_hex = args.prover_hex,
                    &ticket_hex = args.ticket_hex, &seed_hex = args.seed_hex;
  const uint64_t miner_id = args.miner_id, sector_id = args.sector_id;
  const auto proof = filecoin::porep::parse_registered_seal_proof(proof_name);
  if (!proof) return fail(proof.error().message());
  const auto cfg = filecoin::porep::porep_config(*proof);
  if (!cfg) return fail(cfg.error().message());
  if (cfg->sector.sector_bytes > filecoin::porep::MAX_SEAL_SECTOR_BYTES)
    return fail(std::string(filecoin::porep::name_of(*proof)) +
                ": sealing is supported up to 512 MiB (use gen-vanilla --synthetic)");

  filecoin::porep::seal_request_t req;
  req.config = *cfg;
  req.sector_id = sector_id;
  req.prover_id = filecoin::porep::prover_id_from_actor(miner_id);
  if (!prover_hex.empty()) {
    auto p = parse_hex32(prover_hex);
    if (!p) return fail("--prover-id: " + p.error().message());
    req.prover_id = *p;
  }
  req.ticket.fill(0x01);
  if (!ticket_hex.empty()) {
    auto t = parse_hex32(ticket_hex);
    if (!t) return fail("--ticket: " + t.error().message());
    req.ticket = *t;
  }
  filecoin::porep::bytes32_t seed;
  seed.fill(0x02);
  if (!seed_hex.empty()) {
    auto s = parse_hex32(seed_hex);
    if (!s) return fail("--seed: " + s.error().message());
    seed = *s;
  }

  std::vector<uint8_t> payload;
  if (!data_path.empty()) {
    // The sector's capacity bounds the read: a larger file is refused from its size alone.
    const uint64_t cap = filecoin::common::fr32_unpadded_size(cfg->sector.sector_bytes);
    auto data = read_file_bounded(data_path, cap);
    if (!data) {
      return fail("--data: " + data.error().to_string() + " (the sector holds " +
                  std::to_string(cap) + " unpadded bytes)");
    }
    payload = std::move(*data);
  }

  thread_pool pool{unsigned(args.threads)};
  auto sealed = filecoin::porep::seal_sector(req, payload, pool);
  if (!sealed) return fail(sealed.error().to_string(), EXIT_FAIL);
  const auto t0 = std::chrono::steady_clock::now();
  auto c1 = filecoin::porep::seal_commit_phase1(*sealed, seed, pool);
  if (!c1) return fail(c1.error().to_string(), EXIT_FAIL);
  const double c1_secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (status s = filecoin::porep::write_sealed_sector(*sealed, out_dir); !s)
    return fail(s.to_string(), EXIT_FAIL);
  const std::string c1_path = (std::filesystem::path(out_dir) / "c1.json").string();
  if (status s = filecoin::porep::write_c1_wrapper_file(c1_path, *c1, sector_id); !s)
    return fail(s.to_string(), EXIT_FAIL);

  const auto& t = sealed->timings;
  std::printf("sealed %s, sector %llu, %s\n", std::string(filecoin::porep::name_of(*proof)).c_str(),
              (unsigned long long)sector_id,
              payload.empty() ? "zero data (CC)" : data_path.c_str());
  std::printf("  prover_id   %s\n", to_hex(req.prover_id).c_str());
  std::printf("  ticket      %s\n  seed        %s\n", to_hex(req.ticket).c_str(),
              to_hex(seed).c_str());
  std::printf("  replica_id  %s\n", to_hex(sealed->replica_id).c_str());
  std::printf("  comm_d      %s  %s\n", to_hex(sealed->comm_d).c_str(),
              filecoin::common::piece_cid(sealed->comm_d).c_str());
  std::printf("  comm_c      %s\n  comm_r_last %s\n", to_hex(sealed->comm_c).c_str(),
              to_hex(sealed->comm_r_last).c_str());
  std::printf("  comm_r      %s  %s\n", to_hex(sealed->comm_r).c_str(),
              filecoin::common::sealed_cid(sealed->comm_r).c_str());
  std::printf(
      "  time        parents %.3f s, tree_d %.3f s, labels %.3f s, tree_c %.3f s, "
      "tree_r_last %.3f s, c1 %.3f s (%u threads)\n",
      t.parents, t.tree_d, t.labels, t.tree_c, t.tree_r_last, c1_secs, pool.size());
  std::printf("  wrote       %s (%zu partitions × %zu challenges) and the sealed state in %s\n",
              c1_path.c_str(), c1->vanilla_proofs.size(), c1->vanilla_proofs[0].size(),
              out_dir.c_str());
  return EXIT_OK;
}

}  // namespace

void add_porep_seal(CLI::App& porep, command_runner& chosen) {
  auto args = std::make_shared<seal_args>();
  auto* seal = porep.add_subcommand(
      "seal", "seal a small sector (up to 512 MiB), write D/c1.json, the replica and the trees");
  seal->add_option("--registered-proof", args->proof_name, "registered seal proof name or id")
      ->required();
  seal->add_option("--data", args->data_path,
                   "unpadded payload (at most sector·127/128 bytes; default: zeros, a CC sector)");
  auto* miner = seal->add_option("--miner-id", args->miner_id,
                                 "miner actor id; prover_id = its LEB128 bytes, zero-padded")
                    ->transform(decimal_u64())
                    ->capture_default_str();
  seal->add_option("--prover-id", args->prover_hex, "prover id as 64 hex digits")
      ->type_name("HEX")
      ->excludes(miner);
  seal->add_option("--sector-id", args->sector_id, "sector number")
      ->transform(decimal_u64())
      ->capture_default_str();
  seal->add_option("--ticket", args->ticket_hex, "64 hex digits (default 0101…01)")
      ->type_name("HEX");
  seal->add_option("--seed", args->seed_hex,
                   "64 hex digits (default 0202…02; ignored by NonInteractivePoRep)")
      ->type_name("HEX");
  seal->add_option("--threads", args->threads, "worker threads (default: all cores)")
      ->transform(decimal_u64(1, 4096));
  seal->add_option("--out-dir", args->out_dir, "output directory")->type_name("D")->required();
  seal->footer(REGISTERED_PROOFS_HELP);
  on_selected(seal, chosen, [args] { return run_porep_seal(*args); });
}

}  // namespace cuzk::app
