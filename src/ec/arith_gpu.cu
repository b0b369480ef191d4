// SPDX-License-Identifier: Apache-2.0
// Element-wise kernels over the device field and point types, for the differential tests.
#include "ec/arith_gpu.hpp"
#include "ec/ec_device.cuh"
#include "ff/inverse_device.cuh"
#include "gpu/device_memory.cuh"

#include <stdexcept>

namespace cuzk::ec::cuda {
namespace {

using device::affine_d;
using device::g1_affine_d;
using device::g1_xyzz_d;
using device::reduced;
using device::to_lazy;
using device::xyzz_d;
using ff::device::dmont_t;
using gpu::device_buffer;

template <class F>
__global__ void field_kernel(field_op op, const F* a, const F* b, F* out, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const F x = a[i];
  switch (op) {
    case field_op::add:
      out[i] = x + b[i];
      break;
    case field_op::sub:
      out[i] = x - b[i];
      break;
    case field_op::mul:
      out[i] = x * b[i];
      break;
    case field_op::sqr:
      out[i] = x.sqr();
      break;
    case field_op::neg:
      out[i] = -x;
      break;
    case field_op::dbl:
      out[i] = x.dbl();
      break;
    case field_op::mul_cios:
      out[i] = F::mul_cios(x, b[i]);
      break;
    case field_op::sqr_fast:
      out[i] = x.sqr_fast();
      break;
    case field_op::inverse:
      out[i] = ff::device::inverse(x);
      break;
  }
}

template <class D, class H>
void run_field(field_op op, std::span<const H> a, std::span<const H> b, std::span<H> out) {
  static_assert(sizeof(D) == sizeof(H));
  const size_t n = a.size();
  if (n == 0) return;
  device_buffer<D> da(n), db(n), dout(n);
  da.upload(a.data(), n);
  db.upload(b.size() == n ? b.data() : a.data(), n);
  field_kernel<D><<<unsigned((n + 255) / 256), 256>>>(op, da.data(), db.data(), dout.data(), n);
  CUZK_CUDA_LAUNCH_OK();
  dout.download(out.data(), n);
}

/// The other representative of x's residue below 2p: x + p (x < p).
__device__ ff::device::fp_lazy_d shifted(const ff::device::fp_d& x) {
  constexpr auto p = ff::device::fp_lazy_d::P;
  ff::device::device_ops ops;
  ff::device::fp_lazy_d r;
  r.w[0] = ops.add_cc(x.w[0], p.v[0]);
  for (int k = 1; k < ff::device::fp_lazy_d::n - 1; ++k) r.w[k] = ops.addc_cc(x.w[k], p.v[k]);
  r.w[ff::device::fp_lazy_d::n - 1] =
      ops.addc(x.w[ff::device::fp_lazy_d::n - 1], p.v[ff::device::fp_lazy_d::n - 1]);
  return r;
}

__global__ void lazy_field_kernel(field_op op, const ff::device::fp_d* a, const ff::device::fp_d* b,
                                  ff::device::fp_d* out, size_t n) {
  using L = ff::device::fp_lazy_d;
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const L x = (i & 1) ? shifted(a[i]) : L::from(a[i]);
  const L y = (i & 2) ? shifted(b[i]) : L::from(b[i]);
  L r;
  switch (op) {
    case field_op::add:
      r = x + y;
      break;
    case field_op::sub:
      r = x - y;
      break;
    case field_op::mul:
      r = x * y;
      break;
    case field_op::sqr:
      r = x.sqr();
      break;
    case field_op::neg:
      r = -x;
      break;
    default:  // dbl (the host refuses the others)
      r = x.dbl();
      break;
  }
  out[i] = r.reduced();
}

__global__ void add_affine_kernel(const g1_xyzz_d* acc, const g1_affine_d* q, g1_xyzz_d* out,
                                  size_t n, bool lazy) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (lazy) {
    using L = ff::device::fp_lazy_d;
    const g1_xyzz_d a = acc[i];
    xyzz_d<L> r{L::from(a.x), L::from(a.y), L::from(a.zz), L::from(a.zzz)};
    r.add_affine(to_lazy(q[i]));
    out[i] = reduced(r);
  } else {
    g1_xyzz_d r = acc[i];
    r.add_affine(q[i]);
    out[i] = r;
  }
}

__global__ void add_kernel(const g1_xyzz_d* a, const g1_xyzz_d* b, g1_xyzz_d* out, size_t n,
                           bool dbl) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  g1_xyzz_d r = a[i];
  if (dbl) {
    r = r.dbl();
  } else {
    r.add(b[i]);
  }
  out[i] = r;
}

}  // namespace

void apply(field_op op, std::span<const ff::fp_t> a, std::span<const ff::fp_t> b,
           std::span<ff::fp_t> out) {
  run_field<ff::device::fp_d>(op, a, b, out);
}
void apply(field_op op, std::span<const ff::fr_t> a, std::span<const ff::fr_t> b,
           std::span<ff::fr_t> out) {
  run_field<ff::device::fr_d>(op, a, b, out);
}

void apply_lazy(field_op op, std::span<const ff::fp_t> a, std::span<const ff::fp_t> b,
                std::span<ff::fp_t> out) {
  if (op != field_op::add && op != field_op::sub && op != field_op::mul && op != field_op::sqr &&
      op != field_op::neg && op != field_op::dbl)
    throw std::invalid_argument("apply_lazy: add, sub, mul, sqr, neg or dbl");
  const size_t n = a.size();
  if (n == 0) return;
  device_buffer<ff::device::fp_d> da(n), db(n), dout(n);
  da.upload(a.data(), n);
  db.upload(b.size() == n ? b.data() : a.data(), n);
  lazy_field_kernel<<<unsigned((n + 255) / 256), 256>>>(op, da.data(), db.data(), dout.data(), n);
  CUZK_CUDA_LAUNCH_OK();
  dout.download(out.data(), n);
}

void g1_add_affine(std::span<const ec::g1_xyzz_t> acc, std::span<const ec::g1_affine_t> q,
                   std::span<ec::g1_xyzz_t> out, bool lazy) {
  const size_t n = acc.size();
  if (n == 0) return;
  device_buffer<g1_xyzz_d> da(n), dout(n);
  device_buffer<g1_affine_d> dq(n);
  da.upload(acc.data(), n);
  dq.upload(q.data(), n);
  add_affine_kernel<<<unsigned((n + 127) / 128), 128>>>(da.data(), dq.data(), dout.data(), n, lazy);
  CUZK_CUDA_LAUNCH_OK();
  dout.download(out.data(), n);
}

void g1_add(std::span<const ec::g1_xyzz_t> a, std::span<const ec::g1_xyzz_t> b,
            std::span<ec::g1_xyzz_t> out) {
  const size_t n = a.size();
  if (n == 0) return;
  const bool dbl = b.empty();
  device_buffer<g1_xyzz_d> da(n), db(n), dout(n);
  da.upload(a.data(), n);
  db.upload(dbl ? a.data() : b.data(), n);
  add_kernel<<<unsigned((n + 127) / 128), 128>>>(da.data(), db.data(), dout.data(), n, dbl);
  CUZK_CUDA_LAUNCH_OK();
  dout.download(out.data(), n);
}

}  // namespace cuzk::ec::cuda
