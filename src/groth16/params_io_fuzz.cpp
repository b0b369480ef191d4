// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the .params/.vk readers: any byte string must come back as a status (or a
// value), never a crash, hang or sanitizer report. Build with clang and -DCUZK_FUZZ=ON, then run
// ./params_io_fuzz -max_len=8192 <corpus dir> (seed it with small files from params_io_test).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "groth16/params_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::groth16;
  static cuzk::thread_pool pool(1);
  const std::span<const uint8_t> bytes(data, size);
  for (point_checks c : {point_checks::full, point_checks::none}) {
    (void)vk_from_bytes(bytes, c);
    auto f = params_file::from_bytes(bytes);
    if (!f.ok()) continue;
    (void)f->validate_against({1, 1, 2, 1, 1, 1});
    auto p = f->load_all(c, pool);
    // anything accepted must re-encode to the same bytes
    if (p.ok()) {
      auto again = params_to_bytes(*p, pool);
      if (!again.ok() || again->size() != size ||
          !std::equal(again->begin(), again->end(), bytes.begin())) {
        __builtin_trap();
      }
    }
  }
  return 0;
}
