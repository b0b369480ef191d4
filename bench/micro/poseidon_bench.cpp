// SPDX-License-Identifier: Apache-2.0
// Poseidon: native hashes/s per arity (optimized permutation; tree building cost per node), and
// synthesis of the legacy neptune circuit (a batch of hashes into one CS) in rows/s and aux/s for
// proving_cs (full a/b/c), witness_cs (values only) and shape_cs (fingerprint).
#include <benchmark/benchmark.h>

#include <vector>

#include "filecoin/gadgets/poseidon.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace {

using cuzk::ff::fr_t;
namespace hash = cuzk::filecoin::hash;
namespace gadgets = cuzk::filecoin::gadgets;

std::vector<fr_t> preimage(size_t a) {
  std::vector<fr_t> v;
  for (size_t i = 0; i < a; ++i) v.push_back(fr_t::from_uint(0x9e3779b97f4a7c15ull * (i + 1)));
  return v;
}

void BM_poseidon_native(benchmark::State& state) {
  const size_t a = size_t(state.range(0));
  const hash::poseidon_constants_t& c = hash::poseidon_constants(a);
  const fr_t tag = hash::poseidon_merkle_tag(a);
  std::vector<fr_t> in = preimage(a);
  for (auto _ : state) {
    in[0] = hash::poseidon_hash(in, tag, c);  // chained: no work can be hoisted
    benchmark::DoNotOptimize(in[0]);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_poseidon_native)->Arg(2)->Arg(4)->Arg(8)->Arg(11)->Arg(16)->Arg(24)->Arg(36);

constexpr size_t HASHES_PER_ITER = 64;

template <class CS>
void run_synth(benchmark::State& state) {
  const size_t a = size_t(state.range(0));
  const hash::poseidon_constants_t& c = hash::poseidon_constants(a);
  const fr_t tag = hash::poseidon_merkle_tag(a);
  gadgets::poseidon_circuit_template(a);  // built once, outside the timing
  const std::vector<fr_t> in = preimage(a);
  size_t rows = 0, aux = 0;
  for (auto _ : state) {
    state.PauseTiming();
    CS cs;
    std::vector<cuzk::r1cs::variable> vars;
    for (const fr_t& x : in) vars.push_back(cs.alloc([&] { return x; }));
    state.ResumeTiming();
    for (size_t h = 0; h < HASHES_PER_ITER; ++h) {
      benchmark::DoNotOptimize(gadgets::poseidon_hash(cs, vars, in, c, tag));
    }
    rows = cs.num_constraints();
    aux = cs.num_aux() - a;
  }
  state.counters["rows/s"] =
      benchmark::Counter(double(rows) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["aux/s"] =
      benchmark::Counter(double(aux) * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_synth_poseidon(benchmark::State& state) {
  run_synth<cuzk::r1cs::proving_cs>(state);
}
void BM_synth_poseidon_witness(benchmark::State& state) {
  run_synth<cuzk::r1cs::witness_cs>(state);
}
void BM_synth_poseidon_shape(benchmark::State& state) {
  run_synth<cuzk::r1cs::shape_cs>(state);
}
BENCHMARK(BM_synth_poseidon)->Arg(2)->Arg(8)->Arg(11)->Arg(16);
BENCHMARK(BM_synth_poseidon_witness)->Arg(2)->Arg(8)->Arg(11)->Arg(16);
BENCHMARK(BM_synth_poseidon_shape)->Arg(8);

}  // namespace
