// SPDX-License-Identifier: Apache-2.0
// GPU fixed-base multiplication for the setup (setup_gpu.hpp). Per chunk of scalars: canonical
// limbs computed on the host pool, uploaded, one kernel, the affine points downloaded into the
// caller's output. The table lookups of one window stay within 255 entries (24 KB for G1), which
// the L1/L2 caches hold; the kernel is compute-bound on the inversion.
#include "groth16/setup_gpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <vector>

#include "ec/ec_device.cuh"
#include "ff/fp2_device.cuh"
#include "ff/inverse_device.cuh"
#include "ff/mont_device.cuh"
#include "gpu/cuda_status.hpp"
#include "gpu/device_memory.cuh"
#include "gpu/gpu_error.hpp"
#include "gpu/runtime.hpp"

namespace cuzk::groth16::cuda {

namespace {

using cuzk::ec::device::affine_d;
using cuzk::ec::device::xyzz_d;
using cuzk::gpu::cuda_status;
using cuzk::gpu::device_buffer;
using ff::fr_t;

/// Default scalars per chunk: 2^22 → 128 MB of limbs, 384 MB of G1 (768 MB of G2) points.
constexpr size_t DEFAULT_CHUNK = size_t(1) << 22;
constexpr unsigned THREADS = 128;

/// out[i] = Σ_w T[w][byte_w(k_i)] for the canonical little-endian limbs k_i (4 per scalar), in
/// affine: x = X/ZZ, y = Y/ZZZ with 1/ZZZ inverted and 1/ZZ = (ZZ/ZZZ)² (ZZ = Z², ZZZ = Z³).
template <class F>
__global__ void fixed_base_kernel(const affine_d<F>* table, const uint64_t* limbs, affine_d<F>* out,
                                  size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t k[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) k[j] = limbs[4 * i + j];
  xyzz_d<F> acc = xyzz_d<F>::infinity();
#pragma unroll 1
  for (unsigned w = 0; w < fixed_base_table<ec::fp_t>::WINDOWS; ++w) {
    const unsigned d = unsigned(k[w / 8] >> (8 * (w % 8))) & 0xffu;
    if (d != 0) acc.add_affine(table[w * fixed_base_table<ec::fp_t>::DIGITS + d - 1]);
  }
  if (acc.is_infinity()) {
    out[i] = {F::zero(), F::zero()};
    return;
  }
  const F izzz = ff::device::inverse(acc.zzz);
  const F iz = acc.zz * izzz;
  out[i] = {acc.x * iz.sqr(), acc.y * izzz};
}

class gpu_fixed_base final : public fixed_base_backend {
 public:
  gpu_fixed_base(cuzk::gpu::device_context ctx, thread_pool& pool, size_t chunk_points)
      : ctx_(std::move(ctx)), pool_(pool), chunk_points_(chunk_points) {}

  status mul(const fixed_base_table<ec::fp_t>& g, std::span<const fr_t> scalars,
             std::span<ec::affine_t<ec::fp_t>> out, const char* phase,
             const progress_fn& progress) override {
    return run<ec::fp_t, ff::device::fp_d>(g, scalars, out, phase, progress);
  }
  status mul(const fixed_base_table<ec::fp2_t>& g, std::span<const fr_t> scalars,
             std::span<ec::affine_t<ec::fp2_t>> out, const char* phase,
             const progress_fn& progress) override {
    return run<ec::fp2_t, ff::device::fp2_d>(g, scalars, out, phase, progress);
  }

 private:
  template <class HostF, class DevF>
  status run(const fixed_base_table<HostF>& g, std::span<const fr_t> scalars,
             std::span<ec::affine_t<HostF>> out, const char* phase, const progress_fn& progress) {
    static_assert(sizeof(affine_d<DevF>) == sizeof(ec::affine_t<HostF>));
    if (out.size() != scalars.size()) {
      return status(status_code::size_mismatch, "fixed-base: output size differs from scalars");
    }
    try {
      const cuzk::gpu::device_scope scope(ctx_);
      const cuzk::gpu::stream s(ctx_);
      const auto entries = g.entries();
      device_buffer<affine_d<DevF>> table(entries.size());
      table.upload(entries.data(), entries.size(), s);
      const size_t n = scalars.size();
      const size_t chunk = std::min(n, chunk_points_);
      device_buffer<uint64_t> limbs(4 * chunk);
      device_buffer<affine_d<DevF>> points(chunk);
      std::vector<ff::limbs<4>> canonical(chunk);
      for (size_t b = 0; b < n; b += chunk) {
        const size_t e = std::min(n, b + chunk), len = e - b;
        pool_.parallel_range(len, [&](size_t lo, size_t hi) {
          for (size_t i = lo; i < hi; ++i) canonical[i] = scalars[b + i].to_canonical();
        });
        limbs.upload(canonical.data(), 4 * len, s);
        const unsigned blocks = unsigned((len + THREADS - 1) / THREADS);
        fixed_base_kernel<DevF>
            <<<blocks, THREADS, 0, s.get()>>>(table.data(), limbs.data(), points.data(), len);
        CUZK_CUDA_LAUNCH_OK();
        points.download(out.data() + b, len, s);
        if (progress) progress(phase, e, n);
      }
      if (n == 0 && progress) progress(phase, 0, 0);
      return status();
    } catch (const cuzk::gpu::gpu_error& e) {
      return cuda_status(e, phase);
    } catch (const std::bad_alloc&) {
      return status(status_code::resource_exhausted,
                    std::string(phase) + ": out of host memory for the fixed-base staging");
    }
  }

  cuzk::gpu::device_context ctx_;
  thread_pool& pool_;
  const size_t chunk_points_;
};

}  // namespace

result<std::unique_ptr<fixed_base_backend>> make_fixed_base_backend(int device, thread_pool& pool,
                                                                    size_t chunk_points) {
  auto ctx = cuzk::gpu::device_context::open(device);
  if (!ctx) return ctx.error();
  return std::unique_ptr<fixed_base_backend>(
      new gpu_fixed_base(std::move(*ctx), pool, chunk_points != 0 ? chunk_points : DEFAULT_CHUNK));
}

}  // namespace cuzk::groth16::cuda
