// SPDX-License-Identifier: Apache-2.0
// Field arithmetic micro benchmarks. Each iteration runs 8 independent chains so the figure is the
// throughput of one operation (what MSM and NTT see), not its latency.
#include <benchmark/benchmark.h>

#include <type_traits>

#include "ff/fp2.hpp"

namespace {

using cuzk::ff::fp2_t;
using cuzk::ff::fp_t;
using cuzk::ff::fr_t;

template <class F>
F seed_element(uint64_t k) {
  if constexpr (std::is_same_v<F, fp2_t>) {
    return {seed_element<fp_t>(k), seed_element<fp_t>(k + 7)};
  } else {
    return F::from_uint(k * 0x9e3779b97f4a7c15ull + 1).inverse();
  }
}

template <class F, class Op>
void run_binary(benchmark::State& state, Op op) {
  F acc[8];
  for (int k = 0; k < 8; ++k) acc[k] = seed_element<F>(k + 1);
  const F b = seed_element<F>(99);
  for (auto _ : state) {
    for (int k = 0; k < 8; ++k) acc[k] = op(acc[k], b);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * 8);
}

void BM_fp_mul(benchmark::State& s) {
  run_binary<fp_t>(s, [](auto a, auto b) { return a * b; });
}
void BM_fp_sqr(benchmark::State& s) {
  run_binary<fp_t>(s, [](auto a, auto) { return a.sqr(); });
}
void BM_fp_add(benchmark::State& s) {
  run_binary<fp_t>(s, [](auto a, auto b) { return a + b; });
}
void BM_fr_mul(benchmark::State& s) {
  run_binary<fr_t>(s, [](auto a, auto b) { return a * b; });
}
void BM_fr_add(benchmark::State& s) {
  run_binary<fr_t>(s, [](auto a, auto b) { return a + b; });
}
void BM_fp2_mul(benchmark::State& s) {
  run_binary<fp2_t>(s, [](auto a, auto b) { return a * b; });
}

void BM_fp_inverse(benchmark::State& state) {
  fp_t a = seed_element<fp_t>(5);
  for (auto _ : state) {
    a = a.inverse() + fp_t::one();
    benchmark::DoNotOptimize(a);
  }
}

void BM_fr_inverse(benchmark::State& state) {
  fr_t a = seed_element<fr_t>(5);
  for (auto _ : state) {
    a = a.inverse() + fr_t::one();
    benchmark::DoNotOptimize(a);
  }
}

}  // namespace

BENCHMARK(BM_fp_mul);
BENCHMARK(BM_fp_sqr);
BENCHMARK(BM_fp_add);
BENCHMARK(BM_fr_mul);
BENCHMARK(BM_fr_add);
BENCHMARK(BM_fp2_mul);
BENCHMARK(BM_fp_inverse);
BENCHMARK(BM_fr_inverse);
