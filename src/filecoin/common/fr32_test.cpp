// SPDX-License-Identifier: Apache-2.0
// Fr32 padding against a bit-by-bit model of the spec (docs/spec/primitives.md §3): stream bit b of
// the unpadded data goes to bit b mod 254 of node b / 254, LSB-first in bytes.
#include "filecoin/common/fr32.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test_rng.hpp"

namespace cuzk::filecoin::common {
namespace {

std::vector<uint8_t> pad_bitwise(const std::vector<uint8_t>& in) {
  const size_t chunks = (in.size() + 126) / 127;
  std::vector<uint8_t> out(chunks * 128, 0);
  for (size_t b = 0; b < in.size() * 8; ++b) {
    const bool bit = (in[b / 8] >> (b % 8)) & 1;
    const size_t node = b / 254, off = b % 254;
    if (bit) out[node * 32 + off / 8] |= uint8_t(1u << (off % 8));
  }
  return out;
}

TEST(fr32, pad_matches_the_bit_model_and_round_trips) {
  auto rng = test::test_rng::from_env("fr32");
  for (size_t n : {size_t(0), size_t(1), size_t(31), size_t(32), size_t(126), size_t(127),
                   size_t(128), size_t(254), size_t(1000), size_t(127 * 64)}) {
    std::vector<uint8_t> in(n);
    for (auto& b : in) b = uint8_t(rng());
    std::vector<uint8_t> out(fr32_padded_size(n));
    fr32_pad(in, out);
    EXPECT_EQ(out, pad_bitwise(in)) << n;
    for (size_t i = 31; i < out.size(); i += 32) EXPECT_EQ(out[i] & 0xc0, 0) << n;
    std::vector<uint8_t> back(fr32_unpadded_size(out.size()));
    fr32_unpad(out, back);
    in.resize(back.size(), 0);
    EXPECT_EQ(back, in) << n;
  }
}

TEST(fr32, all_ones_chunk) {
  // 1016 one bits: every node is 2^254 − 1 (bytes ff… 3f).
  std::vector<uint8_t> in(127, 0xff), out(128);
  fr32_pad(in, out);
  for (size_t i = 0; i < 128; ++i) EXPECT_EQ(out[i], i % 32 == 31 ? 0x3f : 0xff) << i;
  EXPECT_EQ(fr32_padded_size(127), 128u);
  EXPECT_EQ(fr32_padded_size(128), 256u);
  EXPECT_EQ(fr32_unpadded_size(2048), 2032u);
}

}  // namespace
}  // namespace cuzk::filecoin::common
