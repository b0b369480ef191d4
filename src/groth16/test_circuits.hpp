// SPDX-License-Identifier: Apache-2.0
// Random satisfiable R1CS circuits with a witness, for the Groth16 tests and benchmarks. The aux
// values are mostly bits (Boolean constraints, AND, XOR gates: ~90 % 0/1 like Filecoin's SHA-heavy
// circuits); about 10 % are products of arbitrary affine terms. Every aux variable occurs in a row
// of its own (so no l point is infinity), and every public input occurs in B.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "groth16/assignment.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::groth16::testing {

using ff::fr_t;
using term_t = std::pair<uint32_t, fr_t>;

struct circuit_instance {
  r1cs::matrices cs;
  std::vector<fr_t> inputs;  ///< inputs[0] = ONE
  std::vector<fr_t> aux;
};

/// Appends one row to a CSR matrix, merging repeated columns (so the matrix is "merged").
inline void append_row(r1cs::sparse_matrix& m, std::vector<term_t> lc) {
  std::sort(lc.begin(), lc.end(),
            [](const term_t& x, const term_t& y) { return x.first < y.first; });
  for (size_t i = 0; i < lc.size(); ++i) {
    if (!m.columns.empty() && m.columns.size() > m.row_offsets.back() &&
        m.columns.back() == lc[i].first) {
      m.coeffs.back() += lc[i].second;
    } else {
      m.columns.push_back(lc[i].first);
      m.coeffs.push_back(lc[i].second);
    }
  }
  m.row_offsets.push_back(m.columns.size());
}

/// A circuit with exactly `num_constraints` rows (≥ num_public + 2) and `num_public` public
/// inputs besides ONE, satisfied by the returned assignment.
template <class Rng>
circuit_instance random_circuit(size_t num_constraints, size_t num_public, Rng& rng) {
  circuit_instance ci;
  ci.cs.num_inputs = 1 + num_public;
  std::vector<fr_t> w;  // all variables, inputs first; aux appended as allocated
  w.push_back(fr_t::one());
  for (size_t j = 0; j < num_public; ++j) w.push_back(fr_t::random(rng));
  const uint32_t n_in = uint32_t(w.size());
  std::vector<uint32_t> bits;  // aux columns holding 0/1
  auto alloc = [&](const fr_t& v) {
    w.push_back(v);
    return uint32_t(w.size() - 1);
  };
  auto row = [&](std::vector<term_t> a, std::vector<term_t> b, std::vector<term_t> c) {
    append_row(ci.cs.a, std::move(a));
    append_row(ci.cs.b, std::move(b));
    append_row(ci.cs.c, std::move(c));
  };
  const fr_t one = fr_t::one(), two = one + one;
  // 1·x_j = v: every input in B, each with an aux copy.
  for (uint32_t j = 1; j < n_in; ++j) {
    const uint32_t v = alloc(w[j]);
    row({{0, one}}, {{j, one}}, {{v, one}});
  }
  // Seed bits b·(1 − b) = 0.
  const size_t seeds = std::min<size_t>(8, num_constraints - num_public);
  for (size_t i = 0; i < seeds; ++i) {
    const uint32_t b = alloc(fr_t::from_uint(rng() & 1));
    bits.push_back(b);
    row({{b, one}}, {{0, one}, {b, -one}}, {});
  }
  for (size_t i = num_public + seeds; i < num_constraints; ++i) {
    const unsigned kind = unsigned(rng() % 20);
    const uint32_t x = bits[rng() % bits.size()], y = bits[rng() % bits.size()];
    if (kind < 9) {  // AND: x·y = v
      const uint32_t v = alloc(w[x] * w[y]);
      bits.push_back(v);
      row({{x, one}}, {{y, one}}, {{v, one}});
    } else if (kind < 18) {  // XOR: 2x·y = x + y − v
      const uint32_t v = alloc(w[x] + w[y] - two * w[x] * w[y]);
      bits.push_back(v);
      row({{x, two}}, {{y, one}}, {{x, one}, {y, one}, {v, -one}});
    } else {  // (u + c)·(t + k) = v with u, t any variables
      const uint32_t u = uint32_t(rng() % w.size()), t = uint32_t(rng() % w.size());
      const fr_t c = fr_t::random(rng), k = fr_t::random(rng);
      const uint32_t v = alloc((w[u] + c) * (w[t] + k));
      row({{u, one}, {0, c}}, {{t, one}, {0, k}}, {{v, one}});
    }
  }
  ci.cs.num_aux = w.size() - n_in;
  ci.inputs.assign(w.begin(), w.begin() + n_in);
  ci.aux.assign(w.begin() + n_in, w.end());
  return ci;
}

/// bellman's example x³ + x + 5 = 35 with x = 3. Columns: 0 ONE, 1 out (public, 35), 2 x (3),
/// 3 sym1 = x·x (9), 4 y = sym1·x (27), 5 sym2 = y + x (30). Rows:
///   x·x = sym1;  sym1·x = y;  (y + x)·1 = sym2;  (sym2 + 5)·1 = out.
inline circuit_instance cubic_circuit() {
  circuit_instance ci;
  ci.cs.num_inputs = 2;
  ci.cs.num_aux = 4;
  const fr_t one = fr_t::one();
  auto row = [&](std::vector<term_t> a, std::vector<term_t> b, std::vector<term_t> c) {
    append_row(ci.cs.a, std::move(a));
    append_row(ci.cs.b, std::move(b));
    append_row(ci.cs.c, std::move(c));
  };
  row({{2, one}}, {{2, one}}, {{3, one}});
  row({{3, one}}, {{2, one}}, {{4, one}});
  row({{4, one}, {2, one}}, {{0, one}}, {{5, one}});
  row({{5, one}, {0, fr_t::from_uint(5)}}, {{0, one}}, {{1, one}});
  ci.inputs = {one, fr_t::from_uint(35)};
  ci.aux = {fr_t::from_uint(3), fr_t::from_uint(9), fr_t::from_uint(27), fr_t::from_uint(30)};
  return ci;
}

/// The r1cs assignment data plus the witness it refers to; view() is the prover's input.
struct owned_assignment {
  r1cs::assignment_data data;
  std::vector<fr_t> inputs, aux;

  assignment view() const { return groth16::make_assignment(data, inputs, aux); }
};

inline result<owned_assignment> make_assignment(const r1cs::matrices& cs, std::vector<fr_t> inputs,
                                                std::vector<fr_t> aux, thread_pool& pool) {
  auto d = r1cs::build_assignment_data(cs, inputs, aux, pool);
  if (!d) return d.error();
  return owned_assignment{std::move(*d), std::move(inputs), std::move(aux)};
}

}  // namespace cuzk::groth16::testing
