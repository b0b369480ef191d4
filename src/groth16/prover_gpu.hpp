// SPDX-License-Identifier: Apache-2.0
// The GPU Groth16 prover: the math of prover_cpu.hpp (same h, same MSMs, same epilogue, so the
// same proof bytes for the same r, s) with the NTTs, the pointwise h step and every MSM (B_G2
// included) on one CUDA device. The parameters are uploaded once into a device_parameters object
// (the SRS stays resident for any number of proofs); start() does the GPU work and returns the
// proof_parts, the shared finalize() (prover.hpp) is the host epilogue with r, s, so an engine
// can overlap one partition's epilogue with the next one's GPU work. Free of CUDA headers: every
// CUDA failure is caught at this API's edge and returned as a status naming the call.
// docs/notes/gpu.md.
#pragma once

#include <cstddef>
#include <memory>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ec/point.hpp"
#include "ff/fields.hpp"
#include "gpu/runtime.hpp"
#include "groth16/abc_gpu.hpp"
#include "groth16/assignment.hpp"
#include "groth16/gpu_memory.hpp"
#include "groth16/keys.hpp"
#include "groth16/params_io.hpp"
#include "groth16/prover.hpp"

namespace cuzk::groth16::cuda {

/// Where device_parameters keep the query points between proofs.
enum class residency {
  /// In device memory, uploaded once (the SRS resident: no transfer per proof).
  device,
  /// In page-locked host memory, streamed to the device chunk by chunk during each proof's MSMs
  /// through a ring of two device buffers, the copy of chunk k + 1 overlapping the work on chunk
  /// k: for cards whose memory cannot hold the parameters with the prover's working set (a
  /// 32 GiB PoRep's 47 GB on a 24 GB card). Every proof moves every query point over the link.
  host,
};

/// The device bytes of the host residency's ring (two buffers of half of it), by default.
constexpr size_t default_ring_bytes = size_t(3) << 30;

/// Where stream_from turns a .params file's encodings into points.
enum class params_decoder {
  device,  ///< on the GPU, where the point checks allow (the default: the host only copies)
  host,    ///< on the host's thread pool (the subgroup checks; and the baseline it is measured by)
};

/// The parameters' query points (h, l, a, b_g1, b_g2) for one device, kept in device memory or in
/// page-locked host memory (residency); vk stays on the host (the epilogue needs it). Not
/// copyable; frees its memory on destruction.
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
  /// Streams the queries of a mapped .params file to device `device` without a decoded host copy,
  /// through two pinned staging chunks (the host holds those, not the SRS; the mapping's pages
  /// are released as they are consumed). With params_decoder::device and checks on_curve_only or
  /// none, the chunks carry the file's bytes unchanged and a kernel decodes each section in place
  /// (ec/serialization_gpu.hpp): the host only copies. Otherwise (the subgroup checks have no
  /// device form) each chunk is decoded on `pool` before it is copied. The vk is decoded on the
  /// host. Errors, the same on both paths: the decode status naming the first bad point in file
  /// order ("l[17]: not_on_curve ..."), or a CUDA failure as upload's. `progress` gets ("upload",
  /// bytes, query_bytes()) after each chunk.
  static result<std::unique_ptr<device_parameters>> stream_from(
      const params_file& file, point_checks checks, int device, thread_pool& pool,
      const progress_fn& progress = {}, params_decoder decoder = params_decoder::device);
  /// Host residency: the queries of `params` copied (or those of `file` loaded with `checks`,
  /// chunk by chunk, releasing the mapping's pages) into page-locked host memory for device
  /// `device`; each start() streams them through a device ring of `ring_bytes`. From a file, with
  /// params_decoder::device and checks on_curve_only or none, the pool copies the file's bytes
  /// into the page-locked arrays and the device decodes them through two 64 MiB scratch buffers
  /// (each chunk up and back over PCIe); otherwise, or when the device cannot give the scratch,
  /// the pool decodes. Errors as stream_from's. `progress` gets ("load", bytes, query_bytes())
  /// after each chunk.
  static result<std::unique_ptr<device_parameters>> host_resident(
      const parameters& params, int device, size_t ring_bytes = default_ring_bytes);
  static result<std::unique_ptr<device_parameters>> host_resident(
      const params_file& file, point_checks checks, int device, thread_pool& pool,
      const progress_fn& progress = {}, size_t ring_bytes = default_ring_bytes,
      params_decoder decoder = params_decoder::device);
  ~device_parameters();
  device_parameters(const device_parameters&) = delete;
  device_parameters& operator=(const device_parameters&) = delete;

  int device() const;
  /// The device context the bases live on (its NTT tables and staging sets serve every start()).
  cuzk::gpu::device_context& context() const;
  const verifying_key& vk() const;
  residency where() const;
  /// Device bytes held by the bases (in host residency those of a partially resident plan's
  /// queries, gpu_memory_knobs::resident_queries; its ring lives for one start()).
  size_t bytes() const;
  /// Page-locked host bytes held by the bases (0 in device residency).
  size_t host_bytes() const;
  /// The device bytes one start() holds for the ring (0 in device residency).
  size_t ring_bytes() const;
  query_sizes sizes() const;
  /// The MSM window-group bytes, the gather piece and a, b, c in turn (gpu_memory_knobs) of every
  /// later start() (abc_on_device is which start() is called), and in host residency the ring
  /// (at least gpu_min_ring_bytes). Safe beside running start()s: each reads them once. The
  /// knobs in effect: memory_knobs().
  /// In host residency, resident_queries also copies those queries from the page-locked arrays
  /// to the device (and frees the ones no longer named): only while no start() runs, and an
  /// error (out of device memory) leaves the queries copied so far on the device (bytes() and
  /// memory_knobs() tell which).
  status set_memory_knobs(const gpu_memory_knobs& knobs);
  gpu_memory_knobs memory_knobs() const;

  /// Device pointers to the queries (for cudaMemcpy or kernels; never dereference on the host),
  /// device residency only (null pointers in host residency).
  /// start() runs on streams of its own: writes through these must be complete before it.
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

/// The GPU part of a proof on dp's device: h on the device, then H, L, A, B1, B2 MSMs with the
/// 0/1 split done on the device (ones by bitmap batch addition, others by Pippenger over the
/// gathered bases, zeros skipped). Checks the sizes as the CPU start (prover_cpu.hpp) does.
/// Runs on a stream of its own on dp's context (several threads may call it on one dp) and
/// returns when the parts are on the host. `pool` copies the host arrays (a, b, c, aux,
/// densities) into pinned staging buffers in parallel while the previous chunk is transferred.
/// Timings are CUDA-event milliseconds.
result<proof_parts> start(const device_parameters& dp, const assignment& asg, thread_pool& pool,
                          prover_timings* timings = nullptr);

/// The same with a, b, c evaluated on the device by `abc` (abc_gpu.hpp) from the witness: the
/// assignment carries only inputs, aux and the densities (asg.a, b, c empty), so the host holds
/// the witness alone, and aux goes to the device once (the splits reuse it). `abc` must be on
/// dp's device and for the witness's counts; the QAP has abc.num_rows() rows.
result<proof_parts> start(const device_parameters& dp, const device_abc_program& abc,
                          const assignment& asg, thread_pool& pool,
                          prover_timings* timings = nullptr);

/// start + the shared finalize (prover.hpp).
result<proof> create_proof(const device_parameters& dp, const assignment& asg, const ff::fr_t& r,
                           const ff::fr_t& s, thread_pool& pool, prover_timings* timings = nullptr);

/// Device memory currently free and total on `device` (cudaMemGetInfo), for leak checks and
/// sizing; internal status on failure.
result<std::pair<size_t, size_t>> memory_info(int device);

}  // namespace cuzk::groth16::cuda
