// SPDX-License-Identifier: Apache-2.0
#include "base/thread_pool.hpp"

namespace cuzk {

thread_pool::thread_pool(unsigned num_threads) {
  if (num_threads == 0) num_threads = std::max(1u, std::thread::hardware_concurrency());
  num_threads_ = num_threads;
  for (unsigned i = 1; i < num_threads_; ++i) workers_.emplace_back([this] { worker_loop(); });
}

thread_pool::~thread_pool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (auto& w : workers_) w.join();
}

thread_pool& thread_pool::default_pool() {
  static thread_pool pool(0);
  return pool;
}

// Takes tasks until none are left. Called with mutex_ unlocked.
void thread_pool::run_tasks() {
  for (;;) {
    size_t task;
    const std::function<void(size_t)>* job;
    {
      std::lock_guard lock(mutex_);
      if (next_task_ >= num_tasks_) return;
      task = next_task_++;
      job = job_;
    }
    (*job)(task);
    {
      std::lock_guard lock(mutex_);
      if (++tasks_done_ == num_tasks_) done_cv_.notify_all();
    }
  }
}

void thread_pool::worker_loop() {
  unsigned seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      work_cv_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    run_tasks();
  }
}

void thread_pool::parallel_for(size_t num_tasks, const std::function<void(size_t)>& fn) {
  if (num_tasks == 0) return;
  if (num_threads_ == 1 || num_tasks == 1) {
    for (size_t i = 0; i < num_tasks; ++i) fn(i);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    job_ = &fn;
    num_tasks_ = num_tasks;
    next_task_ = 0;
    tasks_done_ = 0;
    ++generation_;
  }
  work_cv_.notify_all();
  run_tasks();
  std::unique_lock lock(mutex_);
  done_cv_.wait(lock, [&] { return tasks_done_ == num_tasks_; });
  job_ = nullptr;
  num_tasks_ = 0;
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
