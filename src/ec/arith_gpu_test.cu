// SPDX-License-Identifier: Apache-2.0
// Device field and G1 point arithmetic against the host types on random and edge inputs (0, 1,
// p − 1, raw words p − 1 and p − 2, equal and opposite points, infinity); the baseline CIOS
// multiply, the dedicated squaring and the Fermat inversion (field_op::mul_cios, sqr_fast, inverse)
// likewise. Label gpu: needs a
// CUDA device.
#include <gtest/gtest.h>

#include <initializer_list>
#include <span>
#include <stdexcept>
#include <vector>

#include "ec/arith_gpu.hpp"
#include "ec/curves.hpp"
#include "ec/point.hpp"
#include "ec/scalar_mul.hpp"
#include "test_rng.hpp"

namespace cuzk::ec::cuda {
namespace {

using ec::g1_affine_t;
using ec::g1_xyzz_t;
using ff::fp_t;
using ff::fr_t;

template <class F>
std::vector<F> values(size_t n, test::test_rng& rng) {
  std::vector<F> v;
  v.push_back(F::zero());
  v.push_back(F::one());
  v.push_back(-F::one());
  v.push_back(F::from_uint(2));
  v.push_back(F::from_raw(ff::from_u64<F::N>(1)));  // the smallest Montgomery word
  // raw words p − 1 and p − 2: the largest inputs, every carry chain at its longest
  ff::limbs<F::N> top = F::MODULUS;
  top[0] -= 1;
  v.push_back(F::from_raw(top));
  top[0] -= 1;
  v.push_back(F::from_raw(top));
  while (v.size() < n) v.push_back(F::random(rng));
  return v;
}

constexpr size_t n_edges = 7;  // the fixed values at the front of values()

/// The host's result of op (the reference every device op is compared with).
template <class F>
F reference(field_op op, const F& a, const F& b) {
  switch (op) {
    case field_op::add:
      return a + b;
    case field_op::sub:
      return a - b;
    case field_op::mul:
    case field_op::mul_cios:
      return a * b;
    case field_op::sqr:
    case field_op::sqr_fast:
      return a.sqr();
    case field_op::neg:
      return -a;
    case field_op::dbl:
      return a.dbl();
    case field_op::inverse:
      return a.inverse();  // the host's (0 ↦ 0 too)
  }
  return F{};
}

/// run(op, a, b, out) for each op over 2^16 inputs: the edge values first, then every pair of
/// them at `copies` consecutive slots each from `first` on, then random values.
template <class F, class Run>
void check_ops(const char* name, std::initializer_list<field_op> ops, size_t first, size_t copies,
               Run run) {
  auto rng = test::test_rng::from_env(name);
  const size_t n = 1 << 16;
  std::vector<F> a = values<F>(n, rng), b = values<F>(n, rng), out(n);
  for (size_t i = 0; i < n_edges; ++i)
    for (size_t j = 0; j < n_edges; ++j)
      for (size_t k = 0; k < copies; ++k) {
        const size_t slot = first + copies * (n_edges * i + j) + k;
        a[slot] = a[i];
        b[slot] = b[j];
      }
  for (field_op op : ops) {
    run(op, a, b, out);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
      if (out[i] != reference(op, a[i], b[i]) && bad++ < 3)
        ADD_FAILURE() << name << " op " << int(op) << " at " << i;
    EXPECT_EQ(bad, 0u) << name << " op " << int(op);
  }
}

template <class F>
void check_field(const char* name) {
  check_ops<F>(name,
               {field_op::add, field_op::sub, field_op::mul, field_op::sqr, field_op::neg,
                field_op::dbl, field_op::mul_cios, field_op::sqr_fast, field_op::inverse},
               n_edges, 1, [](field_op op, const auto& a, const auto& b, auto& out) {
                 apply(op, std::span<const F>(a), std::span<const F>(b), std::span<F>(out));
               });
}

TEST(ArithGpu, Fp) {
  check_field<fp_t>("ArithGpu.Fp");
}

// fp_lazy_d (values below 2p, the MSM accumulation's coordinates): every op on both
// representatives of each input residue (apply_lazy shifts odd slots' a and b's at bit 1 by p;
// each edge pair sits at four consecutive slots, so it meets all four patterns), reduced.
TEST(ArithGpu, FpLazy) {
  check_ops<fp_t>(
      "ArithGpu.FpLazy",
      {field_op::add, field_op::sub, field_op::mul, field_op::sqr, field_op::neg, field_op::dbl},
      64, 4, [](field_op op, const auto& a, const auto& b, auto& out) {
        apply_lazy(op, std::span<const fp_t>(a), std::span<const fp_t>(b), std::span<fp_t>(out));
      });
  std::vector<fp_t> x(4, fp_t::one()), out(4);
  EXPECT_THROW(apply_lazy(field_op::inverse, x, x, out), std::invalid_argument);
}

TEST(ArithGpu, Fr) {
  check_field<fr_t>("ArithGpu.Fr");
}

/// The same point with a random projective scale λ: (λ²X, λ³Y, λ²ZZ, λ³ZZZ).
g1_xyzz_t rescale(const g1_xyzz_t& p, const fp_t& l) {
  const fp_t l2 = l.sqr(), l3 = l2 * l;
  return {p.x * l2, p.y * l3, p.zz * l2, p.zzz * l3};
}

TEST(ArithGpu, G1Points) {
  auto rng = test::test_rng::from_env("ArithGpu.G1Points");
  const size_t n = 512;
  std::vector<g1_affine_t> pts(n);
  for (auto& p : pts) p = ec::mul(ec::g1_generator(), fr_t::random(rng)).to_affine();
  std::vector<g1_xyzz_t> acc(n), other(n);
  std::vector<g1_affine_t> q(n);
  for (size_t i = 0; i < n; ++i) {
    const g1_affine_t& p = pts[i];
    const g1_affine_t& r = pts[(i * 7 + 3) % n];
    g1_xyzz_t px = rescale(g1_xyzz_t::from_affine(p), fp_t::random(rng));
    switch (i % 6) {
      case 0:
        acc[i] = px;
        q[i] = r;
        other[i] = g1_xyzz_t::from_affine(r);
        break;
      case 1:
        acc[i] = px;
        q[i] = p;
        other[i] = rescale(px, fp_t::random(rng));
        break;  // equal
      case 2:
        acc[i] = px;
        q[i] = -p;
        other[i] = -px;
        break;  // opposite
      case 3:
        acc[i] = g1_xyzz_t::infinity();
        q[i] = r;
        other[i] = px;
        break;
      case 4:
        acc[i] = px;
        q[i] = g1_affine_t::infinity();
        other[i] = g1_xyzz_t::infinity();
        break;
      default:
        acc[i] = px;
        q[i] = r;
        other[i] = rescale(g1_xyzz_t::from_affine(r), fp_t::random(rng));
    }
  }
  std::vector<g1_xyzz_t> out(n);
  g1_add_affine(acc, q, out);
  for (size_t i = 0; i < n; ++i) EXPECT_TRUE(out[i] == acc[i].add_affine(q[i])) << "madd " << i;
  g1_add_affine(acc, q, out, /*lazy=*/true);  // coordinates below 2p, as the MSM adds
  for (size_t i = 0; i < n; ++i)
    EXPECT_TRUE(out[i] == acc[i].add_affine(q[i])) << "lazy madd " << i;
  g1_add(acc, other, out);
  for (size_t i = 0; i < n; ++i) EXPECT_TRUE(out[i] == acc[i] + other[i]) << "add " << i;
  g1_add(acc, {}, out);
  for (size_t i = 0; i < n; ++i) EXPECT_TRUE(out[i] == acc[i].dbl()) << "dbl " << i;
}

}  // namespace
}  // namespace cuzk::ec::cuda
