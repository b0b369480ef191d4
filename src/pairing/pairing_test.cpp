// SPDX-License-Identifier: Apache-2.0
// Optimal ate pairing: known answers from @noble/curves 2.4.0, the final exponentiation against a
// plain f^(3(p^12 - 1)/r) with the exponent computed by GMP, bilinearity with test-local affine
// scalar multiplication, the GT subgroup order, and the multi-pairing product check.
#include "pairing/pairing.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/hex.hpp"
#include "gmp_oracle.hpp"
#include "test_rng.hpp"

namespace cuzk::pairing {
namespace {

using ec::g1_affine_t;
using ec::g2_affine_t;
using ff::fp12_t;
using ff::fp2_t;
using ff::fp_t;
using ff::fr_t;

fp_t fp_hex(const char* hex) {
  return test::field_from_mpz<fp_t>(mpz_class(hex, 16));
}

const g1_affine_t G1{fp_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e8"
                            "3ff97a1aeffb3af00adb22c6bb"),
                     fp_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc7"
                            "44a2888ae40caa232946c5e7e1")};
const g2_affine_t G2{{fp_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0"
                             "326a805bbefd48056c8c121bdb8"),
                      fp_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf"
                             "11213945d57e5ac7d055d042b7e")},
                     {fp_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac"
                             "9cc3baca289e193548608b82801"),
                      fp_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370"
                             "d275cec1da1aaa9075ff05f79be")}};

// noble: bls12_381.fields.Fp12.toBytes(bls12_381.pairing(P, Q)), 12 Fp values in tower order.
const char* const E_G1_G2[12] = {
    "1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789"
    "b6",
    "089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa017"
    "0f",
    "1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e"
    "87",
    "193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c1993"
    "4f",
    "01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aa"
    "a5",
    "018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4"
    "b6",
    "19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee8"
    "9d",
    "06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab"
    "1a",
    "11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba"
    "57",
    "03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99"
    "a2",
    "04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3"
    "ef",
    "0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b6766"
    "31",
};
const char* const E_2G1_3G2[12] = {
    "0371c766e9fc22ef0009f0ab2abe2c9cae3410f24a190e53abc6191390ef98012a1d4b7f95244a9cc0f9c6e2dcfc25"
    "5d",
    "07cdeb58e0e28cd1fccfcf4f36348ef413d62f0d4a5e773d39b654118569aee06276c8f744e68ae29f0b09729d7783"
    "cf",
    "061af6e7d539af24857dc6e8d1e079eac23daa7e5ead40abd61a44cd7f60c342ed6d0727baaea8c3c1a9e9334ce363"
    "5d",
    "08c23974c99b309ca57c1cadde4299daf27d96ea915f50e2ef373b75f9c15a7156efb0ae053593de4180c7c5f7410c"
    "37",
    "0eef95df112e80fe9dfe53d814592aa13fb87bed2c4db3364d365b7b81d2c66710849807f14e0f5cadd922ca1524a0"
    "61",
    "197bf742d5d1c63701af732a65c3d00a71f360c77253aa968d155388bbe9bdf9902f261124a3a2016bc82cd2fa6ec4"
    "ff",
    "074367c3aa29d925020c4515e81dfc056b4f1778903fdd3fcb66b40c9bdb90b50e706a672bb58b5f95672a9d36430a"
    "95",
    "129f8736dc592206278f5b53ef18aec3f4da10321bd93d07e7088ca318df873ea5cf140468f21922e9d6c220c1c047"
    "e9",
    "0c315ac5d89963a2a24bf3e4a4a69fbe9eafa983dbbfdee4a6a53d30d53e1a062f089bb984c15d943c5c14b3a7983a"
    "6c",
    "1493d501ddebdd1d0dbee19326ee1e267b264c18c310cdf2e09dc3cdda4830e323469859f52d1751cff1efa2e911e0"
    "cf",
    "03889aa79c9c155c67ad16f96c1f6a1babbce80937893e02c0188935336590fd9da727a6411c5abbedcbe52dd94f87"
    "a2",
    "0082f182255b2608464109d3cf8dbb32292e7956f52c31cdf71b57a0952e87353114f54e5dda36c2409267509c2054"
    "c6",
};

std::string to_hex(const fp12_t& f) {
  uint8_t b[fp12_t::BYTES];
  fp12_to_bytes_be(f, b);
  return cuzk::to_hex(b);
}
std::string join(const char* const parts[12]) {
  std::string s;
  for (int i = 0; i < 12; ++i) s += parts[i];
  return s;
}

/// Affine double-and-add on y^2 = x^3 + b (slow: one field inversion per step; tests only).
template <class F>
ec::affine_t<F> affine_add(const ec::affine_t<F>& a, const ec::affine_t<F>& b) {
  if (a.is_infinity()) return b;
  if (b.is_infinity()) return a;
  F lambda;
  if (a.x == b.x) {
    if (a.y != b.y || a.y.is_zero()) return ec::affine_t<F>::infinity();
    const F x2 = a.x.sqr();
    lambda = (x2.dbl() + x2) * a.y.dbl().inverse();
  } else {
    lambda = (b.y - a.y) * (b.x - a.x).inverse();
  }
  const F x3 = lambda.sqr() - a.x - b.x;
  return {x3, lambda * (a.x - x3) - a.y};
}
template <class F, size_t M>
ec::affine_t<F> affine_mul(const ec::affine_t<F>& p, const ff::limbs<M>& k) {
  auto r = ec::affine_t<F>::infinity();
  for (unsigned bit = ff::bit_length(k); bit-- > 0;) {
    r = affine_add(r, r);
    if (ff::test_bit(k, bit)) r = affine_add(r, p);
  }
  return r;
}

bool on_g1_curve(const g1_affine_t& p) {
  return p.y.sqr() == p.x.sqr() * p.x + fp_t::from_uint(4);
}
bool on_g2_curve(const g2_affine_t& q) {
  const fp2_t b{fp_t::from_uint(4), fp_t::from_uint(4)};  // 4(1 + u)
  return q.y.sqr() == q.x.sqr() * q.x + b;
}

TEST(pairing, generators_on_curve_and_in_subgroup) {
  EXPECT_TRUE(on_g1_curve(G1));
  EXPECT_TRUE(on_g2_curve(G2));
  EXPECT_TRUE(affine_mul(G1, fr_t::MODULUS).is_infinity());
  EXPECT_TRUE(affine_mul(G2, fr_t::MODULUS).is_infinity());
}

TEST(pairing, known_answer_noble) {
  const fp12_t e = pair(G1, G2);
  EXPECT_EQ(to_hex(e), join(E_G1_G2));
  const auto p2 = affine_mul(G1, ff::limbs<1>{2});
  const auto q3 = affine_mul(G2, ff::limbs<1>{3});
  EXPECT_EQ(to_hex(pair(p2, q3)), join(E_2G1_3G2));
}

TEST(pairing, final_exponentiation_matches_plain_power) {
  auto rng = test::test_rng::from_env("pairing.final_exponentiation_matches_plain_power");
  const mpz_class p = test::to_mpz(fp_t::MODULUS), r = test::to_mpz(fr_t::MODULUS);
  mpz_class p12;
  mpz_pow_ui(p12.get_mpz_t(), p.get_mpz_t(), 12);
  ASSERT_EQ(mpz_class((p12 - 1) % r), 0);
  const auto e = test::from_mpz<72>(3 * ((p12 - 1) / r));
  for (int i = 0; i < 2; ++i) {
    const fp12_t f = i == 0 ? miller_loop(G1, G2) : fp12_t::random(rng);
    EXPECT_EQ(final_exponentiation(f), f.pow(e));
  }
}

TEST(pairing, non_degenerate_and_order_r) {
  const fp12_t e = pair(G1, G2);
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(fr_t::MODULUS).is_one());
}

TEST(pairing, bilinearity) {
  auto rng = test::test_rng::from_env("pairing.bilinearity");
  const fp12_t e = pair(G1, G2);
  for (int i = 0; i < 3; ++i) {
    fr_t a, b;
    if (i == 0) {
      a = fr_t::from_uint(1 + rng.below(100));
      b = fr_t::from_uint(1 + rng.below(100));
    } else {
      a = fr_t::random(rng);
      b = fr_t::random(rng);
    }
    const auto pa = affine_mul(G1, a.to_canonical());
    const auto qb = affine_mul(G2, b.to_canonical());
    const fp12_t lhs = pair(pa, qb);
    EXPECT_EQ(lhs, e.pow((a * b).to_canonical()));
    EXPECT_EQ(lhs, pair(affine_mul(G1, (a * b).to_canonical()), G2));
    EXPECT_EQ(pair(-pa, qb), lhs.conjugate());
    EXPECT_EQ(pair(-pa, qb) * lhs, fp12_t::one());
  }
}

TEST(pairing, infinity_gives_one) {
  EXPECT_TRUE(pair(g1_affine_t::infinity(), G2).is_one());
  EXPECT_TRUE(pair(G1, g2_affine_t::infinity()).is_one());
  EXPECT_TRUE(miller_loop(g1_affine_t::infinity(), g2_affine_t::infinity()).is_one());
  EXPECT_TRUE(multi_miller_loop({}, {}).is_one());
}

TEST(pairing, multi_miller_loop_and_product_check) {
  auto rng = test::test_rng::from_env("pairing.multi_miller_loop_and_product_check");
  std::vector<g1_affine_t> ps;
  std::vector<g2_affine_t> qs;
  fp12_t expect = fp12_t::one();
  for (int i = 0; i < 4; ++i) {
    ps.push_back(affine_mul(G1, ff::limbs<1>{1 + rng.below(1000)}));
    qs.push_back(affine_mul(G2, ff::limbs<1>{1 + rng.below(1000)}));
    if (i == 2) ps.back() = g1_affine_t::infinity();  // skipped pair
    expect *= pair(ps.back(), qs.back());
  }
  EXPECT_EQ(final_exponentiation(multi_miller_loop(ps, qs)), expect);

  // e(aP, Q)·e(-P, aQ) = 1, and a wrong scalar is rejected
  const fr_t a = fr_t::random(rng);
  const auto pa = affine_mul(G1, a.to_canonical());
  const auto qa = affine_mul(G2, a.to_canonical());
  const g1_affine_t p2[2] = {pa, -G1};
  const g2_affine_t q2[2] = {G2, qa};
  EXPECT_TRUE(pairing_product_is_one(p2, q2));
  const g2_affine_t q2_bad[2] = {G2, affine_add(qa, G2)};
  EXPECT_FALSE(pairing_product_is_one(p2, q2_bad));
  EXPECT_FALSE(pairing_product_is_one(std::span(p2, 2), std::span(q2, 1)));
}

}  // namespace
}  // namespace cuzk::pairing
