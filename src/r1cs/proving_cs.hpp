// SPDX-License-Identifier: Apache-2.0
// r1cs::proving_cs: synthesis for proving (bellperson's ProvingAssignment, FILECOIN.md §5.5 steps
// 1-2). Records per constraint a_i = <A_i,w>, b_i = <B_i,w>, c_i = <C_i,w>, the input and aux
// assignments, and the density trackers a_aux, b_input, b_aux: a variable is marked when its
// merged coefficient in an A (resp. B) LC is nonzero. finalize() appends bellperson's
// x_j · 0 = 0 row for every input j (ONE included), which makes inputs dense in A implicitly.
// Per constraint: no heap allocation (three reused LCs, a reused merge scratch).
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "base/bitmap.hpp"
#include "base/huge_pages.hpp"
#include "ff/fields.hpp"
#include "ff/fr_accumulate.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class proving_cs {
 public:
  static constexpr bool has_values = true;
  static constexpr bool records_constraints = true;
  static constexpr bool is_witness_generator = false;

  /// Starts with input 0 = ONE, as bellperson allocates it before synthesize().
  proving_cs() {
    alloc_input([] { return ff::fr_t::one(); });
  }

  /// Capacity hints so a large synthesis allocates each array once: `num_constraints` circuit
  /// constraints, `num_aux` aux variables, `num_inputs` inputs including ONE.
  void reserve(size_t num_constraints, size_t num_aux, size_t num_inputs) {
    const size_t rows = num_constraints + num_inputs;
    reserve_huge(a_, rows);
    reserve_huge(b_, rows);
    reserve_huge(c_, rows);
    reserve_huge(aux_, num_aux);
    inputs_.reserve(num_inputs);
    a_aux_density_.reserve(num_aux);
    b_aux_density_.reserve(num_aux);
    b_input_density_.reserve(num_inputs);
  }

  /// Back to the freshly constructed state (only ONE allocated) with every array's storage kept:
  /// the engine recycles one proving_cs per in-flight partition, so the kernel zeroes its pages
  /// once, not once per partition.
  void reset() {
    for (auto* v : {&a_, &b_, &c_, &inputs_, &aux_}) v->clear();
    for (auto* d : {&a_aux_density_, &b_input_density_, &b_aux_density_}) d->clear();
    num_constraints_ = 0;
    finalized_ = false;
    alloc_input([] { return ff::fr_t::one(); });
  }

  /// Host bytes held by the arrays (their capacity): what a recycled buffer costs the budget.
  size_t capacity_bytes() const {
    size_t n = 0;
    for (const auto* v : {&a_, &b_, &c_, &inputs_, &aux_}) n += v->capacity() * sizeof(ff::fr_t);
    for (const auto* d : {&a_aux_density_, &b_input_density_, &b_aux_density_})
      n += d->capacity_bytes();
    return n;
  }

  /// What reserve(num_constraints, num_aux, num_inputs) allocates, in bytes (to charge a budget
  /// before allocating).
  static size_t reserve_bytes(size_t num_constraints, size_t num_aux, size_t num_inputs) {
    const size_t rows = num_constraints + num_inputs;
    const auto words = [](size_t bits) { return (bits + 63) / 64 * sizeof(uint64_t); };
    return (3 * rows + num_aux + num_inputs) * sizeof(ff::fr_t) + 2 * words(num_aux) +
           words(num_inputs);
  }

  template <class ValueFn>
  variable alloc(ValueFn&& value) {
    aux_.push_back(std::forward<ValueFn>(value)());
    a_aux_density_.push_back_clear();
    b_aux_density_.push_back_clear();
    return variable::aux(uint32_t(aux_.size() - 1));
  }
  template <class ValueFn>
  variable alloc_input(ValueFn&& value) {
    inputs_.push_back(std::forward<ValueFn>(value)());
    b_input_density_.push_back_clear();
    return variable::input(uint32_t(inputs_.size() - 1));
  }

  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    assert(!finalized_ && "enforce after finalize");
    lc_a_.clear();
    lc_b_.clear();
    lc_c_.clear();
    build_lc(std::forward<FA>(fa), lc_a_);
    build_lc(std::forward<FB>(fb), lc_b_);
    build_lc(std::forward<FC>(fc), lc_c_);
    a_.push_back(eval_tracked(lc_a_, nullptr, &a_aux_density_));
    b_.push_back(eval_tracked(lc_b_, &b_input_density_, &b_aux_density_));
    c_.push_back(eval(lc_c_));
  }

  void push_namespace(const char*) {}
  void pop_namespace() {}

  ff::fr_t value(variable v) const { return v.is_input() ? inputs_[v.index()] : aux_[v.index()]; }

  /// Appends one row per input j: a = x_j, b = 0, c = 0 (bellperson enforces x_j · 0 = 0 with an
  /// A term of coefficient 1 and no density tracking for inputs in A). Call once, after synthesis.
  void finalize() {
    assert(!finalized_);
    num_constraints_ = a_.size();
    for (const ff::fr_t& x : inputs_) {
      a_.push_back(x);
      b_.push_back(ff::fr_t::zero());
      c_.push_back(ff::fr_t::zero());
    }
    finalized_ = true;
  }
  bool finalized() const { return finalized_; }

  /// Circuit constraints (without the input rows).
  size_t num_constraints() const { return finalized_ ? num_constraints_ : a_.size(); }
  /// Rows recorded so far (after finalize: constraints + inputs).
  size_t num_rows() const { return a_.size(); }
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_aux() const { return aux_.size(); }

  std::span<const ff::fr_t> a() const { return a_; }
  std::span<const ff::fr_t> b() const { return b_; }
  std::span<const ff::fr_t> c() const { return c_; }
  std::span<const ff::fr_t> inputs() const { return inputs_; }
  std::span<const ff::fr_t> aux() const { return aux_; }
  const bitmap& a_aux_density() const { return a_aux_density_; }
  const bitmap& b_input_density() const { return b_input_density_; }
  const bitmap& b_aux_density() const { return b_aux_density_; }

 private:
  // <lc, w>: coefficient 1 (the common case) costs an add, -1 a subtraction, 0 nothing, anything
  // else a product. Linear, so duplicates need no merging for the value. Short LCs use one
  // Montgomery multiplication per product; longer ones (Poseidon's state LCs, 10-70 terms) sum
  // the 512-bit products and reduce once (ff::fr_accumulator_t), about half the cost per term.
  ff::fr_t eval(const linear_combination& lc) const {
    const ff::fr_t one = ff::fr_t::one();
    const ff::fr_t minus_one = -one;
    ff::fr_t acc = ff::fr_t::zero();
    if (lc.size() <= LAZY_EVAL_MIN_TERMS) {
      for (const lc_term& t : lc) {
        const ff::fr_t& x = value(t.var);
        if (t.coeff == one) {
          acc += x;
        } else if (t.coeff == minus_one) {
          acc -= x;
        } else if (!t.coeff.is_zero()) {
          acc += x * t.coeff;
        }
      }
      return acc;
    }
    ff::fr_accumulator_t wide;
    for (const lc_term& t : lc) {
      const ff::fr_t& x = value(t.var);
      if (t.coeff == one) {
        wide.add(x);
      } else if (t.coeff == minus_one) {
        acc -= x;
      } else {
        wide.mac(x, t.coeff);  // a zero coefficient adds zero
      }
    }
    return wide.reduce() + acc;
  }

  // True when the variables strictly increase: no repeats, so the terms are their own merged
  // form up to zero coefficients (which mark() skips). O(n); Poseidon's template LCs qualify.
  static bool strictly_increasing(std::span<const lc_term> t) {
    for (size_t i = 1; i < t.size(); ++i)
      if (!(t[i - 1].var < t[i].var)) return false;
    return true;
  }

  // eval() plus density marking by merged coefficient. Short LCs without repeated variables (the
  // hot case) and long ones already sorted by variable mark straight from their terms; others are
  // merged in the reused scratch first.
  ff::fr_t eval_tracked(const linear_combination& lc, bitmap* input_density, bitmap* aux_density) {
    auto mark = [&](const lc_term& t) {
      if (t.coeff.is_zero()) return;
      if (t.var.is_input()) {
        if (input_density) input_density->set(t.var.index());
      } else {
        aux_density->set(t.var.index());
      }
    };
    if (lc.size() <= 8 ? !has_duplicate_variables(lc.terms()) : strictly_increasing(lc.terms())) {
      // Keep the scratch as warm as if this LC had been merged, so that the no-allocation
      // guarantee after warm-up does not depend on which path the warm-up LCs took.
      if (scratch_.capacity() < lc.size()) scratch_.reserve(lc.size());
      for (const lc_term& t : lc) mark(t);
    } else {
      merge_terms(lc.terms(), scratch_);
      for (const lc_term& t : scratch_) mark(t);
    }
    return eval(lc);
  }

  /// LCs longer than this are evaluated with one reduction (below it the fixed ~24-multiply
  /// reduction is not repaid: most short LCs have only coefficients ±1).
  static constexpr size_t LAZY_EVAL_MIN_TERMS = 4;

  std::vector<ff::fr_t> a_, b_, c_;
  std::vector<ff::fr_t> inputs_, aux_;
  bitmap a_aux_density_, b_input_density_, b_aux_density_;
  linear_combination lc_a_, lc_b_, lc_c_;
  std::vector<lc_term> scratch_;
  size_t num_constraints_ = 0;
  bool finalized_ = false;
};

static_assert(valued_constraint_system<proving_cs>);

}  // namespace cuzk::r1cs
