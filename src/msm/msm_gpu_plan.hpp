// SPDX-License-Identifier: Apache-2.0
// Index arithmetic of the GPU MSM's balanced bucket accumulation (msm_gpu.cu), host and device,
// so that the CPU tests (msm_test.cpp) run the same code the kernels run.
//
// After the per-window sort, entries with equal keys (bucket values) are contiguous. Every thread
// takes a fixed range of `range` sorted entries, whatever the buckets inside it: all threads do the
// same number of additions, where one thread per bucket (or per bucket chunk) would leave most of a
// warp idle behind its fullest bucket when buckets hold ≈ 64 points (window 22 at 2^27). A bucket
// wholly inside a range and not at either end of it ("interior") is finished by that thread and
// written to the bucket array. Each range also writes two partial sums to slots 2q and 2q + 1 of
// its window: the run of its first entry and the run of its last entry (the identity when both are
// the same run, or when the run's key is 0). A bucket that touches a range's end therefore has its
// partial sums in a contiguous run of slots (locate_partials), merged afterwards.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "base/hd.hpp"

namespace cuzk::msm::gpu {

/// Where one bucket's partial sums are, in its window's 2·ranges slots.
struct bucket_partials {
  uint32_t first;  ///< first slot
  uint32_t count;  ///< slots to sum; 0 when the bucket is empty or interior
  bool interior;   ///< summed whole by the thread of its range and written to the bucket array
};

/// The bucket whose sorted entries are [start, end) among `entries`, cut into ranges of `range`.
CUZK_HD_INLINE bucket_partials locate_partials(uint32_t start, uint32_t end, uint32_t entries,
                                               uint32_t range) {
  if (end <= start) return {0, 0, false};
  const uint32_t q0 = start / range, q1 = (end - 1) / range;
  const uint32_t q0_end = (q0 + 1) * range < entries ? (q0 + 1) * range : entries;
  const bool first_run = start == q0 * range, last_run = end >= q0_end;
  if (q0 == q1 && !first_run && !last_run) return {0, 0, true};
  const uint32_t lo = 2 * q0 + (first_run ? 0 : 1);
  // Spanning ranges q0..q1: its run in q0 (first or last slot), the whole of q0 < q < q1 (first
  // slot; the last slot holds the identity) and the first run of q1.
  return {lo, q0 == q1 ? 1 : 2 * q1 - lo + 1, false};
}

/// Runs of equal keys in the sorted entries [lo, hi) (lo < hi) of one range. add_entry(acc, j)
/// adds entry j to acc (never called for key 0); then the first run goes to emit_first, the last
/// run to emit_last (`zero` when it is the first run), interior runs of nonzero keys to
/// emit_bucket(key, acc). One accumulator is live at a time: a run is written as soon as it ends.
template <class Acc, class AddEntry, class EmitFirst, class EmitLast, class EmitBucket>
CUZK_HD_INLINE void sum_runs(const uint32_t* keys, uint32_t lo, uint32_t hi, const Acc& zero,
                             AddEntry&& add_entry, EmitFirst&& emit_first, EmitLast&& emit_last,
                             EmitBucket&& emit_bucket) {
  Acc acc = zero;
  uint32_t key = keys[lo];
  bool in_first = true;
  for (uint32_t j = lo; j < hi; ++j) {
    const uint32_t k = keys[j];
    if (k != key) {
      if (in_first) {
        emit_first(acc);
        in_first = false;
      } else if (key != 0) {
        emit_bucket(key, acc);
      }
      acc = zero;
      key = k;
    }
    if (k != 0) add_entry(acc, j);
  }
  if (in_first) {
    emit_first(acc);
    emit_last(zero);
  } else {
    emit_last(acc);
  }
}

/// The window width for n terms: the c ≤ 22 that minimises ⌈256/c⌉ windows × (1.08·n mixed
/// additions, the 8 % being digits and sort, + 3.3 addition-equivalents per bucket of the 2^(c−1):
/// two XYZZ additions of 1.4 each in the running sums plus the segment's share of its closing
/// double-and-add). 2^24 → 20, 2^26 and 2^27 → 22 (see bench/results/h200/2026-12-02-msm.md).
inline unsigned window_by_cost(size_t n) {
  unsigned best = 5;
  double best_cost = 0;
  for (unsigned c = 5; c <= 22; ++c) {
    const double cost =
        double((256 + c - 1) / c) * (1.08 * double(n) + 3.3 * double(1u << (c - 1)));
    if (c == 5 || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

/// Device memory of one window group (GPU windows are processed g at a time).
constexpr size_t GROUP_BYTES = size_t(12) << 30;
constexpr uint32_t RANGE_MAX = 128;  // sorted entries per accumulation thread
constexpr uint32_t RANGE_MIN = 16;

struct group_plan {
  unsigned group;   ///< windows per group
  uint32_t range;   ///< sorted entries per accumulation thread
  uint32_t ranges;  ///< ⌈n / range⌉ threads per window
};

/// Windows per group within GROUP_BYTES (per window: keys and values before and after the sort,
/// 16 B per term, and points of point_bytes for the buckets, the range slots and the first merge
/// level), and the range: RANGE_MAX once a group has ≥ 2^23 terms, smaller below (down to
/// RANGE_MIN) so that small MSMs still have ≈ 2^16 threads.
inline group_plan plan_groups(size_t n, unsigned c, size_t point_bytes) {
  const size_t windows = (256 + c - 1) / c, buckets = size_t(1) << (c - 1);
  const size_t slots = 2 * ((n + RANGE_MAX - 1) / RANGE_MAX);
  const size_t per_window = 16 * n + point_bytes * (2 * buckets + slots + slots / 64 + 1);
  const unsigned group = unsigned(std::clamp<size_t>(GROUP_BYTES / per_window, 1, windows));
  uint32_t range = RANGE_MAX;
  while (range > RANGE_MIN && size_t(group) * n < (size_t(range) << 16)) range /= 2;
  return {group, range, uint32_t((n + range - 1) / range)};
}

/// Batch addition (0/1 scalars): every thread adds the same number of selected bases, wherever
/// they are in the bitmap, so a warp never waits on its densest lane (one thread per fixed span of
/// bitmap words ran as long as the fullest word of each step: 128 bits of mean 64 ones per word
/// at 50 % density cost a warp ≈ 1.26× its mean work). About 2^19 threads (≈ 15 waves of the
/// kernel's resident threads on an H200, so the tail wave is small), 16 to 256 ones each.
constexpr unsigned BATCH_THREADS_LG = 19;
constexpr uint32_t BATCH_PER_MIN = 16;
constexpr uint32_t BATCH_PER_MAX = 256;

/// Ones per batch-add thread for `ones` selected bases; `requested` (nonzero) overrides the choice
/// (tests), clamped to [1, BATCH_PER_MAX].
inline uint32_t batch_per_thread(uint64_t ones, uint32_t requested = 0) {
  if (requested != 0) return std::min(requested, BATCH_PER_MAX);
  const uint64_t per = (ones + (uint64_t(1) << BATCH_THREADS_LG) - 1) >> BATCH_THREADS_LG;
  return uint32_t(std::clamp<uint64_t>(per, BATCH_PER_MIN, BATCH_PER_MAX));
}

/// Threads whose first one lies in a word of `count` ones that follows `before` ones, with `per`
/// ones per thread: [first, last) where thread t starts at the one of rank t·per.
struct thread_span {
  uint32_t first, last;
};
CUZK_HD_INLINE thread_span threads_starting_in(uint32_t before, uint32_t count, uint32_t per) {
  if (count == 0) return {0, 0};
  return {(before + per - 1) / per, (before + count - 1) / per + 1};
}

}  // namespace cuzk::msm::gpu
