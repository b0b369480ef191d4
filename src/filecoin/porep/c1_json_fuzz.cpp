// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the C1 serde JSON reader: any text comes back as a status or a C1, and an
// accepted C1 writes back out (serde's compact form) and reads as the same value. The input itself
// need not be compact serde output (free spacing, key order, unknown keys), so bytes are compared
// only from the first write on: write(read(write(c1))) == write(c1). docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "filecoin/porep/c1_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::filecoin::porep;
  auto c1 = parse_c1_json(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!c1) return 0;
  auto text = write_c1_json(*c1);
  if (!text) __builtin_trap();  // whatever is read can be written
  auto again = parse_c1_json(*text);
  if (!again || !(*again == *c1)) __builtin_trap();
  auto text_again = write_c1_json(*again);
  if (!text_again || *text_again != *text) __builtin_trap();
  return 0;
}
