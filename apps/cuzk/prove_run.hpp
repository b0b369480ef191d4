// SPDX-License-Identifier: Apache-2.0
// `cuzk prove porep|window-post|winning-post|snap`: one loop for every proof kind, proving the way
// the daemon does. Each kind's file adds its subcommand with a prove_kind_spec (its input options
// and how they become an engine::proof_request, exactly as the daemon receives it over the wire);
// prove_run.cpp does the rest once: the optional digest check of the parameter files
// (--check-digests), an in-process proving engine on the CPU or GPU --gpu N (src/engine: the
// kind's recipe of decode, checks, witness, compiled plan, prove and self-verification), the
// proof written atomically, per-phase timings and peak RSS on stderr. Also the steps the kinds'
// prove and verify commands share: reading a vanilla file, reporting a verdict.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "cuzk/engine.hpp"
#include "filecoin/proofs/params_digest.hpp"

namespace cuzk::app {

/// A prove command's inputs as the engine takes them, made by the kind's loader.
struct prove_job {
  engine::proof_request request;
  std::string params_dir;   ///< resolved (--params-dir, else the environment's)
  std::string params_path;  ///< the circuit's .params (its .vk beside it)
  std::string proof_path;   ///< --proof-out
  std::string summary;      ///< what is proved, for the result line
};

/// One `cuzk prove <name>` subcommand.
struct prove_kind_spec {
  std::string name, help;
  /// What --check-digests checks against without --parameters-json; empty: --check-digests
  /// requires --parameters-json.
  std::span<const filecoin::proofs::param_fact_t> builtin_facts;
  /// Adds the kind's input options (and --params-dir, --proof-out) to the subcommand.
  std::function<void(CLI::App&)> add_inputs;
  /// Reads the inputs into `job`: -1 on success, else the exit code, the error already logged
  /// with `prefix`.
  std::function<int(const std::string& prefix, prove_job& job)> load;
};

/// A vanilla file named by --vanilla (a JSON array of base64 bincode proofs, Curio's form) read
/// into `out`, one element per proof: -1 on success, else the exit code (2 for a path that is not
/// a regular file or text that is not such an array, 1 for an I/O failure), the error logged with
/// `prefix`.
int read_vanilla_file(const std::string& prefix, const std::string& path, uint64_t max_bytes,
                      std::vector<std::vector<uint8_t>>& out);

/// A verify command's verdict: "valid" (exit 0) or "invalid" (exit 1) on stdout, or the error
/// logged with `prefix` (exit 1 for an I/O failure, else 2).
int report_verdict(const std::string& prefix, const result<bool>& ok);

/// Adds `cuzk prove <spec.name>` with the flags every prove command shares (--check-digests,
/// --parameters-json, --param-checks, --gpu, --gpu-memory-mib) beside the kind's own.
void add_prove_command(CLI::App& prove, command_runner& chosen, prove_kind_spec spec);

}  // namespace cuzk::app
