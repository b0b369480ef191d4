// SPDX-License-Identifier: Apache-2.0
// What every Groth16 backend shares: the five MSM results a backend computes (proof_parts), one
// timings struct, and the one epilogue that blinds the parts with r, s into a proof. The CPU
// prover (prover_cpu.hpp) and the GPU prover (prover_gpu.hpp) each have a start() that returns
// proof_parts; create_proof is start + finalize in both.
#pragma once

#include <chrono>

#include "cuzk/status.hpp"
#include "ec/point.hpp"
#include "ff/fields.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/// The heavy part of a proof, before any blinding: H = Σ h_i·h_query_i, L = Σ_aux w_j·l_j,
/// A_part = Σ_j w_j·A_j, B₁/B₂ = Σ_j w_j·B_j in G1/G2 (over the densities).
struct proof_parts {
  ec::g1_jacobian_t h, l, a_part, b_g1;
  ec::g2_jacobian_t b_g2;
};

/// Milliseconds per phase of one proof. The CPU measures wall clock; the GPU measures CUDA events
/// on the proof's stream (a phase then includes the host staging it does).
struct prover_timings {
  /// The witness (inputs and aux) uploaded to the device before a, b, c are evaluated from it
  /// (GPU, compiled plan only; 0 otherwise)
  double upload = 0;
  /// a, b, c evaluated from a compiled plan (r1cs::abc_plan); 0 when the assignment carried them
  double abc = 0;
  double ntt_a = 0, ntt_b = 0, ntt_c = 0;  ///< (upload +) iFFT + coset FFT of a, b, c
  double h_compute = 0;  ///< a·b − c, ·Z^-1, inverse coset FFT, truncation to m − 1
  double split = 0;      ///< 0/1/other classification of aux (for L, A, B)
  /// The MSMs. With H's, L's and A's chunks interleaved (gpu_memory_knobs::interleave_queries)
  /// each is its share of the one phase: its accumulators' setup, its chunks and its result (the
  /// three add up to the phase); with a, b, c in turn (abc_in_turn) abc is a's evaluation and
  /// b's and c's count with their transforms.
  double msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0, msm_b_g2 = 0;
  /// Parameters kept in host memory (GPU, host residency): the query bytes streamed to the
  /// device during the MSMs, the copy engine's time moving them (their rate is
  /// streamed_bytes / stream_copy; the copies overlap the MSMs), and how long the MSMs' stream
  /// waited for a chunk's copy (within the MSM times above: the part the link bounds).
  uint64_t streamed_bytes = 0;
  double stream_copy = 0, stream_wait = 0;
  /// GPU: the most device bytes the device's stream-ordered pool had in use during start()
  /// (cudaMemPoolAttrUsedMemHigh, reset at its start: every prover of the device counts), beside
  /// the parameters, plan and tables; what gpu_proof_bytes (gpu_memory.hpp) predicts. 0: no pool.
  uint64_t device_peak_bytes = 0;
  /// GPU: host milliseconds waiting for the device's other provers to finish their work
  /// (gpu::device_compute_lock; the witness upload overlaps them). Not part of start.
  double device_wait = 0;
  double start = 0;     ///< the whole start(): every phase above
  double epilogue = 0;  ///< finalize: the r/s combination and the three affine conversions
  double total = 0;     ///< create_proof from entry to return
};

/// Milliseconds of wall clock since t0: the provers' host-side phase timer.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// invalid_argument when δ₁ or δ₂ is the identity (such a key proves nothing).
status check_delta(const verifying_key& vk);

/// While alive on the calling thread, the GPU prover's start()s made on that thread are express
/// work (a PoSt beside PoRep, the engine's express lane): their kernels run on a stream of the
/// device's greatest priority, so the block scheduler starts their blocks before the pending
/// blocks of the device's other provers, and they do not wait for the device's compute lock
/// (gpu::device_compute_lock), which the other provers hold for whole partitions. The caller has
/// made sure device memory holds the express proof's working set beside the others' (the lock
/// is what keeps their working sets from meeting). The CPU prover ignores it. Nested scopes are
/// allowed; the thread is express until the outermost one ends.
class express_scope {
 public:
  express_scope();
  ~express_scope();
  express_scope(const express_scope&) = delete;
  express_scope& operator=(const express_scope&) = delete;

 private:
  bool outer_;
};
/// Whether an express_scope is alive on the calling thread.
bool express_requested();

/// The epilogue (bellperson prover/mod.rs, expanded):
///   A = α₁ + A_part + r·δ₁,  B = β₂ + B₂ + s·δ₂,
///   C = H + L + s·A_part + r·B₁ + r·s·δ₁ + s·α₁ + r·β₁.
/// invalid_argument when δ is the identity. Sets timings->epilogue.
result<proof> finalize(const verifying_key& vk, const proof_parts& parts, const ff::fr_t& r,
                       const ff::fr_t& s, prover_timings* timings = nullptr);

/// create_proof for any backend: δ is checked first (a bad key fails before the heavy work), then
/// `start(prover_timings*)` (the backend's start(), returning result<proof_parts>) and finalize;
/// timings->total covers both.
template <class Start>
result<proof> start_and_finalize(const verifying_key& vk, const ff::fr_t& r, const ff::fr_t& s,
                                 prover_timings* timings, Start&& start) {
  const auto t0 = std::chrono::steady_clock::now();
  prover_timings local;
  prover_timings& tm = timings ? *timings : local;
  tm = {};
  if (status st = check_delta(vk); !st) return st;
  auto parts = start(&tm);
  if (!parts) return parts.error();
  auto pf = finalize(vk, *parts, r, s, &tm);
  tm.total = ms_since(t0);
  return pf;
}

}  // namespace cuzk::groth16
