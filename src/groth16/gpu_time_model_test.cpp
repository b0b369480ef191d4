// SPDX-License-Identifier: Apache-2.0
// The predicted time of a plan (gpu_time_model.hpp) on the CPU: each term by hand, and its
// direction as a plan streams more or through a slower link. Its agreement with the measured
// capped runs is checked by tests/cli/plan_cli_test.sh against the recorded figures.
#include "groth16/gpu_time_model.hpp"

#include <gtest/gtest.h>

#include "msm/msm_gpu_plan.hpp"

namespace cuzk::groth16 {
namespace {

// A 32 GiB PoRep partition (docs/spec/porep.md §9), as gpu_memory_test.cpp.
constexpr query_sizes porep32g{328,          (size_t(1) << 27) - 1, 130169893, 328 + 129753292,
                               1 + 33112281, 1 + 33112281};

gpu_time_profile porep_like() {
  gpu_time_profile p;
  p.resident_ms = 1461;
  p.two_lanes_ms = 1375;
  p.msm_h_ms = 804;
  p.msm_lab_ms = 158;
  p.others_share = 0.1;
  return p;
}

gpu_plan plan_for(uint64_t budget_gib) {
  gpu_plan_request r;
  r.q = porep32g;
  r.device_budget = budget_gib << 30;
  auto p = choose_gpu_plan(r);
  EXPECT_TRUE(bool(p)) << budget_gib;
  return p ? *p : gpu_plan{};
}

TEST(GpuTimeModel, ResidentPlansTakeTheMeasuredProof) {
  gpu_plan p = plan_for(140);
  ASSERT_EQ(p.residency, gpu_residency::device);
  ASSERT_EQ(p.lanes, 2u);
  EXPECT_DOUBLE_EQ(gpu_predicted_time(porep32g, p, porep_like()).ms, 1375);
  p.lanes = 1;
  EXPECT_DOUBLE_EQ(gpu_predicted_time(porep32g, p, porep_like()).ms, 1461);
  // Two lanes not measured: the one-lane figure.
  gpu_time_profile one = porep_like();
  one.two_lanes_ms = 0;
  p.lanes = 2;
  EXPECT_DOUBLE_EQ(gpu_predicted_time(porep32g, p, one).ms, 1461);
}

TEST(GpuTimeModel, AStreamedPlanAddsItsHItsChunksAndNoLessThanTheLink) {
  const gpu_plan p = plan_for(15);  // 15 GiB, no compiled program: streamed through 1 GiB
  ASSERT_EQ(p.residency, gpu_residency::host);
  ASSERT_EQ(p.knobs.ring_bytes, uint64_t(1) << 30);
  ASSERT_TRUE(p.knobs.interleave_queries);
  const gpu_time_prediction t = gpu_predicted_time(porep32g, p, porep_like());
  ASSERT_TRUE(t.modelled);
  // Four slots of 256 MiB: 2,796,160 G1 points (1,398,080 G2) a chunk, so L and A take 47
  // chunks each, B1 12 and B2 24; each G1 chunk 1.9 + 0.1 × 2.9 ms, each G2 chunk 2.5 + 0.1 × 8.9,
  // each streamed query 10 ms (G2 25).
  const double g1 = 1.9 + 0.1 * 2.9, g2 = 2.5 + 0.1 * 8.9;
  EXPECT_NEAR(t.streamed_split_ms, 3 * 10 + 25 + (47 + 47 + 12) * g1 + 24 * g2, 1e-9);
  // H: 2^27 terms at the plan's window against the resident c = 22 in one pass, one chunk.
  const auto acc = msm::cuda::plan_accumulator(porep32g.h, 2796160, msm::cuda::G1_XYZZ_BYTES,
                                               gpu_h_group_bytes(p.knobs), p.knobs.h_window_bits);
  const double h =
      msm::cuda::accumulator_cost(porep32g.h, 2796160, acc.c, acc.groups.group,
                                  msm::cuda::G1_XYZZ_BYTES) -
      msm::cuda::accumulator_cost(porep32g.h, porep32g.h, 22, 12, msm::cuda::G1_XYZZ_BYTES);
  EXPECT_NEAR(t.streamed_h_ms, h * 352.8e-9, 1e-6);
  EXPECT_GT(t.streamed_h_ms, 150);  // 16 bits and 48 chunks' kept buckets against 22 bits
  EXPECT_LT(t.streamed_h_ms, 400);
  // 47,373,896,256 bytes at 54 GB/s: 877 ms, hidden behind the MSMs' 962 + H + chunks.
  EXPECT_NEAR(t.link_ms, 47373896256.0 / 54e9 * 1e3, 1e-9);
  EXPECT_FALSE(t.link_bound);
  EXPECT_NEAR(t.ms, 1461 + 20 + t.streamed_h_ms + t.streamed_split_ms, 1e-9);

  // Through PCIe 4.0's 25 GB/s the link sets the MSMs' time: 1,895 ms of bytes.
  gpu_time_reference slow;
  slow.link_bytes_per_s = 25e9;
  const gpu_time_prediction s = gpu_predicted_time(porep32g, p, porep_like(), slow);
  EXPECT_TRUE(s.link_bound);
  EXPECT_NEAR(s.ms, (1461 - 804 - 158) + 20 + 47373896256.0 / 25e9 * 1e3, 1e-9);
  EXPECT_GT(s.ms, t.ms);
}

TEST(GpuTimeModel, ADenseWitnessPaysMorePerStreamedChunk) {
  const gpu_plan p = plan_for(15);
  gpu_time_profile dense = porep_like();
  dense.others_share = 1.0;
  EXPECT_GT(gpu_predicted_time(porep32g, p, dense).streamed_split_ms,
            2 * gpu_predicted_time(porep32g, p, porep_like()).streamed_split_ms);
}

TEST(GpuTimeModel, KeepingQueriesOnTheDeviceTakesTheirStreamedCostAway) {
  gpu_plan p = plan_for(15);
  const gpu_time_prediction streamed = gpu_predicted_time(porep32g, p, porep_like());
  p.knobs.resident_queries = gpu_query_h | gpu_query_l;
  const gpu_time_prediction partial = gpu_predicted_time(porep32g, p, porep_like());
  EXPECT_EQ(partial.streamed_h_ms, 0);
  EXPECT_LT(partial.streamed_split_ms, streamed.streamed_split_ms);
  EXPECT_LT(partial.ms, streamed.ms);
  // A ring taken after a, b, c: one 256 MiB slot's copy is no longer hidden.
  gpu_plan after = plan_for(15);
  after.knobs.ring_after_abc = true;
  EXPECT_NEAR(gpu_predicted_time(porep32g, after, porep_like()).ms - streamed.ms,
              double(uint64_t(256) << 20) / 54e9 * 1e3, 1e-6);
}

TEST(GpuTimeModel, WhatWasNotMeasuredIsNotModelled) {
  gpu_plan p = plan_for(15);
  p.knobs.abc_on_device = false;
  const gpu_time_prediction host_abc = gpu_predicted_time(porep32g, p, porep_like());
  EXPECT_FALSE(host_abc.modelled);
  EXPECT_NE(host_abc.why.find("host"), std::string::npos);
  p = plan_for(15);
  p.knobs.interleave_queries = false;
  const gpu_time_prediction in_turn = gpu_predicted_time(porep32g, p, porep_like());
  EXPECT_FALSE(in_turn.modelled);
  EXPECT_NE(in_turn.why.find("one after another"), std::string::npos);
  EXPECT_TRUE(gpu_predicted_time(porep32g, plan_for(15), porep_like()).modelled);
}

TEST(GpuTimeModel, AProfileScalesWithTheRows) {
  const gpu_time_profile s = porep_like().scaled(2.0);
  EXPECT_DOUBLE_EQ(s.resident_ms, 2922);
  EXPECT_DOUBLE_EQ(s.two_lanes_ms, 2750);
  EXPECT_DOUBLE_EQ(s.msm_h_ms, 1608);
  EXPECT_DOUBLE_EQ(s.msm_lab_ms, 316);
  EXPECT_DOUBLE_EQ(s.others_share, 0.1);
}

}  // namespace
}  // namespace cuzk::groth16
