// SPDX-License-Identifier: Apache-2.0
// Optimal ate pairing of BLS12-381: Miller loop with G2 in homogeneous projective coordinates on
// the M-twist E': y^2 = x^3 + 4ξ and lines evaluated at the affine G1 point, then the final
// exponentiation. Formulas and costs are in the comments and in docs/notes/pairing.md.
#include "pairing/pairing.hpp"

#include <vector>

#include "ff/bls12_381_params.hpp"

namespace cuzk::pairing {

using ff::fp12_t;
using ff::fp2_t;
using ff::fp_t;

namespace {

constexpr uint64_t X_ABS = bls12_381::BLS_X_ABS;
constexpr int X_TOP_BIT = 63 - __builtin_clzll(X_ABS);
static_assert(bls12_381::BLS_X_IS_NEGATIVE);

/// A point of the twist in homogeneous coordinates: (X : Y : Z) ~ (X/Z, Y/Z).
struct g2_proj_t {
  fp2_t x, y, z;
};

/// Line coefficients in the flat Fp12 slots 0 (1), 1 (v = w^2) and 4 (vw = w^3).
struct line_t {
  fp2_t d0, d1, d4;
};

/// 12ξ·a = 3b'·a for the twist constant b' = 4ξ, additions only.
fp2_t mul_by_3b(const fp2_t& a) {
  const fp2_t t = a.mul_by_nonresidue();
  const fp2_t t4 = t.dbl().dbl();
  return t4.dbl() + t4;
}

// Untwisting ψ(x', y') = (x'/w^2, y'/w^3) maps E' to E (w^6 = ξ). A line y - λx - c through
// untwisted points, evaluated at P = (xP, yP) and multiplied by w^3, becomes
//   (λ'x'_T - y'_T) + (-λ' xP) w^2 + yP w^3,  λ' the slope on E',
// i.e. slots 0, 1, 4 of the tower. Fp2 (and Fp4 ∋ w^3) factors die in the final exponentiation, so
// each line is scaled freely to clear denominators.

/// T <- 2T and the tangent line at T (Costello–Lange–Naehrig 2010 / Aranha et al. 2011,
/// homogeneous, scaled by 4 to drop the halvings). With B = Y^2, C = Z^2, E = 3b'C, F = 3E,
/// H = (Y + Z)^2 - B - C = 2YZ:
///   X3 = 2XY(B - F), Y3 = (B + F)^2 - 12E^2, Z3 = 4BH,
///   line (times 2YZ; Y^2Z = X^3 + b'Z^3 turns 3X^3/Z into 3Y^2 - 3b'Z^2):
///   d0 = B - E, d1 = -3X^2·xP, d4 = H·yP.
/// Cost: 3M + 6S in Fp2 + 4 Fp multiplications.
line_t double_step(g2_proj_t& t, const fp_t& xp, const fp_t& yp) {
  const fp2_t a = t.x * t.y;
  const fp2_t b = t.y.sqr();
  const fp2_t c = t.z.sqr();
  const fp2_t e = mul_by_3b(c);
  const fp2_t f = e.dbl() + e;
  const fp2_t h = (t.y + t.z).sqr() - b - c;
  const fp2_t x2 = t.x.sqr();
  const fp2_t bf = b + f;
  const fp2_t e2 = e.sqr();
  line_t l{b - e, -(x2.dbl() + x2).mul_fp(xp), h.mul_fp(yp)};
  t.x = (a * (b - f)).dbl();
  t.y = bf.sqr() - (e2.dbl() + e2).dbl().dbl();
  t.z = (b * h).dbl().dbl();
  return l;
}

/// T <- T + Q (Q affine, T ≠ ±Q) and the line through them. θ = Y - yQ Z, λ = X - xQ Z (the
/// slope on E' is θ/λ); C = θ^2, D = λ^2, E = λD, F = ZC, G = XD, H = E + F - 2G:
///   X3 = λH, Y3 = θ(G - H) - YE, Z3 = ZE,
///   line (times λ): d0 = θ xQ - λ yQ, d1 = -θ·xP, d4 = λ·yP.
/// Cost: 11M + 2S in Fp2 + 4 Fp multiplications.
line_t add_step(g2_proj_t& t, const ec::g2_affine_t& q, const fp_t& xp, const fp_t& yp) {
  const fp2_t theta = t.y - q.y * t.z;
  const fp2_t lambda = t.x - q.x * t.z;
  const fp2_t c = theta.sqr();
  const fp2_t d = lambda.sqr();
  const fp2_t e = lambda * d;
  const fp2_t f = t.z * c;
  const fp2_t g = t.x * d;
  const fp2_t h = e + f - g.dbl();
  line_t l{theta * q.x - lambda * q.y, -theta.mul_fp(xp), lambda.mul_fp(yp)};
  t.x = lambda * h;
  t.y = theta * (g - h) - t.y * e;
  t.z = t.z * e;
  return l;
}

fp12_t mul_line(const fp12_t& f, const line_t& l) {
  return f.mul_by_014(l.d0, l.d1, l.d4);
}

/// a^|x| on the cyclotomic subgroup: 63 Granger–Scott squarings + 5 multiplications
/// (|x| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16).
fp12_t cyclotomic_exp_x_abs(const fp12_t& a) {
  fp12_t r = a;
  for (int i = X_TOP_BIT - 1; i >= 0; --i) {
    r = r.cyclotomic_sqr();
    if ((X_ABS >> i) & 1) r *= a;
  }
  return r;
}

/// a^x = conj(a^|x|) for x < 0 (conjugation inverts on the cyclotomic subgroup).
fp12_t exp_by_x(const fp12_t& a) {
  return cyclotomic_exp_x_abs(a).conjugate();
}

}  // namespace

fp12_t multi_miller_loop(std::span<const ec::g1_affine_t> p, std::span<const ec::g2_affine_t> q) {
  const size_t n = p.size() < q.size() ? p.size() : q.size();
  struct pair_state_t {
    const ec::g1_affine_t* p;
    const ec::g2_affine_t* q;
    g2_proj_t t;
  };
  std::vector<pair_state_t> st;
  st.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (p[i].is_infinity() || q[i].is_infinity()) continue;
    st.push_back({&p[i], &q[i], {q[i].x, q[i].y, fp2_t::one()}});
  }
  fp12_t f = fp12_t::one();
  if (st.empty()) return f;
  // Bits of |x| below the top one, most significant first. The first squaring of f = 1 is skipped.
  for (int i = X_TOP_BIT - 1; i >= 0; --i) {
    if (i != X_TOP_BIT - 1) f = f.sqr();
    for (auto& s : st) f = mul_line(f, double_step(s.t, s.p->x, s.p->y));
    if ((X_ABS >> i) & 1) {
      for (auto& s : st) f = mul_line(f, add_step(s.t, *s.q, s.p->x, s.p->y));
    }
  }
  // x < 0: f_{x,Q} = 1/f_{|x|,Q} up to a factor killed by the final exponentiation, and after it
  // the inverse is the conjugate; conjugating here keeps miller_loop's output in that convention.
  return f.conjugate();
}

fp12_t miller_loop(const ec::g1_affine_t& p, const ec::g2_affine_t& q) {
  return multi_miller_loop(std::span(&p, 1), std::span(&q, 1));
}

fp12_t final_exponentiation(const fp12_t& f) {
  // Easy part f^((p^6 - 1)(p^2 + 1)): 1 inverse, 2 multiplications, 1 Frobenius. The result g is
  // in the cyclotomic subgroup, so conjugate = inverse and Granger–Scott squaring apply.
  fp12_t t = f.conjugate() * f.inverse();
  const fp12_t g = t.frobenius_map(2) * t;
  // Hard part, 3(p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3:
  // 5 exponentiations by x, 7 multiplications, 2 Frobenius maps, 1 cyclotomic squaring.
  fp12_t a = exp_by_x(g) * g.conjugate();                                       // g^(x-1)
  a = exp_by_x(a) * a.conjugate();                                              // g^((x-1)^2)
  const fp12_t b = exp_by_x(a) * a.frobenius_map(1);                            // ^(x + p)
  const fp12_t c = exp_by_x(exp_by_x(b)) * b.frobenius_map(2) * b.conjugate();  // ^(x^2+p^2-1)
  return c * g.cyclotomic_sqr() * g;                                            // * g^3
}

fp12_t pair(const ec::g1_affine_t& p, const ec::g2_affine_t& q) {
  return final_exponentiation(miller_loop(p, q));
}

bool pairing_product_is_one(std::span<const ec::g1_affine_t> p,
                            std::span<const ec::g2_affine_t> q) {
  if (p.size() != q.size()) return false;
  return final_exponentiation(multi_miller_loop(p, q)).is_one();
}

}  // namespace cuzk::pairing
