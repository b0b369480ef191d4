// SPDX-License-Identifier: Apache-2.0
// fp12_t = Fp6[w]/(w^2 - v): c0 + c1·w, the top of BLS12-381's tower and the home of GT. Flat
// basis: 1, v, v^2, w, vw, v^2w = w^0, w^2, w^4, w^1, w^3, w^5 with w^6 = ξ. Adds the pieces the
// pairing needs: sparse line multiplication (mul_by_014), conjugation (the p^6 Frobenius) and
// Granger–Scott squaring for the cyclotomic subgroup.
#pragma once

#include "ff/fp6.hpp"

namespace cuzk::ff {

struct fp12_t {
  fp6_t c0, c1;

  static constexpr size_t BYTES = 12 * fp_t::BYTES;  ///< 576, see to_bytes_be

  static constexpr fp12_t zero() { return {fp6_t::zero(), fp6_t::zero()}; }
  static constexpr fp12_t one() { return {fp6_t::one(), fp6_t::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const fp12_t& a, const fp12_t& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  friend constexpr bool operator!=(const fp12_t& a, const fp12_t& b) { return !(a == b); }

  friend constexpr fp12_t operator+(const fp12_t& a, const fp12_t& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  friend constexpr fp12_t operator-(const fp12_t& a, const fp12_t& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  constexpr fp12_t operator-() const { return {-c0, -c1}; }

  /// Karatsuba, 3 Fp6 multiplications (54 Fp):
  ///   c0 = a0b0 + v·a1b1, c1 = (a0 + a1)(b0 + b1) - a0b0 - a1b1
  friend constexpr fp12_t operator*(const fp12_t& a, const fp12_t& b) {
    const fp6_t t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
    return {t0 + t1.mul_by_nonresidue(), (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  /// Complex squaring, 2 Fp6 multiplications (36 Fp):
  ///   t = a0a1, c0 = (a0 + a1)(a0 + v a1) - t - v t, c1 = 2t
  constexpr fp12_t sqr() const {
    const fp6_t t = c0 * c1;
    const fp6_t c = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - t - t.mul_by_nonresidue();
    return {c, t.dbl()};
  }

  constexpr fp12_t& operator+=(const fp12_t& b) { return *this = *this + b; }
  constexpr fp12_t& operator-=(const fp12_t& b) { return *this = *this - b; }
  constexpr fp12_t& operator*=(const fp12_t& b) { return *this = *this * b; }

  /// a·(d0 + d1 v + d4 v w): the shape of an M-twist line function (flat slots 0, 1, 4).
  /// With b0 = d0 + d1 v and b1 = d4 v: Karatsuba using sparse Fp6 products,
  ///   c0 = a0b0 + v·a1b1, c1 = (a0 + a1)(b0 + b1) - a0b0 - a1b1;
  /// 5 + 3 + 5 = 13 Fp2 multiplications (39 Fp) against 18 for a full product.
  constexpr fp12_t mul_by_014(const fp2_t& d0, const fp2_t& d1, const fp2_t& d4) const {
    const fp6_t t0 = c0.mul_by_01(d0, d1);
    const fp6_t t1 = c1.mul_by_1(d4);
    const fp6_t s = (c0 + c1).mul_by_01(d0, d1 + d4);
    return {t0 + t1.mul_by_nonresidue(), s - t0 - t1};
  }

  /// The p^6 Frobenius: w -> -w. On the cyclotomic subgroup (norm 1 to Fp6) this is the inverse.
  constexpr fp12_t conjugate() const { return {c0, -c1}; }

  /// (a0 - a1 w)/(a0^2 - v a1^2). Zero maps to zero.
  constexpr fp12_t inverse() const {
    const fp6_t d = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inverse();
    return {c0 * d, -(c1 * d)};
  }

  /// a^(p^power). The c1 half carries w = w^1, vw = w^3, v^2w = w^5, whose p^k-th powers gain
  /// γ_k, γ_k^3, γ_k^5: the Fp6 map (γ_k^2, γ_k^4 on c1, c2) followed by a common γ_k.
  constexpr fp12_t frobenius_map(unsigned power) const {
    const unsigned k = power % 12;
    return {c0.frobenius_map(k), c1.frobenius_map(k).mul_fp2(tower_detail::FROB_GAMMA[k])};
  }

  /// Granger–Scott squaring for elements of the cyclotomic subgroup G_Φ6(p^2) (eprint 2009/565),
  /// 9 Fp2 squarings (18 Fp) against 36 Fp for sqr(). View Fp12 = Fp4[w]/(w^3 - t) with
  /// Fp4 = Fp2[t]/(t^2 - ξ), t = w^3, and a = A + B w + C w^2 where
  ///   A = c0.c0 + c1.c1 t,  B = c1.c0 + c0.c2 t,  C = c0.c1 + c1.c2 t.
  /// Then a^2 = (3A^2 - 2 conj(A)) + (3 t C^2 + 2 conj(B)) w + (3B^2 - 2 conj(C)) w^2, where
  /// conj(x + y t) = x - y t. Only valid on the cyclotomic subgroup (after the easy part).
  constexpr fp12_t cyclotomic_sqr() const {
    // (x + y t)^2 = (x^2 + ξ y^2) + ((x + y)^2 - x^2 - y^2) t, 3 Fp2 squarings
    auto fp4_sqr = [](const fp2_t& x, const fp2_t& y, fp2_t& r0, fp2_t& r1) {
      const fp2_t x2 = x.sqr(), y2 = y.sqr();
      r0 = y2.mul_by_nonresidue() + x2;
      r1 = (x + y).sqr() - x2 - y2;
    };
    fp2_t a0, a1, b0, b1, cc0, cc1;
    fp4_sqr(c0.c0, c1.c1, a0, a1);    // A^2
    fp4_sqr(c1.c0, c0.c2, b0, b1);    // B^2
    fp4_sqr(c0.c1, c1.c2, cc0, cc1);  // C^2
    fp12_t r;
    // A' = 3A^2 - 2 conj(A)
    r.c0.c0 = (a0 - c0.c0).dbl() + a0;
    r.c1.c1 = (a1 + c1.c1).dbl() + a1;
    // B' = 3 t C^2 + 2 conj(B);  t C^2 = ξ cc1 + cc0 t
    const fp2_t tc0 = cc1.mul_by_nonresidue();
    r.c1.c0 = (tc0 + c1.c0).dbl() + tc0;
    r.c0.c2 = (cc0 - c0.c2).dbl() + cc0;
    // C' = 3B^2 - 2 conj(C)
    r.c0.c1 = (b0 - c0.c1).dbl() + b0;
    r.c1.c2 = (b1 + c1.c2).dbl() + b1;
    return r;
  }

  template <size_t M>
  constexpr fp12_t pow(const limbs<M>& e) const {
    fp12_t r = one();
    for (unsigned bit = bit_length(e); bit-- > 0;) {
      r = r.sqr();
      if (test_bit(e, bit)) r *= *this;
    }
    return r;
  }

  /// 12 canonical big-endian 48-byte Fp values in tower order
  ///   c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0, …, c1.c2.c1
  /// (the byte form of @noble/curves' Fp12.toBytes; docs/notes/pairing.md).
  constexpr void to_bytes_be(uint8_t out[BYTES]) const {
    const fp2_t* parts[6] = {&c0.c0, &c0.c1, &c0.c2, &c1.c0, &c1.c1, &c1.c2};
    for (size_t i = 0; i < 6; ++i) {
      parts[i]->c0.to_bytes_be(out + (2 * i) * fp_t::BYTES);
      parts[i]->c1.to_bytes_be(out + (2 * i + 1) * fp_t::BYTES);
    }
  }

  template <class Rng>
  static fp12_t random(Rng& rng) {
    fp6_t a = fp6_t::random(rng);
    return {a, fp6_t::random(rng)};
  }
};

static_assert(sizeof(fp12_t) == 576);

}  // namespace cuzk::ff
