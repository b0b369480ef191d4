// SPDX-License-Identifier: Apache-2.0
// Test-only: synthetic assignments for the provers' 0/1 splits and parameters of the sizes they
// imply (prover_gpu_test: the device split against the CPU's; prover_test: the CPU prover's
// working set). The assignments satisfy no circuit: the provers compute the same group elements
// for any a, b, c and aux.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/fields.hpp"
#include "groth16/assignment.hpp"
#include "groth16/keys.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16::split_cases {

using ff::fr_t;

enum class aux_fill { zeros, ones, others, mixed };
enum class density_kind { empty, full, sparse, half };

struct split_case {
  std::vector<fr_t> a, b, c, inputs, aux;
  std::vector<uint64_t> a_words, b_in_words, b_words;
  size_t n_aux = 0;

  assignment view() const {
    return {a,
            b,
            c,
            inputs,
            aux,
            bitmap_view{a_words, n_aux},
            bitmap_view{b_in_words, inputs.size()},
            bitmap_view{b_words, n_aux}};
  }
};

inline std::vector<uint64_t> make_density(size_t n, density_kind k, bool garbage,
                                          test::test_rng& rng) {
  std::vector<uint64_t> w((n + 63) / 64, 0);
  for (size_t j = 0; j < n; ++j) {
    bool set = false;
    switch (k) {
      case density_kind::empty:
        break;
      case density_kind::full:
        set = true;
        break;
      case density_kind::sparse:
        set = rng() % 16 == 0;
        break;
      case density_kind::half:
        set = (rng() & 1) != 0;
        break;
    }
    if (set) w[j / 64] |= uint64_t(1) << (j % 64);
  }
  // Bits at or past n in the last word must be ignored (bitmap_view semantics).
  if (garbage && n % 64 != 0) w.back() |= ~((uint64_t(1) << (n % 64)) - 1);
  return w;
}

inline split_case make_split_case(size_t rows, size_t n_aux, aux_fill fill, density_kind ka,
                                  density_kind kb, bool garbage, test::test_rng& rng) {
  split_case sc;
  sc.n_aux = n_aux;
  for (size_t i = 0; i < rows; ++i) {
    sc.a.push_back(fr_t::random(rng));
    sc.b.push_back(fr_t::random(rng));
    sc.c.push_back(fr_t::random(rng));
  }
  sc.inputs = {fr_t::one(), fr_t::random(rng), fr_t::random(rng)};
  sc.b_in_words = {0b101};  // ONE and the second public input are in B
  for (size_t j = 0; j < n_aux; ++j) {
    unsigned kind = 0;  // 0: zero, 1: one, 2: other
    switch (fill) {
      case aux_fill::zeros:
        kind = 0;
        break;
      case aux_fill::ones:
        kind = 1;
        break;
      case aux_fill::others:
        kind = 2;
        break;
      case aux_fill::mixed:
        kind = unsigned(rng() % 3);
        break;
    }
    sc.aux.push_back(kind == 0 ? fr_t::zero() : kind == 1 ? fr_t::one() : fr_t::random(rng));
  }
  sc.a_words = make_density(n_aux, ka, garbage, rng);
  sc.b_words = make_density(n_aux, kb, garbage, rng);
  return sc;
}

/// Distinct random points k·G (64-bit k): a query slice of at most pool size has distinct points.
template <class Affine>
std::vector<Affine> point_pool(const Affine& g, size_t n, test::test_rng& rng) {
  std::vector<Affine> v;
  v.reserve(n);
  for (size_t i = 0; i < n; ++i) v.push_back(ec::mul(g, ff::limbs<1>{rng() | 1}).to_affine());
  return v;
}

template <class Affine>
std::vector<Affine> take(const std::vector<Affine>& pool_pts, size_t n, size_t offset) {
  std::vector<Affine> v;
  v.reserve(n);
  for (size_t i = 0; i < n; ++i) v.push_back(pool_pts[(offset + i) % pool_pts.size()]);
  return v;
}

/// Parameters of the sizes asg's densities imply over a domain of m, their points taken from the
/// pools at offsets that vary with `t` (the proofs only need the CPU and GPU to agree).
inline parameters parameters_for(const assignment& asg, size_t m,
                                 const std::vector<ec::g1_affine_t>& g1,
                                 const std::vector<ec::g2_affine_t>& g2, size_t t) {
  parameters params;
  params.vk.alpha_g1 = g1[0];
  params.vk.beta_g1 = g1[1];
  params.vk.delta_g1 = g1[2];
  params.vk.beta_g2 = g2[0];
  params.vk.gamma_g2 = g2[1];
  params.vk.delta_g2 = g2[2];
  params.vk.ic = take(g1, asg.num_inputs(), 3);
  params.h = take(g1, m - 1, 11 * t);
  params.l = take(g1, asg.num_aux(), 13 * t + 1);
  params.a = take(g1, asg.num_inputs() + asg.a_aux_density.popcount(), 17 * t + 2);
  const size_t nb = asg.b_input_density.popcount() + asg.b_aux_density.popcount();
  params.b_g1 = take(g1, nb, 19 * t + 3);
  params.b_g2 = take(g2, nb, 23 * t + 4);
  return params;
}

}  // namespace cuzk::groth16::split_cases
