// SPDX-License-Identifier: Apache-2.0
// Test helper: a compiled plan (abc_plan) computes from a witness_cs's assignment exactly the a, b,
// c and densities proving_cs recorded while synthesizing the same circuit; what the plan tests of
// every circuit check. Prints the plan's size and the evaluation time.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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

  const density_bitmaps d = plan->densities();
  expect_same_density(d.a_aux, p.a_aux_density(), "a_aux");
  expect_same_density(d.b_input, p.b_input_density(), "b_input");
  expect_same_density(d.b_aux, p.b_aux_density(), "b_aux");
}

}  // namespace cuzk::r1cs
