// SPDX-License-Identifier: Apache-2.0
// first_failure: independent checks run in parallel, reported as a sequential loop would report
// them — the failure of the lowest index, whatever the schedule (so an error message names the
// same sector or partition on every run and every machine).
#pragma once

#include <atomic>
#include <cstddef>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"

namespace cuzk {

/// check(i) for i in [0, n) over `pool`; ok when all pass, else the status of the lowest failing
/// i. Checks above a failure already found are skipped (they cannot be the lowest).
template <class Check>
status first_failure(size_t n, thread_pool& pool, const Check& check) {
  std::vector<status> results(n);
  std::atomic<size_t> first{n};
  pool.parallel_for(n, [&](size_t i) {
    if (i > first.load(std::memory_order_relaxed)) return;
    results[i] = check(i);
    if (results[i].ok()) return;
    size_t seen = first.load(std::memory_order_relaxed);
    while (i < seen && !first.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {
    }
  });
  return first < n ? results[first] : status();
}

}  // namespace cuzk
