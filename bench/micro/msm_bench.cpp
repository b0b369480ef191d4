// SPDX-License-Identifier: Apache-2.0
// CPU MSM benchmarks: BM_msm_g1/<lg>/<threads>, BM_msm_g2/<lg>/<threads> (2^lg random scalars,
// threads 1, 2 and every hardware thread; counter us_per_point) and BM_batch_add/<lg> (G1, every
// bit set). Bases are a chain P_{i+1} = P_i + Q normalised to affine with one inversion per block,
// built once per process.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "bench_threads.hpp"
#include "msm/msm_cpu.hpp"

namespace {

using cuzk::thread_pool;
using cuzk::ec::affine_t;
using cuzk::ec::jacobian_t;
using cuzk::ff::fp2_t;
using cuzk::ff::fp_t;
using cuzk::ff::fr_t;

template <class Field>
affine_t<Field> start_point();

// Any curve points serve as benchmark bases; the generators are decoded from their hex forms.
fp_t fp_from_hex(const char* h) {
  cuzk::ff::limbs<6> v{};
  for (const char* p = h; *p; ++p) {
    const int d = *p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10;
    for (int i = 5; i > 0; --i) v[i] = (v[i] << 4) | (v[i - 1] >> 60);
    v[0] = (v[0] << 4) | uint64_t(d);
  }
  return fp_t::from_canonical(v);
}
template <>
affine_t<fp_t> start_point<fp_t>() {
  return {fp_from_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff9"
                      "7a1aeffb3af00adb22c6bb"),
          fp_from_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2"
                      "888ae40caa232946c5e7e1")};
}
template <>
affine_t<fp2_t> start_point<fp2_t>() {
  return {{fp_from_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326"
                       "a805bbefd48056c8c121bdb8"),
           fp_from_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf112"
                       "13945d57e5ac7d055d042b7e")},
          {fp_from_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc"
                       "3baca289e193548608b82801"),
           fp_from_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d27"
                       "5cec1da1aaa9075ff05f79be")}};
}

/// The first n of the bases P_i = P_0 + i·Q with P_0 = G and Q = 2G, extended on demand (one
/// inversion per block of 4096) and kept for the process.
template <class Field>
std::span<const affine_t<Field>> bases(size_t n) {
  static std::vector<affine_t<Field>> cache;
  static jacobian_t<Field> cur = jacobian_t<Field>::from_affine(start_point<Field>());
  static const affine_t<Field> q = cur.dbl().to_affine();
  constexpr size_t block = 4096;
  std::vector<jacobian_t<Field>> jac(block);
  std::vector<Field> pre(block);
  while (cache.size() < n) {
    Field acc = Field::one();
    for (size_t i = 0; i < block; ++i) {
      jac[i] = cur;
      pre[i] = acc;
      acc *= cur.z;
      cur = cur.add_affine(q);
    }
    const size_t b0 = cache.size();
    cache.resize(b0 + block);
    Field inv = acc.inverse();
    for (size_t i = block; i-- > 0;) {
      const Field zi = inv * pre[i], zi2 = zi.sqr();
      inv *= jac[i].z;
      cache[b0 + i] = {jac[i].x * zi2, jac[i].y * zi2 * zi};
    }
  }
  return {cache.data(), n};
}

std::vector<fr_t> random_scalars(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<fr_t> k(n);
  for (auto& x : k) x = fr_t::random(rng);
  return k;
}

/// One pool per thread count, started on first use and kept for the process.
thread_pool& pool(unsigned threads) {
  static std::map<unsigned, std::unique_ptr<thread_pool>> pools;
  auto& slot = pools[threads];
  if (!slot) slot = std::make_unique<thread_pool>(threads);
  return *slot;
}

template <class Field>
void run_msm(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  const unsigned threads = unsigned(state.range(1));
  const auto b = bases<Field>(n);
  const std::vector<fr_t> k = random_scalars(n);
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = cuzk::msm::msm(b, k, pool(threads));
    benchmark::DoNotOptimize(r);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  state.counters["us_per_point"] = seconds * 1e6 / (double(state.iterations()) * double(n));
  state.counters["window"] = cuzk::msm::choose_window(n, threads);
}

void BM_msm_g1(benchmark::State& state) {
  run_msm<fp_t>(state);
}
void BM_msm_g2(benchmark::State& state) {
  run_msm<fp2_t>(state);
}

void BM_batch_add(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  const auto b = bases<fp_t>(n);
  const std::vector<uint64_t> mask((n + 63) / 64, ~uint64_t(0));
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = cuzk::msm::batch_add(b, {mask, n}, pool(1));
    benchmark::DoNotOptimize(r);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  state.counters["us_per_point"] = seconds * 1e6 / (double(state.iterations()) * double(n));
}

BENCHMARK(BM_msm_g1)
    ->ArgsProduct({benchmark::CreateDenseRange(10, 22, 2), cuzk::bench::with_all_threads({1, 2})})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_msm_g2)
    ->ArgsProduct({benchmark::CreateDenseRange(10, 22, 2), cuzk::bench::with_all_threads({1, 2})})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_batch_add)->DenseRange(10, 22, 4)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
