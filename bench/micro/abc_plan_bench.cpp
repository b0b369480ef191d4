// SPDX-License-Identifier: Apache-2.0
// The compiled matrices of the PoRep circuit (r1cs::abc_plan, issue #19): one thread each.
//   BM_abc_plan_porep/<size>/0  build the plan (prologue + one challenge recorded, the last one
//                               checked against it)
//   BM_abc_plan_porep/<size>/1  evaluate a, b, c of every row from a random witness
//   BM_abc_plan_porep/<size>/2  the same from the blank circuit's witness (mostly bits, as in
//                               every real witness of these circuits)
//   BM_synth_porep_8m/<mode>    one 8 MiB partition synthesized into witness_cs (1) or
//                               proving_cs (2), as BM_synth_porep_2k does for 2 KiB
// Counters: rows, the plan's rows / nonzeros / distinct coefficients / MiB, seconds per row.
// BM_abc_plan_porep_partition_32g (plan of a 32 GiB partition; evaluation of its first
// challenge's rows, ≈ 7.2 M, over a witness vector of the full size of which only the prologue
// and that challenge are touched) is registered only when CUZK_BENCH_32G=1 is set.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "base/default_init_allocator.hpp"
#include "base/thread_pool.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/config.hpp"
#include "r1cs/abc_plan.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace {

namespace porep = cuzk::filecoin::porep;
namespace synth = cuzk::filecoin::circuits;
namespace r1cs = cuzk::r1cs;
using cuzk::ff::fr_t;
using fr_vector = std::vector<fr_t, cuzk::default_init_allocator<fr_t>>;

double peak_rss_gib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / (1024.0 * 1024.0);  // ru_maxrss is in KiB on Linux
}

porep::registered_seal_proof proof_of(int64_t size) {
  switch (size) {
    case 0:
      return porep::registered_seal_proof::stacked_drg_2kib_v1_1;
    case 1:
      return porep::registered_seal_proof::stacked_drg_8mib_v1_1;
    default:
      return porep::registered_seal_proof::stacked_drg_32gib_v1_1;
  }
}

r1cs::abc_plan build_plan(const porep::porep_config_t& cfg) {
  auto plan = synth::stacked_abc_plan(cfg.layers(), cfg.sector.tree_d, cfg.sector.tree_r,
                                      cfg.challenges_per_partition());
  if (!plan.ok()) std::abort();
  return std::move(*plan);
}

void plan_counters(benchmark::State& state, const r1cs::abc_plan& plan) {
  const r1cs::abc_plan_size s = plan.size();
  state.counters["prologue_rows"] = double(s.prologue_rows);
  state.counters["block_rows"] = double(s.block_rows);
  state.counters["blocks"] = double(s.block_count);
  state.counters["block_nnz_A"] = double(s.block_nnz[0]);
  state.counters["block_nnz_B"] = double(s.block_nnz[1]);
  state.counters["block_nnz_C"] = double(s.block_nnz[2]);
  state.counters["coefficients"] = double(s.distinct_coefficients);
  state.counters["plan_MiB"] = double(s.bytes) / (1024.0 * 1024.0);
  state.counters["peak_rss_GiB"] = peak_rss_gib();
}

/// Random values in rows [first, first + n) of v.
void fill_random(fr_vector& v, size_t first, size_t n, std::mt19937_64& rng) {
  for (size_t i = first; i < first + n; ++i) v[i] = fr_t::random(rng);
}

/// Evaluates rows [first, first + count) of the plan on one thread; ns per row.
void evaluate(benchmark::State& state, const r1cs::abc_plan& plan, const fr_vector& inputs,
              const fr_vector& aux, size_t first, size_t count) {
  cuzk::thread_pool pool(1);
  fr_vector a, b, c;
  a.resize(count);
  b.resize(count);
  c.resize(count);
  // One untimed pass first: its page faults on a, b, c are not the evaluation's cost (the engine
  // recycles its buffers).
  if (!plan.evaluate_rows(first, inputs, aux, a, b, c, pool).ok()) std::abort();
  for (auto _ : state) {
    if (!plan.evaluate_rows(first, inputs, aux, a, b, c, pool).ok()) std::abort();
    benchmark::DoNotOptimize(a.data());
  }
  state.counters["rows"] = double(count);
  // Seconds per row (printed with an SI suffix: "95n" is 95 ns).
  state.counters["s/row"] =
      benchmark::Counter(double(count) * double(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_abc_plan_porep(benchmark::State& state) {
  const auto cfg = *porep::porep_config(proof_of(state.range(0)));
  if (state.range(1) == 0) {
    for (auto _ : state) {
      const r1cs::abc_plan plan = build_plan(cfg);
      benchmark::DoNotOptimize(plan.num_rows());
      state.PauseTiming();
      plan_counters(state, plan);
      state.ResumeTiming();
    }
    return;
  }
  const r1cs::abc_plan plan = build_plan(cfg);
  fr_vector inputs, aux;
  if (state.range(1) == 1) {
    std::mt19937_64 rng(42);
    inputs.resize(plan.num_inputs());
    aux.resize(plan.num_aux());
    fill_random(inputs, 0, inputs.size(), rng);
    inputs[0] = fr_t::one();
    fill_random(aux, 0, aux.size(), rng);
  } else {
    r1cs::witness_cs w;
    synth::synthesize_stacked_circuit(w, synth::blank_stacked_circuit(cfg));
    inputs = w.take_inputs();
    aux = w.take_aux();
  }
  evaluate(state, plan, inputs, aux, 0, plan.num_rows());
}

void BM_synth_porep_8m(benchmark::State& state) {
  const auto cfg = *porep::porep_config(porep::registered_seal_proof::stacked_drg_8mib_v1_1);
  const synth::stacked_circuit_t c = synth::blank_stacked_circuit(cfg);
  const synth::stacked_counts_t n =
      synth::stacked_circuit_counts(c.layers, c.tree_d, c.tree_r, unsigned(c.challenges.size()));
  size_t rows = 0;
  for (auto _ : state) {
    // Reserved as BM_synth_porep_2k does (aux ≈ constraints in this circuit).
    if (state.range(0) == 1) {
      r1cs::witness_cs cs;
      cs.reserve(n.constraints, n.constraints, n.inputs);
      synth::synthesize_stacked_circuit(cs, c);
      rows = cs.num_constraints() + cs.num_inputs();
    } else {
      r1cs::proving_cs cs;
      cs.reserve(n.constraints, n.constraints, n.inputs);
      synth::synthesize_stacked_circuit(cs, c);
      cs.finalize();
      rows = cs.num_rows();
    }
  }
  state.counters["rows"] = double(rows);
  state.counters["rows/s"] =
      benchmark::Counter(double(rows) * double(state.iterations()), benchmark::Counter::kIsRate);
}

// One 32 GiB partition: the plan built once (timed), then its first challenge's rows evaluated.
void BM_abc_plan_porep_partition_32g(benchmark::State& state) {
  const auto cfg = *porep::porep_config(proof_of(2));
  if (state.range(0) == 0) {
    for (auto _ : state) {
      const r1cs::abc_plan plan = build_plan(cfg);
      benchmark::DoNotOptimize(plan.num_rows());
      state.PauseTiming();
      plan_counters(state, plan);
      state.ResumeTiming();
    }
    return;
  }
  const r1cs::abc_plan plan = build_plan(cfg);
  const r1cs::abc_plan::layout_t& lay = plan.layout();
  std::mt19937_64 rng(42);
  fr_vector inputs, aux;
  inputs.resize(plan.num_inputs());
  aux.resize(plan.num_aux());  // untouched pages stay unmapped (zero)
  fill_random(inputs, 0, inputs.size(), rng);
  inputs[0] = fr_t::one();
  fill_random(aux, 0, lay.block_aux0 + lay.block.aux, rng);
  evaluate(state, plan, inputs, aux, plan.prologue().num_rows(), lay.block.constraints);
  plan_counters(state, plan);
}

const bool registered_32g = [] {
  const char* e = std::getenv("CUZK_BENCH_32G");
  if (e && *e && *e != '0') {
    benchmark::RegisterBenchmark("BM_abc_plan_porep_partition_32g", BM_abc_plan_porep_partition_32g)
        ->Arg(0)
        ->Arg(1)
        ->Iterations(1)
        ->Unit(benchmark::kSecond);
  }
  return true;
}();

}  // namespace

BENCHMARK(BM_abc_plan_porep)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({0, 2})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({1, 2})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_synth_porep_8m)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
