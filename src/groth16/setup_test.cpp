// SPDX-License-Identifier: Apache-2.0
// Groth16 generator tests: every query of a small circuit against a slow direct evaluation of the
// QAP at τ (Lagrange basis by the O(m²) product formula, points by wNAF scalar multiplication
// instead of the fixed-base tables), the density filter, and the failure statuses; the streaming
// qap_cs against evaluate_qap over the matrices of the same synthesis (repeated and cancelling
// terms, inputs in B or not, a variable only in C), byte-identical parameters from both.
#include <gtest/gtest.h>

#include <cstring>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "groth16/params_io.hpp"
#include "groth16/qap_cs.hpp"
#include "groth16/setup.hpp"
#include "groth16/test_circuits.hpp"
#include "r1cs/matrix_cs.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::fr_t;

/// ω_m = ROOT^(2^(32 − log m)), computed here rather than taken from ntt::domain_t.
fr_t omega_for(size_t m) {
  unsigned lg = 0;
  while ((size_t(1) << lg) < m) ++lg;
  fr_t w = ff::FR_ROOT_OF_UNITY;
  for (unsigned i = lg; i < 32; ++i) w = w.sqr();
  return w;
}

/// L_i(τ) = Π_{k≠i} (τ − ω^k)/(ω^i − ω^k).
std::vector<fr_t> naive_lagrange(size_t m, const fr_t& tau) {
  const fr_t w = omega_for(m);
  std::vector<fr_t> pts(m);
  fr_t p = fr_t::one();
  for (size_t i = 0; i < m; ++i, p *= w) pts[i] = p;
  std::vector<fr_t> out(m);
  for (size_t i = 0; i < m; ++i) {
    fr_t num = fr_t::one(), den = fr_t::one();
    for (size_t k = 0; k < m; ++k) {
      if (k == i) continue;
      num *= tau - pts[k];
      den *= pts[i] - pts[k];
    }
    out[i] = num * den.inverse();
  }
  return out;
}

struct naive_qap {
  size_t m;
  std::vector<fr_t> at, bt, ct;
};

naive_qap naive_eval(const r1cs::matrices& cs, const fr_t& tau) {
  const size_t rows = cs.num_rows();
  size_t m = 1;
  while (m < rows) m *= 2;
  const std::vector<fr_t> L = naive_lagrange(m, tau);
  naive_qap q{m, std::vector<fr_t>(cs.num_variables(), fr_t::zero()), {}, {}};
  q.bt = q.ct = q.at;
  auto add = [&](const r1cs::sparse_matrix& mat, std::vector<fr_t>& out) {
    for (size_t i = 0; i < mat.num_rows(); ++i)
      for (size_t k = mat.row_offsets[i]; k < mat.row_offsets[i + 1]; ++k)
        out[mat.columns[k]] += mat.coeffs[k] * L[i];
  };
  add(cs.a, q.at);
  add(cs.b, q.bt);
  add(cs.c, q.ct);
  for (size_t j = 0; j < cs.num_inputs; ++j) q.at[j] += L[cs.num_constraints() + j];
  return q;
}

g1_affine_t g1(const fr_t& k) {
  return ec::mul(ec::g1_generator(), k).to_affine();
}
g2_affine_t g2(const fr_t& k) {
  return ec::mul(ec::g2_generator(), k).to_affine();
}

void check_against_naive(const testing::circuit_instance& ci, const toxic_waste& tw,
                         thread_pool& pool) {
  const r1cs::matrices& cs = ci.cs;
  auto pr = generate_parameters(cs, tw, pool);
  ASSERT_TRUE(pr.ok()) << pr.error().to_string();
  const parameters& p = *pr;
  const naive_qap q = naive_eval(cs, tw.tau);
  const size_t n_in = cs.num_inputs, n_aux = cs.num_aux;

  EXPECT_EQ(p.vk.alpha_g1, g1(tw.alpha));
  EXPECT_EQ(p.vk.beta_g1, g1(tw.beta));
  EXPECT_EQ(p.vk.beta_g2, g2(tw.beta));
  EXPECT_EQ(p.vk.gamma_g2, g2(tw.gamma));
  EXPECT_EQ(p.vk.delta_g1, g1(tw.delta));
  EXPECT_EQ(p.vk.delta_g2, g2(tw.delta));

  // h_i = τ^i·(τ^m − 1)/δ
  ASSERT_EQ(p.h.size(), q.m - 1);
  fr_t tm = fr_t::one();
  for (size_t i = 0; i < q.m; ++i) tm *= tw.tau;
  const fr_t coeff = (tm - fr_t::one()) * tw.delta.inverse();
  fr_t ti = fr_t::one();
  for (size_t i = 0; i + 1 < q.m; ++i, ti *= tw.tau) EXPECT_EQ(p.h[i], g1(ti * coeff)) << i;

  auto lc = [&](size_t j) { return tw.beta * q.at[j] + tw.alpha * q.bt[j] + q.ct[j]; };
  ASSERT_EQ(p.vk.ic.size(), n_in);
  for (size_t j = 0; j < n_in; ++j) EXPECT_EQ(p.vk.ic[j], g1(lc(j) * tw.gamma.inverse())) << j;
  ASSERT_EQ(p.l.size(), n_aux);
  for (size_t j = 0; j < n_aux; ++j) EXPECT_EQ(p.l[j], g1(lc(n_in + j) * tw.delta.inverse())) << j;

  // a: all inputs, then aux with a nonzero A coefficient; b likewise over B (inputs included).
  std::vector<size_t> a_vars, b_vars;
  for (size_t j = 0; j < cs.num_variables(); ++j) {
    bool in_a = j < n_in, in_b = false;
    for (size_t k = 0; k < cs.a.nnz(); ++k)
      in_a |= cs.a.columns[k] == j && !cs.a.coeffs[k].is_zero();
    for (size_t k = 0; k < cs.b.nnz(); ++k)
      in_b |= cs.b.columns[k] == j && !cs.b.coeffs[k].is_zero();
    if (in_a) a_vars.push_back(j);
    if (in_b) b_vars.push_back(j);
  }
  ASSERT_EQ(p.a.size(), a_vars.size());
  for (size_t i = 0; i < a_vars.size(); ++i) EXPECT_EQ(p.a[i], g1(q.at[a_vars[i]])) << i;
  ASSERT_EQ(p.b_g1.size(), b_vars.size());
  ASSERT_EQ(p.b_g2.size(), b_vars.size());
  for (size_t i = 0; i < b_vars.size(); ++i) {
    EXPECT_EQ(p.b_g1[i], g1(q.bt[b_vars[i]])) << i;
    EXPECT_EQ(p.b_g2[i], g2(q.bt[b_vars[i]])) << i;
  }
}

TEST(Groth16Setup, CubicCircuitMatchesNaiveQap) {
  const auto ci = testing::cubic_circuit();
  const uint8_t seed[] = {1, 2, 3};
  thread_pool pool(2);
  check_against_naive(ci, toxic_waste::from_seed(seed), pool);
}

TEST(Groth16Setup, RandomCircuitMatchesNaiveQap) {
  auto rng = test::test_rng::from_env("Groth16Setup.RandomCircuitMatchesNaiveQap");
  const auto ci = testing::random_circuit(40, 3, rng);
  toxic_waste tw{fr_t::random(rng), fr_t::random(rng), fr_t::random(rng), fr_t::random(rng),
                 fr_t::random(rng)};
  thread_pool pool(3);
  check_against_naive(ci, tw, pool);
}

TEST(Groth16Setup, QapInputRowsAndDensity) {
  // The cubic circuit: x (col 2) is in A and B, sym1 (3) in A only, y (4) in A only, sym2 (5) in A
  // only; inputs: ONE in B (rows 3, 4), out (1) in no B row.
  const auto ci = testing::cubic_circuit();
  thread_pool pool(1);
  const fr_t tau = fr_t::from_uint(123456789);
  auto q = evaluate_qap(ci.cs, tau, pool);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->domain_size, 8u);  // 4 constraints + 2 input rows
  EXPECT_EQ(q->density.a_aux.popcount(), 4u);
  EXPECT_TRUE(q->density.b_input.test(0));
  EXPECT_FALSE(q->density.b_input.test(1));
  EXPECT_TRUE(q->density.b_aux.test(0));
  EXPECT_EQ(q->density.b_aux.popcount(), 1u);
  const naive_qap n = naive_eval(ci.cs, tau);
  EXPECT_EQ(q->at, n.at);
  EXPECT_EQ(q->bt, n.bt);
  EXPECT_EQ(q->ct, n.ct);
}

TEST(Groth16Setup, SeedIsDeterministicAndDistinct) {
  const uint8_t s1[] = {0xab}, s2[] = {0xac};
  const toxic_waste a = toxic_waste::from_seed(s1), b = toxic_waste::from_seed(s1),
                    c = toxic_waste::from_seed(s2);
  EXPECT_EQ(a.tau, b.tau);
  EXPECT_EQ(a.delta, b.delta);
  EXPECT_NE(a.tau, c.tau);
  EXPECT_NE(a.tau, a.alpha);
  EXPECT_NE(a.gamma, a.delta);
  auto r1 = toxic_waste::random(), r2 = toxic_waste::random();
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_NE(r1->tau, r2->tau);
}

TEST(Groth16Setup, RejectsZeroGammaDeltaAndUnconstrainedAux) {
  auto ci = testing::cubic_circuit();
  thread_pool pool(1);
  const uint8_t seed[] = {7};
  toxic_waste tw = toxic_waste::from_seed(seed);
  toxic_waste bad = tw;
  bad.gamma = fr_t::zero();
  EXPECT_EQ(generate_parameters(ci.cs, bad, pool).error().code(), status_code::invalid_argument);
  bad = tw;
  bad.delta = fr_t::zero();
  EXPECT_EQ(generate_parameters(ci.cs, bad, pool).error().code(), status_code::invalid_argument);
  // τ in the domain: t(τ) = 0, h would be all infinity.
  bad = tw;
  bad.tau = fr_t::one();
  EXPECT_EQ(generate_parameters(ci.cs, bad, pool).error().code(), status_code::is_infinity);
  // An aux variable in no row: its l point would be infinity (bellperson: UnconstrainedVariable).
  ci.cs.num_aux += 1;
  EXPECT_EQ(generate_parameters(ci.cs, tw, pool).error().code(), status_code::is_infinity);
  // Malformed matrices.
  ci = testing::cubic_circuit();
  ci.cs.b.row_offsets.pop_back();
  EXPECT_FALSE(generate_parameters(ci.cs, tw, pool).ok());
}

TEST(Groth16Setup, ProgressAndThreadIndependence) {
  auto rng = test::test_rng::from_env("Groth16Setup.ProgressAndThreadIndependence");
  const auto ci = testing::random_circuit(300, 2, rng);
  const uint8_t seed[] = {9, 9};
  const toxic_waste tw = toxic_waste::from_seed(seed);
  thread_pool p1(1), p3(3);
  size_t calls = 0, last_done = 0, last_total = 0;
  std::string last_phase;
  auto a = generate_parameters(ci.cs, tw, p1, [&](const char* ph, size_t d, size_t t) {
    ++calls;
    last_phase = ph;
    last_done = d;
    last_total = t;
  });
  auto b = generate_parameters(ci.cs, tw, p3);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(calls, 5u);
  EXPECT_EQ(last_phase, "b_g2");
  EXPECT_EQ(last_done, last_total);
  EXPECT_EQ(a->h, b->h);
  EXPECT_EQ(a->l, b->l);
  EXPECT_EQ(a->a, b->a);
  EXPECT_EQ(a->b_g2, b->b_g2);
  EXPECT_EQ(a->vk.ic, b->vk.ic);
}

/// A circuit written against the CS concept, as the Filecoin circuits are: `rows` rows mixing a
/// repeated variable (x + x), a cancelling pair (y − y: not dense), inputs in B and not, and an
/// aux variable that appears only in C.
template <class CS>
void synthesize_mixed(CS& cs, size_t rows, test::test_rng& rng) {
  using r1cs::linear_combination;
  using r1cs::variable;
  const variable in1 = cs.alloc_input([] { return fr_t::from_uint(3); });
  const variable in2 = cs.alloc_input([] { return fr_t::from_uint(5); });
  std::vector<variable> vars = {variable::one(), in1, in2};
  for (size_t i = 0; i < rows; ++i) {
    const variable x = vars[rng() % vars.size()], y = vars[rng() % vars.size()];
    const variable z = cs.alloc([] { return fr_t::zero(); });
    const fr_t k = fr_t::random(rng);
    switch (i % 4) {
      case 0:  // (x + x)·(y + k) = z
        cs.enforce(
            [&](linear_combination& lc) {
              lc += x;
              lc += x;
            },
            [&](linear_combination& lc) {
              lc += y;
              lc += r1cs::lc_term{k, variable::one()};
            },
            [&](linear_combination& lc) { lc += z; });
        break;
      case 1:  // (x + y − y)·in2 = z
        cs.enforce(
            [&](linear_combination& lc) {
              lc += x;
              lc += y;
              lc -= y;
            },
            [&](linear_combination& lc) { lc += in2; }, [&](linear_combination& lc) { lc += z; });
        break;
      case 2:  // k·x·(y − y) = 0, z only in C with a zero coefficient sum: unconstrained A and B
        cs.enforce(
            [&](linear_combination& lc) {
              lc += r1cs::lc_term{k, x};
            },
            [&](linear_combination& lc) {
              lc += y;
              lc -= y;
            },
            [&](linear_combination& lc) {
              lc += z;
              lc -= z;
            });
        break;
      default:  // x·1 = z + k·in1
        cs.enforce([&](linear_combination& lc) { lc += x; },
                   [&](linear_combination& lc) { lc += variable::one(); },
                   [&](linear_combination& lc) {
                     lc += z;
                     lc += r1cs::lc_term{k, in1};
                   });
    }
    vars.push_back(z);
  }
}

TEST(Groth16Setup, StreamingQapEqualsTheMatrices) {
  auto rng = test::test_rng::from_env("Groth16Setup.StreamingQapEqualsTheMatrices");
  const uint64_t replay = rng();
  const size_t rows = 1000;
  r1cs::matrix_cs mcs;
  test::test_rng r1(replay), r2(replay);
  synthesize_mixed(mcs, rows, r1);
  const r1cs::matrices m = mcs.take_matrices();
  const fr_t tau = fr_t::random(rng);
  thread_pool pool(2);
  auto want = evaluate_qap(m, tau, pool);
  ASSERT_TRUE(want.ok()) << want.error().to_string();

  auto lagrange = lagrange_at_tau(want->domain_size, tau, pool);
  ASSERT_TRUE(lagrange.ok());
  qap_cs qcs(std::move(*lagrange));
  synthesize_mixed(qcs, rows, r2);
  EXPECT_EQ(qcs.num_constraints(), m.num_constraints());
  EXPECT_EQ(qcs.num_aux(), m.num_aux);
  auto got = std::move(qcs).take(tau);
  ASSERT_TRUE(got.ok()) << got.error().to_string();
  EXPECT_EQ(got->domain_size, want->domain_size);
  EXPECT_TRUE(got->at == want->at);
  EXPECT_TRUE(got->bt == want->bt);
  EXPECT_TRUE(got->ct == want->ct);
  EXPECT_TRUE(got->t_tau == want->t_tau);
  for (auto [g, w] : {std::pair{&got->density.a_aux, &want->density.a_aux},
                      std::pair{&got->density.b_input, &want->density.b_input},
                      std::pair{&got->density.b_aux, &want->density.b_aux}}) {
    ASSERT_EQ(g->size(), w->size());
    EXPECT_EQ(g->popcount(), w->popcount());
    for (size_t i = 0; i < g->size(); ++i) ASSERT_EQ(g->test(i), w->test(i)) << i;
  }
  // Variables only in C (case 2 rows cancel out): A and B density must miss them.
  EXPECT_LT(got->density.a_aux.popcount(), m.num_aux);

  // A case-2 z that no later row uses is unconstrained, and the generator refuses it: whatever
  // the draw, both ways end alike (the same error, or the same bytes).
  const uint8_t seed[] = {'q', 'a', 'p'};
  const auto tw = toxic_waste::from_seed(seed);
  auto from_matrices = generate_parameters(m, tw, pool);
  auto from_stream = generate_parameters(std::move(*got), m.num_inputs, m.num_aux, tw, pool);
  ASSERT_EQ(from_matrices.ok(), from_stream.ok());
  if (!from_matrices.ok()) {
    EXPECT_EQ(from_matrices.error().to_string(), from_stream.error().to_string());
  } else {
    EXPECT_TRUE(*params_to_bytes(*from_matrices, pool) == *params_to_bytes(*from_stream, pool));
  }
}

TEST(Groth16Setup, StreamingQapGivesTheSameParameters) {
  auto rng = test::test_rng::from_env("Groth16Setup.StreamingQapGivesTheSameParameters");
  const auto ci = testing::random_circuit(3000, 3, rng);
  const fr_t tau = toxic_waste::from_seed(std::span<const uint8_t>()).tau;
  thread_pool pool(2);
  // The random circuit as a CS replay: every row of the matrices re-enforced through qap_cs.
  const size_t rows = ci.cs.num_constraints() + ci.cs.num_inputs;
  size_t m = 1;
  while (m < rows) m <<= 1;
  auto lagrange = lagrange_at_tau(m, tau, pool);
  ASSERT_TRUE(lagrange.ok());
  qap_cs qcs(std::move(*lagrange));
  for (size_t j = 1; j < ci.cs.num_inputs; ++j) qcs.alloc_input([] { return fr_t::zero(); });
  for (size_t j = 0; j < ci.cs.num_aux; ++j) qcs.alloc([] { return fr_t::zero(); });
  auto var = [&](uint32_t col) {
    return col < ci.cs.num_inputs ? r1cs::variable::input(col)
                                  : r1cs::variable::aux(uint32_t(col - ci.cs.num_inputs));
  };
  auto row_lc = [&](const r1cs::sparse_matrix& sm, size_t i) {
    return [&sm, i, &var](r1cs::linear_combination& lc) {
      for (uint64_t k = sm.row_offsets[i]; k < sm.row_offsets[i + 1]; ++k)
        lc += r1cs::lc_term{sm.coeffs[k], var(sm.columns[k])};
    };
  };
  for (size_t i = 0; i < ci.cs.num_constraints(); ++i)
    qcs.enforce(row_lc(ci.cs.a, i), row_lc(ci.cs.b, i), row_lc(ci.cs.c, i));
  auto q = std::move(qcs).take(tau);
  ASSERT_TRUE(q.ok()) << q.error().to_string();
  const auto tw = toxic_waste::from_seed(std::span<const uint8_t>());
  auto a = generate_parameters(ci.cs, tw, pool);
  auto b = generate_parameters(std::move(*q), ci.cs.num_inputs, ci.cs.num_aux, tw, pool);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  auto ba = params_to_bytes(*a, pool), bb = params_to_bytes(*b, pool);
  ASSERT_TRUE(ba.ok() && bb.ok());
  EXPECT_TRUE(*ba == *bb) << "parameters from the streaming QAP differ from the matrices'";
}

TEST(Groth16Setup, StreamingQapRefusesTheWrongDomain) {
  thread_pool pool(1);
  auto lagrange = lagrange_at_tau(8, fr_t::from_uint(7), pool);
  ASSERT_TRUE(lagrange.ok());
  qap_cs qcs(std::move(*lagrange));
  const auto z = qcs.alloc([] { return fr_t::zero(); });
  for (int i = 0; i < 8; ++i) {  // 8 constraints + 1 input row = 9 rows: domain 16, not 8
    qcs.enforce([&](r1cs::linear_combination& lc) { lc += z; },
                [&](r1cs::linear_combination& lc) { lc += z; },
                [&](r1cs::linear_combination& lc) { lc += z; });
  }
  auto q = std::move(qcs).take(fr_t::from_uint(7));
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error().code(), status_code::size_mismatch);
  EXPECT_FALSE(lagrange_at_tau(12, fr_t::one(), pool).ok());
}

}  // namespace
}  // namespace cuzk::groth16
