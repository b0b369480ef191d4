// SPDX-License-Identifier: Apache-2.0
// GPU micro-benchmarks on device-resident data (CUDA builds only): BM_gpu_ntt/<lg> (forward fft,
// nr order: no permutation pass, the prover's form), BM_gpu_ntt_nn/<lg> (natural order),
// BM_gpu_msm_g1/<lg> (uniform 255-bit scalars), BM_gpu_batch_add/<lg> (50 % density bitmap).
// Inputs are generated on the device; MSM/batch-add bases are random coordinates, not curve
// points, which times the same arithmetic (GPU.md §0 does the same) but gives a meaningless sum.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/device_memory.cuh"
#include "msm/msm_gpu.hpp"
#include "ntt/ntt_gpu.hpp"

namespace {

using cuzk::gpu::device_buffer;

__device__ uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// words 64-bit limbs per element; top_mask keeps the element below the modulus.
__global__ void fill_kernel(uint64_t* out, size_t count, unsigned limbs, uint64_t top_mask,
                            uint64_t seed) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  uint64_t w = mix(seed + 0x9e3779b97f4a7c15ull * (i + 1));
  if (limbs != 0 && i % limbs == limbs - 1) w &= top_mask;
  out[i] = w;
}

void fill(void* p, size_t words, unsigned limbs, uint64_t top_mask, uint64_t seed) {
  fill_kernel<<<unsigned((words + 255) / 256), 256>>>(static_cast<uint64_t*>(p), words, limbs,
                                                      top_mask, seed);
  CUZK_CUDA_LAUNCH_OK();
  CUZK_CUDA_OK(cudaDeviceSynchronize());
}

constexpr uint64_t FR_TOP = 0x3fffffffffffffffull;  // < r (top limb 0x73ed…)
constexpr uint64_t FP_TOP = 0x0fffffffffffffffull;  // < p (top limb 0x1a01…)

void ntt_bench(benchmark::State& state, cuzk::ntt::ntt_order order) {
  const unsigned lg = unsigned(state.range(0));
  auto d = cuzk::ntt::domain_t::for_log_size(lg);
  device_buffer<cuzk::ff::fr_t> a(d->size());
  fill(a.data(), 4 * d->size(), 4, FR_TOP, 1);
  cuzk::ntt::gpu::transform_device(*d, a.data(), cuzk::ntt::gpu::ntt_kind::fft, order);  // tables
  for (auto _ : state)
    cuzk::ntt::gpu::transform_device(*d, a.data(), cuzk::ntt::gpu::ntt_kind::fft, order);
  state.counters["elems/s"] =
      benchmark::Counter(double(d->size()), benchmark::Counter::kIsIterationInvariantRate);
  cuzk::ntt::gpu::release_tables();
}

void BM_gpu_ntt(benchmark::State& state) {
  ntt_bench(state, cuzk::ntt::ntt_order::nr);
}
void BM_gpu_ntt_nn(benchmark::State& state) {
  ntt_bench(state, cuzk::ntt::ntt_order::nn);
}
BENCHMARK(BM_gpu_ntt)->DenseRange(20, 27)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_gpu_ntt_nn)->Arg(24)->Arg(27)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_gpu_msm_g1(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  device_buffer<cuzk::ec::g1_affine_t> bases(n);
  device_buffer<cuzk::ff::fr_t> scalars(n);
  fill(bases.data(), 12 * n, 6, FP_TOP, 2);
  fill(scalars.data(), 4 * n, 4, FR_TOP, 3);
  for (auto _ : state) {
    auto r = cuzk::msm::gpu::msm_device(bases.data(), scalars.data(), n);
    benchmark::DoNotOptimize(r);
  }
  state.counters["window"] = cuzk::msm::gpu::choose_window_gpu(n);
  state.counters["pts/s"] =
      benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_gpu_msm_g1)->DenseRange(20, 26, 2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_gpu_batch_add(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  device_buffer<cuzk::ec::g1_affine_t> bases(n);
  device_buffer<uint64_t> words(n / 64);
  fill(bases.data(), 12 * n, 6, FP_TOP, 4);
  fill(words.data(), n / 64, 0, 0, 5);  // uniform bits: 50 % density
  for (auto _ : state) {
    auto r = cuzk::msm::gpu::batch_add_device(bases.data(), words.data(), n);
    benchmark::DoNotOptimize(r);
  }
  state.counters["pts/s"] =
      benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_gpu_batch_add)
    ->Arg(20)
    ->Arg(24)
    ->Arg(27)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
