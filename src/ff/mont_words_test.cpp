// SPDX-License-Identifier: Apache-2.0
// The device multiply/square instruction sequences (ff/mont_words.hpp) run on the CPU through the
// carry-flag emulation: even/odd split multiply, split squaring and the previous CIOS multiply,
// against GMP and the host mont_t, on edge inputs (every pair) and 10^5 random inputs per field.
// Also checks that no carry-dropping primitive ever dropped a nonzero carry (the bounds).
#include <gtest/gtest.h>

#include <vector>

#include "ff/fields.hpp"
#include "ff/fp2.hpp"
#include "ff/mont_words.hpp"
#include "gmp_oracle.hpp"
#include "test_rng.hpp"

namespace cuzk::ff {
namespace {

template <class F>
constexpr int n_words = int(2 * F::N);

/// A C array in a struct: what the word templates take by reference.
template <class F>
struct words_of {
  uint32_t v[n_words<F>];
};

template <class F>
words_of<F> split(const limbs<F::N>& x) {
  words_of<F> w{};
  for (int i = 0; i < n_words<F>; ++i) w.v[i] = uint32_t(x[i / 2] >> (32 * (i % 2)));
  return w;
}

template <class F>
limbs<F::N> join(const words_of<F>& w) {
  limbs<F::N> x{};
  for (int i = 0; i < n_words<F>; ++i) x[i / 2] |= uint64_t(w.v[i]) << (32 * (i % 2));
  return x;
}

enum class op_t { mul_split, sqr_split, mul_cios };

template <class F>
words_of<F> run(op_t op, const words_of<F>& a, const words_of<F>& b, bool& lost) {
  constexpr int n = n_words<F>;
  static const words_of<F> p = split<F>(F::MODULUS);
  const uint32_t m0 = uint32_t(F::INV);
  words::emu_ops ops;
  words_of<F> r{};
  switch (op) {
    case op_t::mul_split:
      words::mul_split<n>(ops, r.v, a.v, b.v, p.v, m0);
      break;
    case op_t::sqr_split:
      words::sqr_split<n>(ops, r.v, a.v, p.v, m0);
      break;
    case op_t::mul_cios:
      words::mul_cios<n>(ops, r.v, a.v, b.v, p.v, m0);
      break;
  }
  lost = ops.lost;
  return r;
}

/// Raw Montgomery words < p that stress carries: 0, 1, 2, p−1, p−2, R mod p, R² mod p, every 2^k
/// below p, 2^(32k) − 1, and p with the words below k set to all ones and word k decremented.
template <class F>
std::vector<limbs<F::N>> edge_values() {
  const mpz_class p = test::to_mpz(F::MODULUS);
  std::vector<mpz_class> v = {0, 1, 2, p - 1, p - 2, test::to_mpz(F::R), test::to_mpz(F::R2)};
  for (unsigned k = 0; k + 1 < F::BITS; ++k) v.push_back(mpz_class(1) << k);
  for (int k = 1; k < n_words<F>; ++k) v.push_back((mpz_class(1) << (32 * k)) - 1);
  const words_of<F> pw = split<F>(F::MODULUS);
  for (int k = 1; k < n_words<F>; ++k) {
    if (pw.v[k] == 0) continue;
    words_of<F> w = pw;
    for (int i = 0; i < k; ++i) w.v[i] = 0xffffffffu;
    w.v[k] -= 1;
    v.push_back(test::to_mpz(join<F>(w)));
  }
  std::vector<limbs<F::N>> out;
  for (const auto& x : v) out.push_back(test::from_mpz<F::N>(x % p));
  return out;
}

template <class F>
class checker {
 public:
  checker() : p_(test::to_mpz(F::MODULUS)) {
    const mpz_class r = mpz_class(1) << (64 * F::N);
    mpz_invert(rinv_.get_mpz_t(), r.get_mpz_t(), p_.get_mpz_t());
  }
  /// Every op on (a, b) against GMP (x·y·R⁻¹ mod p on raw values) and the host mont_t.
  void check(const limbs<F::N>& a, const limbs<F::N>& b) {
    const words_of<F> wa = split<F>(a), wb = split<F>(b);
    const F fa = F::from_raw(a), fb = F::from_raw(b);
    const mpz_class ma = test::to_mpz(a), mb = test::to_mpz(b);
    const mpz_class want_mul = ma * mb * rinv_ % p_, want_sqr = ma * ma * rinv_ % p_;
    const F host_mul = fa * fb, host_sqr = fa.sqr();
    for (op_t op : {op_t::mul_split, op_t::sqr_split, op_t::mul_cios}) {
      bool lost = false;
      const limbs<F::N> got = join<F>(run<F>(op, wa, wb, lost));
      const bool sq = op == op_t::sqr_split;
      const bool ok = !lost && test::to_mpz(got) == (sq ? want_sqr : want_mul) &&
                      F::from_raw(got) == (sq ? host_sqr : host_mul);
      if (!ok && failures_++ < 5) {
        ADD_FAILURE() << "op " << int(op) << (lost ? " (dropped carry)" : "") << " a=0x"
                      << ma.get_str(16) << " b=0x" << mb.get_str(16) << " got=0x"
                      << test::to_mpz(got).get_str(16);
      }
      ++cases_;
    }
  }
  size_t failures() const { return failures_; }
  size_t cases() const { return cases_; }

 private:
  mpz_class p_, rinv_;
  size_t failures_ = 0, cases_ = 0;
};

template <class F>
void check_field(const char* name) {
  checker<F> c;
  const auto edges = edge_values<F>();
  for (const auto& a : edges)
    for (const auto& b : edges) c.check(a, b);
  auto rng = test::test_rng::from_env(name);
  for (int i = 0; i < 100000; ++i) {
    const limbs<F::N> a = F::random(rng).raw();
    const limbs<F::N> b = (i % 4 == 0) ? edges[rng.below(edges.size())] : F::random(rng).raw();
    c.check(a, b);
  }
  EXPECT_EQ(c.failures(), 0u) << name << " over " << c.cases() << " cases";
}

TEST(MontWords, Fp) {
  check_field<fp_t>("MontWords.Fp");
}

/// words::mul_sub_lazy (a·b − c·d with one reduction, the device XYZZ formulas' Y) against GMP
/// and the host field, on every pair of edge values as (a, b) with (c, d) from three patterns
/// (both signs of the difference and zero), and 10^5 random quadruples.
template <class F>
void check_mul_sub(const char* name) {
  constexpr int n = n_words<F>;
  const words_of<F> p = split<F>(F::MODULUS);
  const mpz_class pz = test::to_mpz(F::MODULUS);
  mpz_class rinv;
  const mpz_class r = mpz_class(1) << (32 * n);
  mpz_invert(rinv.get_mpz_t(), r.get_mpz_t(), pz.get_mpz_t());
  size_t failures = 0, cases = 0;
  const auto check = [&](const limbs<F::N>& a, const limbs<F::N>& b, const limbs<F::N>& c,
                         const limbs<F::N>& d) {
    words::emu_ops ops;
    words_of<F> got{};
    words::mul_sub_lazy<n>(ops, got.v, split<F>(a).v, split<F>(b).v, split<F>(c).v, split<F>(d).v,
                           p.v, uint32_t(F::INV));
    mpz_class want =
        (test::to_mpz(a) * test::to_mpz(b) - test::to_mpz(c) * test::to_mpz(d)) * rinv % pz;
    if (want < 0) want += pz;
    const F host = F::from_raw(a) * F::from_raw(b) - F::from_raw(c) * F::from_raw(d);
    const limbs<F::N> g = join<F>(got);
    if ((ops.lost || test::to_mpz(g) != want || F::from_raw(g) != host) && failures++ < 5) {
      ADD_FAILURE() << name << (ops.lost ? " (dropped carry)" : "") << " a=0x"
                    << test::to_mpz(a).get_str(16) << " b=0x" << test::to_mpz(b).get_str(16)
                    << " c=0x" << test::to_mpz(c).get_str(16) << " d=0x"
                    << test::to_mpz(d).get_str(16);
    }
    ++cases;
  };
  const auto edges = edge_values<F>();
  const limbs<F::N> zero{}, pm1 = test::from_mpz<F::N>(pz - 1);
  for (const auto& x : edges) {
    for (const auto& y : edges) {
      check(x, y, y, x);      // zero
      check(x, y, pm1, pm1);  // mostly negative
      check(pm1, pm1, x, y);  // mostly positive
      check(x, zero, x, y);
    }
  }
  auto rng = test::test_rng::from_env(name);
  for (int i = 0; i < 100000; ++i) {
    const auto pick = [&] {
      return (i % 4 == 0) ? edges[rng.below(edges.size())] : F::random(rng).raw();
    };
    check(pick(), F::random(rng).raw(), F::random(rng).raw(), pick());
  }
  EXPECT_EQ(failures, 0u) << name << " over " << cases << " cases";
}

TEST(MontWords, MulSubLazy) {
  check_mul_sub<fp_t>("MontWords.MulSubLazy.Fp");
  check_mul_sub<fr_t>("MontWords.MulSubLazy.Fr");
}

// The Fp2 product with lazy reduction (words::mul2_lazy, what the device's fp2_d multiply runs)
// against the host fp2_t product and GMP, on every pair of edge coefficients in both slots and
// 10^5 random pairs; and its double-width product alone (words::mul_wide_split) against GMP on
// values up to 2^(32n) − 1 (the unreduced sums reach 2p).
TEST(MontWords, Fp2LazyProduct) {
  constexpr int n = n_words<fp_t>;
  const words_of<fp_t> p = split<fp_t>(fp_t::MODULUS);
  const mpz_class pz = test::to_mpz(fp_t::MODULUS);
  const mpz_class r = mpz_class(1) << (32 * n);
  mpz_class rinv;
  mpz_invert(rinv.get_mpz_t(), r.get_mpz_t(), pz.get_mpz_t());
  size_t failures = 0, cases = 0;
  const auto check = [&](const limbs<fp_t::N>& a0, const limbs<fp_t::N>& a1,
                         const limbs<fp_t::N>& b0, const limbs<fp_t::N>& b1) {
    words::emu_ops ops;
    words_of<fp_t> r0{}, r1{};
    words::mul2_lazy<n>(ops, r0.v, r1.v, split<fp_t>(a0).v, split<fp_t>(a1).v, split<fp_t>(b0).v,
                        split<fp_t>(b1).v, p.v, uint32_t(fp_t::INV));
    const fp2_t want = fp2_t{fp_t::from_raw(a0), fp_t::from_raw(a1)} *
                       fp2_t{fp_t::from_raw(b0), fp_t::from_raw(b1)};
    const mpz_class x0 = test::to_mpz(a0), x1 = test::to_mpz(a1), y0 = test::to_mpz(b0),
                    y1 = test::to_mpz(b1);
    mpz_class want0 = (x0 * y0 - x1 * y1) * rinv % pz;
    if (want0 < 0) want0 += pz;
    const mpz_class want1 = (x0 * y1 + x1 * y0) * rinv % pz;
    const limbs<fp_t::N> g0 = join<fp_t>(r0), g1 = join<fp_t>(r1);
    const bool ok = !ops.lost && test::to_mpz(g0) == want0 && test::to_mpz(g1) == want1 &&
                    fp_t::from_raw(g0) == want.c0 && fp_t::from_raw(g1) == want.c1;
    if (!ok && failures++ < 5) {
      ADD_FAILURE() << (ops.lost ? "(dropped carry) " : "") << "a0=0x" << x0.get_str(16) << " a1=0x"
                    << x1.get_str(16) << " b0=0x" << y0.get_str(16) << " b1=0x" << y1.get_str(16);
    }
    ++cases;
  };
  const auto edges = edge_values<fp_t>();
  const limbs<fp_t::N> zero{}, pm1 = test::from_mpz<fp_t::N>(pz - 1);
  for (const auto& x : edges) {
    for (const auto& y : edges) {
      check(x, y, x, y);
      check(x, zero, y, pm1);
      check(zero, x, pm1, y);
      check(pm1, x, y, pm1);
    }
  }
  auto rng = test::test_rng::from_env("MontWords.Fp2LazyProduct");
  for (int i = 0; i < 100000; ++i) {
    const auto pick = [&] {
      return (i % 4 == 0) ? edges[rng.below(edges.size())] : fp_t::random(rng).raw();
    };
    const limbs<fp_t::N> a0 = pick(), a1 = fp_t::random(rng).raw(), b0 = fp_t::random(rng).raw(),
                         b1 = pick();
    check(a0, a1, b0, b1);
  }
  EXPECT_EQ(failures, 0u) << "over " << cases << " cases";

  // The double-width product alone, on operands up to 2^(32n) − 1.
  size_t wide_failures = 0;
  const mpz_class top = r - 1;
  std::vector<mpz_class> wide_edges = {0, 1, top, top - 1, pz, 2 * pz - 1, r / 2};
  for (int i = 0; i < 2000; ++i) wide_edges.push_back(test::to_mpz(fp_t::random(rng).raw()) * 2);
  for (size_t i = 0; i < wide_edges.size(); ++i) {
    const mpz_class& x = wide_edges[i];
    const mpz_class& y = wide_edges[(i * 7 + 3) % wide_edges.size()];
    words_of<fp_t> wx{}, wy{};
    for (int k = 0; k < n; ++k) {
      wx.v[k] = uint32_t(mpz_class((x >> (32 * k)) & 0xffffffffu).get_ui());
      wy.v[k] = uint32_t(mpz_class((y >> (32 * k)) & 0xffffffffu).get_ui());
    }
    words::emu_ops ops;
    uint32_t u[2 * n];
    words::mul_wide_split<n>(ops, u, wx.v, wy.v);
    mpz_class got = 0;
    for (int k = 2 * n - 1; k >= 0; --k) got = (got << 32) + u[k];
    if ((ops.lost || got != x * y) && wide_failures++ < 5)
      ADD_FAILURE() << "wide product x=0x" << x.get_str(16) << " y=0x" << y.get_str(16);
  }
  EXPECT_EQ(wide_failures, 0u);
}
TEST(MontWords, Fr) {
  check_field<fr_t>("MontWords.Fr");
}

/// words::add_mod / sub_mod (what dmont_t's + and − run) modulo p on values below p, against GMP.
template <class F>
void check_add_sub(const char* name) {
  constexpr int n = n_words<F>;
  const words_of<F> p = split<F>(F::MODULUS);
  const mpz_class pz = test::to_mpz(F::MODULUS);
  const auto edges = edge_values<F>();
  auto rng = test::test_rng::from_env(name);
  size_t failures = 0;
  const auto check = [&](const limbs<F::N>& a, const limbs<F::N>& b) {
    words::emu_ops ops;
    words_of<F> sum{}, diff{};
    words::add_mod<n>(ops, sum.v, split<F>(a).v, split<F>(b).v, p.v);
    words::sub_mod<n>(ops, diff.v, split<F>(a).v, split<F>(b).v, p.v);
    const mpz_class x = test::to_mpz(a), y = test::to_mpz(b);
    mpz_class want_diff = (x - y) % pz;
    if (want_diff < 0) want_diff += pz;
    if ((ops.lost || test::to_mpz(join<F>(sum)) != (x + y) % pz ||
         test::to_mpz(join<F>(diff)) != want_diff) &&
        failures++ < 5)
      ADD_FAILURE() << name << " a=0x" << x.get_str(16) << " b=0x" << y.get_str(16);
  };
  for (const auto& a : edges)
    for (const auto& b : edges) check(a, b);
  for (int i = 0; i < 100000; ++i) check(F::random(rng).raw(), F::random(rng).raw());
  EXPECT_EQ(failures, 0u) << name;
}

TEST(MontWords, AddSub) {
  check_add_sub<fp_t>("MontWords.AddSub.Fp");
  check_add_sub<fr_t>("MontWords.AddSub.Fr");
}

// The partial reduction of dmont_lazy_t (values kept in [0, 2p), Fp only: 4p < 2^384): the
// product, square and a·b − c·d without their final subtraction, and sums and differences modulo
// 2p, on inputs up to 2p − 1 (every edge value and the same plus p, and 10^5 random ones): each
// result below 2p, congruent to GMP's, and no carry dropped on the way.
TEST(MontWords, PartialReductionBelowTwiceP) {
  using F = fp_t;
  constexpr int n = n_words<F>;
  constexpr auto partial = words::reduction::partial;
  const words_of<F> p = split<F>(F::MODULUS);
  const mpz_class pz = test::to_mpz(F::MODULUS), p2z = 2 * pz;
  ASSERT_LT(4 * pz, mpz_class(1) << (32 * n));
  words_of<F> p2{};
  for (int k = 0; k < n; ++k)
    p2.v[k] = uint32_t(mpz_class((p2z >> (32 * k)) & 0xffffffffu).get_ui());
  mpz_class rinv;
  const mpz_class r = mpz_class(1) << (32 * n);
  mpz_invert(rinv.get_mpz_t(), r.get_mpz_t(), pz.get_mpz_t());
  const auto to_words = [&](const mpz_class& x) {
    words_of<F> w{};
    for (int k = 0; k < n; ++k)
      w.v[k] = uint32_t(mpz_class((x >> (32 * k)) & 0xffffffffu).get_ui());
    return w;
  };
  const auto value = [&](const words_of<F>& w) {
    mpz_class x = 0;
    for (int k = n - 1; k >= 0; --k) x = (x << 32) + w.v[k];
    return x;
  };
  size_t failures = 0, cases = 0;
  const auto expect = [&](const char* op, const words_of<F>& got, bool lost, mpz_class want,
                          const mpz_class& a, const mpz_class& b) {
    want %= pz;
    if (want < 0) want += pz;
    const mpz_class g = value(got);
    if ((lost || g >= p2z || g % pz != want) && failures++ < 5)
      ADD_FAILURE() << op << (lost ? " (dropped carry)" : "") << " a=0x" << a.get_str(16) << " b=0x"
                    << b.get_str(16) << " got=0x" << g.get_str(16);
    ++cases;
  };
  const auto check = [&](const mpz_class& a, const mpz_class& b, const mpz_class& c,
                         const mpz_class& d) {
    const words_of<F> wa = to_words(a), wb = to_words(b), wc = to_words(c), wd = to_words(d);
    words_of<F> got{};
    {
      words::emu_ops ops;
      words::mul_split<n, partial>(ops, got.v, wa.v, wb.v, p.v, uint32_t(F::INV));
      expect("mul", got, ops.lost, a * b * rinv, a, b);
    }
    {
      words::emu_ops ops;
      words::sqr_split<n, partial>(ops, got.v, wa.v, p.v, uint32_t(F::INV));
      expect("sqr", got, ops.lost, a * a * rinv, a, a);
    }
    {
      words::emu_ops ops;
      words::mul_sub_lazy<n, partial>(ops, got.v, wa.v, wb.v, wc.v, wd.v, p.v, uint32_t(F::INV));
      expect("mul_sub", got, ops.lost, (a * b - c * d) * rinv, a, b);
    }
    {
      words::emu_ops ops;
      words::add_mod<n>(ops, got.v, wa.v, wb.v, p2.v);
      expect("add mod 2p", got, ops.lost, a + b, a, b);
    }
    {
      words::emu_ops ops;
      words::sub_mod<n>(ops, got.v, wa.v, wb.v, p2.v);
      expect("sub mod 2p", got, ops.lost, a - b, a, b);
    }
  };
  std::vector<mpz_class> v;
  for (const auto& e : edge_values<F>()) {
    v.push_back(test::to_mpz(e));
    v.push_back(test::to_mpz(e) + pz);
  }
  v.push_back(p2z - 1);
  v.push_back(p2z - 2);
  const mpz_class top = p2z - 1;
  // every pair as (a, b); (c, d) in turn the reverse pair (a zero difference), the largest
  // operands (most negative) and (a, b) against the largest (most positive)
  size_t turn = 0;
  for (const auto& x : v) {
    for (const auto& y : v) {
      switch (turn++ % 3) {
        case 0:
          check(x, y, y, x);
          break;
        case 1:
          check(x, y, top, top);
          break;
        default:
          check(top, top, x, y);
          break;
      }
    }
  }
  auto rng = test::test_rng::from_env("MontWords.PartialReductionBelowTwiceP");
  const auto pick = [&] {
    const mpz_class x = test::to_mpz(F::random(rng).raw());
    return rng.below(2) ? x + pz : x;
  };
  for (int i = 0; i < 100000; ++i) check(pick(), pick(), pick(), pick());
  EXPECT_EQ(failures, 0u) << "over " << cases << " cases";
}

}  // namespace
}  // namespace cuzk::ff
