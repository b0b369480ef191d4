// SPDX-License-Identifier: Apache-2.0
// ZCash encoding: known generator encodings, round trips, infinity, and every rejection code built
// by hand (flag flips, coordinates set to p, x off the curve, points outside the subgroup).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "base/hex.hpp"
#include "ec/curves.hpp"
#include "ec/ec_test_util.hpp"
#include "ec/serialization.hpp"
#include "ec/subgroup.hpp"
#include "test_rng.hpp"

namespace cuzk::ec {
namespace {

using bytes = std::vector<uint8_t>;
using cuzk::test::test_rng;

template <class A>
bytes to_vec(const A& a) {
  return bytes(a.begin(), a.end());
}

/// The encoders/decoders of one group, so the suite can be typed over G1 and G2.
struct g1_codec {
  using field = fp_t;
  static constexpr size_t C = G1_COMPRESSED_BYTES;
  static bytes compress(const g1_affine_t& p) { return to_vec(g1_to_compressed(p)); }
  static bytes uncompress(const g1_affine_t& p) { return to_vec(g1_to_uncompressed(p)); }
  static result<g1_affine_t> dec_c(const bytes& b, decode_options o = {}) {
    return g1_from_compressed(b, o);
  }
  static result<g1_affine_t> dec_u(const bytes& b, decode_options o = {}) {
    return g1_from_uncompressed(b, o);
  }
  static result<g1_affine_t> dec_any(const bytes& b, decode_options o = {}) {
    return g1_from_bytes(b, o);
  }
};
struct g2_codec {
  using field = fp2_t;
  static constexpr size_t C = G2_COMPRESSED_BYTES;
  static bytes compress(const g2_affine_t& p) { return to_vec(g2_to_compressed(p)); }
  static bytes uncompress(const g2_affine_t& p) { return to_vec(g2_to_uncompressed(p)); }
  static result<g2_affine_t> dec_c(const bytes& b, decode_options o = {}) {
    return g2_from_compressed(b, o);
  }
  static result<g2_affine_t> dec_u(const bytes& b, decode_options o = {}) {
    return g2_from_uncompressed(b, o);
  }
  static result<g2_affine_t> dec_any(const bytes& b, decode_options o = {}) {
    return g2_from_bytes(b, o);
  }
};

template <class R>
status_code code_of(const R& r) {
  return r.ok() ? status_code::ok : r.error().code();
}

// p as 48 big-endian bytes
bytes p_be() {
  bytes out(48);
  for (size_t i = 0; i < 48; ++i) out[47 - i] = uint8_t(fp_t::MODULUS[i / 8] >> (8 * (i % 8)));
  return out;
}

TEST(ec_serialization, generator_known_encodings) {
  const std::string g1x =
      "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22"
      "c6bb";
  const std::string g1y =
      "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5"
      "e7e1";
  EXPECT_EQ(to_vec(g1_to_uncompressed(g1_generator())), *from_hex(g1x + g1y));
  bytes c = *from_hex(g1x);
  c[0] |= 0x80;  // y is not the larger root
  EXPECT_EQ(to_vec(g1_to_compressed(g1_generator())), c);

  const std::string x0 =
      "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121"
      "bdb8";
  const std::string x1 =
      "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d04"
      "2b7e";
  const std::string y0 =
      "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b8"
      "2801";
  const std::string y1 =
      "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f"
      "79be";
  EXPECT_EQ(to_vec(g2_to_uncompressed(g2_generator())), *from_hex(x1 + x0 + y1 + y0));
  bytes c2 = *from_hex(x1 + x0);
  c2[0] |= 0x80;
  EXPECT_EQ(to_vec(g2_to_compressed(g2_generator())), c2);
  EXPECT_EQ(*g2_from_compressed(c2), g2_generator());
  EXPECT_EQ(*g1_from_compressed(c), g1_generator());
}

template <class Codec>
class serialization_test : public ::testing::Test {
 protected:
  using field = typename Codec::field;
  using affine = affine_t<field>;
  static constexpr size_t C = Codec::C;
  test_rng rng =
      test_rng::from_env(::testing::UnitTest::GetInstance()->current_test_info()->name());
};
using codecs = ::testing::Types<g1_codec, g2_codec>;
TYPED_TEST_SUITE(serialization_test, codecs);

TYPED_TEST(serialization_test, round_trips) {
  using codec = TypeParam;
  using field = typename TestFixture::field;
  for (int i = 0; i < 20; ++i) {
    auto p = test::random_subgroup_point<field>(this->rng);
    if (i == 1) p = -p;
    const bytes c = codec::compress(p), u = codec::uncompress(p);
    ASSERT_EQ(c.size(), this->C);
    ASSERT_EQ(u.size(), 2 * this->C);
    EXPECT_EQ(c[0] & 0xc0, 0x80);
    EXPECT_EQ(bool(c[0] & 0x20), p.y.is_lexicographically_largest());
    EXPECT_EQ(u[0] & 0xe0, 0);
    EXPECT_EQ(*codec::dec_c(c), p);
    EXPECT_EQ(*codec::dec_u(u), p);
    EXPECT_EQ(*codec::dec_any(c), p);
    EXPECT_EQ(*codec::dec_any(u), p);
    // the negation differs only in the sign bit
    bytes cn = codec::compress(-p);
    EXPECT_EQ(cn[0] ^ c[0], 0x20);
    EXPECT_EQ(*codec::dec_c(cn), -p);
  }
}

TYPED_TEST(serialization_test, infinity) {
  using codec = TypeParam;
  using affine = typename TestFixture::affine;
  const size_t C = this->C;
  bytes c(C, 0), u(2 * C, 0);
  c[0] = 0xc0;
  u[0] = 0x40;
  EXPECT_EQ(codec::compress(affine::infinity()), c);
  EXPECT_EQ(codec::uncompress(affine::infinity()), u);
  EXPECT_TRUE(codec::dec_c(c)->is_infinity());
  EXPECT_TRUE(codec::dec_u(u)->is_infinity());
  EXPECT_TRUE(codec::dec_any(c)->is_infinity());
  EXPECT_TRUE(codec::dec_any(u)->is_infinity());
}

TYPED_TEST(serialization_test, rejects_bad_length) {
  using codec = TypeParam;
  const size_t C = this->C;
  for (size_t n : {size_t(0), size_t(1), C - 1, C + 1, 2 * C - 1, 2 * C + 1, 3 * C}) {
    bytes b(n, 0);
    if (n) b[0] = 0xc0;
    EXPECT_EQ(code_of(codec::dec_c(b)), status_code::bad_length) << n;
    EXPECT_EQ(code_of(codec::dec_u(b)), status_code::bad_length) << n;
    EXPECT_EQ(code_of(codec::dec_any(b)), status_code::bad_length) << n;
  }
  // a valid compressed encoding handed to the uncompressed decoder, and vice versa
  const auto p = test::random_subgroup_point<typename TestFixture::field>(this->rng);
  EXPECT_EQ(code_of(codec::dec_u(codec::compress(p))), status_code::bad_length);
  EXPECT_EQ(code_of(codec::dec_c(codec::uncompress(p))), status_code::bad_length);
}

TYPED_TEST(serialization_test, rejects_bad_flags) {
  using codec = TypeParam;
  using affine = typename TestFixture::affine;
  const size_t C = this->C;
  const auto p = test::random_subgroup_point<typename TestFixture::field>(this->rng);
  const bytes c = codec::compress(p), u = codec::uncompress(p);
  auto expect_bad = [](const auto& r, const char* what) {
    EXPECT_EQ(code_of(r), status_code::bad_encoding) << what;
  };
  bytes b = c;
  b[0] &= 0x7f;  // compressed length, compressed flag clear
  expect_bad(codec::dec_c(b), "c: no compressed flag");
  expect_bad(codec::dec_any(b), "any: no compressed flag");
  b = u;
  b[0] |= 0x80;  // uncompressed length, compressed flag set
  expect_bad(codec::dec_u(b), "u: compressed flag");
  expect_bad(codec::dec_any(b), "any: compressed flag");
  b = u;
  b[0] |= 0x20;  // sign on an uncompressed encoding
  expect_bad(codec::dec_u(b), "u: sign flag");
  expect_bad(codec::dec_any(b), "any: sign flag");

  // infinity: sign bit, or any other nonzero bit
  bytes ci = codec::compress(affine::infinity()), ui = codec::uncompress(affine::infinity());
  b = ci;
  b[0] |= 0x20;
  expect_bad(codec::dec_c(b), "c: infinity + sign");
  b = ui;
  b[0] |= 0x20;
  expect_bad(codec::dec_u(b), "u: infinity + sign");
  for (size_t pos : {size_t(0), size_t(1), C / 2, C - 1}) {
    b = ci;
    b[pos] |= pos == 0 ? 0x01 : 0x80;
    expect_bad(codec::dec_c(b), "c: infinity + nonzero bit");
  }
  for (size_t pos : {size_t(0), size_t(5), C, 2 * C - 1}) {
    b = ui;
    b[pos] |= pos == 0 ? 0x10 : 0x01;
    expect_bad(codec::dec_u(b), "u: infinity + nonzero bit");
  }
  // infinity flag on a real point's bytes
  b = c;
  b[0] |= 0x40;
  expect_bad(codec::dec_c(b), "c: infinity flag on a point");
  b = u;
  b[0] |= 0x40;
  expect_bad(codec::dec_u(b), "u: infinity flag on a point");
  // uncompressed infinity carrying the compressed flag is a compressed-flag error at this length
  b = ui;
  b[0] |= 0x80;
  expect_bad(codec::dec_u(b), "u: 0xc0 at uncompressed length");
}

TYPED_TEST(serialization_test, rejects_non_canonical_coordinates) {
  using codec = TypeParam;
  const size_t C = this->C;
  const bytes pb = p_be();
  const auto pt = test::random_subgroup_point<typename TestFixture::field>(this->rng);
  // Overwrite each 48-byte Fp slot of each coordinate with p (then p + 1 and 2^381 − 1).
  for (size_t slot = 0; slot < 2 * C / 48; ++slot) {
    for (int variant = 0; variant < 3; ++variant) {
      bytes v = pb;
      if (variant == 1) v[47] += 1;
      if (variant == 2) {
        std::fill(v.begin(), v.end(), 0xff);
        v[0] = 0x1f;
      }
      bytes u = codec::uncompress(pt);
      std::copy(v.begin(), v.end(), u.begin() + 48 * slot);
      EXPECT_EQ(code_of(codec::dec_u(u)), status_code::non_canonical) << slot << " " << variant;
      if (slot < C / 48) {
        bytes c = codec::compress(pt);
        const uint8_t flags = c[0] & 0xe0;
        std::copy(v.begin(), v.end(), c.begin() + 48 * slot);
        c[0] |= flags;
        EXPECT_EQ(code_of(codec::dec_c(c)), status_code::non_canonical) << slot << " " << variant;
      }
    }
  }
}

TYPED_TEST(serialization_test, rejects_points_off_the_curve) {
  using codec = TypeParam;
  using field = typename TestFixture::field;
  using affine = typename TestFixture::affine;
  const size_t C = this->C;
  int found = 0;
  for (int i = 0; i < 40 && found < 5; ++i) {
    // an x whose x^3 + b is not a square has no point: encode it by hand
    affine q;
    q.x = field::random(this->rng);
    field y;
    if ((q.x.sqr() * q.x + curve_b<field>()).sqrt(y)) continue;
    ++found;
    q.y = field::one();
    bytes c = codec::uncompress(q);
    c.resize(C);
    c[0] |= 0x80;
    EXPECT_EQ(code_of(codec::dec_c(c)), status_code::not_on_curve);
    EXPECT_EQ(code_of(codec::dec_any(c)), status_code::not_on_curve);
  }
  EXPECT_EQ(found, 5);
  // a valid x with a wrong y
  const auto p = test::random_subgroup_point<field>(this->rng);
  affine bad = p;
  bad.y = p.y + field::one();
  EXPECT_EQ(code_of(codec::dec_u(codec::uncompress(bad))), status_code::not_on_curve);
  // all-zero uncompressed bytes without the infinity flag are the literal (0, 0): not on the curve
  EXPECT_EQ(code_of(codec::dec_u(bytes(2 * C, 0))), status_code::not_on_curve);
}

TYPED_TEST(serialization_test, rejects_points_outside_the_subgroup) {
  using codec = TypeParam;
  using field = typename TestFixture::field;
  for (int i = 0; i < 6; ++i) {
    const auto q = test::random_curve_point<field>(this->rng);
    if (in_subgroup_slow(q)) continue;
    const bytes c = codec::compress(q), u = codec::uncompress(q);
    EXPECT_EQ(code_of(codec::dec_c(c)), status_code::not_in_subgroup);
    EXPECT_EQ(code_of(codec::dec_u(u)), status_code::not_in_subgroup);
    EXPECT_EQ(code_of(codec::dec_any(c)), status_code::not_in_subgroup);
    // unchecked decoding (trusted parameter files) accepts them
    const decode_options unchecked{.subgroup_check = false};
    EXPECT_EQ(*codec::dec_c(c, unchecked), q);
    EXPECT_EQ(*codec::dec_u(u, unchecked), q);
  }
}

TEST(ec_serialization, g1_torsion_point_with_x_zero) {
  // compressed x = 0 decodes to (0, ±2), a point of order 3: on the curve, not in G1
  bytes c(48, 0);
  c[0] = 0x80;
  EXPECT_EQ(code_of(g1_from_compressed(c)), status_code::not_in_subgroup);
  auto q = g1_from_compressed(c, {.subgroup_check = false});
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(q->x.is_zero());
  EXPECT_EQ(q->y.sqr(), fp_t::from_uint(4));
  EXPECT_FALSE(q->is_infinity());
  c[0] = 0xa0;
  auto q2 = g1_from_compressed(c, {.subgroup_check = false});
  ASSERT_TRUE(q2.ok());
  EXPECT_EQ(q2->y, -q->y);
}

TEST(ec_serialization, error_messages_name_the_group) {
  bytes b(47, 0);
  auto r = g1_from_compressed(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("G1"), std::string::npos);
  auto r2 = g2_from_compressed(bytes(95, 0));
  EXPECT_NE(r2.error().message().find("G2"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::ec
