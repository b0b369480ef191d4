// SPDX-License-Identifier: Apache-2.0
// The `cuzk porep …` subcommands. porep_cmd.cpp adds the `porep` command and `parents`; the others
// live in their own files named apps/cuzk/porep_<x>_cmd.cpp (picked up by CMake's glob; e.g.
// porep_seal_cmd.cpp, porep_c1_cmd.cpp). Each adds its subcommand to the `porep` CLI11 app and
// names the body main runs (cli_args.hpp); bodies return 0 ok, 2 bad input, 1 other failure.
#pragma once

#include <CLI/CLI.hpp>

#include "cli_args.hpp"

namespace cuzk::app {

/// `cuzk porep <sub> …`: adds `porep` and all its subcommands to the root app.
void add_porep_commands(CLI::App& root, command_runner& chosen);
/// `cuzk porep parents --registered-proof NAME --out FILE` (writes the parent cache).
void add_porep_parents(CLI::App& porep, command_runner& chosen);
/// `cuzk porep seal --registered-proof NAME [--data FILE] [--prover-id HEX|--miner-id N]
///  [--sector-id N] [--ticket HEX] [--seed HEX] --out-dir D` (helper "seal").
void add_porep_seal(CLI::App& porep, command_runner& chosen);
/// `cuzk porep gen-vanilla --registered-proof NAME --synthetic [--miner-id N --sector-id N
///  --ticket HEX --seed HEX] --out c1.json` (helper "c1").
void add_porep_gen_vanilla(CLI::App& porep, command_runner& chosen);
/// `cuzk porep public-inputs …` (helper "c1": the circuit public inputs of a C1 file).
void add_porep_public_inputs(CLI::App& porep, command_runner& chosen);

}  // namespace cuzk::app
