// SPDX-License-Identifier: Apache-2.0
// r1cs::witness_cs: witness generation only (the Rust cuzk-pce WitnessCS). alloc/alloc_input call
// their value closures; enforce() never calls its LC closures, so no LC is ever built. Pair it with
// a recorded r1cs::matrices (matrix_cs) and build_assignment_data() to get a, b, c and densities.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "ff/fields.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class witness_cs {
 public:
  static constexpr bool has_values = true;
  static constexpr bool records_constraints = false;
  static constexpr bool is_witness_generator = true;

  witness_cs() { inputs_.push_back(ff::fr_t::one()); }

  void reserve(size_t num_constraints, size_t num_aux, size_t num_inputs) {
    (void)num_constraints;
    aux_.reserve(num_aux);
    inputs_.reserve(num_inputs);
  }

  template <class ValueFn>
  variable alloc(ValueFn&& value) {
    aux_.push_back(std::forward<ValueFn>(value)());
    return variable::aux(uint32_t(aux_.size() - 1));
  }
  template <class ValueFn>
  variable alloc_input(ValueFn&& value) {
    inputs_.push_back(std::forward<ValueFn>(value)());
    return variable::input(uint32_t(inputs_.size() - 1));
  }
  /// Counts the constraint; the closures are not called.
  template <class FA, class FB, class FC>
  void enforce(FA&&, FB&&, FC&&) {
    ++num_constraints_;
  }
  void push_namespace(const char*) {}
  void pop_namespace() {}

  ff::fr_t value(variable v) const { return v.is_input() ? inputs_[v.index()] : aux_[v.index()]; }

  size_t num_constraints() const { return num_constraints_; }
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_aux() const { return aux_.size(); }
  std::span<const ff::fr_t> inputs() const { return inputs_; }
  std::span<const ff::fr_t> aux() const { return aux_; }
  /// Hands the assignment vectors over (no copy of a multi-GiB aux vector).
  std::vector<ff::fr_t> take_inputs() { return std::move(inputs_); }
  std::vector<ff::fr_t> take_aux() { return std::move(aux_); }

 private:
  std::vector<ff::fr_t> inputs_, aux_;
  size_t num_constraints_ = 0;
};

static_assert(valued_constraint_system<witness_cs>);

}  // namespace cuzk::r1cs
