// SPDX-License-Identifier: Apache-2.0
// `cuzk porep public-inputs --c1 FILE [--miner-id N|--prover-id HEX] [--sector-id N]
//  --partition K --out FILE [--registered-proof NAME]`: the public inputs of partition K's
// StackedCircuit as snarkjs public.json (decimal strings, ONE omitted), derived as rust-fil-proofs
// does (docs/spec/porep.md §8): [replica_id, comm_d, comm_r] then per challenge [c, 6 DRG parents,
// 8 expander parents, c, c, c]. With a prover (miner) id the replica_id is re-derived from
// prover_id, sector_id, ticket, comm_d and porep_id (what C2 does) and must equal the C1's; without
// one the C1's replica_id is used. --sector-id defaults to the wrapper's SectorNum.
// --registered-proof is needed only for a bincode C1. --out - writes to stdout.
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr), 1 I/O failure.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "base/file_io.hpp"
#include "cli_args.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/replica_id.hpp"
#include "porep_cmds.hpp"
#include "public_inputs_json.hpp"

namespace cuzk::app {
namespace {

int fail(const std::string& msg, int code = EXIT_BAD) {
  spdlog::error("cuzk porep public-inputs: {}", msg);
  return code;
}

struct public_inputs_args {
  std::string c1_path, out, proof_name;
  uint64_t partition = 0;
  identity_args id;
};

int run_porep_public_inputs(const public_inputs_args& args) {
  const std::string &c1_path = args.c1_path, &out = args.out, &proof_name = args.proof_name;
  const uint64_t partition = args.partition;
  const identity_args& id = args.id;
  if (status s = check_input_file("--c1", c1_path); !s) return fail(s.message());
  std::optional<uint64_t> sector_num;
  auto c1 = filecoin::porep::read_c1_file(c1_path, proof_name, &sector_num);
  if (!c1) {
    return fail("--c1: " + c1.error().to_string(),
                c1.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD);
  }
  const auto proof = filecoin::porep::parse_registered_seal_proof(c1->registered_proof);
  if (!proof) return fail("registered_proof: " + proof.error().message());
  const auto cfg = filecoin::porep::porep_config(*proof);
  if (!cfg) return fail(cfg.error().message());
  if (partition >= cfg->partitions()) {
    return fail("--partition " + std::to_string(partition) + " out of range (" +
                std::string(filecoin::porep::name_of(*proof)) + " has " +
                std::to_string(cfg->partitions()) + ")");
  }

  filecoin::porep::bytes32_t replica_id = c1->replica_id;
  auto who = id.resolve(sector_num);
  if (!who) return fail(who.error().message());
  if (*who) {
    const auto& [prover_id, sector_id] = **who;
    replica_id = filecoin::porep::compute_replica_id(prover_id, sector_id, c1->ticket, c1->comm_d,
                                                     cfg->porep_id);
    if (replica_id != c1->replica_id) {
      return fail("the replica_id derived from prover id, sector id " + std::to_string(sector_id) +
                  ", ticket, comm_d and porep_id differs from the C1's replica_id");
    }
  } else {
    spdlog::warn("cuzk porep public-inputs: no --miner-id/--prover-id: using the C1's replica_id");
  }

  const filecoin::circuits::porep_publics_t pub{replica_id, c1->comm_d, c1->comm_r, c1->seed};
  auto inputs = filecoin::circuits::porep_public_inputs(*cfg, pub, unsigned(partition));
  if (!inputs) return fail(inputs.error().to_string());
  return write_public_inputs_json("cuzk porep public-inputs", out, *inputs,
                                  "partition " + std::to_string(partition) + " (" +
                                      std::string(filecoin::porep::name_of(*proof)) + ")");
}

}  // namespace

void add_porep_public_inputs(CLI::App& porep, command_runner& chosen) {
  auto args = std::make_shared<public_inputs_args>();
  auto* cmd = porep.add_subcommand(
      "public-inputs",
      "writes partition K's circuit public inputs as snarkjs public.json (decimal strings)");
  cmd->add_option("--c1", args->c1_path, "C1 output: the c1.json wrapper or raw JSON")->required();
  args->id.add_to(*cmd);
  cmd->add_option("--partition", args->partition, "partition index K")
      ->type_name("K")
      ->transform(decimal_u64(0, 1000))
      ->required();
  cmd->add_option("--out", args->out, "output file, - for stdout")->type_name("FILE|-")->required();
  cmd->add_option("--registered-proof", args->proof_name,
                  "registered seal proof (bincode C1 only)");
  on_selected(cmd, chosen, [args] { return run_porep_public_inputs(*args); });
}

}  // namespace cuzk::app
