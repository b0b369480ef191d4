// SPDX-License-Identifier: Apache-2.0
// CUZK_THREAD_POOL=native: size() - 1 worker threads of our own, handing out tasks one at a time
// under one mutex. Callers on different threads run their loops at once: each job joins a FIFO,
// workers take tasks from the oldest job that has some left, and a caller works only on its own
// job until it is done. So two partitions synthesized in parallel share the cores, and the tail of
// one (18 challenges on 16 threads) is filled by the next one's tasks instead of idling.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "base/thread_pool.hpp"

namespace cuzk {

struct thread_pool::impl {
  struct job {
    const std::function<void(size_t)>* fn = nullptr;
    size_t num_tasks = 0;
    size_t next_task = 0;
    size_t tasks_done = 0;
  };

  explicit impl(unsigned num_threads);
  ~impl();

  void worker_loop();
  // Takes the next task of j under the lock (nullopt-like: returns false when none is left) and
  // retires j from the queue when it hands out its last task.
  bool take(job& j, size_t& task);
  void finish(job& j);  // one task of j done; called with mutex unlocked
  void run(size_t num_tasks, const std::function<void(size_t)>& fn);

  std::vector<std::thread> workers;
  std::mutex mutex;
  std::condition_variable work_cv, done_cv;
  std::deque<job*> queue;  // jobs with tasks not yet handed out, oldest first
  bool stopping = false;
};

thread_pool::impl::impl(unsigned num_threads) {
  for (unsigned i = 1; i < num_threads; ++i) workers.emplace_back([this] { worker_loop(); });
}

thread_pool::impl::~impl() {
  {
    std::lock_guard lock(mutex);
    stopping = true;
  }
  work_cv.notify_all();
  for (auto& w : workers) w.join();
}

bool thread_pool::impl::take(job& j, size_t& task) {
  if (j.next_task >= j.num_tasks) return false;
  task = j.next_task++;
  if (j.next_task == j.num_tasks) queue.erase(std::find(queue.begin(), queue.end(), &j));
  return true;
}

void thread_pool::impl::finish(job& j) {
  std::lock_guard lock(mutex);
  if (++j.tasks_done == j.num_tasks) done_cv.notify_all();
}

void thread_pool::impl::worker_loop() {
  for (;;) {
    job* j;
    size_t task;
    {
      std::unique_lock lock(mutex);
      work_cv.wait(lock, [&] { return stopping || !queue.empty(); });
      if (stopping) return;
      j = queue.front();
      take(*j, task);
    }
    (*j->fn)(task);
    finish(*j);
  }
}

void thread_pool::impl::run(size_t n, const std::function<void(size_t)>& fn) {
  job j{&fn, n};
  {
    std::lock_guard lock(mutex);
    queue.push_back(&j);
  }
  work_cv.notify_all();
  for (;;) {
    size_t task;
    {
      std::lock_guard lock(mutex);
      if (!take(j, task)) break;
    }
    fn(task);
    finish(j);
  }
  std::unique_lock lock(mutex);
  done_cv.wait(lock, [&] { return j.tasks_done == j.num_tasks; });
}

thread_pool::thread_pool(unsigned num_threads)
    : num_threads_(resolve_num_threads(num_threads)), impl_(std::make_unique<impl>(num_threads_)) {}

thread_pool::~thread_pool() = default;

void thread_pool::parallel_for(size_t num_tasks, const std::function<void(size_t)>& fn) {
  if (ran_inline(num_tasks, fn)) return;
  impl_->run(num_tasks, fn);
}

}  // namespace cuzk
