// SPDX-License-Identifier: Apache-2.0
// a, b, c evaluated on the device from the witness (issue 19): a_i = <A_i, w>, b_i, c_i for every
// QAP row, from a circuit's compiled plan (r1cs::abc_plan: the prologue rows, one block template
// repeated over the K blocks' own input/aux windows with a per-block table of shared references,
// the coefficient table) uploaded once per circuit shape, so the host hands the prover only the
// witness (inputs and aux: 4.2 GB for a 32 GiB PoRep partition instead of 16.7 GB with a, b, c).
// Free of CUDA headers, like prover_gpu.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "gpu/runtime.hpp"
#include "r1cs/abc_plan.hpp"

namespace cuzk::groth16::cuda {

/// A plan in device memory on one device, for any number of evaluations (concurrent ones on
/// different streams included: it is read-only after upload).
class device_abc_program {
 public:
  /// Checks the plan (CSR offsets monotone and in range, every coefficient id in the table with
  /// ids 0 and 1 being +1 and −1, every reference of every kind inside its window, the prologue
  /// reading only absolute references, the blocks' windows inside the witness) and uploads it.
  /// invalid_argument names the first fault; a CUDA failure is a status naming the call.
  static result<std::unique_ptr<device_abc_program>> upload(const r1cs::abc_plan& plan,
                                                            cuzk::gpu::device_context& ctx);
  ~device_abc_program();
  device_abc_program(const device_abc_program&) = delete;
  device_abc_program& operator=(const device_abc_program&) = delete;

  int device() const;
  uint64_t num_rows() const;
  uint64_t num_inputs() const;
  uint64_t num_aux() const;
  size_t device_bytes() const;

  /// Enqueues on `strm`: a, b, c (device arrays of num_rows() Fr each, Montgomery form like the
  /// witness) from the device witness `inputs` (num_inputs()) and `aux` (num_aux()), exactly
  /// abc_plan::evaluate. Device pointers, never dereferenced on the host; no synchronisation. A
  /// null output is not evaluated (a, b, c one at a time through fewer buffers: the work of the
  /// three calls is that of one). A failed launch throws gpu::gpu_error, as every CUDA call of
  /// the runtime layer does.
  void evaluate(const ff::fr_t* inputs, const ff::fr_t* aux, ff::fr_t* a, ff::fr_t* b, ff::fr_t* c,
                const cuzk::gpu::stream& strm) const;

  struct impl;

 private:
  explicit device_abc_program(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk::groth16::cuda
