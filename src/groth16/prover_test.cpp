// SPDX-License-Identifier: Apache-2.0
// Groth16 prover and verifier tests: h of the hand-checkable x³ + x + 5 = 35 circuit against
// literal coefficients (computed independently in Python) and against naive O(m²) polynomial
// arithmetic; random circuits setup → prove → verify; tampering; determinism; thread-count
// independence; batch verification; size mismatches.
#include <gtest/gtest.h>

#include "groth16/assignment.hpp"
#include "groth16/prover_cpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/test_circuits.hpp"
#include "groth16/verifier.hpp"
#include "ntt/domain.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::fr_t;
using poly = std::vector<fr_t>;

fr_t from_hex(const char* h) {
  ff::limbs<4> v{};
  std::string s(h + 2);
  for (char ch : s) {
    const uint64_t d = uint64_t(ch <= '9' ? ch - '0' : ch - 'a' + 10);
    for (int i = 3; i > 0; --i) v[i] = (v[i] << 4) | (v[i - 1] >> 60);
    v[0] = (v[0] << 4) | d;
  }
  return fr_t::from_canonical(v);
}

fr_t omega_for(size_t m) {
  unsigned lg = 0;
  while ((size_t(1) << lg) < m) ++lg;
  fr_t w = ff::FR_ROOT_OF_UNITY;
  for (unsigned i = lg; i < 32; ++i) w = w.sqr();
  return w;
}

/// Coefficients of the polynomial with values v_i at ω^i: Lagrange interpolation in O(m²),
/// c_k = m^-1 Σ_i v_i ω^(−ik).
poly interpolate(const std::vector<fr_t>& v, size_t m) {
  const fr_t wi = omega_for(m).inverse(), mi = fr_t::from_uint(m).inverse();
  poly c(m, fr_t::zero());
  for (size_t k = 0; k < m; ++k) {
    const fr_t step = wi.pow(uint64_t(k));
    fr_t x = fr_t::one();
    for (size_t i = 0; i < m; ++i, x *= step)
      if (i < v.size()) c[k] += v[i] * x;
    c[k] *= mi;
  }
  return c;
}

/// (A·B − C)/(X^m − 1) by schoolbook multiplication and long division; the remainder must vanish.
poly naive_h(std::span<const fr_t> a, std::span<const fr_t> b, std::span<const fr_t> c,
             bool* exact) {
  size_t m = 1;
  while (m < a.size()) m *= 2;
  const poly A = interpolate({a.begin(), a.end()}, m), B = interpolate({b.begin(), b.end()}, m),
             C = interpolate({c.begin(), c.end()}, m);
  poly p(2 * m - 1, fr_t::zero());
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < m; ++j) p[i + j] += A[i] * B[j];
  for (size_t i = 0; i < m; ++i) p[i] -= C[i];
  poly q(m - 1, fr_t::zero());
  for (size_t d = 2 * m - 2; d >= m; --d) {  // X^d = X^(d−m)·(X^m − 1) + X^(d−m)
    q[d - m] = p[d];
    p[d - m] += p[d];
    p[d] = fr_t::zero();
  }
  *exact = true;
  for (size_t i = 0; i < m; ++i) *exact &= p[i].is_zero();
  return q;
}

testing::owned_assignment assign(const testing::circuit_instance& ci, thread_pool& pool) {
  auto a = testing::make_assignment(ci.cs, ci.inputs, ci.aux, pool);
  EXPECT_TRUE(a.ok()) << a.error().to_string();
  return std::move(*a);
}

std::vector<fr_t> public_of(const testing::circuit_instance& ci) {
  return {ci.inputs.begin() + 1, ci.inputs.end()};
}

TEST(Groth16Prover, CubicCircuitH) {
  const auto ci = testing::cubic_circuit();
  thread_pool pool(2);
  const auto oa = assign(ci, pool);
  const assignment asg = oa.view();
  // Rows: the 4 constraints, then x_j·0 = 0 for ONE and out.
  const uint64_t want_a[] = {3, 9, 30, 35, 1, 35}, want_b[] = {3, 3, 1, 1, 0, 0},
                 want_c[] = {9, 27, 30, 35, 0, 0};
  ASSERT_EQ(asg.num_rows(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(asg.a[i], fr_t::from_uint(want_a[i])) << i;
    EXPECT_EQ(asg.b[i], fr_t::from_uint(want_b[i])) << i;
    EXPECT_EQ(asg.c[i], fr_t::from_uint(want_c[i])) << i;
  }
  // m = 8; h = (A·B − C)/(X^8 − 1), 7 coefficients (Python: interpolation over ω_8 =
  // ROOT^(2^29), schoolbook product, long division with zero remainder).
  const char* want_h[] = {"0x39f6d3a994cebea4199cec0404d0ec02a9ded2017fff2dff7fffffff7fffffff",
                          "0x4f97a771e4386dca6a5773206bac8a6ed9ace207a561c3214dc7c50abf85a192",
                          "0x4b3297b12f5b46afd0f5518fc6ca85c06743b03b6b67935a3712fbb872ea69f6",
                          "0x2125f9dfea31aac1e8bb9ef1a4f73c8683e510dead274f81f9f0fd1f45ea2644",
                          "0x36bbf30edbaf22b1a3212ea6c3e7a25a5235f09b30ec7759d6560595d767a0d0",
                          "0x40d184b365299d641759b442ae98868c95d79e0966dfc0a4cbc3c8b0093de483",
                          "0x26e34378b768aad9d8d8f8aad520d81e16cf99ff31667ca850b589ff324cca59"};
  auto h = compute_h(asg, pool);
  ASSERT_TRUE(h.ok());
  ASSERT_EQ(h->size(), 7u);
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ((*h)[i], from_hex(want_h[i])) << i;
  // h_0 = (r − 3)/2 = −3/2: a sanity anchor for the literal table.
  EXPECT_EQ((*h)[0], -fr_t::from_uint(3) * fr_t::from_uint(2).inverse());
  bool exact = false;
  EXPECT_EQ(*h, naive_h(asg.a, asg.b, asg.c, &exact));
  EXPECT_TRUE(exact);
}

TEST(Groth16Prover, RandomCircuitHMatchesNaive) {
  auto rng = test::test_rng::from_env("Groth16Prover.RandomCircuitHMatchesNaive");
  thread_pool pool(2);
  for (size_t n : {5, 13, 30, 61}) {
    const auto ci = testing::random_circuit(n, 2, rng);
    const auto oa = assign(ci, pool);
    auto h = compute_h(oa.view(), pool);
    ASSERT_TRUE(h.ok());
    bool exact = false;
    EXPECT_EQ(*h, naive_h(oa.data.a, oa.data.b, oa.data.c, &exact)) << n;
    EXPECT_TRUE(exact);
  }
}

struct fixture_t {
  testing::circuit_instance ci;
  testing::owned_assignment oa;
  parameters params;
  prepared_verifying_key pvk;
};

fixture_t make_fixture(size_t constraints, size_t pub, test::test_rng& rng, thread_pool& pool) {
  fixture_t f{testing::random_circuit(constraints, pub, rng), {}, {}, {}};
  f.oa = assign(f.ci, pool);
  toxic_waste tw{fr_t::random(rng), fr_t::random(rng), fr_t::random(rng), fr_t::random(rng),
                 fr_t::random(rng)};
  auto p = generate_parameters(f.ci.cs, tw, pool);
  EXPECT_TRUE(p.ok()) << p.error().to_string();
  f.params = std::move(*p);
  f.pvk = prepare_verifying_key(f.params.vk);
  return f;
}

TEST(Groth16Prover, CubicProveVerify) {
  const auto ci = testing::cubic_circuit();
  thread_pool pool(2);
  const auto oa = assign(ci, pool);
  const uint8_t seed[] = {42};
  auto params = generate_parameters(ci.cs, toxic_waste::from_seed(seed), pool);
  ASSERT_TRUE(params.ok());
  const auto pvk = prepare_verifying_key(params->vk);
  auto pf = create_proof(*params, oa.view(), pool);
  ASSERT_TRUE(pf.ok()) << pf.error().to_string();
  const fr_t good[] = {fr_t::from_uint(35)}, bad[] = {fr_t::from_uint(36)};
  EXPECT_TRUE(*verify(pvk, *pf, good));
  EXPECT_FALSE(*verify(pvk, *pf, bad));
}

// Synthesis to proof through the constraint-system API: the same circuit code runs in a matrix_cs
// (for the setup) and a proving_cs (for the assignment); densities and row order must agree.
template <class CS>
void synthesize_cubic_chain(CS& cs, uint64_t x_int, int links) {
  using r1cs::linear_combination;
  using r1cs::variable;
  fr_t x_val = fr_t::from_uint(x_int);
  variable x = cs.alloc([&] { return x_val; });
  for (int i = 0; i < links; ++i) {  // x <- x^3 + x + 5, one link = 3 constraints
    const fr_t x2_val = x_val * x_val, x3_val = x2_val * x_val,
               next_val = x3_val + x_val + fr_t::from_uint(5);
    const variable x2 = cs.alloc([&] { return x2_val; });
    cs.enforce([&](linear_combination& lc) { lc += x; }, [&](linear_combination& lc) { lc += x; },
               [&](linear_combination& lc) { lc += x2; });
    const variable x3 = cs.alloc([&] { return x3_val; });
    cs.enforce([&](linear_combination& lc) { lc += x2; }, [&](linear_combination& lc) { lc += x; },
               [&](linear_combination& lc) { lc += x3; });
    const bool last = i + 1 == links;
    const variable next =
        last ? cs.alloc_input([&] { return next_val; }) : cs.alloc([&] { return next_val; });
    cs.enforce(
        [&](linear_combination& lc) {
          lc += x3;
          lc += x;
          lc += fr_t::from_uint(5) * variable::one();
        },
        [&](linear_combination& lc) { lc += variable::one(); },
        [&](linear_combination& lc) { lc += next; });
    x = next;
    x_val = next_val;
  }
}

TEST(Groth16Prover, ProvingCsToProof) {
  thread_pool pool(2);
  r1cs::matrix_cs shape;
  synthesize_cubic_chain(shape, 0, 20);
  const r1cs::matrices m = shape.take_matrices();
  const uint8_t seed[] = {7};
  auto params = generate_parameters(m, toxic_waste::from_seed(seed), pool);
  ASSERT_TRUE(params.ok()) << params.error().to_string();

  r1cs::proving_cs cs;
  synthesize_cubic_chain(cs, 3, 20);
  cs.finalize();
  ASSERT_EQ(cs.num_rows(), m.num_rows());
  auto pf = create_proof(*params, make_assignment(cs), pool);
  ASSERT_TRUE(pf.ok()) << pf.error().to_string();
  const auto pvk = prepare_verifying_key(params->vk);
  const fr_t out = cs.inputs()[1];
  EXPECT_TRUE(*verify(pvk, *pf, std::span<const fr_t>(&out, 1)));
  const fr_t wrong = out + fr_t::one();
  EXPECT_FALSE(*verify(pvk, *pf, std::span<const fr_t>(&wrong, 1)));
}

// The query-size contract, written once (query_sizes_for): the worked numbers of
// docs/spec/groth16.md §3, and the generator's output for a synthesized circuit matches the shape
// of its assignment.
TEST(Groth16QuerySizes, FollowTheCircuitShape) {
  const parameters_shape shape{3, 5, 8, 3, 1, 3};
  EXPECT_EQ(query_sizes_for(shape), (query_sizes{3, 7, 5, 6, 4, 4}));
  EXPECT_EQ(query_sizes_for(parameters_shape{}).h, 0u);

  thread_pool pool(2);
  r1cs::matrix_cs circuit;
  synthesize_cubic_chain(circuit, 0, 20);
  const r1cs::matrices m = circuit.take_matrices();
  const uint8_t seed[] = {7};
  auto params = generate_parameters(m, toxic_waste::from_seed(seed), pool);
  ASSERT_TRUE(params.ok()) << params.error().to_string();
  r1cs::proving_cs cs;
  synthesize_cubic_chain(cs, 3, 20);
  cs.finalize();
  auto dom = ntt::domain_t::create(cs.num_rows());
  ASSERT_TRUE(dom.ok());
  const assignment asg = make_assignment(cs);
  EXPECT_EQ(params->sizes(), query_sizes_for(shape_of(asg, dom->size())));
  EXPECT_TRUE(check_query_sizes(params->sizes(), asg, dom->size()).ok());
  query_sizes short_h = params->sizes();
  --short_h.h;
  const status s = check_query_sizes(short_h, asg, dom->size());
  EXPECT_EQ(s.code(), status_code::size_mismatch);
  EXPECT_EQ(s.message().rfind("h query has", 0), 0u) << s.message();
}

TEST(Groth16Prover, RandomCircuitsProveVerifyAndTamper) {
  auto rng = test::test_rng::from_env("Groth16Prover.RandomCircuitsProveVerifyAndTamper");
  thread_pool pool(2);
  // 40 and 300 public inputs: the verifier's accumulator is then a Pippenger MSM, not one
  // multiplication per input (verifier.cpp MSM_INPUTS).
  for (auto [n, pub] :
       {std::pair<size_t, size_t>{50, 1}, {200, 4}, {129, 0}, {300, 40}, {700, 300}}) {
    fixture_t f = make_fixture(n, pub, rng, pool);
    prover_timings tm;
    const fr_t r = fr_t::random(rng), s = fr_t::random(rng);
    auto pf = create_proof(f.params, f.oa.view(), r, s, pool, &tm);
    ASSERT_TRUE(pf.ok()) << pf.error().to_string();
    EXPECT_GT(tm.total, 0.0);
    const std::vector<fr_t> x = public_of(f.ci);
    auto ok = verify(f.pvk, *pf, x);
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok) << n;

    if (!x.empty()) {  // a tampered public input
      std::vector<fr_t> y = x;
      y[rng() % y.size()] += fr_t::one();
      EXPECT_FALSE(*verify(f.pvk, *pf, y));
    }
    proof swapped = *pf;
    std::swap(swapped.a, swapped.c);
    EXPECT_FALSE(*verify(f.pvk, swapped, x));
    // Mixing two valid proofs made with different r: A from one, B and C from the other.
    auto pf2 = create_proof(f.params, f.oa.view(), r + fr_t::one(), s, pool);
    ASSERT_TRUE(pf2.ok());
    EXPECT_TRUE(*verify(f.pvk, *pf2, x));
    proof mixed = *pf2;
    mixed.a = pf->a;
    EXPECT_FALSE(*verify(f.pvk, mixed, x));
    proof neg = *pf;
    neg.c = -neg.c;
    EXPECT_FALSE(*verify(f.pvk, neg, x));

    // A witness that does not satisfy the circuit (one aux value changed) must not verify. Adding
    // 1 to an unused seed bit 0 keeps b·(1 − b) = 0 true, so the change is redrawn until the
    // witness really violates a row.
    testing::circuit_instance bad = f.ci;
    do {
      bad.aux = f.ci.aux;
      bad.aux[rng() % bad.aux.size()] += fr_t::one();
    } while (!r1cs::is_satisfied(bad.cs, bad.inputs, bad.aux).has_value());
    const auto boa = assign(bad, pool);
    auto bpf = create_proof(f.params, boa.view(), r, s, pool);
    ASSERT_TRUE(bpf.ok());
    EXPECT_FALSE(*verify(f.pvk, *bpf, x));
  }
}

TEST(Groth16Prover, DeterministicAndThreadIndependent) {
  auto rng = test::test_rng::from_env("Groth16Prover.DeterministicAndThreadIndependent");
  thread_pool p1(1), p2(2);
  fixture_t f = make_fixture(300, 3, rng, p2);
  const fr_t zero = fr_t::zero();
  auto a = create_proof(f.params, f.oa.view(), zero, zero, p2);
  auto b = create_proof(f.params, f.oa.view(), zero, zero, p2);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->a, b->a);
  EXPECT_EQ(a->b, b->b);
  EXPECT_EQ(a->c, b->c);
  EXPECT_TRUE(*verify(f.pvk, *a, public_of(f.ci)));
  const fr_t r = fr_t::random(rng), s = fr_t::random(rng);
  auto c = create_proof(f.params, f.oa.view(), r, s, p1);
  auto d = create_proof(f.params, f.oa.view(), r, s, p2);
  ASSERT_TRUE(c.ok() && d.ok());
  EXPECT_EQ(c->a, d->a);
  EXPECT_EQ(c->b, d->b);
  EXPECT_EQ(c->c, d->c);
  // Random r, s (OS CSPRNG) give distinct, valid proofs.
  auto e = create_proof(f.params, f.oa.view(), p2);
  auto g = create_proof(f.params, f.oa.view(), p2);
  ASSERT_TRUE(e.ok() && g.ok());
  EXPECT_NE(e->a, g->a);
  EXPECT_TRUE(*verify(f.pvk, *e, public_of(f.ci)));
}

TEST(Groth16Verifier, BatchAndSizeMismatch) {
  auto rng = test::test_rng::from_env("Groth16Verifier.BatchAndSizeMismatch");
  thread_pool pool(2);
  fixture_t f = make_fixture(100, 2, rng, pool);
  // Four proofs of the same statement with different r, s.
  std::vector<proof> proofs;
  std::vector<std::vector<fr_t>> inputs;
  for (int k = 0; k < 4; ++k) {
    auto pf = create_proof(f.params, f.oa.view(), fr_t::random(rng), fr_t::random(rng), pool);
    ASSERT_TRUE(pf.ok());
    proofs.push_back(*pf);
    inputs.push_back(public_of(f.ci));
  }
  rng_fn r = [&] { return rng(); };
  EXPECT_TRUE(*verify_batch(f.pvk, proofs, inputs, r));
  EXPECT_TRUE(*verify_batch(f.pvk, proofs, inputs));  // OS CSPRNG combiners
  EXPECT_TRUE(*verify_batch(f.pvk, std::span<const proof>(), {}, r));
  auto bad_inputs = inputs;
  bad_inputs[2][1] += fr_t::one();
  EXPECT_FALSE(*verify_batch(f.pvk, proofs, bad_inputs, r));
  auto bad_proofs = proofs;
  std::swap(bad_proofs[1].a, bad_proofs[1].c);
  EXPECT_FALSE(*verify_batch(f.pvk, bad_proofs, inputs, r));
  bad_proofs = proofs;
  bad_proofs[3].c = proofs[0].c;  // valid points, mismatched proof
  EXPECT_FALSE(*verify_batch(f.pvk, bad_proofs, inputs, r));

  // Input-count mismatches are statuses, not false.
  std::vector<fr_t> short_in = inputs[0];
  short_in.pop_back();
  EXPECT_EQ(verify(f.pvk, proofs[0], short_in).error().code(), status_code::size_mismatch);
  std::vector<fr_t> long_in = inputs[0];
  long_in.push_back(fr_t::one());
  EXPECT_EQ(verify(f.pvk, proofs[0], long_in).error().code(), status_code::size_mismatch);
  auto mis = inputs;
  mis[1] = short_in;
  EXPECT_EQ(verify_batch(f.pvk, proofs, mis, r).error().code(), status_code::size_mismatch);
  EXPECT_EQ(verify_batch(f.pvk, proofs, std::span(inputs).first(3), r).error().code(),
            status_code::size_mismatch);
}

TEST(Groth16Prover, SizeMismatchStatuses) {
  auto rng = test::test_rng::from_env("Groth16Prover.SizeMismatchStatuses");
  thread_pool pool(2);
  fixture_t f = make_fixture(60, 1, rng, pool);
  const fr_t z = fr_t::zero();
  auto expect_mismatch = [&](const parameters& p, const assignment& a) {
    auto r = create_proof(p, a, z, z, pool);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code(), status_code::size_mismatch) << r.error().to_string();
  };
  parameters p = f.params;
  p.h.pop_back();
  expect_mismatch(p, f.oa.view());
  p = f.params;
  p.l.pop_back();
  expect_mismatch(p, f.oa.view());
  p = f.params;
  p.a.pop_back();
  expect_mismatch(p, f.oa.view());
  p = f.params;
  p.b_g2.pop_back();
  expect_mismatch(p, f.oa.view());
  p = f.params;
  p.vk.ic.push_back(p.vk.ic[0]);
  expect_mismatch(p, f.oa.view());
  assignment a = f.oa.view();
  a.c = a.c.first(a.c.size() - 1);
  expect_mismatch(f.params, a);
  a = f.oa.view();
  a.aux = a.aux.first(a.aux.size() - 1);
  expect_mismatch(f.params, a);
  // Parameters of another circuit.
  fixture_t g = make_fixture(70, 2, rng, pool);
  expect_mismatch(g.params, f.oa.view());
}

}  // namespace
}  // namespace cuzk::groth16
