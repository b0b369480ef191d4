// SPDX-License-Identifier: Apache-2.0
// Projective point templates for short-Weierstrass curves y^2 = x^3 + b (a = 0), written once over
// the coordinate field (fp_t for G1, fp2_t for G2):
//   jacobian_t: (X, Y, Z) with x = X/Z^2, y = Y/Z^3; infinity Z = 0.
//   xyzz_t:     (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; infinity ZZ = 0. Cheapest
//               mixed addition (8M + 2S), the bucket type of Pippenger MSM.
// Formulas follow the Explicit-Formulas Database (hyperelliptic.org/EFD, "g1p/auto-shortw-*"),
// named below with their costs (M = multiplication, S = squaring in the coordinate field).
#pragma once

#include "ec/curve.hpp"

namespace cuzk::ec {

template <class Field>
struct jacobian_t {
  using field_t = Field;
  using affine_type = affine_t<Field>;
  Field x, y, z;

  static constexpr jacobian_t infinity() { return {Field::one(), Field::one(), Field::zero()}; }
  static constexpr jacobian_t from_affine(const affine_type& a) {
    return a.is_infinity() ? infinity() : jacobian_t{a.x, a.y, Field::one()};
  }
  constexpr bool is_infinity() const { return z.is_zero(); }
  constexpr jacobian_t operator-() const { return {x, -y, z}; }

  /// One inversion: x = X/Z^2, y = Y/Z^3.
  constexpr affine_type to_affine() const {
    if (is_infinity()) return affine_type::infinity();
    Field zi = z.inverse(), zi2 = zi.sqr();
    return {x * zi2, y * zi2 * zi};
  }

  /// Projective equality: X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3.
  friend constexpr bool operator==(const jacobian_t& a, const jacobian_t& b) {
    if (a.is_infinity() || b.is_infinity()) return a.is_infinity() == b.is_infinity();
    Field z1z1 = a.z.sqr(), z2z2 = b.z.sqr();
    return a.x * z2z2 == b.x * z1z1 && a.y * z2z2 * b.z == b.y * z1z1 * a.z;
  }
  friend constexpr bool operator!=(const jacobian_t& a, const jacobian_t& b) { return !(a == b); }

  /// dbl-2009-l, 2M + 5S.
  constexpr jacobian_t dbl() const {
    if (is_infinity()) return *this;
    Field A = x.sqr(), B = y.sqr(), C = B.sqr();
    Field D = ((x + B).sqr() - A - C).dbl();
    Field E = A.dbl() + A, F = E.sqr();
    Field x3 = F - D.dbl();
    Field y3 = E * (D - x3) - C.dbl().dbl().dbl();
    Field z3 = (y * z).dbl();
    return {x3, y3, z3};
  }

  /// add-2007-bl, 11M + 5S; falls back to dbl when both inputs are the same point.
  friend constexpr jacobian_t operator+(const jacobian_t& p, const jacobian_t& q) {
    if (p.is_infinity()) return q;
    if (q.is_infinity()) return p;
    Field z1z1 = p.z.sqr(), z2z2 = q.z.sqr();
    Field u1 = p.x * z2z2, u2 = q.x * z1z1;
    Field s1 = p.y * q.z * z2z2, s2 = q.y * p.z * z1z1;
    Field h = u2 - u1, r = (s2 - s1).dbl();
    if (h.is_zero()) return r.is_zero() ? p.dbl() : infinity();
    Field i = h.dbl().sqr(), j = h * i, v = u1 * i;
    Field x3 = r.sqr() - j - v.dbl();
    Field y3 = r * (v - x3) - (s1 * j).dbl();
    Field z3 = ((p.z + q.z).sqr() - z1z1 - z2z2) * h;
    return {x3, y3, z3};
  }

  /// madd-2007-bl (Z2 = 1), 7M + 4S.
  constexpr jacobian_t add_affine(const affine_type& q) const {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return from_affine(q);
    Field z1z1 = z.sqr();
    Field u2 = q.x * z1z1, s2 = q.y * z * z1z1;
    Field h = u2 - x, r = (s2 - y).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : infinity();
    Field hh = h.sqr(), i = hh.dbl().dbl(), j = h * i, v = x * i;
    Field x3 = r.sqr() - j - v.dbl();
    Field y3 = r * (v - x3) - (y * j).dbl();
    Field z3 = (z + h).sqr() - z1z1 - hh;
    return {x3, y3, z3};
  }

  friend constexpr jacobian_t operator-(const jacobian_t& p, const jacobian_t& q) { return p + -q; }
  constexpr jacobian_t& operator+=(const jacobian_t& q) { return *this = *this + q; }
};

template <class Field>
struct xyzz_t {
  using field_t = Field;
  using affine_type = affine_t<Field>;
  Field x, y, zz, zzz;

  static constexpr xyzz_t infinity() {
    return {Field::one(), Field::one(), Field::zero(), Field::zero()};
  }
  static constexpr xyzz_t from_affine(const affine_type& a) {
    return a.is_infinity() ? infinity() : xyzz_t{a.x, a.y, Field::one(), Field::one()};
  }
  constexpr bool is_infinity() const { return zz.is_zero(); }
  constexpr xyzz_t operator-() const { return {x, -y, zz, zzz}; }

  /// One inversion of ZZ·ZZZ gives both 1/ZZ = inv·ZZZ and 1/ZZZ = inv·ZZ.
  constexpr affine_type to_affine() const {
    if (is_infinity()) return affine_type::infinity();
    Field inv = (zz * zzz).inverse();
    return {x * inv * zzz, y * inv * zz};
  }
  /// Z = ZZZ: then Z^2 = ZZ^3 and Z^3 = ZZZ^3, so X_j = X·ZZ^2 and Y_j = Y·ZZZ^2.
  constexpr jacobian_t<Field> to_jacobian() const {
    if (is_infinity()) return jacobian_t<Field>::infinity();
    return {x * zz.sqr(), y * zzz.sqr(), zzz};
  }

  /// dbl-2008-s-1 (a = 0), 6M + 3S.
  constexpr xyzz_t dbl() const {
    if (is_infinity()) return *this;
    Field u = y.dbl(), v = u.sqr(), w = u * v, s = x * v;
    Field x2 = x.sqr(), m = x2.dbl() + x2;
    Field x3 = m.sqr() - s.dbl();
    Field y3 = m * (s - x3) - w * y;
    return {x3, y3, v * zz, w * zzz};
  }

  /// mdbl-2008-s-1: doubling of an affine point, 3M + 2S.
  static constexpr xyzz_t dbl_affine(const affine_type& a) {
    if (a.is_infinity()) return infinity();
    Field u = a.y.dbl(), v = u.sqr(), w = u * v, s = a.x * v;
    Field x2 = a.x.sqr(), m = x2.dbl() + x2;
    Field x3 = m.sqr() - s.dbl();
    Field y3 = m * (s - x3) - w * a.y;
    return {x3, y3, v, w};
  }

  /// add-2008-s, 12M + 2S.
  friend constexpr xyzz_t operator+(const xyzz_t& p, const xyzz_t& q) {
    if (p.is_infinity()) return q;
    if (q.is_infinity()) return p;
    Field u1 = p.x * q.zz, u2 = q.x * p.zz;
    Field s1 = p.y * q.zzz, s2 = q.y * p.zzz;
    Field P = u2 - u1, R = s2 - s1;
    if (P.is_zero()) return R.is_zero() ? p.dbl() : infinity();
    Field pp = P.sqr(), ppp = P * pp, Q = u1 * pp;
    Field x3 = R.sqr() - ppp - Q.dbl();
    Field y3 = R * (Q - x3) - s1 * ppp;
    return {x3, y3, p.zz * q.zz * pp, p.zzz * q.zzz * ppp};
  }

  /// madd-2008-s (ZZ2 = ZZZ2 = 1), 8M + 2S. The MSM bucket accumulation step.
  constexpr xyzz_t add_affine(const affine_type& q) const {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return from_affine(q);
    Field u2 = q.x * zz, s2 = q.y * zzz;
    Field P = u2 - x, R = s2 - y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : infinity();
    Field pp = P.sqr(), ppp = P * pp, Q = x * pp;
    Field x3 = R.sqr() - ppp - Q.dbl();
    Field y3 = R * (Q - x3) - y * ppp;
    return {x3, y3, zz * pp, zzz * ppp};
  }
  /// Adds −q: the signed-digit bucket step.
  constexpr xyzz_t sub_affine(const affine_type& q) const { return add_affine(-q); }

  friend constexpr xyzz_t operator-(const xyzz_t& p, const xyzz_t& q) { return p + -q; }
  constexpr xyzz_t& operator+=(const xyzz_t& q) { return *this = *this + q; }
  constexpr xyzz_t& operator+=(const affine_type& q) { return *this = add_affine(q); }

  friend constexpr bool operator==(const xyzz_t& a, const xyzz_t& b) {
    return a.to_jacobian() == b.to_jacobian();
  }
};

using g1_jacobian_t = jacobian_t<fp_t>;
using g2_jacobian_t = jacobian_t<fp2_t>;
using g1_xyzz_t = xyzz_t<fp_t>;
using g2_xyzz_t = xyzz_t<fp2_t>;

}  // namespace cuzk::ec
