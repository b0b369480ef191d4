// SPDX-License-Identifier: Apache-2.0
// Groth16 key and proof types in bellperson's structure (docs/spec/groth16.md §2–§4). In memory
// points are affine in Montgomery form; the byte layouts live in params_io.hpp / proof.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ec/point.hpp"

namespace cuzk::groth16 {

using ec::g1_affine_t;
using ec::g2_affine_t;

struct verifying_key {
  g1_affine_t alpha_g1;
  g1_affine_t beta_g1;
  g2_affine_t beta_g2;
  g2_affine_t gamma_g2;
  g1_affine_t delta_g1;
  g2_affine_t delta_g2;
  /// (β·A_j(τ) + α·B_j(τ) + C_j(τ))/γ for each input j (ONE first): num_inputs entries.
  std::vector<g1_affine_t> ic;
};

/// Point counts of a proving key's queries (host or device resident).
struct query_sizes {
  size_t ic, h, l, a, b_g1, b_g2;
  bool operator==(const query_sizes&) const = default;
};

/// What a circuit expects of its parameters (from its R1CS and densities).
struct parameters_shape {
  uint64_t num_inputs = 0;  ///< including ONE
  uint64_t num_aux = 0;
  uint64_t domain_size = 0;    ///< m, the FFT domain (power of two >= R1CS rows)
  uint64_t a_aux_density = 0;  ///< aux variables with a nonzero A column
  uint64_t b_input_density = 0;
  uint64_t b_aux_density = 0;
};

/// The query-size contract (docs/spec/groth16.md §3), the one place it is written: ic = inputs,
/// h = m − 1, l = aux, a = inputs + |a_aux|, b_g1 = b_g2 = |b_input| + |b_aux|. (h is 0 for m = 0,
/// a shape no domain has; callers that accept a shape from outside reject it first.)
constexpr query_sizes query_sizes_for(const parameters_shape& s) {
  const size_t b = size_t(s.b_input_density + s.b_aux_density);
  return {size_t(s.num_inputs),
          s.domain_size == 0 ? 0 : size_t(s.domain_size - 1),
          size_t(s.num_aux),
          size_t(s.num_inputs + s.a_aux_density),
          b,
          b};
}

/// The proving key ("parameters") in bellperson's order. a, b_g1, b_g2 are density-filtered:
/// inputs first (a: all inputs; b: inputs with nonzero B), then aux with nonzero A (resp. B).
/// Host or device bytes of decoded query points of these sizes (affine, as the provers hold them).
inline uint64_t query_bytes(const query_sizes& q) {
  return uint64_t(q.ic + q.h + q.l + q.a + q.b_g1) * sizeof(g1_affine_t) +
         uint64_t(q.b_g2) * sizeof(g2_affine_t);
}

struct parameters {
  query_sizes sizes() const {
    return {vk.ic.size(), h.size(), l.size(), a.size(), b_g1.size(), b_g2.size()};
  }
  verifying_key vk;
  std::vector<g1_affine_t> h;     ///< τ^i·t(τ)/δ, i = 0..m-2 (m = domain size)
  std::vector<g1_affine_t> l;     ///< (β·A_j + α·B_j + C_j)(τ)/δ per aux variable
  std::vector<g1_affine_t> a;     ///< A_j(τ)
  std::vector<g1_affine_t> b_g1;  ///< B_j(τ) in G1
  std::vector<g2_affine_t> b_g2;  ///< B_j(τ) in G2
};

struct proof {
  g1_affine_t a;
  g2_affine_t b;
  g1_affine_t c;
};

}  // namespace cuzk::groth16
