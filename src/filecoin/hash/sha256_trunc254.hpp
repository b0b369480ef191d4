// SPDX-License-Identifier: Apache-2.0
// Filecoin's SHA256-trunc254 (docs/spec/primitives.md §2): the SHA-256 digest with byte 31 ANDed
// with 0x3f, so that it reads as an Fr below 2^254; the hasher of tree_d and of the PoRep challenge
// seeds.
#pragma once

#include <cstdint>
#include <span>

#include "hash/sha256.hpp"

namespace cuzk::filecoin::hash {

/// Fr-safe truncation in place: byte 31 &= 0x3f (fr32 bytes_into_fr_repr_safe).
inline void trim_to_fr32(cuzk::hash::sha256_digest_t& d) {
  d[31] &= 0x3f;
}

/// SHA256-trunc254(data) = SHA-256 then byte 31 &= 0x3f.
cuzk::hash::sha256_digest_t sha256_trunc254(std::span<const uint8_t> data);

/// A binary tree_d node: SHA256-trunc254(left ‖ right) of two 32-byte values (two compressions,
/// the second one the constant padding block of a 64-byte message).
cuzk::hash::sha256_digest_t sha256_trunc254_node(const uint8_t left[32], const uint8_t right[32]);

}  // namespace cuzk::filecoin::hash
