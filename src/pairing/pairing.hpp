// SPDX-License-Identifier: Apache-2.0
// The optimal ate pairing of BLS12-381, e: G1 × G2 -> GT ⊂ Fp12*, as a Miller loop over the
// parameter x = -0xd201000000010000 followed by the final exponentiation. GT values match
// @noble/curves / blst byte for byte (docs/notes/pairing.md: the exponent is 3(p^12 - 1)/r).
// Inputs are trusted affine points of the prime-order subgroups; (0, 0) is the identity.
#pragma once

#include <span>

#include "ec/curve.hpp"
#include "ff/fp12.hpp"

namespace cuzk::pairing {

/// f_{|x|,Q}(P) conjugated (x < 0), before the final exponentiation. 1 when P or Q is infinity.
ff::fp12_t miller_loop(const ec::g1_affine_t& p, const ec::g2_affine_t& q);

/// prod_i f_{|x|,Q_i}(P_i) with ONE shared accumulator (one Fp12 squaring per bit for all pairs).
/// Pairs with an infinity point are skipped. The spans must have equal length (extra entries of
/// the longer one are ignored).
ff::fp12_t multi_miller_loop(std::span<const ec::g1_affine_t> p,
                             std::span<const ec::g2_affine_t> q);

/// f^(3(p^12 - 1)/r): easy part (p^6 - 1)(p^2 + 1), then the hard part 3(p^4 - p^2 + 1)/r
/// = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 (Hayashida–Hayasaka–Teruya, eprint 2020/875).
ff::fp12_t final_exponentiation(const ff::fp12_t& f);

/// e(P, Q) = final_exponentiation(miller_loop(P, Q)).
ff::fp12_t pair(const ec::g1_affine_t& p, const ec::g2_affine_t& q);

/// prod_i e(P_i, Q_i) == 1 with one shared Miller loop and one final exponentiation (the Groth16
/// verifier's check). false when the spans differ in length.
bool pairing_product_is_one(std::span<const ec::g1_affine_t> p, std::span<const ec::g2_affine_t> q);

/// Serialize a GT / Fp12 value as 12 big-endian 48-byte Fp values in the order
/// c0.c0.c0, c0.c0.c1, c0.c1.c0, …, c1.c2.c1 (= ff::fp12_t::to_bytes_be, noble's Fp12.toBytes).
inline void fp12_to_bytes_be(const ff::fp12_t& f, uint8_t out[ff::fp12_t::BYTES]) {
  f.to_bytes_be(out);
}

}  // namespace cuzk::pairing
