// SPDX-License-Identifier: Apache-2.0
// Writing a partition's circuit public inputs as snarkjs public.json, shared by
// `cuzk porep|post|snap public-inputs` (what `cuzk groth16 export-snarkjs --public` reads).
#pragma once

#include <spdlog/spdlog.h>

#include <cstdio>
#include <span>
#include <string>

#include "base/file_io.hpp"
#include "cli_args.hpp"
#include "ff/fields.hpp"
#include "groth16/snarkjs_json.hpp"

namespace cuzk::app {

/// Writes `inputs` (ONE not included) as a JSON array of decimal strings to `out`, atomically, or
/// to stdout for "-"; `what` names the partition in the log line. The exit code (an I/O failure
/// logged with `prefix`).
inline int write_public_inputs_json(const std::string& prefix, const std::string& out,
                                    std::span<const ff::fr_t> inputs, const std::string& what) {
  const std::string json = groth16::public_to_snarkjs_json(inputs);
  if (out == "-") {
    std::fwrite(json.data(), 1, json.size(), stdout);
    return EXIT_OK;
  }
  if (status s = write_file_atomic(out, json); !s) {
    spdlog::error("{}: cannot write --out: {}", prefix, s.to_string());
    return EXIT_FAIL;
  }
  spdlog::info("{}: {} public inputs of {}", out, inputs.size(), what);
  return EXIT_OK;
}

}  // namespace cuzk::app
