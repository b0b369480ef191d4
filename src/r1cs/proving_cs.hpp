// SPDX-License-Identifier: Apache-2.0
// r1cs::proving_cs: synthesis for proving (bellperson's ProvingAssignment, docs/spec/groth16.md §5
// steps 1-2). Records per constraint a_i = <A_i,w>, b_i = <B_i,w>, c_i = <C_i,w>, the input and aux
// assignments, and the density trackers a_aux, b_input, b_aux: a variable is marked when its
// merged coefficient in an A (resp. B) LC is nonzero. finalize() appends bellperson's
// x_j · 0 = 0 row for every input j (ONE included), which makes inputs dense in A implicitly.
// Per constraint: no heap allocation (three reused LCs, a reused merge scratch).
// Parallel synthesis: open_blocks() appends several identically shaped, independent blocks (the
// challenges of a PoRep partition) that threads fill at once through block_cs, each into its own
// window of the arrays, numbered exactly as a sequential synthesis numbers them.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/bitmap.hpp"
#include "base/default_init_allocator.hpp"
#include "base/huge_pages.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "ff/fr_accumulate.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class proving_cs {
 public:
  /// The arrays a partition fills: resize() does not zero (default_init_allocator).
  using fr_vector = std::vector<ff::fr_t, default_init_allocator<ff::fr_t>>;

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
    assert(blocks_.count == 0 && "enforce on the parent while blocks are open");
    const row_values v = rows_(
        std::forward<FA>(fa), std::forward<FB>(fb), std::forward<FC>(fc),
        [this](variable x) -> const ff::fr_t& { return ref(x); },
        [&](variable x) {
          if (!x.is_input()) a_aux_density_.set(x.index());
        },
        [&](variable x) {
          x.is_input() ? b_input_density_.set(x.index()) : b_aux_density_.set(x.index());
        });
    a_.push_back(v.a);
    b_.push_back(v.b);
    c_.push_back(v.c);
  }

  /// What one block adds.
  struct block_shape {
    size_t constraints = 0, aux = 0, inputs = 0;
    friend bool operator==(const block_shape&, const block_shape&) = default;
    block_shape operator-(const block_shape& o) const {
      return {constraints - o.constraints, aux - o.aux, inputs - o.inputs};
    }
  };
  class block_cs;

  /// Appends `count` blocks of `shape` after what is synthesized so far: block i's first row, aux
  /// variable and input are those a sequential synthesis would give it (num_constraints() +
  /// i·shape.constraints, and so on). Fill each block through block(i), one thread per block, all
  /// at once; a block may read the variables allocated before open_blocks() and its own, never
  /// another block's. Then close_blocks(). Nothing else is called on this CS in between.
  void open_blocks(size_t count, const block_shape& shape) {
    assert(!finalized_ && blocks_.count == 0);
    blocks_ = {count, shape, a_.size(), aux_.size(), inputs_.size()};
    block_filled_.assign(count, filled_t{});
    const size_t rows = a_.size() + count * shape.constraints;
    for (auto* v : {&a_, &b_, &c_}) v->resize(rows);
    aux_.resize(aux_.size() + count * shape.aux);
    inputs_.resize(inputs_.size() + count * shape.inputs);
    a_aux_density_.resize_clear(aux_.size());
    b_aux_density_.resize_clear(aux_.size());
    b_input_density_.resize_clear(inputs_.size());
  }
  inline block_cs block(size_t i);
  /// Ends the blocks. An internal error when a block did not fill exactly its shape (the blocks
  /// were not alike after all): a bug to report, never a silently wrong witness.
  status close_blocks() {
    status st;
    for (size_t i = 0; i < block_filled_.size() && st.ok(); ++i) {
      const filled_t& f = block_filled_[i];
      if (f.overflow || !(f.shape == blocks_.shape)) {
        st = status(status_code::internal,
                    "parallel synthesis: block " + std::to_string(i) + " filled " +
                        std::to_string(f.shape.constraints) + " constraints, " +
                        std::to_string(f.shape.aux) + " aux, " + std::to_string(f.shape.inputs) +
                        " inputs" + (f.overflow ? " and overflowed" : "") + "; its shape is " +
                        std::to_string(blocks_.shape.constraints) + ", " +
                        std::to_string(blocks_.shape.aux) + ", " +
                        std::to_string(blocks_.shape.inputs));
      }
    }
    for (bitmap* d : {&a_aux_density_, &b_input_density_, &b_aux_density_}) d->recount();
    blocks_ = {};
    block_filled_.clear();
    return st;
  }

  void push_namespace(const char*) {}
  void pop_namespace() {}

  ff::fr_t value(variable v) const { return ref(v); }

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
  const ff::fr_t& ref(variable v) const {
    return v.is_input() ? inputs_[v.index()] : aux_[v.index()];
  }

  // <lc, w>: coefficient 1 (the common case) costs an add, -1 a subtraction, 0 nothing, anything
  // else a product. Linear, so duplicates need no merging for the value. Short LCs use one
  // Montgomery multiplication per product; longer ones (Poseidon's state LCs, 10-70 terms) sum
  // the 512-bit products and reduce once (ff::fr_accumulator_t), about half the cost per term.
  template <class ValueOf>
  static ff::fr_t eval(const linear_combination& lc, const ValueOf& value_of) {
    const ff::fr_t one = ff::fr_t::one();
    const ff::fr_t minus_one = -one;
    ff::fr_t acc = ff::fr_t::zero();
    if (lc.size() <= LAZY_EVAL_MIN_TERMS) {
      for (const lc_term& t : lc) {
        const ff::fr_t& x = value_of(t.var);
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
      const ff::fr_t& x = value_of(t.var);
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
  // form up to zero coefficients (which mark_density() skips). O(n); Poseidon's template LCs
  // qualify.
  static bool strictly_increasing(std::span<const lc_term> t) {
    for (size_t i = 1; i < t.size(); ++i)
      if (!(t[i - 1].var < t[i].var)) return false;
    return true;
  }

  // Calls mark(v) for every variable whose merged coefficient in lc is nonzero. Short LCs
  // without repeated variables (the hot case) and long ones already sorted by variable mark
  // straight from their terms; others are merged in `scratch` first.
  template <class Mark>
  static void mark_density(const linear_combination& lc, std::vector<lc_term>& scratch,
                           const Mark& mark) {
    if (lc.size() <= 8 ? !has_duplicate_variables(lc.terms()) : strictly_increasing(lc.terms())) {
      // Keep the scratch as warm as if this LC had been merged, so that the no-allocation
      // guarantee after warm-up does not depend on which path the warm-up LCs took.
      if (scratch.capacity() < lc.size()) scratch.reserve(lc.size());
      for (const lc_term& t : lc)
        if (!t.coeff.is_zero()) mark(t.var);
    } else {
      merge_terms(lc.terms(), scratch);
      for (const lc_term& t : scratch)
        if (!t.coeff.is_zero()) mark(t.var);
    }
  }

  struct row_values {
    ff::fr_t a, b, c;
  };
  // One constraint: its three LCs built, the density marks of A and B made (mark_a, mark_b get
  // each variable with a nonzero merged coefficient) and the three values computed, in storage
  // reused across constraints (no heap allocation once warm). proving_cs and block_cs differ only
  // in where the values and marks go.
  struct row_evaluator {
    linear_combination a, b, c;
    std::vector<lc_term> scratch;

    template <class FA, class FB, class FC, class ValueOf, class MarkA, class MarkB>
    row_values operator()(FA&& fa, FB&& fb, FC&& fc, const ValueOf& value_of, const MarkA& mark_a,
                          const MarkB& mark_b) {
      a.clear();
      b.clear();
      c.clear();
      build_lc(std::forward<FA>(fa), a);
      build_lc(std::forward<FB>(fb), b);
      build_lc(std::forward<FC>(fc), c);
      mark_density(a, scratch, mark_a);
      mark_density(b, scratch, mark_b);
      return {eval(a, value_of), eval(b, value_of), eval(c, value_of)};
    }
  };

  /// LCs longer than this are evaluated with one reduction (below it the fixed ~24-multiply
  /// reduction is not repaid: most short LCs have only coefficients ±1).
  static constexpr size_t LAZY_EVAL_MIN_TERMS = 4;

  struct open_blocks_t {
    size_t count = 0;
    block_shape shape;
    size_t row0 = 0, aux0 = 0, input0 = 0;  ///< where block 0 starts
  };
  struct filled_t {
    block_shape shape;  ///< what the block allocated and enforced
    bool overflow = false;
  };

  fr_vector a_, b_, c_;
  fr_vector inputs_, aux_;
  bitmap a_aux_density_, b_input_density_, b_aux_density_;
  row_evaluator rows_;
  size_t num_constraints_ = 0;
  bool finalized_ = false;
  open_blocks_t blocks_;
  std::vector<filled_t> block_filled_;
};

/// One block of a parallel synthesis (proving_cs::open_blocks): a constraint system writing into
/// its window of the parent's arrays. Density bits go in with atomic ORs (neighbouring windows
/// share bitmap words, and every block marks the shared variables). What it filled is reported
/// to the parent when it is destroyed. Past its shape it writes nothing (a new variable is ONE)
/// and reports an overflow.
class proving_cs::block_cs {
 public:
  static constexpr bool has_values = true;
  static constexpr bool records_constraints = true;
  static constexpr bool is_witness_generator = false;

  block_cs(proving_cs& parent, size_t i)
      : cs_(parent),
        index_(i),
        row0_(parent.blocks_.row0 + i * parent.blocks_.shape.constraints),
        aux0_(parent.blocks_.aux0 + i * parent.blocks_.shape.aux),
        input0_(parent.blocks_.input0 + i * parent.blocks_.shape.inputs),
        max_(parent.blocks_.shape) {
    assert(i < parent.blocks_.count);
  }
  block_cs(const block_cs&) = delete;
  block_cs& operator=(const block_cs&) = delete;
  ~block_cs() { cs_.block_filled_[index_] = {used_, overflow_}; }

  template <class ValueFn>
  variable alloc(ValueFn&& value) {
    if (used_.aux == max_.aux) return overflow();
    const size_t idx = aux0_ + used_.aux++;
    cs_.aux_[idx] = std::forward<ValueFn>(value)();
    return variable::aux(uint32_t(idx));
  }
  template <class ValueFn>
  variable alloc_input(ValueFn&& value) {
    if (used_.inputs == max_.inputs) return overflow();
    const size_t idx = input0_ + used_.inputs++;
    cs_.inputs_[idx] = std::forward<ValueFn>(value)();
    return variable::input(uint32_t(idx));
  }

  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    if (used_.constraints == max_.constraints) {
      overflow();
      return;
    }
    const row_values v = rows_(
        std::forward<FA>(fa), std::forward<FB>(fb), std::forward<FC>(fc),
        [this](variable x) -> const ff::fr_t& { return cs_.ref(x); },
        [&](variable x) {
          if (!x.is_input()) cs_.a_aux_density_.set_concurrent(x.index());
        },
        [&](variable x) {
          x.is_input() ? cs_.b_input_density_.set_concurrent(x.index())
                       : cs_.b_aux_density_.set_concurrent(x.index());
        });
    const size_t row = row0_ + used_.constraints++;
    cs_.a_[row] = v.a;
    cs_.b_[row] = v.b;
    cs_.c_[row] = v.c;
  }

  void push_namespace(const char*) {}
  void pop_namespace() {}

  ff::fr_t value(variable v) const { return cs_.ref(v); }

 private:
  // ONE always exists, so what an overflowing block goes on to read stays in bounds.
  variable overflow() {
    overflow_ = true;
    return variable::one();
  }

  proving_cs& cs_;
  size_t index_, row0_, aux0_, input0_;
  block_shape max_, used_;
  bool overflow_ = false;
  row_evaluator rows_;
};

inline proving_cs::block_cs proving_cs::block(size_t i) {
  return block_cs(*this, i);
}

static_assert(valued_constraint_system<proving_cs>);
static_assert(valued_constraint_system<proving_cs::block_cs>);

}  // namespace cuzk::r1cs
