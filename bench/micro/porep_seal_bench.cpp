// SPDX-License-Identifier: Apache-2.0
// Sealing small sectors (src/filecoin/porep/seal.hpp): BM_porep_seal/2KiB and /8MiB seal a CC
// sector of StackedDrg{2KiB,8MiB}V1_1 end to end (parents, tree_d, labels, tree_c, tree_r_last) and
// report each phase's seconds as counters; BM_porep_c1 opens the challenges of an 8 MiB seal
// (vanilla proofs only); BM_porep_commp is commP throughput on 64 MiB of payload.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "filecoin/common/commp.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"

namespace {

using namespace cuzk::filecoin::porep;

seal_request_t bench_request(registered_seal_proof p) {
  seal_request_t r;
  r.config = *porep_config(p);
  r.prover_id = prover_id_from_actor(1000);
  r.sector_id = 1;
  r.ticket.fill(1);
  return r;
}

void BM_porep_seal(benchmark::State& state, registered_seal_proof proof) {
  const seal_request_t req = bench_request(proof);
  seal_timings_t sum;
  for (auto _ : state) {
    auto s = seal_sector(req, {});
    if (!s.ok()) {
      state.SkipWithError(s.error().to_string().c_str());
      return;
    }
    const auto& t = s->timings;
    sum.parents += t.parents;
    sum.tree_d += t.tree_d;
    sum.labels += t.labels;
    sum.tree_c += t.tree_c;
    sum.tree_r_last += t.tree_r_last;
    benchmark::DoNotOptimize(s->comm_r);
  }
  const double n = double(state.iterations());
  state.counters["parents_s"] = sum.parents / n;
  state.counters["tree_d_s"] = sum.tree_d / n;
  state.counters["labels_s"] = sum.labels / n;
  state.counters["tree_c_s"] = sum.tree_c / n;
  state.counters["tree_r_last_s"] = sum.tree_r_last / n;
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(req.config.sector.sector_bytes));
}
BENCHMARK_CAPTURE(BM_porep_seal, 2KiB, registered_seal_proof::stacked_drg_2kib_v1_1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_porep_seal, 8MiB, registered_seal_proof::stacked_drg_8mib_v1_1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_porep_c1(benchmark::State& state) {
  auto s = seal_sector(bench_request(registered_seal_proof::stacked_drg_8mib_v1_1), {});
  if (!s.ok()) {
    state.SkipWithError(s.error().to_string().c_str());
    return;
  }
  cuzk::filecoin::porep::bytes32_t seed;
  seed.fill(2);
  for (auto _ : state) {
    auto c1 = seal_commit_phase1(*s, seed);
    benchmark::DoNotOptimize(c1);
  }
}
BENCHMARK(BM_porep_c1)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_porep_commp(benchmark::State& state) {
  std::vector<uint8_t> payload(size_t(64) << 20);
  uint64_t x = 1;
  for (auto& b : payload) b = uint8_t((x = x * 6364136223846793005ull + 1) >> 56);
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::filecoin::common::commp_of(payload));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(payload.size()));
}
BENCHMARK(BM_porep_commp)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
