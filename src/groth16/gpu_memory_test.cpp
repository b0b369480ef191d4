// SPDX-License-Identifier: Apache-2.0
// The device-memory formulas and the plan ladder (gpu_memory.hpp) on the CPU; the GPU test
// Groth16Gpu.DevicePeakWithinModel compares them with the device pool's measured peak.
#include "groth16/gpu_memory.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "groth16/gpu_time_model.hpp"
#include "msm/msm_gpu_plan.hpp"
#include "ntt/ntt_tile.hpp"

namespace cuzk::groth16 {
namespace {

// A 32 GiB PoRep partition (docs/spec/porep.md §9: 328 inputs, 130,169,893 aux, a_aux density
// 129,753,292, b_input 1, b_aux 33,112,281; domain 2^27).
constexpr query_sizes porep32g{328,          (size_t(1) << 27) - 1, 130169893, 328 + 129753292,
                               1 + 33112281, 1 + 33112281};

TEST(GpuMemory, ParametersOfA32GiBPoRepPartition) {
  // (2^27 − 1 + 130,169,893 + 129,753,620 + 33,112,282) G1 points of 96 B and 33,112,282 G2
  // points of 192 B: 47.37 GB, the decoded size docs/spec/hardware.md §3 gives (47.4 GB, 44.1 GiB).
  EXPECT_EQ(gpu_parameter_bytes(porep32g, gpu_residency::device), 47'373'896'256ull);
  EXPECT_EQ(gpu_parameter_bytes(porep32g, gpu_residency::host), 0u);
}

TEST(GpuMemory, NttTablesByHand) {
  // 2^27: inner tables 2 × 2^9, split tables 8 × (2^14 + 2^13), the middle pass's single twist
  // tables 2 × 2^18 (passes of 9, 8 and 10 stages; only the middle block of 2^18 qualifies).
  EXPECT_EQ(ntt::tile::device_table_bytes(27), (2 * 512 + 8 * (16384 + 8192) + 2 * 262144) * 32u);
  EXPECT_EQ(gpu_ntt_table_bytes(porep32g), ntt::tile::device_table_bytes(27));
}

TEST(GpuMemory, MsmScratchFollowsTheGroupBudget) {
  for (size_t n : {size_t(1000), size_t(1) << 20, size_t(1) << 24, size_t(1) << 27}) {
    const size_t big = msm::cuda::msm_scratch_bytes(n, 192);
    const size_t small = msm::cuda::msm_scratch_bytes(n, 192, size_t(256) << 20);
    EXPECT_LE(small, big) << n;
    // At least one window's keys and values before and after the sort, and CUB's alternates.
    EXPECT_GE(small, 16 * n + 8 * n) << n;
  }
  // 2^27 terms with the default 12 GiB: three windows of 22 bits at once (docs/notes/msm.md).
  EXPECT_EQ(msm::cuda::plan_groups(size_t(1) << 27, 22, 192).group, 3u);
  EXPECT_EQ(msm::cuda::plan_groups(size_t(1) << 27, 22, 192, size_t(1) << 30).group, 1u);
  EXPECT_EQ(msm::cuda::msm_scratch_bytes(0, 192), 0u);
  EXPECT_EQ(msm::cuda::batch_add_scratch_bytes(0, 192), 0u);
}

TEST(GpuMemory, AStreamedSplitsOthersAreGatheredIntoFewerAddsWithinTheirPlannedBytes) {
  using msm::cuda::accumulator_within_plan;
  using msm::cuda::gathered_pass_cost_ms;
  using msm::cuda::msm_accumulator_bytes;
  using msm::cuda::plan_accumulator;
  const auto passes = [](size_t total, size_t chunk, size_t group, unsigned c) {
    const auto a = plan_accumulator(total, chunk, 192, group, c);
    return (a.windows + a.groups.group - 1) / a.groups.group;
  };
  // 32 GiB PoRep's L others (≈ 13 M) through 768 MiB chunks (24 GiB card: 4 GiB groups, the
  // others an eighth) and 256 MiB chunks (1 GiB groups), a tenth of each chunk others: planned
  // for a whole chunk of others, 6 and 10 passes an add of one chunk; sized, the others of 8 and
  // of 10 chunks an add (2 adds of 6 passes, 5 of 10) instead of 16 adds of one pass and 47 of
  // two (by the fitted costs 39.5 → 12.8 ms and 153 → 48 ms).
  struct streamed {
    size_t chunk, group, gathered;
    unsigned planned_passes, sized_passes;
    size_t adds;
  };
  for (const streamed& t : {streamed{8388608, size_t(512) << 20, 6710880, 6, 6, 2},
                            streamed{2796160, size_t(128) << 20, 2796160, 10, 10, 5}}) {
    const size_t total = 13000000, one_chunk = t.chunk / 10;
    const auto planned = plan_accumulator(total, t.chunk, 192, t.group);
    const auto sized = accumulator_within_plan(total, t.chunk, one_chunk, 192, t.group);
    EXPECT_EQ(sized.max_chunk, t.gathered) << t.chunk;
    EXPECT_EQ((total + sized.max_chunk - 1) / sized.max_chunk, t.adds) << t.chunk;
    EXPECT_EQ(sized.window_bits, planned.c);
    EXPECT_EQ(passes(total, t.chunk, t.group, 0), t.planned_passes);
    const unsigned sized_passes =
        passes(total, sized.max_chunk, sized.group_bytes, sized.window_bits);
    EXPECT_EQ(sized_passes, t.sized_passes);
    // Cheaper than one chunk's others an add with as many windows a pass as fit (the sizing
    // before the others were gathered across chunks).
    const unsigned one_chunk_passes = passes(total, one_chunk, t.group, planned.c);
    const unsigned one_chunk_group = (planned.windows + one_chunk_passes - 1) / one_chunk_passes;
    EXPECT_LT(gathered_pass_cost_ms(total, sized.max_chunk, planned.windows,
                                    (planned.windows + sized_passes - 1) / sized_passes, 192),
              gathered_pass_cost_ms(total, one_chunk, planned.windows, one_chunk_group, 192));
    EXPECT_LE(
        msm_accumulator_bytes(total, sized.max_chunk, 192, sized.group_bytes, sized.window_bits),
        msm_accumulator_bytes(total, t.chunk, 192, t.group));
  }
  // Never more bytes than planned, the same window, whatever the sizes (G1 and G2 buckets).
  for (size_t xyzz : {size_t(192), size_t(384)}) {
    for (size_t total : {size_t(1000), size_t(1) << 20, size_t(13000000), size_t(1) << 27}) {
      for (size_t planned_chunk : {size_t(64), size_t(1) << 16, size_t(2796160), size_t(8388608)}) {
        for (size_t chunk : {size_t(0), size_t(1), planned_chunk / 10, planned_chunk}) {
          for (size_t group : {size_t(64) << 20, size_t(512) << 20, size_t(12) << 30}) {
            const auto planned = plan_accumulator(total, planned_chunk, xyzz, group);
            const auto sized = accumulator_within_plan(total, planned_chunk, chunk, xyzz, group);
            const std::string at = std::to_string(xyzz) + " " + std::to_string(total) + " " +
                                   std::to_string(planned_chunk) + " " + std::to_string(chunk) +
                                   " " + std::to_string(group);
            EXPECT_EQ(sized.window_bits, planned.c) << at;
            EXPECT_LE(sized.max_chunk, planned_chunk) << at;
            EXPECT_GE(sized.max_chunk, std::max<size_t>(chunk, 1)) << at;
            EXPECT_LE(msm_accumulator_bytes(total, sized.max_chunk, xyzz, sized.group_bytes,
                                            sized.window_bits),
                      msm_accumulator_bytes(total, planned_chunk, xyzz, group))
                << at;
          }
        }
      }
    }
  }
}

TEST(GpuMemory, ProofPhases) {
  gpu_memory_knobs k;
  const gpu_proof_memory dev = gpu_proof_bytes(porep32g, gpu_residency::device, true, k);
  const gpu_proof_memory host_abc = gpu_proof_bytes(porep32g, gpu_residency::device, false, k);
  // The witness (inputs and aux, 32 B each) is on the device during a, b, c only when the
  // program evaluates them there; a, b, c are 3 × 2^27 × 32 B either way.
  EXPECT_EQ(dev.witness, (328 + 130169893ull) * 32);
  EXPECT_EQ(host_abc.witness, 0u);
  EXPECT_EQ(dev.abc - host_abc.abc, dev.witness);
  EXPECT_EQ(host_abc.abc, 3 * (uint64_t(1) << 27) * 32);
  EXPECT_EQ(dev.peak(), std::max({dev.abc, dev.msm_h, dev.split, dev.msm_lab}));
  // Smaller gather pieces and MSM groups lower the MSM phases, not a, b, c.
  gpu_memory_knobs small;
  small.msm_group_bytes = uint64_t(256) << 20;
  small.gather_points = uint64_t(1) << 20;
  const gpu_proof_memory s = gpu_proof_bytes(porep32g, gpu_residency::device, true, small);
  EXPECT_EQ(s.abc, dev.abc);
  EXPECT_LT(s.msm_h, dev.msm_h);
  EXPECT_LT(s.msm_lab, dev.msm_lab);
  // Host residency adds the ring to every phase and bounds the MSMs by its chunks.
  const gpu_proof_memory h = gpu_proof_bytes(porep32g, gpu_residency::host, true, k);
  EXPECT_EQ(h.abc, dev.abc + k.ring_bytes);
  // Interleaved: L and A split before H, and their accumulators beside H's, so the H phase
  // holds more; B's phase less (h and the L, A splits freed); only with the witness on the
  // device.
  gpu_memory_knobs inter = k;
  inter.interleave_queries = true;
  const gpu_proof_memory hi = gpu_proof_bytes(porep32g, gpu_residency::host, true, inter);
  EXPECT_GT(hi.msm_h, h.msm_h);
  EXPECT_EQ(hi.abc, h.abc);
  EXPECT_EQ(gpu_proof_bytes(porep32g, gpu_residency::host, false, inter).msm_h,
            gpu_proof_bytes(porep32g, gpu_residency::host, false, k).msm_h);
  EXPECT_EQ(gpu_proof_bytes(porep32g, gpu_residency::device, true, inter).msm_h, dev.msm_h);
  // a, b, c in turn: two domain buffers instead of three; no effect without the witness.
  gpu_memory_knobs turn = k;
  turn.abc_in_turn = true;
  const uint64_t m = porep32g.h + 1;
  EXPECT_EQ(gpu_proof_bytes(porep32g, gpu_residency::host, true, turn).abc,
            h.abc - m * sizeof(ff::fr_t));
  EXPECT_EQ(gpu_proof_bytes(porep32g, gpu_residency::host, false, turn).abc,
            gpu_proof_bytes(porep32g, gpu_residency::host, false, k).abc);
  // The ring taken after a, b, c: the transforms hold no ring, every later phase the same; no
  // effect with the parameters on the device.
  for (const gpu_memory_knobs& base : {k, inter, turn}) {
    gpu_memory_knobs after = base;
    after.ring_after_abc = true;
    for (const bool witness : {true, false}) {
      const gpu_proof_memory early = gpu_proof_bytes(porep32g, gpu_residency::host, witness, base);
      const gpu_proof_memory late = gpu_proof_bytes(porep32g, gpu_residency::host, witness, after);
      EXPECT_EQ(late.abc, early.abc - base.ring_bytes);
      EXPECT_EQ(late.msm_h, early.msm_h);
      EXPECT_EQ(late.split, early.split);
      EXPECT_EQ(late.msm_lab, early.msm_lab);
    }
    EXPECT_EQ(gpu_proof_bytes(porep32g, gpu_residency::device, true, after).abc,
              gpu_proof_bytes(porep32g, gpu_residency::device, true, base).abc);
  }
}

TEST(GpuMemory, TheRingAfterABCIsTakenWhereOnlyItFits) {
  // Every plan with the ring taken after a, b, c follows its twin with the ring taken before
  // them and needs no more; where the transforms are the peak it needs less, and a budget that
  // fits it and nothing earlier takes it.
  gpu_plan_request r;
  r.q = porep32g;
  r.program_bytes = uint64_t(389) << 20;
  const std::vector<gpu_plan> c = gpu_plan_candidates(r);
  size_t lower = 0, taken = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    const gpu_plan& late = c[i];
    if (!late.knobs.ring_after_abc) continue;
    ASSERT_EQ(late.residency, gpu_residency::host) << i << ": no ring, so no such plan";
    gpu_memory_knobs twin = late.knobs;
    twin.ring_after_abc = false;
    const auto early = std::find_if(c.begin(), c.begin() + ptrdiff_t(i),
                                    [&](const gpu_plan& p) { return p.knobs == twin; });
    ASSERT_NE(early, c.begin() + ptrdiff_t(i)) << i << ": its twin comes first";
    EXPECT_LE(late.device_peak_bytes, early->device_peak_bytes) << i;
    if (late.device_peak_bytes == early->device_peak_bytes) continue;
    ++lower;
    bool earlier_fits = false;
    for (size_t j = 0; j < i; ++j) earlier_fits |= c[j].device_peak_bytes <= late.device_peak_bytes;
    if (earlier_fits) continue;
    r.device_budget = late.device_peak_bytes;
    const auto got = choose_gpu_plan(r);
    ASSERT_TRUE(got.ok()) << got.error().to_string();
    // The same plan, H's window chosen within the budget (the candidates above had none).
    gpu_memory_knobs same = got->knobs;
    same.h_window_bits = 0;
    same.h_group_bytes = 0;
    EXPECT_EQ(same, late.knobs) << i << ": " << got->to_json();
    EXPECT_LE(got->device_peak_bytes, r.device_budget) << i;
    ++taken;
  }
  EXPECT_GT(lower, 0u) << "no plan whose peak is the transforms: the case this knob decides";
  EXPECT_GT(taken, 0u);
}

TEST(GpuMemory, CandidatesRunFromFastestToSmallest) {
  gpu_plan_request r;
  r.q = porep32g;
  r.program_bytes = uint64_t(389) << 20;
  const std::vector<gpu_plan> c = gpu_plan_candidates(r);
  ASSERT_GE(c.size(), 4u);
  EXPECT_EQ(c[0].residency, gpu_residency::device);
  EXPECT_EQ(c[0].lanes, 2u);
  EXPECT_EQ(c[0].device_peak_bytes,
            c[0].parameter_bytes + c[0].fixed_bytes + c[0].proof_peak + c[0].lane_bytes);
  EXPECT_EQ(c[1].lanes, 1u);
  // Plans that differ only in their MSM groups, gather pieces or lanes: one block.
  const auto same_block = [](const gpu_plan& x, const gpu_plan& y) {
    return x.residency == y.residency && x.knobs.abc_on_device == y.knobs.abc_on_device &&
           x.knobs.abc_in_turn == y.knobs.abc_in_turn && x.knobs.ring_bytes == y.knobs.ring_bytes &&
           x.knobs.ring_after_abc == y.knobs.ring_after_abc &&
           x.knobs.interleave_queries == y.knobs.interleave_queries &&
           x.knobs.resident_queries == y.knobs.resident_queries;
  };
  const uint64_t points = query_bytes(r.q) - uint64_t(r.q.ic) * sizeof(g1_affine_t);
  for (size_t i = 1; i < c.size(); ++i) {
    // Each block shrinks step by step.
    for (size_t j = i; j-- > 0;) {
      if (!same_block(c[i], c[j])) continue;
      EXPECT_LE(c[i].device_peak_bytes, c[j].device_peak_bytes) << i << " after " << j;
      break;
    }
    if (c[i].residency == gpu_residency::host) {
      // Streamed, or partially resident: the queries kept on the device cross no link.
      EXPECT_EQ(c[i].parameter_bytes,
                gpu_parameter_bytes(r.q, gpu_residency::host, c[i].knobs.resident_queries));
      EXPECT_EQ(c[i].streamed_bytes + c[i].parameter_bytes, points);
      EXPECT_GE(c[i].host_bytes, points);
    } else {
      EXPECT_EQ(c[i].knobs.resident_queries, 0u);
    }
    if (!c[i].knobs.abc_on_device) {
      EXPECT_EQ(c[i].fixed_bytes, gpu_ntt_table_bytes(r.q));
    }
  }
  EXPECT_EQ(c.back().residency, gpu_residency::host);
}

TEST(GpuMemory, ChooseTakesTheFirstThatFits) {
  gpu_plan_request r;
  r.q = porep32g;
  r.program_bytes = uint64_t(389) << 20;
  const std::vector<gpu_plan> c = gpu_plan_candidates(r);
  r.device_budget = c[0].device_peak_bytes;
  EXPECT_EQ(choose_gpu_plan(r)->lanes, 2u);
  r.device_budget = c[0].device_peak_bytes - 1;
  EXPECT_EQ(choose_gpu_plan(r)->lanes, 1u);
  // Cards by their automatic budget (the card minus 1 GiB): an H200 and an H100 80 GB keep the
  // parameters resident with two lanes; 24 and 16 GiB stream them (16: a, b, c in turn through
  // two domain buffers); 12 GiB is refused, naming the smallest that would do.
  const auto on = [&](unsigned card_gib) {
    r.device_budget = (uint64_t(card_gib) - 1) << 30;
    return choose_gpu_plan(r);
  };
  EXPECT_EQ(on(141)->lanes, 2u);
  EXPECT_EQ(on(80)->residency, gpu_residency::device);
  EXPECT_EQ(on(24)->residency, gpu_residency::host);
  ASSERT_TRUE(on(16).ok());
  EXPECT_EQ(on(16)->residency, gpu_residency::host);
  EXPECT_TRUE(on(16)->knobs.abc_on_device);
  EXPECT_TRUE(on(16)->knobs.abc_in_turn);
  EXPECT_FALSE(on(24)->knobs.abc_in_turn);
  // Both stream H, L and A interleaved (the link fetches L and A while H is summed).
  EXPECT_TRUE(on(16)->knobs.interleave_queries);
  EXPECT_TRUE(on(24)->knobs.interleave_queries);
  EXPECT_FALSE(on(80)->knobs.interleave_queries);
  const auto refused = on(12);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), status_code::resource_exhausted);
  EXPECT_NE(refused.error().message().find("the smallest"), std::string::npos);
  for (const gpu_plan& p : c) {
    r.device_budget = p.device_peak_bytes;
    const auto got = choose_gpu_plan(r);
    ASSERT_TRUE(got.ok());
    EXPECT_LE(got->device_peak_bytes, p.device_peak_bytes);
  }
}

// A 32 GiB WindowPoSt partition's queries (its generated parameters: 449,277,355 G1 and
// 91,925,767 G2 points).
constexpr query_sizes wpost32g{25840,   (size_t(1) << 27) - 1, 126902376, 96205645, 91925767,
                               91925767};

TEST(GpuMemory, ASmallCardKeepsTheMsmWindowBeforeTheRing) {
  // On a 16 GiB card a 3 GiB ring fits only beside the smallest MSM groups; the plan takes a
  // smaller ring with groups of at least 1 GiB instead (B2's dense G2 MSM: 8.3 s against 2.0 s).
  gpu_plan_request r;
  r.q = wpost32g;
  // Its compiled a, b, c plan as the daemon planned it (fixed_bytes 27,679,972 with the tables).
  r.program_bytes = 27679972 - gpu_ntt_table_bytes(wpost32g);
  r.device_budget = uint64_t(15) << 30;
  const auto got = choose_gpu_plan(r);
  ASSERT_TRUE(got.ok()) << got.error().to_string();
  EXPECT_EQ(got->residency, gpu_residency::host);
  EXPECT_GE(got->knobs.msm_group_bytes, uint64_t(1) << 30);
  bool narrow_with_large_ring_fits = false;
  for (const gpu_plan& p : gpu_plan_candidates(r)) {
    narrow_with_large_ring_fits |=
        p.residency == gpu_residency::host && p.knobs.ring_bytes == uint64_t(3) << 30 &&
        p.knobs.msm_group_bytes < (uint64_t(1) << 30) && p.device_peak_bytes <= r.device_budget;
  }
  EXPECT_TRUE(narrow_with_large_ring_fits) << "the case this order decides";
  EXPECT_LT(got->knobs.ring_bytes, uint64_t(3) << 30);
}

// A WindowPoSt arriving while two 32 GiB PoRep lanes prove (their parameters resident): on an
// H200's budget it is planned for what they leave (one lane, smaller MSM groups) instead of with
// two lanes after they end; on an 80 GB H100's nothing fits beside them; on an idle card (nothing
// held) the whole budget's plan stands.
TEST(GpuMemory, APlanBesideCircuitsAlreadyOnTheDevice) {
  const auto porep_on = [](uint64_t budget) {
    gpu_plan_request r;
    r.q = porep32g;
    r.program_bytes = uint64_t(389) << 20;
    r.device_budget = budget;
    return *choose_gpu_plan(r);
  };
  gpu_plan_request w;
  w.q = wpost32g;
  w.program_bytes = 27679972 - gpu_ntt_table_bytes(wpost32g);
  for (const unsigned card_gib : {141u, 80u}) {
    SCOPED_TRACE(card_gib);
    w.device_budget = (uint64_t(card_gib) - 1) << 30;
    const gpu_plan porep = porep_on(w.device_budget);
    ASSERT_EQ(porep.lanes, 2u);
    const uint64_t held = porep.parameter_bytes + porep.fixed_bytes;
    const uint64_t held_peak = porep.proof_peak + porep.lane_bytes;
    const gpu_plan whole = *choose_gpu_plan(w);
    EXPECT_EQ(whole.residency, gpu_residency::device);
    EXPECT_GT(whole.device_peak_bytes, w.device_budget - held - held_peak);
    const std::optional<gpu_plan> beside = choose_gpu_plan_beside(w, whole, held, held_peak);
    if (card_gib == 80) {
      EXPECT_FALSE(beside.has_value()) << beside->to_json();
      // Beside their parameters only (the engine pauses the PoRep lanes for it): streamed, in
      // the 37 GB they leave, instead of waiting for the PoRep jobs and evicting them.
      const std::optional<gpu_plan> paused = choose_gpu_plan_beside(w, whole, held, 0);
      ASSERT_TRUE(paused.has_value());
      EXPECT_EQ(paused->residency, gpu_residency::host);
      EXPECT_LE(paused->device_peak_bytes, w.device_budget - held);
      continue;
    }
    ASSERT_TRUE(beside.has_value());
    // Resident still, one lane, 1 GiB MSM groups and a, b, c in turn: 73.46 GB of the 73.52
    // they leave (the whole budget's plan: two lanes, 90.0 GB).
    EXPECT_EQ(beside->residency, gpu_residency::device);
    EXPECT_EQ(beside->knobs.msm_group_bytes, uint64_t(1) << 30);
    EXPECT_EQ(beside->lanes, 1u);
    EXPECT_LE(beside->device_peak_bytes, w.device_budget - held - held_peak);
    // The fastest that fits: the first such candidate of one lane.
    gpu_plan_request one = w;
    one.max_lanes = 1;
    one.device_budget = w.device_budget - held - held_peak;
    EXPECT_EQ(beside->to_json(), choose_gpu_plan(one)->to_json());
    // Nothing held: the whole budget's plan.
    EXPECT_FALSE(choose_gpu_plan_beside(w, whole, 0, 0).has_value());
  }
}

// A 32 GiB SnapDeals partition's queries, approximately (2^27 − 1 h points, 80,978,488 l; a and
// b as the daemon's plan on an H100 capped at 16 GiB summed them: 34,453,500,000 query bytes).
constexpr query_sizes snap32g{5, (size_t(1) << 27) - 1, 80978488, 80978493, 20905306, 20905306};

// A 32 GiB SnapDeals partition's request on a device budget of budget_gib, with its compiled
// a, b, c plan as the daemon planned it (fixed_bytes 401,971,928 with the NTT tables).
gpu_plan_request snap32g_request(unsigned budget_gib) {
  gpu_plan_request r;
  r.q = snap32g;
  r.program_bytes = 401971928 - gpu_ntt_table_bytes(snap32g);
  r.device_budget = uint64_t(budget_gib) << 30;
  return r;
}

// A ring under 256 MiB comes after every a, b, c mode with a larger one: on a 16 GiB card a
// 32 GiB SnapDeals evaluates a, b, c in turn to stream through a ring of 256 MiB or more, instead
// of keeping a, b, c beside a 64 MiB ring (whose H MSM took 11.1 s a partition, measured).
// A ring between two steps (2 GiB between 3 and 1): half the chunks of the smaller step, taken
// only with the MSM groups the smaller step would get. A 16 GiB card (15 GiB budget) proving a
// 32 GiB PoRep partition keeps its 1 GiB groups and a, b, c in turn and streams through 2 GiB;
// a 32 GiB WindowPoSt on the same card keeps its 4 GiB groups and 1 GiB ring (the 2 GiB ring
// fits there only beside 1 GiB groups).
TEST(GpuMemory, ARingBetweenStepsKeepsTheGroupsOfTheSmallerStep) {
  gpu_plan_request porep;
  porep.q = porep32g;
  porep.program_bytes = uint64_t(389) << 20;
  porep.device_budget = uint64_t(15) << 30;
  const auto p = choose_gpu_plan(porep);
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  EXPECT_EQ(p->residency, gpu_residency::host);
  EXPECT_EQ(p->knobs.ring_bytes, uint64_t(2) << 30) << p->to_json();
  EXPECT_EQ(p->knobs.msm_group_bytes, uint64_t(1) << 30) << p->to_json();
  EXPECT_TRUE(p->knobs.abc_in_turn && p->knobs.interleave_queries) << p->to_json();
  EXPECT_LE(p->device_peak_bytes, porep.device_budget);

  gpu_plan_request post;
  post.q = wpost32g;
  post.program_bytes = 27679972 - gpu_ntt_table_bytes(wpost32g);
  post.device_budget = uint64_t(15) << 30;
  const auto w = choose_gpu_plan(post);
  ASSERT_TRUE(w.ok()) << w.error().to_string();
  EXPECT_EQ(w->knobs.ring_bytes, uint64_t(1) << 30) << w->to_json();
  EXPECT_EQ(w->knobs.msm_group_bytes, uint64_t(4) << 30) << w->to_json();
  bool between_with_narrower_groups_fits = false;
  for (const gpu_plan& c : gpu_plan_candidates(post)) {
    between_with_narrower_groups_fits |=
        c.residency == gpu_residency::host && c.knobs.ring_bytes == uint64_t(2) << 30 &&
        c.knobs.msm_group_bytes < (uint64_t(4) << 30) && c.device_peak_bytes <= post.device_budget;
  }
  EXPECT_TRUE(between_with_narrower_groups_fits) << "the case the order decides";
}

TEST(GpuMemory, SmallRingsComeLast) {
  const gpu_plan_request r = snap32g_request(15);
  const auto got = choose_gpu_plan(r);
  ASSERT_TRUE(got.ok()) << got.error().to_string();
  EXPECT_EQ(got->residency, gpu_residency::host);
  EXPECT_GE(got->knobs.ring_bytes, uint64_t(256) << 20) << got->to_json();
  // The ring beside a, b, c only with a, b, c in turn; beside all three only after them.
  EXPECT_TRUE(got->knobs.abc_in_turn || got->knobs.ring_after_abc) << got->to_json();
  bool small_seen = false;
  for (const gpu_plan& p : gpu_plan_candidates(r)) {
    if (p.residency != gpu_residency::host) continue;
    const bool small = p.knobs.ring_bytes < (uint64_t(256) << 20);
    EXPECT_FALSE(small_seen && !small) << "a ring of 256 MiB or more after a smaller one";
    small_seen |= small;
  }
  EXPECT_TRUE(small_seen);
}

TEST(GpuMemory, SmallCircuitsStreamThroughASmallRing) {
  gpu_plan_request r;
  r.q = {2, 1023, 5000, 3000, 2500, 2500};
  for (const gpu_plan& p : gpu_plan_candidates(r)) {
    if (p.residency != gpu_residency::host) continue;
    EXPECT_LE(p.knobs.ring_bytes, 2 * (5000 * 96 + 64 * 192));
    EXPECT_GE(p.knobs.ring_bytes, gpu_min_ring_bytes);
  }
}

// A 12 GiB card (11 GiB budget) proving 32 GiB SnapDeals: a, b, c in turn leave room for a
// 64 MiB ring beside them (16 MiB chunks: 8.3 s of H MSM a partition on an H100 capped at 12 GiB,
// bench/results/h100/2026-12-07-engine-gpu-snap-caps.md); after them, a 256 MiB one.
TEST(GpuMemory, A12GiBCardTakesItsSnapRingAfterABC) {
  const gpu_plan_request r = snap32g_request(11);
  const auto got = choose_gpu_plan(r);
  ASSERT_TRUE(got.ok()) << got.error().to_string();
  EXPECT_EQ(got->residency, gpu_residency::host);
  EXPECT_TRUE(got->knobs.ring_after_abc) << got->to_json();
  EXPECT_GE(got->knobs.ring_bytes, uint64_t(256) << 20) << got->to_json();
  uint64_t largest_before = 0;
  for (const gpu_plan& p : gpu_plan_candidates(r)) {
    if (p.residency == gpu_residency::host && !p.knobs.ring_after_abc &&
        p.device_peak_bytes <= r.device_budget)
      largest_before = std::max(largest_before, p.knobs.ring_bytes);
  }
  EXPECT_EQ(largest_before, uint64_t(64) << 20) << "the case this knob decides";
}

// Partially resident plans (gpu_memory_knobs::resident_queries) come between the resident and
// the streamed ones: a 32 GiB PoRep on a 32 or 40 GiB card keeps H on the device, on a 48 GiB
// card H and L; 24 GiB streams everything, 64 GiB keeps everything.
TEST(GpuMemory, PartiallyResidentBetweenResidentAndStreamed) {
  gpu_plan_request r;
  r.q = porep32g;
  r.program_bytes = uint64_t(389) << 20;
  const std::vector<gpu_plan> c = gpu_plan_candidates(r);
  size_t last_device = 0, first_partial = c.size(), last_partial = 0, first_streamed = c.size();
  for (size_t i = 0; i < c.size(); ++i) {
    const bool host = c[i].residency == gpu_residency::host;
    const unsigned kept = c[i].knobs.resident_queries;
    if (!host) last_device = i;
    if (host && kept != 0) {
      first_partial = std::min(first_partial, i);
      last_partial = i;
      // Only with H among them, and the rest interleaved from the witness on the device.
      EXPECT_NE(kept & gpu_query_h, 0u);
      EXPECT_TRUE(c[i].knobs.interleave_queries && c[i].knobs.abc_on_device);
    }
    if (host && kept == 0) first_streamed = std::min(first_streamed, i);
  }
  EXPECT_LT(last_device, first_partial);
  EXPECT_LT(last_partial, first_streamed);
  const auto on = [&](unsigned card_gib) {
    r.device_budget = (uint64_t(card_gib) - 1) << 30;
    const auto got = choose_gpu_plan(r);
    EXPECT_TRUE(got.ok());
    EXPECT_LE(got->device_peak_bytes, r.device_budget);
    return *got;
  };
  EXPECT_EQ(on(24).knobs.resident_queries, 0u);
  EXPECT_EQ(on(24).residency, gpu_residency::host);
  EXPECT_EQ(on(32).knobs.resident_queries, unsigned(gpu_query_h)) << on(32).to_json();
  EXPECT_EQ(on(40).knobs.resident_queries, unsigned(gpu_query_h)) << on(40).to_json();
  EXPECT_EQ(on(48).knobs.resident_queries, unsigned(gpu_query_h | gpu_query_l)) << on(48).to_json();
  EXPECT_EQ(on(64).residency, gpu_residency::device);
  // H's bytes: 2^27 − 1 G1 points of 96 B.
  EXPECT_EQ(on(32).parameter_bytes, ((uint64_t(1) << 27) - 1) * 96);
  EXPECT_NE(on(48).to_json().find("\"mode\":\"partial\""), std::string::npos);
  EXPECT_NE(on(48).to_json().find("\"resident_queries\":\"h,l\""), std::string::npos);
  EXPECT_EQ(gpu_query_names(gpu_all_queries), "h,l,a,b_g1,b_g2");
  EXPECT_EQ(gpu_query_names(0), "");
}

// H on the device: its MSM over the resident bases takes the resident path's scratch in place
// of the streamed accumulator, beside L's and A's streams (interleaved) or alone; a query kept
// on the device needs no chunk of the ring, the rest the same.
TEST(GpuMemory, AResidentQueryTakesTheResidentPathsScratch) {
  gpu_memory_knobs k;
  k.msm_group_bytes = uint64_t(4) << 30;
  k.interleave_queries = true;
  gpu_memory_knobs kept = k;
  kept.resident_queries = gpu_query_h;
  const uint64_t scratch =
      msm::cuda::msm_scratch_bytes(porep32g.h, msm::cuda::G1_XYZZ_BYTES, k.msm_group_bytes);
  for (const bool interleave : {true, false}) {
    k.interleave_queries = kept.interleave_queries = interleave;
    // Four slots interleaved, two otherwise.
    const size_t per = gpu_ring_points_per_chunk(
        k.ring_bytes, gpu_ring_slots(k.ring_bytes, interleave), sizeof(g1_affine_t));
    const uint64_t acc = msm::cuda::msm_accumulator_bytes(porep32g.h, per, msm::cuda::G1_XYZZ_BYTES,
                                                          k.msm_group_bytes);
    const gpu_proof_memory streamed = gpu_proof_bytes(porep32g, gpu_residency::host, true, k);
    const gpu_proof_memory partial = gpu_proof_bytes(porep32g, gpu_residency::host, true, kept);
    EXPECT_EQ(int64_t(partial.msm_h) - int64_t(streamed.msm_h), int64_t(scratch) - int64_t(acc))
        << interleave;
    EXPECT_EQ(partial.abc, streamed.abc) << interleave;
    EXPECT_EQ(partial.msm_lab, streamed.msm_lab) << interleave;
  }
  // Every query kept: the device residency's MSM phases, plus the ring.
  gpu_memory_knobs all = k;
  all.interleave_queries = false;
  all.resident_queries = gpu_all_queries;
  gpu_memory_knobs dev = all;
  dev.resident_queries = 0;
  EXPECT_EQ(gpu_proof_bytes(porep32g, gpu_residency::host, true, all).msm_lab,
            gpu_proof_bytes(porep32g, gpu_residency::device, true, dev).msm_lab + all.ring_bytes);
}

// A streamed H's window and windows a pass (gpu_memory_knobs::h_window_bits, h_group_bytes) are
// chosen by the streamed MSM's cost within the plan's budget; the rest of the plan (mode, ring,
// groups, a, b, c) is the one the default window chose, and the plan's peak is the formula's for
// the chosen knobs.
TEST(GpuMemory, AStreamedHsWindowIsChosenByItsCostWithinTheBudget) {
  using msm::cuda::accumulator_cost;
  constexpr size_t xyzz = msm::cuda::G1_XYZZ_BYTES;
  // The measured order (BM_gpu_msm_g1_accumulator, 2^27 terms, 25 chunks of 5,592,320): one
  // pass of 16 windows of 16 bits beats 19 and 22 bits, and one window a pass costs more.
  const size_t n = porep32g.h, chunk = 5592320;
  EXPECT_LT(accumulator_cost(n, chunk, 16, 16, xyzz), accumulator_cost(n, chunk, 19, 14, xyzz));
  EXPECT_LT(accumulator_cost(n, chunk, 19, 14, xyzz), accumulator_cost(n, chunk, 22, 12, xyzz));
  EXPECT_LT(accumulator_cost(n, chunk, 16, 16, xyzz), accumulator_cost(n, chunk, 16, 1, xyzz));
  // Resident, one chunk: the window_cost's optimum (22 bits) stays the cheapest.
  EXPECT_LT(accumulator_cost(n, n, 22, 12, xyzz), accumulator_cost(n, n, 16, 16, xyzz));

  for (const uint64_t card_gib : {16u, 20u, 24u, 32u, 48u}) {
    gpu_plan_request r;
    r.q = porep32g;
    r.program_bytes = uint64_t(389) << 20;
    r.device_budget = (card_gib - 1) << 30;
    const auto got = choose_gpu_plan(r);
    ASSERT_TRUE(got.ok()) << card_gib << ": " << got.error().to_string();
    const gpu_proof_memory m = gpu_proof_bytes(r.q, got->residency, true, got->knobs);
    EXPECT_EQ(got->proof_peak, m.peak()) << got->to_json();
    EXPECT_LE(got->device_peak_bytes, r.device_budget) << got->to_json();
    if (got->residency == gpu_residency::device || (got->knobs.resident_queries & gpu_query_h)) {
      EXPECT_EQ(got->knobs.h_window_bits, 0u) << got->to_json();
      continue;
    }
    // 16 bits on 16 to 24 GiB cards (two radix passes; its kept buckets the fewest of the
    // cheap windows), the most windows a pass that fit.
    EXPECT_EQ(got->knobs.h_window_bits, 16u) << got->to_json();
    const size_t per = gpu_ring_points_per_chunk(
        got->knobs.ring_bytes, gpu_ring_slots(got->knobs.ring_bytes, true), sizeof(g1_affine_t));
    gpu_memory_knobs more = got->knobs;
    more.h_group_bytes += msm::cuda::group_window_bytes(per, 16, xyzz);
    const unsigned group = msm::cuda::plan_groups(per, 16, xyzz, got->knobs.h_group_bytes).group;
    const unsigned passes = (16 + group - 1) / group;
    if (passes > 1) {
      EXPECT_GT(got->device_peak_bytes - got->proof_peak +
                    gpu_proof_bytes(r.q, got->residency, true, more).peak(),
                r.device_budget)
          << "a window more a pass would have fitted: " << got->to_json();
    }
    // A plan that fits with the default window (candidates planned for no budget keep it):
    // only H's knobs differ.
    gpu_plan_request unplanned = r;
    unplanned.device_budget = 0;
    bool found = false;
    for (const gpu_plan& c : gpu_plan_candidates(unplanned)) {
      gpu_memory_knobs a = c.knobs, b = got->knobs;
      a.h_window_bits = b.h_window_bits = 0;
      a.h_group_bytes = b.h_group_bytes = 0;
      found = found || (c.device_peak_bytes <= r.device_budget && a == b);
    }
    EXPECT_TRUE(found) << "no plan fits with the default window as " << got->to_json();
  }
}

// Among the streamed plans that fit, the least streamed cost (gpu_streamed_cost_of) of those
// like the first that fits (its a, b, c mode, queries on the device, MSM groups of 4 GiB or its
// own at the narrowest). A 32 GiB PoRep on a 20 GiB card measured 2,146 ms a partition with the
// first that fits (a 1 GiB ring, 12 GiB groups) and 1,993 ms with the 16 GiB card's plan, which
// fits it too (H100, bench/results/h100/2026-12-07-predicted-time.md): it takes a 2 GiB ring with
// 4 GiB groups.
TEST(GpuMemory, AStreamedPlanIsTheLeastCostlyOfItsKind) {
  gpu_plan_request r;
  r.q = porep32g;
  r.program_bytes = uint64_t(389) << 20;
  const auto cost = [&](const gpu_plan& p) {
    return gpu_streamed_cost_of(r.q, p.knobs, 0.1, gpu_time_reference{}.link_bytes_per_s).total();
  };
  r.device_budget = uint64_t(19) << 30;
  const auto twenty = choose_gpu_plan(r);
  ASSERT_TRUE(twenty.ok());
  EXPECT_EQ(twenty->residency, gpu_residency::host);
  EXPECT_EQ(twenty->knobs.ring_bytes, uint64_t(2) << 30) << twenty->to_json();
  EXPECT_EQ(twenty->knobs.msm_group_bytes, uint64_t(4) << 30) << twenty->to_json();
  EXPECT_FALSE(twenty->knobs.abc_in_turn);
  EXPECT_LE(twenty->device_peak_bytes, r.device_budget);
  // The first that fits, and every other of its kind that fits, cost no less.
  const std::vector<gpu_plan> all = gpu_plan_candidates(r);
  const auto first = std::find_if(all.begin(), all.end(), [&](const gpu_plan& p) {
    return p.device_peak_bytes <= r.device_budget;
  });
  ASSERT_NE(first, all.end());
  EXPECT_EQ(first->knobs.ring_bytes, uint64_t(1) << 30);
  EXPECT_EQ(first->knobs.msm_group_bytes, uint64_t(12) << 30);
  EXPECT_LT(cost(*twenty), cost(*first));
  for (const gpu_plan& p : all) {
    if (p.device_peak_bytes > r.device_budget || p.residency != gpu_residency::host ||
        !p.knobs.interleave_queries || p.knobs.abc_in_turn || p.knobs.resident_queries != 0 ||
        p.knobs.msm_group_bytes < (uint64_t(4) << 30))
      continue;
    EXPECT_GE(cost(p), cost(*twenty)) << p.to_json();
  }
  // 16 GiB: its 1 GiB groups are the first fit's, a, b, c in turn; a 2 GiB ring as before.
  r.device_budget = uint64_t(15) << 30;
  const auto sixteen = choose_gpu_plan(r);
  ASSERT_TRUE(sixteen.ok());
  EXPECT_EQ(sixteen->knobs.ring_bytes, uint64_t(2) << 30) << sixteen->to_json();
  EXPECT_EQ(sixteen->knobs.msm_group_bytes, uint64_t(1) << 30);
  EXPECT_TRUE(sixteen->knobs.abc_in_turn);
  // Resident plans are taken as they come: two lanes on a whole H100.
  r.device_budget = uint64_t(79) << 30;
  const auto whole = choose_gpu_plan(r);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->residency, gpu_residency::device);
  EXPECT_EQ(whole->lanes, 2u);
}

}  // namespace
}  // namespace cuzk::groth16
