// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the .vk reader at every point_checks level: any byte string comes back as a
// status or a key, and an accepted key re-encodes to the same bytes. docs/fuzzing.md.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "groth16/params_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::groth16;
  const std::span<const uint8_t> in(data, size);
  for (point_checks c : {point_checks::full, point_checks::on_curve_only, point_checks::none}) {
    auto vk = vk_from_bytes(in, c);
    if (!vk) continue;
    auto again = vk_to_bytes(*vk);
    if (!again || again->size() != size || !std::equal(again->begin(), again->end(), in.begin())) {
      __builtin_trap();
    }
  }
  return 0;
}
