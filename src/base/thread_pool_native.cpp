// SPDX-License-Identifier: Apache-2.0
// CUZK_THREAD_POOL=native: size() - 1 worker threads of our own and one job at a time, handed out
// task by task under one mutex. Callers on different threads take turns (run_mutex: the engine's
// workers share pools); a nested parallel_for from inside a task is not supported (it would wait
// for itself).
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "base/thread_pool.hpp"

namespace cuzk {

struct thread_pool::impl {
  explicit impl(unsigned num_threads);
  ~impl();

  void worker_loop();
  void run_tasks();  // takes tasks until none are left; called with mutex unlocked
  void run(size_t num_tasks, const std::function<void(size_t)>& fn);

  std::vector<std::thread> workers;
  std::mutex run_mutex;  // held by the one caller whose job the workers are running
  std::mutex mutex;
  std::condition_variable work_cv, done_cv;
  const std::function<void(size_t)>* job = nullptr;
  size_t num_tasks = 0;
  size_t next_task = 0;
  size_t tasks_done = 0;
  unsigned generation = 0;
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

void thread_pool::impl::run_tasks() {
  for (;;) {
    size_t task;
    const std::function<void(size_t)>* current;
    {
      std::lock_guard lock(mutex);
      if (next_task >= num_tasks) return;
      task = next_task++;
      current = job;
    }
    (*current)(task);
    {
      std::lock_guard lock(mutex);
      if (++tasks_done == num_tasks) done_cv.notify_all();
    }
  }
}

void thread_pool::impl::worker_loop() {
  unsigned seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex);
      work_cv.wait(lock, [&] { return stopping || generation != seen; });
      if (stopping) return;
      seen = generation;
    }
    run_tasks();
  }
}

void thread_pool::impl::run(size_t n, const std::function<void(size_t)>& fn) {
  std::lock_guard turn(run_mutex);
  {
    std::lock_guard lock(mutex);
    job = &fn;
    num_tasks = n;
    next_task = 0;
    tasks_done = 0;
    ++generation;
  }
  work_cv.notify_all();
  run_tasks();
  std::unique_lock lock(mutex);
  done_cv.wait(lock, [&] { return tasks_done == num_tasks; });
  job = nullptr;
  num_tasks = 0;
}

thread_pool::thread_pool(unsigned num_threads)
    : num_threads_(resolve_num_threads(num_threads)), impl_(std::make_unique<impl>(num_threads_)) {}

thread_pool::~thread_pool() = default;

void thread_pool::parallel_for(size_t num_tasks, const std::function<void(size_t)>& fn) {
  if (ran_inline(num_tasks, fn)) return;
  impl_->run(num_tasks, fn);
}

}  // namespace cuzk
