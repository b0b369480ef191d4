// SPDX-License-Identifier: Apache-2.0
// BLS12-381 curve constants and affine point types.
//   E1: y^2 = x^3 + 4 over Fp        (G1, order r subgroup, cofactor h1)
//   E2: y^2 = x^3 + 4(1 + u) over Fp2 (G2, the sextic M-twist)
// Affine points use (0, 0) for the point at infinity: (0, 0) is on neither curve (0 != 4), so the
// encoding is unambiguous and an all-zero array is a valid array of identities (as in sppark).
#pragma once

#include "ff/fp2.hpp"

namespace cuzk::ec {

using ff::fp2_t;
using ff::fp_t;
using ff::fr_t;

template <class Field>
struct affine_t {
  using field_t = Field;
  Field x, y;

  static constexpr affine_t infinity() { return {Field::zero(), Field::zero()}; }
  constexpr bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  constexpr affine_t operator-() const { return is_infinity() ? *this : affine_t{x, -y}; }
  friend constexpr bool operator==(const affine_t& a, const affine_t& b) {
    return a.x == b.x && a.y == b.y;
  }
  friend constexpr bool operator!=(const affine_t& a, const affine_t& b) { return !(a == b); }
};

using g1_affine_t = affine_t<fp_t>;
using g2_affine_t = affine_t<fp2_t>;
static_assert(sizeof(g1_affine_t) == 96 && sizeof(g2_affine_t) == 192);

}  // namespace cuzk::ec
