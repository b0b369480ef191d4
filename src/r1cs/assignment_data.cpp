// SPDX-License-Identifier: Apache-2.0
// Row evaluation of recorded matrices (sparse matrix-vector products over Fr) and the density
// rule of proving_cs, applied to CSR rows.
#include "r1cs/assignment_data.hpp"

#include <string>

#include "r1cs/linear_combination.hpp"

namespace cuzk::r1cs {
namespace {

// <row r of sm, w> with w = inputs ‖ aux (the column space of matrices).
ff::fr_t eval_row(const sparse_matrix& sm, size_t r, std::span<const ff::fr_t> inputs,
                  std::span<const ff::fr_t> aux) {
  const ff::fr_t one = ff::fr_t::one();
  const size_t n_in = inputs.size();
  ff::fr_t acc = ff::fr_t::zero();
  for (uint64_t k = sm.row_offsets[r]; k < sm.row_offsets[r + 1]; ++k) {
    const size_t col = sm.columns[k];
    const ff::fr_t& x = col < n_in ? inputs[col] : aux[col - n_in];
    const ff::fr_t& coeff = sm.coeffs[k];
    if (coeff == one) {
      acc += x;
    } else if (!coeff.is_zero()) {
      acc += x * coeff;
    }
  }
  return acc;
}

// Marks row r's variables whose merged coefficient is nonzero. Rows from matrix_cs are already
// merged (strictly increasing columns, no zeros), which is checked first and costs one pass.
void mark_row(const sparse_matrix& sm, size_t r, size_t n_in, bitmap* input_density,
              bitmap* aux_density, std::vector<lc_term>& terms, std::vector<lc_term>& scratch) {
  const uint64_t begin = sm.row_offsets[r], end = sm.row_offsets[r + 1];
  auto mark = [&](size_t col) {
    if (col < n_in) {
      if (input_density) input_density->set(col);
    } else {
      aux_density->set(col - n_in);
    }
  };
  bool merged = true;
  for (uint64_t k = begin; k < end && merged; ++k) {
    merged = !sm.coeffs[k].is_zero() && (k == begin || sm.columns[k - 1] < sm.columns[k]);
  }
  if (merged) {
    for (uint64_t k = begin; k < end; ++k) mark(sm.columns[k]);
    return;
  }
  // Columns are mapped to variables only to reuse merge_terms' ordering; any injective map works.
  terms.clear();
  for (uint64_t k = begin; k < end; ++k) {
    terms.push_back({sm.coeffs[k], variable::input(sm.columns[k])});
  }
  merge_terms(terms, scratch);
  for (const lc_term& t : scratch) mark(t.var.index());
}

status check_matrix(const sparse_matrix& sm, size_t rows, size_t num_vars, const char* name) {
  auto fail = [&](const std::string& what) {
    return status(status_code::bad_encoding, std::string("matrix ") + name + ": " + what);
  };
  if (sm.row_offsets.size() != rows + 1) return fail("row count differs from matrix A");
  if (sm.row_offsets[0] != 0) return fail("row_offsets[0] != 0");
  for (size_t r = 0; r < rows; ++r) {
    if (sm.row_offsets[r + 1] < sm.row_offsets[r]) return fail("row offsets decrease");
  }
  if (sm.row_offsets[rows] != sm.columns.size()) return fail("last row offset != nnz");
  if (sm.coeffs.size() != sm.columns.size()) return fail("columns/coeffs length mismatch");
  for (uint32_t col : sm.columns) {
    if (col >= num_vars) return fail("column " + std::to_string(col) + " out of range");
  }
  return {};
}

}  // namespace

status validate(const matrices& m) {
  if (m.num_inputs < 1) return {status_code::bad_encoding, "num_inputs must include ONE"};
  if (m.a.row_offsets.empty()) return {status_code::bad_encoding, "matrix A has no row offsets"};
  const size_t rows = m.a.num_rows();
  const size_t num_vars = m.num_variables();
  if (num_vars > size_t(variable::MAX_INDEX)) {
    return {status_code::bad_encoding, "too many variables"};
  }
  if (status s = check_matrix(m.a, rows, num_vars, "A"); !s) return s;
  if (status s = check_matrix(m.b, rows, num_vars, "B"); !s) return s;
  return check_matrix(m.c, rows, num_vars, "C");
}

density_bitmaps compute_densities(const matrices& m) {
  density_bitmaps d{bitmap(m.num_aux), bitmap(m.num_inputs), bitmap(m.num_aux)};
  std::vector<lc_term> terms, scratch;
  for (size_t r = 0; r < m.num_constraints(); ++r) {
    mark_row(m.a, r, m.num_inputs, nullptr, &d.a_aux, terms, scratch);
    mark_row(m.b, r, m.num_inputs, &d.b_input, &d.b_aux, terms, scratch);
  }
  return d;
}

std::optional<size_t> is_satisfied(const matrices& m, std::span<const ff::fr_t> inputs,
                                   std::span<const ff::fr_t> aux) {
  for (size_t r = 0; r < m.num_constraints(); ++r) {
    const ff::fr_t a = eval_row(m.a, r, inputs, aux);
    const ff::fr_t b = eval_row(m.b, r, inputs, aux);
    if (a * b != eval_row(m.c, r, inputs, aux)) return r;
  }
  return std::nullopt;
}

result<assignment_data> build_assignment_data(const matrices& m, std::span<const ff::fr_t> inputs,
                                              std::span<const ff::fr_t> aux, thread_pool& pool) {
  if (status s = validate(m); !s) return s;
  if (inputs.size() != m.num_inputs || aux.size() != m.num_aux) {
    return status(status_code::size_mismatch, "assignment has " + std::to_string(inputs.size()) +
                                                  " inputs / " + std::to_string(aux.size()) +
                                                  " aux, circuit " + std::to_string(m.num_inputs) +
                                                  " / " + std::to_string(m.num_aux));
  }
  if (!inputs[0].is_one()) return status(status_code::size_mismatch, "inputs[0] is not ONE");

  assignment_data out;
  const size_t n = m.num_constraints();
  const size_t rows = m.num_rows();
  out.a.resize(rows);
  out.b.resize(rows);
  out.c.resize(rows);
  pool.parallel_range(
      n,
      [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
          out.a[r] = eval_row(m.a, r, inputs, aux);
          out.b[r] = eval_row(m.b, r, inputs, aux);
          out.c[r] = eval_row(m.c, r, inputs, aux);
        }
      },
      /*min_chunk=*/4096);
  for (size_t j = 0; j < m.num_inputs; ++j) {
    out.a[n + j] = inputs[j];
    out.b[n + j] = ff::fr_t::zero();
    out.c[n + j] = ff::fr_t::zero();
  }
  out.density = compute_densities(m);
  return out;
}

}  // namespace cuzk::r1cs
