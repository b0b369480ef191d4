// SPDX-License-Identifier: Apache-2.0
// The parts of thread_pool that do not depend on the implementation (thread_pool_native.cpp or
// thread_pool_tbb.cpp, CUZK_THREAD_POOL): thread count, the inline path, ranges, default pool.
#include "base/thread_pool.hpp"

namespace cuzk {

unsigned thread_pool::resolve_num_threads(unsigned requested) {
  return requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

bool thread_pool::ran_inline(size_t num_tasks, const std::function<void(size_t)>& fn) const {
  if (num_tasks > 1 && num_threads_ > 1) return false;
  for (size_t i = 0; i < num_tasks; ++i) fn(i);
  return true;
}

thread_pool& thread_pool::default_pool() {
  static thread_pool pool(0);
  return pool;
}

void thread_pool::parallel_range(size_t n, const std::function<void(size_t, size_t)>& fn,
                                 size_t min_chunk, unsigned chunks_per_thread) {
  if (n == 0) return;
  size_t chunks = std::max<size_t>(1, size_t(num_threads_) * chunks_per_thread);
  size_t chunk = std::max<size_t>(std::max<size_t>(min_chunk, 1), (n + chunks - 1) / chunks);
  size_t num_chunks = (n + chunk - 1) / chunk;
  parallel_for(num_chunks, [&](size_t c) { fn(c * chunk, std::min(n, (c + 1) * chunk)); });
}

}  // namespace cuzk
