// SPDX-License-Identifier: Apache-2.0
// snarkjs JSON for Groth16 over BLS12-381 (protocol "groth16", curve "bls12381"): verification
// keys (verification_key.json), proofs (proof.json) and public signals (public.json), both ways.
// Conventions (checked against snarkjs 0.7.6 / ffjavascript, docs/notes/interop.md): every number
// is a decimal string; G1 = [x, y, z], G2 = [[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]] with
// c0 the real part, Jacobian coordinates (snarkjs writes z = 1; the identity is [0, 1, 0]).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

// ---- export
// ---------------------------------------------------------------------------------------

/// verification_key.json as `snarkjs zkey export verificationkey` writes it: protocol, curve,
/// nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2, vk_alphabeta_12 (e(α₁, β₂), which
/// snarkjs's verifier ignores but its Solidity/other exporters read), IC.
std::string vk_to_snarkjs_json(const verifying_key& vk);
/// proof.json: pi_a, pi_b, pi_c (affine, z = 1), protocol, curve.
std::string proof_to_snarkjs_json(const proof& pf);
/// public.json: the public inputs without ONE, as a JSON array of decimal strings.
std::string public_to_snarkjs_json(std::span<const ff::fr_t> public_inputs);

// ---- import (untrusted text)
// ----------------------------------------------------------------------

/// Reads alpha_1, beta_2, gamma_2, delta_2 and IC; all points on the curve and in the subgroup,
/// only IC entries may be the identity. beta_g1 and delta_g1 (not part of snarkjs's key) are set
/// to the identity: the result verifies but cannot be written as a bellperson .vk. When present,
/// protocol must be "groth16", curve must name BLS12-381, nPublic must equal |IC| − 1;
/// vk_alphabeta_12 is ignored. Errors name the field: "vk_beta_2[1][0]: non_canonical …".
result<verifying_key> vk_from_snarkjs_json(std::string_view text);
/// pi_a, pi_b, pi_c: on the curve, in the subgroup, not the identity (as decode_proof).
result<proof> proof_from_snarkjs_json(std::string_view text);
/// A JSON array of field elements (decimal or 0x-hex strings, or non-negative JSON integers),
/// each < r.
result<std::vector<ff::fr_t>> public_from_snarkjs_json(std::string_view text);

// ---- numbers
// --------------------------------------------------------------------------------------

std::string to_decimal(const ff::fp_t& x);
std::string to_decimal(const ff::fr_t& x);
/// Decimal digits (or 0x + hex digits) of an integer < p (resp. r); non_canonical when ≥ the
/// modulus, bad_encoding for anything else (empty, signs, spaces, other characters).
result<ff::fp_t> fp_from_decimal(std::string_view s);
result<ff::fr_t> fr_from_decimal(std::string_view s);

}  // namespace cuzk::groth16
