// SPDX-License-Identifier: Apache-2.0
// CPU NTT against a naive O(n²) DFT (2^0…2^10, all four transforms), round trips up to 2^20,
// ordering consistency, thread-count independence, edge inputs, the domain constants, and the
// lazy-reduction kernels ([0, 2r) ranges) against their portable forms and Fr arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ff/bigint.hpp"
#include "ntt/ntt_cpu.hpp"
#include "ntt/ntt_kernels.hpp"
#include "test_rng.hpp"

namespace cuzk::ntt {
namespace {

using ff::fr_t;
using test::test_rng;

test_rng make_rng() {
  return test_rng::from_env(::testing::UnitTest::GetInstance()->current_test_info()->name());
}

std::vector<fr_t> random_vec(size_t n, test_rng& rng) {
  std::vector<fr_t> v(n);
  for (auto& x : v) x = fr_t::random(rng);
  return v;
}

domain_t dom_of(unsigned lg) {
  auto d = domain_t::for_log_size(lg);
  EXPECT_TRUE(d.ok()) << d.error().to_string();
  return std::move(d).value();
}

/// out[k] = post^k · Σ_i pre^i · x[i] · w^(ik) · scale, evaluated directly.
std::vector<fr_t> naive(const std::vector<fr_t>& x, const fr_t& w, const fr_t& pre,
                        const fr_t& post, const fr_t& scale) {
  const size_t n = x.size();
  std::vector<fr_t> y(x.size());
  std::vector<fr_t> xs(n);
  fr_t p = scale;
  for (size_t i = 0; i < n; ++i, p *= pre) xs[i] = x[i] * p;
  fr_t wk = fr_t::one(), pk = fr_t::one();  // w^k, post^k
  for (size_t k = 0; k < n; ++k) {
    fr_t acc = fr_t::zero(), wik = fr_t::one();
    for (size_t i = 0; i < n; ++i) {
      acc += xs[i] * wik;
      wik *= wk;
    }
    y[k] = acc * pk;
    wk *= w;
    pk *= post;
  }
  return y;
}

enum class kind { fwd, inv, coset_fwd, coset_inv };
constexpr kind ALL_KINDS[] = {kind::fwd, kind::inv, kind::coset_fwd, kind::coset_inv};
constexpr ntt_order ALL_ORDERS[] = {ntt_order::nn, ntt_order::nr, ntt_order::rn, ntt_order::rr};

void apply(kind k, const domain_t& d, std::vector<fr_t>& a, thread_pool& pool,
           ntt_order o = ntt_order::nn) {
  switch (k) {
    case kind::fwd:
      return fft(d, a, pool, o);
    case kind::inv:
      return ifft(d, a, pool, o);
    case kind::coset_fwd:
      return coset_fft(d, a, pool, o);
    case kind::coset_inv:
      return icoset_fft(d, a, pool, o);
  }
}

std::vector<fr_t> naive_of(kind k, const domain_t& d, const std::vector<fr_t>& x) {
  const fr_t one = fr_t::one();
  switch (k) {
    case kind::fwd:
      return naive(x, d.omega(), one, one, one);
    case kind::inv:
      return naive(x, d.omega_inv(), one, one, d.size_inv());
    case kind::coset_fwd:
      return naive(x, d.omega(), d.coset_gen(), one, one);
    case kind::coset_inv:
      return naive(x, d.omega_inv(), one, d.coset_gen_inv(), d.size_inv());
  }
  return {};
}

std::vector<fr_t> bitrev_copy(std::vector<fr_t> v) {
  thread_pool pool(1);
  bit_reverse(v, pool);
  return v;
}

TEST(ntt_domain, constants) {
  const fr_t one = fr_t::one();
  const ff::limbs<4> r_minus_1 = [] {
    ff::limbs<4> r = fr_t::MODULUS;
    ff::sub_from(r, ff::from_u64<4>(1));
    return r;
  }();
  for (unsigned lg : {0u, 1u, 2u, 5u, 12u, 13u, 20u, 27u, 31u, 32u}) {
    domain_t d = dom_of(lg);
    const uint64_t m = d.size();
    EXPECT_EQ(m, uint64_t(1) << lg);
    EXPECT_EQ(d.log_cols() + d.log_rows(), lg);
    // ω = 7^((r-1)/m), derived here by a single pow instead of repeated squaring
    EXPECT_EQ(d.omega(), fr_t::from_uint(7).pow(ff::shift_right(r_minus_1, lg))) << lg;
    fr_t wm = d.omega();
    for (unsigned i = 0; i < lg; ++i) wm = wm.sqr();
    EXPECT_EQ(wm, one) << "ω^m = 1, lg " << lg;
    if (lg > 0) {
      fr_t half = d.omega();
      for (unsigned i = 1; i < lg; ++i) half = half.sqr();
      EXPECT_EQ(half, -one) << "ω^(m/2) = -1, lg " << lg;
    }
    EXPECT_EQ(d.omega() * d.omega_inv(), one);
    EXPECT_EQ(d.size_inv() * fr_t::from_uint(m), one);
    EXPECT_EQ(d.coset_gen(), fr_t::from_uint(7));
    EXPECT_EQ(d.coset_gen() * d.coset_gen_inv(), one);
    EXPECT_EQ(d.z_coset(), fr_t::from_uint(7).pow(m) - one) << lg;
    EXPECT_EQ(d.z_coset() * d.z_coset_inv(), one);
    // the stage table: entry h + j is w_2h^j with w_2h = ω^(m/2h)
    auto tw = d.stage_twiddles(false);
    auto twi = d.stage_twiddles(true);
    for (size_t h = 1; 2 * h <= (size_t(1) << d.log_rows()); h *= 2) {
      EXPECT_EQ(tw[h], one);
      EXPECT_EQ(twi[h], one);
      if (h > 1) {
        EXPECT_EQ(tw[h + 1], d.omega().pow(m / (2 * h))) << "lg " << lg << " h " << h;
        EXPECT_EQ(twi[h + 1] * tw[h + 1], one);
        EXPECT_EQ(tw[h + h - 1] * tw[h + 1], -one);  // w^(h-1)·w = w^h = -1
      }
    }
  }
  // m = 2^32 · 1 as a size is fine, 2^32 + 1 values is not
  EXPECT_TRUE(domain_t::create(uint64_t(1) << 32).ok());
  auto too_big = domain_t::create((uint64_t(1) << 32) + 1);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.error().code(), status_code::invalid_argument);
  EXPECT_FALSE(domain_t::for_log_size(33).ok());
  EXPECT_EQ(domain_t::create(0)->size(), 1u);
  EXPECT_EQ(domain_t::create(1)->size(), 1u);
  EXPECT_EQ(domain_t::create(5)->size(), 8u);
  EXPECT_EQ(domain_t::create(1024)->size(), 1024u);
  EXPECT_EQ(domain_t::create(1025)->size(), 2048u);
}

TEST(ntt, matches_naive_dft) {
  test_rng rng = make_rng();
  thread_pool pool(2);
  for (unsigned lg = 0; lg <= 10; ++lg) {
    domain_t d = dom_of(lg);
    auto x = random_vec(d.size(), rng);
    for (kind k : ALL_KINDS) {
      auto want = naive_of(k, d, x);
      auto got = x;
      apply(k, d, got, pool);
      EXPECT_EQ(got, want) << "lg " << lg << " kind " << int(k);
    }
  }
}

/// One output of the naive transform: out[k] = post^k · scale · Σ_i pre^i · x[i] · w^(ik), O(n).
fr_t naive_point(kind k, const domain_t& d, const std::vector<fr_t>& x, uint64_t idx) {
  const bool inv = k == kind::inv || k == kind::coset_inv;
  const fr_t w = (inv ? d.omega_inv() : d.omega()).pow(idx);
  const fr_t pre = k == kind::coset_fwd ? d.coset_gen() : fr_t::one();
  const fr_t post = k == kind::coset_inv ? d.coset_gen_inv().pow(idx) : fr_t::one();
  const fr_t step = w * pre;  // term i carries (pre·w^idx)^i
  fr_t acc = fr_t::zero();
  for (size_t i = x.size(); i-- > 0;) acc = acc * step + x[i];  // Horner
  return acc * post * (inv ? d.size_inv() : fr_t::one());
}

// The four-step path starts above 2^12; check it against the naive DFT, point by point, at its
// smallest sizes (2^13 = 2^6 × 2^7, 2^14 = 2^7 × 2^7) and 2^16, in both natural-output flows.
TEST(ntt, four_step_matches_naive_dft) {
  test_rng rng = make_rng();
  thread_pool pool(2);
  for (unsigned lg : {13u, 14u, 16u}) {
    domain_t d = dom_of(lg);
    ASSERT_GT(d.log_cols(), 0u);
    auto x = random_vec(d.size(), rng);
    std::vector<uint64_t> points = {0, 1, 2, d.size() / 2, d.size() - 1};
    for (int i = 0; i < 12; ++i) points.push_back(rng.below(d.size()));
    for (kind k : ALL_KINDS) {
      for (ntt_order o : {ntt_order::nn, ntt_order::rn}) {
        auto got = o == ntt_order::rn ? bitrev_copy(x) : x;
        apply(k, d, got, pool, o);
        for (uint64_t p : points) {
          EXPECT_EQ(got[p], naive_point(k, d, x, p))
              << "lg " << lg << " kind " << int(k) << " order " << int(o) << " k " << p;
        }
      }
    }
  }
}

TEST(ntt, round_trips) {
  test_rng rng = make_rng();
  thread_pool pool(2);
  for (unsigned lg = 11; lg <= 20; ++lg) {
    domain_t d = dom_of(lg);
    auto x = random_vec(d.size(), rng);
    auto a = x;
    fft(d, a, pool);
    EXPECT_NE(a, x);
    ifft(d, a, pool);
    EXPECT_EQ(a, x) << "ifft∘fft, lg " << lg;
    coset_fft(d, a, pool);
    icoset_fft(d, a, pool);
    EXPECT_EQ(a, x) << "icoset∘coset, lg " << lg;
    if (lg > 18) continue;  // the nr/rn pairs again at the smaller sizes (time budget)
    fft(d, a, pool, ntt_order::nr);
    ifft(d, a, pool, ntt_order::rn);
    EXPECT_EQ(a, x) << "ifft_rn∘fft_nr, lg " << lg;
    coset_fft(d, a, pool, ntt_order::nr);
    icoset_fft(d, a, pool, ntt_order::rn);
    EXPECT_EQ(a, x) << "icoset_rn∘coset_nr, lg " << lg;
  }
}

// Round trips alone would not catch a transform and its inverse being wrong in matching ways;
// spot-check outputs of all four transforms at 2^18 and 2^20 against the O(n) single-point DFT.
TEST(ntt, large_spot_values) {
  test_rng rng = make_rng();
  thread_pool pool(2);
  for (unsigned lg : {18u, 20u}) {
    domain_t d = dom_of(lg);
    auto x = random_vec(d.size(), rng);
    for (kind k : ALL_KINDS) {
      auto a = x;
      apply(k, d, a, pool);
      for (int s = 0; s < 3; ++s) {
        const uint64_t p = rng.below(d.size());
        EXPECT_EQ(a[p], naive_point(k, d, x, p)) << "lg " << lg << " kind " << int(k) << " k " << p;
      }
    }
  }
}

TEST(ntt, orderings_consistent) {
  test_rng rng = make_rng();
  thread_pool pool(2);
  for (unsigned lg : {0u, 1u, 3u, 8u, 9u, 12u, 13u, 14u, 17u}) {
    domain_t d = dom_of(lg);
    auto x = random_vec(d.size(), rng);
    const auto xr = bitrev_copy(x);
    for (kind k : ALL_KINDS) {
      auto want = x;
      apply(k, d, want, pool, ntt_order::nn);
      const auto want_r = bitrev_copy(want);
      for (ntt_order o : ALL_ORDERS) {
        const bool in_r = o == ntt_order::rn || o == ntt_order::rr;
        const bool out_r = o == ntt_order::nr || o == ntt_order::rr;
        auto got = in_r ? xr : x;
        apply(k, d, got, pool, o);
        EXPECT_EQ(got, out_r ? want_r : want)
            << "lg " << lg << " kind " << int(k) << " order " << int(o);
      }
    }
  }
}

TEST(ntt, bit_reverse_permutation) {
  test_rng rng = make_rng();
  thread_pool pool(2);
  for (unsigned lg = 0; lg <= 14; ++lg) {
    const size_t n = size_t(1) << lg;
    auto x = random_vec(n, rng);
    auto y = x;
    bit_reverse(y, pool);
    for (size_t i = 0; i < n; ++i) {
      size_t r = 0;
      for (unsigned b = 0; b < lg; ++b) r |= ((i >> b) & 1) << (lg - 1 - b);
      ASSERT_EQ(y[r], x[i]) << "lg " << lg << " i " << i;
    }
  }
}

TEST(ntt, thread_count_independent) {
  test_rng rng = make_rng();
  thread_pool one(1), two(2), three(3);
  for (unsigned lg : {10u, 13u, 16u}) {
    domain_t d = dom_of(lg);
    auto x = random_vec(d.size(), rng);
    for (kind k : ALL_KINDS) {
      for (ntt_order o : ALL_ORDERS) {
        auto a = x, b = x, c = x;
        apply(k, d, a, one, o);
        apply(k, d, b, two, o);
        apply(k, d, c, three, o);
        EXPECT_EQ(a, b) << "lg " << lg << " kind " << int(k) << " order " << int(o);
        EXPECT_EQ(a, c) << "lg " << lg << " kind " << int(k) << " order " << int(o);
      }
    }
  }
}

TEST(ntt, edge_inputs) {
  thread_pool pool(2);
  const fr_t one = fr_t::one();
  for (unsigned lg : {0u, 1u, 4u, 12u, 13u, 15u}) {
    domain_t d = dom_of(lg);
    const size_t n = d.size();
    // zero stays zero under every transform and order
    for (kind k : ALL_KINDS) {
      for (ntt_order o : ALL_ORDERS) {
        std::vector<fr_t> z(n, fr_t::zero());
        apply(k, d, z, pool, o);
        EXPECT_EQ(z, std::vector<fr_t>(n, fr_t::zero()));
      }
    }
    // delta at 0 ↔ constant 1: fft(δ) = 1 everywhere, ifft(1) = δ, coset_fft(δ) = 1
    std::vector<fr_t> delta(n, fr_t::zero());
    delta[0] = one;
    auto a = delta;
    fft(d, a, pool);
    EXPECT_EQ(a, std::vector<fr_t>(n, one));
    ifft(d, a, pool);
    EXPECT_EQ(a, delta);
    a = delta;
    coset_fft(d, a, pool);
    EXPECT_EQ(a, std::vector<fr_t>(n, one));
    // a constant c: fft gives c·m·δ; icoset of the constant 1 gives δ too (1 is g^0·δ's image)
    const fr_t c = fr_t::from_uint(12345);
    a.assign(n, c);
    fft(d, a, pool);
    std::vector<fr_t> cm(n, fr_t::zero());
    cm[0] = c * fr_t::from_uint(n);
    EXPECT_EQ(a, cm);
    a.assign(n, one);
    icoset_fft(d, a, pool);
    EXPECT_EQ(a, delta);
    // delta at 1 (the monomial X): fft gives ω^k, coset_fft gives g·ω^k
    if (n > 1) {
      std::vector<fr_t> x1(n, fr_t::zero());
      x1[1] = one;
      auto e = x1;
      fft(d, e, pool);
      auto f = x1;
      coset_fft(d, f, pool);
      fr_t wk = one;
      for (size_t k = 0; k < n; ++k, wk *= d.omega()) {
        ASSERT_EQ(e[k], wk) << "lg " << lg << " k " << k;
        ASSERT_EQ(f[k], wk * d.coset_gen()) << "lg " << lg << " k " << k;
      }
    }
  }
}

// ---- lazy-reduction kernels (ntt_kernels.hpp) ---------------------------------------------------

using raw_t = ff::limbs<4>;

/// x mod r for any 256-bit x (2^256 < 3r: subtract r at most twice), as an fr_t's raw limbs.
fr_t mod_r(raw_t x) {
  while (!ff::less_than(x, fr_t::MODULUS)) ff::sub_from(x, fr_t::MODULUS);
  return fr_t::from_raw(x);
}
bool below_2r(const uint64_t x[4]) {
  return ff::less_than(raw_t{x[0], x[1], x[2], x[3]}, detail::P2);
}
raw_t sub_raw(raw_t a, const raw_t& b) {
  ff::sub_from(a, b);
  return a;
}

/// Edge and random raw values in [0, 2r): 0, 1, r − 1, r, r + 1, 2r − 1, random < r, random + r.
std::vector<raw_t> lazy_values(test_rng& rng) {
  const raw_t one = ff::from_u64<4>(1);
  std::vector<raw_t> v = {raw_t{},          one,           sub_raw(fr_t::MODULUS, one),
                          fr_t::MODULUS,    fr_t::MODULUS, sub_raw(detail::P2, one),
                          fr_t::one().raw()};
  ff::add_to(v[4], one);
  for (int i = 0; i < 12; ++i) {
    raw_t x = fr_t::random(rng).raw();
    v.push_back(x);
    ff::add_to(x, fr_t::MODULUS);
    v.push_back(x);
  }
  return v;
}

TEST(ntt_kernels, lazy_mul_range_and_value) {
  test_rng rng = make_rng();
  auto ys = lazy_values(rng);
  // the multiplication also accepts any 256-bit y: add all-ones and 2^255 + small values
  ys.push_back(raw_t{~0ull, ~0ull, ~0ull, ~0ull});
  ys.push_back(raw_t{5, 0, 0, uint64_t(1) << 63});
  std::vector<fr_t> ws = {fr_t::zero(), fr_t::one(), -fr_t::one(),
                          fr_t::from_raw(ff::from_u64<4>(1)),
                          fr_t::from_raw(sub_raw(fr_t::MODULUS, ff::from_u64<4>(1)))};
  for (int i = 0; i < 8; ++i) ws.push_back(fr_t::random(rng));
  for (const raw_t& y : ys) {
    for (const fr_t& w : ws) {
      uint64_t a[4] = {y[0], y[1], y[2], y[3]}, b[4] = {y[0], y[1], y[2], y[3]};
      detail::mul_lazy(a, w.limb);
      detail::mul_lazy_portable(b, w.limb);
      EXPECT_TRUE(std::equal(a, a + 4, b)) << "asm and portable differ";
      EXPECT_TRUE(below_2r(a));
      // a ≡ y·w·2^-256 (mod r): the Montgomery product of y mod r and w
      EXPECT_EQ(mod_r(raw_t{a[0], a[1], a[2], a[3]}), mod_r(y) * w);
    }
  }
}

TEST(ntt_kernels, lazy_addsub_and_reduce) {
  test_rng rng = make_rng();
  const auto vs = lazy_values(rng);
  for (const raw_t& x : vs) {
    for (const raw_t& y : vs) {
      uint64_t x1[4] = {x[0], x[1], x[2], x[3]}, y1[4] = {y[0], y[1], y[2], y[3]};
      uint64_t x2[4] = {x[0], x[1], x[2], x[3]}, y2[4] = {y[0], y[1], y[2], y[3]};
      detail::addsub_lazy(x1, y1);
      detail::addsub_lazy_portable(x2, y2);
      EXPECT_TRUE(std::equal(x1, x1 + 4, x2) && std::equal(y1, y1 + 4, y2));
      EXPECT_TRUE(below_2r(x1));
      EXPECT_TRUE(below_2r(y1));
      EXPECT_EQ(mod_r(raw_t{x1[0], x1[1], x1[2], x1[3]}), mod_r(x) + mod_r(y));
      EXPECT_EQ(mod_r(raw_t{y1[0], y1[1], y1[2], y1[3]}), mod_r(x) - mod_r(y));
    }
    uint64_t r1[4] = {x[0], x[1], x[2], x[3]}, r2[4] = {x[0], x[1], x[2], x[3]};
    detail::reduce(r1);
    detail::reduce_portable(r2);
    EXPECT_TRUE(std::equal(r1, r1 + 4, r2));
    EXPECT_EQ(fr_t::from_raw(raw_t{r1[0], r1[1], r1[2], r1[3]}), mod_r(x));
  }
}

bool all_canonical(const std::vector<fr_t>& v) {
  for (const fr_t& x : v)
    if (!ff::less_than(x.raw(), fr_t::MODULUS)) return false;
  return true;
}

// Inputs that push the lazy ranges to their ends (every value r − 1, i.e. every sum near 4r) and
// zero, for every size 2^1…2^12 (one pass) and the four-step splits 2^13, 2^14, 2^16: outputs are
// canonical and equal to the naive DFT (small sizes) or to single naive points.
TEST(ntt, lazy_range_edge_inputs) {
  thread_pool pool(2);
  const fr_t max = fr_t::from_raw(sub_raw(fr_t::MODULUS, ff::from_u64<4>(1)));  // raw r − 1
  const fr_t minus_one = -fr_t::one();
  for (unsigned lg = 1; lg <= 16; ++lg) {
    if (lg == 15) continue;
    domain_t d = dom_of(lg);
    const size_t n = d.size();
    for (const fr_t& v : {max, minus_one, fr_t::zero()}) {
      std::vector<fr_t> x(n, v);
      if (lg >= 3) x[n / 2 + 1] = fr_t::zero();  // break the symmetry of a constant vector
      for (kind k : ALL_KINDS) {
        std::vector<fr_t> want;
        if (lg <= 9) want = naive_of(k, d, x);
        for (ntt_order o : ALL_ORDERS) {
          const bool rin = o == ntt_order::rn || o == ntt_order::rr;
          const bool rout = o == ntt_order::nr || o == ntt_order::rr;
          auto got = rin ? bitrev_copy(x) : x;
          apply(k, d, got, pool, o);
          ASSERT_TRUE(all_canonical(got))
              << "lg " << lg << " kind " << int(k) << " order " << int(o);
          if (rout) got = bitrev_copy(got);
          if (lg <= 9) {
            EXPECT_EQ(got, want) << "lg " << lg << " kind " << int(k) << " order " << int(o);
          } else {
            for (uint64_t p : {uint64_t(0), uint64_t(1), uint64_t(n / 2 + 1), uint64_t(n - 1)})
              EXPECT_EQ(got[p], naive_point(k, d, x, p))
                  << "lg " << lg << " kind " << int(k) << " order " << int(o) << " k " << p;
          }
        }
      }
    }
  }
}

// The Groth16 H computation's shape (docs/spec/groth16.md §5): for a·b − c divisible by Z = X^m − 1
// on ⟨ω⟩, the quotient from the coset path times Z reproduces a·b − c as polynomials.
TEST(ntt, groth16_quotient_shape) {
  test_rng rng = make_rng();
  thread_pool pool(2);
  const unsigned lg = 6;
  domain_t d = dom_of(lg);
  const size_t m = d.size();
  // Polynomials A, B of degree < m with A·B = C on ⟨ω⟩ (C = pointwise product's interpolant).
  auto A = random_vec(m, rng), B = random_vec(m, rng);
  auto ea = A, eb = B;
  fft(d, ea, pool);
  fft(d, eb, pool);
  std::vector<fr_t> ec(m);
  for (size_t i = 0; i < m; ++i) ec[i] = ea[i] * eb[i];
  // prover: a, b, c are evaluations; ifft → coset_fft → (a·b − c)/Z → icoset
  auto a = ea, b = eb, c = ec;
  for (auto* v : {&a, &b, &c}) {
    ifft(d, *v, pool);
    coset_fft(d, *v, pool);
  }
  std::vector<fr_t> h(m);
  for (size_t i = 0; i < m; ++i) h[i] = (a[i] * b[i] - c[i]) * d.z_coset_inv();
  icoset_fft(d, h, pool);
  // A·B − C_poly = H·(X^m − 1), as coefficient vectors of length 2m
  auto C = ec;
  ifft(d, C, pool);
  std::vector<fr_t> lhs(2 * m, fr_t::zero()), rhs(2 * m, fr_t::zero());
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < m; ++j) lhs[i + j] += A[i] * B[j];
  for (size_t i = 0; i < m; ++i) lhs[i] -= C[i];
  for (size_t i = 0; i < m; ++i) {
    rhs[i + m] += h[i];
    rhs[i] -= h[i];
  }
  EXPECT_EQ(lhs, rhs);
  EXPECT_TRUE(h[m - 1].is_zero());  // deg H ≤ m − 2: bellperson keeps the first m − 1
}

}  // namespace
}  // namespace cuzk::ntt
