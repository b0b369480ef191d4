// SPDX-License-Identifier: Apache-2.0
// The device a, b, c evaluator against the CPU evaluation of the same plan (r1cs::abc_plan::
// evaluate) and against the rows computed from the matrices directly (build_assignment_data): plans
// of random circuits' explicit matrices (r1cs::abc_plan::from_matrices: prologue rows with ±1, 2
// and random coefficients, then the input rows) on random and edge witnesses (all zero, all −1),
// up to 200,000 rows (several thousand thread blocks). The blocked plans of the Filecoin circuits
// (block windows, block inputs, the shared-reference table) are checked on the GPU by
// abc_plan_circuit_gpu_test. Label gpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/device_memory.cuh"
#include "groth16/abc_gpu.hpp"
#include "groth16/test_circuits.hpp"
#include "r1cs/abc_plan.hpp"
#include "r1cs/assignment_data.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16::cuda {
namespace {

using cuzk::gpu::device_buffer;
using ff::fr_t;

thread_pool& pool() {
  static thread_pool p;
  return p;
}

std::vector<fr_t> evaluate_on_device(const device_abc_program& prog, cuzk::gpu::device_context& ctx,
                                     const std::vector<fr_t>& in, const std::vector<fr_t>& aux,
                                     std::vector<fr_t>& b, std::vector<fr_t>& c) {
  const cuzk::gpu::device_scope scope(ctx);
  const cuzk::gpu::stream strm(ctx);
  const size_t n = prog.num_rows();
  device_buffer<fr_t> d_in(in.size()), d_aux(aux.size()), da(n), db(n), dc(n);
  d_in.upload(in.data(), in.size(), strm);
  d_aux.upload(aux.data(), aux.size(), strm);
  prog.evaluate(d_in.data(), d_aux.data(), da.data(), db.data(), dc.data(), strm);
  std::vector<fr_t> a(n);
  b.resize(n);
  c.resize(n);
  da.download(a.data(), n, strm);
  db.download(b.data(), n, strm);
  dc.download(c.data(), n, strm);
  return a;
}

TEST(abc_gpu, plans_of_random_circuits_equal_the_cpu) {
  auto ctx = cuzk::gpu::device_context::open(0);
  ASSERT_TRUE(ctx.ok()) << ctx.error().to_string();
  auto rng = test::test_rng::from_env("abc_gpu.plans_of_random_circuits_equal_the_cpu");
  for (auto [rows, pub] : {std::pair<size_t, size_t>{10, 1}, {1021, 2}, {20000, 5}, {200000, 3}}) {
    const std::string what = "rows " + std::to_string(rows);
    auto ci = testing::random_circuit(rows, pub, rng);
    auto plan = r1cs::abc_plan::from_matrices(ci.cs);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    auto prog = device_abc_program::upload(*plan, *ctx);
    ASSERT_TRUE(prog.ok()) << what << ": " << prog.error().to_string();
    EXPECT_EQ((*prog)->num_rows(), plan->num_rows());
    EXPECT_EQ((*prog)->num_inputs(), ci.inputs.size());
    EXPECT_EQ((*prog)->num_aux(), ci.aux.size());

    // The satisfying witness: against the plan's CPU evaluation and the matrices' own rows.
    std::vector<fr_t> b, c;
    std::vector<fr_t> a = evaluate_on_device(**prog, *ctx, ci.inputs, ci.aux, b, c);
    const size_t n = plan->num_rows();
    std::vector<fr_t> ca(n), cb(n), cc(n);
    ASSERT_TRUE(plan->evaluate(ci.inputs, ci.aux, ca, cb, cc, pool()).ok());
    EXPECT_TRUE(std::ranges::equal(a, ca)) << what;
    EXPECT_TRUE(std::ranges::equal(b, cb)) << what;
    EXPECT_TRUE(std::ranges::equal(c, cc)) << what;
    auto direct = r1cs::build_assignment_data(ci.cs, ci.inputs, ci.aux, pool());
    ASSERT_TRUE(direct.ok());
    EXPECT_TRUE(std::ranges::equal(a, direct->a)) << what;
    EXPECT_TRUE(std::ranges::equal(b, direct->b)) << what;
    EXPECT_TRUE(std::ranges::equal(c, direct->c)) << what;

    // Random, all-zero and all −1 witnesses (inputs[0] stays ONE, as the CPU evaluation requires).
    for (int kind = 0; kind < 3; ++kind) {
      std::vector<fr_t> in(ci.inputs.size()), aux(ci.aux.size());
      for (auto* v : {&in, &aux})
        for (fr_t& x : *v)
          x = kind == 0 ? fr_t::random(rng) : kind == 1 ? fr_t::zero() : -fr_t::one();
      in[0] = fr_t::one();
      a = evaluate_on_device(**prog, *ctx, in, aux, b, c);
      ASSERT_TRUE(plan->evaluate(in, aux, ca, cb, cc, pool()).ok());
      EXPECT_TRUE(std::ranges::equal(a, ca)) << what << " witness kind " << kind;
      EXPECT_TRUE(std::ranges::equal(b, cb)) << what << " witness kind " << kind;
      EXPECT_TRUE(std::ranges::equal(c, cc)) << what << " witness kind " << kind;
    }
  }
}

}  // namespace
}  // namespace cuzk::groth16::cuda
