// SPDX-License-Identifier: Apache-2.0
// The GPU Groth16 prover: the math of prover_cpu.hpp (same h, same MSMs, same epilogue, so the
// same proof bytes for the same r, s) with the NTTs, the pointwise h step and every MSM (B_G2
// included) on one CUDA device. The parameters are uploaded once into a device_parameters object
// (the SRS stays resident for any number of proofs); start() does the GPU work and returns the
// group elements, finalize() is the host epilogue with r, s, so an engine can overlap one
// partition's epilogue with the next one's GPU work. Free of CUDA headers: every CUDA failure is
// caught at this API's edge and returned as a status naming the call. docs/notes/gpu.md.
#pragma once

#include <cstddef>
#include <memory>

#include "base/status.hpp"
#include "base/thread_pool.hpp"
#include "ec/point.hpp"
#include "ff/fields.hpp"
#include "groth16/assignment.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16::gpu {

/// Milliseconds per phase of one GPU proof. GPU phases are measured with CUDA events on the
/// device's stream (they include the host-side staging each phase does: bitmap/scalar uploads).
struct gpu_prover_timings {
  float ntt_a = 0, ntt_b = 0, ntt_c = 0;  ///< upload + iFFT + coset FFT of a, b, c
  float h_compute = 0;                    ///< (a·b − c)·Z^-1 and the inverse coset FFT
  float msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0, msm_b_g2 = 0;
  float gpu_total = 0;  ///< first to last event of start()
  double split = 0;     ///< device: aux upload + 0/1/other split of L, A, B (events)
  double epilogue = 0;  ///< host: finalize (wall clock)
};

/// The parameters' query points in device memory (h, l, a, b_g1, b_g2), uploaded once; vk stays
/// on the host (the epilogue needs it). Not copyable; frees its memory on destruction.
class device_parameters {
 public:
  /// Uploads every query of `params` to device `device`. A CUDA failure (no such device, out of
  /// memory) is a status naming the call.
  static result<std::unique_ptr<device_parameters>> upload(const parameters& params, int device);
  /// Device memory for queries of the given sizes (contents undefined; `sizes.ic` must equal
  /// vk.ic.size()), to be filled through queries(): the way to load a large SRS chunk by chunk
  /// without a whole host copy, or to fill synthetic bases on the device for benchmarks.
  static result<std::unique_ptr<device_parameters>> allocate(const verifying_key& vk,
                                                             const query_sizes& sizes, int device);
  ~device_parameters();
  device_parameters(const device_parameters&) = delete;
  device_parameters& operator=(const device_parameters&) = delete;

  int device() const;
  const verifying_key& vk() const;
  /// Device bytes held by the bases.
  size_t bytes() const;
  query_sizes sizes() const;

  /// Device pointers to the queries (for cudaMemcpy or kernels; never dereference on the host).
  struct device_queries {
    ec::g1_affine_t *h, *l, *a, *b_g1;
    ec::g2_affine_t* b_g2;
  };
  device_queries queries();

  struct impl;
  const impl& get() const { return *impl_; }

 private:
  explicit device_parameters(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

/// What start() computes: the five MSM results, before any blinding.
struct proof_parts {
  ec::g1_jacobian_t h, l, a_part, b_g1;
  ec::g2_jacobian_t b_g2;
};

/// The GPU part of a proof on dp's device: h on the device, then H, L, A, B1, B2 MSMs with the
/// 0/1 split done on the device (ones by bitmap batch addition, others by Pippenger over the
/// gathered bases, zeros skipped). Checks the sizes as create_proof (prover_cpu.hpp) does.
/// Synchronous. `pool` copies the host arrays (a, b, c, aux, densities) into pinned staging
/// buffers in parallel while the previous chunk is transferred.
result<proof_parts> start(const device_parameters& dp, const assignment& asg, thread_pool& pool,
                          gpu_prover_timings* timings = nullptr);

/// The epilogue, identical to prover_cpu's: A = α₁ + A_part + r·δ₁, B = β₂ + B₂ + s·δ₂,
/// C = H + L + s·A_part + r·B₁ + r·s·δ₁ + s·α₁ + r·β₁. invalid_argument when δ is the identity.
result<proof> finalize(const verifying_key& vk, const proof_parts& parts, const ff::fr_t& r,
                       const ff::fr_t& s, gpu_prover_timings* timings = nullptr);

/// start + finalize.
result<proof> create_proof(const device_parameters& dp, const assignment& asg, const ff::fr_t& r,
                           const ff::fr_t& s, thread_pool& pool,
                           gpu_prover_timings* timings = nullptr);

/// Device memory currently free and total on `device` (cudaMemGetInfo), for leak checks and
/// sizing; internal status on failure.
result<std::pair<size_t, size_t>> memory_info(int device);

}  // namespace cuzk::groth16::gpu
