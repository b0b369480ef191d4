// SPDX-License-Identifier: Apache-2.0
// Word-level Montgomery multiplication and squaring over n 32-bit words, written once as templates
// over an "ops" policy that supplies PTX-like primitives with an explicit carry flag (CC.CF). The
// device policy (ff/mont_device.cuh, device_ops) maps each primitive to one PTX instruction; the
// host policy here (emu_ops) emulates them with 64-bit arithmetic, so the exact instruction
// sequence the GPU runs is tested on the CPU (ff/mont_words_test.cpp). Valid C++20 and nvcc code.
#pragma once

#include <cstdint>

#include "base/hd.hpp"

namespace cuzk::ff::words {

// ---- primitive semantics (PTX ISA, "extended-precision integer arithmetic") -----------------
//
//  mul_lo(x,y)        lo32(x·y)                        CF untouched
//  mul_hi(x,y)        hi32(x·y)                        CF untouched
//  mad_lo_cc(x,y,c)   lo32(x·y) + c          CF := carry out
//  madc_lo_cc(x,y,c)  lo32(x·y) + c + CF     CF := carry out
//  mad_hi_cc(x,y,c)   hi32(x·y) + c          CF := carry out
//  madc_hi_cc(x,y,c)  hi32(x·y) + c + CF     CF := carry out
//  madc_hi(x,y,c)     hi32(x·y) + c + CF     carry out dropped
//  add_cc / addc_cc / addc     x + y (+ CF), same pattern
//  addc_wrap          x + y + CF, carry out dropped by design (the wrap of a modular add-back)
//  sub_cc / subc_cc / subc     x − y (− CF), CF := borrow out (PTX's view of CC.CF for sub)
//
// A primitive that drops its carry is only used where a bound proves the carry is zero; the
// emulation records a dropped nonzero carry in `lost` so the tests check every such bound.

/// Host emulation of the primitives; `cf` is CC.CF.
struct emu_ops {
  uint32_t cf = 0;
  bool lost = false;  ///< set when a carry-dropping primitive overflowed (a broken bound)

  static constexpr uint32_t lo(uint64_t v) { return uint32_t(v); }
  constexpr uint32_t set(uint64_t s) {
    cf = uint32_t(s >> 32);
    return uint32_t(s);
  }
  constexpr uint32_t drop(uint64_t s) {
    lost |= (s >> 32) != 0;
    return uint32_t(s);
  }
  static constexpr uint64_t prod(uint32_t x, uint32_t y) { return uint64_t(x) * y; }

  constexpr uint32_t mul_lo(uint32_t x, uint32_t y) const { return lo(prod(x, y)); }
  constexpr uint32_t mul_hi(uint32_t x, uint32_t y) const { return uint32_t(prod(x, y) >> 32); }
  constexpr uint32_t mad_lo_cc(uint32_t x, uint32_t y, uint32_t c) {
    return set(uint64_t(mul_lo(x, y)) + c);
  }
  constexpr uint32_t madc_lo_cc(uint32_t x, uint32_t y, uint32_t c) {
    return set(uint64_t(mul_lo(x, y)) + c + cf);
  }
  constexpr uint32_t mad_hi_cc(uint32_t x, uint32_t y, uint32_t c) {
    return set(uint64_t(mul_hi(x, y)) + c);
  }
  constexpr uint32_t madc_hi_cc(uint32_t x, uint32_t y, uint32_t c) {
    return set(uint64_t(mul_hi(x, y)) + c + cf);
  }
  constexpr uint32_t madc_hi(uint32_t x, uint32_t y, uint32_t c) {
    return drop(uint64_t(mul_hi(x, y)) + c + cf);
  }
  constexpr uint32_t add_cc(uint32_t x, uint32_t y) { return set(uint64_t(x) + y); }
  constexpr uint32_t addc_cc(uint32_t x, uint32_t y) { return set(uint64_t(x) + y + cf); }
  constexpr uint32_t addc(uint32_t x, uint32_t y) { return drop(uint64_t(x) + y + cf); }
  constexpr uint32_t addc_wrap(uint32_t x, uint32_t y) { return uint32_t(uint64_t(x) + y + cf); }
  constexpr uint32_t sub_cc(uint32_t x, uint32_t y) {
    const uint64_t d = uint64_t(x) - y;
    cf = uint32_t(d >> 63);
    return uint32_t(d);
  }
  constexpr uint32_t subc_cc(uint32_t x, uint32_t y) {
    const uint64_t d = uint64_t(x) - y - cf;
    cf = uint32_t(d >> 63);
    return uint32_t(d);
  }
  constexpr uint32_t subc(uint32_t x, uint32_t y) { return uint32_t(uint64_t(x) - y - cf); }
};

/// r = t − p if t >= p else t, for t < 2p: n subtractions, a borrow mask, n selects.
template <int n, class Ops>
CUZK_HD_INLINE void reduce_once(Ops& ops, uint32_t (&r)[n], const uint32_t (&t)[n],
                                const uint32_t (&p)[n]) {
  uint32_t s[n];
  s[0] = ops.sub_cc(t[0], p[0]);
  CUZK_UNROLL
  for (int i = 1; i < n; ++i) s[i] = ops.subc_cc(t[i], p[i]);
  const uint32_t borrow = ops.subc(0, 0);  // all ones when t < p
  CUZK_UNROLL
  for (int i = 0; i < n; ++i) r[i] = borrow ? t[i] : s[i];
}

/// How far a product is reduced. full: the result is < p (inputs < p). partial: the final
/// conditional subtraction is skipped, for inputs < 2p and a modulus with 4p < 2^(32n) (Fp of
/// BLS12-381, 4p ≈ 0.41·2^384; not Fr): a·b < 4p² < p·2^(32n), so the Montgomery result
/// (a·b + M·p)/2^(32n) < 4p²/2^(32n) + p < 2p and the running value of the split rows stays below
/// 3p (T' < T/2^32 + 2p + p) — the bounds the carry emulation checks on inputs up to 2p − 1.
enum class reduction { full, partial };

/// r = a + b mod m for a, b < m with 2m < 2^(32n) (m = p, or 2p for values kept below 2p).
template <int n, class Ops>
CUZK_HD_INLINE void add_mod(Ops& ops, uint32_t (&r)[n], const uint32_t (&a)[n],
                            const uint32_t (&b)[n], const uint32_t (&m)[n]) {
  uint32_t s[n];
  s[0] = ops.add_cc(a[0], b[0]);
  CUZK_UNROLL
  for (int i = 1; i < n - 1; ++i) s[i] = ops.addc_cc(a[i], b[i]);
  s[n - 1] = ops.addc(a[n - 1], b[n - 1]);  // a + b < 2m < 2^(32n): no carry out
  reduce_once<n>(ops, r, s, m);
}

/// r = a − b mod m for a, b < m: the difference, plus m when it borrowed.
template <int n, class Ops>
CUZK_HD_INLINE void sub_mod(Ops& ops, uint32_t (&r)[n], const uint32_t (&a)[n],
                            const uint32_t (&b)[n], const uint32_t (&m)[n]) {
  r[0] = ops.sub_cc(a[0], b[0]);
  CUZK_UNROLL
  for (int i = 1; i < n; ++i) r[i] = ops.subc_cc(a[i], b[i]);
  const uint32_t mask = ops.subc(0, 0);  // all ones when a < b
  r[0] = ops.add_cc(r[0], m[0] & mask);
  CUZK_UNROLL
  for (int i = 1; i < n - 1; ++i) r[i] = ops.addc_cc(r[i], m[i] & mask);
  r[n - 1] = ops.addc_wrap(r[n - 1], m[n - 1] & mask);  // the wrap back below m
}

/// The last step of a product: reduce_once for reduction::full, a copy for partial.
template <int n, reduction Rd, class Ops>
CUZK_HD_INLINE void finish_product(Ops& ops, uint32_t (&r)[n], const uint32_t (&s)[n],
                                   const uint32_t (&p)[n]) {
  if constexpr (Rd == reduction::full) {
    reduce_once<n>(ops, r, s, p);
  } else {
    CUZK_UNROLL
    for (int i = 0; i < n; ++i) r[i] = s[i];
  }
}

// ---- the previous device multiply (CIOS, one row = two 32-bit chains) ------------------------

/// t[0..n] += a·x as dmont_t::mul_cios does it: the n low halves as one chain into t[j], then the
/// n high halves as a second chain into t[j+1]. Kept to test that sequence on the CPU too.
template <int n, class Ops>
CUZK_HD_INLINE void cios_row(Ops& ops, uint32_t (&t)[n + 1], const uint32_t (&a)[n], uint32_t x) {
  t[0] = ops.mad_lo_cc(a[0], x, t[0]);
  CUZK_UNROLL
  for (int j = 1; j < n; ++j) t[j] = ops.madc_lo_cc(a[j], x, t[j]);
  t[n] = ops.addc(t[n], 0);
  t[1] = ops.mad_hi_cc(a[0], x, t[1]);
  CUZK_UNROLL
  for (int j = 1; j < n - 1; ++j) t[j + 1] = ops.madc_hi_cc(a[j], x, t[j + 1]);
  t[n] = ops.madc_hi(a[n - 1], x, t[n]);
}

/// a·b·2^(-32n) mod p, fully reduced: the dmont_t::mul_cios sequence (4n² + n multiplies).
template <int n, class Ops>
CUZK_HD_INLINE void mul_cios(Ops& ops, uint32_t (&r)[n], const uint32_t (&a)[n],
                             const uint32_t (&b)[n], const uint32_t (&p)[n], uint32_t m0) {
  uint32_t t[n + 1];
  CUZK_UNROLL
  for (int j = 0; j <= n; ++j) t[j] = 0;
  CUZK_UNROLL
  for (int i = 0; i < n; ++i) {
    cios_row<n>(ops, t, a, b[i]);
    const uint32_t m = t[0] * m0;
    cios_row<n>(ops, t, p, m);
    CUZK_UNROLL
    for (int j = 0; j < n; ++j) t[j] = t[j + 1];
    t[n] = 0;
  }
  uint32_t s[n];
  CUZK_UNROLL
  for (int j = 0; j < n; ++j) s[j] = t[j];
  reduce_once<n>(ops, r, s, p);
}

// ---- even/odd split Montgomery multiplication ------------------------------------------------
//
// The running value T is kept as two accumulators, T = E + 2^32·O, with e[k] at word position k
// and o[k] at position k+1. A word product x·y (64 bits) at position j lands on the aligned pair
// (j, j+1): in E when j is even, in O when j is odd. So a row a·x is two independent chains of
// (mad.lo, mad.hi) pairs on the same operands into adjacent words, which ptxas fuses into 64-bit
// IMAD.WIDE with carry, instead of the CIOS's separate low-half and high-half 32-bit chains.
//
// Row i: T += a·b[i]; m = T mod 2^32 · (−p⁻¹) mod 2^32; T += m·p; T /= 2^32. The division swaps
// the roles: the new E is the old O (o[k] moves to position k), plus the old e[1], now at position
// 0 ("pend", added at the start of the next row, its carry entering the next O chain at position
// 1); the new O is the old e[2..n-1]. The two top words of the new O are empty, so the next row
// writes them without reading (operand 0).
//
// Bounds (a, b < p, 2p < 2^(32n)): the CIOS invariant T < 2p holds after every row and
// T + a·b[i] + m·p < 2p·2^32 before the division. E and O are non-negative parts of that exact
// sum, so O < 2^(32n): the O chains never carry out of o[n-1], and the E chain's carry out of
// position n-1 fits in o[n-1]. Same PTX multiply count as CIOS (4n² + n), half as many SASS ones.

/// e += a_even·x (one chain, ignoring the incoming CF; its carry out at position n into o[n-1]).
template <int n, class Ops>
CUZK_HD_INLINE void even_chain(Ops& ops, uint32_t (&e)[n], uint32_t (&o)[n], const uint32_t (&a)[n],
                               uint32_t x) {
  e[0] = ops.mad_lo_cc(a[0], x, e[0]);
  e[1] = ops.madc_hi_cc(a[0], x, e[1]);
  CUZK_UNROLL
  for (int j = 2; j < n; j += 2) {
    e[j] = ops.madc_lo_cc(a[j], x, e[j]);
    e[j + 1] = ops.madc_hi_cc(a[j], x, e[j + 1]);
  }
  o[n - 1] = ops.addc(o[n - 1], 0);
}

/// m = e[0]·m0, then T += m·p (e[0] becomes 0). `carry_in`: the O chain consumes CF (the carry
/// of the pending add at position 0); the O chain's top pair is empty when `fresh_top`.
template <int n, bool carry_in, bool fresh_top, class Ops>
CUZK_HD_INLINE void reduce_step(Ops& ops, uint32_t (&e)[n], uint32_t (&o)[n],
                                const uint32_t (&p)[n], uint32_t m0) {
  const uint32_t m = ops.mul_lo(e[0], m0);  // no CF effect: a pending carry survives it
  if constexpr (carry_in) {
    o[0] = ops.madc_lo_cc(p[1], m, o[0]);
  } else {
    o[0] = ops.mad_lo_cc(p[1], m, o[0]);
  }
  o[1] = ops.madc_hi_cc(p[1], m, o[1]);
  CUZK_UNROLL
  for (int j = 3; j < n - 1; j += 2) {
    o[j - 1] = ops.madc_lo_cc(p[j], m, o[j - 1]);
    o[j] = ops.madc_hi_cc(p[j], m, o[j]);
  }
  o[n - 2] = ops.madc_lo_cc(p[n - 1], m, fresh_top ? 0u : o[n - 2]);
  o[n - 1] = ops.madc_hi(p[n - 1], m, fresh_top ? 0u : o[n - 1]);  // O < 2^(32n): no carry
  even_chain<n>(ops, e, o, p, m);
}

/// The division by 2^32 (register renaming only): see the section comment.
template <int n>
CUZK_HD_INLINE void shift_split(uint32_t (&e)[n], uint32_t (&o)[n], uint32_t& pend) {
  pend = e[1];
  uint32_t t[n];
  CUZK_UNROLL
  for (int k = 0; k < n; ++k) t[k] = e[k];
  CUZK_UNROLL
  for (int k = 0; k < n; ++k) e[k] = o[k];
  CUZK_UNROLL
  for (int k = 0; k + 2 < n; ++k) o[k] = t[k + 2];
  o[n - 2] = 0;
  o[n - 1] = 0;
}

/// r = E + pend + 2^32·O (o[n-2] = o[n-1] = 0 after a shift) then reduce_once.
template <int n, reduction Rd = reduction::full, class Ops>
CUZK_HD_INLINE void finish_split(Ops& ops, uint32_t (&r)[n], const uint32_t (&e)[n],
                                 const uint32_t (&o)[n], uint32_t pend, const uint32_t (&p)[n]) {
  uint32_t s[n];
  s[0] = ops.add_cc(e[0], pend);
  CUZK_UNROLL
  for (int k = 1; k < n - 1; ++k) s[k] = ops.addc_cc(e[k], o[k - 1]);
  s[n - 1] = ops.addc(e[n - 1], 0);  // the value is < 2p < 2^(32n)
  finish_product<n, Rd>(ops, r, s, p);
}

/// Row 0 of a split product: a·x on disjoint pairs, no additions (even j → e[j], e[j+1]; odd j →
/// o[j-1], o[j]); words n.. of e and o (when M > n) are left as they are.
template <int n, int M, class Ops>
CUZK_HD_INLINE void split_first_row(Ops& ops, uint32_t (&e)[M], uint32_t (&o)[M],
                                    const uint32_t (&a)[n], uint32_t x) {
  static_assert(M >= n);
  CUZK_UNROLL
  for (int j = 0; j < n; j += 2) {
    e[j] = ops.mul_lo(a[j], x);
    e[j + 1] = ops.mul_hi(a[j], x);
  }
  CUZK_UNROLL
  for (int j = 1; j < n; j += 2) {
    o[j - 1] = ops.mul_lo(a[j], x);
    o[j] = ops.mul_hi(a[j], x);
  }
}

/// a·b·2^(-32n) mod p, fully reduced, for a, b < p, n even, 2p < 2^(32n).
template <int n, reduction Rd = reduction::full, class Ops>
CUZK_HD_INLINE void mul_split(Ops& ops, uint32_t (&r)[n], const uint32_t (&a)[n],
                              const uint32_t (&b)[n], const uint32_t (&p)[n], uint32_t m0) {
  static_assert(n % 2 == 0 && n >= 4, "even word count");
  uint32_t e[n], o[n], pend;
  split_first_row<n>(ops, e, o, a, b[0]);
  reduce_step<n, false, false>(ops, e, o, p, m0);
  shift_split<n>(e, o, pend);
  CUZK_UNROLL
  for (int i = 1; i < n; ++i) {
    const uint32_t x = b[i];
    e[0] = ops.add_cc(e[0], pend);
    // O += a_odd·x, consuming the carry of the pending add; the top pair is empty
    o[0] = ops.madc_lo_cc(a[1], x, o[0]);
    o[1] = ops.madc_hi_cc(a[1], x, o[1]);
    CUZK_UNROLL
    for (int j = 3; j < n - 1; j += 2) {
      o[j - 1] = ops.madc_lo_cc(a[j], x, o[j - 1]);
      o[j] = ops.madc_hi_cc(a[j], x, o[j]);
    }
    o[n - 2] = ops.madc_lo_cc(a[n - 1], x, 0);
    o[n - 1] = ops.madc_hi(a[n - 1], x, 0);  // hi32 < 2^32 − 1: room for the carry
    even_chain<n>(ops, e, o, a, x);
    reduce_step<n, false, false>(ops, e, o, p, m0);
    shift_split<n>(e, o, pend);
  }
  finish_split<n, Rd>(ops, r, e, o, pend, p);
}

/// u·2^(-32n) mod p, fully reduced, for u < p·2^(32n) over 2n words, n even, 2p < 2^(32n): the
/// low half L = u[0..n-1] by n split Montgomery steps (mul_split's rows without the a·b half:
/// (L + M·p)/2^(32n) ≤ p; the bound (L + M·p)/2^(32k) < 2^(32n) + 2^32·p keeps O from carrying
/// out), plus the high half H < p: below 2p, one conditional subtraction.
template <int n, reduction Rd = reduction::full, class Ops>
CUZK_HD_INLINE void redc_split(Ops& ops, uint32_t (&r)[n], const uint32_t (&u)[2 * n],
                               const uint32_t (&p)[n], uint32_t m0) {
  constexpr int W = 2 * n;
  uint32_t le[n], ro[n], pend;
  CUZK_UNROLL
  for (int k = 0; k < n; ++k) {
    le[k] = u[k];
    ro[k] = 0;
  }
  // first step: O is empty, so its m·p half is plain products
  {
    const uint32_t m = ops.mul_lo(le[0], m0);
    CUZK_UNROLL
    for (int j = 1; j < n; j += 2) {
      ro[j - 1] = ops.mul_lo(p[j], m);
      ro[j] = ops.mul_hi(p[j], m);
    }
    even_chain<n>(ops, le, ro, p, m);
    shift_split<n>(le, ro, pend);
  }
  CUZK_UNROLL
  for (int i = 1; i < n; ++i) {
    le[0] = ops.add_cc(le[0], pend);
    reduce_step<n, true, true>(ops, le, ro, p, m0);
    shift_split<n>(le, ro, pend);
  }
  uint32_t s[n];
  s[0] = ops.add_cc(le[0], pend);
  CUZK_UNROLL
  for (int k = 1; k < n - 1; ++k) s[k] = ops.addc_cc(le[k], ro[k - 1]);
  s[n - 1] = ops.addc(le[n - 1], 0);
  s[0] = ops.add_cc(s[0], u[n]);
  CUZK_UNROLL
  for (int k = 1; k < n - 1; ++k) s[k] = ops.addc_cc(s[k], u[n + k]);
  s[n - 1] = ops.addc(s[n - 1], u[W - 1]);
  finish_product<n, Rd>(ops, r, s, p);
}

// ---- squaring: half the word products, then a separate reduction ----------------------------
//
// a² = 2·D + Σ a_i²·2^(64i) with D = Σ_{i<j} a_i·a_j·2^(32(i+j)): n(n−1)/2 word products instead
// of n², accumulated in the same split form over 2n words (e[k] at k, o[k] at k+1). Row i adds
// a_i·a_j for j > i as two chains: odd j (pairs (i+j, i+j+1), whose top pair (i+n−1, i+n) is
// still empty, written without reading) and even j ≤ n−2 (top pair (i+n−2, i+n−1); its carry out
// at position i+n is added to the first chain's fresh top word). Every partial sum of D through
// row i is < 2^(32(n+i+1)), so that top word never overflows. Then merge O into E, double, add
// the diagonal, and reduce: the low n words by n Montgomery steps (the split rows without the
// a·b half, result ≤ p), plus the high n words (< p), then one conditional subtraction.

/// acc[base + j], acc[base + j + 1] += a[j]·x for j = j0, j0+2, …, j1 (one chain). When
/// `fresh_top` the pair of j1 is empty (operand 0) and its carry out is provably zero.
template <int n, int W, class Ops>
CUZK_HD_INLINE void sqr_chain(Ops& ops, uint32_t (&acc)[W], int base, const uint32_t (&a)[n],
                              uint32_t x, int j0, int j1, bool fresh_top) {
  CUZK_UNROLL
  for (int j = j0; j <= j1; j += 2) {
    const bool top = fresh_top && j == j1;
    const uint32_t roin = top ? 0u : acc[base + j];
    const uint32_t hi_in = top ? 0u : acc[base + j + 1];
    if (j == j0) {
      acc[base + j] = ops.mad_lo_cc(a[j], x, roin);
    } else {
      acc[base + j] = ops.madc_lo_cc(a[j], x, roin);
    }
    if (top) {
      acc[base + j + 1] = ops.madc_hi(a[j], x, hi_in);
    } else {
      acc[base + j + 1] = ops.madc_hi_cc(a[j], x, hi_in);
    }
  }
}

/// a²·2^(-32n) mod p, fully reduced, for a < p, n even, 2p < 2^(32n).
template <int n, reduction Rd = reduction::full, class Ops>
CUZK_HD_INLINE void sqr_split(Ops& ops, uint32_t (&r)[n], const uint32_t (&a)[n],
                              const uint32_t (&p)[n], uint32_t m0) {
  static_assert(n % 2 == 0 && n >= 4, "even word count");
  constexpr int W = 2 * n;
  uint32_t e[W], o[W];
  CUZK_UNROLL
  for (int k = 0; k < W; ++k) e[k] = o[k] = 0;
  // row 0: disjoint pairs; odd j → o[j-1], o[j]; even j → e[j], e[j+1]
  CUZK_UNROLL
  for (int j = 1; j < n; j += 2) {
    o[j - 1] = ops.mul_lo(a[j], a[0]);
    o[j] = ops.mul_hi(a[j], a[0]);
  }
  CUZK_UNROLL
  for (int j = 2; j < n; j += 2) {
    e[j] = ops.mul_lo(a[j], a[0]);
    e[j + 1] = ops.mul_hi(a[j], a[0]);
  }
  CUZK_UNROLL
  for (int i = 1; i < n - 1; ++i) {
    // odd j > i: pair (i+j, i+j+1) in E when i+j is even (i odd), else in O (index − 1)
    const int j1_lo = (i % 2 == 1) ? i + 2 : i + 1;  // smallest odd j > i
    const int j2_lo = (i % 2 == 1) ? i + 1 : i + 2;  // smallest even j > i
    if (i % 2 == 1) {
      sqr_chain<n>(ops, e, i, a, a[i], j1_lo, n - 1, true);
      if (j2_lo <= n - 2) {
        sqr_chain<n>(ops, o, i - 1, a, a[i], j2_lo, n - 2, false);
        e[i + n] = ops.addc(e[i + n], 0);
      }
    } else {
      sqr_chain<n>(ops, o, i - 1, a, a[i], j1_lo, n - 1, true);
      if (j2_lo <= n - 2) {
        sqr_chain<n>(ops, e, i, a, a[i], j2_lo, n - 2, false);
        o[i + n - 1] = ops.addc(o[i + n - 1], 0);
      }
    }
  }
  // u = 2·(E + 2^32·O) + diagonal; D < 2^(32(2n−1)) so the merge ends at word 2n−2
  uint32_t u[W];
  u[0] = 0;
  u[1] = o[0];  // e[0] = e[1] = 0: no off-diagonal product below position 1
  u[2] = ops.add_cc(e[2], o[1]);
  CUZK_UNROLL
  for (int k = 3; k < W - 2; ++k) u[k] = ops.addc_cc(e[k], o[k - 1]);
  u[W - 2] = ops.addc(o[W - 3], 0);
  u[1] = ops.add_cc(u[1], u[1]);
  CUZK_UNROLL
  for (int k = 2; k < W - 1; ++k) u[k] = ops.addc_cc(u[k], u[k]);
  u[W - 1] = ops.addc(0, 0);
  u[0] = ops.mad_lo_cc(a[0], a[0], u[0]);
  u[1] = ops.madc_hi_cc(a[0], a[0], u[1]);
  CUZK_UNROLL
  for (int i = 1; i < n - 1; ++i) {
    u[2 * i] = ops.madc_lo_cc(a[i], a[i], u[2 * i]);
    u[2 * i + 1] = ops.madc_hi_cc(a[i], a[i], u[2 * i + 1]);
  }
  u[W - 2] = ops.madc_lo_cc(a[n - 1], a[n - 1], u[W - 2]);
  u[W - 1] = ops.madc_hi(a[n - 1], a[n - 1], u[W - 1]);  // a² < 2^(64n)

  redc_split<n, Rd>(ops, r, u, p, m0);
}

// ---- lazy reduction: a·b − c·d and the Fp2 product -------------------------------------------
//
// a·b − c·d (mul_sub_lazy: the Y of an XYZZ addition) is two double-width products and one
// reduction of their difference (redc_difference). The Fp2 product:
//
// (a0 + a1·u)(b0 + b1·u) with u² = −1 by Karatsuba over unreduced double-width products and two
// Montgomery reductions, where three mul_split calls reduce three times:
//   t0 = a0·b0, t1 = a1·b1, t2 = (a0 + a1)(b0 + b1)   (the sums unreduced: < 2p < 2^(32n))
//   c0 = REDC(t0 − t1, plus p·2^(32n) when negative),  c1 = REDC(t2 − t0 − t1 = a0·b1 + a1·b0)
// redc_split needs u < p·2^(32n): t0 − t1 ∈ (−p², p²) with p² < p·2^(32n), and
// a0·b1 + a1·b0 < 2p² < p·2^(32n) as 2p < 2^(32n). Word products: 3n² + 2(n² + n) = 744 for Fp
// (n = 12) against 3(2n² + n) = 900.

/// u = a·b over 2n words for any a, b < 2^(32n), in sqr_split's split accumulators over every
/// word product: row i is the chain of odd j (its top pair at (i + n − 1, i + n) still empty),
/// then the chain of even j, whose carry out at position i + n goes to the first chain's top
/// word (every partial sum through row i is < 2^(32(n + i + 1)), so that word never overflows).
template <int n, class Ops>
CUZK_HD_INLINE void mul_wide_split(Ops& ops, uint32_t (&u)[2 * n], const uint32_t (&a)[n],
                                   const uint32_t (&b)[n]) {
  static_assert(n % 2 == 0 && n >= 4, "even word count");
  constexpr int W = 2 * n;
  uint32_t e[W], o[W];
  CUZK_UNROLL
  for (int k = n; k < W; ++k) e[k] = o[k] = 0;
  split_first_row<n>(ops, e, o, a, b[0]);
  CUZK_UNROLL
  for (int i = 1; i < n; ++i) {
    // position i + j is even (E, index i + j) or odd (O, index i + j − 1)
    if (i % 2 == 1) {
      sqr_chain<n>(ops, e, i, a, b[i], 1, n - 1, true);
      sqr_chain<n>(ops, o, i - 1, a, b[i], 0, n - 2, false);
      e[i + n] = ops.addc(e[i + n], 0);
    } else {
      sqr_chain<n>(ops, o, i - 1, a, b[i], 1, n - 1, true);
      sqr_chain<n>(ops, e, i, a, b[i], 0, n - 2, false);
      o[i + n - 1] = ops.addc(o[i + n - 1], 0);
    }
  }
  // u = E + 2^32·O (O's top two words stay 0: its highest pair ends at position 2n − 2)
  u[0] = e[0];
  u[1] = ops.add_cc(e[1], o[0]);
  CUZK_UNROLL
  for (int k = 2; k < W - 1; ++k) u[k] = ops.addc_cc(e[k], o[k - 1]);
  u[W - 1] = ops.addc(e[W - 1], o[W - 2]);
}

/// REDC(t0 − t1) = (t0 − t1)·2^(-32n) mod p, fully reduced, for t0, t1 < p² over 2n words: the
/// difference mod 2^(64n) plus p·2^(32n) when it borrowed (the add's carry is the wrap back), so
/// that redc_split gets t0 − t1 + p·2^(32n) ∈ (0, p·2^(32n)) or t0 − t1 ∈ [0, p²).
template <int n, reduction Rd = reduction::full, class Ops>
CUZK_HD_INLINE void redc_difference(Ops& ops, uint32_t (&r)[n], const uint32_t (&t0)[2 * n],
                                    const uint32_t (&t1)[2 * n], const uint32_t (&p)[n],
                                    uint32_t m0) {
  constexpr int W = 2 * n;
  uint32_t d[W];
  d[0] = ops.sub_cc(t0[0], t1[0]);
  CUZK_UNROLL
  for (int k = 1; k < W; ++k) d[k] = ops.subc_cc(t0[k], t1[k]);
  const uint32_t negative = ops.subc(0, 0);  // all ones when t0 < t1
  d[n] = ops.add_cc(d[n], p[0] & negative);
  CUZK_UNROLL
  for (int k = 1; k < n; ++k) d[n + k] = ops.addc_cc(d[n + k], p[k] & negative);
  redc_split<n, Rd>(ops, r, d, p, m0);
}

/// (a·b − c·d)·2^(-32n) mod p, fully reduced, for a, b, c, d < p: two double-width products and
/// one reduction (n² + n word products saved against two mul_split), as in the Y coordinate of
/// an XYZZ addition, R·(Q − X3) − Y·PPP.
template <int n, reduction Rd = reduction::full, class Ops>
CUZK_HD_INLINE void mul_sub_lazy(Ops& ops, uint32_t (&r)[n], const uint32_t (&a)[n],
                                 const uint32_t (&b)[n], const uint32_t (&c)[n],
                                 const uint32_t (&d)[n], const uint32_t (&p)[n], uint32_t m0) {
  uint32_t t0[2 * n], t1[2 * n];
  mul_wide_split<n>(ops, t0, a, b);
  mul_wide_split<n>(ops, t1, c, d);
  redc_difference<n, Rd>(ops, r, t0, t1, p, m0);
}

/// (r0 + r1·u) = (a0 + a1·u)(b0 + b1·u)·2^(-32n) mod p with u² = −1, each part fully reduced,
/// for a0, a1, b0, b1 < p, n even, 2p < 2^(32n). The outputs may alias the inputs.
template <int n, class Ops>
CUZK_HD_INLINE void mul2_lazy(Ops& ops, uint32_t (&r0)[n], uint32_t (&r1)[n],
                              const uint32_t (&a0)[n], const uint32_t (&a1)[n],
                              const uint32_t (&b0)[n], const uint32_t (&b1)[n],
                              const uint32_t (&p)[n], uint32_t m0) {
  constexpr int W = 2 * n;
  uint32_t sa[n], sb[n];  // a0 + a1, b0 + b1 < 2p < 2^(32n)
  sa[0] = ops.add_cc(a0[0], a1[0]);
  CUZK_UNROLL
  for (int k = 1; k < n - 1; ++k) sa[k] = ops.addc_cc(a0[k], a1[k]);
  sa[n - 1] = ops.addc(a0[n - 1], a1[n - 1]);
  sb[0] = ops.add_cc(b0[0], b1[0]);
  CUZK_UNROLL
  for (int k = 1; k < n - 1; ++k) sb[k] = ops.addc_cc(b0[k], b1[k]);
  sb[n - 1] = ops.addc(b0[n - 1], b1[n - 1]);
  uint32_t t0[W], t1[W];
  mul_wide_split<n>(ops, t0, a0, b0);
  mul_wide_split<n>(ops, t1, a1, b1);
  // s = t0 + t1 < 2p² < 2^(64n)
  uint32_t s[W];
  s[0] = ops.add_cc(t0[0], t1[0]);
  CUZK_UNROLL
  for (int k = 1; k < W - 1; ++k) s[k] = ops.addc_cc(t0[k], t1[k]);
  s[W - 1] = ops.addc(t0[W - 1], t1[W - 1]);
  redc_difference<n>(ops, r0, t0, t1, p, m0);
  // t2 − s = a0·b1 + a1·b0 ≥ 0
  uint32_t t2[W];
  mul_wide_split<n>(ops, t2, sa, sb);
  t2[0] = ops.sub_cc(t2[0], s[0]);
  CUZK_UNROLL
  for (int k = 1; k < W - 1; ++k) t2[k] = ops.subc_cc(t2[k], s[k]);
  t2[W - 1] = ops.subc(t2[W - 1], s[W - 1]);
  redc_split<n>(ops, r1, t2, p, m0);
}

}  // namespace cuzk::ff::words
