// SPDX-License-Identifier: Apache-2.0
// Fp6 / Fp12 tower: Karatsuba products against schoolbook ones, field axioms on random elements,
// Frobenius maps against pow(p^k) with exponents computed by GMP, the Frobenius constants against
// their definition ξ^((p^k - 1)/6), Granger–Scott squaring on cyclotomic elements.
#include <gtest/gtest.h>

#include "ff/fp12.hpp"
#include "gmp_oracle.hpp"
#include "test_rng.hpp"

namespace cuzk::ff {
namespace {

const fp2_t XI{fp_t::one(), fp_t::one()};

mpz_class p_mpz() {
  return test::to_mpz(fp_t::MODULUS);
}

template <size_t M>
limbs<M> limbs_of(const mpz_class& v) {
  return test::from_mpz<M>(v);
}

/// Schoolbook product in Fp2[v]/(v^3 - ξ): 9 Fp2 products, reduced with v^3 = ξ, v^4 = ξv.
fp6_t fp6_schoolbook(const fp6_t& a, const fp6_t& b) {
  const fp2_t A[3] = {a.c0, a.c1, a.c2}, B[3] = {b.c0, b.c1, b.c2};
  fp2_t c[5] = {fp2_t::zero(), fp2_t::zero(), fp2_t::zero(), fp2_t::zero(), fp2_t::zero()};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i + j] += A[i] * B[j];
  return {c[0] + c[3] * XI, c[1] + c[4] * XI, c[2]};
}

/// Schoolbook product in Fp6[w]/(w^2 - v).
fp12_t fp12_schoolbook(const fp12_t& a, const fp12_t& b) {
  const fp6_t v{fp2_t::zero(), fp2_t::one(), fp2_t::zero()};
  return {fp6_schoolbook(a.c0, b.c0) + fp6_schoolbook(fp6_schoolbook(a.c1, b.c1), v),
          fp6_schoolbook(a.c0, b.c1) + fp6_schoolbook(a.c1, b.c0)};
}

TEST(tower, fp6_arithmetic) {
  auto rng = test::test_rng::from_env("tower.fp6_arithmetic");
  for (int i = 0; i < 50; ++i) {
    const fp6_t a = fp6_t::random(rng), b = fp6_t::random(rng), c = fp6_t::random(rng);
    EXPECT_EQ(a * b, fp6_schoolbook(a, b));
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a - b) + b, a);
    EXPECT_EQ(a + (-a), fp6_t::zero());
    EXPECT_EQ(a.sqr(), a * a);
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ((a * a.inverse()), fp6_t::one());
    const fp6_t v{fp2_t::zero(), fp2_t::one(), fp2_t::zero()};
    EXPECT_EQ(a.mul_by_nonresidue(), a * v);
    EXPECT_EQ(a.mul_by_01(b.c0, b.c1), (a * fp6_t{b.c0, b.c1, fp2_t::zero()}));
    EXPECT_EQ(a.mul_by_1(b.c1), (a * fp6_t{fp2_t::zero(), b.c1, fp2_t::zero()}));
    EXPECT_EQ(a.mul_fp2(b.c2), (a * fp6_t{b.c2, fp2_t::zero(), fp2_t::zero()}));
  }
  EXPECT_TRUE(fp6_t::zero().inverse().is_zero());
}

TEST(tower, fp12_arithmetic) {
  auto rng = test::test_rng::from_env("tower.fp12_arithmetic");
  for (int i = 0; i < 30; ++i) {
    const fp12_t a = fp12_t::random(rng), b = fp12_t::random(rng), c = fp12_t::random(rng);
    EXPECT_EQ(a * b, fp12_schoolbook(a, b));
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a - b) + b, a);
    EXPECT_EQ(a.sqr(), a * a);
    EXPECT_EQ(a * a.inverse(), fp12_t::one());
    // sparse line product against the dense one
    const fp2_t d0 = b.c0.c0, d1 = b.c0.c1, d4 = b.c1.c1;
    const fp12_t line{{d0, d1, fp2_t::zero()}, {fp2_t::zero(), d4, fp2_t::zero()}};
    EXPECT_EQ(a.mul_by_014(d0, d1, d4), a * line);
  }
  EXPECT_TRUE(fp12_t::zero().inverse().is_zero());
  EXPECT_EQ(fp12_t::one().inverse(), fp12_t::one());
}

// The compile-time table against its definition, with exponents computed by GMP.
TEST(tower, frobenius_constants) {
  const mpz_class p = p_mpz();
  mpz_class pk = 1;
  for (int k = 0; k < 12; ++k) {
    const mpz_class e = (pk - 1) / 6;
    ASSERT_EQ(mpz_class((pk - 1) % 6), 0);
    EXPECT_EQ(tower_detail::FROB_GAMMA[k], XI.pow(limbs_of<72>(e))) << "k=" << k;
    EXPECT_EQ(tower_detail::FROB6_C1[k], XI.pow(limbs_of<72>((pk - 1) / 3))) << "k=" << k;
    EXPECT_EQ(tower_detail::FROB6_C2[k], XI.pow(limbs_of<72>(2 * (pk - 1) / 3))) << "k=" << k;
    pk *= p;
  }
  // w^6 = ξ is a sextic non-residue: γ_1 ∉ Fp and γ_6 = ξ^((p^6-1)/6) = -1.
  EXPECT_EQ(tower_detail::FROB_GAMMA[6], -fp2_t::one());
}

TEST(tower, frobenius_is_pow_p) {
  auto rng = test::test_rng::from_env("tower.frobenius_is_pow_p");
  const mpz_class p = p_mpz();
  for (int i = 0; i < 3; ++i) {
    const fp12_t a = fp12_t::random(rng);
    mpz_class pk = 1;
    for (unsigned k = 1; k <= 3; ++k) {
      pk *= p;
      EXPECT_EQ(a.frobenius_map(k), a.pow(limbs_of<18>(pk))) << "k=" << k;
      EXPECT_EQ(a.c0.frobenius_map(k), a.c0.pow(limbs_of<18>(pk))) << "fp6 k=" << k;
    }
    fp12_t b = a;
    for (unsigned k = 1; k <= 12; ++k) {
      b = b.frobenius_map(1);
      EXPECT_EQ(b, a.frobenius_map(k)) << "k=" << k;
    }
    EXPECT_EQ(b, a);  // Frobenius^12 = id
    EXPECT_EQ(a.frobenius_map(6), a.conjugate());
  }
}

TEST(tower, cyclotomic_sqr) {
  auto rng = test::test_rng::from_env("tower.cyclotomic_sqr");
  for (int i = 0; i < 20; ++i) {
    const fp12_t f = fp12_t::random(rng);
    // easy part f^((p^6 - 1)(p^2 + 1)) lands in the cyclotomic subgroup
    const fp12_t t = f.conjugate() * f.inverse();
    const fp12_t g = t.frobenius_map(2) * t;
    EXPECT_EQ(g.cyclotomic_sqr(), g.sqr());
    EXPECT_EQ(g * g.conjugate(), fp12_t::one());
    EXPECT_EQ(g.cyclotomic_sqr().cyclotomic_sqr(), g.sqr().sqr());
  }
}

TEST(tower, to_bytes_be_order) {
  // slot i (tower order) holds the integer i + 1
  fp12_t a = fp12_t::zero();
  fp2_t* parts[6] = {&a.c0.c0, &a.c0.c1, &a.c0.c2, &a.c1.c0, &a.c1.c1, &a.c1.c2};
  for (int i = 0; i < 6; ++i) *parts[i] = {fp_t::from_uint(2 * i + 1), fp_t::from_uint(2 * i + 2)};
  uint8_t out[fp12_t::BYTES];
  a.to_bytes_be(out);
  for (size_t i = 0; i < 12; ++i) {
    for (size_t j = 0; j + 1 < 48; ++j) EXPECT_EQ(out[48 * i + j], 0);
    EXPECT_EQ(out[48 * i + 47], i + 1);
  }
}

}  // namespace
}  // namespace cuzk::ff
