// SPDX-License-Identifier: Apache-2.0
// GPU NTT over Fr. One kernel does up to 10 radix-2 stages of a 2^lg_tile-element tile in shared
// memory: tile rows are S_low = 2^lg_slow apart in the array and each row holds L = 2^(lg_tile-k)
// consecutive columns, so every butterfly of those k stages stays inside the tile. Gentleman–Sande
// (DIF) runs the passes from the largest span down and maps natural to bit-reversed order;
// Cooley–Tukey (DIT) runs them in reverse and maps bit-reversed to natural. 2^27 = 3 passes
// (9 + 8 + 10 stages), each one read and one write of the array.
//
// Twiddles: one table of ω^i, i < m/2 (2^27: 2 GiB), built on the device from two √-sized tables;
// the butterfly of half-span h at offset j uses ω^(j·m/2h), and the inverse transform reads
// ω^-k = −ω^(m/2−k). Coset factors g^i (and g^-i·m^-1) come from two √-sized tables.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "base/check.hpp"
#include "ff/mont_device.cuh"
#include "gpu/device_memory.cuh"
#include "ntt/ntt_gpu.hpp"

namespace cuzk::ntt::gpu {
namespace {

using cuzk::gpu::device_buffer;
using cuzk::gpu::device_context;
using cuzk::gpu::device_scope;
using cuzk::gpu::stream;
using ff::fr_t;
using fr_d = ff::device::fr_d;

constexpr unsigned MAX_TILE_LG = 10;  // 1024 elements × 32 B = 32 KiB of shared memory

__device__ __forceinline__ fr_d twiddle(const fr_d* tw, size_t idx, size_t half_n, bool inverse) {
  if (!inverse) return tw[idx];
  if (idx == 0) return fr_d::one();
  return -tw[half_n - idx];
}

template <bool DIT>
__global__ void __launch_bounds__(512)
    ntt_pass(fr_d* a, const fr_d* tw, unsigned lg_n, unsigned lg_slow, unsigned k, unsigned lg_tile,
             bool inverse) {
  __shared__ fr_d sh[size_t(1) << MAX_TILE_LG];
  const unsigned lg_L = lg_tile - k;
  const size_t L = size_t(1) << lg_L;
  const size_t chunks = (size_t(1) << lg_slow) >> lg_L;  // column chunks per row group
  const size_t b = blockIdx.x;
  const size_t base = ((b / chunks) << (lg_slow + k)) + ((b % chunks) << lg_L);
  const unsigned T = 1u << lg_tile;

  for (unsigned e = threadIdx.x; e < T; e += blockDim.x)
    sh[e] = a[base + (size_t(e >> lg_L) << lg_slow) + (e & (L - 1))];
  __syncthreads();

  const size_t half_n = size_t(1) << (lg_n - 1);
  for (unsigned t = 0; t < k; ++t) {
    const unsigned lg_hr = DIT ? t : k - 1 - t;  // half-span in tile rows
    const unsigned lg_h = lg_hr + lg_slow;       // half-span in array elements
    for (unsigned q = threadIdx.x; q < T / 2; q += blockDim.x) {
      const unsigned c = q & unsigned(L - 1);
      const unsigned rr = q >> lg_L;
      const unsigned row0 = ((rr >> lg_hr) << (lg_hr + 1)) + (rr & ((1u << lg_hr) - 1));
      const unsigned e0 = (row0 << lg_L) + c;
      const unsigned e1 = e0 + (1u << (lg_hr + lg_L));
      const size_t i0 = base + (size_t(row0) << lg_slow) + c;
      const size_t j = i0 & ((size_t(1) << lg_h) - 1);
      const fr_d w = twiddle(tw, j << (lg_n - 1 - lg_h), half_n, inverse);
      const fr_d u = sh[e0];
      fr_d v = sh[e1];
      if (DIT) {
        v = v * w;
        sh[e0] = u + v;
        sh[e1] = u - v;
      } else {
        sh[e0] = u + v;
        sh[e1] = (u - v) * w;
      }
    }
    __syncthreads();
  }

  for (unsigned e = threadIdx.x; e < T; e += blockDim.x)
    a[base + (size_t(e >> lg_L) << lg_slow) + (e & (L - 1))] = sh[e];
}

__device__ __forceinline__ size_t bitrev(size_t i, unsigned lg) {
  return lg == 0 ? 0 : size_t(__brevll((unsigned long long)i) >> (64 - lg));
}

__global__ void bitrev_kernel(fr_d* a, unsigned lg_n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= (size_t(1) << lg_n)) return;
  const size_t r = bitrev(i, lg_n);
  if (i < r) {
    const fr_d t = a[i];
    a[i] = a[r];
    a[r] = t;
  }
}

/// a[p] *= hi[i >> lg_lo]·lo[i mod 2^lg_lo], i = the logical index of position p.
__global__ void scale_kernel(fr_d* a, unsigned lg_n, const fr_d* hi, const fr_d* lo, unsigned lg_lo,
                             bool reversed) {
  const size_t p = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= (size_t(1) << lg_n)) return;
  const size_t i = reversed ? bitrev(p, lg_n) : p;
  a[p] = a[p] * (hi[i >> lg_lo] * lo[i & ((size_t(1) << lg_lo) - 1)]);
}

__global__ void scale_const_kernel(fr_d* a, size_t n, fr_d c) {
  const size_t p = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p < n) a[p] = a[p] * c;
}

/// out[i] = hi[i >> lg_lo]·lo[i mod 2^lg_lo] for i < n.
__global__ void expand_kernel(fr_d* out, size_t n, const fr_d* hi, const fr_d* lo, unsigned lg_lo) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hi[i >> lg_lo] * lo[i & ((size_t(1) << lg_lo) - 1)];
}

unsigned blocks_for(size_t n, unsigned threads) {
  return unsigned((n + threads - 1) / threads);
}

/// Two tables whose products give x^i·s for i < 2^lg: lo[j] = x^j (j < 2^lg_lo) and
/// hi[j] = s·x^(j·2^lg_lo).
struct split_powers {
  device_buffer<fr_d> lo, hi;
  unsigned lg_lo = 0;

  split_powers(fr_t x, unsigned lg, fr_t s, const stream& strm) {
    lg_lo = (lg + 1) / 2;
    std::vector<fr_t> l(size_t(1) << lg_lo), h(size_t(1) << (lg - lg_lo));
    fr_t acc = fr_t::one();
    for (auto& v : l) {
      v = acc;
      acc *= x;
    }
    // acc = x^(2^lg_lo) now
    fr_t acc_h = s;
    for (auto& v : h) {
      v = acc_h;
      acc_h *= acc;
    }
    lo = device_buffer<fr_d>(l.size());
    hi = device_buffer<fr_d>(h.size());
    lo.upload(l.data(), l.size(), strm);
    hi.upload(h.data(), h.size(), strm);
  }
};

struct tables_t {
  device_buffer<fr_d> tw;  // ω^i, i < m/2
  std::unique_ptr<split_powers> coset, icoset;
  fr_t size_inv;
};

struct pass_t {
  unsigned lg_slow, k, lg_tile;
};

/// Passes in DIF order (largest span first). The last pass does the lowest min(10, lg) stages on
/// contiguous tiles; the stages above it are split evenly into passes of at most 10.
std::vector<pass_t> plan(unsigned lg_n) {
  std::vector<pass_t> p;
  if (lg_n == 0) return p;
  const unsigned last = lg_n < MAX_TILE_LG ? lg_n : MAX_TILE_LG;
  const unsigned rem = lg_n - last;
  const unsigned count = (rem + MAX_TILE_LG - 1) / MAX_TILE_LG;
  unsigned done = 0;
  for (unsigned i = 0; i < count; ++i) {
    const unsigned k = rem / count + (i < rem % count ? 1 : 0);
    p.push_back({lg_n - done - k, k, MAX_TILE_LG});
    done += k;
  }
  p.push_back({0, last, last});
  return p;
}

/// The tables of one domain size, built on `strm` and ready for every stream when returned (the
/// build waits for its stream: this happens once per size and context).
std::shared_ptr<tables_t> build_tables(const domain_t& d, const stream& strm) {
  cudaStream_t st = strm.get();
  auto t = std::make_shared<tables_t>();
  const unsigned lg = d.log_size();
  const unsigned lg_half = lg == 0 ? 0 : lg - 1;
  split_powers w(d.omega(), lg_half, fr_t::one(), strm);
  t->tw = device_buffer<fr_d>(size_t(1) << lg_half);
  expand_kernel<<<blocks_for(t->tw.size(), 256), 256, 0, st>>>(t->tw.data(), t->tw.size(),
                                                               w.hi.data(), w.lo.data(), w.lg_lo);
  CUZK_CUDA_LAUNCH_OK();
  t->coset = std::make_unique<split_powers>(d.coset_gen(), lg, fr_t::one(), strm);
  t->icoset = std::make_unique<split_powers>(d.coset_gen_inv(), lg, d.size_inv(), strm);
  t->size_inv = d.size_inv();
  strm.synchronize();
  return t;
}

/// The context's tables for d's size (one per size, owned by the context).
const tables_t& tables_for(device_context& ctx, const domain_t& d, const stream& strm) {
  return ctx.cached<tables_t>(d.log_size(), [&] { return build_tables(d, strm); });
}

void run_passes(fr_d* a, const fr_d* tw, unsigned lg_n, bool dit, bool inverse, cudaStream_t st) {
  std::vector<pass_t> p = plan(lg_n);
  if (dit) std::reverse(p.begin(), p.end());
  for (const pass_t& s : p) {
    const unsigned threads = std::min(512u, (1u << s.lg_tile) / 2);
    const unsigned blocks = unsigned((size_t(1) << lg_n) >> s.lg_tile);
    if (dit) {
      ntt_pass<true><<<blocks, threads, 0, st>>>(a, tw, lg_n, s.lg_slow, s.k, s.lg_tile, inverse);
    } else {
      ntt_pass<false><<<blocks, threads, 0, st>>>(a, tw, lg_n, s.lg_slow, s.k, s.lg_tile, inverse);
    }
    CUZK_CUDA_LAUNCH_OK();
  }
}

void bit_reverse_device(fr_d* a, unsigned lg_n, cudaStream_t st) {
  if (lg_n == 0) return;
  bitrev_kernel<<<blocks_for(size_t(1) << lg_n, 256), 256, 0, st>>>(a, lg_n);
  CUZK_CUDA_LAUNCH_OK();
}

}  // namespace

void transform_device(device_context& ctx, const stream& strm, const domain_t& d,
                      fr_t* d_a_host_type, ntt_kind kind, ntt_order order) {
  device_scope scope(ctx);
  cudaStream_t st = strm.get();
  fr_d* a = reinterpret_cast<fr_d*>(d_a_host_type);
  const tables_t& t = tables_for(ctx, d, strm);
  const unsigned lg = d.log_size();
  const size_t n = d.size();
  const bool in_rev = order == ntt_order::rn || order == ntt_order::rr;
  const bool out_rev = order == ntt_order::nr || order == ntt_order::rr;
  const bool inverse = kind == ntt_kind::ifft || kind == ntt_kind::icoset_fft;

  if (kind == ntt_kind::coset_fft) {
    scale_kernel<<<blocks_for(n, 256), 256, 0, st>>>(a, lg, t.coset->hi.data(), t.coset->lo.data(),
                                                     t.coset->lg_lo, in_rev);
    CUZK_CUDA_LAUNCH_OK();
  }
  // nn: DIF + permutation; nr: DIF; rn: DIT; rr: permutation + DIF.
  switch (order) {
    case ntt_order::nn:
      run_passes(a, t.tw.data(), lg, false, inverse, st);
      bit_reverse_device(a, lg, st);
      break;
    case ntt_order::nr:
      run_passes(a, t.tw.data(), lg, false, inverse, st);
      break;
    case ntt_order::rn:
      run_passes(a, t.tw.data(), lg, true, inverse, st);
      break;
    case ntt_order::rr:
      bit_reverse_device(a, lg, st);
      run_passes(a, t.tw.data(), lg, false, inverse, st);
      break;
  }
  if (kind == ntt_kind::ifft) {
    fr_d c;
    static_assert(sizeof(c) == sizeof(t.size_inv));
    memcpy(&c, &t.size_inv, sizeof(c));
    scale_const_kernel<<<blocks_for(n, 256), 256, 0, st>>>(a, n, c);
    CUZK_CUDA_LAUNCH_OK();
  } else if (kind == ntt_kind::icoset_fft) {
    scale_kernel<<<blocks_for(n, 256), 256, 0, st>>>(a, lg, t.icoset->hi.data(),
                                                     t.icoset->lo.data(), t.icoset->lg_lo, out_rev);
    CUZK_CUDA_LAUNCH_OK();
  }
}

void transform(device_context& ctx, const stream& strm, const domain_t& d, std::span<fr_t> a,
               ntt_kind kind, ntt_order order) {
  if (a.size() != d.size()) {
    precondition_failed(__func__, "%zu elements for a domain of %llu", a.size(),
                        (unsigned long long)d.size());
  }
  device_scope scope(ctx);
  device_buffer<fr_t> buf(d.size());
  buf.upload(a.data(), d.size(), strm);
  transform_device(ctx, strm, d, buf.data(), kind, order);
  buf.download(a.data(), d.size(), strm);
}

}  // namespace cuzk::ntt::gpu
