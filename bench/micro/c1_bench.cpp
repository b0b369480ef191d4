// SPDX-License-Identifier: Apache-2.0
// C1 formats and synthetic vanilla proofs at 32 GiB (10 × 18 challenges, ~38 MB of JSON):
// BM_synthetic_c1_32gib (whole generation), BM_c1_json_write / BM_c1_json_parse (serde JSON,
// bytes/s = MB/s of JSON text) and BM_c1_wrapper_parse (base64 wrapper → C1, bytes/s of the
// wrapper text). The C1 is generated once, outside the timed loops.
#include <benchmark/benchmark.h>

#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/synthetic.hpp"

namespace {

using namespace cuzk::filecoin::porep;

synthetic_request_t request_32gib() {
  synthetic_request_t r;
  r.config = *porep_config(registered_seal_proof::stacked_drg_32gib_v1_1);
  r.prover_id = prover_id_from_actor(1000);
  r.sector_id = 1;
  r.ticket.fill(1);
  r.seed.fill(2);
  return r;
}

const c1_output_t& c1_32gib() {
  static const c1_output_t c1 = *generate_synthetic_c1(request_32gib());
  return c1;
}

void BM_synthetic_c1_32gib(benchmark::State& state) {
  const auto req = request_32gib();
  for (auto _ : state) benchmark::DoNotOptimize(generate_synthetic_c1(req));
}
BENCHMARK(BM_synthetic_c1_32gib)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_c1_json_write(benchmark::State& state) {
  size_t bytes = 0;
  for (auto _ : state) {
    auto j = write_c1_json(c1_32gib());
    bytes = j->size();
    benchmark::DoNotOptimize(j);
  }
  state.SetBytesProcessed(int64_t(bytes * state.iterations()));
}
BENCHMARK(BM_c1_json_write)->Unit(benchmark::kMillisecond);

void BM_c1_json_parse(benchmark::State& state) {
  const std::string j = *write_c1_json(c1_32gib());
  for (auto _ : state) benchmark::DoNotOptimize(parse_c1_json(j));
  state.SetBytesProcessed(int64_t(j.size() * state.iterations()));
}
BENCHMARK(BM_c1_json_parse)->Unit(benchmark::kMillisecond);

void BM_c1_wrapper_parse(benchmark::State& state) {
  const std::string w = *c1_to_wrapper_json(c1_32gib(), 1);
  const std::span<const uint8_t> b(reinterpret_cast<const uint8_t*>(w.data()), w.size());
  for (auto _ : state) benchmark::DoNotOptimize(parse_c1_any(b));
  state.SetBytesProcessed(int64_t(w.size() * state.iterations()));
}
BENCHMARK(BM_c1_wrapper_parse)->Unit(benchmark::kMillisecond);

}  // namespace
