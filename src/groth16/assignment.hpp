// SPDX-License-Identifier: Apache-2.0
// groth16::assignment: the plain-data contract between synthesis and proving (bellperson's
// ProvingAssignment, supraseal's Assignment). Spans only: the owner (a synthesizer, a recorded
// file, a test) keeps the memory alive. Provers consume nothing else, so they can be tested from
// recorded assignments without synthesis, and synthesis can be tested without a prover.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "base/bitmap.hpp"
#include "cuzk/status.hpp"
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

/// The circuit shape an assignment implies for domain size m (its counts and density popcounts);
/// query_sizes_for(shape_of(asg, m)) are the query sizes its proving key must have.
inline parameters_shape shape_of(const assignment& asg, uint64_t m) {
  return {asg.num_inputs(),
          asg.num_aux(),
          m,
          asg.a_aux_density.popcount(),
          asg.b_input_density.popcount(),
          asg.b_aux_density.popcount()};
}

/// The size contract between a proving key and an assignment, for domain size m: the key's sizes
/// are query_sizes_for(shape_of(asg, m)) (keys.hpp), and a/b/c and the densities agree with each
/// other. size_mismatch names the first disagreement.
inline status check_query_sizes(const query_sizes& q, const assignment& asg, size_t m) {
  const size_t n_in = asg.num_inputs(), n_aux = asg.num_aux();
  auto bad = [](std::string what) { return status(status_code::size_mismatch, std::move(what)); };
  if (asg.b.size() != asg.num_rows() || asg.c.size() != asg.num_rows())
    return bad("a, b, c have different lengths");
  if (n_in == 0) return bad("no ONE input");
  if (asg.a_aux_density.count != n_aux || asg.b_aux_density.count != n_aux)
    return bad("aux density length differs from num_aux");
  if (asg.b_input_density.count != n_in) return bad("b_input density length differs");
  const query_sizes want = query_sizes_for(shape_of(asg, m));
  const std::pair<const char*, size_t query_sizes::*> queries[] = {
      {"ic", &query_sizes::ic}, {"h", &query_sizes::h},       {"l", &query_sizes::l},
      {"a", &query_sizes::a},   {"b_g1", &query_sizes::b_g1}, {"b_g2", &query_sizes::b_g2}};
  for (const auto& [name, field] : queries)
    if (q.*field != want.*field)
      return bad(std::string(name) + " query has " + std::to_string(q.*field) +
                 " points, the assignment needs " + std::to_string(want.*field));
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
