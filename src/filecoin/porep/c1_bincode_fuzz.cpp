// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the C1 bincode v1 reader. The first input byte picks the registered proof
// the caller would supply (the v1 struct has none), the rest is the bincode. Any input comes back
// as a status or a C1; an accepted C1 is the same value through the JSON form (the two readers
// agree), and parse_c1_any reads the same bytes the same way. docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "filecoin/porep/c1_bincode.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::filecoin::porep;
  if (size == 0) return 0;
  // Ids past the last registered proof stay in: an unknown name must be refused, not crash.
  const uint32_t id = data[0] % (NUM_REGISTERED_SEAL_PROOFS + 1);
  auto proof = registered_seal_proof_from_id(id);
  const std::string name = proof ? std::string(name_of(*proof)) : std::to_string(id);
  const std::span<const uint8_t> bytes(data + 1, size - 1);
  auto c1 = parse_c1_bincode(bytes, name);
  if (detect_c1_format(bytes) == c1_format::bincode) {
    auto any = parse_c1_any(bytes, name);
    if (any.ok() != c1.ok() || (c1 && !(*any == *c1))) __builtin_trap();
  }
  if (!c1) return 0;
  auto text = write_c1_json(*c1);
  if (!text) __builtin_trap();
  auto from_json = parse_c1_json(*text);
  if (!from_json || !(*from_json == *c1)) __builtin_trap();
  return 0;
}
