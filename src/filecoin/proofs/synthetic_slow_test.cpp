// SPDX-License-Identifier: Apache-2.0
// The synthetic inputs of the 32 GiB PoSt and SnapDeals benchmarks (scripts/post_snap32g_run.sh)
// pass the vanilla checks a real sector's would: a full WindowPoSt partition (2,349 sectors), a
// WinningPoSt sector and a whole SnapDeals update (16 partitions × 86 challenges). Label slow
// (≈ 30 s on 2 cores).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "filecoin/post/partition.hpp"
#include "filecoin/post/synthetic.hpp"
#include "filecoin/snap/synthetic.hpp"

namespace cuzk {
namespace {

TEST(synthetic_32gib, window_and_winning_post) {
  filecoin::post::bytes32_t randomness{};
  randomness[0] = 1;
  randomness[17] = 0x5a;
  for (auto p : {filecoin::post::registered_post_proof::window_32gib_v1_1,
                 filecoin::post::registered_post_proof::window_32gib_v1,
                 filecoin::post::registered_post_proof::winning_32gib_v1}) {
    const filecoin::post::post_config_t cfg = *filecoin::post::post_config(p);
    SCOPED_TRACE(std::string(filecoin::post::name_of(p)));
    size_t hashes = 0;
    const unsigned partition = cfg.kind == filecoin::post::post_kind::window ? 3 : 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto v = filecoin::post::generate_synthetic_post({cfg, randomness, 100, 0, partition, 1},
                                                     thread_pool::default_pool(), &hashes);
    const auto t1 = std::chrono::steady_clock::now();
    ASSERT_TRUE(v.ok()) << v.error().to_string();
    ASSERT_EQ(v->size(), cfg.kind == filecoin::post::post_kind::window ? 2'349u : 1u);
    EXPECT_GE(hashes, v->size() * 10);
    const status ok = filecoin::post::validate_partition(cfg, *v, randomness, partition);
    const auto t2 = std::chrono::steady_clock::now();
    EXPECT_TRUE(ok.ok()) << ok.to_string();
    std::fprintf(stderr, "[synthetic] %s: generated in %.2f s, validated in %.2f s (%u threads)\n",
                 std::string(filecoin::post::name_of(p)).c_str(),
                 std::chrono::duration<double>(t1 - t0).count(),
                 std::chrono::duration<double>(t2 - t1).count(),
                 thread_pool::default_pool().size());
  }
}

TEST(synthetic_32gib, snap_update) {
  const filecoin::snap::update_config_t c =
      *filecoin::snap::update_config(filecoin::snap::registered_update_proof::stacked_drg_32gib_v1);
  auto u = filecoin::snap::generate_synthetic_update(c, 7);
  ASSERT_TRUE(u.ok()) << u.error().to_string();
  EXPECT_EQ(u->block_bits, 14u);  // 2^30 nodes, h = 10: 2^16 blocks of 2^14 nodes
  ASSERT_EQ(u->partition_proofs.size(), 16u);
  EXPECT_EQ(u->partition_proofs[0].size(), 561'768u);  // docs/spec/snap.md §8
  auto proofs = filecoin::snap::parse_partition_proofs(u->partition_proofs);
  ASSERT_TRUE(proofs.ok()) << proofs.error().to_string();
  const status ok = filecoin::snap::validate_partition_proofs(c, u->commitments, *proofs);
  EXPECT_TRUE(ok.ok()) << ok.to_string();
  // Bound to its own commitments.
  filecoin::snap::update_commitments_t wrong = u->commitments;
  wrong.comm_d_new[2] ^= 1;
  EXPECT_FALSE(filecoin::snap::validate_partition_proofs(c, wrong, *proofs).ok());
}

}  // namespace
}  // namespace cuzk
