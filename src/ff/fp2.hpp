// SPDX-License-Identifier: Apache-2.0
// fp2_t = Fp[u]/(u^2 + 1): c0 + c1·u. The first level of BLS12-381's tower (G2 coordinates). The
// layout is c0 then c1 (96 bytes), matching the device type; serialization writes c1 ‖ c0
// (ZCash format), which lives in ec/, not here.
#pragma once

#include "ff/fields.hpp"

namespace cuzk::ff {

struct fp2_t {
  fp_t c0, c1;

  static constexpr fp2_t zero() { return {fp_t::zero(), fp_t::zero()}; }
  static constexpr fp2_t one() { return {fp_t::one(), fp_t::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const fp2_t& a, const fp2_t& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  friend constexpr bool operator!=(const fp2_t& a, const fp2_t& b) { return !(a == b); }

  CUZK_ALWAYS_INLINE friend constexpr fp2_t operator+(const fp2_t& a, const fp2_t& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  CUZK_ALWAYS_INLINE friend constexpr fp2_t operator-(const fp2_t& a, const fp2_t& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  CUZK_ALWAYS_INLINE constexpr fp2_t operator-() const { return {-c0, -c1}; }
  CUZK_ALWAYS_INLINE constexpr fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }

  /// Karatsuba, 3M: (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1)
  /// u
  CUZK_ALWAYS_INLINE friend constexpr fp2_t operator*(const fp2_t& a, const fp2_t& b) {
    fp_t t0 = a.c0 * b.c0;
    fp_t t1 = a.c1 * b.c1;
    fp_t t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }
  /// Fp2 times an Fp scalar, 2M.
  constexpr fp2_t mul_fp(const fp_t& s) const { return {c0 * s, c1 * s}; }
  /// Complex squaring, 2M: (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u
  CUZK_ALWAYS_INLINE constexpr fp2_t sqr() const {
    return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()};
  }

  constexpr fp2_t& operator+=(const fp2_t& b) { return *this = *this + b; }
  constexpr fp2_t& operator-=(const fp2_t& b) { return *this = *this - b; }
  constexpr fp2_t& operator*=(const fp2_t& b) { return *this = *this * b; }

  /// Conjugate c0 - c1 u; equals the p-power Frobenius x^p since u^p = -u.
  constexpr fp2_t conjugate() const { return {c0, -c1}; }
  constexpr fp2_t frobenius_map(unsigned power) const { return power % 2 ? conjugate() : *this; }
  /// Multiply by the sextic non-residue ξ = 1 + u: (c0 - c1) + (c0 + c1) u.
  constexpr fp2_t mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  /// Norm to Fp: c0^2 + c1^2.
  constexpr fp_t norm() const { return c0.sqr() + c1.sqr(); }
  /// (c0 - c1 u)/(c0^2 + c1^2); zero maps to zero.
  constexpr fp2_t inverse() const {
    fp_t t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }

  template <size_t M>
  constexpr fp2_t pow(const limbs<M>& e) const {
    fp2_t r = one();
    for (unsigned bit = bit_length(e); bit-- > 0;) {
      r = r.sqr();
      if (test_bit(e, bit)) r *= *this;
    }
    return r;
  }

  /// ZCash sign for Fp2: compare c1 first, and c0 when c1 = 0 (docs/spec/groth16.md §1).
  constexpr bool is_lexicographically_largest() const {
    return c1.is_zero() ? c0.is_lexicographically_largest() : c1.is_lexicographically_largest();
  }

  /// Square root for p ≡ 3 (mod 4): Adj & Rodríguez-Henríquez, "Square root computation over even
  /// extension fields", Algorithm 9 (eprint 2012/685). false when a is not a square.
  constexpr bool sqrt(fp2_t& out) const {
    if (is_zero()) {
      out = zero();
      return true;
    }
    // (p - 3)/4 = (p + 1)/4 - 1
    limbs<6> e = fp_t::P_PLUS_1_OVER_4;
    sub_from(e, from_u64<6>(1));
    const fp2_t a1 = pow(e);
    const fp2_t alpha = a1.sqr() * *this;        // a^((p-1)/2)
    const fp2_t a0 = alpha.conjugate() * alpha;  // alpha^(p+1), in Fp
    const fp2_t minus_one = -one();
    if (a0 == minus_one) return false;
    const fp2_t x0 = a1 * *this;  // a^((p+1)/4)
    fp2_t x;
    if (alpha == minus_one) {
      x = {-x0.c1, x0.c0};  // u · x0
    } else {
      const fp2_t b = (one() + alpha).pow(fp_t::P_MINUS_1_OVER_2);
      x = b * x0;
    }
    if (x.sqr() != *this) return false;
    out = x;
    return true;
  }

  template <class Rng>
  static fp2_t random(Rng& rng) {
    fp_t a = fp_t::random(rng);
    return {a, fp_t::random(rng)};
  }
};

static_assert(sizeof(fp2_t) == 96);

}  // namespace cuzk::ff
