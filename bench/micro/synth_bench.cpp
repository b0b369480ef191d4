// SPDX-License-Identifier: Apache-2.0
// Synthesis throughput of the SDR label hash (docs/spec/porep.md §4, §8 step 6): SHA-256 over the
// 1,248-byte label preimage (20 blocks, 522,268 rows, plus the 1-row pack_bits) on one core.
// BM_synth_label_full runs r1cs::proving_cs (a/b/c per row, densities); BM_synth_label_witness runs
// r1cs::witness_cs (values only, no LC built). Counters: rows/s and aux/s for the timed hash only
// (the preimage bit decompositions are built untimed). Targets: ≥ 3 M rows/s full, ≥ 20 M aux/s
// witness.
#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "filecoin/gadgets/sha256.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace {

using cuzk::ff::fr_t;
using namespace cuzk::filecoin::gadgets;

// replica_id (255 bits + pad) ‖ layer (constant) ‖ challenge (64 allocated bits) ‖ 160 zeros ‖
// 37 parent slots from 14 decomposed parents.
template <class CS>
void label_preimage(CS& cs, std::vector<boolean_t>& pre) {
  pre.assign(512 + 37 * 256, boolean_t::constant(false));
  uint64_t s = 0x9e3779b97f4a7c15ull;
  auto next_fr = [&] {
    cuzk::ff::limbs<4> l;
    for (auto& x : l) x = (s = s * 6364136223846793005ull + 1442695040888963407ull);
    l[3] &= 0x0fffffffffffffffull;
    return fr_t::from_canonical(l);
  };
  fr_to_sha_bits(cs, alloc_num(cs, next_fr()), pre.data());
  word32_t::constant(5).to_bits_be(pre.data() + 256);
  word64_t::alloc(cs, 123456789).to_bits_be(pre.data() + 288);
  std::array<std::array<boolean_t, 256>, 14> pb;
  for (auto& p : pb) fr_to_sha_bits(cs, alloc_num(cs, next_fr()), p.data());
  for (int k = 0; k < 37; ++k) {
    const auto& src = pb[k < 28 ? k % 14 : k - 28];
    std::copy(src.begin(), src.end(), pre.begin() + 512 + 256 * k);
  }
}

template <class CS>
void run_label(benchmark::State& state) {
  size_t rows = 0, aux = 0;
  for (auto _ : state) {
    state.PauseTiming();
    CS cs;
    cs.reserve(530000, 530000, 1);
    std::vector<boolean_t> pre;
    label_preimage(cs, pre);
    const size_t r0 = cs.num_constraints(), a0 = cs.num_aux();
    state.ResumeTiming();
    const allocated_num_t label = sha256_trunc254_circuit(cs, std::span<const boolean_t>(pre));
    benchmark::DoNotOptimize(label.value);
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

void BM_synth_label_full(benchmark::State& s) {
  run_label<cuzk::r1cs::proving_cs>(s);
}
void BM_synth_label_witness(benchmark::State& s) {
  run_label<cuzk::r1cs::witness_cs>(s);
}

}  // namespace

BENCHMARK(BM_synth_label_full)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_synth_label_witness)->Unit(benchmark::kMillisecond);
