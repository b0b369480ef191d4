// SPDX-License-Identifier: Apache-2.0
#include "groth16/gpu_memory.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "groth16/gpu_time_model.hpp"
#include "msm/msm_gpu_plan.hpp"
#include "ntt/ntt_tile.hpp"

namespace cuzk::groth16 {
namespace {

constexpr uint64_t fr_bytes = sizeof(ff::fr_t);
constexpr uint64_t g1_bytes = sizeof(g1_affine_t), g2_bytes = sizeof(g2_affine_t);
constexpr uint64_t g1_xyzz = msm::cuda::G1_XYZZ_BYTES, g2_xyzz = msm::cuda::G2_XYZZ_BYTES;
static_assert(g1_xyzz == 4 * sizeof(ff::fp_t));
// prover_gpu.cu's classify kernels run blocks of this many threads.
constexpr uint64_t classify_threads = 256;

uint64_t words(uint64_t bits) {
  return (bits + 63) / 64;
}

// One split kept for its MSMs: the ones bitmap, the others' base and aux indices (count each).
uint64_t split_bytes(uint64_t count) {
  return 8 * words(count) + 4 * count + 4 * count;
}

// What classify holds beside the split it builds, over n aux scalars with a density: the density
// words, their counts and ranks (and the rank scan's temporary), the two counters, each block's
// count of others and first index, and the scan over them.
uint64_t classify_transient(uint64_t n, bool density) {
  const uint64_t nw = words(n), blocks = (n + classify_threads - 1) / classify_threads;
  const uint64_t rank = density ? 8 * nw + 4 * nw + msm::cuda::scan_temp_bound(nw) : 0;
  return rank + 8 + 8 * blocks + msm::cuda::scan_temp_bound(blocks);
}

// What a split streamed in chunks of `per` points (host residency, prover_gpu.cu's
// split_stream) holds from start to end: the ones' device total (batch_accumulator), the chunks'
// bounds among the others, one piece of gathered bases and scalars, and one msm_accumulator of
// the others (every term other at worst).
uint64_t split_stream_bytes(uint64_t count, uint64_t point, uint64_t xyzz, uint64_t per,
                            const gpu_memory_knobs& k) {
  if (count == 0) return 0;
  const uint64_t piece = std::min({count, per, k.gather_points});
  return xyzz + 4 * ((count + per - 1) / per + 1) + piece * (point + fr_bytes) +
         msm::cuda::msm_accumulator_bytes(count, piece, xyzz,
                                          gpu_others_group_bytes(k.msm_group_bytes));
}

// One split's MSM: the ones by batch addition over count bits, or the others gathered in pieces
// (bases and scalars) with the MSM over a piece. `per` > 0: a split_stream, beside one chunk's
// batch addition at a time.
uint64_t split_msm_bytes(uint64_t count, uint64_t point, uint64_t xyzz, uint64_t per,
                         const gpu_memory_knobs& k) {
  if (count == 0) return 0;
  const uint64_t span = per ? std::min(count, per) : count;
  if (per != 0) {
    return split_stream_bytes(count, point, xyzz, per, k) +
           msm::cuda::batch_add_scratch_bytes(span, xyzz);
  }
  const uint64_t piece = std::min(span, k.gather_points);
  return std::max(
      msm::cuda::batch_add_scratch_bytes(span, xyzz),
      piece * (point + fr_bytes) + msm::cuda::msm_scratch_bytes(piece, xyzz, k.msm_group_bytes));
}

// The inputs' MSM (a few host scalars; in host residency their bases uploaded too).
uint64_t inputs_msm_bytes(uint64_t n, uint64_t point, uint64_t xyzz, bool bases_uploaded,
                          const gpu_memory_knobs& k) {
  if (n == 0) return 0;
  return n * fr_bytes + (bases_uploaded ? n * point : 0) +
         msm::cuda::msm_scratch_bytes(n, xyzz, k.msm_group_bytes);
}

}  // namespace

uint64_t gpu_proof_memory::peak() const {
  return std::max({abc, msm_h, split, msm_lab});
}

gpu_proof_memory gpu_proof_bytes(const query_sizes& q, gpu_residency where, bool witness_on_device,
                                 const gpu_memory_knobs& k) {
  gpu_proof_memory r;
  const bool host = where == gpu_residency::host;
  const uint64_t m = q.h + 1, n_in = q.ic, n_aux = q.l;
  const uint64_t na = q.a > q.ic ? q.a - q.ic : 0, nb = q.b_g1;
  const uint64_t ring = host ? k.ring_bytes : 0;
  const bool interleave = host && witness_on_device && k.interleave_queries;
  const size_t slots = gpu_ring_slots(k.ring_bytes, interleave);
  // Partially resident: the queries kept on the device take the resident path's MSMs.
  const unsigned resident = host ? k.resident_queries : gpu_all_queries;
  const auto streamed = [&](unsigned query) { return (resident & query) == 0; };
  // Points per chunk of a streamed query (0: on the device).
  const auto per = [&](unsigned query, uint64_t point) {
    return streamed(query) ? gpu_ring_points_per_chunk(k.ring_bytes, slots, point) : 0;
  };
  const bool g1_inputs_uploaded = streamed(gpu_query_a) || streamed(gpu_query_b_g1);
  const uint64_t aux = n_aux * fr_bytes, witness = aux + n_in * fr_bytes;
  r.witness = witness_on_device ? witness : 0;
  // a, b, c evaluated (or uploaded) and transformed; the quotient reads all three, or (in turn)
  // A·B and C.
  const uint64_t domain_buffers = witness_on_device && k.abc_in_turn ? 2 : 3;
  r.abc = r.witness + domain_buffers * m * fr_bytes + (k.ring_after_abc ? 0 : ring);
  // h in a's buffer; b and c back in the pool. Host residency: one msm_accumulator over the
  // streamed chunks.
  const uint64_t h_msm = r.h_msm =
      streamed(gpu_query_h)
          ? msm::cuda::msm_accumulator_bytes(q.h, std::min(q.h, per(gpu_query_h, g1_bytes)),
                                             g1_xyzz, gpu_h_group_bytes(k), k.h_window_bits)
          : msm::cuda::msm_scratch_bytes(q.h, g1_xyzz, k.msm_group_bytes);
  r.msm_h = r.witness + m * fr_bytes + ring + h_msm;
  // aux on the device (uploaded now when a, b, c came from the host), the three splits built
  // one after the other (L over every aux, A and B over their densities).
  const uint64_t held = aux + (witness_on_device ? n_in * fr_bytes : 0) + ring;
  const uint64_t splits = split_bytes(n_aux) + split_bytes(na) + split_bytes(nb);
  r.split = held + splits + classify_transient(n_aux, true);
  // The MSMs over the splits, one at a time.
  const uint64_t b_msm =
      std::max({split_msm_bytes(nb, g1_bytes, g1_xyzz, per(gpu_query_b_g1, g1_bytes), k),
                split_msm_bytes(nb, g2_bytes, g2_xyzz, per(gpu_query_b_g2, g2_bytes), k),
                inputs_msm_bytes(n_in, g1_bytes, g1_xyzz, g1_inputs_uploaded, k),
                inputs_msm_bytes(n_in, g2_bytes, g2_xyzz, streamed(gpu_query_b_g2), k)});
  const uint64_t lab =
      std::max({split_msm_bytes(n_aux, g1_bytes, g1_xyzz, per(gpu_query_l, g1_bytes), k),
                split_msm_bytes(na, g1_bytes, g1_xyzz, per(gpu_query_a, g1_bytes), k), b_msm});
  r.msm_lab = held + splits + lab;
  if (interleave) {
    // L and A split while h is held; then H, L and A streamed together (every accumulator, the
    // gather pieces and one chunk's batch addition at a time) while the device's own among them
    // are summed one after another on a second stream; then, h and those splits freed, B's split
    // and B1, B2 one after the other (and A's inputs).
    const uint64_t held_h = witness + m * fr_bytes + ring;
    const uint64_t splits_la = split_bytes(n_aux) + split_bytes(na);
    uint64_t batch = 0, streams = 0, side = 0;
    for (const auto& [query, count] : {std::pair{gpu_query_l, n_aux}, std::pair{gpu_query_a, na}}) {
      if (streamed(query)) {
        const uint64_t each = per(query, g1_bytes);
        batch = std::max(batch, msm::cuda::batch_add_scratch_bytes(std::min(count, each), g1_xyzz));
        streams += split_stream_bytes(count, g1_bytes, g1_xyzz, each, k);
      } else {
        side = std::max(side, split_msm_bytes(count, g1_bytes, g1_xyzz, 0, k));
      }
    }
    if (streamed(gpu_query_h)) {
      streams += h_msm;
    } else {
      side = std::max(side, h_msm);
    }
    r.msm_h = held_h + splits_la + streams + batch + side;
    const uint64_t held_b = witness + ring;
    r.split = std::max(held_h + splits_la + classify_transient(n_aux, true),
                       held_b + split_bytes(nb) + classify_transient(n_aux, true));
    r.msm_lab = held_b + split_bytes(nb) + b_msm;
  }
  return r;
}

namespace {

// Each query's gpu_query bit and the bytes of its points.
std::array<std::pair<unsigned, uint64_t>, 5> query_point_bytes(const query_sizes& q) {
  return {{{gpu_query_h, uint64_t(q.h) * g1_bytes},
           {gpu_query_l, uint64_t(q.l) * g1_bytes},
           {gpu_query_a, uint64_t(q.a) * g1_bytes},
           {gpu_query_b_g1, uint64_t(q.b_g1) * g1_bytes},
           {gpu_query_b_g2, uint64_t(q.b_g2) * g2_bytes}}};
}

}  // namespace

uint64_t gpu_parameter_bytes(const query_sizes& q, gpu_residency where, unsigned resident_queries) {
  const unsigned kept = where == gpu_residency::device ? gpu_all_queries : resident_queries;
  uint64_t total = 0;
  for (const auto& [query, bytes] : query_point_bytes(q))
    if ((kept & query) != 0) total += bytes;
  return total;
}

std::string gpu_query_names(unsigned queries) {
  std::string out;
  for (const auto& [query, name] :
       {std::pair{gpu_query_h, "h"}, std::pair{gpu_query_l, "l"}, std::pair{gpu_query_a, "a"},
        std::pair{gpu_query_b_g1, "b_g1"}, std::pair{gpu_query_b_g2, "b_g2"}}) {
    if ((queries & query) != 0) out.append(out.empty() ? "" : ",").append(name);
  }
  return out;
}

uint64_t gpu_ntt_table_bytes(const query_sizes& q) {
  unsigned lg = 0;
  while ((uint64_t(1) << lg) < q.h + 1) ++lg;
  return ntt::tile::device_table_bytes(lg);
}

namespace {

gpu_plan make_plan(const gpu_plan_request& r, gpu_residency where, unsigned lanes,
                   gpu_memory_knobs k) {
  k.abc_on_device = k.abc_on_device && r.witness_on_device;
  k.abc_in_turn = k.abc_in_turn && k.abc_on_device;
  k.interleave_queries = k.interleave_queries && k.abc_on_device && where == gpu_residency::host;
  k.ring_after_abc = k.ring_after_abc && where == gpu_residency::host;
  k.resident_queries = where == gpu_residency::host ? k.resident_queries & gpu_all_queries : 0;
  gpu_plan p;
  p.residency = where;
  p.lanes = lanes;
  p.knobs = k;
  if (where == gpu_residency::host) {
    // No larger than two halves of the largest streamed query (and a bitmap word of points of
    // slack): a small circuit streams through a small ring.
    uint64_t largest = 0;
    for (const auto& [query, bytes] : query_point_bytes(r.q))
      if ((k.resident_queries & query) == 0) largest = std::max(largest, bytes);
    const uint64_t enough = 2 * (largest + 64 * g2_bytes);
    p.knobs.ring_bytes = std::max(gpu_min_ring_bytes, std::min(k.ring_bytes, enough));
  }
  p.parameter_bytes = gpu_parameter_bytes(r.q, where, k.resident_queries);
  p.fixed_bytes = (k.abc_on_device ? r.program_bytes : 0) + gpu_ntt_table_bytes(r.q);
  const gpu_proof_memory m = gpu_proof_bytes(r.q, where, k.abc_on_device, p.knobs);
  // A lane beside the proving one holds its uploaded witness while it waits for the device.
  p.lane_bytes = m.witness;
  const uint64_t beside_proof = p.parameter_bytes + p.fixed_bytes + uint64_t(lanes - 1) * m.witness;
  p.proof_peak = m.peak();
  p.device_peak_bytes = beside_proof + p.proof_peak;
  if (where == gpu_residency::host && (k.resident_queries & gpu_query_h) == 0 &&
      p.device_peak_bytes <= r.device_budget) {
    // H streamed, in a plan that fits: its window and windows a pass by the streamed MSM's cost
    // (msm::cuda::accumulator_cost) among those that fit the budget beside the rest of the plan;
    // for each window the most windows a pass that fit (the accumulator's bytes grow with them).
    // Only the H phase changes with them. A plan that does not fit with msm_group_bytes' choice
    // is not made to fit by a narrower H: which plans fit, and so the ring, groups and a, b, c
    // mode chosen, stay as measured (a 16 GiB card's WindowPoSt would otherwise trade its 4 GiB
    // groups and 1 GiB ring for 1 GiB groups and a 3 GiB ring, unmeasured).
    // H's chunk as gpu_proof_bytes streams it (k.interleave_queries is normalized above).
    const uint64_t chunk = std::min<uint64_t>(
        r.q.h, gpu_ring_points_per_chunk(p.knobs.ring_bytes,
                                         gpu_ring_slots(p.knobs.ring_bytes, k.interleave_queries),
                                         g1_bytes));
    const uint64_t other_phases = std::max({m.abc, m.split, m.msm_lab});
    const auto peak_with = [&](unsigned c, uint64_t group_bytes) {
      const uint64_t h_phase =
          m.msm_h - m.h_msm +
          msm::cuda::msm_accumulator_bytes(r.q.h, chunk, g1_xyzz, group_bytes, c);
      return beside_proof + std::max(other_phases, h_phase);
    };
    const auto group_bytes = [&](unsigned c, unsigned g) {
      return g * msm::cuda::group_window_bytes(chunk, c, g1_xyzz);
    };
    const auto fits = [&](unsigned c, unsigned g) {
      return peak_with(c, group_bytes(c, g)) <= r.device_budget;
    };
    double best = -1;
    for (unsigned c = msm::cuda::WINDOW_MIN; c <= msm::cuda::WINDOW_MAX; ++c) {
      if (!fits(c, 1)) continue;
      unsigned lo = 1, hi = (msm::cuda::SCALAR_BITS + c - 1) / c;  // lo fits; the most that do
      while (lo < hi) {
        const unsigned mid = (lo + hi + 1) / 2;
        if (fits(c, mid)) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      const double cost = msm::cuda::accumulator_cost(r.q.h, chunk, c, lo, g1_xyzz);
      if (best < 0 || cost < best) {
        best = cost;
        p.knobs.h_window_bits = c;
        p.knobs.h_group_bytes = group_bytes(c, lo);
      }
    }
    if (best >= 0) {
      p.device_peak_bytes = peak_with(p.knobs.h_window_bits, p.knobs.h_group_bytes);
      p.proof_peak = p.device_peak_bytes - beside_proof;
    }
  }
  const uint64_t points = query_bytes(r.q) - uint64_t(r.q.ic) * sizeof(g1_affine_t);
  // Parameters in host memory, and the a, b, c the host evaluates (the engine charges them with
  // the plan: prover_backend::plan_memory_of).
  p.host_bytes =
      (where == gpu_residency::host ? points : 0) +
      (r.witness_on_device && !k.abc_on_device ? 3 * (uint64_t(r.q.h) + 1) * fr_bytes : 0);
  p.streamed_bytes = where == gpu_residency::host ? points - p.parameter_bytes : 0;
  return p;
}

// The knobs from the fastest (the MSM's 12 GiB window groups, others in pieces of 2^25) to
// those of the smallest cards.
constexpr std::pair<uint64_t, uint64_t> knob_steps[] = {
    {uint64_t(12) << 30, uint64_t(1) << 25},
    {uint64_t(4) << 30, uint64_t(1) << 24},
    {uint64_t(1) << 30, uint64_t(1) << 22},
    {uint64_t(256) << 20, uint64_t(1) << 20},
};
// The rings, down to the smallest that works (a chunk of 64 G2 points per half). Below
// small_ring_bytes a ring is a last resort, after every a, b, c mode with a larger one: each chunk
// has a fixed cost (its digits, sorts and bucket sums added), and a 32 GiB SnapDeals H MSM
// streamed through a 64 MiB ring (16 MiB chunks) took 11.1 s on an H100 capped at 16 GiB, where
// PoRep's through 1 GiB takes ≈ 1.2 s (bench/results/h100/2026-12-07-post-latency-and-snap-cap.md).
constexpr uint64_t ring_steps[] = {uint64_t(3) << 30, uint64_t(1) << 30, uint64_t(256) << 20,
                                   uint64_t(64) << 20, gpu_min_ring_bytes};
constexpr uint64_t small_ring_bytes = uint64_t(256) << 20;
// A ring between a step and the next larger one, tried just before the step with the same MSM
// groups only (never for narrower groups than the step would get: a narrow window costs more
// than a small ring, and ring against window has not been measured). Each chunk has a fixed
// cost, so twice the ring is half the chunks: a 32 GiB PoRep on a 16 GiB card streams through
// 2 GiB (512 MiB chunks) where 1 GiB was the largest step that fit (H, L and A measured
// 1,108 + 281 ms there against 1,003 + 163 ms through the 24 GiB card's 3 GiB ring;
// bench/results/h100/2026-12-07-others-piece-mps-caps.md). 0: none.
// The queries partially resident plans keep on the device, most first. H first: the costliest
// streamed MSM (16 bits against the resident 22, and each chunk's kept buckets; +0.20 s of a
// 24 GiB card's 1.89 s against one resident lane), then L and A (+0.08 s together), then B's G1
// half; B2 (G2, the most bytes a point) streams last. Each query kept takes its bytes off every
// proof's link (12.9 GB for a 32 GiB PoRep's H: 0.24 s at an H100's 54 GB/s).
constexpr unsigned partial_residency_steps[] = {
    gpu_query_h | gpu_query_l | gpu_query_a | gpu_query_b_g1,
    gpu_query_h | gpu_query_l | gpu_query_a,
    gpu_query_h | gpu_query_l,
    gpu_query_h,
};

uint64_t ring_between(uint64_t ring) {
  if (ring == (uint64_t(1) << 30)) return uint64_t(2) << 30;
  if (ring == (uint64_t(256) << 20)) return uint64_t(512) << 20;
  return 0;
}

}  // namespace

std::vector<gpu_plan> gpu_plan_candidates(const gpu_plan_request& r) {
  std::vector<gpu_plan> out;
  gpu_memory_knobs k;
  const auto with_knobs = [&](size_t step) {
    k.msm_group_bytes = knob_steps[step].first;
    k.gather_points = knob_steps[step].second;
  };
  // Resident, a, b, c from the program: every lane, then one lane with smaller knobs.
  with_knobs(0);
  for (unsigned lanes = std::max(1u, r.max_lanes); lanes >= 1; --lanes)
    out.push_back(make_plan(r, gpu_residency::device, lanes, k));
  for (size_t i = 1; i < std::size(knob_steps); ++i) {
    with_knobs(i);
    out.push_back(make_plan(r, gpu_residency::device, 1, k));
  }
  // Then a, b, c in turn through two domain buffers, then from the host (no witness or program
  // on the device), then the parameters in host memory with each, through smaller rings.
  if (r.witness_on_device) {
    k.abc_in_turn = true;
    for (size_t i = 0; i < std::size(knob_steps); ++i) {
      with_knobs(i);
      out.push_back(make_plan(r, gpu_residency::device, 1, k));
    }
    k.abc_in_turn = false;
    k.abc_on_device = false;
    for (size_t i = 0; i < std::size(knob_steps); ++i) {
      with_knobs(i);
      out.push_back(make_plan(r, gpu_residency::device, 1, k));
    }
    // Then partially resident: the parameters in host memory, the costliest queries kept on the
    // device as well (gpu_memory_knobs::resident_queries), a, b, c on the device and the rest
    // interleaved, with MSM groups of 4 GiB or more (the streamed plans' 24 GiB card runs
    // 4 GiB groups) and rings of 1 GiB or more.
    k.abc_on_device = true;
    k.interleave_queries = true;
    for (const unsigned kept : partial_residency_steps) {
      k.resident_queries = kept;
      for (const bool in_turn : {false, true}) {
        k.abc_in_turn = in_turn;
        for (size_t i = 0; i < 2; ++i) {
          with_knobs(i);
          for (uint64_t ring : {uint64_t(3) << 30, uint64_t(2) << 30, uint64_t(1) << 30}) {
            k.ring_bytes = ring;
            out.push_back(make_plan(r, gpu_residency::host, 1, k));
          }
        }
      }
    }
    k.resident_queries = 0;
    k.interleave_queries = false;
    k.abc_in_turn = false;
  }
  struct abc_mode {
    bool on_device, in_turn;
  };
  for (const bool small_rings : {false, true}) {
    for (abc_mode mode : {abc_mode{true, false}, abc_mode{true, true}, abc_mode{false, false}}) {
      // a, b, c from the host already: one mode.
      if (!r.witness_on_device && (mode.in_turn || !mode.on_device)) break;
      k.abc_on_device = mode.on_device;
      k.abc_in_turn = mode.in_turn;
      // H, L and A interleaved where a, b, c (so the witness) are on the device, then each query
      // after the last.
      for (bool interleave : {true, false}) {
        if (interleave && !(r.witness_on_device && mode.on_device)) continue;
        k.interleave_queries = interleave;
        // Every ring with MSM groups of 1 GiB or more, then every ring with the smallest groups: a
        // narrow window costs more than a small ring (32 GiB WindowPoSt on a 16 GiB card: B2 over
        // 91.9 M G2 points took 8.3 s with 256 MiB groups beside a 3 GiB ring, against 2.0 s with
        // 12 GiB groups; bench/results/h100/2026-12-06-capped-post-snap.md).
        // Then the same with the ring taken after a, b, c (gpu_memory_knobs::ring_after_abc):
        // only where no ring taken before them fits, since a larger ring after them comes with
        // narrower MSM groups, which have not been measured against a smaller ring's wider ones
        // (a 32 GiB PoRep on a 20 GiB card would trade a 1 GiB ring and 12 GiB groups for 3 GiB
        // and 1 GiB: each L or A chunk's others in 19 passes).
        const size_t smallest = std::size(knob_steps) - 1;
        for (const auto& [first, last] :
             {std::pair{size_t(0), smallest}, std::pair{smallest, smallest + 1}}) {
          for (const bool after : {false, true}) {
            k.ring_after_abc = after;
            for (uint64_t ring : ring_steps) {
              if ((ring < small_ring_bytes) != small_rings) continue;
              for (size_t i = first; i < last; ++i) {
                with_knobs(i);
                for (uint64_t each : {ring_between(ring), ring}) {
                  if (each == 0) continue;
                  k.ring_bytes = each;
                  out.push_back(make_plan(r, gpu_residency::host, 1, k));
                }
              }
            }
          }
        }
      }
    }
  }
  k.interleave_queries = false;
  k.ring_after_abc = false;
  return out;
}

namespace {

// The witness's split terms neither 0 nor 1 that the planner prices streamed plans for: a
// witness of bits (PoRep, SnapDeals). The planner sees only the query sizes; a dense witness
// (WindowPoSt) weighs each chunk more, which favours the fewer chunks further.
constexpr double PLAN_OTHERS_SHARE = 0.1;
// The narrowest MSM groups the planner trades for a larger ring, unless the first plan that fits
// already has narrower ones: the split MSMs' others take more passes a chunk with narrower
// groups, which gpu_streamed_cost_of does not price (4 GiB measured on every streamed circuit).
constexpr uint64_t PLAN_TRADE_GROUP_BYTES = uint64_t(4) << 30;

// The plan among `c` (gpu_plan_candidates' order) that fits `budget`: the first that fits, or
// where it holds its parameters in host memory and interleaves, the fitting plan of the same
// residency, queries on the device and a, b, c mode (in turn or not: not priced), interleaved,
// with MSM groups no narrower than its (or PLAN_TRADE_GROUP_BYTES), whose streamed cost
// (gpu_streamed_cost_of) is least; the earlier on a tie. A 32 GiB PoRep on a 20 GiB card took a 1
// GiB ring with 12 GiB groups there (2,146 ms a partition on an H100) where the 16 GiB card's plan,
// which fits it too, takes 1,993 ms (bench/results/h100/2026-12-07-predicted-time.md).
std::optional<gpu_plan> fastest_fitting(const std::vector<gpu_plan>& c, uint64_t budget,
                                        const query_sizes& q) {
  const auto fits = [&](const gpu_plan& p) { return p.device_peak_bytes <= budget; };
  const auto first = std::find_if(c.begin(), c.end(), fits);
  if (first == c.end()) return std::nullopt;
  const gpu_plan& f = *first;
  const auto comparable = [&](const gpu_plan& p) {
    return p.residency == gpu_residency::host && p.knobs.interleave_queries &&
           p.knobs.abc_on_device && p.knobs.abc_in_turn == f.knobs.abc_in_turn &&
           p.knobs.resident_queries == f.knobs.resident_queries;
  };
  if (!comparable(f)) return f;
  const uint64_t narrowest = std::min(f.knobs.msm_group_bytes, PLAN_TRADE_GROUP_BYTES);
  const gpu_time_reference reference;
  const auto cost = [&](const gpu_plan& p) {
    return gpu_streamed_cost_of(q, p.knobs, PLAN_OTHERS_SHARE, reference.link_bytes_per_s).total();
  };
  const gpu_plan* best = &f;
  double best_cost = cost(f);
  for (auto it = first + 1; it != c.end(); ++it) {
    if (!fits(*it) || !comparable(*it) || it->knobs.msm_group_bytes < narrowest) continue;
    const double each = cost(*it);
    if (each < best_cost) {
      best = &*it;
      best_cost = each;
    }
  }
  return *best;
}

}  // namespace

std::optional<gpu_plan> choose_gpu_plan_beside(const gpu_plan_request& r, const gpu_plan& whole,
                                               uint64_t held, uint64_t held_peak) {
  if (held + held_peak >= r.device_budget) return std::nullopt;
  gpu_plan_request beside = r;
  beside.device_budget = r.device_budget - held - held_peak;
  if (whole.device_peak_bytes <= beside.device_budget) return std::nullopt;
  beside.max_lanes = 1;
  return fastest_fitting(gpu_plan_candidates(beside), beside.device_budget, r.q);
}

result<gpu_plan> choose_gpu_plan(const gpu_plan_request& r) {
  const std::vector<gpu_plan> c = gpu_plan_candidates(r);
  if (auto p = fastest_fitting(c, r.device_budget, r.q)) return *p;
  uint64_t least = c.front().device_peak_bytes;
  for (const gpu_plan& p : c) least = std::min(least, p.device_peak_bytes);
  char msg[320];
  std::snprintf(msg, sizeof msg,
                "no GPU plan fits %.2f GiB of device memory: the smallest (parameters in host "
                "memory, smallest knobs) needs %.2f GiB, a card of %.2f GiB with the automatic "
                "budget (gpus.memory_budget: the card's memory minus 1 GiB)",
                double(r.device_budget) / double(1ull << 30), double(least) / double(1ull << 30),
                double(least) / double(1ull << 30) + 1);
  return status(status_code::resource_exhausted, msg);
}

std::string gpu_plan::to_json() const {
  char buf[720];
  std::snprintf(
      buf, sizeof buf,
      "{\"mode\":\"%s\",\"lanes\":%u,\"device_peak_bytes\":%llu,"
      "\"parameter_bytes\":%llu,\"fixed_bytes\":%llu,\"proof_peak_bytes\":%llu,"
      "\"lane_bytes\":%llu,\"host_bytes\":%llu,\"streamed_bytes\":%llu,"
      "\"msm_group_bytes\":%llu,\"gather_points\":%llu,\"ring_bytes\":%llu,"
      "\"abc\":\"%s\",\"interleaved\":%s,\"ring_after_abc\":%s,"
      "\"resident_queries\":\"%s\",\"h_window_bits\":%u,\"h_group_bytes\":%llu}",
      residency == gpu_residency::device ? "resident"
      : knobs.resident_queries != 0      ? "partial"
                                         : "streamed",
      lanes, (unsigned long long)device_peak_bytes, (unsigned long long)parameter_bytes,
      (unsigned long long)fixed_bytes, (unsigned long long)proof_peak,
      (unsigned long long)lane_bytes, (unsigned long long)host_bytes,
      (unsigned long long)streamed_bytes, (unsigned long long)knobs.msm_group_bytes,
      (unsigned long long)knobs.gather_points,
      (unsigned long long)(residency == gpu_residency::host ? knobs.ring_bytes : 0),
      !knobs.abc_on_device ? "host"
      : knobs.abc_in_turn  ? "device in turn"
                           : "device",
      knobs.interleave_queries ? "true" : "false", knobs.ring_after_abc ? "true" : "false",
      residency == gpu_residency::device ? "h,l,a,b_g1,b_g2"
                                         : gpu_query_names(knobs.resident_queries).c_str(),
      knobs.h_window_bits, (unsigned long long)knobs.h_group_bytes);
  return buf;
}

}  // namespace cuzk::groth16
