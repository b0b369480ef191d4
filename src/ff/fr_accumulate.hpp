// SPDX-License-Identifier: Apache-2.0
// ff::fr_accumulator_t: Σ a_k·b_k (+ Σ x_j) over Fr with ONE Montgomery reduction for the whole
// sum ("lazy reduction"). Each product is the plain 512-bit a·b of the Montgomery limbs (16
// 64x64 multiplies) added into a 576-bit accumulator; reduce() folds, REDCs once and yields the
// Montgomery form of Σ ã_k·b̃_k + Σ x̃_j. A Montgomery product costs 2·16 + 4 multiplies, so a
// k-term dot product drops from ~36k to ~16k + 24 (Poseidon's MDS rows, long LC evaluations).
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/hd.hpp"
#include "ff/fields.hpp"

namespace cuzk::ff {

struct fr_accumulator_t {
  static constexpr size_t N = 4;
  static_assert(fr_t::N == N);

  /// Little-endian 576-bit running sum. Products are < 2^512 each, so 2^64 of them cannot
  /// overflow it; the reduction below accepts any 576-bit value.
  uint64_t t[2 * N + 1] = {};

  CUZK_ALWAYS_INLINE void clear() {
    CUZK_UNROLL
    for (size_t i = 0; i < 2 * N + 1; ++i) t[i] = 0;
  }

  /// t += a·b (the 512-bit product of the raw limbs). Schoolbook: 16 multiplies into an 8-limb
  /// product, then one 9-limb add chain. On x86-64 with CUZK_X86_ASM the product rows run as
  /// MULX with two carry chains (ADCX/ADOX): GCC's __int128 form spills the partial product.
  CUZK_ALWAYS_INLINE void mac(const fr_t& a, const fr_t& b) {
#if defined(CUZK_MONT_USE_ADX)
    mac_adx(a.limb, b.limb);
#else
    mac_portable(a, b);
#endif
  }

  /// The portable form of mac() (the reference for the assembly one).
  CUZK_ALWAYS_INLINE void mac_portable(const fr_t& a, const fr_t& b) {
    uint64_t p[2 * N];
    {
      uint64_t carry = 0;
      CUZK_UNROLL
      for (size_t j = 0; j < N; ++j) {
        const u128 s = u128(a.limb[0]) * b.limb[j] + carry;
        p[j] = uint64_t(s);
        carry = uint64_t(s >> 64);
      }
      p[N] = carry;
    }
    CUZK_UNROLL
    for (size_t i = 1; i < N; ++i) {
      uint64_t carry = 0;
      CUZK_UNROLL
      for (size_t j = 0; j < N; ++j) {
        const u128 s = u128(a.limb[i]) * b.limb[j] + p[i + j] + carry;
        p[i + j] = uint64_t(s);
        carry = uint64_t(s >> 64);
      }
      p[i + N] = carry;
    }
    uint64_t c = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < 2 * N; ++i) t[i] = addc(t[i], p[i], c);
    t[2 * N] += c;
  }

#if defined(CUZK_MONT_USE_ADX)
  // Row i multiplies b_i (in RDX) by a_0..a_3; low halves go through the CF chain (ADCX), high
  // halves through the OF chain (ADOX). Each row's top limb takes both final carries; the partial
  // sum after row i is < 2^(64(i+5)), so neither overflows. Then t += p in one ADC chain.
  CUZK_ALWAYS_INLINE void mac_adx(const uint64_t a[4], const uint64_t b[4]) {
    uint64_t p0, p1, p2, p3, p4, p5, p6, p7, lo, hi;
    asm("movq 0(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[p0], %[p1]\n\t"
        "mulxq 8(%[a]), %[lo], %[p2]\n\t"
        "adcxq %[lo], %[p1]\n\t"
        "mulxq 16(%[a]), %[lo], %[p3]\n\t"
        "adcxq %[lo], %[p2]\n\t"
        "mulxq 24(%[a]), %[lo], %[p4]\n\t"
        "adcxq %[lo], %[p3]\n\t"
        "movl $0, %k[lo]\n\t"
        "adcxq %[lo], %[p4]\n\t"
        // row 1
        "movq 8(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p1]\n\t"
        "adoxq %[hi], %[p2]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p2]\n\t"
        "adoxq %[hi], %[p3]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p3]\n\t"
        "adoxq %[hi], %[p4]\n\t"
        "mulxq 24(%[a]), %[lo], %[p5]\n\t"
        "adcxq %[lo], %[p4]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[p5]\n\t"
        "adcxq %[lo], %[p5]\n\t"
        // row 2
        "movq 16(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p2]\n\t"
        "adoxq %[hi], %[p3]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p3]\n\t"
        "adoxq %[hi], %[p4]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p4]\n\t"
        "adoxq %[hi], %[p5]\n\t"
        "mulxq 24(%[a]), %[lo], %[p6]\n\t"
        "adcxq %[lo], %[p5]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[p6]\n\t"
        "adcxq %[lo], %[p6]\n\t"
        // row 3
        "movq 24(%[b]), %%rdx\n\t"
        "xorl %k[lo], %k[lo]\n\t"
        "mulxq 0(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p3]\n\t"
        "adoxq %[hi], %[p4]\n\t"
        "mulxq 8(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p4]\n\t"
        "adoxq %[hi], %[p5]\n\t"
        "mulxq 16(%[a]), %[lo], %[hi]\n\t"
        "adcxq %[lo], %[p5]\n\t"
        "adoxq %[hi], %[p6]\n\t"
        "mulxq 24(%[a]), %[lo], %[p7]\n\t"
        "adcxq %[lo], %[p6]\n\t"
        "movl $0, %k[lo]\n\t"
        "adoxq %[lo], %[p7]\n\t"
        "adcxq %[lo], %[p7]\n\t"
        // t += p
        "addq %[p0], 0(%[t])\n\t"
        "adcq %[p1], 8(%[t])\n\t"
        "adcq %[p2], 16(%[t])\n\t"
        "adcq %[p3], 24(%[t])\n\t"
        "adcq %[p4], 32(%[t])\n\t"
        "adcq %[p5], 40(%[t])\n\t"
        "adcq %[p6], 48(%[t])\n\t"
        "adcq %[p7], 56(%[t])\n\t"
        "adcq $0, 64(%[t])\n\t"
        : [p0] "=&r"(p0), [p1] "=&r"(p1), [p2] "=&r"(p2), [p3] "=&r"(p3), [p4] "=&r"(p4),
          [p5] "=&r"(p5), [p6] "=&r"(p6), [p7] "=&r"(p7), [lo] "=&r"(lo), [hi] "=&r"(hi),
          "+m"(*reinterpret_cast<uint64_t(*)[2 * N + 1]>(t))
        : [a] "r"(a), [b] "r"(b), [t] "r"(t), "m"(*reinterpret_cast<const uint64_t(*)[N]>(a)),
          "m"(*reinterpret_cast<const uint64_t(*)[N]>(b))
        : "rdx", "cc");
  }
#endif

  /// t += x·2^256, so that reduce() adds x itself (a coefficient-1 term costs no multiply).
  CUZK_ALWAYS_INLINE void add(const fr_t& x) {
    uint64_t c = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) t[N + i] = addc(t[N + i], x.limb[i], c);
    t[2 * N] += c;
  }

  /// t·2^-256 mod r, fully reduced (< r): the Montgomery form of the accumulated sum.
  /// Usual case, t8 ≤ SHORT_TOP (sums of up to ~30 products of field elements):
  ///   a. X = (t_lo + m·r)/2^256 + t_hi + t8·2^256 (REDC of the low 256 bits; the first term is
  ///      ≤ r), i.e. 4 limbs x plus a top word ≤ t8 + 1 ≤ 7;
  ///   b. W = x + top·(2^256 mod r) ≡ X: top·R1 < 7·R1 < 0.67·2^256, so W has a 257th bit at
  ///      most, and when it has, W mod 2^256 + R1 < 2^256: fold it as + R1;
  ///   c. W < 2^256 < 2.21·r: subtract r at most twice.
  /// Cost: 16 + 4 + 4 multiplies; a short carry chain ahead of the REDC keeps the latency low.
  /// Otherwise reduce_general().
  CUZK_ALWAYS_INLINE fr_t reduce() const {
    if (t[2 * N] > SHORT_TOP) [[unlikely]]
      return reduce_general(false);
    return reduce_short(false);
  }
  /// The same through the portable REDC only (the reference for the assembly one).
  fr_t reduce_portable() const {
    return t[2 * N] > SHORT_TOP ? reduce_general(true) : reduce_short(true);
  }

  /// Any 576-bit state:
  ///   1. fold the top limb twice with 2^512 ≡ R² (mod r): T < 2^576 → V < 2^512;
  ///   2. REDC as X = (V_lo + m·r)/2^256 + V_hi, with V = V_hi·2^256 + V_lo: the first term is
  ///      ≤ r (V_lo < 2^256, m < 2^256), so X < r + 2^256 has a 257th bit at most;
  ///   3. fold that bit with 2^256 ≡ R (mod r): W < r + (R mod r) < 2^256 < 2.21·r;
  ///   4. subtract r at most twice.
  fr_t reduce_general(bool portable) const {
    return finish(fold(), portable);
  }

  static constexpr uint64_t SHORT_TOP = 6;

 private:
  CUZK_ALWAYS_INLINE fr_t reduce_short(bool portable) const {
    constexpr limbs<N> R1 = fr_t::R;  // 2^256 mod r
    fr_t w;
    uint64_t top;
#if defined(CUZK_MONT_USE_ADX)
    top = portable ? redc_portable(t, w.limb) : redc_adx(t, w.limb);
#else
    (void)portable;
    top = redc_portable(t, w.limb);
#endif
    top += t[2 * N];  // ≤ 7
    // b. w += top·R1 (top·R1 < 2^256), then fold bit 256.
    {
      uint64_t q[N], carry = 0;
      CUZK_UNROLL
      for (size_t j = 0; j < N; ++j) {
        const u128 s = u128(top) * R1[j] + carry;
        q[j] = uint64_t(s);
        carry = uint64_t(s >> 64);
      }
      uint64_t c = 0;
      CUZK_UNROLL
      for (size_t i = 0; i < N; ++i) w.limb[i] = addc(w.limb[i], q[i], c);
      const uint64_t mask = 0 - c;
      c = 0;
      CUZK_UNROLL
      for (size_t i = 0; i < N; ++i) w.limb[i] = addc(w.limb[i], R1[i] & mask, c);
    }
    subtract_twice(w);
    return w;
  }

  // c. / 4.: w < 2.21·r → w < r, branch-free.
  CUZK_ALWAYS_INLINE static void subtract_twice(fr_t& w) {
    constexpr limbs<N> P = fr_t::MODULUS;
    CUZK_UNROLL
    for (int round = 0; round < 2; ++round) {
      uint64_t d[N], borrow = 0;
      CUZK_UNROLL
      for (size_t i = 0; i < N; ++i) d[i] = subb(w.limb[i], P[i], borrow);
      const uint64_t keep = 0 - borrow;  // all ones: w < r, keep it
      CUZK_UNROLL
      for (size_t i = 0; i < N; ++i) w.limb[i] = (w.limb[i] & keep) | (d[i] & ~keep);
    }
  }

  struct folded_t {
    uint64_t v[2 * N];
  };

  // Step 1: V ≡ T (mod r), V < 2^512.
  CUZK_ALWAYS_INLINE folded_t fold() const {
    constexpr limbs<N> R2 = fr_t::R2;  // 2^512 mod r
    folded_t f;
    // 1a. V = T_lo + t8·R2: t8·R2 < 2^64·2^255 is 5 limbs; the sum may carry into bit 512 once.
    const uint64_t h = t[2 * N];
    uint64_t q[N + 1], carry = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) {
      const u128 s = u128(h) * R2[j] + carry;
      q[j] = uint64_t(s);
      carry = uint64_t(s >> 64);
    }
    q[N] = carry;
    uint64_t c = 0;
    CUZK_UNROLL
    for (size_t i = 0; i <= N; ++i) f.v[i] = addc(t[i], q[i], c);
    CUZK_UNROLL
    for (size_t i = N + 1; i < 2 * N; ++i) f.v[i] = addc(t[i], 0, c);
    // 1b. When it carried, the low part is < 2^319, so adding R2 once more cannot carry out.
    const uint64_t mask = 0 - c;
    c = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) f.v[i] = addc(f.v[i], R2[i] & mask, c);
    CUZK_UNROLL
    for (size_t i = N; i < 2 * N; ++i) f.v[i] = addc(f.v[i], 0, c);
    return f;
  }

  // Steps 2-4.
  CUZK_ALWAYS_INLINE static fr_t finish(const folded_t& f, bool portable) {
    constexpr limbs<N> R1 = fr_t::R;  // 2^256 mod r
    fr_t w;
    uint64_t top;
#if defined(CUZK_MONT_USE_ADX)
    if (!portable) {
      top = redc_adx(f.v, w.limb);
    } else {
      top = redc_portable(f.v, w.limb);
    }
#else
    (void)portable;
    top = redc_portable(f.v, w.limb);
#endif
    // 3. fold bit 256 (top ∈ {0,1}) as + R1; no carry out (see above).
    {
      const uint64_t mask = 0 - top;
      uint64_t c = 0;
      CUZK_UNROLL
      for (size_t i = 0; i < N; ++i) w.limb[i] = addc(w.limb[i], R1[i] & mask, c);
    }
    subtract_twice(w);
    return w;
  }

  // Step 2, portable: x = (v_lo + m·r)/2^256 + v_hi; returns bit 256 of the sum.
  CUZK_ALWAYS_INLINE static uint64_t redc_portable(const uint64_t v[2 * N], uint64_t x[N]) {
    constexpr limbs<N> P = fr_t::MODULUS;
    uint64_t w[N];
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) w[i] = v[i];
    // N rounds of w = (w + m·r)/2^64 with m = w_0·INV; w stays < 2^256 throughout.
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
      const uint64_t m = w[0] * fr_t::INV;
      u128 s = u128(m) * P[0] + w[0];
      uint64_t carry = uint64_t(s >> 64);
      CUZK_UNROLL
      for (size_t j = 1; j < N; ++j) {
        s = u128(m) * P[j] + w[j] + carry;
        w[j - 1] = uint64_t(s);
        carry = uint64_t(s >> 64);
      }
      w[N - 1] = carry;
    }
    uint64_t c = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) x[i] = addc(w[i], v[N + i], c);
    return c;
  }

#if defined(CUZK_MONT_USE_ADX)
  // Step 2 with MULX/ADCX/ADOX: a rotating 4-register window (w0..w3); each round zeroes the
  // bottom limb, and the freed register takes the new top limb (hi of m·r_3 plus both carries;
  // the window value stays < 2^192 + r, so that limb cannot overflow).
  CUZK_ALWAYS_INLINE static uint64_t redc_adx(const uint64_t v[2 * N], uint64_t x[N]) {
    uint64_t w0 = v[0], w1 = v[1], w2 = v[2], w3 = v[3], lo, hi, top;
    const uint64_t* p = fr_t::MODULUS.data();
#define CUZK_FR_REDC_ROUND(A, B, C, D) \
  "movq %[" #A                         \
  "], %%rdx\n\t"                       \
  "imulq %[inv], %%rdx\n\t"            \
  "xorl %k[lo], %k[lo]\n\t"            \
  "mulxq 0(%[p]), %[lo], %[hi]\n\t"    \
  "adcxq %[lo], %[" #A                 \
  "]\n\t"                              \
  "adoxq %[hi], %[" #B                 \
  "]\n\t"                              \
  "mulxq 8(%[p]), %[lo], %[hi]\n\t"    \
  "adcxq %[lo], %[" #B                 \
  "]\n\t"                              \
  "adoxq %[hi], %[" #C                 \
  "]\n\t"                              \
  "mulxq 16(%[p]), %[lo], %[hi]\n\t"   \
  "adcxq %[lo], %[" #C                 \
  "]\n\t"                              \
  "adoxq %[hi], %[" #D                 \
  "]\n\t"                              \
  "mulxq 24(%[p]), %[lo], %[" #A       \
  "]\n\t"                              \
  "adcxq %[lo], %[" #D                 \
  "]\n\t"                              \
  "movl $0, %k[lo]\n\t"                \
  "adcxq %[lo], %[" #A                 \
  "]\n\t"                              \
  "adoxq %[lo], %[" #A "]\n\t"
    asm(CUZK_FR_REDC_ROUND(w0, w1, w2, w3) CUZK_FR_REDC_ROUND(w1, w2, w3, w0)
            CUZK_FR_REDC_ROUND(w2, w3, w0, w1) CUZK_FR_REDC_ROUND(w3, w0, w1, w2)
        // x = window + v_hi; top = carry
        "xorl %k[top], %k[top]\n\t"
        "addq 32(%[v]), %[w0]\n\t"
        "adcq 40(%[v]), %[w1]\n\t"
        "adcq 48(%[v]), %[w2]\n\t"
        "adcq 56(%[v]), %[w3]\n\t"
        "adcq $0, %[top]\n\t"
        : [w0] "+&r"(w0), [w1] "+&r"(w1), [w2] "+&r"(w2), [w3] "+&r"(w3), [lo] "=&r"(lo),
          [hi] "=&r"(hi), [top] "=&r"(top)
        : [p] "r"(p), [inv] "r"(fr_t::INV), [v] "r"(v),
          "m"(*reinterpret_cast<const uint64_t(*)[N]>(p)),
          "m"(*reinterpret_cast<const uint64_t(*)[2 * N]>(v))
        : "rdx", "cc");
#undef CUZK_FR_REDC_ROUND
    x[0] = w0;
    x[1] = w1;
    x[2] = w2;
    x[3] = w3;
    return top;
  }
#endif
};

/// Σ a[k]·b[k] with one reduction.
inline fr_t dot_product(const fr_t* a, const fr_t* b, size_t n) {
  fr_accumulator_t acc;
  for (size_t k = 0; k < n; ++k) acc.mac(a[k], b[k]);
  return acc.reduce();
}

}  // namespace cuzk::ff
