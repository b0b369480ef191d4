// SPDX-License-Identifier: Apache-2.0
// BLS12-381 G1 and G2 curve data: the coefficient b, the standard generators (docs/spec/groth16.md
// §1 / the ZCash and IETF pairing-friendly-curves drafts), the group order r, the curve-equation
// test and the two endomorphisms used by the fast subgroup checks (subgroup.hpp):
//   φ (G1):  (x, y) ↦ (β·x, y), β a primitive cube root of unity in Fp; acts on G1 as −x^2.
//   ψ (G2):  untwist ∘ Frobenius ∘ twist = (conj(x)·ψx, conj(y)·ψy); acts on G2 as the BLS x.
// The constants were computed with plain Python integers (see the derivations in the comments) and
// ec_test.cpp re-derives each one from its defining formula.
#pragma once

#include <cstdint>

#include "ec/point.hpp"
#include "ff/bls12_381_params.hpp"

namespace cuzk::ec {

/// The prime order r of G1, G2 (= Fr's modulus) as limbs, for r·P = O and similar checks.
inline constexpr ff::limbs<4> GROUP_ORDER = ff::fr_t::MODULUS;
/// |x| of the BLS parameter x = −0xd201000000010000 (x is negative).
inline constexpr uint64_t BLS_X_ABS = bls12_381::BLS_X_ABS;
static_assert(bls12_381::BLS_X_IS_NEGATIVE);

/// Per-field curve data: curve_traits<fp_t> is E1 (G1), curve_traits<fp2_t> is E2 (G2).
template <class Field>
struct curve_traits;

template <>
struct curve_traits<fp_t> {
  static constexpr const char* NAME = "G1";
  /// y^2 = x^3 + 4
  static constexpr fp_t B = fp_t::from_uint(4);
  static constexpr g1_affine_t GENERATOR = {
      fp_t::from_canonical({0xfb3af00adb22c6bb, 0x6c55e83ff97a1aef, 0xa14e3a3f171bac58,
                            0xc3688c4f9774b905, 0x2695638c4fa9ac0f, 0x17f1d3a73197d794}),
      fp_t::from_canonical({0x0caa232946c5e7e1, 0xd03cc744a2888ae4, 0x00db18cb2c04b3ed,
                            0xfcf5e095d5d00af6, 0xa09e30ed741d8ae4, 0x08b3f481e3aaa0f1})};
};

template <>
struct curve_traits<fp2_t> {
  static constexpr const char* NAME = "G2";
  /// y^2 = x^3 + 4(1 + u)
  static constexpr fp2_t B = {fp_t::from_uint(4), fp_t::from_uint(4)};
  static constexpr g2_affine_t GENERATOR = {
      {fp_t::from_canonical({0xd48056c8c121bdb8, 0x0bac0326a805bbef, 0xb4510b647ae3d177,
                             0xc6e47ad4fa403b02, 0x260805272dc51051, 0x024aa2b2f08f0a91}),
       fp_t::from_canonical({0xe5ac7d055d042b7e, 0x334cf11213945d57, 0xb5da61bbdc7f5049,
                             0x596bd0d09920b61a, 0x7dacd3a088274f65, 0x13e02b6052719f60})},
      {fp_t::from_canonical({0xe193548608b82801, 0x923ac9cc3baca289, 0x6d429a695160d12c,
                             0xadfd9baa8cbdd3a7, 0x8cc9cdc6da2e351a, 0x0ce5d527727d6e11}),
       fp_t::from_canonical({0xaaa9075ff05f79be, 0x3f370d275cec1da1, 0x267492ab572e99ab,
                             0xcb3e287e85a763af, 0x32acd2b02bc28b99, 0x0606c4a02ea734cc})}};
};

template <class Field>
constexpr Field curve_b() {
  return curve_traits<Field>::B;
}
constexpr g1_affine_t g1_generator() {
  return curve_traits<fp_t>::GENERATOR;
}
constexpr g2_affine_t g2_generator() {
  return curve_traits<fp2_t>::GENERATOR;
}

/// y^2 = x^3 + b for the literal coordinates (no special meaning of (0, 0)): what a decoder needs.
template <class Field>
constexpr bool satisfies_curve_equation(const Field& x, const Field& y) {
  return y.sqr() == x.sqr() * x + curve_b<Field>();
}

/// On the curve, counting the point at infinity (0, 0) as on it (it is the group identity).
template <class Field>
constexpr bool is_on_curve(const affine_t<Field>& p) {
  return p.is_infinity() || satisfies_curve_equation(p.x, p.y);
}

/// Jacobian form of the curve equation: Y^2 = X^3 + b·Z^6; infinity (Z = 0) counts as on it.
template <class Field>
constexpr bool is_on_curve(const jacobian_t<Field>& p) {
  if (p.is_infinity()) return true;
  Field z2 = p.z.sqr(), z6 = z2.sqr() * z2;
  return p.y.sqr() == p.x.sqr() * p.x + curve_b<Field>() * z6;
}

// ---- endomorphisms -----------------------------------------------------------------------------

/// β = 2^((p−1)/3) or its square, the primitive cube root of unity in Fp for which φ(P) = −x^2·P on
/// G1 (the other root gives the eigenvalue x^2 − 1). Canonical value
/// 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe.
inline constexpr fp_t G1_BETA =
    fp_t::from_canonical({0x2e01fffffffefffe, 0xde17d813620a0002, 0xddb3a93be6f89688,
                          0xba69c6076a0f77ea, 0x5f19672fdf76ce51, 0x0000000000000000});

/// ψ's coefficients: ψx = 1/ξ^((p−1)/3) = (0, 0x1a0111ea…aaad) and ψy = 1/ξ^((p−1)/2), ξ = 1 + u.
inline constexpr fp2_t G2_PSI_X = {
    fp_t::zero(),
    fp_t::from_canonical({0x8bfd00000000aaad, 0x409427eb4f49fffd, 0x897d29650fb85f9b,
                          0xaa0d857d89759ad4, 0xec02408663d4de85, 0x1a0111ea397fe699})};
inline constexpr fp2_t G2_PSI_Y = {
    fp_t::from_canonical({0xf1ee7b04121bdea2, 0x304466cf3e67fa0a, 0xef396489f61eb45e,
                          0x1c3dedd930b1cf60, 0xe2e9c448d77a2cd9, 0x135203e60180a68e}),
    fp_t::from_canonical({0xc81084fbede3cc09, 0xee67992f72ec05f4, 0x77f76e17009241c5,
                          0x48395dabc2d3435e, 0x6831e36d6bd17ffe, 0x06af0e0437ff400b})};

/// φ(X, Y, Z) = (β·X, Y, Z): x = X/Z^2 scales by β, y is unchanged. 1M.
constexpr g1_jacobian_t g1_phi(const g1_jacobian_t& p) {
  return {p.x * G1_BETA, p.y, p.z};
}
constexpr g1_affine_t g1_phi(const g1_affine_t& p) {
  return p.is_infinity() ? p : g1_affine_t{p.x * G1_BETA, p.y};
}

/// ψ(X, Y, Z) = (conj(X)·ψx, conj(Y)·ψy, conj(Z)): conjugation is the p-power Frobenius and
/// commutes with the ratios X/Z^2, Y/Z^3, so the affine map lifts directly. 2 Fp2 M.
constexpr g2_jacobian_t g2_psi(const g2_jacobian_t& p) {
  return {p.x.conjugate() * G2_PSI_X, p.y.conjugate() * G2_PSI_Y, p.z.conjugate()};
}
constexpr g2_affine_t g2_psi(const g2_affine_t& p) {
  return p.is_infinity() ? p : g2_affine_t{p.x.conjugate() * G2_PSI_X, p.y.conjugate() * G2_PSI_Y};
}

}  // namespace cuzk::ec
