// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the lotus-bench c1.json wrapper and the format dispatch (parse_c1_any with
// and without a registered proof): any input comes back as a status or a value. An accepted
// wrapper writes back out and reads as the same fields (SectorNum over the full u64 range), and a
// wrapper whose Phase1Out is a C1 gives the same C1 through parse_c1_any. docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c1_wrapper.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::filecoin::porep;
  const std::span<const uint8_t> bytes(data, size);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<uint64_t> sector_num;
  auto any = parse_c1_any(bytes, {}, &sector_num);
  (void)parse_c1_any(bytes, "StackedDrg2KiBV1_1", nullptr);
  auto w = parse_c1_wrapper(text);
  if (!w) return 0;
  auto again = parse_c1_wrapper(write_c1_wrapper(*w));
  if (!again || again->sector_num != w->sector_num || again->sector_size != w->sector_size ||
      again->phase1_out != w->phase1_out) {
    __builtin_trap();
  }
  if (detect_c1_format(bytes) == c1_format::wrapper && any) {
    auto inner = parse_c1_json(w->phase1_out);
    if (!inner || !(*inner == *any) || sector_num != w->sector_num) __builtin_trap();
  }
  return 0;
}
