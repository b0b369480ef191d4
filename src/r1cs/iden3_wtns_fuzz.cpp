// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the iden3 .wtns reader: any byte string comes back as a status or a
// witness, and an accepted witness written back out reads as the same values (the input itself
// may differ from the canonical bytes: section order, unknown sections). docs/fuzzing.md.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "r1cs/iden3_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::r1cs;
  auto witness = parse_wtns(std::span<const uint8_t>(data, size));
  if (!witness) return 0;
  auto again = parse_wtns(wtns_to_bytes(*witness));
  if (!again || !std::equal(again->begin(), again->end(), witness->begin(), witness->end())) {
    __builtin_trap();
  }
  return 0;
}
