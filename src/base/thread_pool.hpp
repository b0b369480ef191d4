// SPDX-License-Identifier: Apache-2.0
// thread_pool: a fixed set of worker threads running fork-join loops. The crypto core never
// creates threads of its own; callers pass a pool (STYLE.md §4.2), so the engine decides how many
// cores each job gets. A pool of size 1 runs everything on the calling thread.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <functional>
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
  /// Tasks are handed out dynamically (one atomic counter), so uneven tasks balance. Not reentrant:
  /// fn must not call parallel_for on the same pool. Exceptions from fn are not supported.
  void parallel_for(size_t num_tasks, const std::function<void(size_t)>& fn);

  /// Splits [0, n) into about `chunks_per_thread`·size() contiguous ranges of at least `min_chunk`
  /// and calls fn(begin, end) for each.
  void parallel_range(size_t n, const std::function<void(size_t, size_t)>& fn, size_t min_chunk = 1,
                      unsigned chunks_per_thread = 4);

  /// A process-wide pool sized to the machine, for tools and tests that do not manage their own.
  static thread_pool& default_pool();

 private:
  void worker_loop();
  void run_tasks();

  unsigned num_threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  const std::function<void(size_t)>* job_ = nullptr;
  size_t num_tasks_ = 0;
  size_t next_task_ = 0;
  size_t tasks_done_ = 0;
  unsigned generation_ = 0;
  bool stopping_ = false;
};

}  // namespace cuzk
