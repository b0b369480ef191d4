// SPDX-License-Identifier: Apache-2.0
// abc_plan on random blocked circuits (a prologue, then K blocks whose rows read the prologue's
// variables and their own, with ±1, power-of-two and random coefficients, long and duplicated
// LCs, inputs in the prologue and in the blocks): a, b, c evaluated from a parallel witness_cs
// synthesis equal proving_cs's bit for bit, whole and by row ranges; the densities equal
// proving_cs's; a block K−1 whose rows, shape or reads differ from block 0's is an error; the
// plan of explicit matrices equals build_assignment_data; bad spans are errors.
#include "r1cs/abc_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "r1cs/matrix_cs.hpp"
#include "r1cs/parallel_synthesis.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_rng.hpp"

namespace cuzk::r1cs {
namespace {

using ff::fr_t;

/// What a block of the test circuit may do differently from the others.
enum class tamper { none, coefficient, extra_row, extra_aux, reads_block_0, inconsistent_shared };

/// A random blocked circuit: the structure comes from `structure_seed` (the same for every
/// block), the values from `value_seed` and the block index.
struct blocked_circuit {
  uint64_t structure_seed = 1, value_seed = 2;
  size_t prologue_inputs = 3, prologue_aux = 5, prologue_rows = 7;
  size_t block_inputs = 2, block_aux = 9, block_rows = 23;
  size_t blocks = 4;
  /// Block i also reads two prologue variables of its own (SnapDeals' slices of random bits):
  /// slice[2i] and slice[2i + 1] of 2·blocks + 1 prologue variables.
  bool own_slice = false;
  tamper how = tamper::none;
  size_t tampered_block = 0;

  struct shared_t {
    std::vector<variable> vars;
    std::vector<variable> slice;
  };

  static fr_t coefficient(test::test_rng& rng) {
    switch (rng.below(5)) {
      case 0:
        return fr_t::one();
      case 1:
        return -fr_t::one();
      case 2:
        return fr_t::from_uint(uint64_t(1) << rng.below(40));
      case 3:
        return -fr_t::from_uint(uint64_t(1) << rng.below(40));
      default:
        return fr_t::random(rng);
    }
  }

  // A random LC over `vars` (short or long, sometimes with a repeated variable or a cancelling
  // pair), drawn from the structure rng.
  static linear_combination random_lc(test::test_rng& rng, const std::vector<variable>& vars) {
    linear_combination lc;
    const size_t n = rng.below(4) == 0 ? 5 + rng.below(8) : rng.below(4);
    for (size_t t = 0; t < n; ++t) lc += coefficient(rng) * vars[rng.below(vars.size())];
    if (rng.below(6) == 0) {
      const variable v = vars[rng.below(vars.size())];
      lc += v;
      lc -= v;
    }
    return lc;
  }

  template <class CS>
  void rows(CS& cs, test::test_rng& rng, const std::vector<variable>& vars, size_t count) const {
    for (size_t r = 0; r < count; ++r) {
      const linear_combination a = random_lc(rng, vars), b = random_lc(rng, vars),
                               c = random_lc(rng, vars);
      cs.enforce([&](linear_combination& lc) { lc = a; }, [&](linear_combination& lc) { lc = b; },
                 [&](linear_combination& lc) { lc = c; });
    }
  }

  template <class CS>
  shared_t prologue(CS& cs) const {
    test::test_rng srng(structure_seed), vrng(value_seed);
    shared_t sh;
    sh.vars.push_back(variable::one());
    for (size_t i = 0; i < prologue_inputs; ++i)
      sh.vars.push_back(cs.alloc_input([&] { return fr_t::random(vrng); }));
    for (size_t i = 0; i < prologue_aux; ++i)
      sh.vars.push_back(cs.alloc([&] { return fr_t::random(vrng); }));
    rows(cs, srng, sh.vars, prologue_rows);
    if (own_slice)
      for (size_t i = 0; i < 2 * blocks + 1; ++i)
        sh.slice.push_back(cs.alloc([&] { return fr_t::random(vrng); }));
    return sh;
  }

  /// Block i; `first_block_var` receives a variable of block 0 (for the reads_block_0 tamper).
  template <class CS>
  void block(CS& cs, const shared_t& sh, size_t i, variable* first_block_var = nullptr) const {
    test::test_rng srng(structure_seed + 1000), vrng(value_seed + 1000 + i);
    const bool tampered = how != tamper::none && i == tampered_block;
    std::vector<variable> vars = sh.vars;
    for (size_t k = 0; k < block_aux; ++k) {
      vars.push_back(cs.alloc([&] { return fr_t::random(vrng); }));
      // Interleave inputs with the aux so the block's inputs are read as well.
      if (k < block_inputs) vars.push_back(cs.alloc_input([&] { return fr_t::random(vrng); }));
    }
    if (first_block_var && i == 0) *first_block_var = vars[sh.vars.size()];
    if (tampered && how == tamper::extra_aux) vars.push_back(cs.alloc([] { return fr_t::one(); }));
    rows(cs, srng, vars, block_rows);
    if (tampered && how == tamper::extra_row) {
      cs.enforce([&](linear_combination& lc) { lc += vars.back(); },
                 [](linear_combination& lc) { lc += variable::one(); },
                 [&](linear_combination& lc) { lc += vars.back(); });
    }
    if (tampered && how == tamper::coefficient) {
      cs.enforce([&](linear_combination& lc) { lc += fr_t::from_uint(3) * vars.back(); },
                 [](linear_combination&) {}, [](linear_combination&) {});
    } else {
      cs.enforce([&](linear_combination& lc) { lc += fr_t::from_uint(2) * vars.back(); },
                 [](linear_combination&) {}, [](linear_combination&) {});
    }
    if (own_slice) {
      const size_t n = sh.slice.size();
      const variable v0 = sh.slice[2 * i % n], v1 = sh.slice[(2 * i + 1) % n];
      const variable again = tampered && how == tamper::inconsistent_shared ? v1 : v0;
      cs.enforce(
          [&](linear_combination& lc) {
            lc += v0;
            lc += fr_t::from_uint(3) * vars.back();
          },
          [&](linear_combination& lc) { lc += v1; },
          [&](linear_combination& lc) { lc += fr_t::from_uint(2) * v0; });
      cs.enforce([&](linear_combination& lc) { lc -= again; }, [](linear_combination&) {},
                 [&](linear_combination& lc) { lc += vars[sh.vars.size()]; });
    }
    if (tampered && how == tamper::reads_block_0 && first_block_var) {
      const variable other = *first_block_var;
      cs.enforce([&](linear_combination& lc) { lc += other; }, [](linear_combination&) {},
                 [](linear_combination&) {});
    } else {
      cs.enforce([&](linear_combination& lc) { lc += vars[sh.vars.size()]; },
                 [](linear_combination&) {}, [](linear_combination&) {});
    }
  }

  template <class CS>
  void synthesize(CS& cs) const {
    const shared_t sh = prologue(cs);
    for (size_t i = 0; i < blocks; ++i) block(cs, sh, i);
  }

  result<abc_plan> plan() const {
    variable first_block_var;
    return compile_abc_plan(
        blocks, [&](abc_plan_recorder& cs) { return prologue(cs); },
        [&](abc_plan_recorder& cs, const shared_t& sh, size_t i) {
          block(cs, sh, i, &first_block_var);
        });
  }

  proving_cs::block_shape block_shape() const {
    return measure_block_shape([&](witness_cs& cs) { return prologue(cs); },
                               [&](witness_cs& cs, const shared_t& sh) { block(cs, sh, 0); });
  }
};

void expect_same_bitmap(const bitmap& x, const bitmap& y, const char* what) {
  ASSERT_EQ(x.size(), y.size()) << what;
  EXPECT_EQ(x.popcount(), y.popcount()) << what;
  EXPECT_TRUE(std::ranges::equal(x.words(), y.words())) << what;
}

blocked_circuit random_shape(test::test_rng& rng) {
  blocked_circuit c;
  c.structure_seed = rng();
  c.value_seed = rng();
  c.prologue_inputs = rng.below(4);
  c.prologue_aux = rng.below(6);
  c.prologue_rows = rng.below(12);
  c.block_inputs = rng.below(3);
  c.block_aux = 1 + rng.below(12);
  c.block_rows = 1 + rng.below(40);
  c.blocks = 1 + rng.below(6);
  c.own_slice = rng.below(2) == 1;
  return c;
}

TEST(abc_plan, evaluation_equals_proving_cs) {
  auto rng = test::test_rng::from_env("abc_plan.evaluation_equals_proving_cs");
  thread_pool pool(3);
  for (int iter = 0; iter < 30; ++iter) {
    const blocked_circuit bc = random_shape(rng);
    SCOPED_TRACE(testing::Message() << "iteration " << iter << ", " << bc.blocks << " blocks");
    proving_cs p;
    bc.synthesize(p);
    p.finalize();

    auto plan = bc.plan();
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    ASSERT_EQ(plan->num_rows(), p.num_rows());
    ASSERT_EQ(plan->num_constraints(), p.num_constraints());
    EXPECT_EQ(plan->size().prologue_rows, bc.prologue_rows);
    EXPECT_EQ(plan->size().block_rows, bc.block_rows + 2 + (bc.own_slice ? 2 : 0));
    EXPECT_EQ(plan->layout().shared_slots, bc.own_slice && bc.blocks > 1 ? 2u : 0u);
    EXPECT_EQ(plan->coefficients()[abc_plan::ONE_ID], fr_t::one());
    EXPECT_EQ(plan->coefficients()[abc_plan::MINUS_ONE_ID], -fr_t::one());

    // The witness from a parallel witness-only synthesis.
    witness_cs w;
    const auto sh = bc.prologue(w);
    ASSERT_TRUE(
        synthesize_blocks_parallel(w, bc.blocks, bc.block_shape(), pool,
                                   [&](witness_cs::block_cs& b, size_t i) { bc.block(b, sh, i); })
            .ok());
    ASSERT_TRUE(std::ranges::equal(w.inputs(), p.inputs()));
    ASSERT_TRUE(std::ranges::equal(w.aux(), p.aux()));
    EXPECT_EQ(w.num_constraints(), p.num_constraints());

    const size_t n = plan->num_rows();
    std::vector<fr_t> a(n), b(n), c(n);
    ASSERT_TRUE(plan->evaluate(w.inputs(), w.aux(), a, b, c, pool).ok());
    EXPECT_TRUE(std::ranges::equal(a, p.a()));
    EXPECT_TRUE(std::ranges::equal(b, p.b()));
    EXPECT_TRUE(std::ranges::equal(c, p.c()));

    // A random row range (what a caller filling staging buffers chunk by chunk asks for).
    const size_t first = rng.below(n + 1), count = rng.below(n - first + 1);
    std::vector<fr_t> ra(count), rb(count), rc(count);
    ASSERT_TRUE(plan->evaluate_rows(first, w.inputs(), w.aux(), ra, rb, rc, pool).ok());
    EXPECT_TRUE(std::ranges::equal(ra, p.a().subspan(first, count)));
    EXPECT_TRUE(std::ranges::equal(rb, p.b().subspan(first, count)));
    EXPECT_TRUE(std::ranges::equal(rc, p.c().subspan(first, count)));

    const density_bitmaps d = plan->densities();
    expect_same_bitmap(d.a_aux, p.a_aux_density(), "a_aux");
    expect_same_bitmap(d.b_input, p.b_input_density(), "b_input");
    expect_same_bitmap(d.b_aux, p.b_aux_density(), "b_aux");

    // The explicit plan of the recorded matrices agrees with build_assignment_data.
    matrix_cs mc;
    bc.synthesize(mc);
    const matrices m = mc.take_matrices();
    auto explicit_plan = abc_plan::from_matrices(m);
    ASSERT_TRUE(explicit_plan.ok()) << explicit_plan.error().to_string();
    auto data = build_assignment_data(m, w.inputs(), w.aux(), pool);
    ASSERT_TRUE(data.ok());
    ASSERT_TRUE(explicit_plan->evaluate(w.inputs(), w.aux(), a, b, c, pool).ok());
    EXPECT_EQ(a, data->a);
    EXPECT_EQ(b, data->b);
    EXPECT_EQ(c, data->c);
    const density_bitmaps ed = explicit_plan->densities();
    expect_same_bitmap(ed.a_aux, data->density.a_aux, "explicit a_aux");
    expect_same_bitmap(ed.b_input, data->density.b_input, "explicit b_input");
    expect_same_bitmap(ed.b_aux, data->density.b_aux, "explicit b_aux");
  }
}

TEST(abc_plan, block_unlike_the_template_is_an_error) {
  for (tamper how : {tamper::coefficient, tamper::extra_row, tamper::extra_aux,
                     tamper::reads_block_0, tamper::inconsistent_shared}) {
    for (size_t blocks : {2, 5}) {
      for (bool own_slice : {false, true}) {
        if (how == tamper::inconsistent_shared && !own_slice) continue;
        blocked_circuit bc;
        bc.blocks = blocks;
        bc.own_slice = own_slice;
        bc.how = how;
        bc.tampered_block = blocks - 1;
        const auto plan = bc.plan();
        ASSERT_FALSE(plan.ok()) << int(how) << " " << blocks;
        EXPECT_EQ(plan.error().code(), status_code::internal) << plan.error().to_string();
        // Blocks that read their own prologue variables make every block checked, so a
        // tampered middle block is found as well.
        if (own_slice && blocks > 2) {
          bc.tampered_block = 2;
          EXPECT_FALSE(bc.plan().ok()) << int(how);
        }
      }
    }
  }
  blocked_circuit ok;
  ok.blocks = 1;
  EXPECT_TRUE(ok.plan().ok());
}

TEST(abc_plan, bad_spans_are_errors) {
  const blocked_circuit bc;
  auto plan = bc.plan();
  ASSERT_TRUE(plan.ok());
  proving_cs p;
  bc.synthesize(p);
  p.finalize();
  std::vector<fr_t> inputs(p.inputs().begin(), p.inputs().end());
  const std::span<const fr_t> aux = p.aux();
  thread_pool pool(2);
  const size_t n = plan->num_rows();
  std::vector<fr_t> a(n), b(n), c(n), shorter(n - 1);
  EXPECT_EQ(plan->evaluate(std::span(inputs).first(inputs.size() - 1), aux, a, b, c, pool).code(),
            status_code::size_mismatch);
  EXPECT_EQ(plan->evaluate(inputs, aux.first(aux.size() - 1), a, b, c, pool).code(),
            status_code::size_mismatch);
  EXPECT_EQ(plan->evaluate(inputs, aux, a, shorter, c, pool).code(), status_code::size_mismatch);
  EXPECT_EQ(plan->evaluate_rows(2, inputs, aux, shorter, shorter, shorter, pool).code(),
            status_code::size_mismatch);
  EXPECT_EQ(plan->evaluate_rows(n + 1, inputs, aux, {}, {}, {}, pool).code(),
            status_code::size_mismatch);
  inputs[0] = fr_t::from_uint(2);
  EXPECT_EQ(plan->evaluate(inputs, aux, a, b, c, pool).code(), status_code::size_mismatch);
}

}  // namespace
}  // namespace cuzk::r1cs
