// SPDX-License-Identifier: Apache-2.0
// The device a, b, c evaluator against a plain CPU evaluation of the same program: random programs
// (a prologue of absolute columns, blocks repeated over their own aux windows with shared absolute
// columns too, the input rows, rows with no term and rows with hundreds; ±1, 2 and random
// coefficients, all evaluated on random and on edge witnesses: all zero, all −1), a block count
// large enough for several thousand thread blocks, and every malformed program refused by upload
// with a message (no evaluation ever reads outside the witness). Label gpu.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu/device_memory.cuh"
#include "groth16/abc_gpu.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16::gpu {
namespace {

using cuzk::gpu::device_buffer;
using ff::fr_t;

struct owned_rows {
  std::vector<uint32_t> offsets{0}, columns, coeff;
  abc_rows_view view() const { return {offsets, columns, coeff}; }
};
struct owned_template {
  uint32_t rows = 0;
  owned_rows a, b, c;
  abc_template_view view() const { return {rows, a.view(), b.view(), c.view()}; }
};
struct owned_program {
  std::vector<fr_t> coefficients;
  std::vector<owned_template> templates;
  std::vector<abc_template_view> views;
  std::vector<abc_segment> segments;
  uint64_t num_rows = 0, num_inputs = 0, num_aux = 0;
  abc_program_view view() {
    views.clear();
    for (const auto& t : templates) views.push_back(t.view());
    return {coefficients, views, segments, num_rows, num_inputs, num_aux};
  }
};

/// A template of `rows` rows; a term reads its block's window (relative, < window) with
/// probability 3/4 when window > 0, else an absolute column below `absolute_limit`.
owned_template random_template(uint32_t rows, uint32_t window, uint64_t absolute_limit,
                               size_t num_coeffs, test::test_rng& rng) {
  owned_template t;
  t.rows = rows;
  for (owned_rows* m : {&t.a, &t.b, &t.c}) {
    for (uint32_t r = 0; r < rows; ++r) {
      const uint32_t kind = uint32_t(rng.below(10));
      const uint32_t terms = kind == 0   ? 0
                             : kind == 1 ? 200 + uint32_t(rng.below(200))
                                         : 1 + uint32_t(rng.below(6));
      for (uint32_t e = 0; e < terms; ++e) {
        if (window > 0 && rng.below(4) != 0)
          m->columns.push_back(abc_relative_column | uint32_t(rng.below(window)));
        else
          m->columns.push_back(uint32_t(rng.below(absolute_limit)));
        m->coeff.push_back(uint32_t(rng.below(num_coeffs)));
      }
      m->offsets.push_back(uint32_t(m->columns.size()));
    }
  }
  return t;
}

/// A prologue of absolute rows over the whole witness, `blocks` repetitions of a block template
/// (window `window` aux each, after `prologue_aux` aux of the prologue), then the input rows
/// (a = x_j, b = c = 0) as bellperson appends them.
owned_program random_program(uint32_t prologue_rows, uint32_t block_rows, uint64_t blocks,
                             uint32_t window, uint64_t num_inputs, uint64_t prologue_aux,
                             test::test_rng& rng) {
  owned_program p;
  p.coefficients = {fr_t::one(), -fr_t::one(), fr_t::one() + fr_t::one(), fr_t::random(rng),
                    fr_t::random(rng)};
  p.num_inputs = num_inputs;
  p.num_aux = prologue_aux + blocks * window;
  const uint64_t vars = p.num_inputs + p.num_aux;
  p.templates.push_back(random_template(prologue_rows, 0, vars, p.coefficients.size(), rng));
  // Blocks share the inputs and the prologue's aux: absolute columns below num_inputs + prologue.
  p.templates.push_back(
      random_template(block_rows, window, num_inputs + prologue_aux, p.coefficients.size(), rng));
  owned_template in;
  in.rows = uint32_t(num_inputs);
  for (uint32_t j = 0; j < num_inputs; ++j) {
    in.a.columns.push_back(j);
    in.a.coeff.push_back(0);
    in.a.offsets.push_back(j + 1);
    in.b.offsets.push_back(0);
    in.c.offsets.push_back(0);
  }
  p.templates.push_back(in);
  p.segments = {{0, 0, 1, 0, 0},
                {prologue_rows + blocks * block_rows, 2, 1, 0, 0},  // listed out of order
                {prologue_rows, 1, blocks, prologue_aux, window}};
  p.num_rows = prologue_rows + blocks * block_rows + num_inputs;
  return p;
}

/// The CPU oracle: the program's definition, term by term.
void evaluate_cpu(const owned_program& p, const std::vector<fr_t>& in, const std::vector<fr_t>& aux,
                  std::vector<fr_t>& a, std::vector<fr_t>& b, std::vector<fr_t>& c) {
  a.assign(p.num_rows, fr_t::zero());
  b = a;
  c = a;
  for (const abc_segment& s : p.segments) {
    const owned_template& t = p.templates[s.template_index];
    for (uint64_t k = 0; k < s.repeat; ++k) {
      for (uint32_t r = 0; r < t.rows; ++r) {
        const uint64_t row = s.first_row + k * t.rows + r;
        for (const auto& [m, out] : {std::pair{&t.a, &a}, {&t.b, &b}, {&t.c, &c}}) {
          fr_t acc = fr_t::zero();
          for (uint32_t e = m->offsets[r]; e < m->offsets[r + 1]; ++e) {
            const uint32_t code = m->columns[e];
            const uint32_t col = code & ~abc_relative_column;
            const fr_t v = (code & abc_relative_column) ? aux[s.aux_base + k * s.aux_stride + col]
                           : col < p.num_inputs         ? in[col]
                                                        : aux[col - p.num_inputs];
            acc = acc + p.coefficients[m->coeff[e]] * v;
          }
          (*out)[row] = acc;
        }
      }
    }
  }
}

result<cuzk::gpu::device_context>& opened() {
  static result<cuzk::gpu::device_context> ctx = cuzk::gpu::device_context::open(0);
  return ctx;
}
/// Device 0's context; every test asserts opened().ok() before the first use.
cuzk::gpu::device_context& context() {
  return *opened();
}

void expect_device_equals_cpu(owned_program& p, const std::vector<fr_t>& in,
                              const std::vector<fr_t>& aux, const std::string& what) {
  auto prog = device_abc_program::upload(p.view(), context());
  ASSERT_TRUE(prog.ok()) << what << ": " << prog.error().to_string();
  const cuzk::gpu::device_scope scope(context());
  const cuzk::gpu::stream strm(context());
  device_buffer<fr_t> d_in(in.size()), d_aux(aux.size()), da(p.num_rows), db(p.num_rows),
      dc(p.num_rows);
  d_in.upload(in.data(), in.size(), strm);
  d_aux.upload(aux.data(), aux.size(), strm);
  (*prog)->evaluate(d_in.data(), d_aux.data(), da.data(), db.data(), dc.data(), strm);
  std::vector<fr_t> ga(p.num_rows), gb(p.num_rows), gc(p.num_rows), ca, cb, cc;
  da.download(ga.data(), ga.size(), strm);
  db.download(gb.data(), gb.size(), strm);
  dc.download(gc.data(), gc.size(), strm);
  evaluate_cpu(p, in, aux, ca, cb, cc);
  for (uint64_t i = 0; i < p.num_rows; ++i) {
    ASSERT_EQ(ga[i], ca[i]) << what << ": a row " << i;
    ASSERT_EQ(gb[i], cb[i]) << what << ": b row " << i;
    ASSERT_EQ(gc[i], cc[i]) << what << ": c row " << i;
  }
}

TEST(abc_gpu, random_programs_equal_the_cpu_evaluation) {
  ASSERT_TRUE(opened().ok()) << opened().error().to_string();
  auto rng = test::test_rng::from_env("abc_gpu.random_programs_equal_the_cpu_evaluation");
  struct shape {
    uint32_t prologue_rows, block_rows;
    uint64_t blocks;
    uint32_t window;
    uint64_t inputs, prologue_aux;
  };
  for (const shape& s : {shape{1, 1, 1, 1, 1, 0}, shape{7, 13, 5, 9, 3, 4},
                         shape{100, 300, 40, 250, 12, 50}, shape{3, 1000, 3000, 700, 5, 2}}) {
    owned_program p = random_program(s.prologue_rows, s.block_rows, s.blocks, s.window, s.inputs,
                                     s.prologue_aux, rng);
    const std::string what = "rows " + std::to_string(p.num_rows);
    std::vector<fr_t> in(p.num_inputs), aux(p.num_aux);
    for (auto& x : in) x = fr_t::random(rng);
    for (auto& x : aux) x = fr_t::random(rng);
    in[0] = fr_t::one();
    expect_device_equals_cpu(p, in, aux, what + " random witness");
    if (p.num_rows > 100000) continue;  // the edge witnesses on the small shapes
    std::fill(in.begin(), in.end(), fr_t::zero());
    std::fill(aux.begin(), aux.end(), fr_t::zero());
    expect_device_equals_cpu(p, in, aux, what + " zero witness");
    std::fill(in.begin(), in.end(), -fr_t::one());
    std::fill(aux.begin(), aux.end(), -fr_t::one());
    expect_device_equals_cpu(p, in, aux, what + " all -1 witness");
  }
}

TEST(abc_gpu, malformed_programs_are_refused) {
  ASSERT_TRUE(opened().ok()) << opened().error().to_string();
  auto rng = test::test_rng::from_env("abc_gpu.malformed_programs_are_refused");
  const auto refused = [](owned_program p, const std::string& needle) {
    auto prog = device_abc_program::upload(p.view(), context());
    ASSERT_FALSE(prog.ok()) << needle;
    EXPECT_EQ(prog.error().code(), status_code::invalid_argument);
    EXPECT_NE(prog.error().message().find(needle), std::string::npos) << prog.error().to_string();
  };
  const owned_program good = random_program(4, 6, 3, 5, 2, 3, rng);
  {
    owned_program p = good;
    p.templates[1].b.coeff.back() = uint32_t(p.coefficients.size());
    refused(p, "coefficient index");
  }
  {
    owned_program p = good;
    p.templates[0].a.columns.push_back(uint32_t(p.num_inputs + p.num_aux));
    p.templates[0].a.coeff.push_back(0);
    ++p.templates[0].a.offsets.back();
    refused(p, "outside the witness");
  }
  {
    owned_program p = good;
    p.segments[2].aux_stride += 1;  // the last block's window runs past the aux
    refused(p, "past the aux witness");
  }
  {
    owned_program p = good;
    p.segments[1].first_row += 1;  // a gap before the input rows
    refused(p, "covered twice or not at all");
  }
  {
    owned_program p = good;
    p.num_rows += 1;
    refused(p, "the segments cover");
  }
  {
    owned_program p = good;
    p.templates[2].a.offsets.pop_back();
    refused(p, "row_offsets size");
  }
  {
    owned_program p = good;
    p.templates[1].c.offsets[1] = p.templates[1].c.offsets.back() + 1;  // above offsets[2]
    refused(p, "decrease");
  }
  {
    owned_program p = good;
    p.segments[0].template_index = 7;
    refused(p, "no such template");
  }
}

}  // namespace
}  // namespace cuzk::groth16::gpu
