// SPDX-License-Identifier: Apache-2.0
// `cuzk snap encode --registered-proof P --sector-dir D [--payload FILE] --out-dir O`: new data
// encoded into a sector key sealed by `cuzk porep seal` (its replica rebuilt into tree_r_last and
// checked against p_aux; filecoin/snap/encode.hpp), then the vanilla PartitionProofs of every
// partition, written as O/snap-vanilla.json (the JSON array of base64 that `cuzk prove snap
// --vanilla` reads, Curio's snap-vproof.json) and O/commitments.json ({"comm_r_old", "comm_r_new",
// "comm_d_new"} as 64 hex digits, also printed). The payload (unpadded bytes, at most the sector's
// 127/128; zero-extended) defaults to none: an all-zero deal. For tests and benchmarks of
// 2 KiB … 512 MiB sectors. Exit codes: 0 ok, 1 I/O failure, 2 bad input or usage.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "base/file_io.hpp"
#include "cli_args.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/encode.hpp"
#include "filecoin/snap/vanilla_prove.hpp"

namespace cuzk::app {
namespace {

struct encode_args {
  std::string proof_name, sector_dir, payload_path, out_dir;
};

int fail(const std::string& msg, status_code code = status_code::invalid_argument) {
  spdlog::error("cuzk snap encode: {}", msg);
  return code == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
}

int run_encode(const encode_args& args) {
  auto proof = filecoin::snap::parse_registered_update_proof(args.proof_name);
  if (!proof) return fail("--registered-proof: " + proof.error().message());
  auto cfg = filecoin::snap::update_config(*proof);
  if (!cfg) return fail(cfg.error().message());
  std::vector<uint8_t> payload;
  if (!args.payload_path.empty()) {
    auto p = read_file_bounded(args.payload_path, cfg->sector_bytes);
    if (!p) return fail("--payload: " + p.error().to_string(), p.error().code());
    payload = std::move(*p);
  }
  auto s = filecoin::snap::encode_update_dir(*cfg, args.sector_dir, payload);
  if (!s) {
    const status_code c = s.error().code();
    return fail(s.error().message(),
                c == status_code::io_error ? c : status_code::invalid_argument);
  }
  const std::string vanilla =
      filecoin::post::vanilla_file_json(filecoin::snap::prove_all_partitions(*s));
  const std::string comms = filecoin::snap::commitments_json(filecoin::snap::commitments_of(*s));
  std::error_code ec;
  std::filesystem::create_directories(args.out_dir, ec);
  if (ec) return fail("cannot create " + args.out_dir + ": " + ec.message(), status_code::io_error);
  const std::filesystem::path out(args.out_dir);
  for (const auto& [name, text] :
       {std::pair{"snap-vanilla.json", &vanilla}, std::pair{"commitments.json", &comms}}) {
    const std::string path = (out / name).string();
    if (status st = write_file_atomic(path, std::string_view(*text)); !st)
      return fail(path + ": " + st.to_string(), status_code::io_error);
  }
  std::printf("%s\n", comms.c_str());
  spdlog::info("cuzk snap encode: {} ({} partition(s)) -> {}", filecoin::snap::name_of(*proof),
               cfg->partitions, args.out_dir);
  return EXIT_OK;
}

}  // namespace

void add_snap_public_inputs(CLI::App& snap, command_runner& chosen);  // snap_prove_cmd.cpp

void add_snap_commands(CLI::App& root, command_runner& chosen) {
  auto* snap_cmd = root.add_subcommand("snap", "SnapDeals tools (encoding, vanilla proofs)");
  snap_cmd->require_subcommand(1);
  auto args = std::make_shared<encode_args>();
  auto* enc = snap_cmd->add_subcommand(
      "encode",
      "encode new data into a sector sealed by `cuzk porep seal` and write its partition proofs "
      "(snap-vanilla.json) and commitments (commitments.json)");
  enc->add_option("--registered-proof", args->proof_name, "registered update proof: number or name")
      ->required();
  enc->add_option("--sector-dir", args->sector_dir, "a `cuzk porep seal` output directory")
      ->required();
  enc->add_option("--payload", args->payload_path, "the new data, unpadded (default: none)");
  enc->add_option("--out-dir", args->out_dir, "where to write the two files")->required();
  enc->footer(std::string(REGISTERED_UPDATE_PROOFS_HELP) +
              "\nexit status: 0 ok, 1 I/O failure, 2 bad input or usage");
  on_selected(enc, chosen, [args] { return run_encode(*args); });
  add_snap_public_inputs(*snap_cmd, chosen);
}

}  // namespace cuzk::app
