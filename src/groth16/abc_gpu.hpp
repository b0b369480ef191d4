// SPDX-License-Identifier: Apache-2.0
// a, b, c evaluated on the device from the witness (issue 19): a_i = <A_i, w>, b_i, c_i for every
// QAP row, from a compact program of the constraint matrices uploaded once per circuit shape, so
// the host hands the prover only the witness (inputs and aux: 4.2 GB for a 32 GiB PoRep partition
// instead of 16.7 GB with a, b, c). The program exploits the shape of the Filecoin circuits: a
// prologue, then K identically shaped blocks (one per challenge or sector slot), then the input
// rows. Each distinct row shape is a template (CSR rows); a segment repeats a template over
// consecutive rows, the repetition k reading its own aux window (aux_base + k·aux_stride). Free of
// CUDA headers, like prover_gpu.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "base/status.hpp"
#include "ff/fields.hpp"
#include "gpu/runtime.hpp"

namespace cuzk::groth16::gpu {

/// Column code of a template term. Clear top bit: an absolute variable index in matrices.hpp's
/// column space (inputs [0, num_inputs), then aux). Set: aux variable number (code & ~bit) of the
/// repetition's own window, i.e. aux[aux_base + k·aux_stride + (code & ~bit)].
inline constexpr uint32_t abc_relative_column = 0x8000'0000u;

/// One matrix of a template in CSR form: row r's terms are [row_offsets[r], row_offsets[r + 1]),
/// each a column code and an index into the program's coefficient table.
struct abc_rows_view {
  std::span<const uint32_t> row_offsets;  ///< rows + 1 entries, row_offsets[0] == 0
  std::span<const uint32_t> columns;
  std::span<const uint32_t> coeff_index;
};

struct abc_template_view {
  uint32_t rows = 0;
  abc_rows_view a, b, c;
};

/// Rows [first_row, first_row + repeat·rows) are `repeat` copies of template `template_index`.
struct abc_segment {
  uint64_t first_row = 0;
  uint32_t template_index = 0;
  uint64_t repeat = 1;
  uint64_t aux_base = 0;
  uint64_t aux_stride = 0;
};

/// What upload() reads; everything may be freed after it returns. The segments must cover
/// [0, num_rows) exactly, in any order.
struct abc_program_view {
  std::span<const ff::fr_t> coefficients;
  std::span<const abc_template_view> templates;
  std::span<const abc_segment> segments;
  uint64_t num_rows = 0;  ///< constraints + one row per input (matrices.hpp num_rows())
  uint64_t num_inputs = 0;
  uint64_t num_aux = 0;
};

/// The program in device memory on one device, for any number of evaluations (concurrent ones on
/// different streams included: it is read-only after upload).
class device_abc_program {
 public:
  /// Validates the program (CSR offsets monotone and in range, every coefficient index in the
  /// table, every column inside the witness for every repetition, the segments tiling the rows)
  /// and uploads it. invalid_argument names the first fault; a CUDA failure is a status naming
  /// the call.
  static result<std::unique_ptr<device_abc_program>> upload(const abc_program_view& program,
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
  /// witness) from the device witness `inputs` (num_inputs()) and `aux` (num_aux()). Device
  /// pointers, never dereferenced on the host; no synchronisation. A failed launch throws
  /// gpu::gpu_error, as every CUDA call of the runtime layer does.
  void evaluate(const ff::fr_t* inputs, const ff::fr_t* aux, ff::fr_t* a, ff::fr_t* b, ff::fr_t* c,
                const cuzk::gpu::stream& strm) const;

  struct impl;

 private:
  explicit device_abc_program(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk::groth16::gpu
