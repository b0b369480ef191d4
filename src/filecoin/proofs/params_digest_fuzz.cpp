// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the parameters.json reader: any text comes back as a status or entries,
// and every accepted entry has a 32-character lowercase-hex digest (what check_param_file compares
// against). Only "no crash" otherwise: there is no writer to round-trip through. docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "filecoin/proofs/params_digest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::filecoin::proofs;
  auto facts = parse_parameters_json(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!facts) return 0;
  for (const param_fact_t& f : *facts) {
    if (f.digest.size() != 32) __builtin_trap();
    for (char c : f.digest) {
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) __builtin_trap();
    }
  }
  return 0;
}
