// SPDX-License-Identifier: Apache-2.0
// GPU Groth16 prover (prover_gpu.hpp). The order of work in start():
//   1. h: a, b, c uploaded (pinned, chunked staging on a copy stream), or evaluated on the device
//      from the witness by a compiled plan, and zero-padded to m; each taken to the coset by
//      ntt::cuda::coset_evaluations (iFFT n→r with m^-1·g^i folded in, coset FFT r→n); then
//      ntt::cuda::coset_quotient: one inverse coset FFT that computes a·b − c as its first pass
//      loads and applies Z^-1 (Z = g^m − 1) with the coset factors, then the bit reversal. The
//      first m − 1 coefficients are the H scalars, used in place. The same h as prover_cpu.
//      With gpu_memory_knobs::abc_in_turn, two domain buffers: A, then B, then A·B
//      (ntt::cuda::coset_product), then C into B's buffer, and the quotient of A·B − C.
//   2. H = MSM(h_query, h) straight from the device array.
//   3. aux uploaded once; the 0/1 split of msm::split_witness computed on the device for L (no
//      density), A (a_aux_density) and B (b_aux_density, shared by B1 and B2): a ones bitmap over
//      the (compacted) base index space for the bitmap batch addition, and the "other" terms as
//      (base index, gathered scalar) lists for Pippenger over gathered bases; zeros cost nothing.
//      Inputs (a few) are a plain MSM (A: dense; B: compacted over b_input_density).
// With the parameters in host memory (residency::host), every MSM takes its bases chunk by chunk
// from a ring of two device buffers filled on a copy stream of its own (for_each_chunk): H as one
// Pippenger pass over the chunks (msm::cuda::msm_accumulator: buckets kept across them, reduced
// once), the splits per chunk (the ones of the chunk's bitmap words by batch addition; the
// others whose base index falls in it — classify writes them in ascending order — gathered into
// one accumulator per query). A partially resident plan (gpu_memory_knobs::resident_queries)
// keeps some queries on the device as well: their MSMs read the device copy, only the others
// stream; with H, L and A interleaved, the device's own among them are summed on a second
// stream and host thread while the rest stream on the call's (raised-priority) stream, so the
// link keeps fetching beside H's kernels.
// Every kernel, copy and MSM of one start() is ordered on a stream of its own on the parameters'
// device context; nothing waits for the whole device.
// Every CUDA call throws gpu_error (CUZK_CUDA_OK); the public functions catch it and return a
// status naming the call. Device and pinned memory live in RAII owners, so an error leaks nothing.
#include "groth16/prover_gpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <cub/device/device_scan.cuh>
#include <deque>
#include <future>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "base/check.hpp"
#include "ec/serialization_gpu.hpp"
#include "ff/mont_device.cuh"
#include "gpu/bitmap_rank.cuh"
#include "gpu/cuda_status.hpp"
#include "gpu/device_memory.cuh"
#include "msm/msm_gpu.hpp"
#include "msm/msm_gpu_plan.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt_gpu.hpp"

namespace cuzk::groth16::cuda {

using cuzk::gpu::device_buffer;
using cuzk::gpu::device_scope;
using ec::g1_affine_t;
using ec::g1_jacobian_t;
using ec::g2_affine_t;
using ec::g2_jacobian_t;
using ff::fr_t;

/// count elements of T in page-locked host memory (none for count 0), faulted in on every
/// thread of `pool` (pinned_buffer's two-step page-locking: these arrays are tens of GB).
template <class T>
struct pinned_array {
  pinned_array() = default;
  pinned_array(size_t count, thread_pool& pool)
      : buf(count ? std::make_unique<cuzk::gpu::pinned_buffer>(count * sizeof(T), pool) : nullptr),
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
  // Device residency; in host residency, a partially resident plan's queries (the others empty;
  // set_memory_knobs changes them only between proofs).
  device_buffer<g1_affine_t> h, l, a, b_g1;
  device_buffer<g2_affine_t> b_g2;
  /// The queries on the device (gpu_query bits): every one in device residency, a partially
  /// resident plan's in host residency.
  unsigned on_device() const {
    return (h.size() != 0 ? gpu_query_h : 0) | (l.size() != 0 ? gpu_query_l : 0) |
           (a.size() != 0 ? gpu_query_a : 0) | (b_g1.size() != 0 ? gpu_query_b_g1 : 0) |
           (b_g2.size() != 0 ? gpu_query_b_g2 : 0);
  }
  // Host residency: the queries page-locked, and the ring each start() streams them through.
  pinned_array<g1_affine_t> host_h, host_l, host_a, host_b_g1;
  pinned_array<g2_affine_t> host_b_g2;
  // gpu_memory_knobs: read once by each start().
  std::atomic<size_t> ring_bytes{0};
  std::atomic<uint64_t> msm_group_bytes{gpu_memory_knobs{}.msm_group_bytes};
  std::atomic<uint64_t> gather_points{gpu_memory_knobs{}.gather_points};
  std::atomic<unsigned> h_window_bits{gpu_memory_knobs{}.h_window_bits};
  std::atomic<uint64_t> h_group_bytes{gpu_memory_knobs{}.h_group_bytes};
  std::atomic<bool> abc_in_turn{gpu_memory_knobs{}.abc_in_turn};
  std::atomic<bool> interleave_queries{gpu_memory_knobs{}.interleave_queries};
  std::atomic<bool> ring_after_abc{gpu_memory_knobs{}.ring_after_abc};
};

namespace {

using cuzk::gpu::cuda_status;

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
  msm::msm_config msm_cfg;  // its device_group_bytes: gpu_memory_knobs::msm_group_bytes
  size_t gather_points;     // gpu_memory_knobs::gather_points
  msm::msm_config h_cfg;    // a streamed H's: gpu_memory_knobs::h_window_bits, h_group_bytes
};

/// One start()'s turn on the device (gpu::device_compute_lock): take() blocks until the other
/// provers of the device have finished their work and adds the wait to tm.device_wait; the
/// destructor waits for this call's stream (its kernels, and the frees of the buffers destroyed
/// before it) and only then hands the device on, so the next prover finds the memory in the pool.
class device_turn {
 public:
  device_turn(int ordinal, const cuzk::gpu::stream& s)
      : lock_(cuzk::gpu::device_compute_lock(ordinal), std::defer_lock), s_(s) {}
  ~device_turn() {
    if (lock_.owns_lock()) cudaStreamSynchronize(s_.get());  // no throw from a destructor
  }
  device_turn(const device_turn&) = delete;
  device_turn& operator=(const device_turn&) = delete;
  void take(prover_timings& tm) {
    const auto t0 = std::chrono::steady_clock::now();
    lock_.lock();
    tm.device_wait += ms_since(t0);
  }

 private:
  std::unique_lock<std::mutex> lock_;  // released after the destructor's body
  const cuzk::gpu::stream& s_;
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
  device_buffer<uint32_t> aux_idx;   ///< the others' indices into aux; first num_other used
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
    cuzk::gpu::rank_bitmap_words(d_words.data(), n, cnt.data(), rank.data(), run.strm);
  } else {
    sp.count = n;
  }
  sp.ones = device_buffer<uint64_t>((sp.count + 63) / 64);
  sp.ones.zero(run.strm);
  sp.base_idx = device_buffer<uint32_t>(sp.count);
  sp.aux_idx = device_buffer<uint32_t>(sp.count);
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
      reinterpret_cast<unsigned long long*>(sp.ones.data()), sp.base_idx.data(), sp.aux_idx.data(),
      counters.data());
  CUZK_CUDA_LAUNCH_OK();
  unsigned got[2] = {0, 0};
  counters.download(got, 2, run.strm);  // waits for the kernel
  sp.num_one = got[0];
  sp.num_other = got[1];
  return sp;
}

g1_jacobian_t msm_dev(const run_t& run, const g1_affine_t* b, const fr_t* s, size_t n) {
  return msm::cuda::msm_device(run.ctx, run.strm, b, s, n, run.msm_cfg);
}
g2_jacobian_t msm_dev(const run_t& run, const g2_affine_t* b, const fr_t* s, size_t n) {
  return msm::cuda::msm_g2_device(run.ctx, run.strm, b, s, n, run.msm_cfg);
}
g1_jacobian_t batch_dev(const run_t& run, const g1_affine_t* b, const uint64_t* w, size_t n) {
  return msm::cuda::batch_add_device(run.ctx, run.strm, b, w, n);
}
g2_jacobian_t batch_dev(const run_t& run, const g2_affine_t* b, const uint64_t* w, size_t n) {
  return msm::cuda::batch_add_g2_device(run.ctx, run.strm, b, w, n);
}

/// MSM of host scalars (a few inputs) against the first n device bases.
template <class G>
auto msm_host_scalars(const run_t& run, const G* d_bases, std::span<const fr_t> scalars) {
  device_buffer<fr_t> ds(scalars.size());
  ds.upload(scalars.data(), scalars.size(), run.strm);
  return msm_dev(run, d_bases, ds.data(), scalars.size());
}

/// Σ over the others [o, o + n) of sp: their bases (base_idx − first into `bases`) and scalars
/// (aux_idx into d_aux) gathered and summed by Pippenger in pieces of at most run.gather_points,
/// so the device holds the same whatever the witness's density (gpu_memory.hpp).
template <class G>
auto others_msm(const run_t& run, const G* bases, const fr_t* d_aux, const device_split& sp,
                size_t o, size_t n, uint32_t first = 0) {
  auto acc = decltype(msm_dev(run, bases, nullptr, 0))::infinity();
  if (n == 0) return acc;
  const size_t piece = std::min(n, std::max<size_t>(run.gather_points, 1));
  device_buffer<G> gb(piece);
  device_buffer<fr_t> gs(piece);
  for (size_t i = 0; i < n; i += piece) {
    const size_t len = std::min(piece, n - i);
    gather(bases, sp.base_idx.data() + o + i, len, gb.data(), run.strm.get(), first);
    gather(d_aux, sp.aux_idx.data() + o + i, len, gs.data(), run.strm.get());
    acc += msm_dev(run, gb.data(), gs.data(), len);  // returns once the piece is summed
  }
  return acc;
}

/// Σ w_j·P_j with the device split: ones by bitmap batch addition over the (compacted) device
/// bases, others by Pippenger over their gathered bases.
template <class G>
auto split_msm(const run_t& run, const G* d_bases, const fr_t* d_aux, const device_split& sp) {
  auto acc = decltype(msm_dev(run, d_bases, nullptr, 0))::infinity();
  if (sp.num_one != 0) acc += batch_dev(run, d_bases, sp.ones.data(), sp.count);
  return acc + others_msm(run, d_bases, d_aux, sp, 0, sp.num_other);
}

/// One query's points from index 0 of the view on: on the device (dev) or, in host residency, in
/// page-locked host memory (host).
template <class G>
struct query_view {
  const G* dev = nullptr;
  const G* host = nullptr;
  query_view from(size_t k) const { return {dev ? dev + k : nullptr, host ? host + k : nullptr}; }
};

/// Host residency: device slots the queries are streamed through on a copy stream of their own.
/// Every query's chunks are scheduled up front (add_query, in the order the MSMs consume them;
/// interleave reorders a block of queries), so the copy engine runs up to `slots` chunks ahead
/// across query boundaries and the first chunks are copied while a, b, c are transformed
/// (prefetch). Declared before the call's stream, so that stream (whose destructor waits for its
/// work) is gone before the buffers.
struct ring_t {
  ring_t(const cuzk::gpu::device_context& ctx, size_t bytes, size_t slot_count)
      : slots(std::clamp<size_t>(slot_count, 2, MAX_SLOTS)),
        slot_bytes(gpu_ring_slot_bytes(bytes, slots)),
        copy(ctx) {
    for (size_t i = 0; i < slots; ++i) buf[i] = device_buffer<uint8_t>(slot_bytes);
  }
  /// Points of `point_bytes` per chunk: a whole number of 64-bit bitmap words.
  size_t points_per_chunk(size_t point_bytes) const {
    return gpu_slot_points(slot_bytes, point_bytes);
  }

  /// Schedules host[0, n) (points of point_bytes) after the queries added before; returns its
  /// index.
  size_t add_query(const void* host, size_t n, size_t point_bytes) {
    const size_t per = points_per_chunk(point_bytes), qi = queries.size();
    queries.push_back({n, per, (n + per - 1) / per});
    for (size_t k = 0; k * per < n; ++k)
      chunks.push_back({static_cast<const char*>(host) + k * per * point_bytes,
                        std::min(per, n - k * per) * point_bytes, qi, k});
    return qi;
  }
  /// Reorders the chunks of the queries from `first_query` on (added last, none issued yet) so
  /// that they alternate evenly: chunk k of a query of c chunks at (k + 1/2)/c of the block (in
  /// the order added where two fall together). A compute-heavy query (H) then shares the link's
  /// time with link-heavy ones (L, A) instead of leaving it idle.
  void interleave(size_t first_query) {
    const auto begin = std::find_if(chunks.begin(), chunks.end(),
                                    [&](const chunk_t& c) { return c.query >= first_query; });
    std::stable_sort(begin, chunks.end(), [&](const chunk_t& x, const chunk_t& y) {
      return (2 * x.k + 1) * queries[y.query].chunks < (2 * y.k + 1) * queries[x.query].chunks;
    });
  }
  /// Issues the copies of every scheduled chunk before `until` (at most `slots` ahead of the
  /// chunks consumed), after the work `after` marks (null: nothing).
  void issue_until(size_t until, const cuzk::gpu::event* after = nullptr) {
    if (after != nullptr) copy.wait(*after);
    for (; issued < std::min(until, chunks.size()); ++issued) {
      const size_t b = issued % slots;
      copy.wait(consumed[b]);  // the chunk this slot held is no longer read
      copy_started[b].record(copy);
      CUZK_CUDA_OK(cudaMemcpyAsync(buf[b].data(), chunks[issued].src, chunks[issued].bytes,
                                   cudaMemcpyHostToDevice, copy.get()));
      uploaded[b].record(copy);
      bytes_moved += chunks[issued].bytes;
    }
  }

  struct query_t {
    size_t n, per, chunks;  ///< points, points per chunk, chunks
  };
  struct chunk_t {
    const char* src;
    size_t bytes;
    size_t query, k;  ///< chunk k of queries[query]: its points [k·per, k·per + bytes/point)
  };
  /// Consumes the next scheduled chunk: run's stream waits for its copy, f(chunk, d) enqueues
  /// its work on that stream with d holding its points, then the copies run on up to `slots`
  /// chunks ahead.
  template <class F>
  void consume_next(const run_t& run, F&& f) {
    const size_t g = next++;
    const size_t b = g % slots;
    issue_until(g + 1);
    chunk_timing& t = timing.emplace_back();
    t.query = chunks[g].query;
    t.reached.record(run.strm);
    run.strm.wait(uploaded[b]);
    t.copied.record(run.strm);
    f(chunks[g], static_cast<const void*>(buf[b].data()));
    t.done.record(run.strm);
    consumed[b].record(run.strm);
    copy_ms += uploaded[b].since(copy_started[b]);
    issue_until(g + 1 + slots);
  }
  /// Milliseconds the consuming stream waited for chunk copies, over every chunk consumed: the
  /// part of the streamed MSMs the link bounds (the rest is their kernels). Once the stream's
  /// work has ended.
  double wait_ms() const {
    double ms = 0;
    for (const chunk_timing& t : timing) ms += t.copied.since(t.reached);
    return ms;
  }
  /// Milliseconds of query qi's chunks on the consuming stream, from reaching each (its wait for
  /// the copy included) to the end of its work. Once the stream's work has ended.
  double query_ms(size_t qi) const {
    double ms = 0;
    for (const chunk_timing& t : timing)
      if (t.query == qi) ms += t.done.since(t.reached);
    return ms;
  }

  /// One consumed chunk's events on the consuming stream: reached (the work before it ended),
  /// copied (its copy awaited), done (the work f enqueued for it ended).
  struct chunk_timing {
    cuzk::gpu::event reached, copied, done;
    size_t query = 0;
  };

  static constexpr size_t MAX_SLOTS = gpu_ring_max_slots;
  size_t slots, slot_bytes;
  std::vector<query_t> queries;
  std::vector<chunk_t> chunks;  // every query's, in consumption order
  size_t issued = 0;            // chunks whose copy is enqueued
  size_t next = 0;              // the next chunk to consume
  device_buffer<uint8_t> buf[MAX_SLOTS];
  cuzk::gpu::stream copy;
  cuzk::gpu::event copy_started[MAX_SLOTS], uploaded[MAX_SLOTS], consumed[MAX_SLOTS];
  std::deque<chunk_timing> timing;  // every consumed chunk's, in order (events don't move)
  uint64_t bytes_moved = 0;
  double copy_ms = 0;
};

/// Calls f(k, d_chunk, first, len) for the chunks of scheduled query `qi` in order (the next
/// ones in the schedule), d_chunk holding its points [first, first + len) on the device for the
/// work f enqueues on run's stream; the copies of the next chunks run meanwhile.
template <class G, class F>
void for_each_chunk(const run_t& run, ring_t& ring, size_t qi, F&& f) {
  for (size_t k = 0; k < ring.queries[qi].chunks; ++k) {
    ring.consume_next(run, [&](const ring_t::chunk_t& c, const void* d) {
      if (c.query != qi || c.k != k) {
        precondition_failed(__func__, "chunk %zu of query %zu is scheduled, %zu of %zu wanted", c.k,
                            c.query, k, qi);
      }
      f(k, static_cast<const G*>(d), k * ring.queries[qi].per, c.bytes / sizeof(G));
    });
  }
}

/// One MSM over a streamed query (H): one Pippenger pass over its chunks (msm_accumulator: the
/// buckets of every window kept across them, reduced once) against the device scalars d_s. Its
/// pass is sized for the largest chunk, never more than the query (a query smaller than a slot:
/// gpu_proof_bytes counts min(points, slot points), and a slot's worth overshot it by 33 MB for
/// a 2^20-point H at 18 bits).
template <class G>
struct msm_stream {
  msm_stream(const run_t& run, const ring_t& ring, size_t qi, const fr_t* d_s)
      : d_s(d_s),
        acc(run.ctx, run.strm, ring.queries[qi].n,
            std::min(ring.queries[qi].n, ring.queries[qi].per), run.h_cfg) {}
  void chunk(const G* d, size_t first, size_t len) { acc.add(d, d_s + first, len); }
  auto result() { return acc.result(); }
  const fr_t* d_s;
  msm::cuda::msm_accumulator<G> acc;
};

/// A split MSM over a streamed query (L, A, B1, B2): per chunk the ones of its bitmap words by
/// batch addition, and the others whose base index falls in it (a range of the ascending
/// base_idx) gathered into one buffer of `piece` terms, which goes to one Pippenger accumulator
/// over the whole query (msm_accumulator) whenever it is full, and once at the end: a pass over
/// the others of several chunks (gathered bases are copies, so the ring's slot is free once its
/// chunk is gathered), sized within the plan's bytes by msm::cuda::accumulator_within_plan.
template <class G>
struct split_stream {
  using jacobian = typename msm::cuda::msm_accumulator<G>::jacobian;
  split_stream(const run_t& run, const ring_t& ring, size_t qi, const fr_t* d_aux,
               const device_split& sp)
      : run(run), d_aux(d_aux), sp(sp), bounds(ring.queries[qi].chunks + 1, 0) {
    if (sp.num_one != 0) ones.emplace(run.ctx, run.strm);
    const size_t per = ring.queries[qi].per, chunks = ring.queries[qi].chunks;
    piece = std::min({per, std::max<size_t>(run.gather_points, 1), sp.num_other});
    if (sp.num_other == 0) return;
    {
      device_buffer<uint32_t> d_bounds(chunks + 1);
      chunk_bounds_kernel<<<blocks_for(chunks + 1, 128), 128, 0, run.strm.get()>>>(
          sp.base_idx.data(), uint32_t(sp.num_other), per, chunks, d_bounds.data());
      CUZK_CUDA_LAUNCH_OK();
      d_bounds.download(bounds.data(), chunks + 1, run.strm);
    }
    // The plan bounds a chunk's others by its points (gpu_memory.cpp split_stream_bytes); where
    // chunks hold fewer (at most `most`), the same bytes take the others of several chunks a
    // pass, or more windows a pass (msm::cuda::accumulator_within_plan).
    size_t most = 0;
    for (size_t k = 0; k < chunks; ++k) most = std::max<size_t>(most, bounds[k + 1] - bounds[k]);
    msm::msm_config cfg = run.msm_cfg;
    cfg.device_group_bytes = gpu_others_group_bytes(cfg.device_group_bytes);
    const msm::cuda::accumulator_sizing sized = msm::cuda::accumulator_within_plan(
        sp.num_other, piece, most,
        std::is_same_v<G, g1_affine_t> ? msm::cuda::G1_XYZZ_BYTES : msm::cuda::G2_XYZZ_BYTES,
        cfg.device_group_bytes);
    piece = sized.max_chunk;
    cfg.window_bits = sized.window_bits;
    cfg.device_group_bytes = sized.group_bytes;
    others.emplace(run.ctx, run.strm, sp.num_other, piece, cfg);
    gb = device_buffer<G>(piece);
    gs = device_buffer<fr_t>(piece);
  }
  void chunk(size_t k, const G* d, size_t first, size_t len) {
    if (ones) ones->add(d, sp.ones.data() + first / 64, len);
    for (size_t i = bounds[k]; i < bounds[k + 1];) {
      const size_t n = std::min<size_t>(piece - gathered, bounds[k + 1] - i);
      gather(d, sp.base_idx.data() + i, n, gb.data() + gathered, run.strm.get(), uint32_t(first));
      gather(d_aux, sp.aux_idx.data() + i, n, gs.data() + gathered, run.strm.get());
      gathered += n;
      i += n;
      if (gathered == piece) flush();
    }
  }
  jacobian result() {
    flush();
    const jacobian o = ones ? ones->result() : jacobian::infinity();
    return others ? o + others->result() : o;
  }
  /// Sums the gathered others (enqueued after their gathers; the next gathers are ordered after
  /// the sum on the same stream).
  void flush() {
    if (gathered == 0) return;
    others->add(gb.data(), gs.data(), gathered);
    gathered = 0;
  }

  const run_t& run;
  const fr_t* d_aux;
  const device_split& sp;
  std::vector<uint32_t> bounds;  ///< the others of chunk k: [bounds[k], bounds[k + 1])
  size_t piece = 0;              ///< the others gathered for one pass
  size_t gathered = 0;           ///< the others in gb and gs, not yet summed
  /// The ones' sum, chunk by chunk on the device (no host round trip a chunk).
  std::optional<msm::cuda::batch_accumulator<G>> ones;
  std::optional<msm::cuda::msm_accumulator<G>> others;
  device_buffer<G> gb;
  device_buffer<fr_t> gs;
};

/// Σ scalars[i]·bases[i] over the device scalars d_s[0, n): one MSM over device bases, or in host
/// residency an msm_stream over the scheduled query qi (n must be its count).
template <class G>
auto msm_query(const run_t& run, ring_t* ring, size_t qi, query_view<G> q, const fr_t* d_s,
               size_t n) {
  if (ring == nullptr) return msm_dev(run, q.dev, d_s, n);
  msm_stream<G> st(run, *ring, qi, d_s);
  for_each_chunk<G>(run, *ring, qi,
                    [&](size_t, const G* d, size_t first, size_t len) { st.chunk(d, first, len); });
  return st.result();
}

/// MSM of host scalars (a few inputs) against the first scalars.size() points of q.
template <class G>
auto msm_inputs(const run_t& run, query_view<G> q, std::span<const fr_t> scalars) {
  if (q.dev != nullptr || scalars.empty()) return msm_host_scalars(run, q.dev, scalars);
  device_buffer<G> bases(scalars.size());
  bases.upload(q.host, scalars.size(), run.strm);
  return msm_host_scalars(run, bases.data(), scalars);
}

/// split_msm over q: the device bases, or in host residency a split_stream over the scheduled
/// query qi (sp.count points; its chunks are consumed even when there is nothing to add: the
/// schedule runs in order).
template <class G>
auto split_msm_query(const run_t& run, ring_t* ring, size_t qi, query_view<G> q, const fr_t* d_aux,
                     const device_split& sp) {
  if (ring == nullptr) return split_msm(run, q.dev, d_aux, sp);
  split_stream<G> st(run, *ring, qi, d_aux, sp);
  for_each_chunk<G>(run, *ring, qi, [&](size_t k, const G* d, size_t first, size_t len) {
    st.chunk(k, d, first, len);
  });
  return st.result();
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
  ntt::cuda::coset_evaluations(run.ctx, run.strm, d, out.data());
}

/// The most bytes the device's stream-ordered pool has had in use since construction
/// (cudaMemPoolAttrUsedMemHigh, reset then): a start()'s peak beside what cudaMalloc holds (the
/// parameters, plan, tables). 0 on a device without pools.
class device_pool_peak {
 public:
  explicit device_pool_peak(int device) {
    int pools = 0;
    if (cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device) == cudaSuccess &&
        pools != 0 && cudaDeviceGetDefaultMemPool(&pool_, device) == cudaSuccess) {
      unsigned long long zero = 0;
      if (cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrUsedMemHigh, &zero) != cudaSuccess)
        pool_ = nullptr;
    }
  }
  uint64_t bytes() const {
    unsigned long long high = 0;
    if (pool_ == nullptr ||
        cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrUsedMemHigh, &high) != cudaSuccess)
      return 0;
    return uint64_t(high);
  }

 private:
  cudaMemPool_t pool_ = nullptr;
};

/// `abc` null: a, b, c come from the host (asg.a, b, c). Otherwise the witness is uploaded first
/// and `abc` evaluates a, b, c on the device from it; the aux array then also serves the splits.
proof_parts start_impl(const device_parameters::impl& p, const device_abc_program* abc,
                       const assignment& asg, const ntt::domain_t& d, thread_pool& pool,
                       prover_timings& tm) {
  const size_t m = d.size();
  // Express work (express_scope) runs on the device's greatest-priority stream and never takes
  // the compute lock: the engine admitted it beside the other provers' working sets.
  const bool express = express_requested();
  // gpu_memory_knobs::interleave_queries: H, L and A share one interleaved stream of chunks
  // (their splits built first, from the witness on the device).
  const bool interleave = p.where == residency::host && abc != nullptr &&
                          p.interleave_queries.load(std::memory_order_relaxed);
  // Which queries are on the device (all in device residency; a partially resident plan's in
  // host residency). Interleaved, those among H, L and A are summed on a second stream (`side`)
  // beside the streamed ones, whose chunks this call's stream, raised above it, keeps taking.
  const unsigned kept = p.on_device();
  const bool on_dev_h = (kept & gpu_query_h) != 0, on_dev_l = (kept & gpu_query_l) != 0,
             on_dev_a = (kept & gpu_query_a) != 0, on_dev_b1 = (kept & gpu_query_b_g1) != 0,
             on_dev_b2 = (kept & gpu_query_b_g2) != 0;
  const bool side = interleave && (on_dev_h || on_dev_l || on_dev_a);
  const cuzk::gpu::stream strm(p.ctx, express ? cuzk::gpu::stream_priority::greatest
                                      : side  ? cuzk::gpu::stream_priority::raised
                                              : cuzk::gpu::stream_priority::normal);
  // Every buffer below is taken from the device's pool and returned in this stream's order: no
  // device-wide synchronization, which would stall another prover's kernels on this call's
  // upload (and this call on its).
  const cuzk::gpu::stream_ordered_allocations pool_order(strm);
  cuzk::gpu::event ev[11], ev_up, ev_abc,
      ev_turn;  // ev_up: witness uploaded, ev_abc: a, b, c evaluated, ev_turn: device taken
  // Interleaved H, L, A: each accumulator set up (0–2), the chunks consumed (3), H's and L's
  // results (4, 5), A's (6). On the side stream: its start, then H, L and A done.
  cuzk::gpu::event ev_il[7], ev_side[4];
  // The device's compute lock, held from after the witness upload (device residency: another
  // prover's kernels run meanwhile) or from the start (the parameters streamed from the host:
  // the ring's copies and buffers belong to the turn) until this call's work has finished and
  // its buffers are back in the pool (declared before them, so released after them).
  device_turn turn(p.ctx.ordinal(), strm);
  const bool upload_first = abc != nullptr && p.where == residency::device;
  if (!upload_first && !express) turn.take(tm);
  proof_parts out;
  std::unique_ptr<cuzk::gpu::stager> stg = p.ctx.take_stager();
  msm::msm_config msm_cfg;
  msm_cfg.device_group_bytes = p.msm_group_bytes.load(std::memory_order_relaxed);
  msm::msm_config h_cfg = msm_cfg;
  h_cfg.window_bits = p.h_window_bits.load(std::memory_order_relaxed);
  gpu_memory_knobs h_knobs;
  h_knobs.msm_group_bytes = msm_cfg.device_group_bytes;
  h_knobs.h_group_bytes = p.h_group_bytes.load(std::memory_order_relaxed);
  h_cfg.device_group_bytes = gpu_h_group_bytes(h_knobs);
  const run_t run{p.ctx, strm,    *stg,
                  pool,  msm_cfg, size_t(p.gather_points.load(std::memory_order_relaxed)),
                  h_cfg};
  const device_pool_peak peak(p.ctx.ordinal());
  const size_t n_aux = asg.num_aux();
  const size_t n_in = asg.num_inputs();
  const bitmap_view& b_in = asg.b_input_density;
  const size_t nb_in = b_in.popcount();
  device_buffer<fr_t> d_aux, d_in;  // the witness, on the device only when abc is given
  ev[0].record(strm);
  if (abc != nullptr) {
    d_aux = device_buffer<fr_t>(n_aux);
    d_in = device_buffer<fr_t>(asg.num_inputs());
    stg->upload(d_in.data(), asg.inputs.data(), asg.inputs.size_bytes(), pool, strm);
    stg->upload(d_aux.data(), asg.aux.data(), asg.aux.size_bytes(), pool, strm);
    ev_up.record(strm);
  }
  if (upload_first && !express) {
    ev_up.synchronize();
    turn.take(tm);
  }
  ev_turn.record(strm);
  // h on the device; b and c are freed before the MSMs.
  device_buffer<fr_t> da(m);
  std::optional<ring_t> ring;  // host residency
  // Host residency: the ring and the whole schedule of chunks (H, L, A, B1, B2: the bases of
  // the split's compacted index spaces), before a, b, c, so the first copies overlap them, or
  // (gpu_memory_knobs::ring_after_abc) once their domain buffers are back in the pool.
  const bool ring_after_abc =
      p.where == residency::host && p.ring_after_abc.load(std::memory_order_relaxed);
  // The queries' indices in the ring's schedule (none: on the device).
  constexpr size_t not_streamed = SIZE_MAX;
  size_t q_h = not_streamed, q_l = not_streamed, q_a = not_streamed, q_b1 = not_streamed,
         q_b2 = not_streamed;
  const auto take_ring = [&] {
    const size_t ring_bytes = p.ring_bytes.load(std::memory_order_relaxed);
    ring.emplace(p.ctx, ring_bytes, gpu_ring_slots(ring_bytes, interleave));
    const size_t na = asg.a_aux_density.popcount(), nb = asg.b_aux_density.popcount();
    // Only the queries not on the device (a partially resident plan keeps some there).
    if (!on_dev_h) q_h = ring->add_query(p.host_h.data(), m - 1, sizeof(g1_affine_t));
    if (!on_dev_l) q_l = ring->add_query(p.host_l.data(), n_aux, sizeof(g1_affine_t));
    if (!on_dev_a) q_a = ring->add_query(p.host_a.data() + n_in, na, sizeof(g1_affine_t));
    if (interleave && !ring->queries.empty()) ring->interleave(0);
    if (!on_dev_b1) q_b1 = ring->add_query(p.host_b_g1.data() + nb_in, nb, sizeof(g1_affine_t));
    if (!on_dev_b2) q_b2 = ring->add_query(p.host_b_g2.data() + nb_in, nb, sizeof(g2_affine_t));
  };
  if (p.where == residency::host && !ring_after_abc) take_ring();
  device_buffer<fr_t> db, dc;
  if (abc != nullptr && p.abc_in_turn.load(std::memory_order_relaxed)) {
    // Two domain buffers (gpu_memory_knobs::abc_in_turn): A on the coset in da, B in db, A·B
    // into da, then C evaluated into db. tm.abc is a's evaluation; b's and c's count with their
    // transforms.
    db = device_buffer<fr_t>(m);
    if (ring) ring->issue_until(ring->slots, &ev_up);  // the first H chunks, after the witness
    const size_t n = abc->num_rows();
    zero_tail(run, da, n);
    zero_tail(run, db, n);
    abc->evaluate(d_in.data(), d_aux.data(), da.data(), nullptr, nullptr, strm);
    ev_abc.record(strm);
    ntt::cuda::coset_evaluations(run.ctx, strm, d, da.data());
    ev[1].record(strm);
    abc->evaluate(d_in.data(), d_aux.data(), nullptr, db.data(), nullptr, strm);
    ntt::cuda::coset_evaluations(run.ctx, strm, d, db.data());
    ntt::cuda::coset_product(run.ctx, strm, d, da.data(), db.data());
    ev[2].record(strm);
    zero_tail(run, db, n);
    abc->evaluate(d_in.data(), d_aux.data(), nullptr, nullptr, db.data(), strm);
    ntt::cuda::coset_evaluations(run.ctx, strm, d, db.data());
    ev[3].record(strm);
    dc = std::move(db);  // C, for the quotient below (which reads da as A·B)
  } else if (abc != nullptr) {
    db = device_buffer<fr_t>(m);
    dc = device_buffer<fr_t>(m);
    if (ring) ring->issue_until(ring->slots, &ev_up);  // the first H chunks, after the witness
    const size_t n = abc->num_rows();
    for (device_buffer<fr_t>* v : {&da, &db, &dc}) zero_tail(run, *v, n);
    abc->evaluate(d_in.data(), d_aux.data(), da.data(), db.data(), dc.data(), strm);
    ev_abc.record(strm);
    ntt::cuda::coset_evaluations(run.ctx, strm, d, da.data());
    ev[1].record(strm);
    ntt::cuda::coset_evaluations(run.ctx, strm, d, db.data());
    ev[2].record(strm);
    ntt::cuda::coset_evaluations(run.ctx, strm, d, dc.data());
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
    if (ring) ring->issue_until(ring->slots, &ev[3]);  // the first H chunks, after a, b, c
  }
  ntt::cuda::coset_quotient(p.ctx, strm, d, da.data(), db.size() != 0 ? db.data() : nullptr,
                            dc.data());
  db = device_buffer<fr_t>();  // back to the pool after the quotient's kernels
  dc = device_buffer<fr_t>();
  if (ring_after_abc) take_ring();  // from the pool in strm's order: after the quotient
  ev[4].record(strm);
  // The copy stream writes the ring only after its buffers were taken in strm's order (they may
  // be b's and c's memory, which the quotient read).
  if (ring_after_abc) ring->issue_until(ring->slots, &ev[4]);

  ring_t* rg = ring ? &*ring : nullptr;
  // The ring for a query that streams; null for one on the device.
  const auto ring_unless = [&](bool on_device) { return on_device ? nullptr : rg; };
  const query_view<g1_affine_t> qh{p.h.data(), p.host_h.data()}, ql{p.l.data(), p.host_l.data()},
      qa{p.a.data(), p.host_a.data()}, qb1{p.b_g1.data(), p.host_b_g1.data()};
  const query_view<g2_affine_t> qb2{p.b_g2.data(), p.host_b_g2.data()};
  device_split split_l, split_a, split_b;
  const fr_t* aux = nullptr;
  if (interleave) {
    // L and A split first (aux is on the device); H's accumulator and theirs live together while
    // the link fetches L's and A's chunks between H's (ring_t::interleave).
    aux = d_aux.data();
    split_l = classify(aux, n_aux, nullptr, run);
    split_a = classify(aux, n_aux, &asg.a_aux_density, run);
    ev[5].record(strm);
    {
      std::optional<msm_stream<g1_affine_t>> sh;
      std::optional<split_stream<g1_affine_t>> sl, sa;
      size_t block = 0;
      if (!on_dev_h) {
        sh.emplace(run, *ring, q_h, da.data());
        block += ring->queries[q_h].chunks;
      }
      ev_il[0].record(strm);
      if (!on_dev_l) {
        sl.emplace(run, *ring, q_l, aux, split_l);
        block += ring->queries[q_l].chunks;
      }
      ev_il[1].record(strm);
      if (!on_dev_a) {
        sa.emplace(run, *ring, q_a, aux, split_a);
        block += ring->queries[q_a].chunks;
      }
      ev_il[2].record(strm);
      // The device's own among H, L and A, one after another on a second stream from a thread of
      // its own (its buffers taken in that stream's order), beside the chunks below. Its future
      // is destroyed (joined) before da and the splits it reads.
      struct side_parts {
        g1_jacobian_t h = g1_jacobian_t::infinity(), l = g1_jacobian_t::infinity(),
                      a = g1_jacobian_t::infinity();
      };
      std::future<side_parts> side_work;
      if (side) {
        side_work = std::async(std::launch::async, [&] {
          const device_scope scope(p.ctx);
          const cuzk::gpu::stream side_strm(p.ctx);
          const cuzk::gpu::stream_ordered_allocations side_order(side_strm);
          side_strm.wait(ev[5]);  // h, the witness and the splits are ready
          ev_side[0].record(side_strm);
          const run_t side_run{p.ctx, side_strm, *stg, pool, msm_cfg, run.gather_points, h_cfg};
          side_parts sp;
          if (on_dev_h) sp.h = msm_dev(side_run, p.h.data(), da.data(), m - 1);
          ev_side[1].record(side_strm);
          if (on_dev_l) sp.l = split_msm(side_run, p.l.data(), aux, split_l);
          ev_side[2].record(side_strm);
          if (on_dev_a) sp.a = split_msm(side_run, p.a.data() + n_in, aux, split_a);
          ev_side[3].record(side_strm);
          return sp;
        });
      }
      for (size_t i = 0; i < block; ++i) {
        ring->consume_next(run, [&](const ring_t::chunk_t& c, const void* dp) {
          const auto* bases = static_cast<const g1_affine_t*>(dp);
          const size_t first = c.k * ring->queries[c.query].per;
          const size_t len = c.bytes / sizeof(g1_affine_t);
          if (c.query == q_h) {
            sh->chunk(bases, first, len);
          } else if (c.query == q_l) {
            sl->chunk(c.k, bases, first, len);
          } else {
            sa->chunk(c.k, bases, first, len);
          }
        });
      }
      ev_il[3].record(strm);
      if (sh) out.h = sh->result();
      ev_il[4].record(strm);
      if (sl) out.l = sl->result();
      ev_il[5].record(strm);
      if (sa) out.a_part = sa->result();
      ev_il[6].record(strm);
      if (side) {
        const side_parts sp = side_work.get();
        if (on_dev_h) out.h = sp.h;
        if (on_dev_l) out.l = sp.l;
        if (on_dev_a) out.a_part = sp.a;
      }
    }
    da = device_buffer<fr_t>();
    split_l = device_split();
    split_a = device_split();
    ev[6].record(strm);
    out.a_part = out.a_part + msm_inputs(run, qa, asg.inputs);
    split_b = classify(aux, n_aux, &asg.b_aux_density, run);
    ev[7].record(strm);
    ev[8].record(strm);
  } else {
    // deg h ≤ m − 2: m − 1 coefficients.
    out.h = msm_query(run, ring_unless(on_dev_h), q_h, qh, da.data(), m - 1);
    da = device_buffer<fr_t>();
    ev[5].record(strm);

    // aux once to the device, then the three splits (B's serves B1 and B2); aux stays for the
    // others' scalars, gathered piece by piece.
    if (abc == nullptr) {
      d_aux = device_buffer<fr_t>(n_aux);
      stg->upload(d_aux.data(), asg.aux.data(), asg.aux.size_bytes(), pool, strm);
    }
    aux = d_aux.data();
    split_l = classify(aux, n_aux, nullptr, run);
    split_a = classify(aux, n_aux, &asg.a_aux_density, run);
    split_b = classify(aux, n_aux, &asg.b_aux_density, run);
    ev[6].record(strm);

    out.l = split_msm_query(run, ring_unless(on_dev_l), q_l, ql, aux, split_l);
    ev[7].record(strm);

    out.a_part = msm_inputs(run, qa, asg.inputs) +
                 split_msm_query(run, ring_unless(on_dev_a), q_a, qa.from(n_in), aux, split_a);
    ev[8].record(strm);
  }

  std::vector<fr_t> b_inputs;
  for (size_t j = 0; j < n_in; ++j)
    if (b_in.test(j)) b_inputs.push_back(asg.inputs[j]);
  out.b_g1 = msm_inputs(run, qb1, std::span<const fr_t>(b_inputs)) +
             split_msm_query(run, ring_unless(on_dev_b1), q_b1, qb1.from(nb_in), aux, split_b);
  ev[9].record(strm);
  out.b_g2 = msm_inputs(run, qb2, std::span<const fr_t>(b_inputs)) +
             split_msm_query(run, ring_unless(on_dev_b2), q_b2, qb2.from(nb_in), aux, split_b);
  ev[10].record(strm);
  ev[10].synchronize();
  p.ctx.put_stager(std::move(stg));
  if (rg != nullptr) {
    tm.streamed_bytes = rg->bytes_moved;
    tm.stream_copy = rg->copy_ms;
    tm.stream_wait = rg->wait_ms();
  }
  tm.device_peak_bytes = peak.bytes();

  if (abc != nullptr) {
    tm.upload = ev_up.since(ev[0]);
    tm.abc = ev_abc.since(ev_turn);
    tm.ntt_a = ev[1].since(ev_abc);
  } else {
    tm.ntt_a = ev[1].since(ev[0]);
  }
  tm.ntt_b = ev[2].since(ev[1]);
  tm.ntt_c = ev[3].since(ev[2]);
  tm.h_compute = ev[4].since(ev[3]);
  if (interleave) {
    // The splits of L and A, then H, L and A over one stream (msm_h), then A's inputs and B's
    // split.
    tm.split = ev[5].since(ev[4]) + ev[7].since(ev[6]);
    // Each MSM: its accumulators' setup, its chunks (their waits for copies included) and its
    // result; the three add up to the phase, ev[6] − ev[5].
    tm.msm_h = ev_il[0].since(ev[5]) + rg->query_ms(q_h) + ev_il[4].since(ev_il[3]);
    tm.msm_l = ev_il[1].since(ev_il[0]) + rg->query_ms(q_l) + ev_il[5].since(ev_il[4]);
    tm.msm_a = ev_il[2].since(ev_il[1]) + rg->query_ms(q_a) + ev_il[6].since(ev_il[5]);
    // A partially resident plan's device MSMs: their spans on the side stream, which overlap
    // the streamed ones' (the three then add up to more than the phase).
    if (on_dev_h) tm.msm_h = ev_side[1].since(ev_side[0]);
    if (on_dev_l) tm.msm_l = ev_side[2].since(ev_side[1]);
    if (on_dev_a) tm.msm_a = ev_side[3].since(ev_side[2]);
  } else {
    tm.msm_h = ev[5].since(ev[4]);
    tm.split = ev[6].since(ev[5]);
    tm.msm_l = ev[7].since(ev[6]);
    tm.msm_a = ev[8].since(ev[7]);
  }
  tm.msm_b_g1 = ev[9].since(ev[8]);
  tm.msm_b_g2 = ev[10].since(ev[9]);
  tm.start = (abc != nullptr ? tm.upload : 0) + ev[10].since(ev_turn);
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
  return impl_->ring_bytes.load(std::memory_order_relaxed);
}

status device_parameters::set_memory_knobs(const gpu_memory_knobs& knobs) {
  impl_->msm_group_bytes.store(knobs.msm_group_bytes, std::memory_order_relaxed);
  impl_->gather_points.store(std::max<uint64_t>(knobs.gather_points, 1), std::memory_order_relaxed);
  impl_->h_window_bits.store(knobs.h_window_bits, std::memory_order_relaxed);
  impl_->h_group_bytes.store(knobs.h_group_bytes, std::memory_order_relaxed);
  impl_->abc_in_turn.store(knobs.abc_in_turn, std::memory_order_relaxed);
  impl_->interleave_queries.store(knobs.interleave_queries, std::memory_order_relaxed);
  impl_->ring_after_abc.store(knobs.ring_after_abc, std::memory_order_relaxed);
  // The ring must hold a chunk of 64 G2 points in each half (host_resident's smallest).
  if (impl_->where != residency::host) return status();
  impl_->ring_bytes.store(std::max<size_t>(knobs.ring_bytes, size_t(gpu_min_ring_bytes)),
                          std::memory_order_relaxed);
  // A partially resident plan's queries: the ones no longer kept freed first, then the new ones
  // copied from the page-locked arrays (≈ 50 GB/s: a 32 GiB PoRep's H, 12.9 GB, in ≈ 0.3 s).
  impl& p = *impl_;
  const unsigned want = knobs.resident_queries & gpu_all_queries;
  try {
    const device_scope scope(p.ctx.ordinal());
    const cuzk::gpu::plain_allocations outlive_any_call;
    const auto drop = [&](auto& dev, unsigned query) {
      if ((want & query) == 0) dev = std::remove_reference_t<decltype(dev)>();
    };
    drop(p.h, gpu_query_h);
    drop(p.l, gpu_query_l);
    drop(p.a, gpu_query_a);
    drop(p.b_g1, gpu_query_b_g1);
    drop(p.b_g2, gpu_query_b_g2);
    const auto keep = [&](auto& dev, const auto& host, unsigned query) {
      if ((want & query) == 0 || dev.size() != 0 || host.count == 0) return;
      std::remove_reference_t<decltype(dev)> copy(host.count);
      CUZK_CUDA_OK(cudaMemcpy(copy.data(), host.data(), host.bytes(), cudaMemcpyHostToDevice));
      dev = std::move(copy);
    };
    keep(p.h, p.host_h, gpu_query_h);
    keep(p.l, p.host_l, gpu_query_l);
    keep(p.a, p.host_a, gpu_query_a);
    keep(p.b_g1, p.host_b_g1, gpu_query_b_g1);
    keep(p.b_g2, p.host_b_g2, gpu_query_b_g2);
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::cuda::device_parameters::set_memory_knobs (resident queries)");
  }
  return status();
}

gpu_memory_knobs device_parameters::memory_knobs() const {
  gpu_memory_knobs k;
  k.msm_group_bytes = impl_->msm_group_bytes.load(std::memory_order_relaxed);
  k.gather_points = impl_->gather_points.load(std::memory_order_relaxed);
  k.h_window_bits = impl_->h_window_bits.load(std::memory_order_relaxed);
  k.h_group_bytes = impl_->h_group_bytes.load(std::memory_order_relaxed);
  k.ring_bytes = impl_->ring_bytes.load(std::memory_order_relaxed);
  k.abc_in_turn = impl_->abc_in_turn.load(std::memory_order_relaxed);
  k.interleave_queries = impl_->interleave_queries.load(std::memory_order_relaxed);
  k.ring_after_abc = impl_->ring_after_abc.load(std::memory_order_relaxed);
  if (impl_->where == residency::host) k.resident_queries = impl_->on_device();
  return k;
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
    return cuda_status(e, "groth16::cuda::device_parameters::allocate");
  } catch (const std::bad_alloc&) {
    return status(status_code::internal, "groth16::cuda::device_parameters::allocate: host memory");
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
    return cuda_status(e, "groth16::cuda::device_parameters::upload");
  }
}

namespace {

/// The device decoder's check for these point checks; none when they need the subgroup test.
std::optional<ec::cuda::curve_check> device_check_for(point_checks checks) {
  switch (checks) {
    case point_checks::on_curve_only:
      return ec::cuda::curve_check::on_curve;
    case point_checks::none:
      return ec::cuda::curve_check::none;
    case point_checks::full:
    case point_checks::batched:
      break;
  }
  return std::nullopt;
}

/// The host's status for point `index` of `sec`, which the device decoder rejected: the exact
/// error the host path gives ("l[17]: not_on_curve (...)"). The two decoders agree by test
/// (serialization_gpu_test); should the host accept it anyway, that is an internal error, never
/// a silently different point.
template <class T>
status host_verdict(const params_file& file, params_section sec, uint64_t index,
                    point_checks checks) {
  thread_pool caller_only(1);
  T scratch;
  if (status st = file.decode(sec, index, 1, std::span<T>(&scratch, 1), checks, caller_only); !st)
    return st;
  return status(status_code::internal,
                std::string(to_string(sec)) + "[" + std::to_string(index) +
                    "]: the device decoder rejected a point the host codec accepts");
}

/// The query sections in file order: the order of the device decoders' rejected-index slots.
constexpr params_section QUERY_SECTIONS[] = {params_section::h, params_section::l,
                                             params_section::a, params_section::b_g1,
                                             params_section::b_g2};
constexpr size_t NUM_QUERY_SECTIONS = std::size(QUERY_SECTIONS);

/// f(section, its index k in QUERY_SECTIONS, its destination) for each query section in file
/// order, the destination typed by the section's group; the first failing status stops it.
template <class F>
status for_each_query_section(g1_affine_t* h, g1_affine_t* l, g1_affine_t* a, g1_affine_t* b_g1,
                              g2_affine_t* b_g2, F&& f) {
  g1_affine_t* const g1[] = {h, l, a, b_g1};
  for (size_t k = 0; k < std::size(g1); ++k)
    if (status st = f(QUERY_SECTIONS[k], k, g1[k]); !st) return st;
  return f(params_section::b_g2, NUM_QUERY_SECTIONS - 1, b_g2);
}

/// The first rejection in file order, as the host path reports it; ok when there is none.
status first_rejection(const params_file& file,
                       const unsigned long long (&rejected)[NUM_QUERY_SECTIONS],
                       point_checks checks) {
  for (size_t k = 0; k < NUM_QUERY_SECTIONS; ++k) {
    if (rejected[k] == ec::cuda::NO_REJECTED_INDEX) continue;
    const params_section sec = QUERY_SECTIONS[k];
    return sec == params_section::b_g2 ? host_verdict<g2_affine_t>(file, sec, rejected[k], checks)
                                       : host_verdict<g1_affine_t>(file, sec, rejected[k], checks);
  }
  return status();
}

/// The bytes of each device scratch buffer the host residency's loader decodes through (two of
/// them): the stager's chunk, so the loader's device memory is what a streamed upload's staging
/// holds on the host side. The load runs before the entry's first proof, inside the device memory
/// its plan keeps for that proof (at least the ring, gpu_min_ring_bytes or more).
constexpr size_t HOST_DECODE_SCRATCH_BYTES = cuzk::gpu::stager::chunk;

/// Host residency decoded on the device: section `sec`'s bytes copied into the page-locked array
/// dst (the pool copies out of the mapping, whose pages are then released), each chunk then sent
/// through a device scratch buffer: up, decoded in place, back over itself. Chunk k uses scratch
/// and stream k mod 2, so its round trip overlaps the copy of chunk k + 1 out of the mapping
/// (disjoint ranges of dst). The lowest rejected index merges into *d_rejected.
template <class T>
status decode_into_host_on_device(const params_file& file, params_section sec, T* dst,
                                  ec::cuda::curve_check check, unsigned long long* d_rejected,
                                  thread_pool& pool, const device_buffer<char> (&scratch)[2],
                                  const cuzk::gpu::stream (&streams)[2],
                                  const progress_fn& progress, uint64_t& done_bytes,
                                  uint64_t total_bytes) {
  const std::span<const uint8_t> src = file.section_bytes(sec);
  const size_t step = scratch[0].size() / sizeof(T) * sizeof(T);
  char* host = reinterpret_cast<char*>(dst);
  size_t k = 0;
  for (size_t off = 0; off < src.size(); off += step, ++k) {
    const size_t len = std::min(step, src.size() - off);
    pool.parallel_range(
        len,
        [&](size_t x0, size_t x1) { std::memcpy(host + off + x0, src.data() + off + x0, x1 - x0); },
        size_t(1) << 20);
    if (status st = file.release(sec, off / sizeof(T), len / sizeof(T)); !st) return st;
    const cuzk::gpu::stream& s = streams[k % 2];
    char* d = scratch[k % 2].data();
    CUZK_CUDA_OK(cudaMemcpyAsync(d, host + off, len, cudaMemcpyHostToDevice, s.get()));
    if constexpr (std::is_same_v<T, g2_affine_t>) {
      ec::cuda::g2_from_uncompressed_in_place(d, len / sizeof(T), off / sizeof(T), check,
                                              d_rejected, s);
    } else {
      ec::cuda::g1_from_uncompressed_in_place(d, len / sizeof(T), off / sizeof(T), check,
                                              d_rejected, s);
    }
    CUZK_CUDA_OK(cudaMemcpyAsync(host + off, d, len, cudaMemcpyDeviceToHost, s.get()));
    done_bytes += len;
    if (progress) progress("load", size_t(done_bytes), size_t(total_bytes));
  }
  return status();
}

/// Host residency's storage for `sizes`: page-locked arrays for every query, none on the device.
result<std::unique_ptr<device_parameters::impl>> make_host_impl(const verifying_key& vk,
                                                                const query_sizes& sizes,
                                                                int device, size_t ring_bytes,
                                                                thread_pool& pool,
                                                                const progress_fn& progress) {
  if (sizes.ic != vk.ic.size())
    return status(status_code::size_mismatch, "host_resident: ic size differs from the vk's");
  // A chunk holds at least 64 G2 points (one bitmap word), in each half of the ring.
  if (ring_bytes < size_t(gpu_min_ring_bytes))
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
    // The phase of its own in the progress lines: page-locking is the load's slowest step. Its
    // total is the five arrays' bytes (the ic points stay in the vk), as the load's is.
    const uint64_t total = query_bytes(sizes) - uint64_t(sizes.ic) * sizeof(g1_affine_t);
    uint64_t locked = 0;
    const auto lock = [&](auto& array, size_t count) {
      using T = std::remove_pointer_t<decltype(array.data())>;
      array = pinned_array<T>(count, pool);
      locked += array.bytes();
      if (progress) progress("page-lock", size_t(locked), size_t(total));
    };
    if (progress) progress("page-lock", 0, size_t(total));
    lock(p->host_h, sizes.h);
    lock(p->host_l, sizes.l);
    lock(p->host_a, sizes.a);
    lock(p->host_b_g1, sizes.b_g1);
    lock(p->host_b_g2, sizes.b_g2);
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
  auto p = make_host_impl(params.vk, params.sizes(), device, ring_bytes,
                          thread_pool::default_pool(), {});
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
    const progress_fn& progress, size_t ring_bytes, params_decoder decoder) {
  auto vk = file.load_vk(checks, pool);
  if (!vk) return vk.error();
  const query_sizes q{file.count(params_section::ic),   file.count(params_section::h),
                      file.count(params_section::l),    file.count(params_section::a),
                      file.count(params_section::b_g1), file.count(params_section::b_g2)};
  auto p = make_host_impl(*vk, q, device, ring_bytes, pool, progress);
  if (!p) return p.error();
  impl& h = **p;
  uint64_t done = 0;
  const uint64_t total = file.query_bytes();
  if (progress) progress("load", 0, size_t(total));
  if (const auto check = device_check_for(checks); check && decoder == params_decoder::device) {
    try {
      device_scope scope(h.ctx);
      // The scratch is a speed-up, not a need: where the device cannot give it (another process
      // holds the memory), the host decodes below, as it does for the subgroup checks.
      std::optional<device_buffer<char>> first_scratch, second_scratch;
      try {
        first_scratch.emplace(HOST_DECODE_SCRATCH_BYTES);
        second_scratch.emplace(HOST_DECODE_SCRATCH_BYTES);
      } catch (const cuzk::gpu::gpu_error&) {
        first_scratch.reset();
        second_scratch.reset();
        cudaGetLastError();  // the failed allocation is not an error for the next call
      }
      if (first_scratch && second_scratch) {
        const device_buffer<char> scratch[2] = {std::move(*first_scratch),
                                                std::move(*second_scratch)};
        const cuzk::gpu::stream streams[2] = {cuzk::gpu::stream(h.ctx), cuzk::gpu::stream(h.ctx)};
        device_buffer<unsigned long long> rejected(NUM_QUERY_SECTIONS);
        CUZK_CUDA_OK(cudaMemsetAsync(rejected.data(), 0xff,
                                     NUM_QUERY_SECTIONS * sizeof(unsigned long long),
                                     streams[0].get()));
        streams[0].synchronize();  // both streams' kernels read the slots
        if (status st = for_each_query_section(h.host_h.data(), h.host_l.data(), h.host_a.data(),
                                               h.host_b_g1.data(), h.host_b_g2.data(),
                                               [&](params_section sec, size_t k, auto* dst) {
                                                 return decode_into_host_on_device(
                                                     file, sec, dst, *check, rejected.data() + k,
                                                     pool, scratch, streams, progress, done, total);
                                               });
            !st)
          return st;
        unsigned long long first[NUM_QUERY_SECTIONS];
        streams[1].synchronize();
        cuzk::gpu::copy_to_host(first, rejected.data(), sizeof(first), streams[0]);
        if (status st = first_rejection(file, first, checks); !st) return st;
        return std::unique_ptr<device_parameters>(new device_parameters(std::move(*p)));
      }
    } catch (const cuzk::gpu::gpu_error& e) {
      return cuda_status(e, "groth16::cuda::device_parameters::host_resident");
    }
  }
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

/// Copies section `sec` of `file` byte for byte to dst through pinned staging (the pool copies
/// out of the mapping, whose pages are then released) and enqueues the in-place decode on
/// `strm`, which merges the lowest rejected index into *d_rejected.
template <class T>
status upload_raw_section(const params_file& file, params_section sec, T* dst,
                          ec::cuda::curve_check check, unsigned long long* d_rejected,
                          thread_pool& pool, cuzk::gpu::stager& stg, const cuzk::gpu::stream& strm,
                          const progress_fn& progress, uint64_t& done_bytes) {
  static_assert(sizeof(T) == G1_BYTES || sizeof(T) == G2_BYTES, "an encoding is the point's size");
  const std::span<const uint8_t> src = file.section_bytes(sec);
  status released;
  stg.upload_with(
      dst, src.size(), strm,
      [&](char* pinned, size_t offset, size_t len) {
        pool.parallel_range(
            len,
            [&](size_t x0, size_t x1) {
              std::memcpy(pinned + x0, src.data() + offset + x0, x1 - x0);
            },
            size_t(1) << 20);
        if (released) released = file.release(sec, offset / sizeof(T), len / sizeof(T));
        done_bytes += len;
        if (progress) progress("upload", size_t(done_bytes), size_t(file.query_bytes()));
      },
      sizeof(T));
  if (!released) return released;
  const uint64_t count = file.count(sec);
  if constexpr (std::is_same_v<T, g2_affine_t>) {
    ec::cuda::g2_from_uncompressed_in_place(dst, count, 0, check, d_rejected, strm);
  } else {
    ec::cuda::g1_from_uncompressed_in_place(dst, count, 0, check, d_rejected, strm);
  }
  return status();
}

}  // namespace

result<std::unique_ptr<device_parameters>> device_parameters::stream_from(
    const params_file& file, point_checks checks, int device, thread_pool& pool,
    const progress_fn& progress, params_decoder decoder) {
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
    if (const auto check = device_check_for(checks); check && decoder == params_decoder::device) {
      // One rejected-index slot per section, so the first bad point in file order is reported.
      device_buffer<unsigned long long> rejected(NUM_QUERY_SECTIONS);
      CUZK_CUDA_OK(cudaMemsetAsync(rejected.data(), 0xff,
                                   NUM_QUERY_SECTIONS * sizeof(unsigned long long), strm.get()));
      static_assert(ec::cuda::NO_REJECTED_INDEX == ~0ull, "the memset's pattern");
      if (status st = for_each_query_section(
              p.h.data(), p.l.data(), p.a.data(), p.b_g1.data(), p.b_g2.data(),
              [&](params_section sec, size_t k, auto* dst) {
                return upload_raw_section(file, sec, dst, *check, rejected.data() + k, pool, *stg,
                                          strm, progress, done_bytes);
              });
          !st)
        return st;
      unsigned long long first[NUM_QUERY_SECTIONS];
      // Complete when it returns: the bases are decoded and ready for any stream.
      cuzk::gpu::copy_to_host(first, rejected.data(), sizeof(first), strm);
      p.ctx.put_stager(std::move(stg));
      if (status st = first_rejection(file, first, checks); !st) return st;
      return dp;
    }
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
    return cuda_status(e, "groth16::cuda::device_parameters::stream_from");
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
    return cuda_status(e, "groth16::cuda::start");
  } catch (const std::bad_alloc&) {
    return status(status_code::internal, "groth16::cuda::start: host memory");
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
    return cuda_status(e, "groth16::cuda::memory_info");
  }
}

}  // namespace cuzk::groth16::cuda
