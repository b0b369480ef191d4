// SPDX-License-Identifier: Apache-2.0
// r1cs::witness_cs: witness generation only (the Rust cuzk-pce WitnessCS). alloc/alloc_input call
// their value closures; enforce() never calls its LC closures, so no LC is ever built. Pair it with
// a compiled r1cs::abc_plan (or recorded r1cs::matrices and build_assignment_data()) to get a, b, c
// and densities.
// Parallel synthesis: like proving_cs, open_blocks() appends identically shaped, independent
// blocks that threads fill at once through block_cs, each into its own window of the assignment,
// numbered exactly as a sequential synthesis numbers them.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/huge_pages.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::r1cs {

class witness_cs {
 public:
  static constexpr bool has_values = true;
  static constexpr bool records_constraints = false;
  static constexpr bool is_witness_generator = true;

  /// The assignment vectors: resize() does not zero (the blocks' windows are filled by threads).
  using fr_vector = proving_cs::fr_vector;
  using block_shape = proving_cs::block_shape;

  witness_cs() { inputs_.push_back(ff::fr_t::one()); }

  void reserve(size_t num_constraints, size_t num_aux, size_t num_inputs) {
    (void)num_constraints;
    reserve_huge(aux_, num_aux);
    inputs_.reserve(num_inputs);
  }

  /// Host bytes held by the assignment (its capacity): what a recycled buffer costs the budget.
  size_t capacity_bytes() const {
    return (aux_.capacity() + inputs_.capacity()) * sizeof(ff::fr_t);
  }
  /// The aux vector's whole storage (its capacity, not its size): it stays at one address while
  /// the buffer is reset and refilled within its capacity (the engine page-locks it for the GPU).
  std::span<const std::byte> aux_storage() const {
    return std::as_bytes(std::span<const ff::fr_t>(aux_.data(), aux_.capacity()));
  }
  /// What reserve(·, num_aux, num_inputs) allocates, in bytes (to charge a budget first).
  static size_t reserve_bytes(size_t num_aux, size_t num_inputs) {
    return (num_aux + num_inputs) * sizeof(ff::fr_t);
  }

  /// Back to the freshly constructed state (only ONE allocated) with the storage kept, so a
  /// recycled witness buffer is not zeroed by the kernel again.
  void reset() {
    inputs_.clear();
    aux_.clear();
    num_constraints_ = 0;
    inputs_.push_back(ff::fr_t::one());
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
    assert(blocks_.count == 0 && "enforce on the parent while blocks are open");
    ++num_constraints_;
  }

  class block_cs;
  /// Appends `count` blocks of `shape` (proving_cs::open_blocks's contract): fill block(i) on one
  /// thread per block, all at once, then close_blocks().
  void open_blocks(size_t count, const block_shape& shape) {
    assert(blocks_.count == 0);
    blocks_ = {count, shape, aux_.size(), inputs_.size()};
    block_filled_.assign(count, filled_t{});
    num_constraints_ += count * shape.constraints;
    aux_.resize(aux_.size() + count * shape.aux);
    inputs_.resize(inputs_.size() + count * shape.inputs);
  }
  inline block_cs block(size_t i);
  /// Ends the blocks: an internal error when a block did not fill exactly its shape (a bug,
  /// never a silently wrong witness).
  status close_blocks() {
    status st;
    for (size_t i = 0; i < block_filled_.size() && st.ok(); ++i) {
      const filled_t& f = block_filled_[i];
      if (f.overflow || !(f.shape == blocks_.shape)) {
        st = status(status_code::internal,
                    "parallel witness synthesis: block " + std::to_string(i) + " filled " +
                        std::to_string(f.shape.constraints) + " constraints, " +
                        std::to_string(f.shape.aux) + " aux, " + std::to_string(f.shape.inputs) +
                        " inputs" + (f.overflow ? " and overflowed" : "") + "; its shape is " +
                        std::to_string(blocks_.shape.constraints) + ", " +
                        std::to_string(blocks_.shape.aux) + ", " +
                        std::to_string(blocks_.shape.inputs));
      }
    }
    blocks_ = {};
    block_filled_.clear();
    return st;
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
  fr_vector take_inputs() { return std::move(inputs_); }
  fr_vector take_aux() { return std::move(aux_); }

 private:
  struct open_blocks_t {
    size_t count = 0;
    block_shape shape;
    size_t aux0 = 0, input0 = 0;  ///< where block 0 starts
  };
  struct filled_t {
    block_shape shape;  ///< what the block allocated and enforced
    bool overflow = false;
  };

  fr_vector inputs_, aux_;
  size_t num_constraints_ = 0;
  open_blocks_t blocks_;
  std::vector<filled_t> block_filled_;
};

/// One block of a parallel witness synthesis (witness_cs::open_blocks): writes its values into
/// its window of the parent's assignment and reports what it filled when destroyed. Past its
/// shape it writes nothing (a new variable is ONE) and reports an overflow.
class witness_cs::block_cs {
 public:
  static constexpr bool has_values = true;
  static constexpr bool records_constraints = false;
  static constexpr bool is_witness_generator = true;

  block_cs(witness_cs& parent, size_t i)
      : cs_(parent),
        index_(i),
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
  void enforce(FA&&, FB&&, FC&&) {
    if (used_.constraints == max_.constraints) {
      overflow();
      return;
    }
    ++used_.constraints;
  }
  void push_namespace(const char*) {}
  void pop_namespace() {}

  ff::fr_t value(variable v) const { return cs_.value(v); }

 private:
  // ONE always exists, so what an overflowing block goes on to read stays in bounds.
  variable overflow() {
    overflow_ = true;
    return variable::one();
  }

  witness_cs& cs_;
  size_t index_, aux0_, input0_;
  block_shape max_, used_;
  bool overflow_ = false;
};

inline witness_cs::block_cs witness_cs::block(size_t i) {
  return block_cs(*this, i);
}

static_assert(valued_constraint_system<witness_cs>);
static_assert(valued_constraint_system<witness_cs::block_cs>);

}  // namespace cuzk::r1cs
