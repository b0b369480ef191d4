// SPDX-License-Identifier: Apache-2.0
// Prime-order subgroup membership for points already known to be on the curve.
//   G1: P ∈ G1  ⇔  φ(P) = −x^2·P   (Scott, eprint 2021/1130 §6; proof completed in eprint 2022/352)
//   G2: P ∈ G2  ⇔  ψ(P) = x·P      (same papers, §4)
// Each costs one or two 64-bit sparse multiplications by |x| (≈ 64 dbl + 5 add each) instead of a
// 255-bit r·P. in_subgroup_slow is the definition r·P = O, kept for tests and as documentation.
#pragma once

#include "ec/scalar_mul.hpp"

namespace cuzk::ec {

/// φ(P) = −x^2·P; x^2 > 0, so −x^2·P = −(|x|·(|x|·P)). Precondition: P on E1.
inline bool in_subgroup(const g1_jacobian_t& p) {
  const g1_jacobian_t x2p = mul_u64(mul_u64(p, BLS_X_ABS), BLS_X_ABS);
  return g1_phi(p) == -x2p;
}

/// ψ(P) = x·P = −(|x|·P). Precondition: P on E2.
inline bool in_subgroup(const g2_jacobian_t& p) {
  return g2_psi(p) == mul_by_bls_x(p);
}

template <class Field>
bool in_subgroup(const affine_t<Field>& p) {
  return in_subgroup(jacobian_t<Field>::from_affine(p));
}

/// The definition: r·P = O.
template <class Field>
bool in_subgroup_slow(const affine_t<Field>& p) {
  return mul(p, GROUP_ORDER).is_infinity();
}

}  // namespace cuzk::ec
