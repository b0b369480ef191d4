// SPDX-License-Identifier: Apache-2.0
// `cuzk prove porep --c1 c1.json --params-dir D [--miner-id N|--prover-id HEX] [--sector-id N]
//  --proof-out proof.bin` and `cuzk verify porep … --proof proof.bin`: PoRep C2. prove sends the
// C1 file's bytes to an in-process engine as the daemon receives them (prove_run.hpp: the one
// prove loop, its flags --check-digests, --param-checks, --gpu, …); verify checks a proof against
// the .vk (filecoin/proofs/porep_prover.hpp). With a miner/prover id the replica_id is re-derived
// as C2 does and must match the C1's (prove) or defines the public inputs (verify); without one the
// C1's replica_id is used. --sector-id defaults to the wrapper's SectorNum; --params-dir to
// $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters. A proof that fails
// self-verification names the suspect input: the C1 (a constraint does not hold) or the
// parameters. Exit codes: 0 ok / valid, 1 invalid proof or a failure of the work (I/O, memory, a
// device), 2 bad input.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "base/file_io.hpp"
#include "cli_args.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/proofs/params_digest.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "prove_run.hpp"

namespace cuzk::app {
namespace {

struct porep_args {
  std::string c1_path, params_dir, proof_path, proof_name;
  identity_args id;
  filecoin::porep::c1_output_t c1;
  std::optional<filecoin::proofs::prover_identity_t> who;
};

/// Adds the options prove and verify share; `proof_flag` is --proof-out (prove) or --proof
/// (verify).
void add_porep_options(CLI::App& cmd, porep_args& args, const std::string& proof_flag,
                       const std::string& proof_help) {
  cmd.add_option("--c1", args.c1_path, "C1 output: the lotus-bench c1.json wrapper or raw JSON")
      ->required();
  cmd.add_option("--params-dir", args.params_dir,
                 "parameter directory (default $FIL_PROOFS_PARAMETER_CACHE or "
                 "/var/tmp/filecoin-proof-parameters)");
  args.id.add_to(cmd);
  cmd.add_option(proof_flag, args.proof_path, proof_help)->required();
  cmd.add_option("--registered-proof", args.proof_name, "registered seal proof (bincode C1 only)");
}

/// Reads the C1 and resolves the prover identity; -1 on success, else the exit code (the error
/// already logged with `prefix`).
int load_c1(const char* prefix, porep_args& args) {
  args.params_dir = filecoin::proofs::resolve_params_dir(args.params_dir);
  if (status s = check_input_file("--c1", args.c1_path); !s) {
    spdlog::error("{}: {}", prefix, s.message());
    return EXIT_BAD;
  }
  std::optional<uint64_t> sector_num;
  auto c1 = filecoin::porep::read_c1_file(args.c1_path, args.proof_name, &sector_num);
  if (!c1) {
    spdlog::error("{}: --c1: {}", prefix, c1.error().to_string());
    return c1.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  args.c1 = std::move(*c1);
  auto who = args.id.resolve(sector_num);
  if (!who) {
    spdlog::error("{}: {}", prefix, who.error().message());
    return EXIT_BAD;
  }
  if (*who) {
    args.who = filecoin::proofs::prover_identity_t{(*who)->first, (*who)->second};
  } else {
    spdlog::warn("{}: no --miner-id/--prover-id: using the C1's replica_id", prefix);
  }
  return -1;
}

/// The C1 file's bytes as the daemon receives them (any of its forms); a 32 GiB C1 is ~60 MB.
constexpr uint64_t MAX_C1_FILE_BYTES = uint64_t(1) << 32;

/// `cuzk prove porep`'s request: the C1 file's bytes, and the identity to check its replica_id
/// against when one was given.
int load_porep_job(const std::string& prefix, porep_args& args, prove_job& job) {
  if (int rc = load_c1(prefix.c_str(), args); rc >= 0) return rc;
  auto proof = filecoin::porep::parse_registered_seal_proof(args.c1.registered_proof);
  auto cfg = proof ? filecoin::porep::porep_config(*proof)
                   : result<filecoin::porep::porep_config_t>(proof.error());
  if (!cfg) {
    spdlog::error("{}: --c1: registered_proof: {}", prefix, cfg.error().message());
    return EXIT_BAD;
  }
  auto bytes = read_file_bounded(args.c1_path, MAX_C1_FILE_BYTES);
  if (!bytes) {
    spdlog::error("{}: --c1: {}", prefix, bytes.error().to_string());
    return bytes.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD;
  }
  engine::proof_request& r = job.request;
  r.kind = engine::proof_kind::porep_seal_commit;
  r.registered_proof = uint64_t(*proof);
  r.sector_size = cfg->sector.sector_bytes;
  r.vanilla_proof = std::move(*bytes);
  r.check_identity = args.who.has_value();
  if (args.who) {
    r.sector_number = args.who->sector_id;
    r.miner_id = args.id.miner_id;
    if (!args.id.prover_hex.empty())
      r.prover_id.assign(args.who->prover_id.begin(), args.who->prover_id.end());
  }
  job.params_dir = args.params_dir;
  job.params_path = filecoin::proofs::porep_params_path(*cfg, args.params_dir);
  job.proof_path = args.proof_path;
  return -1;
}

int run_verify_porep(porep_args& args) {
  const char* prefix = "cuzk verify porep";
  if (int rc = load_c1(prefix, args); rc >= 0) return rc;
  auto bytes = read_file_bounded(args.proof_path, MAX_PROOF_FILE_BYTES);
  if (!bytes) {
    spdlog::error("{}: --proof: {}", prefix, bytes.error().to_string());
    return EXIT_BAD;
  }
  return report_verdict(prefix,
                        filecoin::proofs::verify_porep(args.c1, args.who, *bytes, args.params_dir));
}

}  // namespace

void add_post_prove_commands(CLI::App& prove, CLI::App& verify, command_runner& chosen);
void add_snap_prove_commands(CLI::App& prove, CLI::App& verify, command_runner& chosen);

void add_prove_commands(CLI::App& root, command_runner& chosen) {
  auto* prove = root.add_subcommand(
      "prove", "prove PoRep C2 from a C1 file, a PoSt partition or a SnapDeals update");
  prove->require_subcommand(1);
  auto prove_args = std::make_shared<porep_args>();
  add_prove_command(
      *prove, chosen,
      {.name = "porep",
       .help = "PoRep C2 on the CPU prover (or --gpu N); per-phase timings on stderr",
       .builtin_facts = filecoin::proofs::builtin_porep_facts(),
       .add_inputs =
           [prove_args](CLI::App& cmd) {
             add_porep_options(cmd, *prove_args, "--proof-out", "where to write the proof");
           },
       .load = [prove_args](const std::string& prefix,
                            prove_job& job) { return load_porep_job(prefix, *prove_args, job); }});

  auto* verify = root.add_subcommand("verify", "verify a PoRep, PoSt or SnapDeals proof");
  verify->require_subcommand(1);
  auto verify_args = std::make_shared<porep_args>();
  auto* verify_porep = verify->add_subcommand("porep", "verify a PoRep C2 proof");
  add_porep_options(*verify_porep, *verify_args, "--proof", "the proof to verify");
  verify_porep->footer("exit status: 0 valid, 1 invalid proof or I/O failure, 2 bad input");
  on_selected(verify_porep, chosen, [verify_args] { return run_verify_porep(*verify_args); });
  add_post_prove_commands(*prove, *verify, chosen);
  add_snap_prove_commands(*prove, *verify, chosen);
}

}  // namespace cuzk::app
