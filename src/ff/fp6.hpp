// SPDX-License-Identifier: Apache-2.0
// fp6_t = Fp2[v]/(v^3 - ξ), ξ = 1 + u: c0 + c1·v + c2·v^2, the middle level of BLS12-381's tower
// (Fp12 = Fp6[w]/(w^2 - v)). Layout c0, c1, c2 (288 bytes), like fp2_t. Also holds the Frobenius
// coefficient tables for the whole tower, derived at compile time from the modulus alone.
#pragma once

#include <array>

#include "ff/fp2.hpp"

namespace cuzk::ff {

namespace tower_detail {

/// a / d for a small divisor d (compile-time use: exponents such as (p - 1)/6).
template <size_t N>
constexpr limbs<N> div_small(const limbs<N>& a, uint64_t d) {
  limbs<N> q{};
  u128 rem = 0;
  for (size_t i = N; i-- > 0;) {
    u128 cur = (rem << 64) | a[i];
    q[i] = uint64_t(cur / d);
    rem = cur % d;
  }
  return q;
}

/// γ_k = ξ^((p^k - 1)/6) for k = 0..11. Since p ≡ 1 (mod 6), every exponent is an integer, and
///   (p^k - 1)/6 = p·(p^(k-1) - 1)/6 + (p - 1)/6   =>   γ_k = γ_(k-1)^p · γ_1 = conj(γ_(k-1))·γ_1,
/// so one 379-bit exponentiation (γ_1) builds the table. With w^6 = v^3 = ξ these are the
/// factors w^(p^k) = γ_k·w, v^(p^k) = γ_k^2·v, v^(2p^k) = γ_k^4·v^2.
inline constexpr std::array<fp2_t, 12> FROB_GAMMA = [] {
  limbs<6> e = fp_t::MODULUS;
  sub_from(e, from_u64<6>(1));
  e = div_small(e, 6);
  const fp2_t xi{fp_t::one(), fp_t::one()};
  std::array<fp2_t, 12> g{};
  g[0] = fp2_t::one();
  g[1] = xi.pow(e);
  for (size_t k = 2; k < 12; ++k) g[k] = g[k - 1].conjugate() * g[1];
  return g;
}();

template <unsigned E>
constexpr std::array<fp2_t, 12> gamma_powers() {
  std::array<fp2_t, 12> r{};
  for (size_t k = 0; k < 12; ++k) {
    fp2_t t = fp2_t::one();
    for (unsigned i = 0; i < E; ++i) t *= FROB_GAMMA[k];
    r[k] = t;
  }
  return r;
}
/// v^(p^k) = FROB6_C1[k]·v and (v^2)^(p^k) = FROB6_C2[k]·v^2.
inline constexpr std::array<fp2_t, 12> FROB6_C1 = gamma_powers<2>();
inline constexpr std::array<fp2_t, 12> FROB6_C2 = gamma_powers<4>();

}  // namespace tower_detail

struct fp6_t {
  fp2_t c0, c1, c2;

  static constexpr fp6_t zero() { return {fp2_t::zero(), fp2_t::zero(), fp2_t::zero()}; }
  static constexpr fp6_t one() { return {fp2_t::one(), fp2_t::zero(), fp2_t::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  friend constexpr bool operator==(const fp6_t& a, const fp6_t& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }
  friend constexpr bool operator!=(const fp6_t& a, const fp6_t& b) { return !(a == b); }

  friend constexpr fp6_t operator+(const fp6_t& a, const fp6_t& b) {
    return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
  }
  friend constexpr fp6_t operator-(const fp6_t& a, const fp6_t& b) {
    return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
  }
  constexpr fp6_t operator-() const { return {-c0, -c1, -c2}; }
  constexpr fp6_t dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  /// Karatsuba over three coefficients, 6 Fp2 multiplications (18 Fp):
  ///   c0 = a0b0 + ξ((a1 + a2)(b1 + b2) - a1b1 - a2b2)
  ///   c1 = (a0 + a1)(b0 + b1) - a0b0 - a1b1 + ξ a2b2
  ///   c2 = (a0 + a2)(b0 + b2) - a0b0 - a2b2 + a1b1
  friend constexpr fp6_t operator*(const fp6_t& a, const fp6_t& b) {
    const fp2_t t0 = a.c0 * b.c0, t1 = a.c1 * b.c1, t2 = a.c2 * b.c2;
    return {((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).mul_by_nonresidue() + t0,
            (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_nonresidue(),
            (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1};
  }
  /// Chung–Hasan SQR2 (2 Fp2 squarings + 3 products, 5 in all):
  ///   s0 = a0^2, s1 = 2a0a1, s2 = (a0 - a1 + a2)^2, s3 = 2a1a2, s4 = a2^2
  ///   c0 = s0 + ξ s3, c1 = s1 + ξ s4, c2 = s1 + s2 + s3 - s0 - s4
  constexpr fp6_t sqr() const {
    const fp2_t s0 = c0.sqr(), s1 = (c0 * c1).dbl(), s2 = (c0 - c1 + c2).sqr();
    const fp2_t s3 = (c1 * c2).dbl(), s4 = c2.sqr();
    return {s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4};
  }

  constexpr fp6_t& operator+=(const fp6_t& b) { return *this = *this + b; }
  constexpr fp6_t& operator-=(const fp6_t& b) { return *this = *this - b; }
  constexpr fp6_t& operator*=(const fp6_t& b) { return *this = *this * b; }

  /// a·v = ξ a2 + a0 v + a1 v^2 (the non-residue of the Fp12 level), additions only.
  constexpr fp6_t mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }
  /// Times an Fp2 scalar, 3 Fp2 multiplications.
  constexpr fp6_t mul_fp2(const fp2_t& s) const { return {c0 * s, c1 * s, c2 * s}; }

  /// a·(b0 + b1 v), 5 Fp2 multiplications (sparse factor of a line function):
  ///   c0 = a0b0 + ξ a2b1, c1 = a0b1 + a1b0, c2 = a1b1 + a2b0
  constexpr fp6_t mul_by_01(const fp2_t& b0, const fp2_t& b1) const {
    const fp2_t t0 = c0 * b0, t1 = c1 * b1;
    return {((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0, (c0 + c1) * (b0 + b1) - t0 - t1,
            (c0 + c2) * b0 - t0 + t1};
  }
  /// a·(b1 v) = ξ a2b1 + a0b1 v + a1b1 v^2, 3 Fp2 multiplications.
  constexpr fp6_t mul_by_1(const fp2_t& b1) const {
    return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1};
  }

  /// Inverse through the norm to Fp2:
  ///   t0 = a0^2 - ξ a1a2, t1 = ξ a2^2 - a0a1, t2 = a1^2 - a0a2,
  ///   a^-1 = (t0 + t1 v + t2 v^2) / (a0t0 + ξ(a2t1 + a1t2)). Zero maps to zero.
  constexpr fp6_t inverse() const {
    const fp2_t t0 = c0.sqr() - (c1 * c2).mul_by_nonresidue();
    const fp2_t t1 = c2.sqr().mul_by_nonresidue() - c0 * c1;
    const fp2_t t2 = c1.sqr() - c0 * c2;
    const fp2_t d = (c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue()).inverse();
    return {t0 * d, t1 * d, t2 * d};
  }

  /// a^(p^power): conjugate each coefficient power times, then scale by v^(p^k - 1) factors.
  constexpr fp6_t frobenius_map(unsigned power) const {
    const unsigned k = power % 12;
    return {c0.frobenius_map(k), c1.frobenius_map(k) * tower_detail::FROB6_C1[k],
            c2.frobenius_map(k) * tower_detail::FROB6_C2[k]};
  }

  template <size_t M>
  constexpr fp6_t pow(const limbs<M>& e) const {
    fp6_t r = one();
    for (unsigned bit = bit_length(e); bit-- > 0;) {
      r = r.sqr();
      if (test_bit(e, bit)) r *= *this;
    }
    return r;
  }

  template <class Rng>
  static fp6_t random(Rng& rng) {
    fp2_t a = fp2_t::random(rng), b = fp2_t::random(rng);
    return {a, b, fp2_t::random(rng)};
  }
};

static_assert(sizeof(fp6_t) == 288);

}  // namespace cuzk::ff
