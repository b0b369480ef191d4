// SPDX-License-Identifier: Apache-2.0
// GPU micro-benchmarks on device-resident data (CUDA builds only): BM_gpu_ntt/<lg> (forward fft,
// nr order: no permutation pass, the prover's form), BM_gpu_ntt_nn/<lg> (natural order),
// BM_gpu_ntt_rn/<lg> (DIT), BM_gpu_msm_g1/<lg> and BM_gpu_msm_g2/<lg> (uniform 255-bit scalars;
// BM_gpu_msm_g1_window/<lg>/<c> at a forced window width; BM_gpu_msm_g1_accumulator/<ring>/<c>/<g>:
// a streamed 2^27 in ring chunks; BM_gpu_split_stream/...: a streamed split query's chunks),
// BM_gpu_batch_add/<lg> (50 % density bitmap), BM_gpu_groth16_prove/<lg> (a whole GPU proof, start
// + finalize, over a synthetic assignment of 2^lg rows and 2^lg aux shaped like a PoRep partition:
// A density 99.7 %, B density 25.4 %, aux 45 % zeros, 45 % ones, 10 % uniform; the SRS resident on
// the device) and BM_gpu_groth16_prove_porep32g (the same at the exact size of a 32 GiB PoRep
// partition; BM_gpu_groth16_prove_porep32g_plan, in cuzk-microbench only, with CUZK_BENCH_32G=1:
// the real compiled plan and a blank-circuit witness through the engine's device a, b, c path).
// Inputs are generated on the device (the prover's on the host); bases are random coordinates,
// not curve points, which times the same arithmetic (as the sppark reference measurements do) but
// gives a meaningless sum. Not so BM_gpu_groth16_prove_verified/<lg>: a real circuit with
// GPU-generated parameters whose proofs are verified; BM_gpu_fixed_base_{g1,g2}/<lg> time that
// setup's fixed-base multiplications.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/thread_pool.hpp"
#include "ec/curves.hpp"
#include "gpu/device_memory.cuh"
#include "gpu/host_registration.hpp"
#include "groth16/abc_gpu.hpp"
#include "groth16/gpu_memory.hpp"
#include "groth16/prover_gpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/setup_gpu.hpp"
#include "groth16/test_circuits.hpp"
#include "groth16/verifier.hpp"
#include "msm/msm_cpu.hpp"
#include "msm/msm_gpu.hpp"
#include "msm/msm_gpu_plan.hpp"
#include "ntt/ntt_gpu.hpp"
#if defined(CUZK_BENCH_PLANS)
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/config.hpp"
#include "r1cs/witness_cs.hpp"
#endif

namespace {

using cuzk::gpu::device_buffer;

/// Device 0's context and one stream on it, shared by the benchmarks (the NTT tables are built in
/// the first, untimed call of each size and freed at the end of the size).
cuzk::gpu::device_context& bench_ctx() {
  static cuzk::gpu::device_context ctx = [] {
    auto c = cuzk::gpu::device_context::open(0);
    if (!c) {
      std::fprintf(stderr, "gpu benchmarks: %s\n", c.error().to_string().c_str());
      std::abort();
    }
    return std::move(*c);
  }();
  return ctx;
}
const cuzk::gpu::stream& bench_stream() {
  static const cuzk::gpu::stream s(bench_ctx());
  return s;
}

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

/// Spins each thread for `ns` nanoseconds of the device's global timer: a probe of how long a
/// stream's blocks wait for multiprocessors (its own run time is known).
__global__ void spin_kernel(uint64_t ns) {
  uint64_t t0 = 0, t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// The q-quantile of v (nearest rank); 0 for none.
double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

void ntt_bench(benchmark::State& state, cuzk::ntt::ntt_order order) {
  const unsigned lg = unsigned(state.range(0));
  auto d = cuzk::ntt::domain_t::for_log_size(lg);
  device_buffer<cuzk::ff::fr_t> a(d->size());
  fill(a.data(), 4 * d->size(), 4, FR_TOP, 1);
  auto& ctx = bench_ctx();
  const auto& s = bench_stream();
  // The first call builds the tables.
  cuzk::ntt::cuda::transform_device(ctx, s, *d, a.data(), cuzk::ntt::cuda::ntt_kind::fft, order);
  s.synchronize();
  for (auto _ : state) {
    cuzk::ntt::cuda::transform_device(ctx, s, *d, a.data(), cuzk::ntt::cuda::ntt_kind::fft, order);
    s.synchronize();
  }
  state.counters["elems/s"] =
      benchmark::Counter(double(d->size()), benchmark::Counter::kIsIterationInvariantRate);
  ctx.clear_caches();
}

void BM_gpu_ntt(benchmark::State& state) {
  ntt_bench(state, cuzk::ntt::ntt_order::nr);
}
void BM_gpu_ntt_nn(benchmark::State& state) {
  ntt_bench(state, cuzk::ntt::ntt_order::nn);
}
BENCHMARK(BM_gpu_ntt)->DenseRange(20, 27)->Unit(benchmark::kMillisecond)->UseRealTime();
/// Bit-reversed in, natural out: the DIT passes (the second transform of the prover's
/// coset_evaluations), whose twists multiply as a pass loads instead of as it stores.
void BM_gpu_ntt_rn(benchmark::State& state) {
  ntt_bench(state, cuzk::ntt::ntt_order::rn);
}
BENCHMARK(BM_gpu_ntt_nn)->Arg(24)->Arg(27)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_gpu_ntt_rn)->Arg(24)->Arg(27)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_gpu_msm_g1(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  device_buffer<cuzk::ec::g1_affine_t> bases(n);
  device_buffer<cuzk::ff::fr_t> scalars(n);
  fill(bases.data(), 12 * n, 6, FP_TOP, 2);
  fill(scalars.data(), 4 * n, 4, FR_TOP, 3);
  for (auto _ : state) {
    auto r =
        cuzk::msm::cuda::msm_device(bench_ctx(), bench_stream(), bases.data(), scalars.data(), n);
    benchmark::DoNotOptimize(r);
  }
  state.counters["window"] = cuzk::msm::cuda::choose_window_gpu(n);
  state.counters["pts/s"] =
      benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_gpu_msm_g1)
    ->DenseRange(20, 26, 2)
    ->Arg(27)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// BM_gpu_msm_g1_window/<lg>/<c>: the same MSM at a forced window width (the window sweep that
// choose_window_gpu's cost model is checked against).
void BM_gpu_msm_g1_window(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  device_buffer<cuzk::ec::g1_affine_t> bases(n);
  device_buffer<cuzk::ff::fr_t> scalars(n);
  fill(bases.data(), 12 * n, 6, FP_TOP, 2);
  fill(scalars.data(), 4 * n, 4, FR_TOP, 3);
  cuzk::msm::msm_config cfg;
  cfg.window_bits = unsigned(state.range(1));
  for (auto _ : state) {
    auto r = cuzk::msm::cuda::msm_device(bench_ctx(), bench_stream(), bases.data(), scalars.data(),
                                         n, cfg);
    benchmark::DoNotOptimize(r);
  }
  state.counters["window"] = double(cfg.window_bits);
}
BENCHMARK(BM_gpu_msm_g1_window)
    ->ArgsProduct({{24}, {17, 19, 20, 21, 22}})
    ->ArgsProduct({{27}, {18, 20, 21, 22, 23}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// BM_gpu_msm_g1_accumulator/<ring GiB>/<c>/<g>: a streamed H of a 32 GiB PoRep partition
// without its link: 2^27 − 1 terms added to one msm_accumulator in the chunks a ring of four
// slots gives (2 GiB: 5,592,320 points, 24 chunks; 3 GiB: 16), at window c with g windows a pass
// (device_group_bytes sized to g windows of a chunk; g ≥ the windows: one pass a chunk). What a
// wider window saves in term additions against what it costs in kept-bucket additions (each
// chunk's buckets added into the kept ones: chunks × windows × 2^(c−1)) and in passes.
void BM_gpu_msm_g1_accumulator(benchmark::State& state) {
  const size_t n = (size_t(1) << 27) - 1;
  const size_t chunk = cuzk::groth16::gpu_ring_points_per_chunk(uint64_t(state.range(0)) << 30,
                                                                cuzk::groth16::gpu_ring_max_slots,
                                                                sizeof(cuzk::ec::g1_affine_t));
  device_buffer<cuzk::ec::g1_affine_t> bases(n);
  device_buffer<cuzk::ff::fr_t> scalars(n);
  fill(bases.data(), 12 * n, 6, FP_TOP, 7);
  fill(scalars.data(), 4 * n, 4, FR_TOP, 8);
  const unsigned c = unsigned(state.range(1));
  const size_t windows = (cuzk::msm::cuda::SCALAR_BITS + c - 1) / c;
  const size_t g = std::min<size_t>(size_t(state.range(2)), windows);
  cuzk::msm::msm_config cfg;
  cfg.window_bits = c;
  cfg.device_group_bytes =
      g * cuzk::msm::cuda::group_window_bytes(chunk, c, cuzk::msm::cuda::G1_XYZZ_BYTES);
  cuzk::msm::cuda::msm_accumulator<cuzk::ec::g1_affine_t> acc(bench_ctx(), bench_stream(), n, chunk,
                                                              cfg);
  for (auto _ : state) {
    for (size_t first = 0; first < n; first += chunk)
      acc.add(bases.data() + first, scalars.data() + first, std::min(chunk, n - first));
    benchmark::DoNotOptimize(acc.result());
  }
  state.counters["window"] = double(acc.window_bits());
  state.counters["passes_a_chunk"] = double((windows + g - 1) / g);
  state.counters["chunks"] = double((n + chunk - 1) / chunk);
  state.counters["device_GiB"] =
      double(cuzk::msm::cuda::msm_accumulator_bytes(n, chunk, cuzk::msm::cuda::G1_XYZZ_BYTES,
                                                    cfg.device_group_bytes, c)) /
      double(size_t(1) << 30);
}
BENCHMARK(BM_gpu_msm_g1_accumulator)
    ->ArgsProduct({{2, 3}, {16, 18, 19, 20, 22}, {1, 2, 16}})
    ->Iterations(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// f(point, n) with a G1 point and a 32 GiB PoRep partition's L query (130,278,869 points) when the
/// benchmark's first argument is 0, else a G2 point and its B2 query (25.4 %: 33,090,833).
template <class F>
void on_porep_split_shape(benchmark::State& state, F&& f) {
  if (state.range(0) == 0) {
    f(cuzk::ec::g1_affine_t{}, size_t(130278869));
  } else {
    f(cuzk::ec::g2_affine_t{}, size_t(33090833));
  }
}
/// A streamed split benchmark's chunks of a query and the milliseconds a chunk took.
void count_chunks(benchmark::State& state, size_t chunks) {
  state.counters["chunks"] = double(chunks);
  state.counters["ms_a_chunk"] = benchmark::Counter(
      double(chunks), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// BM_gpu_split_stream/<g2>/<slot MiB>/<chunks a pass>/<others group MiB>: a streamed split query
// of a 32 GiB PoRep partition without its link (G1: L's 130,278,869 points; G2: B's 25.4 %,
// 33,090,833), in the chunks of a ring slot: per chunk the batch addition of its ones (a 50 %
// bitmap) and a tenth of its points "other", whose gathered terms go to one msm_accumulator
// (the planned window, as many windows a pass as fit the plan's bytes:
// msm::cuda::widest_group_within) every <chunks a pass> chunks; 0: the ones alone. What a
// chunk costs beside its terms, and what passing several chunks' others at once saves.
template <class Affine>
void split_stream_bench(benchmark::State& state, size_t n) {
  constexpr size_t point_words = sizeof(Affine) / 8;
  constexpr size_t xyzz = std::is_same_v<Affine, cuzk::ec::g1_affine_t>
                              ? cuzk::msm::cuda::G1_XYZZ_BYTES
                              : cuzk::msm::cuda::G2_XYZZ_BYTES;
  const size_t per = cuzk::groth16::gpu_slot_points(uint64_t(state.range(1)) << 20, sizeof(Affine));
  const size_t chunks = (n + per - 1) / per, others_a_chunk = per / 10;
  const size_t k = size_t(state.range(2)), total_others = others_a_chunk * chunks;
  const size_t group = size_t(state.range(3)) << 20;
  device_buffer<Affine> bases(per);
  device_buffer<uint64_t> words((n + 63) / 64);
  fill(bases.data(), point_words * per, 6, FP_TOP, 11);
  fill(words.data(), words.size(), 0, 0, 12);
  // k chunks' others an add, as the prover's sizing takes them (msm::cuda::accumulator_within_plan
  // compares these): the planned window, and as many windows a pass as fit the bytes planned for
  // a whole chunk of others.
  const size_t capacity = std::max<size_t>(k, 1) * others_a_chunk;
  const auto planned = cuzk::msm::cuda::plan_accumulator(total_others, per, xyzz, group);
  const unsigned a_pass =
      std::max(1u, cuzk::msm::cuda::widest_group_within(
                       total_others, capacity, planned.c, xyzz,
                       cuzk::msm::cuda::msm_accumulator_bytes(total_others, per, xyzz, group)));
  device_buffer<Affine> gathered(capacity);
  device_buffer<cuzk::ff::fr_t> scalars(capacity);
  fill(gathered.data(), point_words * capacity, 6, FP_TOP, 13);
  fill(scalars.data(), 4 * capacity, 4, FR_TOP, 14);
  cuzk::msm::msm_config cfg;
  cfg.window_bits = planned.c;
  cfg.device_group_bytes = a_pass * cuzk::msm::cuda::group_window_bytes(capacity, planned.c, xyzz);
  cuzk::msm::cuda::msm_accumulator<Affine> others(bench_ctx(), bench_stream(), total_others,
                                                  capacity, cfg);
  cuzk::msm::cuda::batch_accumulator<Affine> ones(bench_ctx(), bench_stream());
  for (auto _ : state) {
    size_t pending = 0;
    for (size_t c = 0; c < chunks; ++c) {
      const size_t first = c * per;
      ones.add(bases.data(), words.data() + first / 64, std::min(per, n - first));
      if (k == 0) continue;
      if (++pending == k || c + 1 == chunks) {
        others.add(gathered.data(), scalars.data(), pending * others_a_chunk);
        pending = 0;
      }
    }
    benchmark::DoNotOptimize(ones.result());
    if (k != 0) benchmark::DoNotOptimize(others.result());
  }
  count_chunks(state, chunks);
  state.counters["window"] = double(others.window_bits());
  state.counters["passes_a_flush"] = double(cuzk::msm::cuda::passes_of(planned.windows, a_pass));
}
void BM_gpu_split_stream(benchmark::State& state) {
  on_porep_split_shape(
      state, [&](auto point, size_t n) { split_stream_bench<decltype(point)>(state, n); });
}
BENCHMARK(BM_gpu_split_stream)
    ->ArgsProduct({{0, 1}, {512, 768}, {0, 1, 2, 4, 8}, {128, 512}})
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// BM_gpu_split_ones/<g2>/<slot MiB>/<per>: BM_gpu_split_stream's ones alone (a 50 % bitmap,
// chunk by chunk into one batch_accumulator) with `per` ones a thread (batch_config::per_thread;
// 0: batch_per_thread of the chunk's bits, what the prover takes). A chunk's threads are sized
// for all its bits ones (its count stays on the device), so at 50 % half of them add nothing.
template <class Affine>
void split_ones_bench(benchmark::State& state, size_t n) {
  const size_t per = cuzk::groth16::gpu_slot_points(uint64_t(state.range(1)) << 20, sizeof(Affine));
  const size_t chunks = (n + per - 1) / per;
  device_buffer<Affine> bases(per);
  device_buffer<uint64_t> words((n + 63) / 64);
  fill(bases.data(), sizeof(Affine) / 8 * per, 6, FP_TOP, 11);
  fill(words.data(), words.size(), 0, 0, 12);
  cuzk::msm::cuda::batch_config cfg;
  cfg.per_thread = uint32_t(state.range(2));
  cuzk::msm::cuda::batch_accumulator<Affine> ones(bench_ctx(), bench_stream());
  for (auto _ : state) {
    for (size_t first = 0; first < n; first += per)
      ones.add(bases.data(), words.data() + first / 64, std::min(per, n - first), cfg);
    benchmark::DoNotOptimize(ones.result());
  }
  count_chunks(state, chunks);
}
void BM_gpu_split_ones(benchmark::State& state) {
  on_porep_split_shape(state,
                       [&](auto point, size_t n) { split_ones_bench<decltype(point)>(state, n); });
}
BENCHMARK(BM_gpu_split_ones)
    ->ArgsProduct({{0, 1}, {512}, {0, 8, 16, 32, 64, 128}})
    ->Iterations(5)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_gpu_msm_g2(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  device_buffer<cuzk::ec::g2_affine_t> bases(n);
  device_buffer<cuzk::ff::fr_t> scalars(n);
  fill(bases.data(), 24 * n, 6, FP_TOP, 6);
  fill(scalars.data(), 4 * n, 4, FR_TOP, 7);
  for (auto _ : state) {
    auto r = cuzk::msm::cuda::msm_g2_device(bench_ctx(), bench_stream(), bases.data(),
                                            scalars.data(), n);
    benchmark::DoNotOptimize(r);
  }
  state.counters["window"] = cuzk::msm::cuda::choose_window_gpu(n, true);
  state.counters["pts/s"] =
      benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_gpu_msm_g2)
    ->Arg(20)
    ->Arg(21)
    ->Arg(22)
    ->Arg(24)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// WindowPoSt's B_G2 (issue 38 item 3): a dense G2 MSM over ≈ 92–125 M points, the largest single
// MSM of the proof. The three options that one device can show:

/// BM_gpu_msm_g2_window/<lg>/<c>/<group GiB>: the G2 MSM at a forced window and MSM group bytes
/// (the planner's knob: 4 GiB on a whole 80 GB card beside WindowPoSt's parameters, 12 GiB by
/// default, less on small cards), in a stream-ordered scope as the prover runs it.
void BM_gpu_msm_g2_window(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  device_buffer<cuzk::ec::g2_affine_t> bases(n);
  device_buffer<cuzk::ff::fr_t> scalars(n);
  fill(bases.data(), 24 * n, 6, FP_TOP, 6);
  fill(scalars.data(), 4 * n, 4, FR_TOP, 7);
  cuzk::msm::msm_config cfg;
  cfg.window_bits = unsigned(state.range(1));
  cfg.device_group_bytes = size_t(state.range(2)) << 30;
  const cuzk::gpu::stream_ordered_allocations order(bench_stream());
  for (auto _ : state) {
    auto r = cuzk::msm::cuda::msm_g2_device(bench_ctx(), bench_stream(), bases.data(),
                                            scalars.data(), n, cfg);
    benchmark::DoNotOptimize(r);
  }
  state.counters["pts/s"] =
      benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_gpu_msm_g2_window)
    ->ArgsProduct({{26}, {16, 18, 19, 20, 21, 22}, {4, 12}})
    ->Iterations(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// BM_gpu_msm_g1_g2_overlap/<lg G1>/<lg G2>: a G1 MSM (H's shape) and a G2 MSM (B_G2's) on two
/// streams at once, from two threads, each in a stream-ordered scope, against the same two one
/// after the other: what overlapping B_G2 with the G1 MSMs would win on one device.
void BM_gpu_msm_g1_g2_overlap(benchmark::State& state) {
  using clock = std::chrono::steady_clock;
  const size_t n1 = size_t(1) << state.range(0), n2 = size_t(1) << state.range(1);
  device_buffer<cuzk::ec::g1_affine_t> b1(n1);
  device_buffer<cuzk::ff::fr_t> s1(n1);
  device_buffer<cuzk::ec::g2_affine_t> b2(n2);
  device_buffer<cuzk::ff::fr_t> s2(n2);
  fill(b1.data(), 12 * n1, 6, FP_TOP, 2);
  fill(s1.data(), 4 * n1, 4, FR_TOP, 3);
  fill(b2.data(), 24 * n2, 6, FP_TOP, 6);
  fill(s2.data(), 4 * n2, 4, FR_TOP, 7);
  cuzk::msm::msm_config cfg;
  cfg.device_group_bytes = size_t(4) << 30;  // two working sets beside each other
  const cuzk::gpu::stream st1(bench_ctx()), st2(bench_ctx());
  const auto g1 = [&] {
    const cuzk::gpu::stream_ordered_allocations order(st1);
    auto r = cuzk::msm::cuda::msm_device(bench_ctx(), st1, b1.data(), s1.data(), n1, cfg);
    benchmark::DoNotOptimize(r);
  };
  const auto g2 = [&] {
    const cuzk::gpu::stream_ordered_allocations order(st2);
    auto r = cuzk::msm::cuda::msm_g2_device(bench_ctx(), st2, b2.data(), s2.data(), n2, cfg);
    benchmark::DoNotOptimize(r);
  };
  g1();
  g2();  // warm: the pool grown
  double apart = 0, together = 0;
  for (auto _ : state) {
    auto t0 = clock::now();
    g1();
    g2();
    apart += ms_since(t0);
    t0 = clock::now();
    std::thread other(g2);
    g1();
    other.join();
    together += ms_since(t0);
  }
  const double k = 1.0 / double(state.iterations());
  state.counters["apart_ms"] = apart * k;
  state.counters["together_ms"] = together * k;
}
BENCHMARK(BM_gpu_msm_g1_g2_overlap)
    ->Args({27, 26})
    ->Iterations(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// Host words below the modulus (top limb masked), in parallel (splitmix per 64-bit word).
template <class T>
std::vector<T> random_host(size_t n, uint64_t seed, uint64_t top_mask) {
  std::vector<T> v(n);
  static_assert(sizeof(T) % 8 == 0);
  auto* w = reinterpret_cast<uint64_t*>(v.data());
  const size_t limbs = sizeof(T) / 8, per_field = top_mask == FR_TOP ? 4 : 6;
  cuzk::thread_pool::default_pool().parallel_range(n * limbs, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      uint64_t z = seed + 0x9e3779b97f4a7c15ull * (i + 1);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      z ^= z >> 31;
      w[i] = (i % per_field == per_field - 1) ? z & top_mask : z;
    }
  });
  return v;
}

struct bitmap_owned {
  std::vector<uint64_t> words;
  size_t count = 0;
  cuzk::bitmap_view view() const { return {words, count}; }
  size_t popcount() const { return view().popcount(); }
};

bitmap_owned random_density(size_t n, double p, std::mt19937_64& g) {
  bitmap_owned b{std::vector<uint64_t>((n + 63) / 64, 0), n};
  const uint64_t threshold = uint64_t(p * 18446744073709551616.0 * (1 - 1e-12));
  for (size_t i = 0; i < n; ++i)
    if (g() < threshold) b.words[i / 64] |= uint64_t(1) << (i % 64);
  return b;
}

/// Device parameters of the query sizes `q` with random coordinates (not points: the arithmetic
/// is timed, the proof is meaningless), generators in the verifying key.
cuzk::result<std::unique_ptr<cuzk::groth16::cuda::device_parameters>> random_device_parameters(
    const cuzk::groth16::query_sizes& q) {
  namespace g16 = cuzk::groth16;
  g16::verifying_key vk;
  const auto g1 = cuzk::ec::g1_generator();
  const auto g2 = cuzk::ec::g2_generator();
  vk.alpha_g1 = vk.beta_g1 = vk.delta_g1 = g1;
  vk.beta_g2 = vk.gamma_g2 = vk.delta_g2 = g2;
  vk.ic.assign(q.ic, g1);
  auto dp = g16::cuda::device_parameters::allocate(vk, q, 0);
  if (!dp) return dp;
  const auto d = (*dp)->queries();
  fill(d.h, 12 * q.h, 6, FP_TOP, 11);
  fill(d.l, 12 * q.l, 6, FP_TOP, 12);
  fill(d.a, 12 * q.a, 6, FP_TOP, 13);
  fill(d.b_g1, 12 * q.b_g1, 6, FP_TOP, 14);
  fill(d.b_g2, 24 * q.b_g2, 6, FP_TOP, 15);
  return dp;
}

/// The query sizes an assignment of `rows` rows needs (domain: the next power of two).
cuzk::groth16::query_sizes query_sizes_of(const cuzk::groth16::assignment& asg, size_t rows) {
  size_t m = 1;
  while (m < rows) m <<= 1;  // the domain (rows include the one input row per input)
  const size_t nb = asg.b_input_density.popcount() + asg.b_aux_density.popcount();
  return {asg.num_inputs(),
          m - 1,
          asg.num_aux(),
          asg.num_inputs() + asg.a_aux_density.popcount(),
          nb,
          nb};
}

/// Runs `prove(tm)` once per iteration and reports the prover's phases (ms, means) as counters.
template <class Prove>
void prover_phases(benchmark::State& state, const cuzk::groth16::cuda::device_parameters& dp,
                   Prove&& prove) {
  namespace g16 = cuzk::groth16;
  g16::prover_timings tm, sum;
  int iters = 0;
  for (auto _ : state) {
    if (cuzk::status st = prove(tm); !st) {
      state.SkipWithError(st.to_string().c_str());
      return;
    }
    sum.upload += tm.upload;
    sum.abc += tm.abc;
    sum.ntt_a += tm.ntt_a + tm.ntt_b + tm.ntt_c;
    sum.h_compute += tm.h_compute;
    sum.msm_h += tm.msm_h;
    sum.msm_l += tm.msm_l;
    sum.msm_a += tm.msm_a;
    sum.msm_b_g1 += tm.msm_b_g1;
    sum.msm_b_g2 += tm.msm_b_g2;
    sum.start += tm.start;
    sum.split += tm.split;
    sum.epilogue += tm.epilogue;
    ++iters;
  }
  const double k = iters != 0 ? 1.0 / iters : 0;
  if (sum.upload != 0) state.counters["upload_ms"] = sum.upload * k;
  if (sum.abc != 0) state.counters["abc_ms"] = sum.abc * k;
  state.counters["ntt_ms"] = sum.ntt_a * k;
  state.counters["h_ms"] = sum.h_compute * k;
  state.counters["msm_h_ms"] = sum.msm_h * k;
  state.counters["msm_l_ms"] = sum.msm_l * k;
  state.counters["msm_a_ms"] = sum.msm_a * k;
  state.counters["msm_b1_ms"] = sum.msm_b_g1 * k;
  state.counters["msm_b2_ms"] = sum.msm_b_g2 * k;
  state.counters["gpu_ms"] = sum.start * k;
  state.counters["split_ms"] = sum.split * k;
  if (sum.epilogue != 0) state.counters["epi_ms"] = sum.epilogue * k;
  state.counters["srs_GB"] = double(dp.bytes()) / 1e9;
}

/// A synthetic assignment with `rows` rows (a, b, c lengths), `n_aux` aux and `n_in` inputs (all
/// of them in B), shaped like a PoRep partition (aux 45 % zeros, 45 % ones; A density 99.7 %,
/// B 25.4 %), and device parameters of its sizes (random coordinates).
struct synthetic_proof {
  std::vector<cuzk::ff::fr_t> a, b, c, inputs, aux;
  bitmap_owned a_aux, b_in, b_aux;
  std::unique_ptr<cuzk::groth16::cuda::device_parameters> dp;
  cuzk::groth16::assignment assignment() const {
    return {a, b, c, inputs, aux, a_aux.view(), b_in.view(), b_aux.view()};
  }
};

cuzk::result<std::unique_ptr<synthetic_proof>> make_synthetic_proof(size_t rows, size_t n_aux,
                                                                    size_t n_in,
                                                                    uint64_t seed = 0) {
  using cuzk::ff::fr_t;
  std::mt19937_64 g(8 + seed);
  auto p = std::make_unique<synthetic_proof>();
  p->a = random_host<fr_t>(rows, 1 + 10 * seed, FR_TOP);
  p->b = random_host<fr_t>(rows, 2 + 10 * seed, FR_TOP);
  p->c = random_host<fr_t>(rows, 3 + 10 * seed, FR_TOP);
  p->aux = random_host<fr_t>(n_aux, 4 + 10 * seed, FR_TOP);
  for (auto& x : p->aux) {
    const uint64_t k = g() % 20;
    if (k < 9)
      x = fr_t::zero();
    else if (k < 18)
      x = fr_t::one();
  }
  p->inputs.resize(n_in);
  for (size_t j = 0; j < n_in; ++j)
    p->inputs[j] = j == 0 ? fr_t::one() : fr_t::from_uint(12345 + j);
  p->a_aux = random_density(n_aux, 0.997, g);
  p->b_aux = random_density(n_aux, 0.254, g);
  p->b_in = {std::vector<uint64_t>((n_in + 63) / 64, ~uint64_t(0)), n_in};
  auto dp = random_device_parameters(query_sizes_of(p->assignment(), rows));
  if (!dp) return dp.error();
  p->dp = std::move(*dp);
  return cuzk::result<std::unique_ptr<synthetic_proof>>(std::move(p));
}

/// One GPU proof (start + finalize) of make_synthetic_proof's assignment.
void gpu_prove_bench(benchmark::State& state, size_t rows, size_t n_aux, size_t n_in) {
  namespace g16 = cuzk::groth16;
  using cuzk::ff::fr_t;
  auto sp = make_synthetic_proof(rows, n_aux, n_in);
  if (!sp) {
    state.SkipWithError(sp.error().to_string().c_str());
    return;
  }
  const g16::assignment asg = (*sp)->assignment();
  const auto& dp = *(*sp)->dp;
  prover_phases(state, dp, [&](g16::prover_timings& tm) -> cuzk::status {
    auto pf = g16::cuda::create_proof(dp, asg, fr_t::from_uint(1), fr_t::from_uint(2),
                                      cuzk::thread_pool::default_pool(), &tm);
    if (!pf) return pf.error();
    benchmark::DoNotOptimize(pf);
    return {};
  });
}

void BM_gpu_groth16_prove(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  gpu_prove_bench(state, n, n, 2);
}
BENCHMARK(BM_gpu_groth16_prove)
    ->Arg(16)
    ->Arg(18)
    ->Arg(20)
    ->Arg(22)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The shape of one 32 GiB PoRep partition (docs/spec/porep.md §7–§9; issue 4): 130,278,869 rows,
/// 130,169,893 aux, 328 inputs, domain 2^27; ≈ 47 GB of SRS on the device.
void BM_gpu_groth16_prove_porep32g(benchmark::State& state) {
  gpu_prove_bench(state, 130278869, 130169893, 328);
}
BENCHMARK(BM_gpu_groth16_prove_porep32g)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// BM_gpu_express_beside_porep32g/<lg> (issue 37 item 3): what an express proof (a PoSt on the
/// engine's express lane) waits for beside a 32 GiB PoRep partition's proof, on one device and
/// without the daemon (no synthesis on the host's cores, no engine locks). A thread proves the
/// partition-shaped assignment over and over (normal priority, the device's compute lock, as a
/// regular lane); each iteration sleeps a pseudo-random 0–400 ms (seed in the log), then times on
/// the greatest-priority stream:
///   proof  an express proof of 2^lg rows (express_scope: as the engine's express lane), wall;
///   msm    one G1 MSM of 2^lg terms in a stream-ordered scope, wall;
///   probe  a kernel of 4 blocks per multiprocessor spinning 0.2 ms: launch to end (CUDA events)
///          and the launch call's own host time.
/// The same three on the idle device first. A probe as slow as the proof says the express blocks
/// wait for multiprocessors held by the PoRep's blocks; a fast probe beside a slow MSM says the
/// MSM's path waits for something else (an allocation or call that waits for the device, a host
/// round trip). Every iteration's figures go to stderr.
void BM_gpu_express_beside_porep32g(benchmark::State& state) {
  namespace g16 = cuzk::groth16;
  using cuzk::ff::fr_t;
  using clock = std::chrono::steady_clock;
  const size_t n = size_t(1) << state.range(0);
  auto small = make_synthetic_proof(n, n, 2, 1);
  if (!small) {
    state.SkipWithError(small.error().to_string().c_str());
    return;
  }
  auto big = make_synthetic_proof(130278869, 130169893, 328);
  if (!big) {
    state.SkipWithError(big.error().to_string().c_str());
    return;
  }
  const g16::assignment small_asg = (*small)->assignment(), big_asg = (*big)->assignment();
  const auto& small_dp = *(*small)->dp;
  const auto& big_dp = *(*big)->dp;
  cuzk::thread_pool express_pool(4);
  device_buffer<cuzk::ec::g1_affine_t> msm_bases(n);
  device_buffer<fr_t> msm_scalars(n);
  fill(msm_bases.data(), 12 * n, 6, FP_TOP, 21);
  fill(msm_scalars.data(), 4 * n, 4, FR_TOP, 22);
  int sms = 0;
  CUZK_CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  struct sample {
    double proof, msm, probe, launch;
    g16::prover_timings tm;
  };
  const auto measure = [&]() -> sample {
    sample x{};
    {
      g16::express_scope ex;
      const auto t0 = clock::now();
      auto pf = g16::cuda::create_proof(small_dp, small_asg, fr_t::from_uint(1), fr_t::from_uint(2),
                                        express_pool, &x.tm);
      if (!pf) std::fprintf(stderr, "express proof failed: %s\n", pf.error().to_string().c_str());
      x.proof = ms_since(t0);
    }
    const cuzk::gpu::stream st(bench_ctx(), cuzk::gpu::stream_priority::greatest);
    {
      const cuzk::gpu::stream_ordered_allocations order(st);
      const auto t0 = clock::now();
      auto r =
          cuzk::msm::cuda::msm_device(bench_ctx(), st, msm_bases.data(), msm_scalars.data(), n);
      benchmark::DoNotOptimize(r);
      x.msm = ms_since(t0);
    }
    cuzk::gpu::event e0, e1;
    e0.record(st);
    const auto t0 = clock::now();
    spin_kernel<<<unsigned(4 * sms), 128, 0, st.get()>>>(200000);
    x.launch = ms_since(t0);
    CUZK_CUDA_LAUNCH_OK();
    e1.record(st);
    x.probe = e1.since(e0);
    return x;
  };
  const auto print = [](const char* what, int i, const sample& x) {
    std::fprintf(
        stderr,
        "%s %d: proof %.1f ms (upload %.1f, msm_h %.1f, l %.1f, a %.1f, b1 %.1f, b2 %.1f), "
        "msm %.1f ms, probe %.2f ms (launch call %.3f ms)\n",
        what, i, x.proof, x.tm.upload, x.tm.msm_h, x.tm.msm_l, x.tm.msm_a, x.tm.msm_b_g1,
        x.tm.msm_b_g2, x.msm, x.probe, x.launch);
  };
  std::vector<sample> idle;
  for (int i = 0; i < 6; ++i) idle.push_back(measure());
  for (size_t i = 1; i < idle.size(); ++i) print("idle", int(i), idle[i]);  // the first warms up
  std::atomic<bool> stop{false};
  std::atomic<int> big_proofs{0};
  std::thread regular([&] {
    while (!stop.load()) {
      g16::prover_timings tm;
      auto pf = g16::cuda::create_proof(big_dp, big_asg, fr_t::from_uint(3), fr_t::from_uint(4),
                                        cuzk::thread_pool::default_pool(), &tm);
      if (!pf) {
        std::fprintf(stderr, "regular proof failed: %s\n", pf.error().to_string().c_str());
        return;
      }
      std::fprintf(stderr, "regular proof %d: gpu %.0f ms, msm_h %.0f ms\n", big_proofs.load(),
                   tm.start, tm.msm_h);
      ++big_proofs;
    }
  });
  const uint64_t seed = 37;
  std::fprintf(stderr, "express beside porep32g: pauses from seed %llu\n",
               static_cast<unsigned long long>(seed));
  std::mt19937_64 g(seed);
  std::this_thread::sleep_for(std::chrono::seconds(4));  // the first regular proof under way
  std::vector<double> proof, msm, probe;
  int i = 0;
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(g() % 400));
    const sample x = measure();
    print("busy", i++, x);
    proof.push_back(x.proof);
    msm.push_back(x.msm);
    probe.push_back(x.probe);
  }
  stop = true;
  regular.join();
  std::vector<double> idle_proof, idle_probe;
  for (size_t k = 1; k < idle.size(); ++k) {
    idle_proof.push_back(idle[k].proof);
    idle_probe.push_back(idle[k].probe);
  }
  state.counters["idle_proof_ms"] = quantile(idle_proof, 0.5);
  state.counters["idle_probe_ms"] = quantile(idle_probe, 0.5);
  state.counters["proof_p50_ms"] = quantile(proof, 0.5);
  state.counters["proof_p99_ms"] = quantile(proof, 0.99);
  state.counters["msm_p50_ms"] = quantile(msm, 0.5);
  state.counters["msm_p99_ms"] = quantile(msm, 0.99);
  state.counters["probe_p50_ms"] = quantile(probe, 0.5);
  state.counters["probe_p99_ms"] = quantile(probe, 0.99);
  state.counters["regular_proofs"] = big_proofs.load();
}
BENCHMARK(BM_gpu_express_beside_porep32g)
    ->Arg(19)  // a 32 GiB WinningPoSt: ≈ 370 K constraints
    ->Iterations(40)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// BM_gpu_express_copy_beside_upload/<piece MiB> (issue 37 item 3): copies carry no stream
/// priority, so a small upload on the greatest-priority stream may wait for a large one already
/// on the copy engine (the engine's witness upload: 4.17 GB, one copy from page-locked memory).
/// A thread uploads 4 GiB of page-locked host memory over and over, as copies of <piece> MiB on
/// a stream of its own; each iteration sleeps a pseudo-random 0–100 ms (seed 38), then times a
/// 16 MiB page-locked upload on a greatest-priority stream (CUDA events). The idle figure first.
void BM_gpu_express_copy_beside_upload(benchmark::State& state) {
  const size_t piece = size_t(state.range(0)) << 20, big = size_t(4) << 30,
               small = size_t(16) << 20;
  cuzk::gpu::pinned_buffer host_big(big), host_small(small);
  std::memset(host_big.get(), 1, big);
  std::memset(host_small.get(), 2, small);
  device_buffer<uint8_t> dev_big(big), dev_small(small);
  const cuzk::gpu::stream fast(bench_ctx(), cuzk::gpu::stream_priority::greatest);
  const auto timed_upload = [&] {
    cuzk::gpu::event e0, e1;
    e0.record(fast);
    CUZK_CUDA_OK(cudaMemcpyAsync(dev_small.data(), host_small.get(), small, cudaMemcpyHostToDevice,
                                 fast.get()));
    e1.record(fast);
    return double(e1.since(e0));
  };
  std::vector<double> idle;
  for (int i = 0; i < 6; ++i) idle.push_back(timed_upload());
  std::atomic<bool> stop{false};
  std::thread uploader([&] {
    const cuzk::gpu::stream slow(bench_ctx());
    while (!stop.load()) {
      for (size_t off = 0; off < big; off += piece)
        CUZK_CUDA_OK(cudaMemcpyAsync(dev_big.data() + off, host_big.get() + off,
                                     std::min(piece, big - off), cudaMemcpyHostToDevice,
                                     slow.get()));
      slow.synchronize();
    }
  });
  std::mt19937_64 g(38);
  std::vector<double> busy;
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(g() % 100));
    busy.push_back(timed_upload());
  }
  stop = true;
  uploader.join();
  state.counters["idle_ms"] = quantile(idle, 0.5);
  state.counters["busy_p50_ms"] = quantile(busy, 0.5);
  state.counters["busy_p90_ms"] = quantile(busy, 0.9);
  state.counters["busy_max_ms"] = quantile(busy, 1.0);
}
BENCHMARK(BM_gpu_express_copy_beside_upload)
    ->Arg(4096)
    ->Arg(256)
    ->Arg(64)
    ->Iterations(60)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// BM_cpu_msm_g2/<lg>: the host's G2 MSM on every core of the GPU machine (msm::msm, random
/// coordinates: the arithmetic of real points), for the share of B_G2 the CPU could take while
/// the GPU works: share = cpu rate / (cpu rate + gpu rate).
void BM_cpu_msm_g2(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  const auto bases = random_host<cuzk::ec::g2_affine_t>(n, 31, FP_TOP);
  const auto scalars = random_host<cuzk::ff::fr_t>(n, 32, FR_TOP);
  for (auto _ : state) {
    auto r = cuzk::msm::msm(bases, scalars, cuzk::thread_pool::default_pool());
    benchmark::DoNotOptimize(r);
  }
  state.counters["threads"] = cuzk::thread_pool::default_pool().size();
  state.counters["pts/s"] =
      benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_cpu_msm_g2)->Arg(20)->Iterations(2)->Unit(benchmark::kMillisecond)->UseRealTime();

#if defined(CUZK_BENCH_PLANS)
/// The engine's device path for one 32 GiB PoRep partition: the circuit's compiled plan
/// (synth::stacked_abc_plan) uploaded once, the blank circuit's witness (witness_cs,
/// parallel synthesis: every SHA-256 and Poseidon value computed; never sealed) page-locked as the
/// engine's recycled buffers are, uploaded and a, b, c evaluated on the GPU per proof, then the
/// NTTs and MSMs against a random SRS of the exact shape (random coordinates). GPU work only
/// (start(), no finalize); synthesis is not timed. Registered when CUZK_BENCH_32G=1 (≈ 60 GB of
/// device memory, ≈ 15 GB of host memory).
struct porep32g_plan_fixture {
  cuzk::r1cs::witness_cs w;
  cuzk::r1cs::density_bitmaps dens;
  std::unique_ptr<cuzk::groth16::cuda::device_abc_program> prog;
  std::unique_ptr<cuzk::gpu::host_registration> pinned;
  std::unique_ptr<cuzk::groth16::cuda::device_parameters> dp;
  cuzk::groth16::assignment witness() const {
    return {
        {}, {}, {}, w.inputs(), w.aux(), dens.a_aux.view(), dens.b_input.view(), dens.b_aux.view()};
  }
};

cuzk::result<std::unique_ptr<porep32g_plan_fixture>> make_porep32g_plan_fixture() {
  namespace g16 = cuzk::groth16;
  namespace synth = cuzk::filecoin::circuits;
  auto& pool = cuzk::thread_pool::default_pool();
  const auto cfg = cuzk::filecoin::porep::porep_config(
      cuzk::filecoin::porep::registered_seal_proof::stacked_drg_32gib_v1_1);
  const synth::stacked_circuit_t c = synth::blank_stacked_circuit(*cfg);
  auto f = std::make_unique<porep32g_plan_fixture>();
  if (cuzk::status st = synth::synthesize_stacked_circuit_parallel(f->w, c, pool); !st) return st;
  auto plan =
      synth::stacked_abc_plan(c.layers, c.tree_d, c.tree_r, cfg->challenges_per_partition());
  if (!plan) return plan.error();
  f->dens = plan->densities();
  auto prog = g16::cuda::device_abc_program::upload(*plan, bench_ctx());
  if (!prog) return prog.error();
  f->prog = std::move(*prog);
  const std::span<const cuzk::ff::fr_t> aux = f->w.aux();
  auto pin = cuzk::gpu::host_registration::make(aux.data(), aux.size_bytes());
  if (!pin) return pin.error();
  f->pinned = std::move(*pin);
  auto dp = random_device_parameters(query_sizes_of(f->witness(), f->prog->num_rows()));
  if (!dp) return dp.error();
  f->dp = std::move(*dp);
  return cuzk::result<std::unique_ptr<porep32g_plan_fixture>>(std::move(f));
}

void BM_gpu_groth16_prove_porep32g_plan(benchmark::State& state) {
  auto f = make_porep32g_plan_fixture();
  if (!f) {
    state.SkipWithError(f.error().to_string().c_str());
    return;
  }
  const cuzk::groth16::assignment asg = (*f)->witness();
  prover_phases(state, *(*f)->dp, [&](cuzk::groth16::prover_timings& tm) -> cuzk::status {
    auto parts = cuzk::groth16::cuda::start(*(*f)->dp, *(*f)->prog, asg,
                                            cuzk::thread_pool::default_pool(), &tm);
    if (!parts) return parts.error();
    benchmark::DoNotOptimize(parts);
    return {};
  });
  state.counters["rows"] = double((*f)->prog->num_rows());
}

/// BM_gpu_groth16_prove_porep32g_plan_lanes/<lanes>: the same partition proved by `lanes` threads
/// at once on one device_parameters, each proving 4 partitions back to back — the engine's prover
/// lanes on one GPU: a lane uploads its witness while another lane's kernels run, the device's
/// compute lock keeps their kernels apart. One iteration is the 4 · lanes partitions;
/// ms_per_partition (wall time / partitions) is the throughput the engine can reach,
/// wait_ms the mean time a lane waited for the device.
void BM_gpu_groth16_prove_porep32g_plan_lanes(benchmark::State& state) {
  const unsigned lanes = unsigned(state.range(0));
  constexpr unsigned per_lane = 4;
  auto f = make_porep32g_plan_fixture();
  if (!f) {
    state.SkipWithError(f.error().to_string().c_str());
    return;
  }
  const cuzk::groth16::assignment asg = (*f)->witness();
  std::vector<std::unique_ptr<cuzk::thread_pool>> pools;
  for (unsigned i = 0; i < lanes; ++i) pools.push_back(std::make_unique<cuzk::thread_pool>(4));
  // Warm-up: NTT tables, staging sets, the pool's memory.
  if (auto parts = cuzk::groth16::cuda::start(*(*f)->dp, *(*f)->prog, asg, *pools[0]); !parts) {
    state.SkipWithError(parts.error().to_string().c_str());
    return;
  }
  double wall_ms = 0, wait_ms = 0, upload_ms = 0;
  std::string error;
  std::mutex error_mu;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    std::vector<double> waits(lanes, 0), uploads(lanes, 0);
    for (unsigned i = 0; i < lanes; ++i) {
      threads.emplace_back([&, i] {
        for (unsigned k = 0; k < per_lane; ++k) {
          cuzk::groth16::prover_timings tm;
          auto parts = cuzk::groth16::cuda::start(*(*f)->dp, *(*f)->prog, asg, *pools[i], &tm);
          if (!parts) {
            std::lock_guard lock(error_mu);
            error = parts.error().to_string();
            return;
          }
          waits[i] += tm.device_wait;
          uploads[i] += tm.upload;
        }
      });
    }
    for (std::thread& t : threads) t.join();
    wall_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (unsigned i = 0; i < lanes; ++i) {
      wait_ms += waits[i];
      upload_ms += uploads[i];
    }
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  const double partitions = double(state.iterations()) * lanes * per_lane;
  state.counters["ms_per_partition"] = wall_ms / partitions;
  state.counters["wait_ms"] = wait_ms / partitions;
  state.counters["upload_ms"] = upload_ms / partitions;
}

const bool registered_plan_32g = [] {
  const char* e = std::getenv("CUZK_BENCH_32G");
  if (e && *e && *e != '0') {
    benchmark::RegisterBenchmark("BM_gpu_groth16_prove_porep32g_plan",
                                 BM_gpu_groth16_prove_porep32g_plan)
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("BM_gpu_groth16_prove_porep32g_plan_lanes",
                                 BM_gpu_groth16_prove_porep32g_plan_lanes)
        ->Arg(1)
        ->Arg(2)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  return true;
}();
#endif

/// BM_gpu_fixed_base_{g1,g2}/<lg>: the setup's fixed-base multiplications (setup_gpu.hpp) of 2^lg
/// random scalars, host to host: canonical conversion on the pool, upload, kernel, affine points
/// downloaded into pageable host memory. points/s is the setup's rate for that group.
template <class Field>
void fixed_base_bench(benchmark::State& state, const cuzk::ec::affine_t<Field>& g) {
  namespace g16 = cuzk::groth16;
  const size_t n = size_t(1) << state.range(0);
  std::mt19937_64 rng(21);
  std::vector<cuzk::ff::fr_t> k(n);
  for (auto& x : k) x = cuzk::ff::fr_t::random(rng);
  std::vector<cuzk::ec::affine_t<Field>> out(n);
  const g16::fixed_base_table<Field> table(g, cuzk::thread_pool::default_pool());
  auto backend = g16::cuda::make_fixed_base_backend(0, cuzk::thread_pool::default_pool());
  if (!backend) {
    state.SkipWithError(backend.error().to_string().c_str());
    return;
  }
  for (auto _ : state) {
    const cuzk::status s = (*backend)->mul(table, k, out, "bench", {});
    if (!s) {
      state.SkipWithError(s.to_string().c_str());
      return;
    }
  }
  state.counters["points/s"] =
      benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate);
}
void BM_gpu_fixed_base_g1(benchmark::State& state) {
  fixed_base_bench(state, cuzk::ec::g1_generator());
}
void BM_gpu_fixed_base_g2(benchmark::State& state) {
  fixed_base_bench(state, cuzk::ec::g2_generator());
}
BENCHMARK(BM_gpu_fixed_base_g1)->Arg(20)->Arg(24)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_gpu_fixed_base_g2)->Arg(20)->Arg(22)->Unit(benchmark::kMillisecond)->UseRealTime();

/// BM_gpu_groth16_prove_verified/<lg>: a real circuit, not a synthetic shape: random_circuit
/// (groth16/test_circuits.hpp: 2^lg − 8 rows of AND / XOR / affine-product constraints with a
/// satisfying witness, 0/1-heavy like a PoRep partition), parameters generated with the GPU
/// fixed-base backend (setup_s: QAP on the host + the GPU multiplications), uploaded once; each
/// proof (random r, s) is timed, then verified untimed; a proof that does not verify fails the
/// benchmark. Counters: setup_s, srs_GB, verified (proofs checked).
void BM_gpu_groth16_prove_verified(benchmark::State& state) {
  namespace g16 = cuzk::groth16;
  using cuzk::ff::fr_t;
  auto& pool = cuzk::thread_pool::default_pool();
  const size_t rows = (size_t(1) << state.range(0)) - 8;
  std::mt19937_64 rng(24);
  const auto ci = g16::testing::random_circuit(rows, 3, rng);
  auto oa = g16::testing::make_assignment(ci.cs, ci.inputs, ci.aux, pool);
  if (!oa) {
    state.SkipWithError(oa.error().to_string().c_str());
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto backend = g16::cuda::make_fixed_base_backend(0, pool);
  if (!backend) {
    state.SkipWithError(backend.error().to_string().c_str());
    return;
  }
  const uint8_t seed[] = {'b', 'e', 'n', 'c', 'h'};
  auto params =
      g16::generate_parameters(ci.cs, g16::toxic_waste::from_seed(seed), pool, {}, backend->get());
  if (!params) {
    state.SkipWithError(params.error().to_string().c_str());
    return;
  }
  const double setup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto dp = g16::cuda::device_parameters::upload(*params, 0);
  if (!dp) {
    state.SkipWithError(dp.error().to_string().c_str());
    return;
  }
  const auto pvk = g16::prepare_verifying_key(params->vk);
  const std::vector<fr_t> x(ci.inputs.begin() + 1, ci.inputs.end());
  const auto asg = oa->view();
  size_t verified = 0;
  for (auto _ : state) {
    const fr_t r = fr_t::random(rng), s = fr_t::random(rng);
    auto pf = g16::cuda::create_proof(**dp, asg, r, s, pool);
    if (!pf) {
      state.SkipWithError(pf.error().to_string().c_str());
      return;
    }
    state.PauseTiming();
    auto ok = g16::verify(pvk, *pf, x);
    if (!ok || !*ok) {
      state.SkipWithError("a GPU proof did not verify");
      return;
    }
    ++verified;
    state.ResumeTiming();
  }
  state.counters["setup_s"] = setup_s;
  state.counters["srs_GB"] = double((*dp)->bytes()) / 1e9;
  state.counters["verified"] = double(verified);
}
BENCHMARK(BM_gpu_groth16_prove_verified)
    ->Arg(20)
    ->Arg(24)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_gpu_batch_add(benchmark::State& state) {
  const size_t n = size_t(1) << state.range(0);
  device_buffer<cuzk::ec::g1_affine_t> bases(n);
  device_buffer<uint64_t> words(n / 64);
  fill(bases.data(), 12 * n, 6, FP_TOP, 4);
  fill(words.data(), n / 64, 0, 0, 5);  // uniform bits: 50 % density
  for (auto _ : state) {
    auto r = cuzk::msm::cuda::batch_add_device(bench_ctx(), bench_stream(), bases.data(),
                                               words.data(), n);
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
