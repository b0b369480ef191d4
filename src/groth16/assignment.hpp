// SPDX-License-Identifier: Apache-2.0
// groth16::assignment: the plain-data contract between synthesis and proving (bellperson's
// ProvingAssignment, supraseal's Assignment). Spans only: the owner (a synthesizer, a recorded
// file, a test) keeps the memory alive. Provers consume nothing else, so they can be tested from
// recorded assignments without synthesis, and synthesis can be tested without a prover.
#pragma once

#include <cstddef>
#include <span>

#include "base/bitmap.hpp"
#include "ff/fields.hpp"

namespace cuzk::groth16 {

struct assignment {
  /// Per R1CS row i (constraints, then one x_j·0 = 0 row per input): a_i = <A_i, w>, b_i, c_i.
  /// All three have num_rows() entries.
  std::span<const ff::fr_t> a, b, c;
  /// Input assignment; inputs[0] is ONE.
  std::span<const ff::fr_t> inputs;
  /// Aux (private witness) assignment, in allocation order.
  std::span<const ff::fr_t> aux;
  /// Aux variables with a nonzero coefficient in some A row (inputs are always dense in A).
  bitmap_view a_aux_density;
  /// Inputs / aux variables with a nonzero coefficient in some B row.
  bitmap_view b_input_density;
  bitmap_view b_aux_density;

  size_t num_rows() const { return a.size(); }
  size_t num_inputs() const { return inputs.size(); }
  size_t num_aux() const { return aux.size(); }
};

}  // namespace cuzk::groth16
