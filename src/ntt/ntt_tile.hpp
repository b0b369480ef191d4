// SPDX-License-Identifier: Apache-2.0
// The index and twiddle arithmetic of the GPU NTT's passes (ntt_gpu.cu), shared by the kernels and
// the CPU model that tests them (ntt_tile_test.cpp) so both run exactly the same formulas.
//
// A pass does k radix-2 stages on tiles of T = 2^lg_tile elements: 2^k rows S = 2^lg_slow apart in
// the array, each row L = 2^(lg_tile-k) consecutive columns. Within a block of N' = 2^(k+lg_slow)
// elements, element (row r, column c < S) sits at r·S + c. Four-step factorisation of the DIF
// butterfly twiddle ω_2h^(r'·S + c) (h = 2^lg_hr·S, r' = r mod 2^lg_hr) into
//   inner  ω_(2^(lg_hr+1))^r'  — a root of order ≤ 2^k: a table of 2^(k-1) entries, and
//   twist  ω_2h^c              — the same for both partners, so it commutes with the later stages
//                                of the pass and all of a pass's twists fold into one factor
//                                ω_N'^(c·bitrev_k(r)) per element, applied after the pass's stages
//                                (DIF; r is then the output row). Gentleman–Sande (DIF) runs the
//                                passes from the largest span down and maps natural to bit-reversed
//                                order; Cooley–Tukey (DIT) is its transpose: passes in reverse, the
//                                twist applied before the stages, stages in reverse, same twiddles.
// Twists are ω^e with e = c·bitrev_k(r)·m/N' < m, read as hi[e >> lg_lo]·lo[e mod 2^lg_lo] from two
// √m-sized tables: no table of m/2 twiddles.
//
// Stages run two at a time (radix 4: a thread holds 4 elements in registers, one exchange through
// the tile per two stages) and one at a time when one is left.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/hd.hpp"
#include "ff/fields.hpp"

namespace cuzk::ntt::tile {

inline constexpr unsigned MAX_TILE_LG = 10;  ///< 1024 elements × 32 B = 32 KiB of shared memory

struct pass_t {
  unsigned lg_slow;  ///< log2 of the row stride S
  unsigned k;        ///< stages (rows 2^k)
  unsigned lg_tile;  ///< log2 of the tile's element count
};

/// Passes in DIF order (largest span first). The last pass does the lowest min(10, lg) stages on
/// contiguous tiles; the stages above it are split evenly into passes of at most 10.
inline std::vector<pass_t> plan(unsigned lg_n) {
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

/// Two tables whose products give s·x^i for i < 2^lg: lo[j] = x^j (j < 2^lg_lo) and
/// hi[j] = s·x^(j·2^lg_lo), lg_lo = ⌈lg/2⌉; s·x^i = hi[i >> lg_lo]·lo[i mod 2^lg_lo].
struct split_powers_t {
  std::vector<ff::fr_t> lo, hi;
  unsigned lg_lo = 0;
  ff::fr_t at(size_t i) const { return hi[i >> lg_lo] * lo[i & ((size_t(1) << lg_lo) - 1)]; }
};
inline split_powers_t split_powers(const ff::fr_t& x, unsigned lg, const ff::fr_t& s) {
  split_powers_t t;
  t.lg_lo = (lg + 1) / 2;
  t.lo.resize(size_t(1) << t.lg_lo);
  t.hi.resize(size_t(1) << (lg - t.lg_lo));
  ff::fr_t acc = ff::fr_t::one();
  for (auto& v : t.lo) {
    v = acc;
    acc *= x;
  }
  ff::fr_t acc_hi = s;  // acc = x^(2^lg_lo) now
  for (auto& v : t.hi) {
    v = acc_hi;
    acc_hi *= acc;
  }
  return t;
}

/// log2 of the inner table's root order for a transform of 2^lg_n: every pass has k ≤ this.
inline unsigned inner_log(unsigned lg_n) {
  return lg_n < MAX_TILE_LG ? lg_n : MAX_TILE_LG;
}
/// The inner table ω_(2^lg_inner)^i, i < 2^(lg_inner-1), from ω of order 2^lg_n (ω^-1 for the
/// inverse transform).
inline std::vector<ff::fr_t> inner_table(const ff::fr_t& omega, unsigned lg_n) {
  const unsigned lg_inner = inner_log(lg_n);
  ff::fr_t root = omega;
  for (unsigned i = lg_inner; i < lg_n; ++i) root = root * root;
  std::vector<ff::fr_t> t(lg_inner == 0 ? 1 : size_t(1) << (lg_inner - 1));
  ff::fr_t acc = ff::fr_t::one();
  for (auto& v : t) {
    v = acc;
    acc *= root;
  }
  return t;
}

CUZK_HD_INLINE size_t bitrev(size_t i, unsigned lg) {
  if (lg == 0) return 0;
#if defined(__CUDA_ARCH__)
  return size_t(__brevll((unsigned long long)i) >> (64 - lg));
#else
  size_t r = 0;
  for (unsigned b = 0; b < lg; ++b, i >>= 1) r = (r << 1) | (i & 1);
  return r;
#endif
}

/// The powers at bit-reversed exponents, for a pass storing (or loading) position i of a
/// bit-reversed array: hi[i >> lg_lo]·lo[i mod 2^lg_lo] = s·x^bitrev_lg(i). With
/// i = i_hi·2^lg_lo + i_lo, bitrev_lg(i) = bitrev_lg_lo(i_lo)·2^(lg − lg_lo) +
/// bitrev_(lg−lg_lo)(i_hi), so lo[j] = y^bitrev_lg_lo(j) with y = x^(2^(lg − lg_lo)), and hi[j] =
/// s·x^bitrev_(lg−lg_lo)(j): neighbouring positions read neighbouring entries, where split_powers
/// read at bitrev(i) scatters a warp over the hi table.
inline split_powers_t split_powers_bit_reversed(const ff::fr_t& x, unsigned lg, const ff::fr_t& s) {
  split_powers_t t;
  t.lg_lo = (lg + 1) / 2;
  const unsigned lg_hi = lg - t.lg_lo;
  ff::fr_t y = x;
  for (unsigned b = 0; b < lg_hi; ++b) y = y * y;
  const split_powers_t lo = split_powers(y, t.lg_lo, ff::fr_t::one());  // at(j) = y^j
  const split_powers_t hi = split_powers(x, lg_hi, s);                  // at(j) = s·x^j
  t.lo.resize(size_t(1) << t.lg_lo);
  for (size_t j = 0; j < t.lo.size(); ++j) t.lo[j] = lo.at(bitrev(j, t.lg_lo));
  t.hi.resize(size_t(1) << lg_hi);
  for (size_t j = 0; j < t.hi.size(); ++j) t.hi[j] = hi.at(bitrev(j, lg_hi));
  return t;
}

/// Tiles per pass and threads per tile (each thread holds 4 elements in a radix-4 step).
CUZK_HD_INLINE size_t tiles(const pass_t& p, unsigned lg_n) {
  return (size_t(1) << lg_n) >> p.lg_tile;
}
CUZK_HD_INLINE unsigned threads_per_tile(const pass_t& p) {
  return p.lg_tile >= 2 ? 1u << (p.lg_tile - 2) : 1u;
}

/// Array index of tile element e (row e >> lg_L, column e mod L) of tile b.
CUZK_HD_INLINE size_t element_index(const pass_t& p, size_t b, unsigned e) {
  const unsigned lg_L = p.lg_tile - p.k;
  const size_t chunks = (size_t(1) << p.lg_slow) >> lg_L;  // column chunks per block
  const size_t base = ((b / chunks) << (p.lg_slow + p.k)) + ((b % chunks) << lg_L);
  return base + (size_t(e >> lg_L) << p.lg_slow) + (e & ((1u << lg_L) - 1));
}

/// j in ω_N'^j (N' = 2^(k + lg_slow), the pass's block) of the twist of tile element e:
/// col·bitrev_k(r) < N' (0 in a pass with lg_slow = 0: no twist).
CUZK_HD_INLINE size_t twist_step(const pass_t& p, size_t b, unsigned e) {
  const unsigned lg_L = p.lg_tile - p.k;
  const size_t chunks = (size_t(1) << p.lg_slow) >> lg_L;
  const size_t col = ((b % chunks) << lg_L) + (e & ((1u << lg_L) - 1));
  return col * bitrev(e >> lg_L, p.k);
}
/// e in ω^e (ω of order m = 2^lg_n) of the same twist: ω_N' = ω^(m/N').
CUZK_HD_INLINE size_t twist_exponent(const pass_t& p, unsigned lg_n, size_t b, unsigned e) {
  return twist_step(p, b, e) << (lg_n - p.k - p.lg_slow);
}

/// A pass whose block N' has at most 2^SINGLE_TWIST_LG elements reads its twists from one table
/// of the N' powers ω_N'^j (2^18 × 32 B = 8 MiB, L2-resident on the H200): one load per element
/// instead of two loads and a product from the split tables. At 2^27 the middle pass qualifies
/// (N' = 2^18), the first (N' = 2^27) does not.
inline constexpr unsigned SINGLE_TWIST_LG = 18;
CUZK_HD_INLINE bool single_twist(const pass_t& p) {
  return p.lg_slow != 0 && p.k + p.lg_slow <= SINGLE_TWIST_LG;
}
/// ω_N'^j for j < N' = 2^lg_block, from ω of order 2^lg_n.
inline std::vector<ff::fr_t> single_twist_table(const ff::fr_t& omega, unsigned lg_n,
                                                unsigned lg_block) {
  ff::fr_t root = omega;
  for (unsigned i = lg_block; i < lg_n; ++i) root = root * root;
  std::vector<ff::fr_t> t(size_t(1) << lg_block);
  ff::fr_t acc = ff::fr_t::one();
  for (auto& v : t) {
    v = acc;
    acc *= root;
  }
  return t;
}

/// Device bytes of one domain size's tables in ntt_gpu.cu (tables_t, built once per size and
/// device context): the two inner tables, eight split power tables (twists ω^±e, cosets g^±i in
/// natural and bit-reversed order, the scaled coset and the quotient's), and the single twist
/// tables ω_N'^±j of each block size N' a pass reads them for. 2^27: 22.0 MiB.
inline size_t device_table_bytes(unsigned lg) {
  constexpr size_t fr_bytes = 32;
  const unsigned lg_inner = inner_log(lg), lg_lo = (lg + 1) / 2;
  size_t elems = 2 * (lg_inner == 0 ? 1 : size_t(1) << (lg_inner - 1));
  elems += 8 * ((size_t(1) << lg_lo) + (size_t(1) << (lg - lg_lo)));
  std::vector<unsigned> blocks;
  for (const pass_t& p : plan(lg)) {
    if (!single_twist(p)) continue;
    const unsigned lg_block = p.k + p.lg_slow;
    if (std::find(blocks.begin(), blocks.end(), lg_block) == blocks.end()) {
      blocks.push_back(lg_block);
      elems += 2 * (size_t(1) << lg_block);
    }
  }
  return elems * fr_bytes;
}

/// Index into the inner table (ω_(2^lg_inner)^i, i < 2^(lg_inner-1)) of the twiddle of the
/// butterfly whose top row is `row0` in the stage of half-span 2^lg_hr rows.
CUZK_HD_INLINE unsigned inner_index(unsigned row0, unsigned lg_hr, unsigned lg_inner) {
  return (row0 & ((1u << lg_hr) - 1)) << (lg_inner - 1 - lg_hr);
}

/// Inserts `bits` zero bits into x at bit position `at`.
CUZK_HD_INLINE unsigned spread(unsigned x, unsigned at, unsigned bits) {
  return ((x >> at) << (at + bits)) | (x & ((1u << at) - 1));
}

#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
/// One radix-2 stage (half-span 2^lg_hr rows) for thread `t` of the tile's threads: butterflies
/// t, t + threads, … of the T/2. Tile: get(e)/set(e, v); inner(i) reads the inner table.
template <bool DIT, class F, class Tile, class Inner>
CUZK_HD_INLINE void radix2_step(Tile& tl, const Inner& inner, const pass_t& p, unsigned lg_inner,
                                unsigned lg_hr, unsigned t) {
  const unsigned lg_L = p.lg_tile - p.k;
  const unsigned half = 1u << (p.lg_tile - 1);
  for (unsigned q = t; q < half; q += threads_per_tile(p)) {
    const unsigned c = q & ((1u << lg_L) - 1);
    const unsigned row0 = spread(q >> lg_L, lg_hr, 1);
    const unsigned e0 = (row0 << lg_L) + c;
    const unsigned e1 = e0 + (1u << (lg_hr + lg_L));
    F u = tl.get(e0), v = tl.get(e1);
    if (DIT) {
      if (lg_hr != 0) v = v * inner(inner_index(row0, lg_hr, lg_inner));
      tl.set(e0, u + v);
      tl.set(e1, u - v);
    } else {
      tl.set(e0, u + v);
      v = u - v;
      if (lg_hr != 0) v = v * inner(inner_index(row0, lg_hr, lg_inner));
      tl.set(e1, v);
    }
  }
}

#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
/// Two radix-2 stages, half-spans 2^(a+1) and 2^a rows (DIF in that order, DIT the reverse), with
/// the four elements of rows R, R + 2^a, R + 2^(a+1), R + 3·2^a in registers.
template <bool DIT, class F, class Tile, class Inner>
CUZK_HD_INLINE void radix4_step(Tile& tl, const Inner& inner, const pass_t& p, unsigned lg_inner,
                                unsigned a, unsigned t) {
  const unsigned lg_L = p.lg_tile - p.k;
  const unsigned quarter = p.lg_tile >= 2 ? 1u << (p.lg_tile - 2) : 0;
  for (unsigned q = t; q < quarter; q += threads_per_tile(p)) {
    const unsigned c = q & ((1u << lg_L) - 1);
    const unsigned r = spread(q >> lg_L, a, 2);
    const unsigned e0 = (r << lg_L) + c;
    const unsigned s0 = 1u << (a + lg_L), s1 = 2u << (a + lg_L);
    F x0 = tl.get(e0), x1 = tl.get(e0 + s0), x2 = tl.get(e0 + s1), x3 = tl.get(e0 + s0 + s1);
    const F w_hi0 = inner(inner_index(r, a + 1, lg_inner));
    const F w_hi1 = inner(inner_index(r + (1u << a), a + 1, lg_inner));
    if (DIT) {
      if (a != 0) {
        const F w_lo = inner(inner_index(r, a, lg_inner));
        x1 = x1 * w_lo;
        x3 = x3 * w_lo;
      }
      F y = x0 + x1;
      x1 = x0 - x1;
      x0 = y;
      y = x2 + x3;
      x3 = x2 - x3;
      x2 = y;
      x2 = x2 * w_hi0;
      x3 = x3 * w_hi1;
      y = x0 + x2;
      x2 = x0 - x2;
      x0 = y;
      y = x1 + x3;
      x3 = x1 - x3;
      x1 = y;
    } else {
      F y = x0 + x2;
      x2 = (x0 - x2) * w_hi0;
      x0 = y;
      y = x1 + x3;
      x3 = (x1 - x3) * w_hi1;
      x1 = y;
      y = x0 + x1;
      x1 = x0 - x1;
      x0 = y;
      y = x2 + x3;
      x3 = x2 - x3;
      x2 = y;
      if (a != 0) {
        const F w_lo = inner(inner_index(r, a, lg_inner));
        x1 = x1 * w_lo;
        x3 = x3 * w_lo;
      }
    }
    tl.set(e0, x0);
    tl.set(e0 + s0, x1);
    tl.set(e0 + s1, x2);
    tl.set(e0 + s0 + s1, x3);
  }
}

/// The stage schedule of a pass: step i does `two ? 2 : 1` stages with the lowest half-span
/// 2^low rows. DIF runs from the top stage down, DIT from stage 0 up; pairs are formed from the
/// top (DIF) so that a lone stage is the last one, and DIT mirrors that exactly.
struct step_t {
  unsigned low;
  bool two;
};
CUZK_HD_INLINE unsigned step_count(const pass_t& p) {
  return (p.k + 1) / 2;
}
/// Step i in DIF order; DIT runs step_count − 1 − i … 0 with the stages of each reversed.
CUZK_HD_INLINE step_t dif_step(const pass_t& p, unsigned i) {
  const unsigned top = p.k - 2 * i;  // stages top-1, top-2 …
  if (top >= 2) return {top - 2, true};
  return {0, false};
}

#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
/// Step i (in execution order) of a pass for thread t.
template <bool DIT, class F, class Tile, class Inner>
CUZK_HD_INLINE void run_step(Tile& tl, const Inner& inner, const pass_t& p, unsigned lg_inner,
                             unsigned i, unsigned t) {
  const step_t s = dif_step(p, DIT ? step_count(p) - 1 - i : i);
  if (s.two) {
    radix4_step<DIT, F>(tl, inner, p, lg_inner, s.low, t);
  } else {
    radix2_step<DIT, F>(tl, inner, p, lg_inner, s.low, t);
  }
}

}  // namespace cuzk::ntt::tile
