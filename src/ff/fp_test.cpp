// SPDX-License-Identifier: Apache-2.0
// Fp and Fr against GMP on random and edge inputs (typed suite, one instantiation per field).
#include <gtest/gtest.h>

#include "ff/fields.hpp"
#include "gmp_oracle.hpp"
#include "test_rng.hpp"

namespace cuzk::ff {
namespace {

using test::field_from_mpz;
using test::field_to_mpz;
using test::test_rng;

template <class F>
class field_test : public ::testing::Test {
 protected:
  mpz_class p = test::to_mpz(F::MODULUS);
  test_rng rng =
      test_rng::from_env(::testing::UnitTest::GetInstance()->current_test_info()->name());

  /// Random elements plus the edge values 0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2.
  std::vector<mpz_class> samples(int n_random) {
    std::vector<mpz_class> v = {0, 1, 2, p - 1, p - 2, (p - 1) / 2, (p + 1) / 2};
    for (int i = 0; i < n_random; ++i) v.push_back(field_to_mpz(F::random(rng)));
    return v;
  }
};

using field_types = ::testing::Types<fp_t, fr_t>;
TYPED_TEST_SUITE(field_test, field_types);

TYPED_TEST(field_test, montgomery_round_trip) {
  for (const auto& x : this->samples(200)) {
    TypeParam a = field_from_mpz<TypeParam>(x);
    EXPECT_EQ(field_to_mpz(a), x);
    // raw limbs are x·R mod p
    mpz_class R = mpz_class(1) << (64 * TypeParam::N);
    EXPECT_EQ(test::to_mpz(a.raw()), x * R % this->p);
  }
}

TYPED_TEST(field_test, add_sub_mul_match_gmp) {
  auto xs = this->samples(300);
  for (size_t i = 0; i < xs.size(); ++i) {
    const mpz_class& x = xs[i];
    const mpz_class& y = xs[(i * 7 + 3) % xs.size()];
    TypeParam a = field_from_mpz<TypeParam>(x), b = field_from_mpz<TypeParam>(y);
    mpz_class want;
    want = (x + y) % this->p;
    EXPECT_EQ(field_to_mpz(a + b), want);
    want = ((x - y) % this->p + this->p) % this->p;
    EXPECT_EQ(field_to_mpz(a - b), want);
    want = x * y % this->p;
    EXPECT_EQ(field_to_mpz(a * b), want);
    EXPECT_EQ(field_to_mpz(a.sqr()), x * x % this->p);
    EXPECT_EQ(field_to_mpz(-a), (this->p - x) % this->p);
    EXPECT_EQ(field_to_mpz(a.dbl()), 2 * x % this->p);
  }
}

TYPED_TEST(field_test, inverse_pow_legendre_match_gmp) {
  for (const auto& x : this->samples(40)) {
    TypeParam a = field_from_mpz<TypeParam>(x);
    mpz_class want = 0;
    if (x != 0) mpz_invert(want.get_mpz_t(), x.get_mpz_t(), this->p.get_mpz_t());
    EXPECT_EQ(field_to_mpz(a.inverse()), want);
    EXPECT_EQ(a.legendre(), mpz_legendre(x.get_mpz_t(), this->p.get_mpz_t()));
    uint64_t e = this->rng();
    mpz_class r;
    mpz_class ez;
    mpz_import(ez.get_mpz_t(), 1, -1, 8, 0, 0, &e);
    mpz_powm(r.get_mpz_t(), x.get_mpz_t(), ez.get_mpz_t(), this->p.get_mpz_t());
    EXPECT_EQ(field_to_mpz(a.pow(e)), r);
  }
}

TYPED_TEST(field_test, sqrt_of_squares_and_non_squares) {
  int non_squares = 0;
  for (const auto& x : this->samples(60)) {
    TypeParam a = field_from_mpz<TypeParam>(x);
    TypeParam s;
    bool is_square = mpz_legendre(x.get_mpz_t(), this->p.get_mpz_t()) >= 0;
    ASSERT_EQ(a.sqrt(s), is_square) << x;
    if (is_square) {
      EXPECT_EQ(s.sqr(), a);
    } else {
      ++non_squares;
    }
    TypeParam sq = a.sqr(), r;
    ASSERT_TRUE(sq.sqrt(r));
    EXPECT_TRUE(r == a || r == -a);
  }
  EXPECT_GT(non_squares, 0);
}

TYPED_TEST(field_test, bytes_round_trip_and_canonical_check) {
  constexpr size_t B = TypeParam::BYTES;
  for (const auto& x : this->samples(50)) {
    TypeParam a = field_from_mpz<TypeParam>(x), b;
    uint8_t le[B], be[B];
    a.to_bytes_le(le);
    a.to_bytes_be(be);
    for (size_t i = 0; i < B; ++i) EXPECT_EQ(le[i], be[B - 1 - i]);
    ASSERT_TRUE(TypeParam::from_bytes_le(le, b));
    EXPECT_EQ(a, b);
    ASSERT_TRUE(TypeParam::from_bytes_be(be, b));
    EXPECT_EQ(a, b);
  }
  // p itself and all-ones are non-canonical
  uint8_t bytes[B];
  auto m = TypeParam::MODULUS;
  for (size_t i = 0; i < B; ++i) bytes[i] = uint8_t(m[i / 8] >> (8 * (i % 8)));
  TypeParam out;
  EXPECT_FALSE(TypeParam::from_bytes_le(bytes, out));
  std::fill(bytes, bytes + B, 0xff);
  EXPECT_FALSE(TypeParam::from_bytes_le(bytes, out));
}

TYPED_TEST(field_test, lexicographic_sign) {
  for (const auto& x : this->samples(30)) {
    TypeParam a = field_from_mpz<TypeParam>(x);
    EXPECT_EQ(a.is_lexicographically_largest(), x > (this->p - 1) / 2);
  }
}

TEST(fr_constants, root_of_unity_has_order_2_pow_32) {
  fr_t w = FR_ROOT_OF_UNITY;
  for (int i = 0; i < 31; ++i) w = w.sqr();
  EXPECT_EQ(w, -fr_t::one());  // w^(2^31) = -1, so the order is exactly 2^32
  EXPECT_TRUE(w.sqr().is_one());
}

}  // namespace
}  // namespace cuzk::ff

namespace cuzk::ff {
namespace {

// The run-time multiplication (assembly on x86-64) against the portable CIOS, incl. edge values.
TYPED_TEST(field_test, runtime_mul_matches_portable) {
  std::vector<TypeParam> v = {TypeParam::zero(), TypeParam::one(), -TypeParam::one()};
  for (int i = 0; i < 500; ++i) v.push_back(TypeParam::random(this->rng));
  for (size_t i = 0; i < v.size(); ++i) {
    const TypeParam& a = v[i];
    const TypeParam& b = v[(i * 13 + 1) % v.size()];
    EXPECT_EQ(a * b, TypeParam::mul_portable(a, b));
  }
}

}  // namespace
}  // namespace cuzk::ff

#include "ff/batch_inverse.hpp"

namespace cuzk::ff {
namespace {

TYPED_TEST(field_test, batch_inverse_matches_single_and_skips_zeros) {
  std::vector<TypeParam> v;
  for (int i = 0; i < 100; ++i)
    v.push_back(i % 7 == 3 ? TypeParam::zero() : TypeParam::random(this->rng));
  std::vector<TypeParam> w = v;
  batch_inverse(std::span<TypeParam>(w));
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(w[i], v[i].inverse());
  std::vector<TypeParam> empty;
  batch_inverse(std::span<TypeParam>(empty));
}

}  // namespace
}  // namespace cuzk::ff
