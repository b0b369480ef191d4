// SPDX-License-Identifier: Apache-2.0
// The GPU prover's device memory, from formulas (no device needed): every buffer prover_gpu.cu
// takes for one proof, phase by phase, and what a device holds for a circuit beside its proofs.
// One place for these formulas: prover_gpu.cu allocates what they count (the order and lifetime
// of its buffers are the phases below), the MSM's own share is msm::cuda::msm_scratch_bytes and
// batch_add_scratch_bytes, the NTT tables ntt::tile::device_table_bytes. The engine plans a GPU
// from them (filecoin/proofs/gpu_plan.hpp); the `gpu` tests compare them with the device pool's
// measured peak (prover_timings::device_peak_bytes).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/status.hpp"

#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/// What a proof may take on the device besides its fixed buffers: the knobs a plan turns for a
/// smaller card (fewer MSM windows at a time, the scattered "other" terms gathered in pieces).
struct gpu_memory_knobs {
  /// Device bytes one group of MSM windows may take (msm_config::device_group_bytes).
  uint64_t msm_group_bytes = uint64_t(12) << 30;
  /// The most "other" (neither 0 nor 1) terms of one MSM gathered at once: bases and scalars
  /// gathered and summed in pieces of this many, so a dense witness (WindowPoSt) needs no more
  /// than a sparse one.
  uint64_t gather_points = uint64_t(1) << 25;
  /// Parameters in host memory: the device ring they stream through (two halves).
  uint64_t ring_bytes = uint64_t(3) << 30;
  /// a, b, c evaluated on the device from the compiled plan's program (the witness uploaded);
  /// false: evaluated on the host into buffers kept for the next proof and uploaded (the device
  /// holds neither the program nor the witness during the transforms: what a 16 GiB card needs
  /// for a 32 GiB PoRep).
  bool abc_on_device = true;
  /// With abc_on_device: a, b, c evaluated and transformed one after another through two domain
  /// buffers (A·B formed before C is evaluated into B's buffer), so the transforms hold 2·m Fr
  /// instead of 3·m (8.6 GB instead of 12.9 at 2^27): what lets a 16 GiB card keep the witness
  /// and the compiled plan on the device for a 32 GiB PoRep.
  bool abc_in_turn = false;
  /// Parameters in host memory, a, b, c on the device: H's chunks and L's and A's interleaved
  /// over one stream through a ring of gpu_ring_slots slots (L and A split before H, their
  /// accumulators live beside H's), so the link fetches L and A while H's chunks are summed
  /// instead of the two taking turns.
  bool interleave_queries = false;
  /// Parameters in host memory: the ring taken after a, b, c are transformed and the quotient
  /// formed (their domain buffers back in the pool), so the transforms' peak holds no ring; the
  /// first chunks' copies no longer overlap the transforms (one slot's copy waits: 768 MiB ≈
  /// 14 ms at the H100's 54 GB/s). What lets a 12 GiB card stream a 32 GiB SnapDeals partition
  /// through a 256 MiB ring instead of 64 MiB (16 MiB chunks, each with its fixed cost): its H,
  /// L and A phase 8.30 → 3.31 s on an H100
  /// (bench/results/h100/2026-12-07-engine-gpu-snap-caps.md).
  bool ring_after_abc = false;
  /// Parameters in host memory: the queries (gpu_query bits) also kept on the device, a
  /// partially resident plan. Their MSMs read the device copy and cross no link; the rest stream
  /// through the ring. With interleave_queries, the resident ones among H, L and A are summed on a
  /// second stream while the others stream (prover_gpu.cu), so the link stays busy beside H's
  /// kernels instead of waiting for them.
  unsigned resident_queries = 0;
  /// Parameters in host memory, H streamed: its accumulator's window width and the device bytes
  /// of its window groups (msm_config::window_bits, device_group_bytes). 0: msm_group_bytes'
  /// choice (msm::cuda::plan_accumulator: buckets within a quarter of the group bytes). The
  /// planner widens H's window into what the plan leaves of the budget (gpu_memory.cpp
  /// widen_streamed_h): H is the streamed path's costliest MSM, and its window the part of its
  /// cost that memory buys.
  unsigned h_window_bits = 0;
  uint64_t h_group_bytes = 0;
  bool operator==(const gpu_memory_knobs&) const = default;
};

/// The smallest ring host residency takes: halves of 64 G2 points (a whole bitmap word of
/// points; 128 G1 points) and room for their alignment.
constexpr uint64_t gpu_min_ring_bytes = 2 * 64 * sizeof(g2_affine_t) + 512;

/// The ring's slots: 4 when the queries interleave and a slot still holds a bitmap word of G2
/// points (64, and room for alignment), else 2 (each query's chunks after the last one's). Four
/// keep the link two chunks ahead while an H chunk is summed (H's chunks take ≈ 4× their copy
/// in SMs, L's and A's a third of it); eight halved the chunks and cost more per chunk than the
/// look-ahead gained (bench/results/h100/2026-12-06-streamed-msm.md).
constexpr size_t gpu_ring_max_slots = 4;
inline size_t gpu_ring_slots(uint64_t ring_bytes, bool interleave) {
  return interleave && ring_bytes / gpu_ring_max_slots >= gpu_min_ring_bytes / 2
             ? gpu_ring_max_slots
             : 2;
}
/// Bytes of one slot (a multiple of 256), and the points of point_bytes one chunk holds (whole
/// 64-bit bitmap words).
inline uint64_t gpu_ring_slot_bytes(uint64_t ring_bytes, size_t slots) {
  return ring_bytes / slots / 256 * 256;
}
inline uint64_t gpu_slot_points(uint64_t slot_bytes, uint64_t point_bytes) {
  return slot_bytes / point_bytes / 64 * 64;
}
inline uint64_t gpu_ring_points_per_chunk(uint64_t ring_bytes, size_t slots, uint64_t point_bytes) {
  return gpu_slot_points(gpu_ring_slot_bytes(ring_bytes, slots), point_bytes);
}

/// The MSM group bytes of a split's "other" terms streamed into one accumulator (host residency):
/// an eighth of the proof's, at least 64 MiB. The others are about a tenth of a PoRep split's
/// terms, where the window barely matters (2^23.6 terms: c = 16 costs 2 % more additions than
/// c = 19), so their buckets and sort scratch leave the memory to H's window.
inline uint64_t gpu_others_group_bytes(uint64_t msm_group_bytes) {
  return std::max<uint64_t>(msm_group_bytes / 8, uint64_t(64) << 20);
}

/// The device bytes of a streamed H's window groups: its own where the planner widened its
/// window (gpu_memory_knobs::h_group_bytes), else every MSM's.
inline uint64_t gpu_h_group_bytes(const gpu_memory_knobs& k) {
  return k.h_group_bytes != 0 ? k.h_group_bytes : k.msm_group_bytes;
}

/// Where the parameters' points are for a proof.
enum class gpu_residency { device, host };

/// The five queries as bits of gpu_memory_knobs::resident_queries.
enum gpu_query : unsigned {
  gpu_query_h = 1u << 0,
  gpu_query_l = 1u << 1,
  gpu_query_a = 1u << 2,
  gpu_query_b_g1 = 1u << 3,
  gpu_query_b_g2 = 1u << 4,
};
constexpr unsigned gpu_all_queries = 0x1f;
/// "h,l,a" for the bits set (lower case, in that order; "" for none).
std::string gpu_query_names(unsigned queries);

/// One proof's device bytes beyond the parameters, the compiled plan and the NTT tables, at each
/// phase of prover_gpu.cu's start (the largest is the proof's peak), for query sizes q (the
/// witness counts follow: inputs = ic, aux = l, domain m = h + 1, a and b terms at most a − ic
/// and b_g1), whatever the witness's values (every term "other" at worst, up to gather_points).
struct gpu_proof_memory {
  uint64_t abc = 0;      ///< a, b, c over the domain (+ the witness when it is on the device)
  uint64_t msm_h = 0;    ///< h and the H MSM
  uint64_t h_msm = 0;    ///< the H MSM's own bytes within msm_h (a streamed H: its accumulator)
  uint64_t split = 0;    ///< the 0/1 splits of L, A and B being built
  uint64_t msm_lab = 0;  ///< the L, A, B1, B2 MSMs over the splits
  uint64_t peak() const;
  /// The witness (inputs and aux) a proof uploads before it takes the device (the engine's second
  /// lane holds this while the first one's kernels run).
  uint64_t witness = 0;
};

/// `witness_on_device`: a, b, c evaluated on the device from a compiled plan (the engine's path):
/// the witness is uploaded first and stays until the last MSM. Otherwise a, b, c come from the
/// host and aux goes up after h.
gpu_proof_memory gpu_proof_bytes(const query_sizes& q, gpu_residency where, bool witness_on_device,
                                 const gpu_memory_knobs& knobs);

/// Device bytes a circuit's parameters hold resident: the five queries (query_bytes), or in host
/// residency those of `resident_queries` (gpu_query bits; a partially resident plan).
uint64_t gpu_parameter_bytes(const query_sizes& q, gpu_residency where,
                             unsigned resident_queries = 0);
/// Device bytes of the NTT tables for the domain of q (one copy per device and domain size).
uint64_t gpu_ntt_table_bytes(const query_sizes& q);

/// A GPU's plan for a circuit: where its parameters live, how many prover lanes may prove side
/// by side, the knobs, and the device bytes it holds at its peak (all formulas above).
struct gpu_plan {
  gpu_residency residency = gpu_residency::device;
  unsigned lanes = 1;
  gpu_memory_knobs knobs;
  uint64_t parameter_bytes = 0;  ///< resident parameters (gpu_parameter_bytes)
  uint64_t fixed_bytes = 0;      ///< the compiled plan's program and the NTT tables
  uint64_t proof_peak = 0;       ///< one proof's peak (gpu_proof_bytes(...).peak())
  uint64_t lane_bytes = 0;       ///< each further lane's witness, held while it waits
  uint64_t device_peak_bytes = 0;
  uint64_t host_bytes = 0;      ///< page-locked host bytes (parameters in host memory)
  uint64_t streamed_bytes = 0;  ///< bytes over the host link per proof
  std::string to_json() const;
};

/// What a plan is chosen for.
struct gpu_plan_request {
  query_sizes q{};
  uint64_t device_budget = 0;     ///< bytes the plan may hold on the device
  uint64_t program_bytes = 0;     ///< the compiled a, b, c plan's device program (0: none)
  unsigned max_lanes = 2;         ///< gpus.gpu_workers_per_device
  bool witness_on_device = true;  ///< a, b, c from the compiled plan (the engine's path)
};

/// The plans in the order of preference: resident with max_lanes lanes, then fewer, then the
/// smaller knobs, then the parameters in host memory (one lane) with default and smaller knobs
/// and rings.
std::vector<gpu_plan> gpu_plan_candidates(const gpu_plan_request& r);
/// The first candidate that fits — or, where that one streams its parameters interleaved, the
/// least costly by gpu_streamed_cost_of (gpu_time_model.hpp) among the fitting candidates like it
/// (the same residency, queries on the device and a, b, c mode, MSM groups of 4 GiB or its own
/// at the narrowest); resource_exhausted naming the smallest device that would prove the
/// circuit (the last candidate's peak) when none does.
result<gpu_plan> choose_gpu_plan(const gpu_plan_request& r);
/// The plan for a circuit that must prove now beside circuits already on the device, which hold
/// `held` bytes there and need `held_peak` more while their proofs run (their proof peak and the
/// witnesses of their other lanes): the one-lane plan choose_gpu_plan would take within
/// budget − held − held_peak.
/// nullopt when `whole` (choose_gpu_plan(r), the plan for the whole budget) fits beside them as
/// it is, or when no plan fits what they leave (the circuit then waits for them to end).
/// A 32 GiB WindowPoSt beside two 32 GiB PoRep lanes on a 141 GB card: resident with one lane
/// and 1 GiB MSM groups (73.5 GB of the 73.5 they leave) now; on an 80 GB card nothing fits.
std::optional<gpu_plan> choose_gpu_plan_beside(const gpu_plan_request& r, const gpu_plan& whole,
                                               uint64_t held, uint64_t held_peak);

}  // namespace cuzk::groth16
