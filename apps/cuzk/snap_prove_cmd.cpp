// SPDX-License-Identifier: Apache-2.0
// `cuzk prove snap --vanilla FILE --registered-proof P --comm-r-old HEX --comm-r-new HEX
//  --comm-d-new HEX [--params-dir D] --proof-out proof.bin` and `cuzk verify snap … --proof
// proof.bin` (no --vanilla): a SnapDeals (EmptySectorUpdate) proof from the inputs Curio sends
// through the one prove loop (prove_run.hpp: an in-process engine, as the daemon proves), verify
// against the .vk (filecoin/proofs/snap_prover.hpp). The vanilla file is a JSON array of base64
// bincode PartitionProofs, one per partition in order (Curio's snap-vproof.json); the commitments
// are 64 hex digits each (the 32 raw bytes Curio takes from the CIDs). P is the wire number (0..4),
// the Rust name or the Go constant. Every partition proof is self-verified before the P × 192 bytes
// are written. `--check-digests --parameters-json F` and `--gpu` as for `cuzk prove porep`.
// `cuzk snap public-inputs --registered-proof P --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX
// --partition K --out FILE|-` writes partition K's 4 circuit public inputs
// (filecoin::circuits::empty_sector_update_public_inputs) as snarkjs public.json.
// Exit codes: 0 ok / valid, 1 invalid proof or a failure of the work, 2 bad input.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "cli_args.hpp"
#include "filecoin/circuits/empty_sector_update_circuit.hpp"
#include "filecoin/proofs/params_digest.hpp"
#include "filecoin/proofs/snap_prover.hpp"
#include "filecoin/snap/config.hpp"
#include "prove_run.hpp"
#include "public_inputs_json.hpp"

namespace cuzk::app {
namespace {

/// A 32 GiB update is 16 × 561,768 bytes, ~12 MB in base64; this bounds a file that cannot be one.
constexpr uint64_t MAX_SNAP_VANILLA_FILE_BYTES = uint64_t(64) << 20;

struct snap_args {
  std::string vanilla_path, proof_name, params_dir, proof_path;
  std::string comm_r_old_hex, comm_r_new_hex, comm_d_new_hex;
  uint64_t partition = 0;                      // public-inputs' --partition
  std::vector<std::vector<uint8_t>> elements;  // the vanilla file's PartitionProofs, as sent
  filecoin::proofs::update_inputs_t in;
};

void add_snap_options(CLI::App& cmd, snap_args& args, const std::string& proof_flag,
                      const std::string& proof_help) {
  cmd.add_option("--registered-proof", args.proof_name, "registered update proof: number or name")
      ->required();
  cmd.add_option("--comm-r-old", args.comm_r_old_hex, "the sector key's comm_r (64 hex digits)")
      ->required();
  cmd.add_option("--comm-r-new", args.comm_r_new_hex, "the updated replica's comm_r")->required();
  cmd.add_option("--comm-d-new", args.comm_d_new_hex, "the new data's comm_d")->required();
  cmd.add_option("--params-dir", args.params_dir,
                 "parameter directory (default $FIL_PROOFS_PARAMETER_CACHE or "
                 "/var/tmp/filecoin-proof-parameters)");
  cmd.add_option(proof_flag, args.proof_path, proof_help)->required();
  cmd.footer(std::string(REGISTERED_UPDATE_PROOFS_HELP) +
             "\nexit status: 0 ok/valid, 1 invalid proof or I/O failure, 2 bad input");
}

/// Reads the inputs (the vanilla file's PartitionProofs only when given; the engine decodes and
/// checks them); -1 on success, else the exit code (the error already logged).
int load_inputs(const std::string& prefix, snap_args& args) {
  args.params_dir = filecoin::proofs::resolve_params_dir(args.params_dir);
  auto proof = filecoin::snap::parse_registered_update_proof(args.proof_name);
  if (!proof) {
    spdlog::error("{}: --registered-proof: {}", prefix, proof.error().message());
    return EXIT_BAD;
  }
  args.in.proof = *proof;
  for (const auto& [flag, hex, out] :
       {std::tuple{"--comm-r-old", &args.comm_r_old_hex, &args.in.comms.comm_r_old},
        std::tuple{"--comm-r-new", &args.comm_r_new_hex, &args.in.comms.comm_r_new},
        std::tuple{"--comm-d-new", &args.comm_d_new_hex, &args.in.comms.comm_d_new}}) {
    auto v = parse_hex32(*hex);
    if (!v) {
      spdlog::error("{}: {}: {}", prefix, flag, v.error().message());
      return EXIT_BAD;
    }
    *out = *v;
  }
  if (args.vanilla_path.empty()) return -1;
  return read_vanilla_file(prefix, args.vanilla_path, MAX_SNAP_VANILLA_FILE_BYTES, args.elements);
}

/// `cuzk prove snap`'s request: the partition proofs and commitments as Curio sends them.
int load_snap_job(const std::string& prefix, snap_args& args, prove_job& job) {
  if (int rc = load_inputs(prefix, args); rc >= 0) return rc;
  auto cfg = filecoin::snap::update_config(args.in.proof);
  if (!cfg) {
    spdlog::error("{}: --registered-proof: {}", prefix, cfg.error().message());
    return EXIT_BAD;
  }
  engine::proof_request& r = job.request;
  r.kind = engine::proof_kind::snap_deals_update;
  r.registered_proof = filecoin::snap::id_of(args.in.proof);
  r.sector_size = cfg->sector_bytes;
  r.vanilla_proofs = args.elements;
  const auto& c = args.in.comms;
  r.comm_r_old.assign(c.comm_r_old.begin(), c.comm_r_old.end());
  r.comm_r_new.assign(c.comm_r_new.begin(), c.comm_r_new.end());
  r.comm_d_new.assign(c.comm_d_new.begin(), c.comm_d_new.end());
  job.params_dir = args.params_dir;
  job.params_path = filecoin::proofs::update_params_path(*cfg, args.params_dir);
  job.proof_path = args.proof_path;
  return -1;
}

int run_verify_snap(snap_args& args) {
  const std::string prefix = "cuzk verify snap";
  if (int rc = load_inputs(prefix, args); rc >= 0) return rc;
  std::ifstream f(args.proof_path, std::ios::binary);
  if (!f) {
    spdlog::error("{}: cannot read {}", prefix, args.proof_path);
    return EXIT_BAD;
  }
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                   std::istreambuf_iterator<char>());
  return report_verdict(prefix, filecoin::proofs::verify_update(args.in.proof, args.in.comms, bytes,
                                                                args.params_dir));
}

int run_snap_public_inputs(snap_args& args) {
  const std::string prefix = "cuzk snap public-inputs";
  if (int rc = load_inputs(prefix, args); rc >= 0) return rc;
  const auto cfg = filecoin::snap::update_config(args.in.proof);
  if (!cfg) {
    spdlog::error("{}: {}", prefix, cfg.error().to_string());
    return EXIT_BAD;
  }
  if (args.partition >= cfg->partitions) {
    spdlog::error("{}: --partition {} out of range ({} has {})", prefix, args.partition,
                  filecoin::snap::name_of(args.in.proof), cfg->partitions);
    return EXIT_BAD;
  }
  auto inputs = filecoin::circuits::empty_sector_update_public_inputs(*cfg, args.in.comms,
                                                                      unsigned(args.partition));
  if (!inputs) {
    spdlog::error("{}: {}", prefix, inputs.error().to_string());
    return EXIT_BAD;
  }
  return write_public_inputs_json(prefix, args.proof_path, *inputs,
                                  "partition " + std::to_string(args.partition) + " (" +
                                      std::string(filecoin::snap::name_of(args.in.proof)) + ")");
}

}  // namespace

void add_snap_public_inputs(CLI::App& snap, command_runner& chosen) {
  auto args = std::make_shared<snap_args>();
  auto* cmd = snap.add_subcommand(
      "public-inputs",
      "writes partition K's circuit public inputs as snarkjs public.json (decimal strings)");
  add_snap_options(*cmd, *args, "--out", "output file, - for stdout");
  cmd->get_option("--out")->type_name("FILE|-");
  cmd->remove_option(cmd->get_option("--params-dir"));
  cmd->footer(std::string(REGISTERED_UPDATE_PROOFS_HELP) +
              "\nexit status: 0 ok, 1 I/O failure, 2 bad input");
  cmd->add_option("--partition", args->partition, "partition index K")
      ->type_name("K")
      ->transform(decimal_u64(0, 1000))
      ->required();
  on_selected(cmd, chosen, [args] { return run_snap_public_inputs(*args); });
}

void add_snap_prove_commands(CLI::App& prove, CLI::App& verify, command_runner& chosen) {
  auto pa = std::make_shared<snap_args>();
  add_prove_command(
      prove, chosen,
      {.name = "snap",
       .help = "a SnapDeals update proof from Curio's partition proofs (CPU or --gpu N)",
       .builtin_facts = {},
       .add_inputs =
           [pa](CLI::App& cmd) {
             cmd.add_option(
                    "--vanilla", pa->vanilla_path,
                    "partition proofs: JSON array of base64 PartitionProofs, in partition order")
                 ->required();
             add_snap_options(cmd, *pa, "--proof-out", "where to write the P × 192-byte proof");
           },
       .load = [pa](const std::string& prefix,
                    prove_job& job) { return load_snap_job(prefix, *pa, job); }});

  auto va = std::make_shared<snap_args>();
  auto* v = verify.add_subcommand("snap", "verify a SnapDeals update proof");
  add_snap_options(*v, *va, "--proof", "the proof to verify");
  on_selected(v, chosen, [va] { return run_verify_snap(*va); });
}

}  // namespace cuzk::app
