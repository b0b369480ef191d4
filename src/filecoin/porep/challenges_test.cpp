// SPDX-License-Identifier: Apache-2.0
// Challenge derivation: the hard-coded synthetic vectors of rust-fil-proofs challenges.rs
// (test_synth_challenges_against_hardcoded), and replica_id / interactive / NI challenges of a
// v16 regression record recomputed independently (Python hashlib + big integers, values frozen
// here), plus range and partition-equivalence properties.
#include "filecoin/porep/challenges.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "base/hex.hpp"
#include "filecoin/porep/replica_id.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::porep {
namespace {

bytes32_t fr_bytes(uint64_t v) {
  bytes32_t b{};
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
  return b;
}

bytes32_t hx(const char* s) {
  return *parse_hex32(s);
}

TEST(synth_challenges, rust_hardcoded_vectors) {
  // sector_nodes = 2^10, replica_id = Fr(55), comm_r = Fr(101), 21 synthetic challenges,
  // 10 PoRep challenges with rand = [1; 32].
  const synth_challenges s(1 << 10, fr_bytes(55), fr_bytes(101), 21);
  const std::vector<uint64_t> synth = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  EXPECT_EQ(s.all(), synth);
  for (uint64_t i = 0; i < 21; ++i) EXPECT_EQ(s.challenge(i), synth[i]);
  bytes32_t rand;
  rand.fill(1);
  const std::vector<uint64_t> porep = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
  EXPECT_EQ(s.partition_challenges(rand, 10, 0), porep);
  // Partitions are consecutive slices of one selection stream.
  std::vector<uint64_t> joined;
  for (unsigned k = 0; k < 5; ++k) {
    auto p = s.partition_challenges(rand, 2, k);
    joined.insert(joined.end(), p.begin(), p.end());
  }
  EXPECT_EQ(joined, porep);
  EXPECT_EQ(synth_challenges(1 << 30, fr_bytes(1), fr_bytes(2)).count(), uint64_t(1) << 18);
  EXPECT_EQ(synth_challenges(64, fr_bytes(1), fr_bytes(2)).count(), 64u);
}

TEST(interactive_challenges, regression_record_recomputed) {
  // seal_regression_records-v16.json, first 2 KiB V1_1_0 record (porep_id = id 5).
  const bytes32_t prover = hx("101cbe4b9c42604f04c703c396f788c6cb2d6d7d58f45430b12eb2edd640076c");
  const bytes32_t ticket = hx("e8867f2000d5597a0a5f4382c52b8b89890019df5320d486a067f38e6c68624b");
  const bytes32_t comm_d = hx("7e45f0925dc72593d6b296100e6ca63e3341c92a50c0e7a9461883a3c959ea28");
  const bytes32_t comm_r = hx("d67d57ea6808fd67bdedb331388b5005d3f837b6153c37ff90e720f10f34fc29");
  const bytes32_t seed = hx("56964257e0d6c11e074117b36172fff3ebd1a6ec18fa79555e58df5a9d889dcb");
  porep_id_t porep_id{};
  porep_id[0] = 5;
  const bytes32_t rid =
      compute_replica_id(prover, 9259733836259213201ull, ticket, comm_d, porep_id);
  EXPECT_EQ(cuzk::to_hex(rid), "da838d3efe2e28665cd17ebfa274f67af8c3b51dfb01e8c6bf8892e712d62006");
  EXPECT_EQ(interactive_challenges(rid, seed, 64, 2, 0), (std::vector<uint64_t>{57, 58}));
  EXPECT_EQ(interactive_challenges(rid, seed, 64, 2, 1), (std::vector<uint64_t>{48, 36}));
  EXPECT_EQ(interactive_challenges(rid, seed, 64, 4, 9), (std::vector<uint64_t>{58, 32, 25, 25}));
  EXPECT_EQ(interactive_challenges(rid, seed, 1 << 18, 4, 9),
            (std::vector<uint64_t>{124420, 241637, 84571, 57229}));
  EXPECT_EQ(interactive_challenges(rid, seed, uint64_t(1) << 30, 4, 9),
            (std::vector<uint64_t>{433704973, 954750164, 378148579, 58721380}));
  std::vector<uint64_t> ni;
  for (unsigned k = 0; k < 13; ++k) {
    auto p = ni_challenges(rid, comm_r, 64, 2, k);
    ni.insert(ni.end(), p.begin(), p.end());
  }
  EXPECT_EQ(ni, (std::vector<uint64_t>{27, 35, 59, 4,  8,  5,  63, 61, 42, 17, 19, 17, 23,
                                       37, 56, 52, 56, 33, 20, 40, 20, 44, 6,  24, 12, 48}));
}

TEST(interactive_challenges, range_and_partition_equivalence) {
  auto rng = test::test_rng::from_env("challenges");
  bytes32_t rid, seed;
  for (auto& b : rid) b = uint8_t(rng());
  for (auto& b : seed) b = uint8_t(rng());
  rid[31] &= 0x3f;
  const auto all = interactive_challenges(rid, seed, uint64_t(1) << 30, 180, 0);
  std::vector<uint64_t> parts;
  for (unsigned k = 0; k < 10; ++k) {
    auto p = interactive_challenges(rid, seed, uint64_t(1) << 30, 18, k);
    parts.insert(parts.end(), p.begin(), p.end());
  }
  EXPECT_EQ(all, parts);
  for (uint64_t c : interactive_challenges(rid, seed, 64, 500, 0)) {
    EXPECT_GE(c, 1u);
    EXPECT_LT(c, 64u);
  }
  // All-ones digest: (2^256 − 1) mod 63 + 1; 2^6 ≡ 1 (mod 63) so 2^256 ≡ 2^4 = 16, giving 16.
  uint8_t ff[32];
  std::fill(ff, ff + 32, 0xff);
  EXPECT_EQ(challenge_from_digest(ff, 64), 16u);
}

}  // namespace
}  // namespace cuzk::filecoin::porep
