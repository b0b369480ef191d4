// SPDX-License-Identifier: Apache-2.0
// Lazy-reduction kernels for the CPU NTT's butterflies. Values between butterflies live in [0, 2r)
// instead of [0, r): 2r < 2^256 (r's top limb is 0x73ed…), so they still fit 4 limbs, and a
// Montgomery product by a canonical twiddle needs no final subtraction. Only the last pass brings
// elements back to [0, r), so results are the same canonical Montgomery limbs as before.
#pragma once

#include <cstdint>

#include "base/hd.hpp"
#include "ff/bigint.hpp"
#include "ff/fields.hpp"

namespace cuzk::ntt::detail {

using ff::fr_t;

inline constexpr ff::limbs<4> P = fr_t::MODULUS;
/// 2r (< 2^256, checked below).
inline constexpr ff::limbs<4> P2 = [] {
  ff::limbs<4> m = fr_t::MODULUS;
  ff::add_to(m, fr_t::MODULUS);
  return m;
}();
static_assert(fr_t::MODULUS[3] < (uint64_t(1) << 63), "2r must fit 4 limbs");
inline constexpr uint64_t INV = fr_t::INV;

// ---- portable references ------------------------------------------------------------------------

/// y ← y·w·2^-256 mod r, lazily: for w < r and any y < 2^256 the result is < 2r.
/// CIOS keeps t < 2r after every word (t + w·y_i + m·r < 2r + 2·(2^64 − 1)·r < 2r·2^64), so t fits
/// 4 limbs plus one word during the step; the end value is < w·y/2^256 + r < r + r.
inline void mul_lazy_portable(uint64_t y[4], const uint64_t w[4]) {
  uint64_t t[5] = {};
  for (int i = 0; i < 4; ++i) {
    uint64_t c = 0;
    for (int j = 0; j < 4; ++j) {
      const ff::u128 s = ff::u128(w[j]) * y[i] + t[j] + c;
      t[j] = uint64_t(s);
      c = uint64_t(s >> 64);
    }
    t[4] += c;
    const uint64_t m = t[0] * INV;
    c = 0;
    for (int j = 0; j < 4; ++j) {
      const ff::u128 s = ff::u128(m) * P[j] + t[j] + c;
      t[j] = uint64_t(s);
      c = uint64_t(s >> 64);
    }
    t[4] += c;  // < 2^64: the step total is < 2^320
    for (int j = 0; j < 4; ++j) t[j] = t[j + 1];
    t[4] = 0;
  }
  for (int j = 0; j < 4; ++j) y[j] = t[j];
}

/// (x, y) ← (x + y, x − y), both reduced into [0, 2r) from x, y ∈ [0, 2r) (x and y distinct).
/// The sum can reach 4r > 2^256, so its carry takes part in the comparison with 2r.
inline void addsub_lazy_portable(uint64_t x[4], uint64_t y[4]) {
  uint64_t s[4], d[4], u[4], carry = 0, borrow = 0;
  for (int j = 0; j < 4; ++j) s[j] = ff::addc(x[j], y[j], carry);
  for (int j = 0; j < 4; ++j) u[j] = ff::subb(s[j], P2[j], borrow);
  const bool keep_s = carry == 0 && borrow != 0;  // s < 2r
  borrow = 0;
  for (int j = 0; j < 4; ++j) d[j] = ff::subb(x[j], y[j], borrow);
  const uint64_t mask = 0 - borrow;  // x < y: add 2r back
  carry = 0;
  for (int j = 0; j < 4; ++j) d[j] = ff::addc(d[j], P2[j] & mask, carry);
  for (int j = 0; j < 4; ++j) {
    x[j] = keep_s ? s[j] : u[j];
    y[j] = d[j];
  }
}

/// x ∈ [0, 2r) → [0, r).
inline void reduce_portable(uint64_t x[4]) {
  uint64_t u[4], borrow = 0;
  for (int j = 0; j < 4; ++j) u[j] = ff::subb(x[j], P[j], borrow);
  const uint64_t keep = 0 - borrow;
  for (int j = 0; j < 4; ++j) x[j] = (x[j] & keep) | (u[j] & ~keep);
}

// ---- x86-64 MULX/ADX forms ----------------------------------------------------------------------
//
// Each block names exactly the memory it reads and writes ("m"/"+m" operands next to the pointer
// registers) instead of clobbering all memory, so the compiler keeps loads, stores and loop state
// in flight around it. The add/sub select uses CMOV: written in C, GCC vectorises the select
// through the stack and the 16-byte reloads of 8-byte stores stall on store forwarding.

#if defined(CUZK_X86_ASM) && defined(__x86_64__)

using limb4_t = uint64_t[4];

// mul_lazy_portable's CIOS word by word is exactly the generated field multiply
// (ff/mont_asm_x86.hpp, mont_mul_adx_4: MULX rows with the low halves on the CF chain and the high
// halves on the OF chain, m = t0·INV, precise memory operands), which leaves the final subtraction
// to its caller: here there is none. Neither chain carries out of the top word for y < 2^256 and
// w < r: the step total is < 2^320 (see above). 32 MULX + 4 IMUL.
CUZK_ALWAYS_INLINE inline void mul_lazy(uint64_t y[4], const uint64_t w[4]) {
  ff::x86::mont_mul_adx_4(y, w, y, P.data(), INV);
}

CUZK_ALWAYS_INLINE inline void addsub_lazy(uint64_t x[4], uint64_t y[4]) {
  uint64_t s0, s1, s2, s3, u0, u1, u2, u3, c;
  asm("movq 0(%[x]), %[s0]\n\t"
      "movq 8(%[x]), %[s1]\n\t"
      "movq 16(%[x]), %[s2]\n\t"
      "movq 24(%[x]), %[s3]\n\t"
      "xorl %k[c], %k[c]\n\t"
      "addq 0(%[y]), %[s0]\n\t"
      "adcq 8(%[y]), %[s1]\n\t"
      "adcq 16(%[y]), %[s2]\n\t"
      "adcq 24(%[y]), %[s3]\n\t"
      "adcq $0, %[c]\n\t"
      // u = (c:s) − 2r; a final borrow means s < 2r: keep s
      "movq %[s0], %[u0]\n\t"
      "movq %[s1], %[u1]\n\t"
      "movq %[s2], %[u2]\n\t"
      "movq %[s3], %[u3]\n\t"
      "subq 0(%[q]), %[u0]\n\t"
      "sbbq 8(%[q]), %[u1]\n\t"
      "sbbq 16(%[q]), %[u2]\n\t"
      "sbbq 24(%[q]), %[u3]\n\t"
      "sbbq $0, %[c]\n\t"
      "cmovcq %[s0], %[u0]\n\t"
      "cmovcq %[s1], %[u1]\n\t"
      "cmovcq %[s2], %[u2]\n\t"
      "cmovcq %[s3], %[u3]\n\t"
      // d = x − y, plus 2r when it borrowed
      "movq 0(%[x]), %[s0]\n\t"
      "movq 8(%[x]), %[s1]\n\t"
      "movq 16(%[x]), %[s2]\n\t"
      "movq 24(%[x]), %[s3]\n\t"
      "subq 0(%[y]), %[s0]\n\t"
      "sbbq 8(%[y]), %[s1]\n\t"
      "sbbq 16(%[y]), %[s2]\n\t"
      "sbbq 24(%[y]), %[s3]\n\t"
      "movq %[u0], 0(%[x])\n\t"
      "movq %[u1], 8(%[x])\n\t"
      "movq %[u2], 16(%[x])\n\t"
      "movq %[u3], 24(%[x])\n\t"
      "sbbq %[c], %[c]\n\t"
      "movq 0(%[q]), %[u0]\n\t"
      "movq 8(%[q]), %[u1]\n\t"
      "movq 16(%[q]), %[u2]\n\t"
      "movq 24(%[q]), %[u3]\n\t"
      "andq %[c], %[u0]\n\t"
      "andq %[c], %[u1]\n\t"
      "andq %[c], %[u2]\n\t"
      "andq %[c], %[u3]\n\t"
      "addq %[u0], %[s0]\n\t"
      "adcq %[u1], %[s1]\n\t"
      "adcq %[u2], %[s2]\n\t"
      "adcq %[u3], %[s3]\n\t"
      "movq %[s0], 0(%[y])\n\t"
      "movq %[s1], 8(%[y])\n\t"
      "movq %[s2], 16(%[y])\n\t"
      "movq %[s3], 24(%[y])\n\t"
      : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [u0] "=&r"(u0),
        [u1] "=&r"(u1), [u2] "=&r"(u2), [u3] "=&r"(u3), [c] "=&r"(c),
        "+m"(*reinterpret_cast<limb4_t*>(x)), "+m"(*reinterpret_cast<limb4_t*>(y))
      : [x] "r"(x), [y] "r"(y), [q] "r"(P2.data()),
        "m"(*reinterpret_cast<const limb4_t*>(P2.data()))
      : "cc");
}

CUZK_ALWAYS_INLINE inline void reduce(uint64_t x[4]) {
  uint64_t u0, u1, u2, u3;
  asm("movq 0(%[x]), %[u0]\n\t"
      "movq 8(%[x]), %[u1]\n\t"
      "movq 16(%[x]), %[u2]\n\t"
      "movq 24(%[x]), %[u3]\n\t"
      "subq 0(%[q]), %[u0]\n\t"
      "sbbq 8(%[q]), %[u1]\n\t"
      "sbbq 16(%[q]), %[u2]\n\t"
      "sbbq 24(%[q]), %[u3]\n\t"
      "cmovcq 0(%[x]), %[u0]\n\t"
      "cmovcq 8(%[x]), %[u1]\n\t"
      "cmovcq 16(%[x]), %[u2]\n\t"
      "cmovcq 24(%[x]), %[u3]\n\t"
      "movq %[u0], 0(%[x])\n\t"
      "movq %[u1], 8(%[x])\n\t"
      "movq %[u2], 16(%[x])\n\t"
      "movq %[u3], 24(%[x])\n\t"
      : [u0] "=&r"(u0), [u1] "=&r"(u1), [u2] "=&r"(u2), [u3] "=&r"(u3),
        "+m"(*reinterpret_cast<limb4_t*>(x))
      : [x] "r"(x), [q] "r"(P.data()), "m"(*reinterpret_cast<const limb4_t*>(P.data()))
      : "cc");
}
#else
inline void mul_lazy(uint64_t y[4], const uint64_t w[4]) {
  mul_lazy_portable(y, w);
}
inline void addsub_lazy(uint64_t x[4], uint64_t y[4]) {
  addsub_lazy_portable(x, y);
}
inline void reduce(uint64_t x[4]) {
  reduce_portable(x);
}
#endif

// ---- on fr_t ------------------------------------------------------------------------------------

/// y ← y·w (lazy): w canonical (< r), y < 2^256; result < 2r.
CUZK_ALWAYS_INLINE inline void mul_lazy(fr_t& y, const fr_t& w) {
  mul_lazy(y.limb, w.limb);
}
/// DIF butterfly on [0, 2r): (x, y) → (x + y, (x − y)·w).
CUZK_ALWAYS_INLINE inline void dif_bfly(fr_t& x, fr_t& y, const fr_t& w) {
  addsub_lazy(x.limb, y.limb);
  mul_lazy(y.limb, w.limb);
}
/// DIT butterfly on [0, 2r): (x, y) → (x + w·y, x − w·y).
CUZK_ALWAYS_INLINE inline void dit_bfly(fr_t& x, fr_t& y, const fr_t& w) {
  mul_lazy(y.limb, w.limb);
  addsub_lazy(x.limb, y.limb);
}
CUZK_ALWAYS_INLINE inline void addsub_lazy(fr_t& x, fr_t& y) {
  addsub_lazy(x.limb, y.limb);
}
CUZK_ALWAYS_INLINE inline void reduce(fr_t& x) {
  reduce(x.limb);
}

}  // namespace cuzk::ntt::detail
