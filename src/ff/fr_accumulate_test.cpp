// SPDX-License-Identifier: Apache-2.0
// fr_accumulator_t against GMP: for raw limbs a_k, b_k, x_j the result's raw limbs must equal
// (Σ a_k·b_k + Σ x_j·2^256)·2^-256 mod r. Random field elements, edge values, raw inputs up to
// 2^256 - 1 (beyond r) and accumulator states set directly to extreme 576-bit values; the
// assembly kernels (MULX/ADX builds) against the portable forms.
#include <gtest/gtest.h>

#include <vector>

#include "ff/fields.hpp"
#include "ff/fr_accumulate.hpp"
#include "gmp_oracle.hpp"
#include "test_rng.hpp"

namespace cuzk::ff {
namespace {

using test::test_rng;
using test::to_mpz;

class fr_accumulate_test : public ::testing::Test {
 protected:
  mpz_class r = to_mpz(fr_t::MODULUS);
  mpz_class two256 = mpz_class(1) << 256;
  mpz_class rinv;  // 2^-256 mod r
  test_rng rng =
      test_rng::from_env(::testing::UnitTest::GetInstance()->current_test_info()->name());

  void SetUp() override { mpz_invert(rinv.get_mpz_t(), two256.get_mpz_t(), r.get_mpz_t()); }

  mpz_class raw(const fr_t& x) const { return to_mpz(x.raw()); }
  /// The expected raw limbs of reduce() for an accumulated integer T.
  mpz_class expect(const mpz_class& total) const { return total * rinv % r; }

  /// Raw values for the operands: random field elements, the edge elements 0, 1, r-1, r-2,
  /// (r±1)/2, and (only when `beyond_r`) raw limb patterns ≥ r up to 2^256 - 1.
  fr_t sample(bool beyond_r) {
    switch (rng.below(beyond_r ? 10 : 8)) {
      case 0:
        return fr_t::from_raw(limbs<4>{});
      case 1:
        return fr_t::from_raw(test::from_mpz<4>(r - 1));
      case 2:
        return fr_t::from_raw(test::from_mpz<4>(r - 2));
      case 3:
        return fr_t::from_raw(test::from_mpz<4>((r + 1) / 2));
      case 4:
        return fr_t::one();
      case 8:
        return fr_t::from_raw(limbs<4>{~0ull, ~0ull, ~0ull, ~0ull});
      case 9:
        return fr_t::from_raw(limbs<4>{rng(), rng(), rng(), rng()});
      default:
        return fr_t::random(rng);
    }
  }
};

TEST_F(fr_accumulate_test, single_product_equals_montgomery_mul) {
  for (int i = 0; i < 2000; ++i) {
    const fr_t a = sample(false), b = sample(false);
    fr_accumulator_t acc;
    acc.mac(a, b);
    EXPECT_EQ(acc.reduce(), a * b);
    EXPECT_EQ(raw(acc.reduce()), expect(raw(a) * raw(b)));
  }
}

TEST_F(fr_accumulate_test, mac_equals_portable_form_and_gmp) {
  // mac() may be the MULX/ADX kernel; its raw 576-bit state must equal the portable form's and
  // the GMP sum, limb for limb, including raw inputs up to 2^256 - 1.
  fr_accumulator_t fast, slow;
  mpz_class total = 0;
  for (int i = 0; i < 5000; ++i) {
    const fr_t a = sample(true), b = sample(true);
    fast.mac(a, b);
    slow.mac_portable(a, b);
    total += raw(a) * raw(b);
    std::array<uint64_t, 9> got;
    for (int k = 0; k < 9; ++k) got[k] = fast.t[k];
    ASSERT_EQ(to_mpz(got), total) << "step " << i;
    for (int k = 0; k < 9; ++k) ASSERT_EQ(fast.t[k], slow.t[k]) << "step " << i;
  }
}

TEST_F(fr_accumulate_test, sums_of_products_and_plain_terms_match_gmp) {
  for (int trial = 0; trial < 600; ++trial) {
    const bool beyond_r = trial % 3 == 2;
    const size_t n = rng.below(trial < 300 ? 40 : 300);
    fr_accumulator_t acc;
    mpz_class total = 0;
    fr_t field_sum = fr_t::zero();
    for (size_t k = 0; k < n; ++k) {
      const fr_t a = sample(beyond_r), b = sample(beyond_r);
      if (rng.below(4) == 0) {
        acc.add(a);
        total += raw(a) * two256;
        if (!beyond_r) field_sum += a;
      } else {
        acc.mac(a, b);
        total += raw(a) * raw(b);
        if (!beyond_r) field_sum += a * b;
      }
    }
    const fr_t got = acc.reduce();
    ASSERT_EQ(raw(got), expect(total)) << "trial " << trial << " n " << n;
    ASSERT_EQ(acc.reduce_portable(), got);
    ASSERT_LT(raw(got), r);
    if (!beyond_r) {
      ASSERT_EQ(got, field_sum);
    }
  }
}

TEST_F(fr_accumulate_test, extreme_accumulator_states) {
  // reduce() must accept any 576-bit value: all-ones, top limb only, and random limbs, including
  // values whose first fold carries into the top limb again.
  std::vector<std::array<uint64_t, 9>> states;
  states.push_back({~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull});
  states.push_back({0, 0, 0, 0, 0, 0, 0, 0, ~0ull});
  states.push_back({0, 0, 0, 0, 0, 0, 0, 0, 1});
  states.push_back({~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, 0});
  states.push_back({~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, 1});
  states.push_back({0, 0, 0, 0, 0, 0, 0, 0, 0});
  // around the short/general boundary (top limb SHORT_TOP and SHORT_TOP + 1)
  for (uint64_t top : {fr_accumulator_t::SHORT_TOP, fr_accumulator_t::SHORT_TOP + 1}) {
    states.push_back({~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, top});
    states.push_back({0, 0, 0, 0, ~0ull, ~0ull, ~0ull, ~0ull, top});
    states.push_back({~0ull, ~0ull, ~0ull, ~0ull, 0, 0, 0, 0, top});
  }
  for (int i = 0; i < 4000; ++i) {
    std::array<uint64_t, 9> s;
    for (auto& w : s) w = rng();
    switch (i % 5) {
      case 0:
        s[8] &= 0x3f;  // a realistic sum of up to ~100 products
        break;
      case 4:  // the short path, high limbs near 2^256
        s[8] = rng.below(fr_accumulator_t::SHORT_TOP + 1);
        for (int k = 4; k < 8; ++k) s[k] |= ~0ull << 8;
        break;
      case 1:  // low 512 bits just below 2^512: the first fold may carry out
        for (int k = 2; k < 8; ++k) s[k] = ~0ull;
        break;
      default:
        break;
    }
    states.push_back(s);
  }
  for (const auto& s : states) {
    fr_accumulator_t acc;
    for (int k = 0; k < 9; ++k) acc.t[k] = s[k];
    const mpz_class total = to_mpz(s);
    const fr_t got = acc.reduce();
    ASSERT_EQ(raw(got), expect(total)) << total.get_str(16);
    ASSERT_LT(raw(got), r);
    ASSERT_EQ(acc.reduce_portable(), got) << total.get_str(16);
    // the general path must agree on every state (reduce() takes it only above SHORT_TOP)
    ASSERT_EQ(acc.reduce_general(false), got) << total.get_str(16);
    ASSERT_EQ(acc.reduce_general(true), got) << total.get_str(16);
  }
}

TEST_F(fr_accumulate_test, dot_product_matches_field_arithmetic) {
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + rng.below(40);
    std::vector<fr_t> a(n), b(n);
    fr_t want = fr_t::zero();
    for (size_t k = 0; k < n; ++k) {
      a[k] = sample(false);
      b[k] = sample(false);
      want += a[k] * b[k];
    }
    ASSERT_EQ(dot_product(a.data(), b.data(), n), want);
  }
}

}  // namespace
}  // namespace cuzk::ff
