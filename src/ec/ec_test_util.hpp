// SPDX-License-Identifier: Apache-2.0
// Test-only helpers for the curve layer: random subgroup points (k·G), random curve points that are
// NOT cofactor-cleared (random x with x^3 + b square), and a plain double-and-add reference that
// the wNAF multiplication is compared against.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/hex.hpp"
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

/// Bytes of a vector-file hex field ("-" is the empty string, as in tests/vectors/); false when
/// the text is not hex.
inline bool parse_vector_hex(std::string_view h, std::vector<uint8_t>& out) {
  out.clear();
  if (h == "-") return true;
  auto bytes = cuzk::from_hex(h);
  if (!bytes) return false;
  out = std::move(*bytes);
  return true;
}

/// A 256-bit scalar as 64 big-endian hex digits (the vector files' scalar form).
inline std::string scalar_hex(const ff::limbs<4>& k) {
  std::vector<uint8_t> be(32);
  for (size_t i = 0; i < 32; ++i) be[31 - i] = uint8_t(k[i / 8] >> (8 * (i % 8)));
  return cuzk::to_hex(be);
}
inline bool parse_scalar_hex(std::string_view h, ff::limbs<4>& k) {
  std::vector<uint8_t> be;
  if (h.size() != 64 || !parse_vector_hex(h, be)) return false;
  k = {};
  for (size_t i = 0; i < 32; ++i) k[i / 8] |= uint64_t(be[31 - i]) << (8 * (i % 8));
  return true;
}

}  // namespace cuzk::ec::test
