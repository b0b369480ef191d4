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
#include "r1cs/assignment_data.hpp"
#include "r1cs/proving_cs.hpp"

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

/// View of evaluated rows + densities from matrices (r1cs::build_assignment_data) and the witness
/// they were evaluated on. Everything must outlive the view.
inline assignment make_assignment(const r1cs::assignment_data& data,
                                  std::span<const ff::fr_t> inputs, std::span<const ff::fr_t> aux) {
  return {data.a,
          data.b,
          data.c,
          inputs,
          aux,
          data.density.a_aux.view(),
          data.density.b_input.view(),
          data.density.b_aux.view()};
}

/// View of a finalized proving constraint system (synthesis output).
inline assignment make_assignment(const r1cs::proving_cs& cs) {
  return {cs.a(),
          cs.b(),
          cs.c(),
          cs.inputs(),
          cs.aux(),
          cs.a_aux_density().view(),
          cs.b_input_density().view(),
          cs.b_aux_density().view()};
}

}  // namespace cuzk::groth16
