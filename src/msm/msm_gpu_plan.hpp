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

namespace cuzk::msm::cuda {

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

/// XYZZ bytes of a G1 and of a G2 bucket (4 coordinates of Fp, of Fp2): what tells the groups
/// apart wherever a plan is sized.
constexpr size_t G1_XYZZ_BYTES = 4 * 48;
constexpr size_t G2_XYZZ_BYTES = 4 * 96;

/// The cost of one bucket of a window against one term's mixed addition: two XYZZ additions of
/// ≈ 1.4 each in the running sums plus the segment's share of its closing double-and-add, 3.3
/// for G1 (bench/results/h200/2026-12-02-msm.md). G2's is ≈ 7.7: a term's cost there includes
/// the digits and the sort that G1 and G2 share, a bucket's is all Fp2 arithmetic, so buckets
/// weigh relatively more; fitted to the window sweep of a dense 2^26-term G2 MSM on an H100
/// (c = 20 1,154 ms, 21 1,215 ms, 22 1,204 ms with 12 GiB groups;
/// bench/results/h100/2026-12-07-express-mechanism.md), where the G1 weight chose c = 22.
inline double bucket_weight(size_t xyzz_bytes) {
  return xyzz_bytes > G1_XYZZ_BYTES ? 7.7 : 3.3;
}

/// The cost of a window of width c over n terms, in mixed-addition equivalents: ⌈256/c⌉ windows
/// × (1.08·n mixed additions, the 8 % being digits and sort, + bucket_weight per bucket of the
/// 2^(c−1)).
inline double window_cost(size_t n, unsigned c, size_t xyzz_bytes) {
  return double((256 + c - 1) / c) *
         (1.08 * double(n) + bucket_weight(xyzz_bytes) * double(size_t(1) << (c - 1)));
}

/// The windows the GPU MSMs choose among by cost (wider: more bucket memory than it saves).
constexpr unsigned WINDOW_MIN = 5;
constexpr unsigned WINDOW_MAX = 22;

/// The window width for n terms: the c ≤ 22 of least window_cost. G1: 2^24 → 20, 2^26 and 2^27
/// → 22; G2: 2^22 → 16, 2^26 → 20.
inline unsigned window_by_cost(size_t n, size_t xyzz_bytes = G1_XYZZ_BYTES) {
  unsigned best = WINDOW_MIN;
  double best_cost = 0;
  for (unsigned c = WINDOW_MIN; c <= WINDOW_MAX; ++c) {
    const double cost = window_cost(n, c, xyzz_bytes);
    if (c == WINDOW_MIN || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

/// Windows cover 256 bits so the top carry is absorbed.
constexpr unsigned SCALAR_BITS = 256;
/// Segments per window at most 2^15 (a segment is ≥ 16 buckets): enough threads to fill the GPU
/// for the reduction, while the segment's closing double-and-add stays a small share of its work.
constexpr unsigned SEGMENT_MIN_LG = 4;
constexpr unsigned SEGMENTS_MAX_LG = 15;
constexpr size_t SEGMENT_SUM_CHUNK = 1024;  ///< segments per block in the first stage of the sum
constexpr uint32_t MERGE_FAN = 64;          ///< partial sums merged per thread and level

/// log2 segments per window of width c: buckets per segment ≥ 2^SEGMENT_MIN_LG, segments ≤
/// 2^SEGMENTS_MAX_LG.
inline unsigned segments_lg(unsigned c) {
  return (c - 1) <= SEGMENT_MIN_LG ? 0 : std::min((c - 1) - SEGMENT_MIN_LG, SEGMENTS_MAX_LG);
}

/// Device memory of one window group by default (GPU windows are processed g at a time;
/// msm_config::device_group_bytes lowers it for small cards).
constexpr size_t GROUP_BYTES = size_t(12) << 30;
constexpr uint32_t RANGE_MAX = 128;  // sorted entries per accumulation thread
constexpr uint32_t RANGE_MIN = 16;

struct group_plan {
  unsigned group;   ///< windows per group
  uint32_t range;   ///< sorted entries per accumulation thread
  uint32_t ranges;  ///< ⌈n / range⌉ threads per window
};

/// Windows per group within group_bytes (per window: keys and values before and after the sort,
/// 16 B per term, and points of point_bytes for the buckets, the range slots and the first merge
/// level), and the range: RANGE_MAX once a group has ≥ 2^23 terms, smaller below (down to
/// RANGE_MIN) so that small MSMs still have ≈ 2^16 threads.
inline size_t group_window_bytes(size_t n, unsigned c, size_t point_bytes) {
  const size_t buckets = size_t(1) << (c - 1), slots = 2 * ((n + RANGE_MAX - 1) / RANGE_MAX);
  return 16 * n + point_bytes * (2 * buckets + slots + slots / 64 + 1);
}
inline group_plan plan_groups(size_t n, unsigned c, size_t point_bytes,
                              size_t group_bytes = GROUP_BYTES) {
  const size_t windows = (SCALAR_BITS + c - 1) / c;
  const size_t per_window = group_window_bytes(n, c, point_bytes);
  const unsigned group = unsigned(std::clamp<size_t>(group_bytes / per_window, 1, windows));
  uint32_t range = RANGE_MAX;
  while (range > RANGE_MIN && size_t(group) * n < (size_t(range) << 16)) range /= 2;
  return {group, range, uint32_t((n + range - 1) / range)};
}

/// Upper bounds of CUB's temporary storage, which only a device can size exactly: a radix sort of
/// n key-value pairs of 32-bit words (the alternate keys and values, 8 B per pair, and the
/// onesweep's histograms and look-back, under 1 B per pair for tiles of ≥ 1,024 pairs), and an
/// exclusive scan of n items (tile states of 16 B per tile of ≥ 128 items).
inline size_t sort_temp_bound(size_t n) {
  return 9 * n + (size_t(1) << 20);
}
inline size_t scan_temp_bound(size_t n) {
  return n / 8 + 4096;
}

/// The most outputs of one merge level over `slots` range slots: a bucket of k > MERGE_FAN partial
/// sums leaves ⌈k/MERGE_FAN⌉ ≤ 2k/MERGE_FAN, and the counts sum to at most the slots (a level's
/// outputs are the next one's inputs, so the bound holds at every level). The merge buffers are
/// this large from the start: no level reads its count back to the host.
inline size_t merged_bound(size_t slots) {
  return 2 * slots / MERGE_FAN + 1;
}

/// The scratch of one pass over `n` terms for `g` windows (msm_gpu.cu's pass_scratch): digits
/// and their sort, bucket bounds, partial-sum plans, range slots and merge levels; then the
/// reduction of `reduced` windows (segments, their sums, the window sums).
inline size_t pass_scratch_bytes(size_t n, unsigned c, const group_plan& p, size_t xyzz_bytes,
                                 size_t reduced) {
  const unsigned seg_lg = segments_lg(c);
  const size_t g = p.group, nb = g * (size_t(1) << (c - 1)), segs = reduced << seg_lg;
  const size_t seg_chunk = std::min(size_t(1) << seg_lg, SEGMENT_SUM_CHUNK);
  const size_t slots = 2 * g * size_t(p.ranges), merged = merged_bound(slots);
  return 16 * g * n                                          // keys, values, sorted keys, values
         + 8 * nb + 16 * nb                                  // bounds; chunk counts and offsets ×2
         + xyzz_bytes * (segs + segs / seg_chunk + reduced)  // segments, sums, windows
         + sort_temp_bound(n) + scan_temp_bound(nb)          //
         + xyzz_bytes * slots + (xyzz_bytes + 4) * merged;   // range slots, merge outputs, owners
}

/// Device bytes msm_device holds at its peak for n terms of XYZZ buckets of xyzz_bytes (G1 192,
/// G2 384) with the window the prover uses (window_by_cost) and windows grouped within
/// group_bytes: one group's buckets and its pass, all live at once. The bases and scalars are the
/// caller's.
inline size_t msm_scratch_bytes(size_t n, size_t xyzz_bytes, size_t group_bytes = GROUP_BYTES) {
  if (n == 0) return 0;
  const unsigned c = window_by_cost(n, xyzz_bytes);
  const group_plan p = plan_groups(n, c, xyzz_bytes, group_bytes);
  return xyzz_bytes * p.group * (size_t(1) << (c - 1)) +
         pass_scratch_bytes(n, c, p, xyzz_bytes, p.group);
}

/// A streamed MSM (msm_accumulator): every window's buckets live across the chunks, so the window
/// is the c ≤ 22 of least window_cost for the whole MSM's `total` terms whose buckets
/// take at most a quarter of group_bytes (2^27 G1 terms, 12 GiB: c = 20, 13 windows of 2^19
/// buckets, 1.28 GB, 4.6 % more additions than c = 22's 4.8 GB); each chunk of at most
/// `max_chunk` terms is digit-coded and sorted a group of windows at a time within group_bytes.
struct accumulator_plan {
  unsigned c;
  unsigned windows;
  group_plan groups;
};
inline accumulator_plan plan_accumulator(size_t total, size_t max_chunk, size_t xyzz_bytes,
                                         size_t group_bytes = GROUP_BYTES,
                                         unsigned window_bits = 0) {
  unsigned c = WINDOW_MIN;
  if (window_bits != 0) {
    c = std::clamp(window_bits, 2u, 24u);
  } else {
    double best = -1;
    for (unsigned w = WINDOW_MIN; w <= WINDOW_MAX; ++w) {
      const size_t windows = (SCALAR_BITS + w - 1) / w;
      if (w > WINDOW_MIN && windows * (size_t(1) << (w - 1)) * xyzz_bytes > group_bytes / 4)
        continue;
      const double cost = window_cost(total, w, xyzz_bytes);
      if (best < 0 || cost < best) {
        best = cost;
        c = w;
      }
    }
  }
  const unsigned windows = (SCALAR_BITS + c - 1) / c;
  return {c, windows, plan_groups(std::max<size_t>(max_chunk, 1), c, xyzz_bytes, group_bytes)};
}

/// The adds of `total` terms `chunk` at a time, and the passes over `windows` windows `group` at
/// a time.
inline size_t adds_of(size_t total, size_t chunk) {
  return (total + chunk - 1) / std::max<size_t>(chunk, 1);
}
inline unsigned passes_of(unsigned windows, unsigned group) {
  return (windows + group - 1) / std::max(group, 1u);
}

/// A streamed MSM's cost (msm_accumulator over `total` G1 terms in chunks of at most `chunk`) at
/// window c with `group` windows a pass, in units of one term's bucket accumulation in one
/// window: per window each term accumulated and sorted (SORT_WEIGHT a radix pass of 8 bits:
/// ⌈c/8⌉ of them) and the buckets' final sums (bucket_weight); per chunk each window's 2^(c−1)
/// buckets added into the kept ones (KEPT_BUCKET_WEIGHT each, XYZZ + XYZZ), the chunk's fixed
/// work (CHUNK_WEIGHT) and its passes' (PASS_WEIGHT each: launches, the digits' read of the
/// chunk's scalars, a group's occupancy). A wider window saves term additions and costs
/// kept-bucket additions a chunk and, past 16 bits, a third radix pass; fewer windows a pass
/// cost passes. Fitted to BM_gpu_msm_g1_accumulator on an H200 (2^27 terms through 2 and 3 GiB
/// rings, windows 16–22, 1, 2 or all windows a pass: 30 runs within 6 %;
/// bench/results/h200/2026-12-07-streamed-h-window.md): accumulation 0.353 ns a term and
/// window, a radix pass 26 ps, a kept bucket 1.56 ns, a chunk 4.39 ms, a pass 0.58 ms.
constexpr double SORT_WEIGHT = 0.0747;
constexpr double KEPT_BUCKET_WEIGHT = 4.42;
constexpr double CHUNK_WEIGHT = 12.45e6;
constexpr double PASS_WEIGHT = 1.64e6;
inline double accumulator_cost(size_t total, size_t chunk, unsigned c, unsigned group,
                               size_t xyzz_bytes) {
  const double chunks = double(adds_of(total, chunk));
  const unsigned windows = (SCALAR_BITS + c - 1) / c;
  const unsigned passes = passes_of(windows, group);
  const double buckets = double(size_t(1) << (c - 1));
  return double(windows) * (double(total) * (1 + SORT_WEIGHT * double((c + 7) / 8)) +
                            bucket_weight(xyzz_bytes) * buckets) +
         chunks * (double(windows) * KEPT_BUCKET_WEIGHT * buckets + CHUNK_WEIGHT +
                   double(passes) * PASS_WEIGHT);
}

/// Device bytes an msm_accumulator holds from construction to destruction: every window's
/// buckets, one group's buckets of the chunk being added, and the pass over a chunk of max_chunk
/// terms, reducing every window at the end.
inline size_t msm_accumulator_bytes(size_t total, size_t max_chunk, size_t xyzz_bytes,
                                    size_t group_bytes = GROUP_BYTES, unsigned window_bits = 0) {
  if (total == 0 || max_chunk == 0) return 0;
  const accumulator_plan a =
      plan_accumulator(total, max_chunk, xyzz_bytes, group_bytes, window_bits);
  return xyzz_bytes * (a.windows + a.groups.group) * (size_t(1) << (a.c - 1)) +
         pass_scratch_bytes(max_chunk, a.c, a.groups, xyzz_bytes, a.windows);
}

/// What a choice of pass costs an accumulator of gathered terms (a streamed split's others: the
/// others of one or more chunks gathered, then added) beyond the terms themselves, which cost the
/// same at one window whatever the passes: each add() of `pass` terms its fixed work and the
/// addition of its buckets into the kept ones (G1 1.68 ms, G2 4.1), and each pass of it over a
/// group of windows 0.79 ms (digits, sorts and ≈ 25 kernels). Fitted on an H100 to
/// BM_gpu_split_stream (32 GiB PoRep's L and B2 shapes, a tenth of each chunk others, 1 to 8
/// chunks an add, 128 and 512 MiB groups: G1's 16 runs within 7 %;
/// bench/results/h100/2026-12-08-split-others-gathered.md), where those costs were 25–45 % of an
/// add-per-chunk split's time.
constexpr double GATHERED_ADD_MS_G1 = 1.68;
constexpr double GATHERED_ADD_MS_G2 = 4.1;
constexpr double GATHERED_PASS_MS = 0.79;
inline double gathered_pass_cost_ms(size_t total, size_t pass, unsigned windows, unsigned group,
                                    size_t xyzz_bytes) {
  const double adds = double(adds_of(total, pass));
  const double passes = adds * double(passes_of(windows, group));
  return adds * (xyzz_bytes > G1_XYZZ_BYTES ? GATHERED_ADD_MS_G2 : GATHERED_ADD_MS_G1) +
         passes * GATHERED_PASS_MS;
}

/// The most windows a pass (at most the window's count) whose msm_accumulator over `total`
/// terms, added `pass` at a time at window c, holds at most `budget` device bytes; 0 where not
/// even one window a pass does. Its group bytes: the count × group_window_bytes(pass, c, xyzz).
inline unsigned widest_group_within(size_t total, size_t pass, unsigned c, size_t xyzz_bytes,
                                    size_t budget) {
  const unsigned windows = (SCALAR_BITS + c - 1) / c;
  const size_t per_window = group_window_bytes(pass, c, xyzz_bytes);
  for (unsigned g = windows; g >= 1; --g)
    if (msm_accumulator_bytes(total, pass, xyzz_bytes, g * per_window, c) <= budget) return g;
  return 0;
}

/// An accumulator planned for chunks of `planned_chunk` terms within `group_bytes` whose chunks
/// turn out to hold at most `chunk` (a split's others: the plan bounds every term of a chunk
/// other, a PoRep chunk holds about a tenth): the same window, and of the adds the planned bytes
/// allow the least costly by gathered_pass_cost_ms — `max_chunk` terms an add (from `chunk`,
/// doubling, up to planned_chunk: the others of several chunks gathered, then added at once),
/// each add with as many windows a pass as fit (widest_group_within). 24 GiB PoRep, L's others
/// (16 chunks of ≈ 0.84 M): 6 passes of 3 windows an add of a whole chunk planned; one pass of 16
/// an add of one chunk's others; 2 adds of 6 passes for 8 chunks' others. Never more bytes than
/// planned: the planned chunk and groups always fit.
struct accumulator_sizing {
  size_t max_chunk;      ///< msm_accumulator's max_chunk_terms: the terms of one add
  unsigned window_bits;  ///< msm_config::window_bits
  size_t group_bytes;    ///< msm_config::device_group_bytes
};
inline accumulator_sizing accumulator_within_plan(size_t total, size_t planned_chunk, size_t chunk,
                                                  size_t xyzz_bytes, size_t group_bytes) {
  const accumulator_plan planned = plan_accumulator(total, planned_chunk, xyzz_bytes, group_bytes);
  const size_t budget = msm_accumulator_bytes(total, planned_chunk, xyzz_bytes, group_bytes);
  planned_chunk = std::max<size_t>(planned_chunk, 1);
  chunk = std::clamp<size_t>(chunk, 1, planned_chunk);
  accumulator_sizing best{planned_chunk, planned.c, group_bytes};
  double best_cost = -1;
  for (size_t pass = chunk;; pass = std::min(2 * pass, planned_chunk)) {
    const unsigned g = widest_group_within(total, pass, planned.c, xyzz_bytes, budget);
    const double cost = gathered_pass_cost_ms(total, pass, planned.windows, g, xyzz_bytes);
    if (g != 0 && (best_cost < 0 || cost < best_cost)) {
      best = {pass, planned.c, g * group_window_bytes(pass, planned.c, xyzz_bytes)};
      best_cost = cost;
    }
    if (pass == planned_chunk) break;
  }
  return best;
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

/// Device bytes batch_add_device holds at its peak over n bitmap bits (every bit set at worst):
/// per word its count and rank (and the rank's scan, freed before the rest), per thread its start
/// and partial sum, and the first level of the final sum (one point per 1,024 partials).
inline size_t batch_add_scratch_bytes(size_t n, size_t xyzz_bytes) {
  if (n == 0) return 0;
  // batch_per_thread gives ⌈ones/16⌉ threads up to 2^BATCH_THREADS_LG, then about that many,
  // then ⌈ones/256⌉: never more than this for any ones ≤ n.
  const size_t words = (n + 63) / 64;
  const size_t threads =
      std::max((n + BATCH_PER_MAX - 1) / BATCH_PER_MAX,
               std::min((n + BATCH_PER_MIN - 1) / BATCH_PER_MIN, size_t(1) << BATCH_THREADS_LG));
  return 8 * words + std::max(scan_temp_bound(words), 4 * threads + xyzz_bytes * threads +
                                                          xyzz_bytes * ((threads + 1023) / 1024));
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

}  // namespace cuzk::msm::cuda
