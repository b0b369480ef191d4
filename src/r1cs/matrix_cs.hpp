// SPDX-License-Identifier: Apache-2.0
// r1cs::matrix_cs: records the circuit as r1cs::matrices (CSR), for the Groth16 setup, precompiled
// evaluation (witness_cs + build_assignment_data) and tests. Each LC is stored merged (one entry
// per variable, duplicates summed, zero sums dropped, sorted by column). While synthesising, the
// number of inputs is not yet known, so entries hold the variable word; take_matrices() maps it to
// the final column (input j -> j, aux k -> num_inputs + k). basic_matrix_cs<true> also keeps the
// values (calls the value closures), so one synthesis yields both the circuit and a witness.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "ff/fields.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

template <bool WithValues>
class basic_matrix_cs {
 public:
  static constexpr bool has_values = WithValues;
  static constexpr bool records_constraints = true;
  static constexpr bool is_witness_generator = false;

  basic_matrix_cs() {
    alloc_input([] { return ff::fr_t::one(); });
  }

  /// Capacity hints; nnz_per_row is the expected merged terms per row of each matrix.
  void reserve(size_t num_constraints, size_t num_aux, size_t num_inputs, size_t nnz_per_row = 2) {
    for (sparse_matrix* sm : {&m_.a, &m_.b, &m_.c}) {
      sm->row_offsets.reserve(num_constraints + 1);
      sm->columns.reserve(num_constraints * nnz_per_row);
      sm->coeffs.reserve(num_constraints * nnz_per_row);
    }
    if constexpr (WithValues) {
      aux_.reserve(num_aux);
      inputs_.reserve(num_inputs);
    }
  }

  template <class ValueFn>
  variable alloc(ValueFn&& value) {
    if constexpr (WithValues) aux_.push_back(std::forward<ValueFn>(value)());
    return variable::aux(uint32_t(m_.num_aux++));
  }
  template <class ValueFn>
  variable alloc_input(ValueFn&& value) {
    if constexpr (WithValues) inputs_.push_back(std::forward<ValueFn>(value)());
    return variable::input(uint32_t(num_inputs_++));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    assert(!taken_);
    lc_.clear();
    build_lc(std::forward<FA>(fa), lc_);
    append_row(m_.a);
    lc_.clear();
    build_lc(std::forward<FB>(fb), lc_);
    append_row(m_.b);
    lc_.clear();
    build_lc(std::forward<FC>(fc), lc_);
    append_row(m_.c);
  }
  void push_namespace(const char*) {}
  void pop_namespace() {}

  ff::fr_t value(variable v) const requires WithValues {
    return v.is_input() ? inputs_[v.index()] : aux_[v.index()];
  }
  std::span<const ff::fr_t> inputs() const requires WithValues { return inputs_; }
  std::span<const ff::fr_t> aux() const requires WithValues { return aux_; }

  size_t num_constraints() const { return m_.a.num_rows(); }
  size_t num_inputs() const { return num_inputs_; }
  size_t num_aux() const { return m_.num_aux; }

  /// The recorded matrices with final column numbers. Call once, after synthesis.
  matrices take_matrices() {
    assert(!taken_);
    taken_ = true;
    m_.num_inputs = num_inputs_;
    const uint32_t n_in = uint32_t(num_inputs_);
    for (sparse_matrix* sm : {&m_.a, &m_.b, &m_.c}) {
      for (uint32_t& col : sm->columns) {
        const variable v = variable::from_raw(col);
        col = v.is_input() ? v.index() : n_in + v.index();
      }
    }
    return std::move(m_);
  }

 private:
  void append_row(sparse_matrix& sm) {
    merge_terms(lc_.terms(), scratch_);
    for (const lc_term& t : scratch_) {
      sm.columns.push_back(t.var.raw());
      sm.coeffs.push_back(t.coeff);
    }
    sm.row_offsets.push_back(sm.columns.size());
  }

  matrices m_;
  size_t num_inputs_ = 0;
  std::vector<ff::fr_t> inputs_, aux_;  // only with WithValues
  linear_combination lc_;
  std::vector<lc_term> scratch_;
  bool taken_ = false;
};

using matrix_cs = basic_matrix_cs<false>;
/// Records the matrices and keeps the witness.
using matrix_witness_cs = basic_matrix_cs<true>;

static_assert(constraint_system<matrix_cs>);
static_assert(valued_constraint_system<matrix_witness_cs>);

}  // namespace cuzk::r1cs
