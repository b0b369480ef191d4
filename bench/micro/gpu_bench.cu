// SPDX-License-Identifier: Apache-2.0
// GPU micro-benchmarks on device-resident data (CUDA builds only): BM_gpu_ntt/<lg> (forward fft,
// nr order: no permutation pass, the prover's form), BM_gpu_ntt_nn/<lg> (natural order),
// BM_gpu_ntt_rn/<lg> (DIT), BM_gpu_msm_g1/<lg> and BM_gpu_msm_g2/<lg> (uniform 255-bit scalars;
// BM_gpu_msm_g1_window/<lg>/<c> at a forced window width), BM_gpu_batch_add/<lg> (50 % density
// bitmap), BM_gpu_groth16_prove/<lg> (a whole GPU proof, start + finalize, over a synthetic
// assignment of 2^lg rows and 2^lg aux shaped like a PoRep partition: A density 99.7 %, B
// density 25.4 %, aux 45 % zeros, 45 % ones, 10 % uniform; the SRS resident on the device) and
// BM_gpu_groth16_prove_porep32g (the same at the exact size of a 32 GiB PoRep partition;
// BM_gpu_groth16_prove_porep32g_plan, in cuzk-microbench only, with CUZK_BENCH_32G=1: the real
// compiled plan and a blank-circuit witness through the engine's device a, b, c path).
// Inputs are generated on the device (the prover's on the host); bases are random coordinates,
// not curve points, which times the same arithmetic (as the sppark reference measurements do) but
// gives a meaningless sum. Not so BM_gpu_groth16_prove_verified/<lg>: a real circuit with
// GPU-generated parameters whose proofs are verified; BM_gpu_fixed_base_{g1,g2}/<lg> time that
// setup's fixed-base multiplications.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/thread_pool.hpp"
#include "ec/curves.hpp"
#include "gpu/device_memory.cuh"
#include "gpu/host_registration.hpp"
#include "groth16/abc_gpu.hpp"
#include "groth16/prover_gpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/setup_gpu.hpp"
#include "groth16/test_circuits.hpp"
#include "groth16/verifier.hpp"
#include "msm/msm_gpu.hpp"
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
  state.counters["window"] = cuzk::msm::cuda::choose_window_gpu(n);
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

/// One GPU proof (start + finalize) of a synthetic assignment with `rows` rows (a, b, c lengths),
/// `n_aux` aux and `n_in` inputs (all of them in B), SRS bases filled on the device.
void gpu_prove_bench(benchmark::State& state, size_t rows, size_t n_aux, size_t n_in) {
  namespace g16 = cuzk::groth16;
  using cuzk::ff::fr_t;
  std::mt19937_64 g(8);
  const std::vector<fr_t> a = random_host<fr_t>(rows, 1, FR_TOP),
                          b = random_host<fr_t>(rows, 2, FR_TOP),
                          c = random_host<fr_t>(rows, 3, FR_TOP);
  std::vector<fr_t> aux = random_host<fr_t>(n_aux, 4, FR_TOP);
  for (auto& x : aux) {
    const uint64_t k = g() % 20;
    if (k < 9)
      x = fr_t::zero();
    else if (k < 18)
      x = fr_t::one();
  }
  std::vector<fr_t> inputs(n_in);
  for (size_t j = 0; j < n_in; ++j) inputs[j] = j == 0 ? fr_t::one() : fr_t::from_uint(12345 + j);
  const bitmap_owned a_aux = random_density(n_aux, 0.997, g),
                     b_aux = random_density(n_aux, 0.254, g);
  bitmap_owned b_in{std::vector<uint64_t>((n_in + 63) / 64, ~uint64_t(0)), n_in};
  g16::assignment asg{a, b, c, inputs, aux, a_aux.view(), b_in.view(), b_aux.view()};
  auto dp = random_device_parameters(query_sizes_of(asg, rows));
  if (!dp) {
    state.SkipWithError(dp.error().to_string().c_str());
    return;
  }
  prover_phases(state, **dp, [&](g16::prover_timings& tm) -> cuzk::status {
    auto pf = g16::cuda::create_proof(**dp, asg, fr_t::from_uint(1), fr_t::from_uint(2),
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
