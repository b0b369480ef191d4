// SPDX-License-Identifier: Apache-2.0
// Test-only helpers for the curve layer: random subgroup points (k·G), random curve points that are
// NOT cofactor-cleared (random x with x^3 + b square), and a plain double-and-add reference that
// the wNAF multiplication is compared against.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "test_rng.hpp"

namespace cuzk::ec::test {

template <class Field>
affine_t<Field> random_subgroup_point(cuzk::test::test_rng& rng) {
  return mul(curve_traits<Field>::GENERATOR, fr_t::random(rng)).to_affine();
}

/// Uniform-ish point of E(F): almost surely outside the order-r subgroup (the cofactor is large).
template <class Field>
affine_t<Field> random_curve_point(cuzk::test::test_rng& rng) {
  for (;;) {
    affine_t<Field> p;
    p.x = Field::random(rng);
    const Field rhs = p.x.sqr() * p.x + curve_b<Field>();
    if (!rhs.sqrt(p.y)) continue;
    if (rng() & 1) p.y = -p.y;
    return p;
  }
}

/// Right-to-left binary double-and-add over affine-input Jacobian additions: the slow reference.
template <class Field, size_t M>
jacobian_t<Field> mul_reference(const affine_t<Field>& p, const ff::limbs<M>& k) {
  jacobian_t<Field> acc = jacobian_t<Field>::infinity();
  jacobian_t<Field> base = jacobian_t<Field>::from_affine(p);
  for (unsigned bit = 0; bit < 64 * M; ++bit) {
    if (ff::test_bit(k, bit)) acc = acc + base;
    base = base.dbl();
  }
  return acc;
}

/// Lower-case hex of a byte range.
template <class Bytes>
std::string to_hex(const Bytes& b) {
  static constexpr char DIGITS[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * b.size());
  for (uint8_t v : b) {
    s += DIGITS[v >> 4];
    s += DIGITS[v & 15];
  }
  return s;
}

/// Bytes of an even-length hex string ("-" is the empty string, as in tests/vectors/); false on any
/// other character.
inline bool from_hex(std::string_view h, std::vector<uint8_t>& out) {
  out.clear();
  if (h == "-") return true;
  if (h.size() % 2) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < h.size(); i += 2) {
    const int hi = nibble(h[i]), lo = nibble(h[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(uint8_t(hi << 4 | lo));
  }
  return true;
}

/// A 256-bit scalar as 64 big-endian hex digits (the vector files' scalar form).
inline std::string scalar_hex(const ff::limbs<4>& k) {
  std::vector<uint8_t> be(32);
  for (size_t i = 0; i < 32; ++i) be[31 - i] = uint8_t(k[i / 8] >> (8 * (i % 8)));
  return to_hex(be);
}
inline bool parse_scalar_hex(std::string_view h, ff::limbs<4>& k) {
  std::vector<uint8_t> be;
  if (h.size() != 64 || !from_hex(h, be)) return false;
  k = {};
  for (size_t i = 0; i < 32; ++i) k[i / 8] |= uint64_t(be[31 - i]) << (8 * (i % 8));
  return true;
}

}  // namespace cuzk::ec::test
