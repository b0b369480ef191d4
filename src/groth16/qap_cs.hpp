// SPDX-License-Identifier: Apache-2.0
// groth16::qap_cs: a constraint system that evaluates the circuit's QAP at τ while the blank
// circuit is synthesized — evaluate_qap (setup.hpp) without the matrices, for circuits whose CSR
// matrices would not fit in memory (a 32 GiB PoRep partition: 130 M rows, ≈ 30 GB of matrices
// against 12.5 GB of sums here). Row i's merged LC terms (merge_terms, the rule every CS shares)
// add coeff·L_i(τ) to A_j(τ), B_j(τ), C_j(τ) of their variables and mark the densities exactly as
// r1cs::compute_densities does; take() adds the input rows x_j·0 = 0. The domain must be known
// before synthesis (lagrange_at_tau of m = next power of two ≥ constraints + inputs, from the
// circuit's exact counts); take() fails when the circuit did not fit it exactly.
#pragma once

#include <utility>
#include <vector>

#include "base/bitmap.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "groth16/setup.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/variable.hpp"

namespace cuzk::groth16 {

class qap_cs {
 public:
  static constexpr bool has_values = false;
  static constexpr bool records_constraints = true;
  static constexpr bool is_witness_generator = false;

  /// lagrange[i] = L_i(τ) over the size-m domain (lagrange_at_tau).
  explicit qap_cs(std::vector<ff::fr_t> lagrange) : lagrange_(std::move(lagrange)) {
    alloc_input([] { return ff::fr_t::one(); });
  }

  /// Capacity hints (exact counts avoid reallocation of the 4 GB vectors of a 32 GiB circuit).
  void reserve(size_t num_inputs, size_t num_aux) {
    for (auto* v : {&in_[0], &in_[1], &in_[2]}) v->reserve(num_inputs);
    for (auto* v : {&aux_[0], &aux_[1], &aux_[2]}) v->reserve(num_aux);
    b_input_.reserve(num_inputs);
    a_aux_.reserve(num_aux);
    b_aux_.reserve(num_aux);
  }

  template <class ValueFn>
  r1cs::variable alloc(ValueFn&&) {
    for (auto& v : aux_) v.push_back(ff::fr_t::zero());
    a_aux_.push_back_clear();
    b_aux_.push_back_clear();
    return r1cs::variable::aux(uint32_t(aux_[0].size() - 1));
  }
  template <class ValueFn>
  r1cs::variable alloc_input(ValueFn&&) {
    for (auto& v : in_) v.push_back(ff::fr_t::zero());
    b_input_.push_back_clear();
    return r1cs::variable::input(uint32_t(in_[0].size() - 1));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    // A row past the domain adds nothing here; take() reports the overflow.
    const ff::fr_t li = rows_ < lagrange_.size() ? lagrange_[rows_] : ff::fr_t::zero();
    ++rows_;
    lc_.clear();
    r1cs::build_lc(std::forward<FA>(fa), lc_);
    add_row(0, li, nullptr, &a_aux_);
    lc_.clear();
    r1cs::build_lc(std::forward<FB>(fb), lc_);
    add_row(1, li, &b_input_, &b_aux_);
    lc_.clear();
    r1cs::build_lc(std::forward<FC>(fc), lc_);
    add_row(2, li, nullptr, nullptr);
  }
  void push_namespace(const char*) {}
  void pop_namespace() {}

  size_t num_constraints() const { return rows_; }
  size_t num_inputs() const { return in_[0].size(); }
  size_t num_aux() const { return aux_[0].size(); }

  /// The evaluation in evaluate_qap's form (variables inputs first, input rows added), consuming
  /// this CS. size_mismatch when constraints + inputs do not make the domain the prover will use
  /// (the next power of two ≥ rows must be exactly lagrange.size()).
  result<qap_at_tau> take(const ff::fr_t& tau) && {
    const size_t m = lagrange_.size(), n_in = num_inputs(), rows = rows_ + n_in;
    size_t want = 1;
    while (want < rows) want <<= 1;
    if (want != m) {
      return status(status_code::size_mismatch, "the circuit has " + std::to_string(rows) +
                                                    " rows (domain " + std::to_string(want) +
                                                    "), the Lagrange basis was made for " +
                                                    std::to_string(m));
    }
    qap_at_tau q;
    q.domain_size = m;
    std::vector<ff::fr_t>* out[3] = {&q.at, &q.bt, &q.ct};
    for (int k = 0; k < 3; ++k) {
      out[k]->reserve(n_in + aux_[k].size());
      out[k]->assign(in_[k].begin(), in_[k].end());
      out[k]->insert(out[k]->end(), aux_[k].begin(), aux_[k].end());
      aux_[k] = {};
    }
    // The input rows: row constraints + j is x_j·0 = 0, so A_j gains L_{constraints+j}.
    for (size_t j = 0; j < n_in; ++j) q.at[j] += lagrange_[rows_ + j];
    lagrange_ = {};  // 32 B × m (4 GB at 2^27): not kept through the multiplications
    q.density = {std::move(a_aux_), std::move(b_input_), std::move(b_aux_)};
    q.t_tau = tau.pow(uint64_t(m)) - ff::fr_t::one();
    return q;
  }

 private:
  /// Matrix k ∈ {A, B, C} of the current row: the merged terms' coeff·L_i and their densities.
  void add_row(int k, const ff::fr_t& li, bitmap* input_density, bitmap* aux_density) {
    r1cs::merge_terms(lc_.terms(), scratch_);
    for (const r1cs::lc_term& t : scratch_) {
      const uint32_t j = t.var.index();
      if (t.var.is_input()) {
        in_[k][j] += t.coeff * li;
        if (input_density) input_density->set(j);
      } else {
        aux_[k][j] += t.coeff * li;
        if (aux_density) aux_density->set(j);
      }
    }
  }

  std::vector<ff::fr_t> lagrange_;
  std::vector<ff::fr_t> in_[3], aux_[3];  ///< A, B, C sums of inputs and of aux
  bitmap b_input_, a_aux_, b_aux_;
  size_t rows_ = 0;
  r1cs::linear_combination lc_;
  std::vector<r1cs::lc_term> scratch_;
};

static_assert(r1cs::constraint_system<qap_cs>);

}  // namespace cuzk::groth16
