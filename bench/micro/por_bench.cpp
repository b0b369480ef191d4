// SPDX-License-Identifier: Apache-2.0
// Synthesis throughput of one 32 GiB tree_c / tree_r_last inclusion proof (PoRCircuit, 8-8-0: ten
// arity-8 levels, 5,302 rows, docs/spec/gadgets.md §2), the PoRep form (leaf and root already
// allocated). BM_synth_por_poseidon8/full runs r1cs::proving_cs, /witness runs r1cs::witness_cs.
// Counters: rows/s and aux/s for the timed PoR only (the CS and the leaf/root allocation are
// untimed).
#include <benchmark/benchmark.h>

#include <cstdint>

#include "filecoin/gadgets/por.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace {

using cuzk::ff::fr_t;
using namespace cuzk::filecoin::gadgets;

// A 32 GiB-shaped path with pseudo-random index and siblings (values do not change the cost).
por_path_t bench_path() {
  const cuzk::filecoin::hash::tree_shape s =
      *cuzk::filecoin::hash::tree_r_shape(uint64_t(32) << 30);
  por_path_t p = blank_por_path(s);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  auto next = [&] { return x = x * 6364136223846793005ull + 1442695040888963407ull; };
  auto next_fr = [&] {
    cuzk::ff::limbs<4> l;
    for (auto& w : l) w = next();
    l[3] &= 0x0fffffffffffffffull;
    return fr_t::from_canonical(l);
  };
  p.leaf = next_fr();
  p.root = next_fr();
  for (auto& lv : p.levels) {
    lv.index = unsigned(next() >> 61);
    for (auto& v : lv.siblings) v = next_fr();
  }
  return p;
}

template <class CS>
void run_por(benchmark::State& state) {
  const por_path_t path = bench_path();
  size_t rows = 0, aux = 0;
  for (auto _ : state) {
    state.PauseTiming();
    CS cs;
    cs.reserve(5400, 5400, 2);
    const por_num_t leaf = por_num_t::var(alloc_num(cs, path.leaf));
    const por_num_t root = por_num_t::var(alloc_num(cs, path.root));
    const size_t r0 = cs.num_constraints(), a0 = cs.num_aux();
    state.ResumeTiming();
    const allocated_num_t r = por(cs, por_hash_t::poseidon, path, leaf, root, true);
    benchmark::DoNotOptimize(r.value);
    state.PauseTiming();
    rows = cs.num_constraints() - r0;
    aux = cs.num_aux() - a0;
    state.ResumeTiming();
  }
  const double it = double(state.iterations());
  state.counters["rows"] = double(rows);
  state.counters["rows/s"] = benchmark::Counter(double(rows) * it, benchmark::Counter::kIsRate);
  state.counters["aux/s"] = benchmark::Counter(double(aux) * it, benchmark::Counter::kIsRate);
}

void BM_synth_por_poseidon8_full(benchmark::State& s) {
  run_por<cuzk::r1cs::proving_cs>(s);
}
void BM_synth_por_poseidon8_witness(benchmark::State& s) {
  run_por<cuzk::r1cs::witness_cs>(s);
}

}  // namespace

BENCHMARK(BM_synth_por_poseidon8_full)
    ->Name("BM_synth_por_poseidon8/full")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_synth_por_poseidon8_witness)
    ->Name("BM_synth_por_poseidon8/witness")
    ->Unit(benchmark::kMicrosecond);
