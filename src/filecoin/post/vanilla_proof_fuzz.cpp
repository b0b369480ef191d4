// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the PoSt vanilla proof decoders: one bincode FallbackPoStSectorProof (as
// Curio sends it) and the cuzk-bench vanilla file (a JSON array of base64 strings). Any input
// comes back as a status or a value; an accepted proof re-encodes to exactly the same bytes, and
// an accepted vanilla file to the same elements. docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "filecoin/post/vanilla_proof.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::filecoin::post;
  const std::span<const uint8_t> bytes(data, size);
  if (auto p = parse_fallback_sector_proof(bytes)) {
    const std::vector<uint8_t> again = serialize_fallback_sector_proof(*p);
    if (again.size() != size || !std::equal(again.begin(), again.end(), bytes.begin())) {
      __builtin_trap();
    }
  }
  auto elements = parse_vanilla_file(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!elements) return 0;
  auto again = parse_vanilla_file(vanilla_file_json(*elements));
  if (!again || *again != *elements) __builtin_trap();
  (void)parse_fallback_sector_proofs(*elements);
  return 0;
}
