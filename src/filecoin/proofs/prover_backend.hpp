// SPDX-License-Identifier: Apache-2.0
// The one seam between the proof API and the Groth16 backends: a prover_backend computes the
// proof_parts of an assignment (groth16/prover.hpp) for parameters it was made for; the caller
// blinds them with the shared groth16::finalize. Which backend runs is decided at run time by
// make_prover_backend, the only place that knows whether this build has CUDA.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/log.hpp"
#include "cuzk/status.hpp"
#include "groth16/assignment.hpp"
#include "groth16/gpu_memory.hpp"
#include "groth16/keys.hpp"
#include "groth16/params_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "r1cs/abc_plan.hpp"

namespace cuzk::filecoin::proofs {

/// A host range a backend page-locked (prover_backend::pin_host), unlocked on destruction.
class host_pin {
 public:
  virtual ~host_pin() = default;
};

class prover_backend {
 public:
  virtual ~prover_backend() = default;
  /// "cpu" or "gpu <ordinal>", for logs and timings.
  virtual const std::string& name() const = 0;
  /// The verifying key of the backend's parameters (for finalize and self-verification).
  virtual const groth16::verifying_key& vk() const = 0;
  /// Host bytes the backend holds (the decoded parameters on the CPU; the vk for a GPU).
  virtual uint64_t host_bytes() const = 0;
  /// Device bytes the backend holds (the resident parameters; 0 on the CPU).
  virtual uint64_t device_bytes() const = 0;
  /// The GPU's memory knobs for every later proof (groth16::gpu_memory_knobs, from the device's
  /// plan: groth16::choose_gpu_plan); nothing on the CPU. Parameters in host memory: a partially
  /// resident plan's queries are copied to the device now (only while no proof runs), so the
  /// status says whether they fit (resource_exhausted when not).
  virtual status set_memory_knobs(const groth16::gpu_memory_knobs&) { return status(); }
  /// The heavy part of one proof with the backend's parameters.
  virtual result<groth16::proof_parts> start(const groth16::assignment& asg, thread_pool& pool,
                                             groth16::prover_timings* timings) = 0;

  /// Page-locks [data, data + bytes) so this backend's uploads from it go as one DMA (the GPU:
  /// a 32 GiB PoRep partition's witness, 4.2 GB, at the link's ≈ 50 GB/s instead of the staged
  /// copy's ≈ 10–12 GB/s). Locked until the handle is destroyed, which must come before the
  /// memory is freed or moved. Null: nothing to gain (the CPU). Errors: the driver refused
  /// (proving still works from unlocked memory, only slower).
  virtual result<std::unique_ptr<host_pin>> pin_host(const void* data, size_t bytes);

  /// What prepare_plan(plan) makes the backend hold, for the caller to make room first.
  struct plan_memory {
    uint64_t host = 0, device = 0;
  };
  virtual plan_memory plan_memory_of(const r1cs::abc_plan& plan) const;
  /// Readies the backend to prove from `plan` (start_witness) and keeps it: the GPU uploads the
  /// plan (a 32 GiB PoRep partition's is ≈ 0.4 GB), the CPU allocates the a, b, c it evaluates
  /// into (3 × rows × 32 bytes); host_bytes() / device_bytes() include them from then on.
  /// Another plan replaces the first. Not concurrent with start or start_witness.
  status prepare_plan(const std::shared_ptr<const r1cs::abc_plan>& plan);
  /// The heavy part of one proof from the witness alone: `witness` carries inputs, aux and the
  /// densities (a, b, c empty) and a, b, c are evaluated from the circuit's compiled `plan` (the
  /// GPU on the device, the CPU on the host), prepared first when prepare_plan(plan) was not
  /// called. Errors: a witness whose counts are not the plan's (size_mismatch), start()'s.
  result<groth16::proof_parts> start_witness(const groth16::assignment& witness,
                                             const std::shared_ptr<const r1cs::abc_plan>& plan,
                                             thread_pool& pool, groth16::prover_timings* timings);

 protected:
  /// What prepare_plan does for this backend; this default holds nothing.
  virtual status ready_plan(const r1cs::abc_plan& plan);
  /// start_witness once `plan` is ready; this default evaluates a, b, c on the host into buffers
  /// that live for the call, then runs start().
  virtual result<groth16::proof_parts> start_from_plan(const groth16::assignment& witness,
                                                       const r1cs::abc_plan& plan,
                                                       thread_pool& pool,
                                                       groth16::prover_timings* timings);
  /// a, b, c of `plan` from `witness` into a, b, c (num_rows() each) on `pool`, then start().
  result<groth16::proof_parts> start_evaluated(const groth16::assignment& witness,
                                               const r1cs::abc_plan& plan, std::span<ff::fr_t> a,
                                               std::span<ff::fr_t> b, std::span<ff::fr_t> c,
                                               thread_pool& pool, groth16::prover_timings* timings);

 private:
  std::shared_ptr<const r1cs::abc_plan> ready_;  // the plan ready_plan() last succeeded for
};

/// A CUDA device this machine has (none in a build without CUDA).
struct gpu_device_t {
  int ordinal = 0;
  std::string name;
  uint64_t total_bytes = 0;
  /// Why this binary cannot run kernels on it (no native code or PTX for its architecture:
  /// gpu::check_device_supported's message); empty when it can.
  std::string unsupported;
};
std::vector<gpu_device_t> list_gpus();

/// Where a GPU backend keeps the parameters' query points (groth16::cuda::residency).
enum class srs_residency {
  device,  ///< uploaded once, resident in device memory
  host,    ///< page-locked host memory, streamed to the device during every proof's MSMs
};

/// The free memory of CUDA device `device` now (0 without CUDA or for a device that fails).
uint64_t gpu_free_bytes(int device);

/// Refuses, before any work, a request the build cannot serve at all: gpu_device >= 0 in a build
/// without CUDA is invalid_argument.
status check_backend_request(int gpu_device);

/// The backend for the parameters in `file`, decoded with `checks` on `pool`: the CPU for
/// gpu_device < 0 (the parameters decoded into host memory); for gpu_device >= 0 in a CUDA build,
/// the GPU of that ordinal with the parameters streamed from the mapped file to the device in
/// chunks (no decoded host copy), or with `residency` host decoded into page-locked host memory
/// and streamed to the device by every proof — or, when the machine has no CUDA device at all,
/// the CPU, said through `log` at warn level. A device ordinal that does not exist on a machine
/// that has devices, a decode failure or a failed upload is an error (naming the device for the
/// GPU). `progress` reports the decode (CPU: "load") or the upload (GPU: "upload") in file bytes.
result<std::unique_ptr<prover_backend>> make_prover_backend(
    const groth16::params_file& file, groth16::point_checks checks, int gpu_device,
    thread_pool& pool, const log_sink& log, const progress_fn& progress = {},
    srs_residency residency = srs_residency::device);

/// The Groth16 setup's fixed-base backend (groth16/setup.hpp) for `gpu_device`: nullptr (the
/// CPU) when gpu_device < 0, the CUDA one (groth16/setup_gpu.hpp) otherwise; invalid_argument in
/// a build without CUDA or for a device that does not exist (no silent CPU fallback: generating
/// 32 GiB parameters on the CPU instead would take days, not minutes).
result<std::unique_ptr<groth16::fixed_base_backend>> make_setup_backend(int gpu_device,
                                                                        thread_pool& pool);

}  // namespace cuzk::filecoin::proofs
