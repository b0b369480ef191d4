// SPDX-License-Identifier: Apache-2.0
// ZCash / blst point encoding for BLS12-381 (docs/spec/groth16.md §1; rules and rejection table in
// docs/notes/serialization.md). Big-endian coordinates, Fp2 as c1 ‖ c0, three flag bits in byte 0:
// 0x80 compressed, 0x40 infinity, 0x20 sign of y (compressed only). Encoders are total; decoders
// take untrusted bytes and return result<> with bad_length / bad_encoding / non_canonical /
// not_on_curve / not_in_subgroup, never asserting or throwing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/status.hpp"
#include "ec/curve.hpp"

namespace cuzk::ec {

inline constexpr size_t G1_COMPRESSED_BYTES = 48;
inline constexpr size_t G1_UNCOMPRESSED_BYTES = 96;
inline constexpr size_t G2_COMPRESSED_BYTES = 96;
inline constexpr size_t G2_UNCOMPRESSED_BYTES = 192;

inline constexpr uint8_t FLAG_COMPRESSED = 0x80;
inline constexpr uint8_t FLAG_INFINITY = 0x40;
inline constexpr uint8_t FLAG_SIGN = 0x20;

struct decode_options {
  /// Check membership in the order-r subgroup (default true). false = "unchecked" decoding, only
  /// for trusted inputs such as parameter files (docs/spec/groth16.md §3); the on-curve check
  /// stays.
  bool subgroup_check = true;
};

// ---- encoding (total) ---------------------------------------------------------------------------

void g1_to_compressed(const g1_affine_t& p, std::span<uint8_t, G1_COMPRESSED_BYTES> out);
void g1_to_uncompressed(const g1_affine_t& p, std::span<uint8_t, G1_UNCOMPRESSED_BYTES> out);
void g2_to_compressed(const g2_affine_t& p, std::span<uint8_t, G2_COMPRESSED_BYTES> out);
void g2_to_uncompressed(const g2_affine_t& p, std::span<uint8_t, G2_UNCOMPRESSED_BYTES> out);

std::array<uint8_t, G1_COMPRESSED_BYTES> g1_to_compressed(const g1_affine_t& p);
std::array<uint8_t, G1_UNCOMPRESSED_BYTES> g1_to_uncompressed(const g1_affine_t& p);
std::array<uint8_t, G2_COMPRESSED_BYTES> g2_to_compressed(const g2_affine_t& p);
std::array<uint8_t, G2_UNCOMPRESSED_BYTES> g2_to_uncompressed(const g2_affine_t& p);

// ---- decoding (untrusted input) -----------------------------------------------------------------

/// Exactly 48 bytes with the compressed flag set.
result<g1_affine_t> g1_from_compressed(std::span<const uint8_t> in, decode_options opt = {});
/// Exactly 96 bytes with the compressed flag clear.
result<g1_affine_t> g1_from_uncompressed(std::span<const uint8_t> in, decode_options opt = {});
/// Either form, chosen by the length (48 or 96); the compressed flag must agree with it.
result<g1_affine_t> g1_from_bytes(std::span<const uint8_t> in, decode_options opt = {});

/// Exactly 96 bytes with the compressed flag set.
result<g2_affine_t> g2_from_compressed(std::span<const uint8_t> in, decode_options opt = {});
/// Exactly 192 bytes with the compressed flag clear.
result<g2_affine_t> g2_from_uncompressed(std::span<const uint8_t> in, decode_options opt = {});
/// Either form, chosen by the length (96 or 192); the compressed flag must agree with it.
result<g2_affine_t> g2_from_bytes(std::span<const uint8_t> in, decode_options opt = {});

}  // namespace cuzk::ec
