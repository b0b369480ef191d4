// SPDX-License-Identifier: Apache-2.0
// Test helper: a compiled plan (abc_plan) computes from a witness_cs's assignment exactly the a, b,
// c and densities proving_cs recorded while synthesizing the same circuit; what the plan tests of
// every circuit check. Prints the plan's size and the evaluation time.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <span>
#include <vector>

#include "r1cs/abc_plan.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs {

inline void expect_same_density(const bitmap& x, const bitmap& y, const char* what) {
  ASSERT_EQ(x.size(), y.size()) << what;
  EXPECT_EQ(x.popcount(), y.popcount()) << what;
  EXPECT_TRUE(std::ranges::equal(x.words(), y.words())) << what;
}

/// A second evaluator of a plan (a, b, c of num_rows() entries from the witness) whose result
/// must equal the CPU's: the GPU registration of the circuit tests sets it (abc_gpu_plan_check.cu)
/// and is compiled with CUZK_PLAN_SECOND_EVALUATOR defined, which makes a missing one a failure.
using plan_evaluator = std::function<void(const abc_plan&, std::span<const ff::fr_t> inputs,
                                          std::span<const ff::fr_t> aux, std::vector<ff::fr_t>& a,
                                          std::vector<ff::fr_t>& b, std::vector<ff::fr_t>& c)>;
inline plan_evaluator& second_plan_evaluator() {
  static plan_evaluator f;
  return f;
}

/// The plan's a, b, c of the witness `w` and its densities are proving_cs's (`p`, finalized).
inline void expect_plan_matches(const char* what, const result<abc_plan>& plan, const proving_cs& p,
                                const witness_cs& w, thread_pool& pool) {
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  std::printf("%s plan: %s\n", what, plan->size().to_string().c_str());
  ASSERT_EQ(plan->num_rows(), p.num_rows());
  ASSERT_EQ(plan->num_constraints(), p.num_constraints());
  ASSERT_TRUE(std::ranges::equal(w.inputs(), p.inputs()));
  ASSERT_TRUE(std::ranges::equal(w.aux(), p.aux()));
  EXPECT_EQ(w.num_constraints(), p.num_constraints());

  const size_t n = plan->num_rows();
  std::vector<ff::fr_t> a(n), b(n), c(n);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(plan->evaluate(w.inputs(), w.aux(), a, b, c, pool).ok());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: a, b, c of %zu rows in %.3f s on %u threads\n", what, n, secs, pool.size());
  EXPECT_TRUE(std::ranges::equal(a, p.a()));
  EXPECT_TRUE(std::ranges::equal(b, p.b()));
  EXPECT_TRUE(std::ranges::equal(c, p.c()));
#ifdef CUZK_PLAN_SECOND_EVALUATOR
  {
    const plan_evaluator& second = second_plan_evaluator();
    ASSERT_TRUE(second) << "built for a second evaluator, but none is linked";
    std::vector<ff::fr_t> a2, b2, c2;
    second(*plan, w.inputs(), w.aux(), a2, b2, c2);
    EXPECT_TRUE(std::ranges::equal(a2, a)) << what << ": second evaluator's a";
    EXPECT_TRUE(std::ranges::equal(b2, b)) << what << ": second evaluator's b";
    EXPECT_TRUE(std::ranges::equal(c2, c)) << what << ": second evaluator's c";
    std::printf("%s: second evaluator equal on %zu rows\n", what, n);
  }
#endif

  const density_bitmaps d = plan->densities();
  expect_same_density(d.a_aux, p.a_aux_density(), "a_aux");
  expect_same_density(d.b_input, p.b_input_density(), "b_input");
  expect_same_density(d.b_aux, p.b_aux_density(), "b_aux");
}

}  // namespace cuzk::r1cs
