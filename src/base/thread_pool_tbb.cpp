// SPDX-License-Identifier: Apache-2.0
// CUZK_THREAD_POOL=tbb: the pool is a oneTBB task_arena of size() slots, one of them kept for the
// calling thread, as the native pool's caller takes part too. TBB's workers are shared by every
// arena of the process, so the arena caps how many run one job (the engine's per-job core budget),
// and a parallel_for nested in a task joins the same arena instead of deadlocking.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "base/thread_pool.hpp"

namespace cuzk {

struct thread_pool::impl {
  explicit impl(unsigned num_threads) : arena(int(num_threads), 1) { arena.initialize(); }
  tbb::task_arena arena;
};

thread_pool::thread_pool(unsigned num_threads)
    : num_threads_(resolve_num_threads(num_threads)), impl_(std::make_unique<impl>(num_threads_)) {}

thread_pool::~thread_pool() = default;

void thread_pool::parallel_for(size_t num_tasks, const std::function<void(size_t)>& fn) {
  if (ran_inline(num_tasks, fn)) return;
  // simple_partitioner with grain 1 splits down to single tasks, which idle slots steal: the
  // native contract (one task at a time, uneven tasks balance). Callers already size their tasks
  // (parallel_range's chunks), so TBB's auto_partitioner would only coarsen them further.
  impl_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, num_tasks, 1),
        [&](const tbb::blocked_range<size_t>& r) {
          for (size_t i = r.begin(); i != r.end(); ++i) fn(i);
        },
        tbb::simple_partitioner());
  });
}

}  // namespace cuzk
