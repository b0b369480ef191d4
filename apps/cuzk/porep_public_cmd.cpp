// SPDX-License-Identifier: Apache-2.0
// `cuzk porep public-inputs --c1 FILE [--miner-id N|--prover-id HEX] [--sector-id N]
//  --partition K --out FILE [--registered-proof NAME]`: the public inputs of partition K's
// StackedCircuit as snarkjs public.json (decimal strings, ONE omitted), derived as rust-fil-proofs
// does (FILECOIN.md §3.3): [replica_id, comm_d, comm_r] then per challenge [c, 6 DRG parents,
// 8 expander parents, c, c, c]. With a prover (miner) id the replica_id is re-derived from
// prover_id, sector_id, ticket, comm_d and porep_id (what C2 does) and must equal the C1's; without
// one the C1's replica_id is used. --sector-id defaults to the wrapper's SectorNum.
// --registered-proof is needed only for a bincode C1. --out - writes to stdout.
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr), 1 I/O failure.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cli_args.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/replica_id.hpp"
#include "groth16/snarkjs_json.hpp"
#include "porep_cmds.hpp"

namespace cuzk::app {
namespace {

constexpr int EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BAD = 2;

const char* const USAGE =
    "usage: cuzk porep public-inputs --c1 FILE [--miner-id N|--prover-id HEX] [--sector-id N]\n"
    "         --partition K --out FILE|- [--registered-proof NAME (bincode C1 only)]\n"
    "  writes partition K's circuit public inputs as snarkjs public.json (decimal strings)\n";

int fail(const std::string& msg, int code = EXIT_BAD) {
  std::fprintf(stderr, "cuzk porep public-inputs: %s\n", msg.c_str());
  return code;
}

}  // namespace

int cmd_porep_public_inputs(int argc, char** argv) {
  std::string c1_path, out, proof_name;
  uint64_t partition = 0;
  bool have_partition = false;
  identity_args id;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "help" || a == "--help" || a == "-h") {
      std::fputs(USAGE, stdout);
      return EXIT_OK;
    }
    if (i + 1 >= argc) return fail("missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--c1") {
      c1_path = v;
    } else if (a == "--out") {
      out = v;
    } else if (a == "--registered-proof") {
      proof_name = v;
    } else if (std::string err; id.take(a, v, err)) {
      if (!err.empty()) return fail(err);
    } else if (a == "--partition") {
      if (!parse_u64(v, partition) || partition > 1000)
        return fail("--partition must be a small decimal integer, got '" + v + "'");
      have_partition = true;
    } else {
      return fail("unknown option " + a);
    }
  }
  if (c1_path.empty()) return fail("--c1 is required");
  if (out.empty()) return fail("--out is required (- for stdout)");
  if (!have_partition) return fail("--partition is required");
  if (const std::string c = id.conflict(); !c.empty()) return fail(c);

  int64_t sector_num = -1;
  auto c1 = porep::read_c1_file(c1_path, proof_name, &sector_num);
  if (!c1) {
    return fail("--c1: " + c1.error().to_string(),
                c1.error().code() == status_code::io_error ? EXIT_FAIL : EXIT_BAD);
  }
  const auto proof = porep::parse_registered_seal_proof(c1->registered_proof);
  if (!proof) return fail("registered_proof: " + proof.error().message());
  const auto cfg = porep::porep_config(*proof);
  if (!cfg) return fail(cfg.error().message());
  if (partition >= cfg->partitions()) {
    return fail("--partition " + std::to_string(partition) + " out of range (" +
                std::string(porep::name_of(*proof)) + " has " + std::to_string(cfg->partitions()) +
                ")");
  }

  porep::bytes32_t replica_id = c1->replica_id;
  auto who = id.resolve(sector_num);
  if (!who) return fail(who.error().message());
  if (*who) {
    const auto& [prover_id, sector_id] = **who;
    replica_id =
        porep::compute_replica_id(prover_id, sector_id, c1->ticket, c1->comm_d, cfg->porep_id);
    if (replica_id != c1->replica_id) {
      return fail("the replica_id derived from prover id, sector id " + std::to_string(sector_id) +
                  ", ticket, comm_d and porep_id differs from the C1's replica_id");
    }
  } else {
    std::fprintf(
        stderr, "cuzk porep public-inputs: no --miner-id/--prover-id: using the C1's replica_id\n");
  }

  const synth::porep_publics_t pub{replica_id, c1->comm_d, c1->comm_r, c1->seed};
  auto inputs = synth::porep_public_inputs(*cfg, pub, unsigned(partition));
  if (!inputs) return fail(inputs.error().to_string());
  const std::string json = groth16::public_to_snarkjs_json(*inputs);
  if (out == "-") {
    std::fwrite(json.data(), 1, json.size(), stdout);
    return EXIT_OK;
  }
  std::ofstream f(out, std::ios::binary);
  f.write(json.data(), std::streamsize(json.size()));
  if (!f) return fail("cannot write " + out, EXIT_FAIL);
  std::fprintf(stderr, "%s: %zu public inputs of partition %llu (%s)\n", out.c_str(),
               inputs->size(), (unsigned long long)partition,
               std::string(porep::name_of(*proof)).c_str());
  return EXIT_OK;
}

}  // namespace cuzk::app
