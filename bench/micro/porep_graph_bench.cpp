// SPDX-License-Identifier: Apache-2.0
// SDR parent graph: parent generation in nodes/s on one thread (DRG only, expander only, all 14),
// and the whole 8 MiB parent cache (2^18 nodes, 14 MiB) over the default pool, plus its SHA-256.
// 32 GiB needs 2^30 nodes: divide by the nodes/s here for the expected generation time.
#include <benchmark/benchmark.h>

#include <vector>

#include "filecoin/porep/parent_cache.hpp"

namespace {

namespace porep = cuzk::filecoin::porep;

porep::sdr_graph graph(porep::registered_seal_proof p) {
  return porep::sdr_graph(*porep::porep_config(p));
}

// Arg: 0 = DRG parents, 1 = expander parents, 2 = both. 32 GiB graph (nodes·8 = 2^33, so the
// Feistel network cycle-walks about twice per parent).
void BM_sdr_parents_32gib(benchmark::State& state) {
  const auto g = graph(porep::registered_seal_proof::stacked_drg_32gib_v1_1);
  uint32_t out[porep::PARENT_COUNT];
  uint64_t v = 123456789;
  for (auto _ : state) {
    if (state.range(0) == 0) g.drg_parents(v, out);
    if (state.range(0) == 1) g.exp_parents(v, out + porep::DRG_DEGREE);
    if (state.range(0) == 2) g.parents(v, out);
    benchmark::DoNotOptimize(out);
    v = (v + 7919) % g.nodes();
  }
  state.SetItemsProcessed(int64_t(state.iterations()));  // nodes
}
BENCHMARK(BM_sdr_parents_32gib)->Arg(0)->Arg(1)->Arg(2);

void BM_sdr_parents_64gib(benchmark::State& state) {
  const auto g = graph(porep::registered_seal_proof::stacked_drg_64gib_v1_1);
  uint32_t out[porep::PARENT_COUNT];
  uint64_t v = 123456789;
  for (auto _ : state) {
    g.parents(v, out);
    benchmark::DoNotOptimize(out);
    v = (v + 7919) % g.nodes();
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_sdr_parents_64gib);

// The whole 8 MiB cache in memory over the default pool (items = nodes).
void BM_parent_cache_8mib(benchmark::State& state) {
  const auto g = graph(porep::registered_seal_proof::stacked_drg_8mib_v1_1);
  for (auto _ : state) {
    auto c = porep::parent_cache::generate(g);
    benchmark::DoNotOptimize(c.parents(1));
  }
  state.SetItemsProcessed(int64_t(state.iterations() * g.nodes()));
  state.counters["threads"] = double(cuzk::thread_pool::default_pool().size());
}
BENCHMARK(BM_parent_cache_8mib)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_parent_cache_digest_8mib(benchmark::State& state) {
  const auto g = graph(porep::registered_seal_proof::stacked_drg_8mib_v1_1);
  const auto c = porep::parent_cache::generate(g);
  for (auto _ : state) benchmark::DoNotOptimize(c.digest());
  state.SetBytesProcessed(int64_t(state.iterations() * c.bytes().size()));
}
BENCHMARK(BM_parent_cache_digest_8mib)->Unit(benchmark::kMillisecond);

}  // namespace
