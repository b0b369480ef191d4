// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the .params reader: the header and section table (from_bytes), the vk
// block, chunked section decoding (decode of [begin, begin + count)) and the whole file. Any byte
// string must come back as a status (or a value), never a crash, hang or sanitizer report; a file
// that loads re-encodes to the same bytes, and every chunk decodes to the points load_all gave.
// docs/fuzzing.md; scripts/fuzz.sh runs it on fuzz/corpus/params_io_fuzz.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "groth16/params_io.hpp"

namespace {

using namespace cuzk::groth16;

// Decodes section `s` in chunks of up to 3 points and checks them against `whole` (the points
// load_all decoded, or empty when it failed: then only "no crash" is asked).
template <typename Point>
void decode_in_chunks(const params_file& f, params_section s, point_checks checks,
                      const std::vector<Point>& whole, bool loaded, cuzk::thread_pool& pool) {
  constexpr uint64_t CHUNK = 3;
  const uint64_t n = f.count(s);
  std::vector<Point> out(CHUNK);
  for (uint64_t begin = 0; begin < n; begin += CHUNK) {
    const uint64_t count = std::min(CHUNK, n - begin);
    const cuzk::status st =
        f.decode(s, begin, count, std::span<Point>(out.data(), count), checks, pool);
    if (!loaded) continue;
    if (!st) __builtin_trap();
    if (!std::equal(out.begin(), out.begin() + count, whole.begin() + begin)) __builtin_trap();
  }
  // Past the end must be refused, not read.
  if (f.decode(s, n, 1, std::span<Point>(out.data(), 1), checks, pool)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static cuzk::thread_pool pool(1);
  const std::span<const uint8_t> bytes(data, size);
  auto f = params_file::from_bytes(bytes);
  if (!f) return 0;
  (void)f->validate_against({1, 1, 2, 1, 1, 1});
  for (point_checks c : {point_checks::full, point_checks::none}) {
    (void)f->load_vk(c);
    auto p = f->load_all(c, pool);
    const bool loaded = p.ok();
    static const parameters empty{};
    const parameters& got = loaded ? *p : empty;
    decode_in_chunks(*f, params_section::ic, c, got.vk.ic, loaded, pool);
    decode_in_chunks(*f, params_section::h, c, got.h, loaded, pool);
    decode_in_chunks(*f, params_section::l, c, got.l, loaded, pool);
    decode_in_chunks(*f, params_section::a, c, got.a, loaded, pool);
    decode_in_chunks(*f, params_section::b_g1, c, got.b_g1, loaded, pool);
    decode_in_chunks(*f, params_section::b_g2, c, got.b_g2, loaded, pool);
    // anything accepted must re-encode to the same bytes
    if (loaded) {
      auto again = params_to_bytes(*p, pool);
      if (!again.ok() || again->size() != size ||
          !std::equal(again->begin(), again->end(), bytes.begin())) {
        __builtin_trap();
      }
    }
  }
  return 0;
}
