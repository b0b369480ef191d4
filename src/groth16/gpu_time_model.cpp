// SPDX-License-Identifier: Apache-2.0
#include "groth16/gpu_time_model.hpp"

#include <algorithm>

#include "ec/curve.hpp"
#include "msm/msm_gpu_plan.hpp"

namespace cuzk::groth16 {
namespace {

constexpr uint64_t g1_bytes = sizeof(g1_affine_t), g2_bytes = sizeof(g2_affine_t);

// One unit of msm::cuda::accumulator_cost (a term's bucket accumulation in one window) in
// milliseconds: 352.8 ps, its fit on the H200 (bench/results/h200/2026-12-07-streamed-h-window.md);
// the H100's resident H (804 ms at c = 22, 2^27 terms) is within 5 % of the same formula's 769.
constexpr double ACCUMULATOR_UNIT_MS = 352.8e-9;

// A streamed split query's cost above its resident MSM, in ms: per chunk of the ring the ones'
// batch addition and the others' pass over the chunk (a dense witness's others fill the chunk,
// and their kept buckets are added over every bucket of their window), and per query its
// accumulators' setup and final sums. Fitted to the H100's capped runs, each MSM timed
// (bench/results/h100/2026-12-07-others-piece-mps-caps.md):
//   32 GiB PoRep (others ≈ 0.1): L + A +81 ms over 32 chunks at 24 GiB, +199 over 94 at 16 GiB
//     (1.9 ms a chunk, 20 ms for the two queries); B1 + B2 +70 over 4 + 8, +139 over 12 + 24
//     (B2's G2 chunks 3.4 ms);
//   32 GiB WindowPoSt (dense) at 16 GiB: L + A ≈ +0.45 s over 81 chunks, B1 +0.13 s over 33, B2
//     +0.78 s over 66 (G1 ≈ 4.8 ms a chunk, G2 11.4).
// Since a split's others are gathered across chunks (prover_gpu.cu split_stream) the split
// queries' chunks cost less than this (L and A ≈ 0.5–0.9 ms a chunk above resident) and B1 and B2,
// streamed after the interleaved H, L and A, wait ≈ 70 ms for the link, which the sum of kernels
// below does not count; the totals still agree: 32 GiB PoRep 1.956 s predicted at 16 GiB (1.928
// measured), 1.837 at 24 (1.841) (bench/results/h100/2026-12-08-split-others-gathered.md).
// A streamed proof also pays ≈ 20 ms outside its MSMs (its a, b, c beside the ring: 53 against
// 31 ms at 24 GiB).
constexpr double SPLIT_CHUNK_MS_G1 = 1.9;
constexpr double SPLIT_OTHERS_CHUNK_MS_G1 = 2.9;
constexpr double SPLIT_CHUNK_MS_G2 = 2.5;
constexpr double SPLIT_OTHERS_CHUNK_MS_G2 = 8.9;
constexpr double SPLIT_QUERY_MS_G1 = 10;
constexpr double SPLIT_QUERY_MS_G2 = 25;
constexpr double STREAMED_PROOF_MS = 20;

uint64_t chunks_of(uint64_t points, uint64_t per_chunk) {
  return per_chunk == 0 ? 0 : (points + per_chunk - 1) / per_chunk;
}

}  // namespace

gpu_time_profile gpu_time_profile::scaled(double factor) const {
  gpu_time_profile s = *this;
  s.resident_ms *= factor;
  s.two_lanes_ms *= factor;
  s.msm_h_ms *= factor;
  s.msm_lab_ms *= factor;
  return s;
}

gpu_streamed_cost gpu_streamed_cost_of(const query_sizes& q, const gpu_memory_knobs& k,
                                       double others_share, double link_bytes_per_s) {
  gpu_streamed_cost cost;
  const size_t slots = gpu_ring_slots(k.ring_bytes, true);
  const uint64_t per_g1 = gpu_ring_points_per_chunk(k.ring_bytes, slots, g1_bytes);
  const uint64_t per_g2 = gpu_ring_points_per_chunk(k.ring_bytes, slots, g2_bytes);
  const auto streamed = [&](unsigned query) { return (k.resident_queries & query) == 0; };
  if (streamed(gpu_query_h) && q.h > 0) {
    // The streamed H against the resident one (one chunk, the resident window, one pass).
    const uint64_t chunk = std::min<uint64_t>(q.h, per_g1);
    const auto acc = msm::cuda::plan_accumulator(q.h, chunk, msm::cuda::G1_XYZZ_BYTES,
                                                 gpu_h_group_bytes(k), k.h_window_bits);
    const unsigned c_resident = msm::cuda::window_by_cost(q.h);
    const double streamed_h =
        msm::cuda::accumulator_cost(q.h, chunk, acc.c, acc.groups.group, msm::cuda::G1_XYZZ_BYTES);
    const double resident_h = msm::cuda::accumulator_cost(
        q.h, q.h, c_resident, (msm::cuda::SCALAR_BITS + c_resident - 1) / c_resident,
        msm::cuda::G1_XYZZ_BYTES);
    cost.h_ms = std::max(0.0, streamed_h - resident_h) * ACCUMULATOR_UNIT_MS;
  }
  const double g1_chunk_ms = SPLIT_CHUNK_MS_G1 + others_share * SPLIT_OTHERS_CHUNK_MS_G1;
  const double g2_chunk_ms = SPLIT_CHUNK_MS_G2 + others_share * SPLIT_OTHERS_CHUNK_MS_G2;
  for (const auto& [query, points] :
       {std::pair{gpu_query_l, uint64_t(q.l)}, std::pair{gpu_query_a, uint64_t(q.a)},
        std::pair{gpu_query_b_g1, uint64_t(q.b_g1)}})
    if (streamed(query) && points > 0)
      cost.split_ms += SPLIT_QUERY_MS_G1 + double(chunks_of(points, per_g1)) * g1_chunk_ms;
  if (streamed(gpu_query_b_g2) && q.b_g2 > 0)
    cost.split_ms += SPLIT_QUERY_MS_G2 + double(chunks_of(q.b_g2, per_g2)) * g2_chunk_ms;
  // The ring taken after a, b, c: its first slot's copy is no longer hidden behind them.
  if (k.ring_after_abc)
    cost.first_slot_ms = double(gpu_ring_slot_bytes(k.ring_bytes, slots)) / link_bytes_per_s * 1e3;
  return cost;
}

gpu_time_prediction gpu_predicted_time(const query_sizes& q, const gpu_plan& plan,
                                       const gpu_time_profile& profile,
                                       const gpu_time_reference& reference) {
  gpu_time_prediction p;
  const gpu_memory_knobs& k = plan.knobs;
  if (!k.abc_on_device) {
    p.modelled = false;
    p.why = "a, b, c evaluated on the host: the host's cores set the time";
    return p;
  }
  const double msm_ms = profile.msm_h_ms + profile.msm_lab_ms;
  const double rest_ms = std::max(0.0, profile.resident_ms - msm_ms);
  p.resident_ms =
      plan.residency == gpu_residency::device && plan.lanes > 1 && profile.two_lanes_ms > 0
          ? profile.two_lanes_ms
          : profile.resident_ms;
  if (plan.residency == gpu_residency::device) {
    p.ms = p.resident_ms;
    return p;
  }
  if (!k.interleave_queries) {
    p.modelled = false;
    p.why = "the queries streamed one after another: not measured since the streamed MSMs changed";
    return p;
  }
  const gpu_streamed_cost extra =
      gpu_streamed_cost_of(q, k, profile.others_share, reference.link_bytes_per_s);
  p.streamed_h_ms = extra.h_ms;
  p.streamed_split_ms = extra.split_ms;
  p.link_ms = double(plan.streamed_bytes) / reference.link_bytes_per_s * 1e3;
  const double kernels_ms = msm_ms + p.streamed_h_ms + p.streamed_split_ms;
  p.link_bound = p.link_ms > kernels_ms;
  p.ms = rest_ms + STREAMED_PROOF_MS + std::max(kernels_ms, p.link_ms) + extra.first_slot_ms;
  return p;
}

}  // namespace cuzk::groth16
