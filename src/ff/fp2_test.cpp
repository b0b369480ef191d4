// SPDX-License-Identifier: Apache-2.0
// Fp2 against schoolbook formulas evaluated with GMP, plus square roots and inverses.
#include <gtest/gtest.h>

#include "ff/fp2.hpp"
#include "gmp_oracle.hpp"
#include "test_rng.hpp"

namespace cuzk::ff {
namespace {

TEST(fp2, mul_sqr_inverse_match_gmp) {
  auto rng = test::test_rng::from_env("fp2.mul_sqr_inverse_match_gmp");
  const mpz_class p = test::to_mpz(fp_t::MODULUS);
  auto mod = [&](mpz_class v) { return mpz_class(((v % p) + p) % p); };
  for (int i = 0; i < 200; ++i) {
    fp2_t a = fp2_t::random(rng), b = fp2_t::random(rng);
    if (i == 0) a = fp2_t::zero();
    if (i == 1) b = fp2_t::one();
    mpz_class a0 = test::field_to_mpz(a.c0), a1 = test::field_to_mpz(a.c1);
    mpz_class b0 = test::field_to_mpz(b.c0), b1 = test::field_to_mpz(b.c1);
    fp2_t c = a * b;
    EXPECT_EQ(test::field_to_mpz(c.c0), mod(a0 * b0 - a1 * b1));  // u^2 = -1
    EXPECT_EQ(test::field_to_mpz(c.c1), mod(a0 * b1 + a1 * b0));
    EXPECT_EQ(a.sqr(), a * a);
    const fp2_t xi{fp_t::one(), fp_t::one()};
    EXPECT_EQ(a.mul_by_nonresidue(), a * xi);
    if (!a.is_zero()) {
      EXPECT_TRUE((a * a.inverse()).is_one());
    }
    // Frobenius: a^p
    EXPECT_EQ(a.frobenius_map(1), a.pow(fp_t::MODULUS));
  }
  EXPECT_TRUE(fp2_t::zero().inverse().is_zero());
}

TEST(fp2, sqrt) {
  auto rng = test::test_rng::from_env("fp2.sqrt");
  int non_squares = 0;
  for (int i = 0; i < 60; ++i) {
    fp2_t a = fp2_t::random(rng), r;
    if (i == 0) a = fp2_t{fp_t::zero(), fp_t::random(rng)};  // pure imaginary
    if (i == 1) a = -fp2_t::one();                           // -1 = u^2
    ASSERT_TRUE(a.sqr().sqrt(r));
    EXPECT_TRUE(r == a || r == -a);
    fp2_t s;
    // exactly half of Fp2* are squares; the Fp2 Legendre symbol is the Fp Legendre of the norm
    bool square = a.norm().legendre() >= 0;
    EXPECT_EQ(a.sqrt(s), square);
    if (square) {
      EXPECT_EQ(s.sqr(), a);
    } else {
      ++non_squares;
    }
  }
  EXPECT_GT(non_squares, 0);
}

}  // namespace
}  // namespace cuzk::ff
