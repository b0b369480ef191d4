// SPDX-License-Identifier: Apache-2.0
// Group laws, scalar multiplication and subgroup checks for G1 and G2 (typed over both), plus the
// curve constants re-derived from their defining formulas with GMP exponents. The fast subgroup
// checks are compared with the definition r·P = O on subgroup and non-subgroup points.
#include <gtest/gtest.h>

#include "ec/curves.hpp"
#include "ec/ec_test_util.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/subgroup.hpp"
#include "gmp_oracle.hpp"
#include "test_rng.hpp"

namespace cuzk::ec {
namespace {

using cuzk::test::test_rng;
using ff::limbs;

mpz_class p_mpz() {
  return cuzk::test::to_mpz(fp_t::MODULUS);
}
mpz_class r_mpz() {
  return cuzk::test::to_mpz(GROUP_ORDER);
}

// ---- constants ----------------------------------------------------------------------------------

TEST(ec_constants, generators_on_curve_and_of_order_r) {
  EXPECT_TRUE(is_on_curve(g1_generator()));
  EXPECT_TRUE(is_on_curve(g2_generator()));
  EXPECT_FALSE(g1_generator().is_infinity());
  EXPECT_TRUE(in_subgroup_slow(g1_generator()));
  EXPECT_TRUE(in_subgroup_slow(g2_generator()));
  // (0, 0) is the infinity encoding precisely because it is on neither curve.
  EXPECT_FALSE(satisfies_curve_equation(fp_t::zero(), fp_t::zero()));
  EXPECT_FALSE(satisfies_curve_equation(fp2_t::zero(), fp2_t::zero()));
}

TEST(ec_constants, beta_is_a_primitive_cube_root_of_unity) {
  EXPECT_FALSE(G1_BETA.is_one());
  EXPECT_TRUE(G1_BETA.pow(uint64_t(3)).is_one());
  // β = 2^((p-1)/3) or its square
  const limbs<6> e = cuzk::test::from_mpz<6>(mpz_class((p_mpz() - 1) / 3));
  const fp_t w = fp_t::from_uint(2).pow(e);
  EXPECT_TRUE(G1_BETA == w || G1_BETA == w.sqr());
}

TEST(ec_constants, psi_coefficients_match_their_definition) {
  const fp2_t xi{fp_t::one(), fp_t::one()};
  const limbs<6> e3 = cuzk::test::from_mpz<6>(mpz_class((p_mpz() - 1) / 3));
  const limbs<6> e2 = cuzk::test::from_mpz<6>(mpz_class((p_mpz() - 1) / 2));
  EXPECT_EQ(G2_PSI_X, xi.pow(e3).inverse());
  EXPECT_EQ(G2_PSI_Y, xi.pow(e2).inverse());
}

TEST(ec_constants, endomorphism_eigenvalues_on_generators) {
  const g1_jacobian_t g1 = g1_jacobian_t::from_affine(g1_generator());
  // λ = −x^2 mod r
  const mpz_class x = mpz_class(-1) * cuzk::test::to_mpz(limbs<1>{BLS_X_ABS});
  const mpz_class lambda = mpz_class(((-x * x) % r_mpz() + r_mpz()) % r_mpz());
  EXPECT_EQ(g1_phi(g1), mul(g1, cuzk::test::from_mpz<4>(lambda)));
  EXPECT_EQ(g1_phi(g1_generator()), g1_phi(g1).to_affine());
  const g2_jacobian_t g2 = g2_jacobian_t::from_affine(g2_generator());
  const mpz_class x_mod_r = mpz_class((x % r_mpz() + r_mpz()) % r_mpz());
  EXPECT_EQ(g2_psi(g2), mul(g2, cuzk::test::from_mpz<4>(x_mod_r)));
  EXPECT_EQ(g2_psi(g2_generator()), g2_psi(g2).to_affine());
}

// ---- typed group-law suite ----------------------------------------------------------------------

template <class Field>
class group_test : public ::testing::Test {
 protected:
  using affine = affine_t<Field>;
  using jac = jacobian_t<Field>;
  using xyzz = xyzz_t<Field>;
  test_rng rng =
      test_rng::from_env(::testing::UnitTest::GetInstance()->current_test_info()->name());
  affine random_point() { return test::random_subgroup_point<Field>(rng); }
  jac random_jacobian() {
    // a non-trivial Z so that the projective formulas see general inputs
    jac p = jac::from_affine(random_point());
    const Field z = Field::random(rng), z2 = z.sqr();
    return {p.x * z2, p.y * z2 * z, z};
  }
};
using field_types = ::testing::Types<fp_t, fp2_t>;
TYPED_TEST_SUITE(group_test, field_types);

TYPED_TEST(group_test, identity_and_inverse) {
  using jac = typename TestFixture::jac;
  using xyzz = typename TestFixture::xyzz;
  using affine = typename TestFixture::affine;
  const jac o = jac::infinity();
  for (int i = 0; i < 8; ++i) {
    const jac p = this->random_jacobian();
    EXPECT_TRUE(is_on_curve(p));
    EXPECT_EQ(p + o, p);
    EXPECT_EQ(o + p, p);
    EXPECT_TRUE((p + -p).is_infinity());
    EXPECT_TRUE((p - p).is_infinity());
    EXPECT_EQ(p + p, p.dbl());
    const affine a = p.to_affine();
    EXPECT_EQ(p.add_affine(affine::infinity()), p);
    EXPECT_EQ(o.add_affine(a), p);
    EXPECT_EQ(p.add_affine(a), p.dbl());
    EXPECT_TRUE(p.add_affine(-a).is_infinity());
    const xyzz q = xyzz::from_affine(a);
    EXPECT_EQ((q + xyzz::infinity()).to_affine(), a);
    EXPECT_EQ((xyzz::infinity() + q).to_affine(), a);
    EXPECT_EQ((q + q).to_affine(), p.dbl().to_affine());
    EXPECT_EQ(q.add_affine(a).to_affine(), p.dbl().to_affine());
    EXPECT_TRUE((q + -q).is_infinity());
    EXPECT_TRUE(q.sub_affine(a).is_infinity());
  }
  EXPECT_TRUE(o.dbl().is_infinity());
  EXPECT_TRUE((o + o).is_infinity());
  EXPECT_TRUE(jac::from_affine(affine::infinity()).is_infinity());
  EXPECT_TRUE(o.to_affine().is_infinity());
  EXPECT_TRUE(is_on_curve(affine::infinity()));
  EXPECT_TRUE(in_subgroup(affine::infinity()));
  EXPECT_EQ(-affine::infinity(), affine::infinity());
}

TYPED_TEST(group_test, associative_commutative_and_representations_agree) {
  using jac = typename TestFixture::jac;
  using xyzz = typename TestFixture::xyzz;
  for (int i = 0; i < 8; ++i) {
    const jac a = this->random_jacobian(), b = this->random_jacobian(), c = this->random_jacobian();
    EXPECT_EQ(a + b, b + a);
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ((a + b).dbl(), a.dbl() + b.dbl());
    const auto aa = a.to_affine(), ba = b.to_affine(), ca = c.to_affine();
    const jac sum = (a + b) + c;
    EXPECT_TRUE(is_on_curve(sum));
    EXPECT_EQ(jac::from_affine(aa).add_affine(ba).add_affine(ca), sum);
    // xyzz: general add, mixed add, doubling, affine doubling all land on the same affine point
    const xyzz xa = xyzz::from_affine(aa), xb = xyzz::from_affine(ba);
    const xyzz xs = (xa + xb).add_affine(ca);
    EXPECT_EQ(xs.to_affine(), sum.to_affine());
    EXPECT_EQ(xs.to_jacobian(), sum);
    EXPECT_EQ(xa.dbl().to_affine(), a.dbl().to_affine());
    EXPECT_EQ(xyzz::dbl_affine(aa).to_affine(), a.dbl().to_affine());
    EXPECT_EQ((xs + xs).to_affine(), sum.dbl().to_affine());
    EXPECT_EQ(xs.sub_affine(ca).to_affine(), (a + b).to_affine());
  }
}

TYPED_TEST(group_test, scalar_mul_laws) {
  using jac = typename TestFixture::jac;
  using Field = TypeParam;
  const jac g = jac::from_affine(curve_traits<Field>::GENERATOR);
  // r·G = O, (r−1)·G = −G, 0·P = O, 1·P = P, 2·P = dbl
  EXPECT_TRUE(mul(g, GROUP_ORDER).is_infinity());
  limbs<4> r_minus_1 = GROUP_ORDER;
  ff::sub_from(r_minus_1, ff::from_u64<4>(1));
  EXPECT_EQ(mul(g, r_minus_1), -g);
  EXPECT_EQ(mul(g, fr_t::zero() - fr_t::one()), -g);
  for (int i = 0; i < 6; ++i) {
    const jac p = this->random_jacobian();
    EXPECT_TRUE(mul(p, fr_t::zero()).is_infinity());
    EXPECT_EQ(mul(p, fr_t::one()), p);
    EXPECT_EQ(mul(p, fr_t::from_uint(2)), p.dbl());
    EXPECT_EQ(mul_u64(p, 0), jac::infinity());
    EXPECT_EQ(mul_u64(p, 5), p.dbl().dbl() + p);
    EXPECT_TRUE(mul(jac::infinity(), fr_t::random(this->rng)).is_infinity());
    const fr_t a = fr_t::random(this->rng), b = fr_t::random(this->rng);
    EXPECT_EQ(mul(p, a + b), mul(p, a) + mul(p, b));
    EXPECT_EQ(mul(p, a * b), mul(mul(p, b), a));
    EXPECT_EQ(mul(p, -a), -mul(p, a));
    // wNAF against the plain double-and-add reference, and mul_u64 against both
    const auto pa = p.to_affine();
    EXPECT_EQ(mul(p, a), test::mul_reference(pa, a.to_canonical()));
    const uint64_t k = this->rng();
    EXPECT_EQ(mul_u64(p, k), mul(p, limbs<1>{k}));
    EXPECT_EQ(mul_by_bls_x(p), -mul(p, limbs<1>{BLS_X_ABS}));
    // unreduced scalars: (k + r)·P = k·P for P in the subgroup
    limbs<5> big{};
    const limbs<4> ac = a.to_canonical();
    for (size_t j = 0; j < 4; ++j) big[j] = ac[j];
    limbs<5> r5{};
    for (size_t j = 0; j < 4; ++j) r5[j] = GROUP_ORDER[j];
    ff::add_to(big, r5);
    EXPECT_EQ(mul(p, big), mul(p, a));
  }
  // edge scalars with long runs of ones and zeros exercise the wNAF carry
  const limbs<4> all_ones = {~0ull, ~0ull, ~0ull, ~0ull};
  const limbs<4> sparse = {0x8000000000000001ull, 0, 0xf0f0f0f0f0f0f0f0ull, 1};
  const auto ga = curve_traits<Field>::GENERATOR;
  EXPECT_EQ(mul(g, all_ones), test::mul_reference(ga, all_ones));
  EXPECT_EQ(mul(g, sparse), test::mul_reference(ga, sparse));
}

TYPED_TEST(group_test, fast_subgroup_check_matches_definition) {
  using affine = typename TestFixture::affine;
  using Field = TypeParam;
  int outside = 0;
  for (int i = 0; i < 12; ++i) {
    const affine in = this->random_point();
    EXPECT_TRUE(in_subgroup_slow(in));
    EXPECT_TRUE(in_subgroup(in));
    const affine any = test::random_curve_point<Field>(this->rng);
    ASSERT_TRUE(is_on_curve(any));
    const bool slow = in_subgroup_slow(any);
    EXPECT_EQ(in_subgroup(any), slow);
    outside += !slow;
    // a non-subgroup point plus a subgroup point stays outside
    const affine mixed = (jacobian_t<Field>::from_affine(any).add_affine(in)).to_affine();
    EXPECT_EQ(in_subgroup(mixed), in_subgroup_slow(mixed));
  }
  EXPECT_GT(outside, 8);  // random curve points are almost never in the subgroup
}

TEST(ec_subgroup, g1_three_torsion_point_is_rejected) {
  // (0, ±2): 2^2 = 0^3 + 4, a point of order 3 (3 divides the G1 cofactor)
  const g1_affine_t t = {fp_t::zero(), fp_t::from_uint(2)};
  ASSERT_TRUE(is_on_curve(t));
  const g1_jacobian_t tj = g1_jacobian_t::from_affine(t);
  EXPECT_TRUE(mul_u64(tj, 3).is_infinity());
  EXPECT_FALSE(in_subgroup(t));
  EXPECT_FALSE(in_subgroup_slow(t));
}

}  // namespace
}  // namespace cuzk::ec
