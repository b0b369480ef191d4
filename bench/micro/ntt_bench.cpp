// SPDX-License-Identifier: Apache-2.0
// CPU NTT micro-benchmarks: BM_ntt/<lg> (forward, natural order, one thread) for 2^16…2^24,
// BM_ntt_mt/<lg>/<threads> (2 and every hardware thread) and the cheap nr/rn orders. The N/2·log2 N
// multiplication model's unit is BM_fr_mul (ff_bench.cpp). BM_ntt_mul_lazy and BM_ntt_dif_bfly time
// the NTT's own kernels (ntt_kernels.hpp) over a 1024-element array: the per-butterfly floor of the
// transform.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "base/thread_pool.hpp"
#include "bench_threads.hpp"
#include "ntt/ntt_cpu.hpp"
#include "ntt/ntt_kernels.hpp"

namespace {

using cuzk::ff::fr_t;

std::vector<fr_t> bench_input(size_t n) {
  // deterministic pseudo-random field elements (splitmix64 limbs, top limb masked below r)
  std::vector<fr_t> v(n);
  uint64_t s = 0x243f6a8885a308d3ull;
  for (auto& x : v) {
    cuzk::ff::limbs<4> l{};
    for (auto& w : l) {
      s += 0x9e3779b97f4a7c15ull;
      uint64_t z = s;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      w = z ^ (z >> 31);
    }
    l[3] &= 0x3fffffffffffffffull;
    x = fr_t::from_canonical(l);
  }
  return v;
}

void run_ntt(benchmark::State& state, unsigned lg, unsigned threads, cuzk::ntt::ntt_order order) {
  auto dom = cuzk::ntt::domain_t::for_log_size(lg);
  if (!dom.ok()) {
    state.SkipWithError(dom.error().to_string().c_str());
    return;
  }
  cuzk::thread_pool pool(threads);
  auto a = bench_input(dom->size());
  for (auto _ : state) {
    cuzk::ntt::fft(*dom, a, pool, order);
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(dom->size()));
  // N/2·log2 N: the radix-2 multiplication count the target is stated in
  state.counters["mul_model"] = double(dom->size() / 2) * lg;
}

void BM_ntt(benchmark::State& state) {
  run_ntt(state, unsigned(state.range(0)), 1, cuzk::ntt::ntt_order::nn);
}
BENCHMARK(BM_ntt)->DenseRange(16, 24)->Unit(benchmark::kMillisecond);

void BM_ntt_nr(benchmark::State& state) {
  run_ntt(state, unsigned(state.range(0)), 1, cuzk::ntt::ntt_order::nr);
}
BENCHMARK(BM_ntt_nr)->DenseRange(16, 24, 4)->Unit(benchmark::kMillisecond);

void BM_ntt_mt(benchmark::State& state) {
  run_ntt(state, unsigned(state.range(0)), unsigned(state.range(1)), cuzk::ntt::ntt_order::nn);
}
BENCHMARK(BM_ntt_mt)
    ->ArgsProduct({{16, 20, 24}, cuzk::bench::with_all_threads({2})})
    ->Unit(benchmark::kMillisecond);

// y[i] ← y[i]·c (lazy, result < 2r; the input is any 256-bit value): independent products.
void BM_ntt_mul_lazy(benchmark::State& state) {
  auto y = bench_input(1024);
  const fr_t c = bench_input(1)[0];
  for (auto _ : state) {
    for (auto& v : y) cuzk::ntt::detail::mul_lazy(v, c);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(y.size()));
}
BENCHMARK(BM_ntt_mul_lazy);

// One DIF stage of 512 butterflies (x, y) → (x + y, (x − y)·w) on [0, 2r), per butterfly.
void BM_ntt_dif_bfly(benchmark::State& state) {
  auto a = bench_input(1024);
  const auto w = bench_input(512);
  for (auto _ : state) {
    for (size_t j = 0; j < 512; ++j) cuzk::ntt::detail::dif_bfly(a[j], a[j + 512], w[j]);
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * 512);
}
BENCHMARK(BM_ntt_dif_bfly);

}  // namespace
