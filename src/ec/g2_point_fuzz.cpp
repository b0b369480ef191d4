// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the G2 point decoders (both encodings, with and without the subgroup check):
// any byte string comes back as a status or a point, and a point that is accepted re-encodes to
// exactly the bytes it came from (the encoding is canonical). docs/fuzzing.md.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/serialization.hpp"

namespace {

template <size_t N>
bool same_bytes(const std::array<uint8_t, N>& encoded, std::span<const uint8_t> in) {
  return in.size() == N && std::equal(encoded.begin(), encoded.end(), in.begin());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::ec;
  const std::span<const uint8_t> in(data, size);
  for (bool subgroup_check : {true, false}) {
    const decode_options opt{.subgroup_check = subgroup_check};
    if (auto p = g2_from_compressed(in, opt); p && !same_bytes(g2_to_compressed(*p), in)) {
      __builtin_trap();
    }
    if (auto p = g2_from_uncompressed(in, opt); p && !same_bytes(g2_to_uncompressed(*p), in)) {
      __builtin_trap();
    }
    auto either = g2_from_bytes(in, opt);
    if (either && size == G2_COMPRESSED_BYTES && !same_bytes(g2_to_compressed(*either), in)) {
      __builtin_trap();
    }
    if (either && size == G2_UNCOMPRESSED_BYTES && !same_bytes(g2_to_uncompressed(*either), in)) {
      __builtin_trap();
    }
    if (either && size != G2_COMPRESSED_BYTES && size != G2_UNCOMPRESSED_BYTES) __builtin_trap();
  }
  return 0;
}
