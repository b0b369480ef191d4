// SPDX-License-Identifier: Apache-2.0
// Element-wise kernels over the device field and point types, for the differential tests.
#include "ec/arith_gpu.hpp"
#include "ec/ec_device.cuh"
#include "ff/inverse_device.cuh"
#include "gpu/device_memory.cuh"

namespace cuzk::gpu {
namespace {

using ff::device::dmont_t;

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

__global__ void add_affine_kernel(const g1_xyzz_d* acc, const g1_affine_d* q, g1_xyzz_d* out,
                                  size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  g1_xyzz_d r = acc[i];
  r.add_affine(q[i]);
  out[i] = r;
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

void g1_add_affine(std::span<const ec::g1_xyzz_t> acc, std::span<const ec::g1_affine_t> q,
                   std::span<ec::g1_xyzz_t> out) {
  const size_t n = acc.size();
  if (n == 0) return;
  device_buffer<g1_xyzz_d> da(n), dout(n);
  device_buffer<g1_affine_d> dq(n);
  da.upload(acc.data(), n);
  dq.upload(q.data(), n);
  add_affine_kernel<<<unsigned((n + 127) / 128), 128>>>(da.data(), dq.data(), dout.data(), n);
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

}  // namespace cuzk::gpu
