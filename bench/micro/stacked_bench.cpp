// SPDX-License-Identifier: Apache-2.0
// StackedCircuit synthesis throughput (docs/spec/porep.md §7–§9; docs/notes/porep-circuit.md), one
// core:
//   BM_synth_porep_2k/0  r1cs::shape_cs (counting + fingerprint, what `cuzk circuit stats` runs)
//   BM_synth_porep_2k/1  r1cs::witness_cs (values only)
//   BM_synth_porep_2k/2  r1cs::proving_cs (a/b/c per row + densities, what the prover runs)
// Counters: rows (constraints + inputs) and rows/s. The circuit is the blank one: synthesis does
// the same work for any witness (every value is computed; none is branched on).
// BM_synth_porep_partition_32g (one 32 GiB partition, 130 M rows; same Args; reports peak RSS)
// is registered only when CUZK_BENCH_32G=1 is set, e.g.
//   CUZK_BENCH_32G=1 cuzk-microbench --benchmark_filter=partition_32g/0
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>

#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/config.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace {

namespace porep = cuzk::filecoin::porep;
namespace synth = cuzk::filecoin::circuits;

double peak_rss_gib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / (1024.0 * 1024.0);  // ru_maxrss is in KiB on Linux
}

template <class CS>
size_t synth_once(const synth::stacked_circuit_t& c, const synth::stacked_counts_t& n) {
  CS cs;
  if constexpr (!std::is_same_v<CS, cuzk::r1cs::shape_cs>) {
    cs.reserve(n.constraints, n.constraints, n.inputs);  // aux ≈ constraints in this circuit
  }
  synth::synthesize_stacked_circuit(cs, c);
  if constexpr (std::is_same_v<CS, cuzk::r1cs::proving_cs>) cs.finalize();
  benchmark::DoNotOptimize(cs.num_aux());
  return cs.num_constraints() + cs.num_inputs();
}

void run(benchmark::State& state, porep::registered_seal_proof p) {
  const auto cfg = *porep::porep_config(p);
  const synth::stacked_circuit_t c = synth::blank_stacked_circuit(cfg);
  const synth::stacked_counts_t n =
      synth::stacked_circuit_counts(c.layers, c.tree_d, c.tree_r, unsigned(c.challenges.size()));
  size_t rows = 0;
  for (auto _ : state) {
    switch (state.range(0)) {
      case 0:
        rows = synth_once<cuzk::r1cs::shape_cs>(c, n);
        break;
      case 1:
        rows = synth_once<cuzk::r1cs::witness_cs>(c, n);
        break;
      default:
        rows = synth_once<cuzk::r1cs::proving_cs>(c, n);
        break;
    }
  }
  state.counters["rows"] = double(rows);
  state.counters["rows/s"] =
      benchmark::Counter(double(rows) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["peak_rss_GiB"] = peak_rss_gib();
}

void BM_synth_porep_2k(benchmark::State& state) {
  run(state, porep::registered_seal_proof::stacked_drg_2kib_v1_1);
}

void BM_synth_porep_partition_32g(benchmark::State& state) {
  run(state, porep::registered_seal_proof::stacked_drg_32gib_v1_1);
}

const bool registered_32g = [] {
  const char* e = std::getenv("CUZK_BENCH_32G");
  if (e && *e && *e != '0') {
    benchmark::RegisterBenchmark("BM_synth_porep_partition_32g", BM_synth_porep_partition_32g)
        ->Arg(0)
        ->Arg(1)
        ->Arg(2)
        ->Iterations(1)
        ->Unit(benchmark::kSecond);
  }
  return true;
}();

}  // namespace

BENCHMARK(BM_synth_porep_2k)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);
