// SPDX-License-Identifier: Apache-2.0
// GPU Groth16 prover (prover_gpu.hpp). The order of work in start():
//   1. h: a, b, c uploaded (pinned, chunked staging on a copy stream) and zero-padded to m on the
//      device; iFFT (n→r) and coset FFT (r→n) each, exactly prover_cpu's orders; one kernel
//      a_i ← (a_i·b_i − c_i)·Z^-1 (Z = g^m − 1); inverse coset FFT (n→n); the first m − 1
//      coefficients are the H scalars, used in place.
//   2. aux uploaded once (already there when a, b, c were evaluated from it); the 0/1 split of
//      msm::split_witness computed on the device for L (no density), A (a_aux_density) and B
//      (b_aux_density, shared by B1 and B2): a ones bitmap over the (compacted) base index space
//      for the bitmap batch addition, and the "other" terms as (base index, gathered scalar)
//      lists for Pippenger over gathered bases; zeros cost nothing. aux is freed.
//   3. H = MSM(h_query, h) straight from the device array, then L, A, B1, B2 from their splits;
//      inputs (a few) are a plain MSM (A: dense; B: compacted over b_input_density).
// With the parameters in host memory (residency::host), the bases stream from a FIFO ring of
// device memory filled on a copy stream of its own (ring_t), H's chunks interleaved with L, A
// and B's so the copies of one run under the MSMs of the other: H as a sum of MSMs over its
// chunks, the splits per chunk (the ones of the chunk's bitmap words, the others whose base
// index falls in it: classify writes them in ascending order).
// Every kernel, copy and MSM of one start() is ordered on a stream of its own on the parameters'
// device context; nothing waits for the whole device.
// Every CUDA call throws gpu_error (CUZK_CUDA_OK); the public functions catch it and return a
// status naming the call. Device and pinned memory live in RAII owners, so an error leaks nothing.
#include "groth16/prover_gpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cub/device/device_scan.cuh>
#include <deque>
#include <list>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "ff/mont_device.cuh"
#include "gpu/cuda_status.hpp"
#include "gpu/device_memory.cuh"
#include "msm/msm_gpu.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt_gpu.hpp"

namespace cuzk::groth16::gpu {

using cuzk::gpu::device_buffer;
using cuzk::gpu::device_scope;
using ec::g1_affine_t;
using ec::g1_jacobian_t;
using ec::g2_affine_t;
using ec::g2_jacobian_t;
using ff::fr_t;

/// count elements of T in cudaHostAlloc'd memory (none for count 0).
template <class T>
struct pinned_array {
  pinned_array() = default;
  explicit pinned_array(size_t count)
      : buf(count ? std::make_unique<cuzk::gpu::pinned_buffer>(count * sizeof(T)) : nullptr),
        count(count) {}
  T* data() const { return buf ? reinterpret_cast<T*>(buf->get()) : nullptr; }
  size_t bytes() const { return count * sizeof(T); }
  std::unique_ptr<cuzk::gpu::pinned_buffer> buf;
  size_t count = 0;
};

struct device_parameters::impl {
  explicit impl(cuzk::gpu::device_context c) : ctx(std::move(c)) {}
  // The device, its NTT tables and staging sets; declared first, so freed after the bases.
  mutable cuzk::gpu::device_context ctx;
  verifying_key vk;
  query_sizes q{};
  residency where = residency::device;
  // Device residency.
  device_buffer<g1_affine_t> h, l, a, b_g1;
  device_buffer<g2_affine_t> b_g2;
  // Host residency: the queries page-locked, and the ring each start() streams them through.
  pinned_array<g1_affine_t> host_h, host_l, host_a, host_b_g1;
  pinned_array<g2_affine_t> host_b_g2;
  size_t ring_bytes = 0;
};

namespace {

using cuzk::gpu::cuda_status;

/// a[i] ← (a[i]·b[i] − c[i])·zi for i < m.
__global__ void h_pointwise_kernel(ff::device::fr_d* a, const ff::device::fr_d* b,
                                   const ff::device::fr_d* c, ff::device::fr_d zi, size_t m) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < m) a[i] = (a[i] * b[i] - c[i]) * zi;
}

/// dst[i] = src[idx[i]], elements of W 16-byte words (Fr: 2, G1 affine: 6, G2 affine: 12).
template <unsigned W>
struct blob_t {
  uint4 v[W];
};
template <unsigned W>
__global__ void gather_kernel(const blob_t<W>* src, const uint32_t* idx, size_t n, uint32_t first,
                              blob_t<W>* dst) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[idx[i] - first];
}

unsigned blocks_for(size_t n, unsigned threads) {
  return unsigned((n + threads - 1) / threads);
}

/// Where one start() runs: the parameters' device context, the call's own stream (every kernel,
/// copy and MSM of the call is ordered on it) and a staging set taken from the context.
struct run_t {
  cuzk::gpu::device_context& ctx;
  const cuzk::gpu::stream& strm;
  cuzk::gpu::stager& st;
  thread_pool& pool;
};

/// dst[i] = src[idx[i] − first] for i < n on `st` (nothing for n = 0): src holds the elements
/// from index `first` on (a chunk of a query streamed from the host; 0 for a whole query).
template <class T>
void gather(const T* src, const uint32_t* idx, size_t n, T* dst, cudaStream_t st,
            uint32_t first = 0) {
  static_assert(sizeof(T) % 16 == 0);
  constexpr unsigned W = sizeof(T) / 16;
  if (n == 0) return;
  gather_kernel<W><<<blocks_for(n, 128), 128, 0, st>>>(reinterpret_cast<const blob_t<W>*>(src), idx,
                                                       n, first, reinterpret_cast<blob_t<W>*>(dst));
  CUZK_CUDA_LAUNCH_OK();
}

/// out[i] = popcount of density word i, bits at or past `count` masked off (bitmap_view
/// semantics: the last word may carry garbage there).
__global__ void word_popc_kernel(const uint64_t* words, size_t nw, size_t count, uint32_t* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= nw) return;
  uint64_t v = words[i];
  if (i + 1 == nw && (count & 63) != 0) v &= (uint64_t(1) << (count & 63)) - 1;
  out[i] = uint32_t(__popcll(v));
}

/// The Montgomery form of 1 in Fr, as four limbs (a kernel argument).
struct fr_limbs {
  uint64_t v[4];
};

/// The 0/1/other classification of scalars[j], j < n. With a density (words + exclusive ranks
/// per word), only j with a set density bit are terms, at compacted index
/// c = rank[j / 64] + popcount(word & bits below j % 64); without one, c = j. Zeros: neither.
struct term_class {
  bool one = false, other = false;
  uint32_t c = 0;
};
__device__ term_class classify_term(const ulonglong2* scalars, size_t n, size_t j,
                                    const uint64_t* density, const uint32_t* rank,
                                    const fr_limbs& one) {
  term_class t;
  if (j >= n) return t;
  bool used = true;
  if (density != nullptr) {
    const uint64_t w = density[j >> 6];
    const unsigned b = unsigned(j & 63);  // < 64: the shifts below are defined
    used = ((w >> b) & 1) != 0;
    t.c = rank[j >> 6] + uint32_t(__popcll(w & ((uint64_t(1) << b) - 1)));
  } else {
    t.c = uint32_t(j);
  }
  if (used) {
    const ulonglong2 lo = scalars[2 * j], hi = scalars[2 * j + 1];
    const bool zero = (lo.x | lo.y | hi.x | hi.y) == 0;
    t.one = lo.x == one.v[0] && lo.y == one.v[1] && hi.x == one.v[2] && hi.y == one.v[3];
    t.other = !zero && !t.one;
  }
  return t;
}

constexpr unsigned CLASSIFY_THREADS = 256;

/// Pass 1 of the split: the other terms of each block of CLASSIFY_THREADS j (block_others), and
/// their total (counters[1]).
__global__ void count_others_kernel(const ulonglong2* scalars, size_t n, const uint64_t* density,
                                    const uint32_t* rank, fr_limbs one, uint32_t* block_others,
                                    unsigned* counters) {
  const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const term_class t = classify_term(scalars, n, j, density, rank, one);
  const int others = __syncthreads_count(t.other);
  if (threadIdx.x == 0) {
    block_others[blockIdx.x] = uint32_t(others);
    if (others != 0) atomicAdd(&counters[1], unsigned(others));
  }
}

/// Pass 2: ones to bit c of `ones` (zeroed before; counters[0] counts them); the other terms in
/// ascending j from slot block_first[block] (the exclusive scan of pass 1): base_idx[slot] = c,
/// aux_idx[slot] = j. c grows with j, so base_idx is ascending, which lets host residency cut
/// the others by chunk of bases. Needs blockDim = CLASSIFY_THREADS and every thread reaching the
/// barrier and the warp intrinsics (no early exit).
__global__ void classify_kernel(const ulonglong2* scalars, size_t n, const uint64_t* density,
                                const uint32_t* rank, fr_limbs one, const uint32_t* block_first,
                                unsigned long long* ones, uint32_t* base_idx, uint32_t* aux_idx,
                                unsigned* counters) {
  __shared__ unsigned warp_others[CLASSIFY_THREADS / 32];
  const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const term_class t = classify_term(scalars, n, j, density, rank, one);
  const bool is_one = t.one, is_other = t.other;
  const uint32_t c = t.c;
  const unsigned full = 0xffffffffu;
  const unsigned other_mask = __ballot_sync(full, is_other);
  const unsigned one_mask = __ballot_sync(full, is_one);
  if (lane == 0) warp_others[warp] = unsigned(__popc(other_mask));
  __syncthreads();
  if (is_other) {
    unsigned slot = block_first[blockIdx.x];
    for (unsigned w = 0; w < warp; ++w) slot += warp_others[w];
    slot += unsigned(__popc(other_mask & ((1u << lane) - 1u)));
    base_idx[slot] = c;
    aux_idx[slot] = uint32_t(j);
  }
  if (one_mask != 0) {  // warp-uniform
    if (lane == unsigned(__ffs(int(one_mask))) - 1)
      atomicAdd(&counters[0], unsigned(__popc(one_mask)));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    // A warp's 32 consecutive j have at most 32 consecutive compacted indices among its terms,
    // so its ones fall in bitmap words w0 and w0 + 1 only: OR them across the warp, then one
    // atomicOr per word instead of one per set bit.
    const unsigned wi = is_one ? (c >> 6) : 0xffffffffu;
    const unsigned w0 = __reduce_min_sync(full, wi);
    const uint64_t bit = is_one ? (uint64_t(1) << (c & 63)) : 0;
    const uint64_t lo = wi == w0 ? bit : 0;
    const uint64_t hi = (is_one && wi != w0) ? bit : 0;
    const uint64_t lo_or = uint64_t(__reduce_or_sync(full, unsigned(lo))) |
                           (uint64_t(__reduce_or_sync(full, unsigned(lo >> 32))) << 32);
    const uint64_t hi_or = uint64_t(__reduce_or_sync(full, unsigned(hi))) |
                           (uint64_t(__reduce_or_sync(full, unsigned(hi >> 32))) << 32);
    if (lane == 0) {
      if (lo_or != 0) atomicOr(&ones[w0], (unsigned long long)lo_or);
      if (hi_or != 0) atomicOr(&ones[w0 + 1], (unsigned long long)hi_or);
    }
#else
    if (is_one) atomicOr(&ones[c >> 6], 1ull << (c & 63));
#endif
  }
}

/// out[k] = the first i < n with sorted[i] ≥ k·per (n when none), for k ≤ chunks: where the
/// other terms of each chunk of `per` bases begin in the ascending base_idx.
__global__ void chunk_bounds_kernel(const uint32_t* sorted, uint32_t n, size_t per, size_t chunks,
                                    uint32_t* out) {
  const size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k > chunks) return;
  const uint64_t key = uint64_t(k) * per;
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  out[k] = lo;
}

/// The 0/1 split of one MSM's aux scalars on the device: `count` terms (the compacted space),
/// the ones bitmap over it (⌈count/64⌉ words, bits ≥ count zero), and the other terms as base
/// indices into the compacted bases with their scalars gathered.
struct device_split {
  size_t count = 0, num_one = 0, num_other = 0;
  device_buffer<uint64_t> ones;
  device_buffer<uint32_t> base_idx;  ///< first num_other entries used
  device_buffer<fr_t> scalars;       ///< num_other gathered scalars
};

/// Classifies the n device scalars d_aux (density: the host bitmap, count == n, or nullptr).
device_split classify(const fr_t* d_aux, size_t n, const bitmap_view* density, const run_t& run) {
  const cudaStream_t st = run.strm.get();
  device_split sp;
  if (n == 0) return sp;
  device_buffer<uint64_t> d_words;
  device_buffer<uint32_t> rank;
  if (density != nullptr) {
    sp.count = density->popcount();
    if (sp.count == 0) return sp;
    const size_t nw = (n + 63) / 64;
    d_words = device_buffer<uint64_t>(nw);
    run.st.upload(d_words.data(), density->words.data(), nw * sizeof(uint64_t), run.pool, run.strm);
    device_buffer<uint32_t> cnt(nw);
    rank = device_buffer<uint32_t>(nw);
    word_popc_kernel<<<blocks_for(nw, 256), 256, 0, st>>>(d_words.data(), nw, n, cnt.data());
    CUZK_CUDA_LAUNCH_OK();
    size_t temp_bytes = 0;
    CUZK_CUDA_OK(
        cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, cnt.data(), rank.data(), int(nw), st));
    device_buffer<uint8_t> temp(std::max<size_t>(temp_bytes, 1));
    CUZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, cnt.data(), rank.data(),
                                               int(nw), st));
  } else {
    sp.count = n;
  }
  sp.ones = device_buffer<uint64_t>((sp.count + 63) / 64);
  sp.ones.zero(run.strm);
  sp.base_idx = device_buffer<uint32_t>(sp.count);
  device_buffer<uint32_t> aux_idx(sp.count);
  device_buffer<unsigned> counters(2);
  counters.zero(run.strm);
  fr_limbs one;
  static_assert(sizeof(one) == sizeof(fr_t));
  const fr_t one_mont = fr_t::one();
  std::memcpy(&one, &one_mont, sizeof(one));
  const unsigned blocks = blocks_for(n, CLASSIFY_THREADS);
  device_buffer<uint32_t> block_others(blocks), block_first(blocks);
  const auto* d_scalars = reinterpret_cast<const ulonglong2*>(d_aux);
  count_others_kernel<<<blocks, CLASSIFY_THREADS, 0, st>>>(
      d_scalars, n, d_words.data(), rank.data(), one, block_others.data(), counters.data());
  CUZK_CUDA_LAUNCH_OK();
  size_t scan_bytes = 0;
  CUZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, block_others.data(),
                                             block_first.data(), int(blocks), st));
  device_buffer<uint8_t> scan_temp(std::max<size_t>(scan_bytes, 1));
  CUZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), scan_bytes, block_others.data(),
                                             block_first.data(), int(blocks), st));
  classify_kernel<<<blocks, CLASSIFY_THREADS, 0, st>>>(
      d_scalars, n, d_words.data(), rank.data(), one, block_first.data(),
      reinterpret_cast<unsigned long long*>(sp.ones.data()), sp.base_idx.data(), aux_idx.data(),
      counters.data());
  CUZK_CUDA_LAUNCH_OK();
  unsigned got[2] = {0, 0};
  counters.download(got, 2, run.strm);  // waits for the kernel
  sp.num_one = got[0];
  sp.num_other = got[1];
  if (sp.num_other != 0) {
    sp.scalars = device_buffer<fr_t>(sp.num_other);
    gather(d_aux, aux_idx.data(), sp.num_other, sp.scalars.data(), st);
  }
  return sp;
}

g1_jacobian_t msm_dev(const run_t& run, const g1_affine_t* b, const fr_t* s, size_t n) {
  return msm::gpu::msm_device(run.ctx, run.strm, b, s, n);
}
g2_jacobian_t msm_dev(const run_t& run, const g2_affine_t* b, const fr_t* s, size_t n) {
  return msm::gpu::msm_g2_device(run.ctx, run.strm, b, s, n);
}
g1_jacobian_t batch_dev(const run_t& run, const g1_affine_t* b, const uint64_t* w, size_t n) {
  return msm::gpu::batch_add_device(run.ctx, run.strm, b, w, n);
}
g2_jacobian_t batch_dev(const run_t& run, const g2_affine_t* b, const uint64_t* w, size_t n) {
  return msm::gpu::batch_add_g2_device(run.ctx, run.strm, b, w, n);
}

/// MSM of host scalars (a few inputs) against the first n device bases.
template <class G>
auto msm_host_scalars(const run_t& run, const G* d_bases, std::span<const fr_t> scalars) {
  device_buffer<fr_t> ds(scalars.size());
  ds.upload(scalars.data(), scalars.size(), run.strm);
  return msm_dev(run, d_bases, ds.data(), scalars.size());
}

/// Σ w_j·P_j with the device split: ones by bitmap batch addition over the (compacted) device
/// bases, others by Pippenger over their gathered bases.
template <class G>
auto split_msm(const run_t& run, const G* d_bases, const device_split& sp) {
  auto acc = decltype(msm_dev(run, d_bases, nullptr, 0))::infinity();
  if (sp.num_one != 0) acc += batch_dev(run, d_bases, sp.ones.data(), sp.count);
  if (sp.num_other != 0) {
    device_buffer<G> gb(sp.num_other);
    gather(d_bases, sp.base_idx.data(), sp.num_other, gb.data(), run.strm.get());
    acc += msm_dev(run, gb.data(), sp.scalars.data(), sp.num_other);
  }
  return acc;
}

/// Host residency: the queries stream from page-locked host memory into device segments on a
/// copy stream of their own, as a FIFO of chunks in the order the MSMs consume them. Every chunk
/// of a start() is scheduled up front (add_query, then interleave): H in big chunks (one MSM
/// each), L, A, B1, B2 in small ones, merged by where they start in their query, so the link
/// fetches L, A and B while an H chunk computes. (H is compute-bound: 12.9 GB of points and
/// ≈ 1.2 s of MSM at 32 GiB; L, A, B are link-bound: 34.5 GB and ≈ 0.25 s of compute. Run one
/// after the other, the link idles during H and the SMs during L, A, B.) A chunk is copied as
/// soon as the chunks whose place it takes have been consumed: the first segment (ring_bytes,
/// allocated at start) fills while a, b, c are transformed; a second one (add_segment: the memory
/// b and c held) lengthens the look-ahead during the MSMs. Declared before the call's stream, so
/// that stream (whose destructor waits for its work) is gone before the segments.
struct ring_t {
  ring_t(const cuzk::gpu::device_context& ctx, size_t bytes) : copy(ctx) {
    segs.emplace_back(bytes / 256 * 256);
  }
  /// A whole number of 64-bit bitmap words of points of `point_bytes`, about `bytes` of them
  /// (at least one word).
  static size_t points_per_chunk(size_t point_bytes, size_t bytes) {
    return std::max<size_t>(64, bytes / point_bytes / 64 * 64);
  }
  /// Big chunks (H's: half the first segment) and small ones (L, A, B's: an eighth).
  size_t big_chunk() const { return segs[0].size() / 2; }
  size_t small_chunk() const { return segs[0].size() / 8; }

  /// Schedules host[0, n) (points of point_bytes) in chunks of about chunk_bytes; returns the
  /// query's index (chunk_t::query).
  size_t add_query(const void* host, size_t n, size_t point_bytes, size_t chunk_bytes) {
    const size_t per = points_per_chunk(point_bytes, chunk_bytes);
    queries.push_back({static_cast<const char*>(host), n, point_bytes, per, (n + per - 1) / per});
    return queries.size() - 1;
  }
  /// The consumption order: every query's chunk k at k / chunks of its query, ties in the order
  /// the queries were added (H first).
  void interleave() {
    std::vector<std::pair<size_t, size_t>> order;  // (query, k)
    for (size_t q = 0; q < queries.size(); ++q)
      for (size_t k = 0; k < queries[q].chunks; ++k) order.emplace_back(q, k);
    std::stable_sort(order.begin(), order.end(), [&](const auto& x, const auto& y) {
      return x.second * queries[y.first].chunks < y.second * queries[x.first].chunks;
    });
    for (const auto& [q, k] : order) {
      const query_t& qq = queries[q];
      const size_t first = k * qq.per, len = std::min(qq.per, qq.n - first);
      chunks.emplace_back(q, k, first, len, qq.host + first * qq.point_bytes, len * qq.point_bytes);
      max_chunk = std::max(max_chunk, len * qq.point_bytes);
    }
  }
  /// A second segment of `bytes` (256-byte multiple) when the device has it to spare; false
  /// (nothing allocated) when it does not or it could not hold the largest chunk.
  bool add_segment(size_t bytes) {
    bytes = bytes / 256 * 256;
    if (bytes < max_chunk) return false;
    try {
      segs.emplace_back(bytes);
    } catch (const cuzk::gpu::gpu_error&) {
      cudaGetLastError();  // a failed allocation is not sticky: clear it and stream without it
      return false;
    }
    return true;
  }

  struct query_t {
    const char* host;
    size_t n, point_bytes, per, chunks;  ///< points, their size, points per chunk, chunks
  };
  struct chunk_t {
    chunk_t(size_t q, size_t k, size_t first, size_t len, const char* src, size_t bytes)
        : query(q), k(k), first(first), len(len), src(src), bytes(bytes) {}
    size_t query, k, first, len;  ///< chunk k of `query`: its points [first, first + len)
    const char* src;
    size_t bytes;
    size_t seg = 0, off = 0;  ///< where it is copied to
    bool consumer_enqueued = false;
    cuzk::gpu::event copy_started, uploaded, consumed, done;
  };

  /// Enqueues the copies of the next chunks in order while their place is free: the chunks it
  /// held have their consumers enqueued (the copy stream waits for those), after `after`'s work.
  void issue(const cuzk::gpu::event* after = nullptr) {
    if (after != nullptr) copy.wait(*after);
    for (; issued < chunks.size(); ++issued) {
      chunk_t& c = chunks[issued];
      size_t seg = head_seg, off = head_off;
      if (off + c.bytes > segs[seg].size()) {
        seg = (seg + 1) % segs.size();
        off = 0;
      }
      const auto overlaps = [&](size_t i) {
        const chunk_t& o = chunks[i];
        return o.seg == seg && o.off < off + c.bytes && off < o.off + o.bytes;
      };
      if (std::any_of(live.begin(), live.end(),
                      [&](size_t i) { return overlaps(i) && !chunks[i].consumer_enqueued; }))
        return;  // its place still holds points an MSM has yet to read
      for (auto it = live.begin(); it != live.end();) {
        if (overlaps(*it)) {
          copy.wait(chunks[*it].consumed);
          it = live.erase(it);
        } else {
          ++it;
        }
      }
      c.seg = seg;
      c.off = off;
      c.copy_started.record(copy);
      CUZK_CUDA_OK(cudaMemcpyAsync(segs[seg].data() + off, c.src, c.bytes, cudaMemcpyHostToDevice,
                                   copy.get()));
      c.uploaded.record(copy);
      live.push_back(issued);
      head_seg = seg;
      head_off = off + c.bytes;
      bytes_moved += c.bytes;
    }
  }

  /// Calls f(c, d) for every chunk in order, d holding its points on the device for the work f
  /// enqueues on run's stream (f returns once that work is enqueued or done); the copies of
  /// the chunks after it run meanwhile, as far ahead as the segments allow. Returns the
  /// milliseconds of every query's chunks (each from the end of the chunk before it: waits for
  /// copies included), measured from `start`.
  template <class F>
  std::vector<double> consume(const run_t& run, const cuzk::gpu::event& start, F&& f) {
    for (size_t j = 0; j < chunks.size(); ++j) {
      issue();
      // Chunk j's place held only chunks before it, whose consumers are all enqueued now.
      if (issued <= j) throw std::logic_error("host residency ring: a chunk was not issued");
      chunk_t& c = chunks[j];
      run.strm.wait(c.uploaded);
      f(c, segs[c.seg].data() + c.off);
      c.consumed.record(run.strm);
      c.done.record(run.strm);
      c.consumer_enqueued = true;
    }
    std::vector<double> ms(queries.size(), 0.0);
    const cuzk::gpu::event* before = &start;
    for (const chunk_t& c : chunks) {
      ms[c.query] += c.done.since(*before);
      copy_ms += c.uploaded.since(c.copy_started);
      before = &c.done;
    }
    return ms;
  }

  std::vector<query_t> queries;
  std::deque<chunk_t> chunks;  // every query's, in consumption order (events do not move)
  size_t max_chunk = 0;
  size_t issued = 0;  // chunks whose copy is enqueued
  size_t head_seg = 0, head_off = 0;
  std::list<size_t> live;  // issued chunks whose place has not been taken since
  std::vector<device_buffer<uint8_t>> segs;
  cuzk::gpu::stream copy;
  uint64_t bytes_moved = 0;
  double copy_ms = 0;
};

/// out[k] = where the other terms of the chunk of `per` bases k begin in sp's ascending base_idx,
/// for k ≤ chunks (none needed without others).
std::vector<uint32_t> chunk_bounds(const run_t& run, const device_split& sp, size_t per,
                                   size_t chunks) {
  std::vector<uint32_t> bounds(chunks + 1, 0);
  if (sp.num_other == 0) return bounds;
  device_buffer<uint32_t> d_bounds(chunks + 1);
  chunk_bounds_kernel<<<blocks_for(chunks + 1, 128), 128, 0, run.strm.get()>>>(
      sp.base_idx.data(), uint32_t(sp.num_other), per, chunks, d_bounds.data());
  CUZK_CUDA_LAUNCH_OK();
  d_bounds.download(bounds.data(), chunks + 1, run.strm);
  return bounds;
}

/// The split MSM's share of one streamed chunk d (bases [first, first + len) of the compacted
/// space): the ones of its bitmap words by batch addition, the others whose base index falls in
/// it (a range of the ascending base_idx: bounds[k], bounds[k + 1]) by Pippenger over their
/// bases gathered from it.
template <class G>
auto split_chunk(const run_t& run, const G* d, const device_split& sp,
                 const std::vector<uint32_t>& bounds, const ring_t::chunk_t& c) {
  auto acc = decltype(msm_dev(run, d, nullptr, 0))::infinity();
  if (sp.num_one != 0) acc += batch_dev(run, d, sp.ones.data() + c.first / 64, c.len);
  const size_t o = bounds[c.k], others = bounds[c.k + 1] - bounds[c.k];
  if (others != 0) {
    device_buffer<G> gb(others);
    gather(d, sp.base_idx.data() + o, others, gb.data(), run.strm.get(), uint32_t(c.first));
    acc += msm_dev(run, gb.data(), sp.scalars.data() + o, others);
  }
  return acc;
}

/// MSM of host scalars (a few inputs) against the first scalars.size() points of the device
/// bases `dev` or, in host residency, of the page-locked `host` ones.
template <class G>
auto msm_inputs(const run_t& run, const G* dev, const G* host, std::span<const fr_t> scalars) {
  if (dev != nullptr || scalars.empty()) return msm_host_scalars(run, dev, scalars);
  device_buffer<G> bases(scalars.size());
  bases.upload(host, scalars.size(), run.strm);
  return msm_host_scalars(run, bases.data(), scalars);
}

/// iFFT (n→r) then coset FFT (r→n) of a zero-padded device array, as prover_cpu.
void coset_transforms(const run_t& run, const ntt::domain_t& d, device_buffer<fr_t>& v) {
  ntt::gpu::transform_device(run.ctx, run.strm, d, v.data(), ntt::gpu::ntt_kind::ifft,
                             ntt::ntt_order::nr);
  ntt::gpu::transform_device(run.ctx, run.strm, d, v.data(), ntt::gpu::ntt_kind::coset_fft,
                             ntt::ntt_order::rn);
}

/// Zeroes out[n, m): the rows past the QAP's up to the domain size.
void zero_tail(const run_t& run, device_buffer<fr_t>& out, size_t n) {
  const size_t pad = out.size() - n;
  if (pad != 0)
    CUZK_CUDA_OK(cudaMemsetAsync(out.data() + n, 0, pad * sizeof(fr_t), run.strm.get()));
}

/// Uploads v zero-padded to m elements, then the coset transforms.
void to_coset(const run_t& run, const ntt::domain_t& d, std::span<const fr_t> v,
              device_buffer<fr_t>& out) {
  // The padding and the upload write disjoint ranges, so the memset (the call's stream) and the
  // copy stream need no ordering between them; the NTT waits for both.
  zero_tail(run, out, v.size());
  run.st.upload(out.data(), v.data(), v.size_bytes(), run.pool, run.strm);
  coset_transforms(run, d, out);
}

/// `abc` null: a, b, c come from the host (asg.a, b, c). Otherwise the witness is uploaded first
/// and `abc` evaluates a, b, c on the device from it; the aux array then also serves the splits.
proof_parts start_impl(const device_parameters::impl& p, const device_abc_program* abc,
                       const assignment& asg, const ntt::domain_t& d, thread_pool& pool,
                       prover_timings& tm) {
  const size_t m = d.size();
  // h on the device; b and c are freed before the MSMs. The first allocation comes before the
  // stream and the staging set are made, so running out of device memory is reported as such.
  device_buffer<fr_t> da(m);
  std::optional<ring_t> ring;  // host residency
  const cuzk::gpu::stream strm(p.ctx);
  const cudaStream_t st = strm.get();
  cuzk::gpu::event ev[11], ev_up, ev_abc;  // phase boundaries; ev_up: witness uploaded, ev_abc:
                                           // a, b, c evaluated
  proof_parts out;
  std::unique_ptr<cuzk::gpu::stager> stg = p.ctx.take_stager();
  const run_t run{p.ctx, strm, *stg, pool};
  const size_t n_aux = asg.num_aux();
  const size_t n_in = asg.num_inputs();
  const bitmap_view& b_in = asg.b_input_density;
  const size_t nb_in = b_in.popcount();
  // Host residency: the ring and the whole schedule of chunks (H, L, A, B1, B2: the bases of
  // the split's compacted index spaces), before a, b, c, so the first copies overlap them.
  size_t q_h = 0, q_l = 0, q_a = 0, q_b1 = 0, q_b2 = 0;
  if (p.where == residency::host) {
    ring.emplace(p.ctx, p.ring_bytes);
    const size_t na = asg.a_aux_density.popcount(), nb = asg.b_aux_density.popcount();
    const size_t big = ring->big_chunk(), small = ring->small_chunk();
    q_h = ring->add_query(p.host_h.data(), m - 1, sizeof(g1_affine_t), big);
    q_l = ring->add_query(p.host_l.data(), n_aux, sizeof(g1_affine_t), small);
    q_a = ring->add_query(p.host_a.data() + n_in, na, sizeof(g1_affine_t), small);
    q_b1 = ring->add_query(p.host_b_g1.data() + nb_in, nb, sizeof(g1_affine_t), small);
    q_b2 = ring->add_query(p.host_b_g2.data() + nb_in, nb, sizeof(g2_affine_t), small);
    ring->interleave();
  }
  device_buffer<fr_t> d_aux, d_in;  // the witness, on the device only when abc is given
  device_buffer<fr_t> db, dc;
  ev[0].record(strm);
  if (abc != nullptr) {
    db = device_buffer<fr_t>(m);
    dc = device_buffer<fr_t>(m);
    d_aux = device_buffer<fr_t>(n_aux);
    d_in = device_buffer<fr_t>(asg.num_inputs());
    stg->upload(d_in.data(), asg.inputs.data(), asg.inputs.size_bytes(), pool, strm);
    stg->upload(d_aux.data(), asg.aux.data(), asg.aux.size_bytes(), pool, strm);
    ev_up.record(strm);
    if (ring) ring->issue(&ev_up);  // the first chunks, after the witness
    const size_t n = abc->num_rows();
    for (device_buffer<fr_t>* v : {&da, &db, &dc}) zero_tail(run, *v, n);
    abc->evaluate(d_in.data(), d_aux.data(), da.data(), db.data(), dc.data(), strm);
    ev_abc.record(strm);
    coset_transforms(run, d, da);
    ev[1].record(strm);
    coset_transforms(run, d, db);
    ev[2].record(strm);
    coset_transforms(run, d, dc);
    ev[3].record(strm);
  } else {
    to_coset(run, d, asg.a, da);
    ev[1].record(strm);
    db = device_buffer<fr_t>(m);
    dc = device_buffer<fr_t>(m);
    to_coset(run, d, asg.b, db);
    ev[2].record(strm);
    to_coset(run, d, asg.c, dc);
    ev[3].record(strm);
    if (ring) ring->issue(&ev[3]);  // the first chunks, after a, b, c
  }
  {
    const fr_t zi = d.z_coset_inv();
    ff::device::fr_d zid;
    static_assert(sizeof(zid) == sizeof(zi));
    std::memcpy(&zid, &zi, sizeof(zi));
    h_pointwise_kernel<<<blocks_for(m, 256), 256, 0, st>>>(
        reinterpret_cast<ff::device::fr_d*>(da.data()),
        reinterpret_cast<const ff::device::fr_d*>(db.data()),
        reinterpret_cast<const ff::device::fr_d*>(dc.data()), zid, m);
    CUZK_CUDA_LAUNCH_OK();
    db = device_buffer<fr_t>();
    dc = device_buffer<fr_t>();
  }
  ntt::gpu::transform_device(p.ctx, strm, d, da.data(), ntt::gpu::ntt_kind::icoset_fft,
                             ntt::ntt_order::nn);
  ev[4].record(strm);

  // aux once to the device, then the three splits (B's serves B1 and B2); aux is freed after.
  device_split split_l, split_a, split_b;
  {
    if (abc == nullptr) {
      d_aux = device_buffer<fr_t>(n_aux);
      stg->upload(d_aux.data(), asg.aux.data(), asg.aux.size_bytes(), pool, strm);
    }
    split_l = classify(d_aux.data(), n_aux, nullptr, run);
    split_a = classify(d_aux.data(), n_aux, &asg.a_aux_density, run);
    split_b = classify(d_aux.data(), n_aux, &asg.b_aux_density, run);
    d_aux = device_buffer<fr_t>();
    d_in = device_buffer<fr_t>();
  }
  ev[5].record(strm);

  std::vector<fr_t> b_inputs;
  for (size_t j = 0; j < n_in; ++j)
    if (b_in.test(j)) b_inputs.push_back(asg.inputs[j]);
  const std::span<const fr_t> b_in_scalars(b_inputs);
  if (!ring) {
    out.h = msm_dev(run, p.h.data(), da.data(), m - 1);  // deg h ≤ m − 2: m − 1 coefficients
    da = device_buffer<fr_t>();
    ev[6].record(strm);
    out.l = split_msm(run, p.l.data(), split_l);
    ev[7].record(strm);
    out.a_part = msm_host_scalars(run, p.a.data(), asg.inputs) +
                 split_msm(run, p.a.data() + n_in, split_a);
    ev[8].record(strm);
    out.b_g1 = msm_host_scalars(run, p.b_g1.data(), b_in_scalars) +
               split_msm(run, p.b_g1.data() + nb_in, split_b);
    ev[9].record(strm);
    out.b_g2 = msm_host_scalars(run, p.b_g2.data(), b_in_scalars) +
               split_msm(run, p.b_g2.data() + nb_in, split_b);
    ev[10].record(strm);
    ev[10].synchronize();
    tm.msm_h = ev[6].since(ev[5]);
    tm.msm_l = ev[7].since(ev[6]);
    tm.msm_a = ev[8].since(ev[7]);
    tm.msm_b_g1 = ev[9].since(ev[8]);
    tm.msm_b_g2 = ev[10].since(ev[9]);
  } else {
    // The memory b and c held lengthens the ring's look-ahead, as far as the device has it to
    // spare beyond what the MSMs allocate (a reserve of 2 GiB).
    size_t free_bytes = 0, total_bytes = 0;
    CUZK_CUDA_OK(cudaMemGetInfo(&free_bytes, &total_bytes));
    constexpr size_t msm_reserve = size_t(2) << 30;
    ring->add_segment(std::min(2 * m * sizeof(fr_t),
                               free_bytes > msm_reserve ? free_bytes - msm_reserve : 0));
    const auto chunks_of = [&](size_t q) { return ring->queries[q].chunks; };
    const auto per_of = [&](size_t q) { return ring->queries[q].per; };
    const std::vector<uint32_t> bounds_l = chunk_bounds(run, split_l, per_of(q_l), chunks_of(q_l)),
                                bounds_a = chunk_bounds(run, split_a, per_of(q_a), chunks_of(q_a)),
                                bounds_b1 =
                                    chunk_bounds(run, split_b, per_of(q_b1), chunks_of(q_b1)),
                                bounds_b2 =
                                    chunk_bounds(run, split_b, per_of(q_b2), chunks_of(q_b2));
    ev[6].record(strm);
    g1_jacobian_t h = g1_jacobian_t::infinity(), l = h, a = h, b1 = h;
    g2_jacobian_t b2 = g2_jacobian_t::infinity();
    const std::vector<double> ms =
        ring->consume(run, ev[6], [&](const ring_t::chunk_t& c, const uint8_t* d) {
          const auto* g1 = reinterpret_cast<const g1_affine_t*>(d);
          if (c.query == q_h) {
            h += msm_dev(run, g1, da.data() + c.first, c.len);
          } else if (c.query == q_l) {
            l += split_chunk(run, g1, split_l, bounds_l, c);
          } else if (c.query == q_a) {
            a += split_chunk(run, g1, split_a, bounds_a, c);
          } else if (c.query == q_b1) {
            b1 += split_chunk(run, g1, split_b, bounds_b1, c);
          } else {
            b2 += split_chunk(run, reinterpret_cast<const g2_affine_t*>(d), split_b, bounds_b2, c);
          }
        });
    da = device_buffer<fr_t>();
    ev[7].record(strm);
    // The inputs' few bases, from host memory.
    out.h = h;
    out.l = l;
    out.a_part = msm_inputs(run, p.a.data(), p.host_a.data(), asg.inputs) + a;
    out.b_g1 = msm_inputs(run, p.b_g1.data(), p.host_b_g1.data(), b_in_scalars) + b1;
    out.b_g2 = msm_inputs(run, p.b_g2.data(), p.host_b_g2.data(), b_in_scalars) + b2;
    ev[10].record(strm);
    ev[10].synchronize();
    // Each query's chunks in the interleaved order, each from the end of the chunk before it
    // (its copy's wait included); the inputs' MSMs count as A's.
    tm.msm_h = ms[q_h] + ev[6].since(ev[5]);  // the chunk bounds: part of the streamed MSMs
    tm.msm_l = ms[q_l];
    tm.msm_a = ms[q_a] + ev[10].since(ev[7]);
    tm.msm_b_g1 = ms[q_b1];
    tm.msm_b_g2 = ms[q_b2];
    tm.streamed_bytes = ring->bytes_moved;
    tm.stream_copy = ring->copy_ms;
  }
  p.ctx.put_stager(std::move(stg));

  if (abc != nullptr) {
    tm.upload = ev_up.since(ev[0]);
    tm.abc = ev_abc.since(ev_up);
    tm.ntt_a = ev[1].since(ev_abc);
  } else {
    tm.ntt_a = ev[1].since(ev[0]);
  }
  tm.ntt_b = ev[2].since(ev[1]);
  tm.ntt_c = ev[3].since(ev[2]);
  tm.h_compute = ev[4].since(ev[3]);
  tm.split = ev[5].since(ev[4]);
  tm.start = ev[10].since(ev[0]);
  return out;
}

}  // namespace

device_parameters::device_parameters(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
device_parameters::~device_parameters() {
  if (impl_) {
    // Free on the device that owns the memory; a failure here cannot be reported.
    int prev = 0;
    const bool switched =
        cudaGetDevice(&prev) == cudaSuccess && cudaSetDevice(impl_->ctx.ordinal()) == cudaSuccess;
    impl_.reset();
    if (switched) cudaSetDevice(prev);
  }
}
int device_parameters::device() const {
  return impl_->ctx.ordinal();
}
cuzk::gpu::device_context& device_parameters::context() const {
  return impl_->ctx;
}
const verifying_key& device_parameters::vk() const {
  return impl_->vk;
}
residency device_parameters::where() const {
  return impl_->where;
}
size_t device_parameters::bytes() const {
  return impl_->h.bytes() + impl_->l.bytes() + impl_->a.bytes() + impl_->b_g1.bytes() +
         impl_->b_g2.bytes();
}
size_t device_parameters::host_bytes() const {
  const impl& p = *impl_;
  return p.host_h.bytes() + p.host_l.bytes() + p.host_a.bytes() + p.host_b_g1.bytes() +
         p.host_b_g2.bytes();
}
size_t device_parameters::ring_bytes() const {
  return impl_->ring_bytes;
}

query_sizes device_parameters::sizes() const {
  return impl_->q;
}

device_parameters::device_queries device_parameters::queries() {
  impl& p = *impl_;
  return {p.h.data(), p.l.data(), p.a.data(), p.b_g1.data(), p.b_g2.data()};
}

result<std::unique_ptr<device_parameters>> device_parameters::allocate(const verifying_key& vk,
                                                                       const query_sizes& sizes,
                                                                       int device) {
  if (sizes.ic != vk.ic.size())
    return status(status_code::size_mismatch, "allocate: ic size differs from the vk's");
  auto ctx = cuzk::gpu::device_context::open(device);
  if (!ctx) return ctx.error();
  try {
    device_scope scope(device);
    auto p = std::make_unique<impl>(std::move(*ctx));
    p->vk = vk;
    p->q = sizes;
    p->h = device_buffer<g1_affine_t>(sizes.h);
    p->l = device_buffer<g1_affine_t>(sizes.l);
    p->a = device_buffer<g1_affine_t>(sizes.a);
    p->b_g1 = device_buffer<g1_affine_t>(sizes.b_g1);
    p->b_g2 = device_buffer<g2_affine_t>(sizes.b_g2);
    return std::unique_ptr<device_parameters>(new device_parameters(std::move(p)));
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::device_parameters::allocate");
  } catch (const std::bad_alloc&) {
    return status(status_code::internal, "groth16::gpu::device_parameters::allocate: host memory");
  }
}

result<std::unique_ptr<device_parameters>> device_parameters::upload(const parameters& params,
                                                                     int device) {
  const query_sizes q = params.sizes();
  auto dp = allocate(params.vk, q, device);
  if (!dp) return dp;
  try {
    device_scope scope(device);
    impl& p = *(*dp)->impl_;
    const cuzk::gpu::stream strm(p.ctx);
    p.h.upload(params.h.data(), q.h, strm);
    p.l.upload(params.l.data(), q.l, strm);
    p.a.upload(params.a.data(), q.a, strm);
    p.b_g1.upload(params.b_g1.data(), q.b_g1, strm);
    p.b_g2.upload(params.b_g2.data(), q.b_g2, strm);
    strm.synchronize();  // the bases are ready for any stream
    return dp;
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::device_parameters::upload");
  }
}

namespace {

/// Host residency's storage for `sizes`: page-locked arrays for every query, none on the device.
result<std::unique_ptr<device_parameters::impl>> make_host_impl(const verifying_key& vk,
                                                                const query_sizes& sizes,
                                                                int device, size_t ring_bytes) {
  if (sizes.ic != vk.ic.size())
    return status(status_code::size_mismatch, "host_resident: ic size differs from the vk's");
  // A chunk holds at least 64 G2 points (one bitmap word), in each half of the ring.
  if (ring_bytes < 2 * 64 * sizeof(g2_affine_t) + 512)
    return status(status_code::invalid_argument,
                  "host_resident: a ring of " + std::to_string(ring_bytes) + " bytes is too small");
  auto ctx = cuzk::gpu::device_context::open(device);
  if (!ctx) return ctx.error();
  auto p = std::make_unique<device_parameters::impl>(std::move(*ctx));
  p->vk = vk;
  p->q = sizes;
  p->where = residency::host;
  p->ring_bytes = ring_bytes;
  try {
    device_scope scope(p->ctx);  // page-locked for this device's context
    p->host_h = pinned_array<g1_affine_t>(sizes.h);
    p->host_l = pinned_array<g1_affine_t>(sizes.l);
    p->host_a = pinned_array<g1_affine_t>(sizes.a);
    p->host_b_g1 = pinned_array<g1_affine_t>(sizes.b_g1);
    p->host_b_g2 = pinned_array<g2_affine_t>(sizes.b_g2);
  } catch (const cuzk::gpu::gpu_error& e) {
    return status(status_code::resource_exhausted,
                  "page-locking " + std::to_string(query_bytes(sizes) >> 20) +
                      " MiB of host memory for the parameters of GPU " + std::to_string(device) +
                      ": " + e.what());
  }
  return std::move(p);
}

}  // namespace

result<std::unique_ptr<device_parameters>> device_parameters::host_resident(
    const parameters& params, int device, size_t ring_bytes) {
  auto p = make_host_impl(params.vk, params.sizes(), device, ring_bytes);
  if (!p) return p.error();
  impl& q = **p;
  std::memcpy(q.host_h.data(), params.h.data(), q.host_h.bytes());
  std::memcpy(q.host_l.data(), params.l.data(), q.host_l.bytes());
  std::memcpy(q.host_a.data(), params.a.data(), q.host_a.bytes());
  std::memcpy(q.host_b_g1.data(), params.b_g1.data(), q.host_b_g1.bytes());
  std::memcpy(q.host_b_g2.data(), params.b_g2.data(), q.host_b_g2.bytes());
  return std::unique_ptr<device_parameters>(new device_parameters(std::move(*p)));
}

result<std::unique_ptr<device_parameters>> device_parameters::host_resident(
    const params_file& file, point_checks checks, int device, thread_pool& pool,
    const progress_fn& progress, size_t ring_bytes) {
  auto vk = file.load_vk(checks, pool);
  if (!vk) return vk.error();
  const query_sizes q{file.count(params_section::ic),   file.count(params_section::h),
                      file.count(params_section::l),    file.count(params_section::a),
                      file.count(params_section::b_g1), file.count(params_section::b_g2)};
  auto p = make_host_impl(*vk, q, device, ring_bytes);
  if (!p) return p.error();
  impl& h = **p;
  uint64_t done = 0;
  const uint64_t total = file.query_bytes();
  if (progress) progress("load", 0, size_t(total));
  // Decoded straight into the page-locked arrays, 2^20 points at a time (the mapping's pages of
  // each chunk released after it), so the host never holds the file and the arrays both.
  const auto decode = [&](params_section sec, auto* dst, uint64_t count) -> status {
    using T = std::remove_pointer_t<decltype(dst)>;
    constexpr uint64_t step = uint64_t(1) << 20;
    for (uint64_t begin = 0; begin < count; begin += step) {
      const uint64_t n = std::min(step, count - begin);
      if (status st = file.decode(sec, begin, n, std::span<T>(dst + begin, n), checks, pool); !st)
        return st;
      if (status st = file.release(sec, begin, n); !st) return st;
      done += n * sizeof(T);
      if (progress) progress("load", size_t(done), size_t(total));
    }
    return status();
  };
  for (auto [sec, dst, count] : {std::tuple{params_section::h, h.host_h.data(), q.h},
                                 std::tuple{params_section::l, h.host_l.data(), q.l},
                                 std::tuple{params_section::a, h.host_a.data(), q.a},
                                 std::tuple{params_section::b_g1, h.host_b_g1.data(), q.b_g1}}) {
    if (status st = decode(sec, dst, count); !st) return st;
  }
  if (status st = decode(params_section::b_g2, h.host_b_g2.data(), q.b_g2); !st) return st;
  return std::unique_ptr<device_parameters>(new device_parameters(std::move(*p)));
}

namespace {

/// Decodes section `sec` of `file` chunk by chunk into pinned staging and uploads it to dst
/// (count points of type T), releasing the mapping's pages of each decoded chunk.
template <class T>
status stream_section(const params_file& file, params_section sec, T* dst, uint64_t count,
                      point_checks checks, thread_pool& pool, cuzk::gpu::stager& stg,
                      const cuzk::gpu::stream& strm, const progress_fn& progress,
                      uint64_t& done_bytes) {
  status decoded;
  stg.upload_with(
      dst, count * sizeof(T), strm,
      [&](char* pinned, size_t offset, size_t len) {
        if (!decoded) return;  // an earlier chunk failed: the upload is discarded anyway
        const uint64_t begin = offset / sizeof(T), n = len / sizeof(T);
        decoded = [&]() -> status {
          if (status st = file.decode(sec, begin, n, std::span<T>(reinterpret_cast<T*>(pinned), n),
                                      checks, pool);
              !st)
            return st;
          return file.release(sec, begin, n);
        }();
        done_bytes += len;
        if (decoded && progress) progress("upload", size_t(done_bytes), size_t(file.query_bytes()));
      },
      sizeof(T));
  return decoded;
}

}  // namespace

result<std::unique_ptr<device_parameters>> device_parameters::stream_from(
    const params_file& file, point_checks checks, int device, thread_pool& pool,
    const progress_fn& progress) {
  auto vk = file.load_vk(checks, pool);
  if (!vk) return vk.error();
  const query_sizes q{file.count(params_section::ic),   file.count(params_section::h),
                      file.count(params_section::l),    file.count(params_section::a),
                      file.count(params_section::b_g1), file.count(params_section::b_g2)};
  auto dp = allocate(*vk, q, device);
  if (!dp) return dp;
  try {
    impl& p = *(*dp)->impl_;
    device_scope scope(p.ctx);
    const cuzk::gpu::stream strm(p.ctx);
    std::unique_ptr<cuzk::gpu::stager> stg = p.ctx.take_stager();
    uint64_t done_bytes = 0;
    if (progress) progress("upload", 0, size_t(file.query_bytes()));
    for (auto [sec, dst] :
         {std::pair{params_section::h, p.h.data()}, std::pair{params_section::l, p.l.data()},
          std::pair{params_section::a, p.a.data()},
          std::pair{params_section::b_g1, p.b_g1.data()}}) {
      if (status st = stream_section(file, sec, dst, file.count(sec), checks, pool, *stg, strm,
                                     progress, done_bytes);
          !st)
        return st;
    }
    if (status st = stream_section(file, params_section::b_g2, p.b_g2.data(), q.b_g2, checks, pool,
                                   *stg, strm, progress, done_bytes);
        !st)
      return st;
    strm.synchronize();  // the bases are ready for any stream
    p.ctx.put_stager(std::move(stg));
    return dp;
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::device_parameters::stream_from");
  }
}

namespace {

result<proof_parts> start_checked(const device_parameters& dp, const device_abc_program* abc,
                                  const assignment& asg, thread_pool& pool,
                                  prover_timings* timings) {
  prover_timings local;
  prover_timings& tm = timings ? *timings : local;
  tm = {};
  const size_t rows = abc ? abc->num_rows() : asg.num_rows();
  if (rows == 0) return status(status_code::size_mismatch, "empty assignment");
  if (abc != nullptr) {
    if (!asg.a.empty() || !asg.b.empty() || !asg.c.empty())
      return status(status_code::invalid_argument,
                    "a, b, c are evaluated on the device: the assignment must not carry them");
    if (abc->num_inputs() != asg.num_inputs() || abc->num_aux() != asg.num_aux())
      return status(status_code::size_mismatch,
                    "the a, b, c program is for " + std::to_string(abc->num_inputs()) +
                        " inputs and " + std::to_string(abc->num_aux()) + " aux, the witness has " +
                        std::to_string(asg.num_inputs()) + " and " + std::to_string(asg.num_aux()));
    if (abc->device() != dp.device())
      return status(status_code::invalid_argument,
                    "the a, b, c program is on another device than the parameters");
  }
  auto dom = ntt::domain_t::create(rows);
  if (!dom) return dom.error();
  const device_parameters::impl& p = dp.get();
  if (status st = check_query_sizes(dp.sizes(), asg, dom->size()); !st) return st;
  // The device split indexes aux with 32-bit indices and reads ⌈count/64⌉ density words.
  if (asg.num_aux() > size_t(UINT32_MAX))
    return status(status_code::size_mismatch, "more than 2^32 - 1 aux variables");
  for (const bitmap_view* dv : {&asg.a_aux_density, &asg.b_aux_density})
    if (dv->words.size() < (dv->count + 63) / 64)
      return status(status_code::size_mismatch, "aux density has too few words");
  try {
    device_scope scope(p.ctx);
    return start_impl(p, abc, asg, *dom, pool, tm);
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::start");
  } catch (const std::bad_alloc&) {
    return status(status_code::internal, "groth16::gpu::start: host memory");
  }
}

}  // namespace

result<proof_parts> start(const device_parameters& dp, const assignment& asg, thread_pool& pool,
                          prover_timings* timings) {
  return start_checked(dp, nullptr, asg, pool, timings);
}

result<proof_parts> start(const device_parameters& dp, const device_abc_program& abc,
                          const assignment& asg, thread_pool& pool, prover_timings* timings) {
  return start_checked(dp, &abc, asg, pool, timings);
}

result<proof> create_proof(const device_parameters& dp, const assignment& asg, const fr_t& r,
                           const fr_t& s, thread_pool& pool, prover_timings* timings) {
  return start_and_finalize(dp.vk(), r, s, timings,
                            [&](prover_timings* tm) { return start(dp, asg, pool, tm); });
}

result<std::pair<size_t, size_t>> memory_info(int device) {
  try {
    device_scope scope(device);
    size_t free_b = 0, total_b = 0;
    CUZK_CUDA_OK(cudaMemGetInfo(&free_b, &total_b));
    return std::pair<size_t, size_t>(free_b, total_b);
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::memory_info");
  }
}

}  // namespace cuzk::groth16::gpu
