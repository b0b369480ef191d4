// SPDX-License-Identifier: Apache-2.0
// Thread-count arguments for the multi-threaded CPU benchmarks: the fixed counts each benchmark
// always runs (comparable across machines) plus every hardware thread, the count the prover's
// default pool uses (scripts/bench_thread_pool.sh compares the thread_pool implementations there).
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace cuzk::bench {

inline std::vector<int64_t> with_all_threads(std::vector<int64_t> counts) {
  const int64_t all = std::max<int64_t>(1, std::thread::hardware_concurrency());
  if (std::find(counts.begin(), counts.end(), all) == counts.end()) counts.push_back(all);
  return counts;
}

}  // namespace cuzk::bench
