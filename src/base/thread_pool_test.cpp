// SPDX-License-Identifier: Apache-2.0
#include "base/thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <numeric>

namespace cuzk {
namespace {

TEST(thread_pool, every_task_runs_once) {
  for (unsigned threads : {1u, 2u, 5u}) {
    thread_pool pool(threads);
    for (size_t n : {0, 1, 3, 1000}) {
      std::vector<std::atomic<int>> hits(n);
      pool.parallel_for(n, [&](size_t i) { hits[i]++; });
      for (auto& h : hits) EXPECT_EQ(h.load(), 1);
    }
  }
}

TEST(thread_pool, parallel_range_covers_exactly) {
  thread_pool pool(3);
  for (size_t n : {1, 7, 100, 12345}) {
    std::vector<std::atomic<int>> hits(n);
    pool.parallel_range(n, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) hits[i]++;
    });
    for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  }
}

TEST(thread_pool, repeated_jobs) {
  thread_pool pool(4);
  std::atomic<long> sum{0};
  for (int rep = 0; rep < 200; ++rep) pool.parallel_for(17, [&](size_t i) { sum += long(i); });
  EXPECT_EQ(sum.load(), 200L * (16 * 17 / 2));
}

}  // namespace
}  // namespace cuzk
