// SPDX-License-Identifier: Apache-2.0
// Curve micro benchmarks for G1 and G2: point addition in each coordinate system, doubling, scalar
// multiplication, the fast subgroup checks, and ZCash decompression (sqrt + subgroup check).
// Addition benchmarks run 8 independent accumulators per iteration (throughput, as MSM sees it).
#include <benchmark/benchmark.h>

#include <array>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialization.hpp"
#include "ec/subgroup.hpp"

namespace {

using namespace cuzk::ec;

/// k·G for a fixed pseudo-random k: deterministic points with general coordinates.
template <class Field>
affine_t<Field> bench_point(uint64_t k) {
  const fr_t s = fr_t::from_uint(k * 0x9e3779b97f4a7c15ull + 3).inverse();
  return mul(curve_traits<Field>::GENERATOR, s).to_affine();
}
template <class Field>
jacobian_t<Field> bench_jacobian(uint64_t k) {
  // a non-trivial Z: k·G stays projective
  return mul(jacobian_t<Field>::from_affine(curve_traits<Field>::GENERATOR),
             fr_t::from_uint(k * 0x2545f4914f6cdd1dull + 5).inverse());
}

/// Jacobian + Jacobian, add-2007-bl (11M + 5S).
template <class Field>
void jacobian_add(benchmark::State& state) {
  std::array<jacobian_t<Field>, 8> acc;
  for (int k = 0; k < 8; ++k) acc[k] = bench_jacobian<Field>(k + 1);
  const jacobian_t<Field> q = bench_jacobian<Field>(99);
  for (auto _ : state) {
    for (auto& a : acc) a = a + q;
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * 8);
}
/// XYZZ + XYZZ, add-2008-s (12M + 2S).
template <class Field>
void xyzz_add(benchmark::State& state) {
  std::array<xyzz_t<Field>, 8> acc;
  for (int k = 0; k < 8; ++k) acc[k] = xyzz_t<Field>::from_affine(bench_point<Field>(k + 1)).dbl();
  const xyzz_t<Field> q = xyzz_t<Field>::from_affine(bench_point<Field>(99)).dbl();
  for (auto _ : state) {
    for (auto& a : acc) a = a + q;
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * 8);
}
/// XYZZ + affine, madd-2008-s (8M + 2S): the MSM bucket step.
template <class Field>
void xyzz_madd(benchmark::State& state) {
  std::array<xyzz_t<Field>, 8> acc;
  for (int k = 0; k < 8; ++k) acc[k] = xyzz_t<Field>::from_affine(bench_point<Field>(k + 1)).dbl();
  const affine_t<Field> q = bench_point<Field>(99);
  for (auto _ : state) {
    for (auto& a : acc) a = a.add_affine(q);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * 8);
}
/// Jacobian doubling, dbl-2009-l (2M + 5S).
template <class Field>
void jacobian_dbl(benchmark::State& state) {
  std::array<jacobian_t<Field>, 8> acc;
  for (int k = 0; k < 8; ++k) acc[k] = bench_jacobian<Field>(k + 1);
  for (auto _ : state) {
    for (auto& a : acc) a = a.dbl();
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * 8);
}
/// 255-bit wNAF scalar multiplication (Jacobian, width 5).
template <class Field>
void scalar_mul(benchmark::State& state) {
  jacobian_t<Field> p = bench_jacobian<Field>(7);
  fr_t k = fr_t::from_uint(12345).inverse();
  for (auto _ : state) {
    p = mul(p, k);
    benchmark::DoNotOptimize(p);
  }
}
/// Fast endomorphism subgroup check on a valid point.
template <class Field>
void subgroup_check(benchmark::State& state) {
  const affine_t<Field> p = bench_point<Field>(11);
  for (auto _ : state) benchmark::DoNotOptimize(in_subgroup(p));
}

void BM_g1_add(benchmark::State& s) {
  jacobian_add<fp_t>(s);
}
void BM_g1_add_xyzz(benchmark::State& s) {
  xyzz_add<fp_t>(s);
}
void BM_g1_madd(benchmark::State& s) {
  xyzz_madd<fp_t>(s);
}
void BM_g1_dbl(benchmark::State& s) {
  jacobian_dbl<fp_t>(s);
}
void BM_g1_mul(benchmark::State& s) {
  scalar_mul<fp_t>(s);
}
void BM_g1_subgroup_check(benchmark::State& s) {
  subgroup_check<fp_t>(s);
}
void BM_g2_add(benchmark::State& s) {
  jacobian_add<fp2_t>(s);
}
void BM_g2_add_xyzz(benchmark::State& s) {
  xyzz_add<fp2_t>(s);
}
void BM_g2_madd(benchmark::State& s) {
  xyzz_madd<fp2_t>(s);
}
void BM_g2_dbl(benchmark::State& s) {
  jacobian_dbl<fp2_t>(s);
}
void BM_g2_mul(benchmark::State& s) {
  scalar_mul<fp2_t>(s);
}
void BM_g2_subgroup_check(benchmark::State& s) {
  subgroup_check<fp2_t>(s);
}

/// Compressed decode with the subgroup check (sqrt + check), and without ("unchecked").
void BM_g1_decompress(benchmark::State& state) {
  const auto bytes = g1_to_compressed(bench_point<fp_t>(13));
  const decode_options opt{.subgroup_check = state.range(0) != 0};
  for (auto _ : state) benchmark::DoNotOptimize(g1_from_compressed(bytes, opt));
}
void BM_g2_decompress(benchmark::State& state) {
  const auto bytes = g2_to_compressed(bench_point<fp2_t>(13));
  const decode_options opt{.subgroup_check = state.range(0) != 0};
  for (auto _ : state) benchmark::DoNotOptimize(g2_from_compressed(bytes, opt));
}
/// Uncompressed decode, checked: the params-file path when the reader verifies points.
void BM_g1_decode_uncompressed(benchmark::State& state) {
  const auto bytes = g1_to_uncompressed(bench_point<fp_t>(17));
  const decode_options opt{.subgroup_check = state.range(0) != 0};
  for (auto _ : state) benchmark::DoNotOptimize(g1_from_uncompressed(bytes, opt));
}

}  // namespace

BENCHMARK(BM_g1_add);
BENCHMARK(BM_g1_add_xyzz);
BENCHMARK(BM_g1_madd);
BENCHMARK(BM_g1_dbl);
BENCHMARK(BM_g1_mul);
BENCHMARK(BM_g1_subgroup_check);
BENCHMARK(BM_g1_decompress)->Arg(1)->Arg(0);
BENCHMARK(BM_g1_decode_uncompressed)->Arg(1)->Arg(0);
BENCHMARK(BM_g2_add);
BENCHMARK(BM_g2_add_xyzz);
BENCHMARK(BM_g2_madd);
BENCHMARK(BM_g2_dbl);
BENCHMARK(BM_g2_mul);
BENCHMARK(BM_g2_subgroup_check);
BENCHMARK(BM_g2_decompress)->Arg(1)->Arg(0);
