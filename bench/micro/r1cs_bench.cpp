// SPDX-License-Identifier: Apache-2.0
// Constraint-system throughput: rows/s of proving_cs for a typical 3-term constraint (what 130 M
// PoRep rows cost in synthesis), the same through shape_cs (fingerprinting) and matrix_cs, and
// allocations/s of witness_cs (the precompiled-circuit witness path, no LC built).
#include <benchmark/benchmark.h>

#include <vector>

#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace {

using cuzk::ff::fr_t;
using cuzk::r1cs::linear_combination;
using cuzk::r1cs::variable;

constexpr size_t ROWS_PER_ITER = 1 << 16;

// (x - y + k·z) · (ONE + y) = z + x over a pool of 64 aux variables.
template <class CS>
void typical_rows(CS& cs, const std::vector<variable>& v, const fr_t& k) {
  for (size_t i = 0; i < ROWS_PER_ITER; ++i) {
    const variable x = v[i % 64], y = v[(i + 17) % 64], z = v[(i + 41) % 64];
    cs.enforce(
        [&](linear_combination& lc) {
          lc += x;
          lc -= y;
          lc += k * z;
        },
        [&](linear_combination& lc) {
          lc += variable::one();
          lc += y;
        },
        [&](linear_combination& lc) {
          lc += z;
          lc += x;
        });
  }
}

template <class CS>
void run_enforce(benchmark::State& state) {
  const fr_t k = fr_t::from_uint(0x1234567).inverse();
  for (auto _ : state) {
    state.PauseTiming();
    CS cs;
    if constexpr (requires { cs.reserve(size_t(), size_t(), size_t()); }) {
      cs.reserve(ROWS_PER_ITER, 64, 1);
    }
    std::vector<variable> v;
    for (uint64_t i = 0; i < 64; ++i) v.push_back(cs.alloc([i] { return fr_t::from_uint(i + 3); }));
    state.ResumeTiming();
    typical_rows(cs, v, k);
    benchmark::DoNotOptimize(cs.num_constraints());
  }
  state.SetItemsProcessed(int64_t(state.iterations() * ROWS_PER_ITER));
}

void BM_proving_cs_enforce(benchmark::State& s) {
  run_enforce<cuzk::r1cs::proving_cs>(s);
}
void BM_shape_cs_enforce(benchmark::State& s) {
  run_enforce<cuzk::r1cs::shape_cs>(s);
}
void BM_matrix_cs_enforce(benchmark::State& s) {
  run_enforce<cuzk::r1cs::matrix_cs>(s);
}

void BM_witness_cs_alloc(benchmark::State& state) {
  fr_t x = fr_t::from_uint(7);
  for (auto _ : state) {
    state.PauseTiming();
    cuzk::r1cs::witness_cs cs;
    cs.reserve(0, ROWS_PER_ITER, 1);
    state.ResumeTiming();
    for (size_t i = 0; i < ROWS_PER_ITER; ++i) {
      const variable v = cs.alloc([&] { return x; });
      x += fr_t::one();
      cs.enforce([&](linear_combination& lc) { lc += v; }, [](linear_combination&) {},
                 [](linear_combination&) {});
    }
    benchmark::DoNotOptimize(cs.num_aux());
  }
  state.SetItemsProcessed(int64_t(state.iterations() * ROWS_PER_ITER));
}

BENCHMARK(BM_proving_cs_enforce)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_shape_cs_enforce)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_matrix_cs_enforce)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_witness_cs_alloc)->Unit(benchmark::kMillisecond);

}  // namespace
