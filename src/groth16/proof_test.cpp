// SPDX-License-Identifier: Apache-2.0
// Proof encoding tests: 192-byte round trips, multi-partition concatenation, and rejection of bad
// lengths, flags, the identity, off-curve and non-subgroup points.
#include <gtest/gtest.h>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialization.hpp"
#include "groth16/proof.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::fr_t;

proof random_proof(test::test_rng& rng) {
  return {ec::mul(ec::g1_generator(), fr_t::random(rng)).to_affine(),
          ec::mul(ec::g2_generator(), fr_t::random(rng)).to_affine(),
          ec::mul(ec::g1_generator(), fr_t::random(rng)).to_affine()};
}

/// A point on E1 outside G1: the smallest x ≥ 1 with x^3 + 4 a square (the cofactor is > 1, so
/// such a point is almost surely not in the subgroup; the test asserts it).
ec::g1_affine_t non_subgroup_g1() {
  for (uint64_t x = 1;; ++x) {
    const ec::fp_t fx = ec::fp_t::from_uint(x);
    ec::fp_t y;
    if ((fx.sqr() * fx + ec::curve_b<ec::fp_t>()).sqrt(y)) return {fx, y};
  }
}

TEST(Groth16Proof, RoundTripAndLayout) {
  auto rng = test::test_rng::from_env("Groth16Proof.RoundTripAndLayout");
  const proof pf = random_proof(rng);
  const auto bytes = encode_proof(pf);
  EXPECT_EQ(bytes.size(), 192u);
  // A ‖ B ‖ C, each compressed
  const auto a = ec::g1_to_compressed(pf.a);
  const auto b = ec::g2_to_compressed(pf.b);
  const auto c = ec::g1_to_compressed(pf.c);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), bytes.begin()));
  EXPECT_TRUE(std::equal(b.begin(), b.end(), bytes.begin() + 48));
  EXPECT_TRUE(std::equal(c.begin(), c.end(), bytes.begin() + 144));
  EXPECT_EQ(bytes[0] & 0x80, 0x80);
  auto back = decode_proof(bytes);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->a, pf.a);
  EXPECT_EQ(back->b, pf.b);
  EXPECT_EQ(back->c, pf.c);
}

TEST(Groth16Proof, MultiPartition) {
  auto rng = test::test_rng::from_env("Groth16Proof.MultiPartition");
  std::vector<proof> ps;
  for (int k = 0; k < 10; ++k) ps.push_back(random_proof(rng));
  const std::vector<uint8_t> bytes = encode_proofs(ps);
  ASSERT_EQ(bytes.size(), 1920u);
  for (size_t k = 0; k < ps.size(); ++k) {
    const auto one = encode_proof(ps[k]);
    EXPECT_TRUE(std::equal(one.begin(), one.end(), bytes.begin() + 192 * k));
  }
  auto back = decode_proofs(bytes);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), ps.size());
  for (size_t k = 0; k < ps.size(); ++k) EXPECT_EQ((*back)[k].b, ps[k].b);

  EXPECT_EQ(decode_proofs({}).error().code(), status_code::bad_length);
  EXPECT_EQ(decode_proofs(std::span(bytes).first(1919)).error().code(), status_code::bad_length);
  std::vector<uint8_t> bad = bytes;
  bad[192 * 7 + 60] ^= 0x40;  // corrupt partition 7's B
  auto r = decode_proofs(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("partition 7"), std::string::npos) << r.error().to_string();
}

TEST(Groth16Proof, Rejections) {
  auto rng = test::test_rng::from_env("Groth16Proof.Rejections");
  const proof pf = random_proof(rng);
  const auto good = encode_proof(pf);
  EXPECT_EQ(decode_proof(std::span(good).first(191)).error().code(), status_code::bad_length);
  std::vector<uint8_t> longer(good.begin(), good.end());
  longer.push_back(0);
  EXPECT_EQ(decode_proof(longer).error().code(), status_code::bad_length);

  // Identity A, B or C (valid compressed identity encodings 0xc0 00…).
  for (size_t off : {size_t(0), size_t(48), size_t(144)}) {
    auto b = good;
    const size_t len = off == 48 ? 96 : 48;
    std::fill(b.begin() + off, b.begin() + off + len, 0);
    b[off] = 0xc0;
    auto r = decode_proof(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code(), status_code::is_infinity) << off;
  }
  // Uncompressed flag clear on A.
  auto b = good;
  b[0] &= 0x7f;
  EXPECT_FALSE(decode_proof(b).ok());
  // Non-canonical x (all ones) on C.
  b = good;
  std::fill(b.begin() + 144, b.end(), 0xff);
  b[144] = 0x9f;
  EXPECT_FALSE(decode_proof(b).ok());
  // On the curve but not in G1.
  const ec::g1_affine_t q = non_subgroup_g1();
  ASSERT_FALSE(ec::mul(q, ec::GROUP_ORDER).is_infinity());
  proof np = pf;
  np.c = q;
  auto r = decode_proof(encode_proof(np));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::not_in_subgroup);
  // An x with no point on the curve (search for one) in A.
  for (uint64_t x = 1;; ++x) {
    const ec::fp_t fx = ec::fp_t::from_uint(x);
    ec::fp_t y;
    if ((fx.sqr() * fx + ec::curve_b<ec::fp_t>()).sqrt(y)) continue;
    b = good;
    const auto xb = ec::g1_to_compressed(ec::g1_affine_t{fx, ec::fp_t::one()});
    std::copy(xb.begin(), xb.end(), b.begin());
    b[0] = (b[0] & 0x1f) | 0x80;
    EXPECT_EQ(decode_proof(b).error().code(), status_code::not_on_curve);
    break;
  }
}

}  // namespace
}  // namespace cuzk::groth16
