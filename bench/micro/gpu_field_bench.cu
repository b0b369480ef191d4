// SPDX-License-Identifier: Apache-2.0
// GPU field multiply throughput: BM_gpu_field_<op>/<field>/<variant> with op mul or sqr, field fp
// (12 words) or fr (8 words), variant cios (dmont_t::mul_cios, what operator* runs) or fast (the
// even/odd split dmont_t::mul_fast / sqr_fast). Each of 2^20 threads runs a dependent chain of
// K = 512 products in registers (x ← x·y or x ← x²) and stores x, so nothing is optimised away.
// Counter Gmul/s = 2^20 · K per second of wall time (kernel plus launch, after a sync).
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <random>
#include <vector>

#include "ff/fields.hpp"
#include "ff/mont_device.cuh"
#include "gpu/device_memory.cuh"

namespace {

using cuzk::gpu::device_buffer;

constexpr unsigned LG_THREADS = 20;
constexpr int K = 512;

enum class variant_t { mul_cios, mul_fast, sqr_cios, sqr_fast };

template <class D, variant_t V>
__global__ void chain_kernel(D* x, const D* y, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  D a = x[i];
  const D b = y[i];
#pragma unroll 1
  for (int k = 0; k < K; ++k) {
    if constexpr (V == variant_t::mul_cios) {
      a = D::mul_cios(a, b);
    } else if constexpr (V == variant_t::mul_fast) {
      a = D::mul_fast(a, b);
    } else if constexpr (V == variant_t::sqr_cios) {
      a = D::mul_cios(a, a);
    } else {
      a = a.sqr_fast();
    }
  }
  x[i] = a;
}

template <class Config, variant_t V>
void BM_gpu_field(benchmark::State& state) {
  using H = cuzk::ff::mont_t<Config>;
  using D = cuzk::ff::device::dmont_t<Config>;
  const size_t n = size_t(1) << LG_THREADS;
  std::mt19937_64 rng(42);
  std::vector<H> host(n);
  for (auto& v : host) v = H::random(rng);
  device_buffer<D> x(n), y(n);
  x.upload(host.data(), n);
  y.upload(host.data(), n);
  const unsigned blocks = unsigned((n + 255) / 256);
  chain_kernel<D, V><<<blocks, 256>>>(x.data(), y.data(), n);  // warm-up
  CUZK_CUDA_LAUNCH_OK();
  CUZK_CUDA_OK(cudaDeviceSynchronize());
  for (auto _ : state) {
    chain_kernel<D, V><<<blocks, 256>>>(x.data(), y.data(), n);
    CUZK_CUDA_LAUNCH_OK();
    CUZK_CUDA_OK(cudaDeviceSynchronize());
  }
  state.counters["Gmul/s"] =
      benchmark::Counter(double(n) * K * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

template <class Config, variant_t V>
void reg(const char* name) {
  benchmark::RegisterBenchmark(name, BM_gpu_field<Config, V>)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

const bool registered = [] {
  using cuzk::ff::fp_config;
  using cuzk::ff::fr_config;
  reg<fp_config, variant_t::mul_cios>("BM_gpu_field_mul/fp/cios");
  reg<fp_config, variant_t::mul_fast>("BM_gpu_field_mul/fp/fast");
  reg<fp_config, variant_t::sqr_cios>("BM_gpu_field_sqr/fp/cios");
  reg<fp_config, variant_t::sqr_fast>("BM_gpu_field_sqr/fp/fast");
  reg<fr_config, variant_t::mul_cios>("BM_gpu_field_mul/fr/cios");
  reg<fr_config, variant_t::mul_fast>("BM_gpu_field_mul/fr/fast");
  reg<fr_config, variant_t::sqr_cios>("BM_gpu_field_sqr/fr/cios");
  reg<fr_config, variant_t::sqr_fast>("BM_gpu_field_sqr/fr/fast");
  return true;
}();

}  // namespace
