// SPDX-License-Identifier: Apache-2.0
// groth16::assignment: the plain-data contract between synthesis and proving (bellperson's
// ProvingAssignment, supraseal's Assignment). Spans only: the owner (a synthesizer, a recorded
// file, a test) keeps the memory alive. Provers consume nothing else, so they can be tested from
// recorded assignments without synthesis, and synthesis can be tested without a prover.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "base/bitmap.hpp"
#include "base/status.hpp"
#include "ff/fields.hpp"
#include "groth16/keys.hpp"
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

/// The size contract between a proving key and an assignment, for domain size m (FILECOIN.md §5.3):
/// ic = inputs, h = m − 1, l = aux, a = inputs + |a_aux|, b_g1 = b_g2 = |b_input| + |b_aux|; also
/// a/b/c and the densities agree with each other. size_mismatch names the first disagreement.
inline status check_query_sizes(const query_sizes& q, const assignment& asg, size_t m) {
  const size_t n_in = asg.num_inputs(), n_aux = asg.num_aux();
  auto bad = [](std::string what) { return status(status_code::size_mismatch, std::move(what)); };
  if (asg.b.size() != asg.num_rows() || asg.c.size() != asg.num_rows())
    return bad("a, b, c have different lengths");
  if (n_in == 0) return bad("no ONE input");
  if (asg.a_aux_density.count != n_aux || asg.b_aux_density.count != n_aux)
    return bad("aux density length differs from num_aux");
  if (asg.b_input_density.count != n_in) return bad("b_input density length differs");
  if (q.ic != n_in)
    return bad("ic has " + std::to_string(q.ic) + " points for " + std::to_string(n_in) +
               " inputs");
  if (q.h != m - 1)
    return bad("h query has " + std::to_string(q.h) + " points, expected " + std::to_string(m - 1));
  if (q.l != n_aux) return bad("l query length differs from num_aux");
  if (q.a != n_in + asg.a_aux_density.popcount()) return bad("a query length differs");
  const size_t nb = asg.b_input_density.popcount() + asg.b_aux_density.popcount();
  if (q.b_g1 != nb) return bad("b_g1 query length differs");
  if (q.b_g2 != nb) return bad("b_g2 query length differs");
  return {};
}

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
