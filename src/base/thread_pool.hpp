// SPDX-License-Identifier: Apache-2.0
// thread_pool: a fixed set of worker threads running fork-join loops. The crypto core never
// creates threads of its own; callers pass a pool (CONTRIBUTING.md "Code rules"), so the engine
// decides how many cores each job gets. A pool of size 1 runs everything on the calling thread.
// Two implementations sit behind this one header, chosen at configure time by CUZK_THREAD_POOL
// (issue 10 item 5): `native` (thread_pool_native.cpp, own workers) and `tbb`
// (thread_pool_tbb.cpp, a oneTBB task_arena of size() slots). The state is behind a pointer so
// the header, and every file that includes it, is the same for both.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk {

class thread_pool {
 public:
  /// num_threads = 0 means std::thread::hardware_concurrency(). The calling thread takes part in
  /// every parallel_for, so num_threads - 1 workers are started.
  explicit thread_pool(unsigned num_threads = 0);
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  unsigned size() const { return num_threads_; }

  /// Calls fn(task) for task in [0, num_tasks), spread over the pool; returns when all are done.
  /// Tasks are handed out dynamically, so uneven tasks balance. Threads calling it at the same
  /// time share the pool: their loops run at once (the native implementation serves the oldest
  /// loop's tasks first; each caller works on its own loop only). fn must not call parallel_for
  /// on the same pool (the tbb implementation allows it; the native one is not tested for it).
  /// Exceptions from fn are not supported.
  void parallel_for(size_t num_tasks, const std::function<void(size_t)>& fn);

  /// Splits [0, n) into about `chunks_per_thread`·size() contiguous ranges of at least `min_chunk`
  /// and calls fn(begin, end) for each.
  void parallel_range(size_t n, const std::function<void(size_t, size_t)>& fn, size_t min_chunk = 1,
                      unsigned chunks_per_thread = 4);

  /// A process-wide pool sized to the machine, for tools and tests that do not manage their own.
  static thread_pool& default_pool();

 private:
  struct impl;  // defined by the implementation file

  /// 0 → std::thread::hardware_concurrency() (at least 1).
  static unsigned resolve_num_threads(unsigned requested);
  /// Runs fn over [0, num_tasks) on the calling thread when there is nothing to spread (an empty
  /// job, one task, or a pool of one); returns whether it did.
  bool ran_inline(size_t num_tasks, const std::function<void(size_t)>& fn) const;

  unsigned num_threads_;
  std::unique_ptr<impl> impl_;
};

}  // namespace cuzk
