// SPDX-License-Identifier: Apache-2.0
// r1cs::shape_cs: the counting CS. Counts constraints, inputs and aux; counts nonzeros of A, B, C;
// tracks the a_aux / b_input / b_aux densities; and streams a BLAKE2s-256 fingerprint of the
// matrices, all without storing them or computing any value (value closures are never called),
// so a 130 M-row circuit is fingerprinted in O(aux) memory. shape_accumulator is the shared core:
// summarize(const matrices&) runs the same code over a recorded circuit, so both must agree.
// Definitions (docs/notes/r1cs.md): counts and the hash cover the circuit's own constraints, not
// the x_j·0 = 0 input rows; nnz counts (row, variable) pairs whose merged coefficient is nonzero.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/bitmap.hpp"
#include "base/hex.hpp"
#include "ff/fields.hpp"
#include "hash/blake2s.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

struct shape_summary {
  size_t num_constraints = 0;  ///< circuit constraints (without the input rows)
  size_t num_inputs = 0;       ///< including ONE
  size_t num_aux = 0;
  size_t nnz_a = 0, nnz_b = 0, nnz_c = 0;  ///< merged nonzero coefficients, circuit rows only
  size_t a_aux_density = 0;                ///< popcounts of the density bitmaps
  size_t b_input_density = 0;
  size_t b_aux_density = 0;
  std::array<uint8_t, 32> hash{};  ///< BLAKE2s-256 fingerprint, byte stream in docs/notes/r1cs.md

  std::string hash_hex() const { return to_hex(hash); }
  friend bool operator==(const shape_summary&, const shape_summary&) = default;
};

/// Streams rows into counts, densities and the fingerprint.
class shape_accumulator {
 public:
  shape_accumulator();

  void add_input() {
    ++num_inputs_;
    b_input_density_.push_back_clear();
  }
  void add_aux() {
    ++num_aux_;
    a_aux_density_.push_back_clear();
    b_aux_density_.push_back_clear();
  }
  /// One constraint; the terms may repeat variables and hold zero coefficients (merged here).
  /// Every variable must have been added already.
  void add_row(std::span<const lc_term> a, std::span<const lc_term> b, std::span<const lc_term> c);

  size_t num_constraints() const { return num_constraints_; }
  size_t num_inputs() const { return num_inputs_; }
  size_t num_aux() const { return num_aux_; }
  const bitmap& a_aux_density() const { return a_aux_density_; }
  const bitmap& b_input_density() const { return b_input_density_; }
  const bitmap& b_aux_density() const { return b_aux_density_; }
  /// The summary so far (the running hash state is copied, so rows may still be added).
  shape_summary summary() const;

 private:
  // Appends one merged LC to row_buf_; returns its number of terms.
  size_t encode_lc(std::span<const lc_term> terms, bitmap* input_density, bitmap* aux_density);

  size_t num_constraints_ = 0, num_inputs_ = 0, num_aux_ = 0;
  size_t nnz_a_ = 0, nnz_b_ = 0, nnz_c_ = 0;
  bitmap a_aux_density_, b_input_density_, b_aux_density_;
  cuzk::hash::blake2s rows_hash_{32};
  std::vector<lc_term> scratch_;
  std::vector<uint8_t> row_buf_;
};

class shape_cs {
 public:
  static constexpr bool has_values = false;
  static constexpr bool records_constraints = true;
  static constexpr bool is_witness_generator = false;

  shape_cs() { acc_.add_input(); }  // ONE

  /// The value closure is not called: a shape needs no values.
  template <class ValueFn>
  variable alloc(ValueFn&&) {
    acc_.add_aux();
    return variable::aux(uint32_t(acc_.num_aux() - 1));
  }
  template <class ValueFn>
  variable alloc_input(ValueFn&&) {
    acc_.add_input();
    return variable::input(uint32_t(acc_.num_inputs() - 1));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    lc_a_.clear();
    lc_b_.clear();
    lc_c_.clear();
    build_lc(std::forward<FA>(fa), lc_a_);
    build_lc(std::forward<FB>(fb), lc_b_);
    build_lc(std::forward<FC>(fc), lc_c_);
    acc_.add_row(lc_a_.terms(), lc_b_.terms(), lc_c_.terms());
  }
  void push_namespace(const char*) {}
  void pop_namespace() {}

  size_t num_constraints() const { return acc_.num_constraints(); }
  size_t num_inputs() const { return acc_.num_inputs(); }
  size_t num_aux() const { return acc_.num_aux(); }
  const shape_accumulator& accumulator() const { return acc_; }
  shape_summary summary() const { return acc_.summary(); }

 private:
  shape_accumulator acc_;
  linear_combination lc_a_, lc_b_, lc_c_;
};

static_assert(constraint_system<shape_cs>);

/// The shape of a recorded circuit, by the same rules as shape_cs (validate(m) first).
shape_summary summarize(const matrices& m);

}  // namespace cuzk::r1cs
