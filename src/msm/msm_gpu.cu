// SPDX-License-Identifier: Apache-2.0
// GPU Pippenger MSM and bitmap batch addition over G1 and G2: every kernel is a template over the
// device affine/XYZZ point types (gpu/ec_device.cuh), so G2 runs the same code over fp2_d.
//
// MSM, for window width c and W = ⌈256/c⌉ windows, processed in groups of windows that fit the
// memory budget:
//   1. digits:     each scalar leaves Montgomery form and is recoded into signed digits
//                  d ∈ [−2^(c−1)+1, 2^(c−1)] (carry into the next window); per window, key |d|
//                  and value index | sign<<31. Zero digits get key 0 and are never read.
//   2. sort:       per window, CUB radix sort of (key, value) on the low c bits.
//   3. bounds:     start/end of every bucket in the sorted run.
//   4. accumulate: every thread adds a fixed range of sorted entries (affine points, negated for
//                  negative digits) into an XYZZ accumulator (madd-2008-s, 8M + 2S), whatever the
//                  buckets in it (msm_gpu_plan.hpp): a bucket inside the range is written whole,
//                  the runs at the range's ends go to two partial slots. The partials of a bucket
//                  are contiguous slots, merged 64 at a time, level by level, until one is left
//                  (a heavy bucket, e.g. the carry-only top window, is reduced as a tree).
//   5. reduce:     one thread per segment of 2^s buckets: running sums give Σ (b − lo + 1)·B_b and
//                  Σ B_b, then + (lo − 1)·Σ B_b by double-and-add; blocks sum the segments, in
//                  two stages when a window has more than 1024.
//   6. host:       Horner over the W window sums (c doublings between windows).
// Batch add: the ones of the bitmap are counted per word and ranked (exclusive scan); every thread
// adds the same number of selected bases (msm_gpu_plan.hpp, batch_per_thread) from the one of
// rank t·per on; partial sums are reduced by blocks of 128 threads until one point is left.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <type_traits>
#include <vector>

#include "base/check.hpp"
#include "ec/ec_device.cuh"
#include "gpu/bitmap_rank.cuh"
#include "gpu/device_memory.cuh"
#include "msm/msm_gpu.hpp"
#include "msm/msm_gpu_plan.hpp"

namespace cuzk::msm::cuda {
namespace {

using cuzk::ec::device::g1_affine_d;
using cuzk::ec::device::g1_xyzz_d;
using cuzk::ec::device::g2_affine_d;
using cuzk::ec::device::g2_xyzz_d;
using cuzk::gpu::bitmap_word;
using cuzk::gpu::copy_to_host;
using cuzk::gpu::device_buffer;
using cuzk::gpu::device_context;
using cuzk::gpu::device_scope;
using cuzk::gpu::rank_bitmap_words;
using cuzk::gpu::stream;
using fr_d = ff::device::fr_d;

/// Host and device types of one group: G = ec::g1_* or ec::g2_* (the host types), A/X the device
/// affine/XYZZ twins with the same bytes.
template <class HostAffine>
struct group_t;
template <>
struct group_t<ec::g1_affine_t> {
  using A = g1_affine_d;
  using X = g1_xyzz_d;
  using host_xyzz = ec::g1_xyzz_t;
  using jacobian = ec::g1_jacobian_t;
};
template <>
struct group_t<ec::g2_affine_t> {
  using A = g2_affine_d;
  using X = g2_xyzz_d;
  using host_xyzz = ec::g2_xyzz_t;
  using jacobian = ec::g2_jacobian_t;
};

/// The coordinates the accumulation and the batch addition add in: G1's below 2p
/// (ff::device::fp_lazy_d: no final subtraction per product, the mixed addition ≈ 5 % fewer
/// instructions), G2's as stored. Loaded bases enter with to_inner, sums leave with from_inner.
template <class P>
struct inner_t {
  using type = P;
};
template <>
struct inner_t<g1_affine_d> {
  using type = cuzk::ec::device::affine_d<ff::device::fp_lazy_d>;
};
template <>
struct inner_t<g1_xyzz_d> {
  using type = cuzk::ec::device::xyzz_d<ff::device::fp_lazy_d>;
};
/// A reference to p itself when the types agree (a copy of a G2 base made the batch addition
/// spill 844 bytes), else the converted point.
template <class P>
__device__ __forceinline__ decltype(auto) to_inner(const P& p) {
  if constexpr (std::is_same_v<typename inner_t<P>::type, P>) {
    return (p);
  } else {
    return cuzk::ec::device::to_lazy(p);
  }
}
template <class P>
__device__ __forceinline__ P from_inner(const typename inner_t<P>::type& p) {
  if constexpr (std::is_same_v<typename inner_t<P>::type, P>) {
    return p;
  } else {
    return cuzk::ec::device::reduced(p);
  }
}

// Threads of a block-sum: 24 KiB of shared memory for G1 (192 B points), 24 KiB for G2 (384 B).
template <class X>
constexpr unsigned SUM_THREADS = sizeof(X) <= 192 ? 128 : 64;

unsigned blocks_for(size_t n, unsigned threads) {
  return unsigned((n + threads - 1) / threads);
}

/// last = {*count, *offset} after the work enqueued on strm (the total of an exclusive scan).
void read_last(const uint32_t* count, const uint32_t* offset, uint32_t last[2],
               const stream& strm) {
  copy_to_host({{&last[0], count, 4}, {&last[1], offset, 4}}, strm);  // one wait
}

__global__ void digits_kernel(const fr_d* scalars, size_t n, unsigned c, unsigned w0, unsigned g,
                              uint32_t* keys, uint32_t* vals) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const fr_d s = fr_d::load_ro(scalars + i).from_mont();
  const uint32_t mask = (1u << c) - 1, half = 1u << (c - 1);
  uint32_t carry = 0;
  for (unsigned w = 0; w < w0 + g; ++w) {
    const unsigned bit = w * c, word = bit / 32, sh = bit % 32;
    uint32_t v = 0;
    if (word < 8) {
      v = s.w[word] >> sh;
      if (sh != 0 && sh + c > 32 && word + 1 < 8) v |= s.w[word + 1] << (32 - sh);
    }
    v = (v & mask) + carry;  // ≤ 2^c
    uint32_t key, neg;
    if (v > half) {
      key = (1u << c) - v;  // digit v − 2^c < 0
      neg = 1;
      carry = 1;
    } else {
      key = v;
      neg = 0;
      carry = 0;
    }
    if (w >= w0) {
      const size_t o = size_t(w - w0) * n + i;
      keys[o] = key;
      vals[o] = uint32_t(i) | (neg << 31);
    }
  }
}

__global__ void bounds_kernel(const uint32_t* keys, size_t n, size_t total, uint32_t* start,
                              uint32_t* end, unsigned c) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= total) return;
  const size_t gw = t / n, i = t % n;
  const uint32_t k = keys[t];
  if (k == 0) return;
  const size_t slot = (gw << (c - 1)) + (k - 1);
  if (i == 0 || keys[t - 1] != k) start[slot] = uint32_t(i);
  if (i == n - 1 || keys[t + 1] != k) end[slot] = uint32_t(i + 1);
}

/// owner[offset[t] + j] = t for every chunk j of bucket t.
__global__ void chunk_owner_kernel(const uint32_t* chunks, const uint32_t* offset, size_t buckets,
                                   uint32_t* owner) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= buckets) return;
  for (uint32_t j = 0, o = offset[t]; j < chunks[t]; ++j) owner[o + j] = uint32_t(t);
}

/// Per bucket slot t (window t >> (c − 1)): where its partial sums are (msm_gpu_plan.hpp), as
/// counts[t] slots from offset[t] in the group's slot array; an empty bucket is set to infinity.
template <class X>
__global__ void plan_kernel(const uint32_t* start, const uint32_t* end, size_t buckets, unsigned c,
                            uint32_t entries, uint32_t range, uint32_t ranges, uint32_t* counts,
                            uint32_t* offset, X* bucket_sums) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= buckets) return;
  const bucket_partials p = locate_partials(start[t], end[t], entries, range);
  counts[t] = p.count;
  offset[t] = uint32_t((t >> (c - 1)) * 2 * ranges + p.first);
  if (end[t] <= start[t]) bucket_sums[t] = X::infinity();
}

/// sums[t] += chunk[t] for t < n: a streamed MSM's chunk, summed into its own bucket array by
/// the pass, added to the buckets kept across chunks. A kernel of its own: the addition of two
/// XYZZ points inside the accumulation's loop cost it registers and occupancy (twice the time
/// of 2^27-term G1 MSMs, the first try).
template <class X>
__global__ void add_buckets_kernel(X* sums, const X* chunk, size_t n) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const X c = chunk[t];
  if (c.is_infinity()) return;
  X s = sums[t];
  s.add(c);
  sums[t] = s;
}

/// One thread per range of `range` sorted entries of one window (g·ranges threads): interior
/// buckets to bucket_sums, the runs at the range's ends to slots 2q and 2q + 1.
template <class A, class X>
__global__ void accumulate_kernel(const A* bases, const uint32_t* keys, const uint32_t* vals,
                                  uint32_t n, unsigned g, uint32_t range, uint32_t ranges,
                                  unsigned c, X* slots, X* bucket_sums) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= size_t(g) * ranges) return;
  const size_t gw = t / ranges;
  const uint32_t q = uint32_t(t % ranges);
  const uint32_t lo = q * range, hi = min(n, lo + range);
  const uint32_t* v = vals + gw * n;
  X* slot = slots + 2 * t;
  X* window = bucket_sums + (gw << (c - 1));
  using IX = typename inner_t<X>::type;
  sum_runs(
      keys + gw * n, lo, hi, IX::infinity(),
      [&](IX& acc, uint32_t j) {
        const uint32_t x = v[j];
        auto p = to_inner(bases[x & 0x7fffffffu]);
        if (x >> 31) p = p.neg();
        acc.add_affine(p);
      },
      [&](const IX& acc) { slot[0] = from_inner<X>(acc); },
      [&](const IX& acc) { slot[1] = from_inner<X>(acc); },
      [&](uint32_t key, const IX& acc) { window[key - 1] = from_inner<X>(acc); });
}

/// next[t]: bucket t's chunk count after one more merge level — ⌈cur[t]/MERGE_FAN⌉ when it has
/// more than MERGE_FAN partial sums, else 0 (bucket_kernel finished it at this level).
__global__ void next_chunks_kernel(const uint32_t* cur, size_t buckets, uint32_t* next) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= buckets) return;
  const uint32_t c = cur[t];
  next[t] = c > MERGE_FAN ? (c + MERGE_FAN - 1) / MERGE_FAN : 0;
}

/// One merge level: output chunk q of bucket t = owner[q] sums at most MERGE_FAN of the
/// bucket's input chunk sums, so a heavy bucket is reduced as a tree, not by one thread. The
/// outputs are the level's total (out_cnt + out_off of the last bucket, read on the device: no
/// host round trip); the grid covers their bound (merged_bound).
template <class X>
__global__ void merge_kernel(const X* in, const uint32_t* in_cnt, const uint32_t* in_off,
                             const uint32_t* out_cnt, const uint32_t* out_off,
                             const uint32_t* owner, size_t buckets, X* out) {
  const size_t q = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= size_t(out_cnt[buckets - 1]) + out_off[buckets - 1]) return;
  const uint32_t t = owner[q];
  const uint32_t j = uint32_t(q) - out_off[t];
  const uint32_t lo = j * MERGE_FAN, hi = min(in_cnt[t], lo + MERGE_FAN);
  X acc = X::infinity();
  for (uint32_t i = lo; i < hi; ++i) acc.add(in[in_off[t] + i]);
  out[q] = acc;
}

/// One thread per bucket with 1…MERGE_FAN partial sums left: their sum is the bucket. Empty and
/// interior buckets are already in `out`; one with more partial sums waits for a merge level.
template <class X>
__global__ void bucket_kernel(const X* partial, const uint32_t* chunks, const uint32_t* offset,
                              size_t buckets, X* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= buckets || chunks[t] == 0 || chunks[t] > MERGE_FAN) return;
  X acc = X::infinity();
  for (uint32_t j = 0, o = offset[t]; j < chunks[t]; ++j) acc.add(partial[o + j]);
  out[t] = acc;
}

/// Segment s of window gw covers bucket values [lo, lo + L) (L = 2^((c − 1) − per_window_lg),
/// lo = 1 + L·s; slot = value − 1).
template <class X>
__global__ void segment_kernel(const X* buckets, size_t segments, unsigned c,
                               unsigned per_window_lg, X* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= segments) return;
  const unsigned seg_len = 1u << ((c - 1) - per_window_lg);
  const size_t gw = t >> per_window_lg, s = t & ((size_t(1) << per_window_lg) - 1);
  const X* b = buckets + (gw << (c - 1)) + s * seg_len;
  X run = X::infinity(), sum = X::infinity();
  for (int j = int(seg_len) - 1; j >= 0; --j) {
    run.add(b[j]);
    sum.add(run);
  }
  // sum = Σ (value − lo + 1)·B; add (lo − 1)·run with lo − 1 = s·seg_len.
  const uint32_t k = uint32_t(s) * seg_len;
  if (k != 0 && !run.is_infinity()) {
    X m = X::infinity();
    for (int bit = 31 - __clz(k); bit >= 0; --bit) {
      m = m.dbl();
      if ((k >> bit) & 1) m.add(run);
    }
    sum.add(m);
  }
  out[t] = sum;
}

/// out[b] = Σ in[b·chunk + j] for j < chunk (clipped to m): a block of SUM_THREADS per output.
template <class X>
__global__ void __launch_bounds__(SUM_THREADS<X>)
    sum_kernel(const X* in, size_t m, size_t chunk, X* out) {
  constexpr unsigned T = SUM_THREADS<X>;
  __shared__ X sh[T];
  const size_t lo = size_t(blockIdx.x) * chunk, hi = min(m, lo + chunk);
  X acc = X::infinity();
  for (size_t j = lo + threadIdx.x; j < hi; j += T) acc.add(in[j]);
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = T / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) {
      X a = sh[threadIdx.x];
      a.add(sh[threadIdx.x + s]);
      sh[threadIdx.x] = a;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}

/// start[t] = the word that holds the one of rank t·per (rank[wi] ones precede word wi).
__global__ void batch_start_kernel(const uint32_t* count, const uint32_t* rank, size_t nwords,
                                   uint32_t per, uint32_t* start) {
  const size_t wi = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (wi >= nwords) return;
  const thread_span ts = threads_starting_in(rank[wi], count[wi], per);
  for (uint32_t t = ts.first; t < ts.last; ++t) start[t] = uint32_t(wi);
}

/// Thread t adds the selected bases of ranks [t·per, min(ones, (t + 1)·per)); ones = the last
/// word's count and rank, read here (no host round trip), so a launch may cover more threads than
/// the ones need: those leave infinity.
template <class A, class X>
__global__ void batch_add_kernel(const A* bases, const uint64_t* words, size_t n,
                                 const uint32_t* rank, const uint32_t* start,
                                 const uint32_t* last_count, const uint32_t* last_rank,
                                 uint32_t per, uint32_t threads, X* out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const uint32_t ones = *last_count + *last_rank;
  const uint32_t first = t * per;
  if (t >= (ones + per - 1) / per) {
    out[t] = X::infinity();
    return;
  }
  size_t wi = start[t];
  uint64_t w = bitmap_word(words, wi, n);
  for (uint32_t skip = first - rank[wi]; skip != 0; --skip) w &= w - 1;  // earlier threads' ones
  auto acc = inner_t<X>::type::infinity();
  for (uint32_t left = min(per, ones - first); left != 0; --left) {
    while (w == 0) w = bitmap_word(words, ++wi, n);
    const unsigned bit = __ffsll((long long)w) - 1;
    w &= w - 1;
    acc.add_affine(to_inner(bases[wi * 64 + bit]));
  }
  out[t] = from_inner<X>(acc);
}

template <class G>
typename group_t<G>::host_xyzz to_host(const typename group_t<G>::X& p) {
  typename group_t<G>::host_xyzz r;
  static_assert(sizeof(r) == sizeof(p));
  std::memcpy(&r, &p, sizeof(r));
  return r;
}

/// A sum left on the device: the point at `at`, in one of the two buffers it was reduced through.
template <class X>
struct device_sum {
  device_buffer<X> a, b;
  const X* at = nullptr;
};

/// Sums the m ≥ 1 points of `a` into one on the device, by blocks of 1,024 inputs (through a
/// buffer of ⌈m/1024⌉ points), enqueued on `strm`.
template <class X>
device_sum<X> sum_on_device(device_buffer<X> a, size_t m, const stream& strm) {
  cudaStream_t st = strm.get();
  constexpr size_t CHUNK = 1024;
  device_sum<X> r{std::move(a), device_buffer<X>(blocks_for(m, CHUNK))};
  X* src = r.a.data();
  X* dst = r.b.data();
  while (m > 1) {
    const size_t blocks = (m + CHUNK - 1) / CHUNK;
    constexpr unsigned T = SUM_THREADS<X>;
    sum_kernel<X><<<unsigned(blocks), T, 0, st>>>(src, m, CHUNK, dst);
    CUZK_CUDA_LAUNCH_OK();
    std::swap(src, dst);
    m = blocks;
  }
  r.at = src;
  return r;
}

/// The buffers of one pass (digits, sort, bucket bounds, partial-sum plans, range slots, merge
/// levels) over at most max_n terms and a group of windows, and of the reduction of `reduced`
/// windows: allocated once, so a pass enqueues kernels only (no allocation, no host round
/// trip). Exactly what pass_scratch_bytes counts.
template <class G>
class pass_scratch {
  using A = typename group_t<G>::A;
  using X = typename group_t<G>::X;

 public:
  pass_scratch(size_t max_n, unsigned c, const group_plan& plan, unsigned reduced,
               const stream& strm)
      : strm_(strm),
        c_(c),
        plan_(plan),
        max_n_(max_n),
        per_window_(size_t(1) << (c - 1)),
        seg_lg_(segments_lg(c)),
        seg_chunk_(std::min(size_t(1) << seg_lg_, SEGMENT_SUM_CHUNK)),
        keys_(plan.group * max_n),
        vals_(plan.group * max_n),
        keys_s_(plan.group * max_n),
        vals_s_(plan.group * max_n),
        start_(plan.group * per_window_),
        end_(plan.group * per_window_),
        segs_(size_t(reduced) << seg_lg_),
        seg_sums_((size_t(reduced) << seg_lg_) / seg_chunk_),
        wins_(reduced),
        chunks_(plan.group * per_window_),
        offset_(plan.group * per_window_),
        chunks2_(plan.group * per_window_),
        offset2_(plan.group * per_window_),
        partial_(size_t(plan.group) * 2 * plan.ranges),
        partial2_(merged_bound(size_t(plan.group) * 2 * plan.ranges)),
        owner_(partial2_.size()) {
    cudaStream_t st = strm.get();
    CUZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes_, keys_.data(), keys_s_.data(),
                                                 vals_.data(), vals_s_.data(), int(max_n), 0,
                                                 int(c), st));
    temp_ = device_buffer<uint8_t>(temp_bytes_);
    CUZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes_, chunks_.data(), offset_.data(),
                                               int(plan.group * per_window_), st));
    scan_temp_ = device_buffer<uint8_t>(scan_bytes_);
  }

  /// Windows [w0, w0 + g) (g ≤ the plan's group) of Σ scalars[i]·bases[i], i < n ≤ max_n, into
  /// `buckets` (g·2^(c−1) of them, window w0's first; an empty bucket is left at infinity).
  void run(const A* bases, const fr_d* scalars, size_t n, unsigned w0, unsigned g, X* buckets) {
    if (n > max_n_ || g > plan_.group) {
      precondition_failed(__func__, "%zu terms, %u windows: the scratch holds %zu, %u", n, g,
                          max_n_, plan_.group);
    }
    cudaStream_t st = strm_.get();
    const unsigned c = c_;
    const uint32_t range = plan_.range, ranges = uint32_t((n + range - 1) / range);
    digits_kernel<<<blocks_for(n, 256), 256, 0, st>>>(scalars, n, c, w0, g, keys_.data(),
                                                      vals_.data());
    CUZK_CUDA_LAUNCH_OK();
    size_t sort_bytes = 0;
    CUZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys_.data(), keys_s_.data(),
                                                 vals_.data(), vals_s_.data(), int(n), 0, int(c),
                                                 st));
    if (sort_bytes > temp_bytes_) {
      precondition_failed(__func__, "a sort of %zu pairs needs %zu bytes, %zu held", n, sort_bytes,
                          temp_bytes_);
    }
    for (unsigned gw = 0; gw < g; ++gw) {
      size_t tb = sort_bytes;
      CUZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(temp_.data(), tb, keys_.data() + gw * n,
                                                   keys_s_.data() + gw * n, vals_.data() + gw * n,
                                                   vals_s_.data() + gw * n, int(n), 0, int(c), st));
    }
    const size_t nb = g * per_window_;
    CUZK_CUDA_OK(cudaMemsetAsync(start_.data(), 0, nb * sizeof(uint32_t), st));
    CUZK_CUDA_OK(cudaMemsetAsync(end_.data(), 0, nb * sizeof(uint32_t), st));
    bounds_kernel<<<blocks_for(g * n, 256), 256, 0, st>>>(keys_s_.data(), n, g * n, start_.data(),
                                                          end_.data(), c);
    CUZK_CUDA_LAUNCH_OK();
    plan_kernel<X><<<blocks_for(nb, 256), 256, 0, st>>>(start_.data(), end_.data(), nb, c,
                                                        uint32_t(n), range, ranges, chunks_.data(),
                                                        offset_.data(), buckets);
    CUZK_CUDA_LAUNCH_OK();
    accumulate_kernel<A, X><<<blocks_for(size_t(g) * ranges, 128), 128, 0, st>>>(
        bases, keys_s_.data(), vals_s_.data(), uint32_t(n), g, range, ranges, c, partial_.data(),
        buckets);
    CUZK_CUDA_LAUNCH_OK();
    // Every level sums the buckets with at most MERGE_FAN partial sums into the bucket array and
    // merges the others' MERGE_FAN at a time (a heavy bucket as a tree); m bounds every count.
    // Only the top window's carry-heavy buckets outlive the first level: re-copying every
    // finished bucket at each level cost ≈ 8 ms per group of 2^27-term windows. The merge grid
    // covers merged_bound and each thread reads the level's count on the device.
    X* in = partial_.data();
    X* out = partial2_.data();
    uint32_t* cnt = chunks_.data();
    uint32_t* off = offset_.data();
    uint32_t* cnt2 = chunks2_.data();
    uint32_t* off2 = offset2_.data();
    const size_t nout_max = merged_bound(size_t(g) * 2 * ranges);
    for (size_t m = 2 * size_t(ranges);; m = (m + MERGE_FAN - 1) / MERGE_FAN) {
      bucket_kernel<X><<<blocks_for(nb, 128), 128, 0, st>>>(in, cnt, off, nb, buckets);
      CUZK_CUDA_LAUNCH_OK();
      if (m <= MERGE_FAN) break;
      next_chunks_kernel<<<blocks_for(nb, 256), 256, 0, st>>>(cnt, nb, cnt2);
      CUZK_CUDA_LAUNCH_OK();
      size_t sb = scan_bytes_;
      CUZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(scan_temp_.data(), sb, cnt2, off2, int(nb), st));
      chunk_owner_kernel<<<blocks_for(nb, 256), 256, 0, st>>>(cnt2, off2, nb, owner_.data());
      CUZK_CUDA_LAUNCH_OK();
      merge_kernel<X><<<blocks_for(nout_max, 128), 128, 0, st>>>(in, cnt, off, cnt2, off2,
                                                                 owner_.data(), nb, out);
      CUZK_CUDA_LAUNCH_OK();
      // The level's outputs become the next level's inputs; partial_ (the slots) is at least
      // as large as the bound, so either array can take the next outputs.
      std::swap(in, out);
      std::swap(cnt, cnt2);
      std::swap(off, off2);
    }
  }

  /// The sums of `windows` windows of buckets (≤ the reduced count given at construction), on
  /// the host: one thread per segment of 2^s buckets (running sums), then blocks of seg_chunk
  /// segments, then one block per window.
  std::vector<typename group_t<G>::host_xyzz> reduce(const X* buckets, unsigned windows) {
    cudaStream_t st = strm_.get();
    const size_t ns = size_t(windows) << seg_lg_;
    segment_kernel<X><<<blocks_for(ns, 128), 128, 0, st>>>(buckets, ns, c_, seg_lg_, segs_.data());
    CUZK_CUDA_LAUNCH_OK();
    constexpr unsigned T = SUM_THREADS<X>;
    const size_t nsums = ns / seg_chunk_;
    sum_kernel<X><<<unsigned(nsums), T, 0, st>>>(segs_.data(), ns, seg_chunk_, seg_sums_.data());
    CUZK_CUDA_LAUNCH_OK();
    sum_kernel<X><<<windows, T, 0, st>>>(seg_sums_.data(), nsums, nsums / windows, wins_.data());
    CUZK_CUDA_LAUNCH_OK();
    std::vector<X> host(windows);
    wins_.download(host.data(), windows, strm_);
    std::vector<typename group_t<G>::host_xyzz> out(windows);
    for (unsigned w = 0; w < windows; ++w) out[w] = to_host<G>(host[w]);
    return out;
  }

 private:
  const stream& strm_;
  unsigned c_;
  group_plan plan_;
  size_t max_n_, per_window_;
  unsigned seg_lg_;
  size_t seg_chunk_;
  device_buffer<uint32_t> keys_, vals_, keys_s_, vals_s_, start_, end_;
  device_buffer<X> segs_, seg_sums_, wins_;
  device_buffer<uint32_t> chunks_, offset_, chunks2_, offset2_;
  device_buffer<X> partial_, partial2_;
  device_buffer<uint32_t> owner_;
  size_t temp_bytes_ = 0, scan_bytes_ = 0;
  device_buffer<uint8_t> temp_, scan_temp_;
};

/// Horner over the window sums: c doublings between windows, the top window first.
template <class G>
typename group_t<G>::jacobian combine_windows(
    const std::vector<typename group_t<G>::host_xyzz>& sums, unsigned c) {
  using J = typename group_t<G>::jacobian;
  J acc = J::infinity();
  for (size_t w = sums.size(); w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    acc += sums[w].to_jacobian();
  }
  return acc;
}

template <class G>
typename group_t<G>::jacobian msm_device_impl(const G* d_bases_h, const ff::fr_t* d_scalars_h,
                                              size_t n, const msm_config& cfg, const stream& strm) {
  using A = typename group_t<G>::A;
  using X = typename group_t<G>::X;
  using J = typename group_t<G>::jacobian;
  if (n == 0) return J::infinity();
  if (n >= (size_t(1) << 31)) {
    precondition_failed(__func__, "%zu points exceed 2^31", n);
  }
  const auto* bases = reinterpret_cast<const A*>(d_bases_h);
  const auto* scalars = reinterpret_cast<const fr_d*>(d_scalars_h);
  const unsigned c =
      cfg.window_bits != 0 ? std::clamp(cfg.window_bits, 2u, 24u) : window_by_cost(n, sizeof(X));
  const unsigned nwin = (SCALAR_BITS + c - 1) / c;
  const group_plan plan =
      plan_groups(n, c, sizeof(X), cfg.device_group_bytes ? cfg.device_group_bytes : GROUP_BYTES);
  // One group of windows at a time: its buckets filled by a pass, then reduced.
  device_buffer<X> buckets(plan.group * (size_t(1) << (c - 1)));
  pass_scratch<G> pass(n, c, plan, plan.group, strm);
  std::vector<typename group_t<G>::host_xyzz> window_sums;
  window_sums.reserve(nwin);
  for (unsigned w0 = 0; w0 < nwin; w0 += plan.group) {
    const unsigned g = std::min(plan.group, nwin - w0);
    pass.run(bases, scalars, n, w0, g, buckets.data());
    for (const auto& s : pass.reduce(buckets.data(), g)) window_sums.push_back(s);
  }
  return combine_windows<G>(window_sums, c);
}

template <class G>
typename group_t<G>::jacobian msm_host_impl(std::span<const G> bases,
                                            std::span<const ff::fr_t> scalars,
                                            const msm_config& cfg, const stream& strm) {
  if (bases.size() != scalars.size()) {
    precondition_failed(__func__, "%zu bases, %zu scalars", bases.size(), scalars.size());
  }
  const size_t n = bases.size();
  if (n == 0) return group_t<G>::jacobian::infinity();
  device_buffer<G> db(n);
  device_buffer<ff::fr_t> ds(n);
  db.upload(bases.data(), n, strm);
  ds.upload(scalars.data(), n, strm);
  return msm_device_impl<G>(db.data(), ds.data(), n, cfg, strm);
}

/// The words' counts of ones and ranks (rank_bitmap_words) over a bitmap of n bits.
struct bitmap_ranks {
  bitmap_ranks(const uint64_t* d_words, size_t n, const stream& strm)
      : nwords((n + 63) / 64), count(nwords), rank(nwords) {
    rank_bitmap_words(d_words, n, count.data(), rank.data(), strm);
  }
  size_t nwords;
  device_buffer<uint32_t> count, rank;
};

/// Enqueues Σ d_bases[i] over the set bits of d_words[0, n) on `threads` threads of `per` ones
/// (at least ⌈ones/per⌉; the rest add nothing) into one device point; the sum's buffers are
/// returned with it.
template <class G>
device_sum<typename group_t<G>::X> enqueue_batch_sum(const G* d_bases, const uint64_t* d_words,
                                                     size_t n, const bitmap_ranks& r, uint32_t per,
                                                     uint32_t threads, const stream& strm) {
  cudaStream_t st = strm.get();
  using A = typename group_t<G>::A;
  using X = typename group_t<G>::X;
  device_buffer<uint32_t> start(threads);
  batch_start_kernel<<<blocks_for(r.nwords, 256), 256, 0, st>>>(r.count.data(), r.rank.data(),
                                                                r.nwords, per, start.data());
  CUZK_CUDA_LAUNCH_OK();
  device_buffer<X> partial(threads);
  batch_add_kernel<A, X><<<blocks_for(threads, 128), 128, 0, st>>>(
      reinterpret_cast<const A*>(d_bases), d_words, n, r.rank.data(), start.data(),
      r.count.data() + r.nwords - 1, r.rank.data() + r.nwords - 1, per, threads, partial.data());
  CUZK_CUDA_LAUNCH_OK();
  return sum_on_device(std::move(partial), threads, strm);
}

/// total += p, one thread (an infinite p leaves it).
template <class X>
__global__ void add_point_kernel(X* total, const X* p) {
  const X q = *p;
  if (q.is_infinity()) return;
  X t = *total;
  t.add(q);
  *total = t;
}

template <class G>
typename group_t<G>::jacobian batch_add_device_impl(const G* d_bases, const uint64_t* d_words,
                                                    size_t n, const batch_config& cfg,
                                                    const stream& strm) {
  using X = typename group_t<G>::X;
  using J = typename group_t<G>::jacobian;
  if (n == 0) return J::infinity();
  const bitmap_ranks r(d_words, n, strm);
  // One query on the device whole: the threads sized by its ones (read back once), so a sparse
  // bitmap still spreads over every multiprocessor.
  uint32_t last[2];
  read_last(r.count.data() + r.nwords - 1, r.rank.data() + r.nwords - 1, last, strm);
  const uint32_t ones = last[0] + last[1];  // ≤ n < 2^32
  if (ones == 0) return J::infinity();
  const uint32_t per = batch_per_thread(ones, cfg.per_thread);
  const device_sum<X> d =
      enqueue_batch_sum(d_bases, d_words, n, r, per, (ones + per - 1) / per, strm);
  X h;
  copy_to_host(&h, d.at, sizeof(h), strm);
  return to_host<G>(h).to_jacobian();
}

template <class G>
typename group_t<G>::jacobian batch_add_host_impl(std::span<const G> bases, bitmap_view mask,
                                                  const batch_config& cfg, const stream& strm) {
  if (mask.count != bases.size() || mask.words.size() < (bases.size() + 63) / 64) {
    precondition_failed(__func__, "mask of %zu bits for %zu bases", mask.count, bases.size());
  }
  const size_t n = bases.size();
  if (n == 0) return group_t<G>::jacobian::infinity();
  device_buffer<G> db(n);
  device_buffer<uint64_t> dw((n + 63) / 64);
  db.upload(bases.data(), n, strm);
  dw.upload(mask.words.data(), (n + 63) / 64, strm);
  return batch_add_device_impl<G>(db.data(), dw.data(), n, cfg, strm);
}

}  // namespace

template <class Affine>
struct msm_accumulator<Affine>::impl {
  using X = typename group_t<Affine>::X;
  impl(device_context& ctx, const stream& s, const accumulator_plan& a, size_t max_chunk)
      : ctx(ctx),
        strm(s),
        plan(a),
        max_chunk(max_chunk),
        buckets(size_t(a.windows) << (a.c - 1)),
        chunk_buckets(size_t(a.groups.group) << (a.c - 1)),
        pass(std::max<size_t>(max_chunk, 1), a.c, a.groups, a.windows, s) {
    buckets.zero(s);  // XYZZ with ZZ = 0: infinity
  }
  device_context& ctx;
  const stream& strm;
  accumulator_plan plan;
  size_t max_chunk;
  device_buffer<X> buckets;        ///< every window's, across the chunks
  device_buffer<X> chunk_buckets;  ///< one group of windows of the chunk being added
  pass_scratch<Affine> pass;
};

template <class Affine>
msm_accumulator<Affine>::msm_accumulator(device_context& ctx, const stream& s, size_t total_terms,
                                         size_t max_chunk_terms, const msm_config& cfg) {
  using X = typename group_t<Affine>::X;
  if (max_chunk_terms >= (size_t(1) << 31)) {
    precondition_failed(__func__, "chunks of %zu points exceed 2^31", max_chunk_terms);
  }
  device_scope scope(ctx);
  const accumulator_plan a = plan_accumulator(
      std::max<size_t>(total_terms, 1), max_chunk_terms, sizeof(X),
      cfg.device_group_bytes ? cfg.device_group_bytes : GROUP_BYTES, cfg.window_bits);
  impl_ = std::make_unique<impl>(ctx, s, a, max_chunk_terms);
}

template <class Affine>
msm_accumulator<Affine>::~msm_accumulator() {
  if (impl_) {
    device_scope scope(impl_->ctx);
    impl_.reset();
  }
}

template <class Affine>
void msm_accumulator<Affine>::add(const Affine* d_bases, const ff::fr_t* d_scalars, size_t n) {
  if (n == 0) return;
  impl& m = *impl_;
  if (n > m.max_chunk) {
    precondition_failed(__func__, "a chunk of %zu terms, at most %zu", n, m.max_chunk);
  }
  device_scope scope(m.ctx);
  const auto* bases = reinterpret_cast<const typename group_t<Affine>::A*>(d_bases);
  const auto* scalars = reinterpret_cast<const fr_d*>(d_scalars);
  const unsigned c = m.plan.c, group = m.plan.groups.group;
  for (unsigned w0 = 0; w0 < m.plan.windows; w0 += group) {
    const unsigned g = std::min(group, m.plan.windows - w0);
    m.pass.run(bases, scalars, n, w0, g, m.chunk_buckets.data());
    const size_t nb = size_t(g) << (c - 1);
    add_buckets_kernel<typename group_t<Affine>::X><<<blocks_for(nb, 128), 128, 0, m.strm.get()>>>(
        m.buckets.data() + (size_t(w0) << (c - 1)), m.chunk_buckets.data(), nb);
    CUZK_CUDA_LAUNCH_OK();
  }
}

template <class Affine>
typename msm_accumulator<Affine>::jacobian msm_accumulator<Affine>::result() {
  impl& m = *impl_;
  device_scope scope(m.ctx);
  const auto sums = m.pass.reduce(m.buckets.data(), m.plan.windows);
  m.buckets.zero(m.strm);
  return combine_windows<Affine>(sums, m.plan.c);
}

template <class Affine>
unsigned msm_accumulator<Affine>::window_bits() const {
  return impl_->plan.c;
}

static_assert(sizeof(group_t<ec::g1_affine_t>::X) == G1_XYZZ_BYTES &&
                  sizeof(group_t<ec::g2_affine_t>::X) == G2_XYZZ_BYTES,
              "the plans size buckets by these");
template class msm_accumulator<ec::g1_affine_t>;
template class msm_accumulator<ec::g2_affine_t>;

template <class Affine>
struct batch_accumulator<Affine>::impl {
  impl(device_context& ctx, const stream& s) : ctx(ctx), strm(s), total(1) {
    total.zero(s);  // XYZZ with ZZ = 0: infinity
  }
  device_context& ctx;
  const stream& strm;
  device_buffer<typename group_t<Affine>::X> total;
};

template <class Affine>
batch_accumulator<Affine>::batch_accumulator(device_context& ctx, const stream& s) {
  device_scope scope(ctx);
  impl_ = std::make_unique<impl>(ctx, s);
}

template <class Affine>
batch_accumulator<Affine>::~batch_accumulator() {
  if (impl_) {
    device_scope scope(impl_->ctx);
    impl_.reset();
  }
}

template <class Affine>
void batch_accumulator<Affine>::add(const Affine* d_bases, const uint64_t* d_words, size_t n,
                                    const batch_config& cfg) {
  if (n == 0) return;
  if (n >= (size_t(1) << 32)) precondition_failed(__func__, "%zu bits exceed 2^32 - 1", n);
  impl& m = *impl_;
  device_scope scope(m.ctx);
  using X = typename group_t<Affine>::X;
  const bitmap_ranks r(d_words, n, m.strm);
  // Threads for every bit a one (the count stays on the device): batch_per_thread gives the
  // same per for a chunk's ones as for its bits up to 16·2^19 bits (every ring slot's chunk).
  const uint32_t per = batch_per_thread(n, cfg.per_thread);
  const device_sum<X> d =
      enqueue_batch_sum(d_bases, d_words, n, r, per, uint32_t((n + per - 1) / per), m.strm);
  add_point_kernel<X><<<1, 1, 0, m.strm.get()>>>(m.total.data(), d.at);
  CUZK_CUDA_LAUNCH_OK();
}

template <class Affine>
typename batch_accumulator<Affine>::jacobian batch_accumulator<Affine>::result() {
  impl& m = *impl_;
  device_scope scope(m.ctx);
  typename group_t<Affine>::X h;
  copy_to_host(&h, m.total.data(), sizeof(h), m.strm);
  m.total.zero(m.strm);
  return to_host<Affine>(h).to_jacobian();
}

template class batch_accumulator<ec::g1_affine_t>;
template class batch_accumulator<ec::g2_affine_t>;

unsigned choose_window_gpu(size_t n, bool g2) {
  return window_by_cost(n, g2 ? G2_XYZZ_BYTES : G1_XYZZ_BYTES);
}

ec::g1_jacobian_t msm_device(device_context& ctx, const stream& s, const ec::g1_affine_t* d_bases,
                             const ff::fr_t* d_scalars, size_t n, const msm_config& cfg) {
  device_scope scope(ctx);
  return msm_device_impl<ec::g1_affine_t>(d_bases, d_scalars, n, cfg, s);
}
ec::g2_jacobian_t msm_g2_device(device_context& ctx, const stream& s,
                                const ec::g2_affine_t* d_bases, const ff::fr_t* d_scalars, size_t n,
                                const msm_config& cfg) {
  device_scope scope(ctx);
  return msm_device_impl<ec::g2_affine_t>(d_bases, d_scalars, n, cfg, s);
}

ec::g1_jacobian_t msm(device_context& ctx, const stream& s, std::span<const ec::g1_affine_t> bases,
                      std::span<const ff::fr_t> scalars, const msm_config& cfg) {
  device_scope scope(ctx);
  return msm_host_impl<ec::g1_affine_t>(bases, scalars, cfg, s);
}
ec::g2_jacobian_t msm(device_context& ctx, const stream& s, std::span<const ec::g2_affine_t> bases,
                      std::span<const ff::fr_t> scalars, const msm_config& cfg) {
  device_scope scope(ctx);
  return msm_host_impl<ec::g2_affine_t>(bases, scalars, cfg, s);
}

ec::g1_jacobian_t batch_add_device(device_context& ctx, const stream& s,
                                   const ec::g1_affine_t* d_bases, const uint64_t* d_words,
                                   size_t n, const batch_config& cfg) {
  device_scope scope(ctx);
  return batch_add_device_impl<ec::g1_affine_t>(d_bases, d_words, n, cfg, s);
}
ec::g2_jacobian_t batch_add_g2_device(device_context& ctx, const stream& s,
                                      const ec::g2_affine_t* d_bases, const uint64_t* d_words,
                                      size_t n, const batch_config& cfg) {
  device_scope scope(ctx);
  return batch_add_device_impl<ec::g2_affine_t>(d_bases, d_words, n, cfg, s);
}

ec::g1_jacobian_t batch_add(device_context& ctx, const stream& s,
                            std::span<const ec::g1_affine_t> bases, bitmap_view mask,
                            const batch_config& cfg) {
  device_scope scope(ctx);
  return batch_add_host_impl<ec::g1_affine_t>(bases, mask, cfg, s);
}
ec::g2_jacobian_t batch_add(device_context& ctx, const stream& s,
                            std::span<const ec::g2_affine_t> bases, bitmap_view mask,
                            const batch_config& cfg) {
  device_scope scope(ctx);
  return batch_add_host_impl<ec::g2_affine_t>(bases, mask, cfg, s);
}

}  // namespace cuzk::msm::cuda
