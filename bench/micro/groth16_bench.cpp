// SPDX-License-Identifier: Apache-2.0
// CPU Groth16 benchmarks on random circuits of 2^lg rows (constraints + input rows) whose aux
// values are ~90 % 0/1 (groth16/test_circuits.hpp), all hardware threads:
//   BM_groth16_prove/<lg>: one create_proof; counters = per-phase milliseconds (prover_timings)
//     and the 0/1/other split of aux.
//   BM_groth16_setup/<lg>: generate_parameters; counter points_per_s (G2 points count as one).
// lg 12..16 are registered; /20 (the size) only with CUZK_BENCH_LARGE=1:
//   CUZK_BENCH_LARGE=1 cuzk-microbench --benchmark_filter='BM_groth16_prove/20'
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>

#include "groth16/prover_cpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/test_circuits.hpp"
#include "msm/msm_cpu.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

constexpr size_t NUM_PUBLIC = 16;

struct instance_t {
  testing::circuit_instance ci;
  testing::owned_assignment oa;
  std::unique_ptr<parameters> params;
};

testing::circuit_instance make_circuit(unsigned lg) {
  std::mt19937_64 rng(0x6a09e667f3bcc908ull + lg);
  // rows = constraints + (1 + NUM_PUBLIC) input rows = 2^lg exactly
  return testing::random_circuit((size_t(1) << lg) - 1 - NUM_PUBLIC, NUM_PUBLIC, rng);
}

toxic_waste bench_waste() {
  const uint8_t seed[] = {'b', 'e', 'n', 'c', 'h'};
  return toxic_waste::from_seed(seed);
}

/// One instance per size, built on first use and kept for the process.
instance_t& instance(unsigned lg) {
  static std::map<unsigned, std::unique_ptr<instance_t>> cache;
  auto& slot = cache[lg];
  if (!slot) {
    thread_pool& pool = thread_pool::default_pool();
    slot = std::make_unique<instance_t>();
    slot->ci = make_circuit(lg);
    auto oa = testing::make_assignment(slot->ci.cs, slot->ci.inputs, slot->ci.aux, pool);
    if (!oa) std::abort();
    slot->oa = std::move(*oa);
    auto p = generate_parameters(slot->ci.cs, bench_waste(), pool);
    if (!p) std::abort();
    slot->params = std::make_unique<parameters>(std::move(*p));
  }
  return *slot;
}

void BM_groth16_prove(benchmark::State& state) {
  const unsigned lg = unsigned(state.range(0));
  instance_t& inst = instance(lg);
  thread_pool& pool = thread_pool::default_pool();
  const assignment asg = inst.oa.view();
  prover_timings sum{};
  size_t runs = 0;
  for (auto _ : state) {
    prover_timings tm;
    auto pf = create_proof(*inst.params, asg, ff::fr_t::from_uint(11), ff::fr_t::from_uint(13),
                           pool, &tm);
    if (!pf) state.SkipWithError(pf.error().to_string().c_str());
    benchmark::DoNotOptimize(pf);
    sum.ntt_a += tm.ntt_a;
    sum.ntt_b += tm.ntt_b;
    sum.ntt_c += tm.ntt_c;
    sum.h_compute += tm.h_compute;
    sum.split += tm.split;
    sum.msm_h += tm.msm_h;
    sum.msm_l += tm.msm_l;
    sum.msm_a += tm.msm_a;
    sum.msm_b_g1 += tm.msm_b_g1;
    sum.msm_b_g2 += tm.msm_b_g2;
    sum.epilogue += tm.epilogue;
    sum.total += tm.total;
    ++runs;
  }
  const double n = double(runs ? runs : 1);
  state.counters["ntt_abc_ms"] = (sum.ntt_a + sum.ntt_b + sum.ntt_c) / n;
  state.counters["h_ms"] = sum.h_compute / n;
  state.counters["split_ms"] = sum.split / n;
  state.counters["msm_h_ms"] = sum.msm_h / n;
  state.counters["msm_l_ms"] = sum.msm_l / n;
  state.counters["msm_a_ms"] = sum.msm_a / n;
  state.counters["msm_b_g1_ms"] = sum.msm_b_g1 / n;
  state.counters["msm_b_g2_ms"] = sum.msm_b_g2 / n;
  state.counters["epilogue_ms"] = sum.epilogue / n;
  state.counters["total_ms"] = sum.total / n;
  const auto split = msm::split_witness(asg.aux, nullptr, thread_pool::default_pool());
  state.counters["aux"] = double(asg.num_aux());
  state.counters["aux_01_pct"] =
      100.0 * double(split.num_zero + split.num_one) / double(asg.num_aux() ? asg.num_aux() : 1);
}

void BM_groth16_setup(benchmark::State& state) {
  const unsigned lg = unsigned(state.range(0));
  const testing::circuit_instance ci = make_circuit(lg);
  thread_pool& pool = thread_pool::default_pool();
  size_t points = 0;
  for (auto _ : state) {
    auto p = generate_parameters(ci.cs, bench_waste(), pool);
    if (!p) state.SkipWithError(p.error().to_string().c_str());
    points =
        p->h.size() + p->l.size() + p->a.size() + p->b_g1.size() + p->b_g2.size() + p->vk.ic.size();
    benchmark::DoNotOptimize(p);
  }
  state.counters["points"] = double(points);
  state.counters["points_per_s"] =
      benchmark::Counter(double(points), benchmark::Counter::kIsIterationInvariantRate);
}

/// lg 12..16 always; with CUZK_BENCH_LARGE=1 also lg 20 (the size).
[[maybe_unused]] const bool registered = [] {
  std::vector<int64_t> sizes = {12, 13, 14, 15, 16};
  if (const char* e = std::getenv("CUZK_BENCH_LARGE"); e && e[0] == '1') sizes.push_back(20);
  for (int64_t lg : sizes) {
    benchmark::RegisterBenchmark("BM_groth16_prove", BM_groth16_prove)
        ->Arg(lg)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark("BM_groth16_setup", BM_groth16_setup)
        ->Arg(lg)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
  }
  return true;
}();

}  // namespace
