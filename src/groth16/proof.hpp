// SPDX-License-Identifier: Apache-2.0
// The 192-byte Groth16 proof encoding A (G1, 48) ‖ B (G2, 96) ‖ C (G1, 48), compressed ZCash form
// (docs/spec/groth16.md §4), and multi-partition proofs: the plain concatenation of N such
// encodings. Decoding takes untrusted bytes: it rejects a wrong length, bad encodings, points off
// the curve or outside the subgroup, and the point at infinity.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/status.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

inline constexpr size_t PROOF_BYTES = 192;

void encode_proof(const proof& pf, std::span<uint8_t, PROOF_BYTES> out);
std::array<uint8_t, PROOF_BYTES> encode_proof(const proof& pf);
/// Exactly 192 bytes.
result<proof> decode_proof(std::span<const uint8_t> in);

/// N proofs as N × 192 bytes, in order (partition k at offset 192·k).
std::vector<uint8_t> encode_proofs(std::span<const proof> proofs);
/// A nonzero multiple of 192 bytes (bad_length otherwise); the first bad proof's status, with
/// its index in the message.
result<std::vector<proof>> decode_proofs(std::span<const uint8_t> in);

}  // namespace cuzk::groth16
