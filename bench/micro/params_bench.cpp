// SPDX-License-Identifier: Apache-2.0
// .params decode throughput (points/s) for each point_checks mode: the cost of loading the 47 GB
// 32 GiB PoRep parameters is ~430M G1 + 33M G2 points times these rates, divided by the cores.
// Single-threaded (pool of 1) so the numbers are per core; the input is an in-memory file.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "groth16/params_io.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::groth16;

constexpr size_t BENCH_POINTS = 4096;

/// A .params image with BENCH_POINTS points in h (G1) and in b_g1/b_g2 (G2), built once.
const std::vector<uint8_t>& bench_file() {
  static const std::vector<uint8_t> bytes = [] {
    parameters p;
    p.vk.alpha_g1 = p.vk.beta_g1 = p.vk.delta_g1 = ec::g1_generator();
    p.vk.beta_g2 = p.vk.gamma_g2 = p.vk.delta_g2 = ec::g2_generator();
    p.vk.ic = {ec::g1_generator()};
    // consecutive multiples by addition: one inversion per point, no scalar multiplication
    ec::g1_jacobian_t a = ec::mul(ec::g1_generator(), ec::fr_t::from_uint(7)), da = a;
    ec::g2_jacobian_t b = ec::mul(ec::g2_generator(), ec::fr_t::from_uint(11)), db = b;
    for (size_t i = 0; i < BENCH_POINTS; ++i) {
      p.h.push_back(a.to_affine());
      p.b_g1.push_back(a.to_affine());
      p.b_g2.push_back(b.to_affine());
      a += da;
      b += db;
    }
    thread_pool pool(1);
    return std::move(*params_to_bytes(p, pool));
  }();
  return bytes;
}

template <class Point>
void decode_bench(benchmark::State& state, params_section s, point_checks checks) {
  auto f = params_file::from_bytes(bench_file());
  thread_pool pool(1);
  std::vector<Point> out(BENCH_POINTS);
  for (auto _ : state) {
    status st = f->decode(s, 0, BENCH_POINTS, out, checks, pool);
    if (!st.ok()) state.SkipWithError(st.to_string().c_str());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * BENCH_POINTS);
  state.SetBytesProcessed(int64_t(state.iterations()) * BENCH_POINTS * sizeof(Point));
}

void register_all() {
  for (point_checks c : {point_checks::full, point_checks::on_curve_only, point_checks::none}) {
    const std::string mode(to_string(c));
    benchmark::RegisterBenchmark(
        ("BM_params_decode_g1/" + mode).c_str(),
        [c](benchmark::State& st) { decode_bench<ec::g1_affine_t>(st, params_section::h, c); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("BM_params_decode_g2/" + mode).c_str(),
        [c](benchmark::State& st) { decode_bench<ec::g2_affine_t>(st, params_section::b_g2, c); })
        ->Unit(benchmark::kMillisecond);
  }
}

const int registered = (register_all(), 0);

}  // namespace
