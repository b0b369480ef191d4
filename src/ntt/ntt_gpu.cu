// SPDX-License-Identifier: Apache-2.0
// GPU NTT over Fr. One kernel does up to 10 radix-2 stages of a 2^lg_tile-element tile in shared
// memory (index and twiddle arithmetic: ntt_tile.hpp, shared with the CPU model in
// ntt_tile_test.cpp). 2^27 = 3 passes (9 + 8 + 10 stages), each one read and one write of the
// array. Twiddles: the stages of a pass read a table of at most 512 roots of order ≤ 2^10; the
// four-step twist between passes is one product per element of two √m-sized tables (one load from
// a table of N' powers in a pass whose block N' ≤ 2^18). Coset factors
// g^i (g^-i·m^-1 for the inverse) and m^-1 are applied while the first (last) pass loads (stores).
// The prover's chain (coset_evaluations, coset_quotient) pairs a DIF inverse with a DIT forward
// transform so the coset values need no bit reversal, folds m^-1 into the coset factors, and
// computes the quotient's numerator a·b − c in the first pass's load.
// The tile lives in shared memory as 8 planes of 32-bit words, padded by one word per 32 elements,
// so the strided accesses of the butterflies hit distinct banks.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "base/check.hpp"
#include "ff/mont_device.cuh"
#include "gpu/device_memory.cuh"
#include "ntt/ntt_gpu.hpp"
#include "ntt/ntt_tile.hpp"

namespace cuzk::ntt::cuda {
namespace {

using cuzk::gpu::device_buffer;
using cuzk::gpu::device_context;
using cuzk::gpu::device_scope;
using cuzk::gpu::stream;
using ff::fr_t;
using fr_d = ff::device::fr_d;
using tile::pass_t;

constexpr unsigned TILE = 1u << tile::MAX_TILE_LG;
constexpr unsigned PLANE = TILE + TILE / 32;  // one pad word per 32 elements
constexpr unsigned WORDS = 8;                 // 32-bit words of an Fr element
static_assert(sizeof(fr_d) == WORDS * 4);

/// The tile in shared memory: word j of element e at plane j, slot e + e/32.
struct shared_tile {
  uint32_t (*plane)[PLANE];
  __device__ __forceinline__ fr_d get(unsigned e) const {
    const unsigned s = e + (e >> 5);
    fr_d r;
#pragma unroll
    for (unsigned j = 0; j < WORDS; ++j) r.w[j] = plane[j][s];
    return r;
  }
  __device__ __forceinline__ void set(unsigned e, const fr_d& v) const {
    const unsigned s = e + (e >> 5);
#pragma unroll
    for (unsigned j = 0; j < WORDS; ++j) plane[j][s] = v.w[j];
  }
};

struct inner_ref {
  const fr_d* table;
  __device__ __forceinline__ fr_d operator()(unsigned i) const { return fr_d::load_ro(table + i); }
};

/// s·x^i from split_powers tables on the device.
struct split_d {
  const fr_d* hi = nullptr;
  const fr_d* lo = nullptr;
  unsigned lg_lo = 0;
  __device__ __forceinline__ fr_d at(size_t i) const {
    return fr_d::load_ro(hi + (i >> lg_lo)) * fr_d::load_ro(lo + (i & ((size_t(1) << lg_lo) - 1)));
  }
};

/// The twist of one pass: from its single table (tile::single_twist: ω_N'^j) when it has one,
/// else from the split tables of ω^e.
struct twist_d {
  split_d split;
  const fr_d* single = nullptr;
  __device__ __forceinline__ fr_d at(const pass_t& p, unsigned lg_n, size_t b, unsigned e) const {
    if (single != nullptr) return fr_d::load_ro(single + tile::twist_step(p, b, e));
    return split.at(tile::twist_exponent(p, lg_n, b, e));
  }
};

/// A diagonal factor applied while a pass loads (pre) or stores (post) position i: none, a
/// constant, table.at(i) (a bit-reversed array's factors come from a table built bit-reversed,
/// tile::split_powers_bit_reversed), or (pre only) the quotient's numerator x·b[i] − c[i].
struct scale_d {
  enum mode_t : unsigned { none, constant, split, product_minus } mode = none;
  fr_d c{};
  split_d table;
  const fr_d* mul = nullptr;  // product_minus: b
  const fr_d* sub = nullptr;  // product_minus: c
  __device__ __forceinline__ fr_d apply(const fr_d& x, size_t i) const {
    if (mode == constant) return x * c;
    if (mode == product_minus) {
      return (mul != nullptr ? x * fr_d::load_ro(mul + i) : x) - fr_d::load_ro(sub + i);
    }
    return x * table.at(i);
  }
};

/// Shared memory per SM, KiB, of the architecture this device pass compiles for (CUDA C++
/// Programming Guide, "Technical Specifications per Compute Capability"; the card's own figure is
/// cudaDeviceProp::sharedMemPerMultiprocessor). The host pass has no use for it.
constexpr unsigned shared_kib_per_sm() {
#if !defined(__CUDA_ARCH__)
  return 228;
#elif __CUDA_ARCH__ < 800
  return 64;  // sm_75
#elif __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 870
  return 164;  // A100, Orin
#elif __CUDA_ARCH__ < 900
  return 100;  // sm_86, sm_89: RTX 30xx / 40xx, A-series, L4, L40S
#elif __CUDA_ARCH__ < 1200
  return 228;  // sm_90, sm_100, sm_110: H100, H200, B200
#else
  return 100;  // sm_120: RTX 50xx, RTX PRO Blackwell
#endif
}

/// Resident blocks of 256 threads per SM the pass kernel is compiled for. Without it the DIT
/// instantiation took 102 registers: two blocks per SM against DIF's three (78 registers), a
/// third fewer warps to hide the Fr products' latency, and 14 % more time per transform
/// (bench/results/h200/2026-12-03-ntt-occupancy.md). Three fit both in 80 registers, no spills.
/// A block holds its tile (33 KiB) and the 1 KiB the runtime reserves per block: three of them
/// fit the shared memory of sm_80 and sm_90, two that of sm_86, sm_89 and sm_120 (one of sm_75),
/// and the bound asks no more blocks than fit, so there registers are not given up for blocks
/// that cannot be resident (a bound of three made the DIT pass spill at 80 registers on sm_86).
constexpr unsigned PASS_BLOCKS_FIT = shared_kib_per_sm() * 1024 / (WORDS * PLANE * 4 + 1024);
constexpr unsigned PASS_MIN_BLOCKS = PASS_BLOCKS_FIT < 3 ? PASS_BLOCKS_FIT : 3;
static_assert(PASS_MIN_BLOCKS >= 1);

template <bool DIT>
__global__ void __launch_bounds__(TILE / 4, PASS_MIN_BLOCKS)
    ntt_pass_kernel(fr_d* a, pass_t p, unsigned lg_n, const fr_d* inner, unsigned lg_inner,
                    twist_d twist, scale_d pre, scale_d post) {
  __shared__ uint32_t sh[WORDS][PLANE];
  shared_tile tl{sh};
  const inner_ref in{inner};
  const size_t b = blockIdx.x;
  const unsigned T = 1u << p.lg_tile;
  const unsigned t = threadIdx.x;
  const unsigned nt = blockDim.x;

  for (unsigned e = t; e < T; e += nt) {
    const size_t i = tile::element_index(p, b, e);
    fr_d x = fr_d::load(a + i);
    if (pre.mode != scale_d::none) x = pre.apply(x, i);
    if (DIT && p.lg_slow != 0) x = x * twist.at(p, lg_n, b, e);
    tl.set(e, x);
  }
  __syncthreads();
  const unsigned steps = tile::step_count(p);
  for (unsigned s = 0; s < steps; ++s) {
    tile::run_step<DIT, fr_d>(tl, in, p, lg_inner, s, t);
    __syncthreads();
  }
  for (unsigned e = t; e < T; e += nt) {
    const size_t i = tile::element_index(p, b, e);
    fr_d x = tl.get(e);
    if (!DIT && p.lg_slow != 0) x = x * twist.at(p, lg_n, b, e);
    if (post.mode != scale_d::none) x = post.apply(x, i);
    x.store(a + i);
  }
}

__global__ void bitrev_kernel(fr_d* a, unsigned lg_n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= (size_t(1) << lg_n)) return;
  const size_t r = tile::bitrev(i, lg_n);
  if (i < r) {
    const fr_d t = fr_d::load(a + i);
    fr_d::load(a + r).store(a + i);
    t.store(a + r);
  }
}

unsigned blocks_for(size_t n, unsigned threads) {
  return unsigned((n + threads - 1) / threads);
}

fr_d to_device(const fr_t& x) {
  fr_d r;
  static_assert(sizeof(r) == sizeof(x));
  memcpy(&r, &x, sizeof(r));
  return r;
}

/// device copy of a vector of fr_t as fr_d.
device_buffer<fr_d> upload(const std::vector<fr_t>& v, const stream& strm) {
  device_buffer<fr_d> d(v.size());
  d.upload(v.data(), v.size(), strm);
  return d;
}

struct split_powers {
  device_buffer<fr_d> lo, hi;
  unsigned lg_lo = 0;

  split_powers(const tile::split_powers_t& t, const stream& strm) {
    lo = upload(t.lo, strm);
    hi = upload(t.hi, strm);
    lg_lo = t.lg_lo;
  }
  split_d view() const { return {hi.data(), lo.data(), lg_lo}; }
};

/// Tables of one size (√m-sized arrays, 2 MiB at 2^27, plus the single twist tables: 16 MiB). *_br:
/// at position i the factor of exponent bitrev(i), for the arrays a pass holds in bit-reversed
/// order.
struct tables_t {
  device_buffer<fr_d> inner_fwd, inner_inv;            // ω_(2^lg_inner)^±i, i < 2^(lg_inner-1)
  std::unique_ptr<split_powers> twist_fwd, twist_inv;  // ω^±e, e < m
  // The single twist tables ω_N'^±j of the passes with tile::single_twist, by log2 N'.
  std::map<unsigned, device_buffer<fr_d>> single_fwd, single_inv;
  std::unique_ptr<split_powers> coset, coset_br;    // g^i
  std::unique_ptr<split_powers> icoset, icoset_br;  // g^-i·m^-1
  std::unique_ptr<split_powers> coset_scaled_br;    // g^i·m^-1 (ifft's m^-1 folded in)
  std::unique_ptr<split_powers> quotient_br;        // g^-i·m^-1·(g^m − 1)^-1
  fr_t size_inv;
};

/// The tables of one domain size, built on `strm` and ready for every stream when returned (the
/// build waits for its stream: this happens once per size and context).
std::shared_ptr<tables_t> build_tables(const domain_t& d, const stream& strm) {
  auto t = std::make_shared<tables_t>();
  const unsigned lg = d.log_size();
  t->inner_fwd = upload(tile::inner_table(d.omega(), lg), strm);
  t->inner_inv = upload(tile::inner_table(d.omega_inv(), lg), strm);
  const auto natural = [&](const fr_t& x, const fr_t& s) {
    return std::make_unique<split_powers>(tile::split_powers(x, lg, s), strm);
  };
  const auto reversed = [&](const fr_t& x, const fr_t& s) {
    return std::make_unique<split_powers>(tile::split_powers_bit_reversed(x, lg, s), strm);
  };
  t->twist_fwd = natural(d.omega(), fr_t::one());
  t->twist_inv = natural(d.omega_inv(), fr_t::one());
  for (const pass_t& p : tile::plan(lg)) {
    if (!tile::single_twist(p)) continue;
    const unsigned lg_block = p.k + p.lg_slow;
    t->single_fwd[lg_block] = upload(tile::single_twist_table(d.omega(), lg, lg_block), strm);
    t->single_inv[lg_block] = upload(tile::single_twist_table(d.omega_inv(), lg, lg_block), strm);
  }
  t->coset = natural(d.coset_gen(), fr_t::one());
  t->coset_br = reversed(d.coset_gen(), fr_t::one());
  t->icoset = natural(d.coset_gen_inv(), d.size_inv());
  t->icoset_br = reversed(d.coset_gen_inv(), d.size_inv());
  t->coset_scaled_br = reversed(d.coset_gen(), d.size_inv());
  t->quotient_br = reversed(d.coset_gen_inv(), d.size_inv() * d.z_coset_inv());
  t->size_inv = d.size_inv();
  strm.synchronize();
  return t;
}

/// The context's tables for d's size (one per size, owned by the context).
const tables_t& tables_for(device_context& ctx, const domain_t& d, const stream& strm) {
  return ctx.cached<tables_t>(d.log_size(), [&] { return build_tables(d, strm); });
}

/// The passes of one transform; `pre` is applied as the first pass loads, `post` as the last
/// stores.
void run_passes(fr_d* a, const tables_t& tb, unsigned lg_n, bool dit, bool inverse,
                const scale_d& pre, const scale_d& post, cudaStream_t st) {
  std::vector<pass_t> p = tile::plan(lg_n);
  if (dit) std::reverse(p.begin(), p.end());
  const fr_d* inner = (inverse ? tb.inner_inv : tb.inner_fwd).data();
  const split_d split = (inverse ? tb.twist_inv : tb.twist_fwd)->view();
  const auto& singles = inverse ? tb.single_inv : tb.single_fwd;
  const unsigned lg_inner = tile::inner_log(lg_n);
  for (size_t i = 0; i < p.size(); ++i) {
    const pass_t& s = p[i];
    const scale_d first = i == 0 ? pre : scale_d{};
    const scale_d last = i + 1 == p.size() ? post : scale_d{};
    twist_d twist{split};
    if (tile::single_twist(s)) twist.single = singles.at(s.k + s.lg_slow).data();
    const unsigned threads = tile::threads_per_tile(s);
    const unsigned blocks = unsigned(tile::tiles(s, lg_n));
    if (dit) {
      ntt_pass_kernel<true>
          <<<blocks, threads, 0, st>>>(a, s, lg_n, inner, lg_inner, twist, first, last);
    } else {
      ntt_pass_kernel<false>
          <<<blocks, threads, 0, st>>>(a, s, lg_n, inner, lg_inner, twist, first, last);
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
  const bool inverse = kind == ntt_kind::ifft || kind == ntt_kind::icoset_fft;
  // nn: DIF + permutation; nr: DIF; rn: DIT; rr: permutation + DIF. The passes read bit-reversed
  // input only under DIT and write bit-reversed output only under DIF.
  const bool dit = order == ntt_order::rn;
  scale_d pre, post;
  if (kind == ntt_kind::coset_fft) {
    pre.mode = scale_d::split;
    pre.table = (dit ? t.coset_br : t.coset)->view();
  } else if (kind == ntt_kind::ifft) {
    post.mode = scale_d::constant;
    post.c = to_device(t.size_inv);
  } else if (kind == ntt_kind::icoset_fft) {
    post.mode = scale_d::split;
    post.table = (dit ? t.icoset : t.icoset_br)->view();
  }
  if (order == ntt_order::rr) bit_reverse_device(a, lg, st);
  run_passes(a, t, lg, dit, inverse, pre, post, st);
  if (order == ntt_order::nn) bit_reverse_device(a, lg, st);
}

void coset_evaluations(device_context& ctx, const stream& strm, const domain_t& d, fr_t* d_a) {
  device_scope scope(ctx);
  fr_d* a = reinterpret_cast<fr_d*>(d_a);
  const tables_t& t = tables_for(ctx, d, strm);
  const unsigned lg = d.log_size();
  scale_d post;  // position i holds coefficient bitrev(i): times m^-1·g^bitrev(i)
  post.mode = scale_d::split;
  post.table = t.coset_scaled_br->view();
  run_passes(a, t, lg, /*dit=*/false, /*inverse=*/true, scale_d{}, post, strm.get());
  run_passes(a, t, lg, /*dit=*/true, /*inverse=*/false, scale_d{}, scale_d{}, strm.get());
}

void coset_quotient(device_context& ctx, const stream& strm, const domain_t& d, fr_t* d_a,
                    const fr_t* d_b, const fr_t* d_c) {
  device_scope scope(ctx);
  fr_d* a = reinterpret_cast<fr_d*>(d_a);
  const tables_t& t = tables_for(ctx, d, strm);
  const unsigned lg = d.log_size();
  scale_d pre;  // element-wise, so the order of the three arrays only has to agree
  pre.mode = scale_d::product_minus;
  pre.mul = reinterpret_cast<const fr_d*>(d_b);  // null: d_a holds A·B already
  pre.sub = reinterpret_cast<const fr_d*>(d_c);
  scale_d post;  // position i holds coefficient bitrev(i): times g^-bitrev(i)·m^-1·Z^-1
  post.mode = scale_d::split;
  post.table = t.quotient_br->view();
  run_passes(a, t, lg, /*dit=*/false, /*inverse=*/true, pre, post, strm.get());
  bit_reverse_device(a, lg, strm.get());
}

namespace {
__global__ void multiply_kernel(fr_d* a, const fr_d* b, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) (fr_d::load_ro(a + i) * fr_d::load_ro(b + i)).store(a + i);
}
}  // namespace

void coset_product(device_context& ctx, const stream& strm, const domain_t& d, fr_t* d_a,
                   const fr_t* d_b) {
  device_scope scope(ctx);
  const size_t n = d.size();
  multiply_kernel<<<unsigned((n + 255) / 256), 256, 0, strm.get()>>>(
      reinterpret_cast<fr_d*>(d_a), reinterpret_cast<const fr_d*>(d_b), n);
  CUZK_CUDA_LAUNCH_OK();
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

}  // namespace cuzk::ntt::cuda
