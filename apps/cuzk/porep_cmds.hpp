// SPDX-License-Identifier: Apache-2.0
// The `cuzk porep …` subcommands. porep_cmd.cpp holds the dispatcher (cmd_porep) and `parents`;
// the others live in their own files named apps/cuzk/porep_<x>_cmd.cpp (picked up by CMake's glob;
// e.g. porep_seal_cmd.cpp, porep_c1_cmd.cpp). Each takes argv with argv[0] = the subcommand name
// ("seal", …) and returns the exit code: 0 ok, 2 bad input or usage (one line on stderr), 1 other
// failure.
#pragma once

namespace cuzk::app {

/// `cuzk porep <sub> …` (dispatcher; argv[0] = "porep").
int cmd_porep(int argc, char** argv);
/// `cuzk porep parents --registered-proof NAME --out FILE` (writes the parent cache).
int cmd_porep_parents(int argc, char** argv);
/// `cuzk porep seal --registered-proof NAME [--data FILE] [--prover-id HEX|--miner-id N]
///  [--sector-id N] [--ticket HEX] [--seed HEX] --out-dir D` (helper "seal").
int cmd_porep_seal(int argc, char** argv);
/// `cuzk porep gen-vanilla --registered-proof NAME --synthetic [--miner-id N --sector-id N
///  --ticket HEX --seed HEX] --out c1.json` (helper "c1").
int cmd_porep_gen_vanilla(int argc, char** argv);
/// `cuzk porep public-inputs …` (helper "c1": the circuit public inputs of a C1 file).
int cmd_porep_public_inputs(int argc, char** argv);

}  // namespace cuzk::app
