// SPDX-License-Identifier: Apache-2.0
// Issue 38, item 1 (experiment): Montgomery products of Fp and Fr with the FP64 pipe doing the
// multiplies. Two forms, each for both fields; the baseline is dmont_t (ff/mont_device.cuh).
//
// dfma_form<Config, N, W>: N limbs of W ≤ 52 bits held in doubles (Emmart & Weems, ARITH 2018).
//   Each limb product x·y < 2^(2W) is split exactly by two DFMA with round-toward-zero:
//     h = fma_rz(x, y, C_HI),       C_HI = 2^(W+52): h's mantissa field is H = ⌊x·y / 2^W⌋
//     l = fma_rz(x, y, C_LO − h),   C_LO = 2^(W+52) + 2^52: l = 2^52 + (x·y − H·2^W), exact,
//   so l's mantissa field is the low part L = x·y mod 2^W. Both bit patterns are added as 64-bit
//   integers into column accumulators (L into column k, H into column k + 1); the exponent fields
//   they carry are a compile-time constant per column, subtracted up front. Per limb product:
//   2 DFMA + 1 DADD + two 64-bit integer additions. Montgomery reduction interleaved by columns
//   (product scanning: column k takes a_i·b_j and m_i·p_j with i + j = k; for k < N it then
//   resolves its low W bits, m_k = t_k·(−p⁻¹) mod 2^W in integer, and adds m_k·p_0).
//   The form's R is 2^(N·W): Fr N = 5, W = 52 (R = 2^260); Fp N = 8, W = 48 (R = 2^384, the
//   standard form's R, so conversion is a re-split of the bits). Both R exceed 4p, so values
//   stay lazily in [0, 2p): (2p)²/R + p < 2p, no final subtraction.
//
// hybrid_form<Config>: 32-bit words, each held both as a word and as a double; every word product
//   runs on both pipes at once. The FP64 pipe accumulates a column's products with round-down
//   DFMA into a double biased at 2^79 (binade [2^79, 2^80), ulp 2^27): F = fma_rd(x, y, F), one
//   instruction per product; the integer pipe adds the low words, S += lo32(x·y), one IMAD (not
//   wide). The column sum is Σ = M·2^27 + E with M = F's mantissa field and E the sum of the
//   rounding errors, each in [0, 2^27): with at most 31 products per column E < 2^32, so E is the
//   low word S − lo32(M·2^27) exactly. Column resolution from there is integer only:
//     word_k = lo32(S + c),  c' = ⌊M / 32⌋ + ⌊(S + c) / 2^32⌋ + [S < lo32(M·2^27)].
//   Montgomery as in dfma_form with m_k = word_k·(−p⁻¹) mod 2^32 (one IMAD) and m_k·p_0 folded in
//   integer: c' += hi32(m_k·p_0) + [word_k ≠ 0]. R = 2^(32n) as today. Fp (4p < 2^384) stays in
//   [0, 2p); Fr (4p > 2^256) takes canonical inputs and ends with one conditional subtraction.
//
// The arithmetic is __host__ __device__: on the host the FP64 operations are modelled exactly in
// 128-bit integers (every value here is an integer below 2^106), so the same word sequences are
// checked against GMP on a CPU (fp64_products_bench --check-host) before any GPU run.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "ff/fields.hpp"

namespace cuzk::bench::fp64 {

#define CUZK_FP64_HD __host__ __device__ __forceinline__

// ---- exact FP64 primitives: device intrinsics, host integer model ---------------------------

namespace host_model {

using i128 = __int128;
using u128 = unsigned __int128;

enum class rounding { nearest_even, toward_zero, down };

/// The integer a double holds (x integral, |x| < 2^126).
inline i128 to_int(double x) {
  if (x == 0) return 0;
  int e = 0;
  const double f = std::frexp(x, &e);  // x = f·2^e, 0.5 ≤ |f| < 1
  const auto m = int64_t(std::ldexp(f, 53));
  e -= 53;
  return e >= 0 ? i128(m) * (i128(1) << e) : i128(m) / (i128(1) << -e);
}

/// v rounded to 53 significant bits as IEEE binary64 does, in the given direction.
inline double round(i128 v, rounding r) {
  const bool negative = v < 0;
  const u128 u = negative ? u128(-v) : u128(v);
  const auto hi = uint64_t(u >> 64);
  const int length = hi ? 128 - __builtin_clzll(hi) : (u ? 64 - __builtin_clzll(uint64_t(u)) : 0);
  int shift = length > 53 ? length - 53 : 0;
  u128 q = u >> shift;
  const u128 rem = u - (q << shift);
  bool up = false;
  if (shift > 0 && rem != 0) {
    const u128 half = u128(1) << (shift - 1);
    switch (r) {
      case rounding::nearest_even:
        up = rem > half || (rem == half && (q & 1));
        break;
      case rounding::toward_zero:
        up = false;
        break;
      case rounding::down:
        up = negative;
        break;
    }
  }
  if (up) q += 1;
  const double d = std::ldexp(double(uint64_t(q)), shift);  // q ≤ 2^53: exact
  return negative ? -d : d;
}

inline double fma(double a, double b, double c, rounding r) {
  return round(to_int(a) * to_int(b) + to_int(c), r);
}

}  // namespace host_model

CUZK_FP64_HD double fma_rz(double a, double b, double c) {
#ifdef __CUDA_ARCH__
  return __fma_rz(a, b, c);
#else
  return host_model::fma(a, b, c, host_model::rounding::toward_zero);
#endif
}

CUZK_FP64_HD double fma_rd(double a, double b, double c) {
#ifdef __CUDA_ARCH__
  return __fma_rd(a, b, c);
#else
  return host_model::fma(a, b, c, host_model::rounding::down);
#endif
}

CUZK_FP64_HD double sub_exact(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dsub_rn(a, b);
#else
  return host_model::round(host_model::to_int(a) - host_model::to_int(b),
                           host_model::rounding::nearest_even);
#endif
}

CUZK_FP64_HD uint64_t bits_of(double x) {
#ifdef __CUDA_ARCH__
  return uint64_t(__double_as_longlong(x));
#else
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
#endif
}

CUZK_FP64_HD double double_of_bits(uint64_t b) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double(int64_t(b));
#else
  double x;
  std::memcpy(&x, &b, 8);
  return x;
#endif
}

constexpr uint64_t TWO52_BITS = uint64_t(1023 + 52) << 52;  ///< bits of 2^52; low 52 bits zero
constexpr double TWO52 = 4503599627370496.0;

/// x < 2^52 as a double: the bits of 2^52 + x, less 2^52 (one logic op, one DADD).
CUZK_FP64_HD double double_of_small(uint64_t x) {
  return sub_exact(double_of_bits(TWO52_BITS | x), TWO52);
}

/// d (an integer in [0, 2^52)) as an integer: 2^52 + d has d in its mantissa field.
CUZK_FP64_HD uint64_t small_of_double(double d) {
  return bits_of(d + TWO52) & ((uint64_t(1) << 52) - 1);
}

CUZK_FP64_HD uint32_t mul_hi32(uint32_t x, uint32_t y) {
#ifdef __CUDA_ARCH__
  return __umulhi(x, y);
#else
  return uint32_t((uint64_t(x) * y) >> 32);
#endif
}

// ---- compile-time constants from Config::MODULUS ---------------------------------------------

/// n 64-bit values as a literal type (a plain array member: usable in device code once
/// evaluated on the host at compile time, as ff/mont_device.cuh's words_t).
template <unsigned n>
struct table_t {
  uint64_t v[n];
};

/// Bits [lo, lo + w) of the little-endian 64-bit limbs x (zero past the end), w ≤ 64.
template <size_t N64>
constexpr uint64_t bit_field(const ff::limbs<N64>& x, unsigned lo, unsigned w) {
  uint64_t r = 0;
  for (unsigned b = 0; b < w; ++b) {
    const unsigned i = lo + b;
    if (i / 64 < N64 && ((x[i / 64] >> (i % 64)) & 1)) r |= uint64_t(1) << b;
  }
  return r;
}

/// −x⁻¹ mod 2^w for odd x (Newton: each step doubles the correct low bits).
constexpr uint64_t neg_inverse(uint64_t x, unsigned w) {
  uint64_t inv = x;  // correct to 3 bits
  for (int i = 0; i < 6; ++i) inv *= 2 - x * inv;
  const uint64_t mask = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
  return (0 - inv) & mask;
}

/// The modulus cut into n fields of w bits (w = 32: its words).
template <size_t N64>
constexpr table_t<16> modulus_fields(const ff::limbs<N64>& p, unsigned n, unsigned w) {
  table_t<16> r{};
  for (unsigned i = 0; i < n; ++i) r.v[i] = bit_field(p, w * i, w);
  return r;
}

/// Number of index pairs (i, j), 0 ≤ i, j < n, with i + j = k.
CUZK_FP64_HD constexpr unsigned column_pairs(int k, int n) {
  if (k < 0 || k > 2 * n - 2) return 0;
  return unsigned(k < n ? k + 1 : 2 * n - 1 - k);
}

// ---- (a) dfma_form ---------------------------------------------------------------------------

template <class Config, unsigned N_, unsigned W_>
struct dfma_form {
  static constexpr unsigned N = N_;
  static constexpr unsigned W = W_;
  static constexpr unsigned WORDS = 2 * Config::N;  ///< 32-bit words of the standard form
  static_assert(W <= 52, "a limb product must fit the 2^(W+52) binade");
  static_assert(N * W >= 32 * WORDS - 2, "the form must hold the standard form's range");
  static constexpr uint64_t MASK = (uint64_t(1) << W) - 1;
  static constexpr uint64_t PINV = neg_inverse(Config::MODULUS[0], W);
  static constexpr table_t<16> P = modulus_fields(Config::MODULUS, N, W);
  static constexpr table_t<16> P32 = modulus_fields(Config::MODULUS, WORDS, 32);
  static constexpr bool SAME_R = N * W == 32 * WORDS;
  /// C_HI = 2^(W+52) and C_LO = C_HI + 2^52, and the exponent field C_HI's bits carry.
  static constexpr double C_HI =
      double(uint64_t(1) << (W / 2 + 26)) * double(uint64_t(1) << (W - W / 2 + 26));
  static constexpr double C_LO = C_HI + TWO52;
  static constexpr uint64_t C_HI_BITS = uint64_t(1023 + W + 52) << 52;

  double limb[N];  ///< value Σ limb_i·2^(W·i), each limb < 2^W; a·R mod p in [0, 2p), R = 2^(N·W)

  CUZK_FP64_HD static double p_double(unsigned i) {
    constexpr table_t<16> p = P;  // a local copy: the static member is host-only
    return double(p.v[i]);
  }

  /// The exponent fields that column k's accumulator will have received: 2·pairs(k) low parts
  /// (bits of 2^52 + L) and 2·pairs(k − 1) high parts (bits of C_HI + H·2^W), a·b and m·p each.
  CUZK_FP64_HD static constexpr uint64_t column_bias(int k) {
    return 0 - (uint64_t(2 * column_pairs(k, N)) * TWO52_BITS +
                uint64_t(2 * column_pairs(k - 1, N)) * C_HI_BITS);
  }

  /// x·y·2^(−N·W) mod p, in [0, 2p) for x, y in [0, 2p).
  CUZK_FP64_HD static dfma_form mul(const dfma_form& a, const dfma_form& b) {
    uint64_t acc[2 * N];
#pragma unroll
    for (unsigned k = 0; k < 2 * N; ++k) acc[k] = column_bias(int(k));
    auto limb_product = [&](double x, double y, unsigned k) {
      const double h = fma_rz(x, y, C_HI);
      const double l = fma_rz(x, y, sub_exact(C_LO, h));
      acc[k] += bits_of(l);
      acc[k + 1] += bits_of(h);
    };
    double m[N];
    uint64_t carry = 0;
    dfma_form r;
#pragma unroll
    for (unsigned k = 0; k < 2 * N; ++k) {
      const unsigned i_lo = k < N ? 0 : k - N + 1;
#pragma unroll
      for (unsigned i = i_lo; i <= k && i < N; ++i) limb_product(a.limb[i], b.limb[k - i], k);
#pragma unroll
      for (unsigned i = i_lo; i < k && i < N; ++i) limb_product(m[i], p_double(k - i), k);
      if (k < N) {
        // t_k mod 2^W is exact here: the one missing term's bias (2^52's bits) has zero low bits.
        const uint64_t mk = ((acc[k] + carry) * PINV) & MASK;
        m[k] = double_of_small(mk);
        limb_product(m[k], p_double(0), k);
        carry = (acc[k] + carry) >> W;  // low W bits are now zero
      } else {
        const uint64_t v = acc[k] + carry;
        r.limb[k - N] = double_of_small(v & MASK);
        carry = v >> W;
      }
    }
    return r;
  }

  /// From the standard form's words (a·2^(32·WORDS) mod p, canonical): a·R mod p in this form.
  /// k_in = R²/2^(32·WORDS) mod p in this form (unused when the two R agree).
  CUZK_FP64_HD static dfma_form from_standard(const uint32_t (&w)[WORDS], const dfma_form& k_in) {
    dfma_form x;
#pragma unroll
    for (unsigned i = 0; i < N; ++i) {
      const unsigned lo = W * i, q = lo / 32, s = lo % 32;
      uint64_t v = 0;
      if (q < WORDS) v = uint64_t(w[q]) >> s;
      if (q + 1 < WORDS) v |= uint64_t(w[q + 1]) << (32 - s);
      if (q + 2 < WORDS && s > 0) v |= uint64_t(w[q + 2]) << (64 - s);
      x.limb[i] = double_of_small(v & MASK);
    }
    if constexpr (SAME_R) {
      return x;
    } else {
      return mul(x, k_in);
    }
  }

  /// Back to the standard form's canonical words. k_out = 2^(32·WORDS) mod p as plain limbs.
  CUZK_FP64_HD void to_standard(uint32_t (&w)[WORDS], const dfma_form& k_out) const {
    dfma_form x = *this;
    if constexpr (!SAME_R) x = mul(x, k_out);
    uint64_t v[N];
#pragma unroll
    for (unsigned i = 0; i < N; ++i) v[i] = small_of_double(x.limb[i]);
#pragma unroll
    for (unsigned j = 0; j < WORDS; ++j) {
      const unsigned lo = 32 * j, q = lo / W, s = lo % W;
      uint64_t u = v[q] >> s;
      if (s + 32 > W && q + 1 < N) u |= v[q + 1] << (W - s);
      w[j] = uint32_t(u);
    }
    reduce_once(w);
  }

  /// w ← w − p when w ≥ p (w < 2p).
  CUZK_FP64_HD static void reduce_once(uint32_t (&w)[WORDS]) {
    constexpr table_t<16> p = P32;
    uint32_t d[WORDS];
    uint64_t borrow = 0;
#pragma unroll
    for (unsigned j = 0; j < WORDS; ++j) {
      const uint64_t t = uint64_t(w[j]) - p.v[j] - borrow;
      d[j] = uint32_t(t);
      borrow = (t >> 32) & 1;
    }
#pragma unroll
    for (unsigned j = 0; j < WORDS; ++j) w[j] = borrow ? w[j] : d[j];
  }
};

// ---- (b) hybrid_form -------------------------------------------------------------------------

template <class Config>
struct hybrid_form {
  static constexpr unsigned N = 2 * Config::N;  ///< 32-bit words
  static constexpr unsigned WORDS = N;
  /// Lazy [0, 2p) when 4p < 2^(32N) (Fp); otherwise canonical with a final subtraction (Fr).
  static constexpr bool LAZY = (Config::MODULUS[Config::N - 1] >> 61) == 0;
  static constexpr unsigned U = 27;  ///< accumulator ulp 2^27: up to 31 products per column
  static constexpr double BIAS = double(uint64_t(1) << 40) * double(uint64_t(1) << 39);  // 2^79
  static_assert(2 * N - 1 <= 31, "rounding errors of a column must stay below 2^32");
  static constexpr uint32_t PINV = uint32_t(neg_inverse(Config::MODULUS[0], 32));
  static constexpr table_t<16> P32 = modulus_fields(Config::MODULUS, N, 32);

  uint32_t w[N];  ///< a·2^(32N) mod p (lazy: in [0, 2p)), little-endian words
  double d[N];    ///< the same words as doubles

  CUZK_FP64_HD static uint32_t p_word(unsigned j) {
    constexpr table_t<16> p = P32;  // a local copy: the static member is host-only
    return uint32_t(p.v[j]);
  }
  CUZK_FP64_HD static double p_double(unsigned j) { return double(p_word(j)); }

  CUZK_FP64_HD void fill_doubles() {
#pragma unroll
    for (unsigned j = 0; j < N; ++j) d[j] = double_of_small(w[j]);
  }

  /// Column k's products summed on both pipes, then resolved: returns word_k, updates carry.
  /// SQUARE: pairs i < j once with the doubled operand 2·a_j (exact in a double, and mod 2^32).
  template <bool SQUARE>
  CUZK_FP64_HD static uint32_t column(const hybrid_form& a, const hybrid_form& b, const uint32_t* m,
                                      const double* md, unsigned k, uint64_t& carry) {
    double f = BIAS;
    uint32_t s = 0;
    const unsigned i_lo = k < N ? 0 : k - N + 1;
#pragma unroll
    for (unsigned i = i_lo; i <= k && i < N; ++i) {
      const unsigned j = k - i;
      if constexpr (SQUARE) {
        if (i > j) continue;
        const double y = i == j ? a.d[j] : a.d[j] + a.d[j];
        const uint32_t yw = i == j ? a.w[j] : a.w[j] << 1;
        f = fma_rd(a.d[i], y, f);
        s += a.w[i] * yw;
      } else {
        f = fma_rd(a.d[i], b.d[j], f);
        s += a.w[i] * b.w[j];
      }
    }
#pragma unroll
    for (unsigned i = i_lo; i < k && i < N; ++i) {
      f = fma_rd(md[i], p_double(k - i), f);
      s += m[i] * p_word(k - i);
    }
    const uint64_t mant = bits_of(f) & ((uint64_t(1) << 52) - 1);  // (f − 2^79)/2^27
    const uint32_t rounded_low = uint32_t(mant) << U;              // lo32(M·2^27)
    const uint64_t sc = uint64_t(s) + carry;
    carry = (mant >> (32 - U)) + (sc >> 32) + (s < rounded_low ? 1 : 0);
    return uint32_t(sc);
  }

  template <bool SQUARE>
  CUZK_FP64_HD static hybrid_form product(const hybrid_form& a, const hybrid_form& b) {
    uint32_t m[N];
    double md[N];
    uint64_t carry = 0;
    hybrid_form r;
#pragma unroll
    for (unsigned k = 0; k < 2 * N; ++k) {
      const uint32_t word = column<SQUARE>(a, b, m, md, k, carry);
      if (k < N) {
        // m_k·p_0 clears word k: its low word is −word_k, so it carries 1 unless word_k = 0.
        m[k] = word * PINV;
        md[k] = double_of_small(m[k]);
        carry += mul_hi32(m[k], p_word(0)) + (word != 0 ? 1 : 0);
      } else {
        r.w[k - N] = word;
      }
    }
    if constexpr (!LAZY) reduce_once(r.w);
    r.fill_doubles();
    return r;
  }

  /// x·y·2^(−32N) mod p.
  CUZK_FP64_HD static hybrid_form mul(const hybrid_form& a, const hybrid_form& b) {
    return product<false>(a, b);
  }
  CUZK_FP64_HD hybrid_form sqr() const {
    return product<true>(*this, *this);
  }

  CUZK_FP64_HD static hybrid_form from_standard(const uint32_t (&w)[WORDS]) {
    hybrid_form x;
#pragma unroll
    for (unsigned j = 0; j < N; ++j) x.w[j] = w[j];
    x.fill_doubles();
    return x;
  }
  CUZK_FP64_HD void to_standard(uint32_t (&out)[WORDS]) const {
#pragma unroll
    for (unsigned j = 0; j < N; ++j) out[j] = w[j];
    if constexpr (LAZY) reduce_once(out);
  }

  CUZK_FP64_HD static void reduce_once(uint32_t (&x)[N]) {
    uint32_t t[N];
    uint64_t borrow = 0;
#pragma unroll
    for (unsigned j = 0; j < N; ++j) {
      const uint64_t v = uint64_t(x[j]) - p_word(j) - borrow;
      t[j] = uint32_t(v);
      borrow = (v >> 32) & 1;
    }
#pragma unroll
    for (unsigned j = 0; j < N; ++j) x[j] = borrow ? x[j] : t[j];
  }
};

using fr_dfma = dfma_form<ff::fr_config, 5, 52>;
using fp_dfma = dfma_form<ff::fp_config, 8, 48>;
using fr_hybrid = hybrid_form<ff::fr_config>;
using fp_hybrid = hybrid_form<ff::fp_config>;

}  // namespace cuzk::bench::fp64
