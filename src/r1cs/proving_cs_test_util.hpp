// SPDX-License-Identifier: Apache-2.0
// Test helper: two proving_cs syntheses of a circuit are the same (rows, assignment, densities);
// what the parallel synthesis tests of every circuit check against the sequential synthesis.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>

#include "r1cs/proving_cs.hpp"

namespace cuzk::r1cs {

/// Both synthesized partitions hold the same rows, assignment and densities.
inline void expect_same_synthesis(const proving_cs& want, const proving_cs& got) {
  const auto same = [](auto x, auto y) { return std::ranges::equal(x, y); };
  EXPECT_TRUE(same(want.a(), got.a()));
  EXPECT_TRUE(same(want.b(), got.b()));
  EXPECT_TRUE(same(want.c(), got.c()));
  EXPECT_TRUE(same(want.inputs(), got.inputs()));
  EXPECT_TRUE(same(want.aux(), got.aux()));
  EXPECT_EQ(want.num_constraints(), got.num_constraints());
  for (auto d :
       {&proving_cs::a_aux_density, &proving_cs::b_input_density, &proving_cs::b_aux_density}) {
    EXPECT_EQ((want.*d)().size(), (got.*d)().size());
    EXPECT_EQ((want.*d)().popcount(), (got.*d)().popcount());
    EXPECT_TRUE(same((want.*d)().words(), (got.*d)().words()));
  }
}

}  // namespace cuzk::r1cs
