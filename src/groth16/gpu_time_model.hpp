// SPDX-License-Identifier: Apache-2.0
// A plan's predicted GPU time per proof (per partition), from one measured resident proof of the
// circuit and the plan's knobs (no device needed): what `cuzk plan` prints beside the plan's
// bytes, and docs/hardware.md's "how fast". The streamed path's extra work is priced by the
// streamed MSM's fitted cost (msm::cuda::accumulator_cost) and a per-chunk cost of the split
// MSMs fitted to the capped runs; the host link bounds what streams. Every constant names the run
// it was fitted to; docs/hardware.md sets the predictions beside the measured figures.
#pragma once

#include <string>

#include "groth16/gpu_memory.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/// One circuit's resident proof as measured on the reference card (one prover lane, the
/// parameters on the device): the whole proof's GPU time and its MSMs' share.
struct gpu_time_profile {
  double resident_ms = 0;  ///< one lane, steady state, per proof (partition)
  /// Two lanes overlapping each other's uploads and transforms, per proof; 0: not measured
  /// (the one-lane figure is used).
  double two_lanes_ms = 0;
  double msm_h_ms = 0;    ///< the H MSM within resident_ms
  double msm_lab_ms = 0;  ///< the L, A, B1 and B2 MSMs within resident_ms
  /// The share of the split MSMs' terms that are "other" (neither 0 nor 1): ≈ 0.1 for a
  /// witness of bits (PoRep, SnapDeals), ≈ 1 for a dense one (WindowPoSt). Their streamed
  /// chunks cost more per chunk (their kept buckets and passes).
  double others_share = 0;
  std::string record;  ///< the bench/results file with the measurement
  /// The same circuit's profile at `factor` times the rows (its 64 GiB sector against the
  /// measured 32 GiB one): every time scaled by the rows.
  gpu_time_profile scaled(double factor) const;
};

/// The reference card the profiles were measured on, and its measured host link.
struct gpu_time_reference {
  std::string card = "H100 80GB HBM3 SXM (132 SMs)";
  /// Bytes per second over the host link, measured by the streamed runs' copies (PCIe 5.0 x16:
  /// 54–55 GB/s; bench/results/h100/2026-12-07-others-piece-mps-caps.md). A PCIe 4.0 x16 card
  /// (RTX 3090/4090, A6000, L40S) moves ≈ 25 GB/s.
  double link_bytes_per_s = 54e9;
};

/// The prediction, and what it is made of (milliseconds per proof).
struct gpu_time_prediction {
  /// False (and no figure) where the model has no measured term for the plan: a, b, c
  /// evaluated on the host (the host's cores set the time), or host residency whose queries
  /// stream one after another instead of interleaved (its costs were measured only before the
  /// streamed MSMs' later changes). `why` says which.
  bool modelled = true;
  std::string why;
  double ms = 0;                 ///< the proof's GPU time, steady state
  double resident_ms = 0;        ///< the measured resident proof it starts from (scaled)
  double streamed_h_ms = 0;      ///< a streamed H above the resident H
  double streamed_split_ms = 0;  ///< the streamed L, A, B1, B2 chunks above their resident MSMs
  double link_ms = 0;            ///< the streamed bytes at the link rate (the MSMs' lower bound)
  bool link_bound = false;       ///< the link, not the kernels, sets the MSMs' time
};

/// What the parameters in host memory add to a proof's MSMs above their resident time, in ms,
/// for queries interleaved with a, b, c on the device (knobs k): a streamed H's extra cost
/// (msm::cuda::accumulator_cost at k's window, windows a pass and chunks against the resident
/// window in one chunk), each streamed split query's fixed and per-chunk cost for a witness whose
/// split terms are `others_share` neither 0 nor 1, and with the ring taken after a, b, c its
/// first slot's copy at the link's rate. The planner orders streamed plans by it
/// (choose_gpu_plan).
struct gpu_streamed_cost {
  double h_ms = 0, split_ms = 0, first_slot_ms = 0;
  double total() const { return h_ms + split_ms + first_slot_ms; }
};
gpu_streamed_cost gpu_streamed_cost_of(const query_sizes& q, const gpu_memory_knobs& k,
                                       double others_share, double link_bytes_per_s);

/// The time `plan` takes per proof of a circuit of query sizes q on the reference card, from the
/// circuit's resident profile:
///   device residency: the resident proof (two_lanes_ms with two lanes or more);
///   host residency: the resident proof (one lane) + a streamed H's extra cost + each streamed
///   split query's chunks × its per-chunk cost; the MSMs take at least the streamed bytes at
///   the link's rate; a ring after a, b, c adds one slot's copy. Not modelled
///   (modelled = false) where a, b, c are evaluated on the host or the queries do not
///   interleave. Not modelled (modelled = false)
///   where a, b, c are evaluated on the host.
gpu_time_prediction gpu_predicted_time(const query_sizes& q, const gpu_plan& plan,
                                       const gpu_time_profile& profile,
                                       const gpu_time_reference& reference = {});

}  // namespace cuzk::groth16
