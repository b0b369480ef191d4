// SPDX-License-Identifier: Apache-2.0
// The device a, b, c evaluator (abc_gpu.hpp). One thread per QAP row computes that row of all three
// matrices: Σ coeff·w over the row's terms. Consecutive threads take consecutive rows of one
// repetition, so the output writes coalesce and the template (shared by every repetition) stays in
// L2. Terms are packed as (column code, coefficient code) pairs; the coefficient code's low two
// bits say +1, −1 or "multiply by table[code >> 2]", so the common ±1 terms cost one addition.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ff/mont_device.cuh"
#include "gpu/cuda_status.hpp"
#include "gpu/device_memory.cuh"
#include "groth16/abc_gpu.hpp"

namespace cuzk::groth16::gpu {
namespace {

using cuzk::gpu::device_buffer;
using cuzk::gpu::device_scope;
using ff::fr_t;
using fr_d = ff::device::fr_d;

enum coeff_class : uint32_t { plus_one = 0, minus_one = 1, general = 2 };

struct csr_dev {
  const uint32_t* offsets;
  const uint2* terms;  // x: column code, y: coefficient code (index << 2 | class)
};

struct witness_dev {
  const fr_d* inputs;
  const fr_d* aux;
  uint32_t num_inputs;
  uint64_t window;  // this repetition's aux base
};

__device__ __forceinline__ fr_d row_value(const csr_dev& m, uint32_t r, const witness_dev& w,
                                          const fr_d* coeffs) {
  fr_d acc = fr_d::zero();
  const uint32_t end = m.offsets[r + 1];
  for (uint32_t e = m.offsets[r]; e < end; ++e) {
    const uint2 t = m.terms[e];
    const uint32_t col = t.x & ~abc_relative_column;
    const fr_d& v = (t.x & abc_relative_column) ? w.aux[w.window + col]
                    : col < w.num_inputs        ? w.inputs[col]
                                                : w.aux[col - w.num_inputs];
    switch (t.y & 3u) {
      case plus_one:
        acc += v;
        break;
      case minus_one:
        acc -= v;
        break;
      default:
        acc += coeffs[t.y >> 2] * v;
        break;
    }
  }
  return acc;
}

__global__ void __launch_bounds__(256)
    evaluate_segment(csr_dev ma, csr_dev mb, csr_dev mc, uint32_t rows, uint64_t repeat,
                     uint64_t first_row, uint64_t aux_base, uint64_t aux_stride, const fr_d* inputs,
                     const fr_d* aux, uint32_t num_inputs, const fr_d* coeffs, fr_d* a, fr_d* b,
                     fr_d* c) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= uint64_t(rows) * repeat) return;
  const uint64_t k = t / rows;
  const uint32_t r = uint32_t(t - k * rows);
  const witness_dev w{inputs, aux, num_inputs, aux_base + k * aux_stride};
  const uint64_t out = first_row + t;
  a[out] = row_value(ma, r, w, coeffs);
  b[out] = row_value(mb, r, w, coeffs);
  c[out] = row_value(mc, r, w, coeffs);
}

/// One template's matrix as uploaded: offsets and packed terms.
struct matrix_dev {
  device_buffer<uint32_t> offsets;
  device_buffer<uint2> terms;
  csr_dev view() const { return {offsets.data(), terms.data()}; }
};

struct template_dev {
  uint32_t rows = 0;
  matrix_dev a, b, c;
};

status bad(std::string what) {
  return status(status_code::invalid_argument, "abc program: " + std::move(what));
}

/// Checks one matrix of a template; `max_relative` and `max_absolute` collect the largest relative
/// aux number and absolute column it references (for the per-segment bounds check).
status check_rows(const abc_rows_view& m, uint32_t rows, size_t num_coeffs, const std::string& name,
                  uint64_t& max_relative, uint64_t& max_absolute, bool& any_relative,
                  bool& any_absolute) {
  if (m.row_offsets.size() != size_t(rows) + 1)
    return bad(name + ": row_offsets size is not rows + 1");
  if (m.row_offsets[0] != 0) return bad(name + ": row_offsets[0] != 0");
  for (uint32_t r = 0; r < rows; ++r)
    if (m.row_offsets[r + 1] < m.row_offsets[r]) return bad(name + ": row_offsets decrease");
  const size_t nnz = m.row_offsets[rows];
  if (m.columns.size() != nnz || m.coeff_index.size() != nnz)
    return bad(name + ": columns/coeff_index size differs from row_offsets[rows]");
  for (size_t e = 0; e < nnz; ++e) {
    if (m.coeff_index[e] >= num_coeffs) return bad(name + ": coefficient index out of the table");
    const uint32_t col = m.columns[e] & ~abc_relative_column;
    if (m.columns[e] & abc_relative_column) {
      max_relative = std::max<uint64_t>(max_relative, col);
      any_relative = true;
    } else {
      max_absolute = std::max<uint64_t>(max_absolute, col);
      any_absolute = true;
    }
  }
  return {};
}

matrix_dev upload_rows(const abc_rows_view& m, const std::vector<uint32_t>& coeff_class_of,
                       const cuzk::gpu::stream& strm) {
  matrix_dev d;
  d.offsets = device_buffer<uint32_t>(m.row_offsets.size());
  d.offsets.upload(m.row_offsets.data(), m.row_offsets.size(), strm);
  std::vector<uint2> terms(m.columns.size());
  for (size_t e = 0; e < terms.size(); ++e)
    terms[e] = make_uint2(m.columns[e], (m.coeff_index[e] << 2) | coeff_class_of[m.coeff_index[e]]);
  d.terms = device_buffer<uint2>(terms.size());
  d.terms.upload(terms.data(), terms.size(), strm);
  strm.synchronize();  // `terms` is pageable and local
  return d;
}

}  // namespace

struct device_abc_program::impl {
  int device = 0;
  uint64_t num_rows = 0, num_inputs = 0, num_aux = 0;
  device_buffer<fr_t> coeffs;
  std::vector<template_dev> templates;
  std::vector<abc_segment> segments;
  size_t bytes = 0;
};

device_abc_program::device_abc_program(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
device_abc_program::~device_abc_program() {
  if (impl_) {
    device_scope scope(impl_->device);
    impl_.reset();
  }
}
int device_abc_program::device() const {
  return impl_->device;
}
uint64_t device_abc_program::num_rows() const {
  return impl_->num_rows;
}
uint64_t device_abc_program::num_inputs() const {
  return impl_->num_inputs;
}
uint64_t device_abc_program::num_aux() const {
  return impl_->num_aux;
}
size_t device_abc_program::device_bytes() const {
  return impl_->bytes;
}

result<std::unique_ptr<device_abc_program>> device_abc_program::upload(
    const abc_program_view& pr, cuzk::gpu::device_context& ctx) {
  // Validation first: a program that reads outside the witness or leaves a row unwritten is
  // refused here, never evaluated.
  if (pr.num_inputs == 0) return bad("no ONE input");
  if (pr.num_inputs + pr.num_aux >= abc_relative_column)
    return bad("more than 2^31 variables do not fit a column code");
  if (pr.coefficients.size() >= (size_t(1) << 30)) return bad("coefficient table too large");
  struct reach {
    uint64_t max_relative = 0, max_absolute = 0;
    bool any_relative = false, any_absolute = false;
  };
  std::vector<reach> reaches(pr.templates.size());
  for (size_t t = 0; t < pr.templates.size(); ++t) {
    const abc_template_view& tv = pr.templates[t];
    reach& re = reaches[t];
    const std::string name = "template " + std::to_string(t);
    for (const auto& [m, which] : {std::pair{&tv.a, "a"}, {&tv.b, "b"}, {&tv.c, "c"}}) {
      if (auto s = check_rows(*m, tv.rows, pr.coefficients.size(), name + " " + which,
                              re.max_relative, re.max_absolute, re.any_relative, re.any_absolute);
          !s.ok())
        return s;
    }
    if (re.any_absolute && re.max_absolute >= pr.num_inputs + pr.num_aux)
      return bad(name + ": column " + std::to_string(re.max_absolute) + " outside the witness");
  }
  std::vector<abc_segment> segs(pr.segments.begin(), pr.segments.end());
  std::sort(segs.begin(), segs.end(),
            [](const abc_segment& x, const abc_segment& y) { return x.first_row < y.first_row; });
  uint64_t next_row = 0;
  for (const abc_segment& s : segs) {
    const std::string name = "segment at row " + std::to_string(s.first_row);
    if (s.template_index >= pr.templates.size()) return bad(name + ": no such template");
    if (s.first_row != next_row)
      return bad(name + ": rows from " + std::to_string(next_row) +
                 " are covered twice or not at all");
    const abc_template_view& tv = pr.templates[s.template_index];
    if (s.repeat == 0 || tv.rows == 0) return bad(name + ": empty");
    if (s.repeat > (uint64_t(1) << 40) / tv.rows) return bad(name + ": too many rows");
    next_row += s.repeat * tv.rows;
    const reach& re = reaches[s.template_index];
    if (re.any_relative) {
      // The last repetition's window must hold the largest relative aux number.
      const unsigned __int128 last = (unsigned __int128)s.aux_base +
                                     (unsigned __int128)(s.repeat - 1) * s.aux_stride +
                                     re.max_relative;
      if (last >= pr.num_aux) return bad(name + ": a repetition reads past the aux witness");
    }
  }
  if (next_row != pr.num_rows)
    return bad("the segments cover " + std::to_string(next_row) + " rows, the program has " +
               std::to_string(pr.num_rows));

  std::vector<uint32_t> coeff_class_of(pr.coefficients.size(), general);
  const fr_t one = fr_t::one(), minus = -fr_t::one();
  for (size_t i = 0; i < pr.coefficients.size(); ++i) {
    if (pr.coefficients[i] == one)
      coeff_class_of[i] = plus_one;
    else if (pr.coefficients[i] == minus)
      coeff_class_of[i] = minus_one;
  }
  try {
    device_scope scope(ctx);
    auto p = std::make_unique<impl>();
    p->device = ctx.ordinal();
    p->num_rows = pr.num_rows;
    p->num_inputs = pr.num_inputs;
    p->num_aux = pr.num_aux;
    p->segments = std::move(segs);
    const cuzk::gpu::stream strm(ctx);
    p->coeffs = device_buffer<fr_t>(std::max<size_t>(pr.coefficients.size(), 1));
    p->coeffs.upload(pr.coefficients.data(), pr.coefficients.size(), strm);
    p->bytes = p->coeffs.bytes();
    for (const abc_template_view& tv : pr.templates) {
      template_dev td;
      td.rows = tv.rows;
      td.a = upload_rows(tv.a, coeff_class_of, strm);
      td.b = upload_rows(tv.b, coeff_class_of, strm);
      td.c = upload_rows(tv.c, coeff_class_of, strm);
      for (const matrix_dev* m : {&td.a, &td.b, &td.c})
        p->bytes += m->offsets.bytes() + m->terms.bytes();
      p->templates.push_back(std::move(td));
    }
    strm.synchronize();
    return std::unique_ptr<device_abc_program>(new device_abc_program(std::move(p)));
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuzk::gpu::cuda_status(e, "groth16::gpu::device_abc_program::upload");
  }
}

void device_abc_program::evaluate(const fr_t* inputs, const fr_t* aux, fr_t* a, fr_t* b, fr_t* c,
                                  const cuzk::gpu::stream& strm) const {
  const impl& p = *impl_;
  device_scope scope(p.device);
  const auto d = [](const fr_t* x) { return reinterpret_cast<const fr_d*>(x); };
  const auto m = [](fr_t* x) { return reinterpret_cast<fr_d*>(x); };
  constexpr unsigned threads = 256;
  for (const abc_segment& s : p.segments) {
    const template_dev& t = p.templates[s.template_index];
    const uint64_t n = uint64_t(t.rows) * s.repeat;
    evaluate_segment<<<unsigned((n + threads - 1) / threads), threads, 0, strm.get()>>>(
        t.a.view(), t.b.view(), t.c.view(), t.rows, s.repeat, s.first_row, s.aux_base, s.aux_stride,
        d(inputs), d(aux), uint32_t(p.num_inputs), d(p.coeffs.data()), m(a), m(b), m(c));
    CUZK_CUDA_LAUNCH_OK();
  }
}

}  // namespace cuzk::groth16::gpu
