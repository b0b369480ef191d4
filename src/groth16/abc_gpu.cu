// SPDX-License-Identifier: Apache-2.0
// The device a, b, c evaluator (abc_gpu.hpp). One thread per QAP row computes that row of all three
// matrices: Σ coeff·w over the row's terms, each term's variable found by its reference kind
// (r1cs::abc_plan::ref_kind: an absolute input or aux, the block's own input or aux window, or a
// slot of the block's shared-reference table). A section's rows are uploaded sorted by their
// length (A + B + C terms, longest first), and row_of maps a sorted row back to its QAP row: a
// warp's 32 threads then run rows of about one length. In QAP order a warp waits for its longest
// row — a 32 GiB PoRep template's warps took 7.06× the steps of their terms / 32 (SHA-256 and
// packing rows of hundreds of terms beside rows of three; abc_plan_size::block_warp_steps).
// Consecutive threads take consecutive sorted rows of one block, so the template's terms (shared
// by every block) are read by neighbouring threads together. Terms are packed as (reference,
// coefficient id) pairs; ids 0 and 1 are +1 and −1 and cost one addition or subtraction.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "ff/mont_device.cuh"
#include "gpu/cuda_status.hpp"
#include "gpu/device_memory.cuh"
#include "groth16/abc_gpu.hpp"

namespace cuzk::groth16::cuda {
namespace {

using cuzk::gpu::device_buffer;
using cuzk::gpu::device_scope;
using ff::fr_t;
using fr_d = ff::device::fr_d;
using plan = r1cs::abc_plan;

/// One section (prologue or block template) on the device: per matrix the CSR offsets and the
/// packed terms (x: reference, y: coefficient id).
struct section_dev {
  const uint32_t* offsets[3];
  const uint2* terms[3];
  const uint32_t* row_of;  ///< sorted row → the section's own row
};

/// Where block k's references point.
struct block_bases {
  const fr_d* inputs;
  const fr_d* aux;
  const fr_d* block_inputs;
  const fr_d* block_aux;
  const uint32_t* shared;  // this block's row of the shared-reference table
};

/// Where the witness value a reference names is. The kinds only choose the address, so a warp
/// whose threads hold references of different kinds still issues one load per term (resolve).
__device__ __forceinline__ const fr_d* locate(uint32_t ref, const block_bases& b) {
  const uint32_t index = ref & plan::MAX_REF_INDEX;
  switch (ref >> plan::KIND_SHIFT) {
    case plan::input:
      return b.inputs + index;
    case plan::aux:
      return b.aux + index;
    case plan::block_input:
      return b.block_inputs + index;
    case plan::block_aux:
      return b.block_aux + index;
    default: {  // block_shared: an absolute input or aux reference
      const uint32_t to = b.shared[index];
      const uint32_t i = to & plan::MAX_REF_INDEX;
      return ((to >> plan::KIND_SHIFT) == plan::input ? b.inputs : b.aux) + i;
    }
  }
}

/// The value, as two 16-byte loads (fr_d::load_ro) instead of eight 4-byte ones: the kernel is
/// bound by load instructions (issue 16: ncu showed the LSU queue full 41 % of the cycles).
__device__ __forceinline__ fr_d resolve(uint32_t ref, const block_bases& b) {
  return fr_d::load_ro(locate(ref, b));
}

__device__ __forceinline__ fr_d row_value(const uint32_t* offsets, const uint2* terms, uint32_t r,
                                          const block_bases& b, const fr_d* coeffs) {
  fr_d acc = fr_d::zero();
  const uint32_t end = offsets[r + 1];
  for (uint32_t e = offsets[r]; e < end; ++e) {
    const uint2 t = terms[e];
    const fr_d v = resolve(t.x, b);
    if (t.y == plan::ONE_ID) {
      acc += v;
    } else if (t.y == plan::MINUS_ONE_ID) {
      acc -= v;
    } else {
      acc += fr_d::load_ro(coeffs + t.y) * v;
    }
  }
  return acc;
}

/// Rows [first_row, first_row + blocks·rows): block k's row r is section row r with k's windows.
__global__ void __launch_bounds__(256)
    evaluate_section_kernel(section_dev s, uint32_t rows, uint64_t blocks, uint64_t first_row,
                            const fr_d* inputs, const fr_d* aux, uint64_t block_input0,
                            uint64_t block_aux0, uint64_t inputs_per_block, uint64_t aux_per_block,
                            const uint32_t* shared, uint64_t shared_slots, const fr_d* coeffs,
                            fr_d* a, fr_d* b, fr_d* c) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= uint64_t(rows) * blocks) return;
  const uint64_t k = t / rows;
  const uint32_t r = uint32_t(t - k * rows);
  const block_bases bb{inputs, aux, inputs + block_input0 + k * inputs_per_block,
                       aux + block_aux0 + k * aux_per_block, shared + k * shared_slots};
  const uint64_t out = first_row + k * rows + s.row_of[r];
  if (a != nullptr) row_value(s.offsets[0], s.terms[0], r, bb, coeffs).store(a + out);
  if (b != nullptr) row_value(s.offsets[1], s.terms[1], r, bb, coeffs).store(b + out);
  if (c != nullptr) row_value(s.offsets[2], s.terms[2], r, bb, coeffs).store(c + out);
}

/// bellperson's x_j·0 = 0 rows: a = x_j, b = c = 0, from row `first_row`.
__global__ void input_rows_kernel(const fr_d* inputs, uint64_t n, uint64_t first_row, fr_d* a,
                                  fr_d* b, fr_d* c) {
  const uint64_t j = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const uint64_t o = first_row + j;
  if (a != nullptr) fr_d::load_ro(inputs + j).store(a + o);
  if (b != nullptr) fr_d::zero().store(b + o);
  if (c != nullptr) fr_d::zero().store(c + o);
}

struct matrix_dev {
  device_buffer<uint32_t> offsets;
  device_buffer<uint2> terms;
};

struct section_buffers {
  matrix_dev m[3];
  device_buffer<uint32_t> row_of;
  uint32_t rows = 0;
  section_dev view() const {
    return {{m[0].offsets.data(), m[1].offsets.data(), m[2].offsets.data()},
            {m[0].terms.data(), m[1].terms.data(), m[2].terms.data()},
            row_of.data()};
  }
  size_t bytes() const {
    size_t n = row_of.bytes();
    for (const matrix_dev& x : m) n += x.offsets.bytes() + x.terms.bytes();
    return n;
  }
};

status bad(std::string what) {
  return status(status_code::invalid_argument, "abc plan upload: " + std::move(what));
}

/// The exclusive bound of each reference kind's index in `section` (0: the kind is not allowed).
struct ref_bounds {
  uint64_t of[plan::NUM_KINDS] = {};
};

status check_matrix(const r1cs::plan_matrix& m, size_t rows, size_t num_coeffs,
                    const ref_bounds& bounds, const std::string& name) {
  if (m.row_offsets.size() != rows + 1) return bad(name + ": row_offsets size is not rows + 1");
  if (m.row_offsets[0] != 0) return bad(name + ": row_offsets[0] != 0");
  for (size_t r = 0; r < rows; ++r)
    if (m.row_offsets[r + 1] < m.row_offsets[r]) return bad(name + ": row_offsets decrease");
  const size_t nnz = m.row_offsets[rows];
  if (m.refs.size() != nnz || m.coeff_ids.size() != nnz)
    return bad(name + ": refs/coeff_ids size differs from row_offsets[rows]");
  for (size_t e = 0; e < nnz; ++e) {
    if (m.coeff_ids[e] >= num_coeffs) return bad(name + ": coefficient id out of the table");
    const uint32_t kind = plan::kind_of(m.refs[e]);
    if (kind >= plan::NUM_KINDS || plan::index_of(m.refs[e]) >= bounds.of[kind])
      return bad(name + ": reference kind " + std::to_string(kind) + " index " +
                 std::to_string(plan::index_of(m.refs[e])) + " outside its window");
  }
  return {};
}

/// The section's rows in the order the kernel runs them: longest (A + B + C terms) first, ties in
/// QAP order; each matrix's CSR rebuilt in that order, and row_of mapping back.
section_buffers upload_section(const r1cs::plan_section& s, const cuzk::gpu::stream& strm) {
  section_buffers d;
  const size_t rows = s.num_rows();
  d.rows = uint32_t(rows);
  const r1cs::plan_matrix* ms[3] = {&s.a, &s.b, &s.c};
  const auto length = [&](uint32_t r) {
    size_t n = 0;
    for (const r1cs::plan_matrix* m : ms) n += m->row_offsets[r + 1] - m->row_offsets[r];
    return n;
  };
  std::vector<uint32_t> row_of(rows);
  for (size_t r = 0; r < rows; ++r) row_of[r] = uint32_t(r);
  std::stable_sort(row_of.begin(), row_of.end(),
                   [&](uint32_t x, uint32_t y) { return length(x) > length(y); });
  d.row_of = device_buffer<uint32_t>(rows);
  d.row_of.upload(row_of.data(), rows, strm);
  for (int k = 0; k < 3; ++k) {
    const r1cs::plan_matrix& m = *ms[k];
    std::vector<uint32_t> offsets(rows + 1, 0);
    std::vector<uint2> terms;
    terms.reserve(m.refs.size());
    for (size_t i = 0; i < rows; ++i) {
      const uint32_t r = row_of[i];
      for (uint32_t e = m.row_offsets[r]; e < m.row_offsets[r + 1]; ++e)
        terms.push_back(make_uint2(m.refs[e], m.coeff_ids[e]));
      offsets[i + 1] = uint32_t(terms.size());
    }
    d.m[k].offsets = device_buffer<uint32_t>(offsets.size());
    d.m[k].offsets.upload(offsets.data(), offsets.size(), strm);
    d.m[k].terms = device_buffer<uint2>(terms.size());
    d.m[k].terms.upload(terms.data(), terms.size(), strm);
    strm.synchronize();  // `offsets` and `terms` are pageable and local
  }
  strm.synchronize();  // `row_of` too
  return d;
}

}  // namespace

struct device_abc_program::impl {
  int device = 0;
  plan::layout_t layout;
  uint64_t num_rows = 0, num_constraints = 0;
  device_buffer<fr_t> coeffs;
  device_buffer<uint32_t> shared;
  section_buffers prologue, block;
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
  return impl_->layout.num_inputs;
}
uint64_t device_abc_program::num_aux() const {
  return impl_->layout.num_aux;
}
size_t device_abc_program::device_bytes() const {
  return impl_->bytes;
}

result<std::unique_ptr<device_abc_program>> device_abc_program::upload(
    const r1cs::abc_plan& pl, cuzk::gpu::device_context& ctx) {
  // Checks first: a plan that reads outside the witness is refused here, never evaluated.
  const plan::layout_t& lay = pl.layout();
  const auto coeffs = pl.coefficients();
  if (lay.num_inputs == 0) return bad("no ONE input");
  if (coeffs.size() < 2 || !(coeffs[plan::ONE_ID] == fr_t::one()) ||
      !(coeffs[plan::MINUS_ONE_ID] == -fr_t::one()))
    return bad("coefficient ids 0 and 1 are not +1 and -1");
  if (lay.block_count != 0) {
    if (lay.block_input0 + lay.block_count * lay.block.inputs > lay.num_inputs ||
        lay.block_aux0 + lay.block_count * lay.block.aux > lay.num_aux)
      return bad("the blocks' windows run past the witness");
    if (lay.block.constraints == 0 || lay.block.constraints > UINT32_MAX)
      return bad("block rows out of range");
  }
  if (pl.num_rows() >= (uint64_t(1) << 40)) return bad("too many rows");
  if (pl.block_shared_refs().size() != lay.block_count * lay.shared_slots)
    return bad("the shared-reference table is not blocks x slots");
  for (uint32_t ref : pl.block_shared_refs()) {
    const uint32_t kind = plan::kind_of(ref), index = plan::index_of(ref);
    if (!(kind == plan::input && index < lay.num_inputs) &&
        !(kind == plan::aux && index < lay.num_aux))
      return bad("a shared reference is not an input or aux inside the witness");
  }
  ref_bounds absolute;  // the prologue: inputs and aux only
  absolute.of[plan::input] = lay.num_inputs;
  absolute.of[plan::aux] = lay.num_aux;
  ref_bounds in_block = absolute;
  in_block.of[plan::block_input] = lay.block.inputs;
  in_block.of[plan::block_aux] = lay.block.aux;
  in_block.of[plan::block_shared] = lay.shared_slots;
  const r1cs::plan_section& pro = pl.prologue();
  const r1cs::plan_section& blk = pl.block_template();
  const size_t block_rows = lay.block_count ? lay.block.constraints : 0;
  for (const auto& [m, name] :
       {std::pair{&pro.a, "prologue a"}, {&pro.b, "prologue b"}, {&pro.c, "prologue c"}}) {
    if (status s = check_matrix(*m, pro.num_rows(), coeffs.size(), absolute, name); !s.ok())
      return s;
  }
  if (lay.block_count != 0) {
    for (const auto& [m, name] :
         {std::pair{&blk.a, "block a"}, {&blk.b, "block b"}, {&blk.c, "block c"}}) {
      if (status s = check_matrix(*m, block_rows, coeffs.size(), in_block, name); !s.ok()) return s;
    }
  }
  if (pro.num_rows() > UINT32_MAX) return bad("prologue rows out of range");

  try {
    device_scope scope(ctx);
    auto p = std::make_unique<impl>();
    p->device = ctx.ordinal();
    p->layout = lay;
    p->num_rows = pl.num_rows();
    p->num_constraints = pl.num_constraints();
    const cuzk::gpu::stream strm(ctx);
    p->coeffs = device_buffer<fr_t>(coeffs.size());
    p->coeffs.upload(coeffs.data(), coeffs.size(), strm);
    const auto shared = pl.block_shared_refs();
    p->shared = device_buffer<uint32_t>(shared.size());
    p->shared.upload(shared.data(), shared.size(), strm);
    p->prologue = upload_section(pro, strm);
    if (lay.block_count != 0) p->block = upload_section(blk, strm);
    strm.synchronize();
    p->bytes = p->coeffs.bytes() + p->shared.bytes() + p->prologue.bytes() + p->block.bytes();
    return std::unique_ptr<device_abc_program>(new device_abc_program(std::move(p)));
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuzk::gpu::cuda_status(e, "groth16::cuda::device_abc_program::upload");
  }
}

void device_abc_program::evaluate(const fr_t* inputs, const fr_t* aux, fr_t* a, fr_t* b, fr_t* c,
                                  const cuzk::gpu::stream& strm) const {
  const impl& p = *impl_;
  const plan::layout_t& lay = p.layout;
  device_scope scope(p.device);
  const auto in = reinterpret_cast<const fr_d*>(inputs);
  const auto ax = reinterpret_cast<const fr_d*>(aux);
  const auto co = reinterpret_cast<const fr_d*>(p.coeffs.data());
  fr_d* da = reinterpret_cast<fr_d*>(a);
  fr_d* db = reinterpret_cast<fr_d*>(b);
  fr_d* dc = reinterpret_cast<fr_d*>(c);
  constexpr unsigned threads = 256;
  const auto grid = [](uint64_t n) { return unsigned((n + threads - 1) / threads); };
  if (p.prologue.rows != 0) {
    evaluate_section_kernel<<<grid(p.prologue.rows), threads, 0, strm.get()>>>(
        p.prologue.view(), p.prologue.rows, 1, 0, in, ax, 0, 0, 0, 0, p.shared.data(), 0, co, da,
        db, dc);
    CUZK_CUDA_LAUNCH_OK();
  }
  if (lay.block_count != 0) {
    const uint64_t n = uint64_t(p.block.rows) * lay.block_count;
    evaluate_section_kernel<<<grid(n), threads, 0, strm.get()>>>(
        p.block.view(), p.block.rows, lay.block_count, p.prologue.rows, in, ax, lay.block_input0,
        lay.block_aux0, lay.block.inputs, lay.block.aux, p.shared.data(), lay.shared_slots, co, da,
        db, dc);
    CUZK_CUDA_LAUNCH_OK();
  }
  input_rows_kernel<<<grid(lay.num_inputs), threads, 0, strm.get()>>>(
      in, lay.num_inputs, p.num_constraints, da, db, dc);
  CUZK_CUDA_LAUNCH_OK();
}

}  // namespace cuzk::groth16::cuda
