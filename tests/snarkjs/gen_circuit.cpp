// SPDX-License-Identifier: Apache-2.0
// Writes the snarkjs round-trip test circuit as iden3 files with cuzk's writers:
//   gen_circuit OUT_DIR [ITERATIONS]  →  OUT_DIR/circuit.r1cs, OUT_DIR/witness.wtns
// Wires: 0 ONE, 1 out (public output), 2 a, 3 b (public inputs), 4 s (private input), then
// internals. Constraints: a·b = ab; (s + a + ab)·1 = x0; per iteration x·x = sq, sq·x = cu,
// (cu + x + 5 + b)·1 = x' (the x^3 + x + 5 chain); finally x·1 = out. a = 3, b = 11, s = 7.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "r1cs/iden3_io.hpp"

namespace {

using cuzk::ff::fr_t;
using term = std::pair<uint32_t, fr_t>;

void append(cuzk::r1cs::sparse_matrix& m, const std::vector<term>& lc) {
  for (const auto& [col, coeff] : lc) {
    m.columns.push_back(col);
    m.coeffs.push_back(coeff);
  }
  m.row_offsets.push_back(m.columns.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: gen_circuit OUT_DIR [ITERATIONS]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const unsigned iterations = argc == 3 ? unsigned(std::strtoul(argv[2], nullptr, 10)) : 60;
  const fr_t one = fr_t::one(), five = fr_t::from_uint(5);
  const fr_t a = fr_t::from_uint(3), b = fr_t::from_uint(11), s = fr_t::from_uint(7);

  std::vector<fr_t> w = {one, fr_t::zero() /* out, set at the end */, a, b, s};
  cuzk::r1cs::matrices m;
  m.num_inputs = 4;
  auto alloc = [&](const fr_t& v) {
    w.push_back(v);
    return uint32_t(w.size() - 1);
  };
  auto row = [&](std::vector<term> x, std::vector<term> y, std::vector<term> z) {
    append(m.a, x);
    append(m.b, y);
    append(m.c, z);
  };
  const uint32_t ab = alloc(a * b);
  row({{2, one}}, {{3, one}}, {{ab, one}});
  uint32_t x = alloc(s + a + a * b);
  row({{4, one}, {2, one}, {ab, one}}, {{0, one}}, {{x, one}});
  for (unsigned i = 0; i < iterations; ++i) {
    const uint32_t sq = alloc(w[x] * w[x]);
    row({{x, one}}, {{x, one}}, {{sq, one}});
    const uint32_t cu = alloc(w[sq] * w[x]);
    row({{sq, one}}, {{x, one}}, {{cu, one}});
    const uint32_t next = alloc(w[cu] + w[x] + five + b);
    row({{0, five}, {3, one}, {x, one}, {cu, one}}, {{0, one}}, {{next, one}});
    x = next;
  }
  w[1] = w[x];
  row({{x, one}}, {{0, one}}, {{1, one}});
  m.num_aux = w.size() - m.num_inputs;

  cuzk::r1cs::r1cs_write_options opt;
  opt.num_pub_out = 1;
  opt.num_prv_in = 1;
  if (auto st = cuzk::r1cs::write_r1cs(dir + "/circuit.r1cs", m, opt); !st) {
    std::fprintf(stderr, "gen_circuit: %s\n", st.to_string().c_str());
    return 2;
  }
  if (auto st = cuzk::r1cs::write_wtns(dir + "/witness.wtns", w); !st) {
    std::fprintf(stderr, "gen_circuit: %s\n", st.to_string().c_str());
    return 2;
  }
  std::printf("gen_circuit: %zu constraints, %zu wires\n", m.num_constraints(), w.size());
  return 0;
}
