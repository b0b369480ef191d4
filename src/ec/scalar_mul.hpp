// SPDX-License-Identifier: Apache-2.0
// Variable-base scalar multiplication k·P for G1 and G2, written once over the coordinate field:
// width-5 wNAF in Jacobian coordinates (table P, 3P, …, 15P; about n dbl + n/6 add for an n-bit k).
// GLV (halving the doublings with φ on G1, or ψ on G2) is a possible later speed-up; nothing hot
// uses these (MSM has its own bucket method).
//
// NOT constant-time: the digit pattern and the table index leak through timing. That is fine for
// public data (verification, parameter checks, tests), but the prover multiplies by its secret
// blinding scalars r and s; the Groth16 prover must either use a constant-time ladder for those few
// products or accept the (local, timing-only) exposure. Known limitation, to revisit with groth16/.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/curves.hpp"

namespace cuzk::ec {

namespace detail {

/// Signed width-w NAF digits of k, least significant first: every nonzero digit is odd with
/// |d| < 2^(w−1), and any two nonzero digits are at least w positions apart. Returns the count.
template <size_t M>
constexpr size_t wnaf_digits(const ff::limbs<M>& k_in, unsigned w, int8_t* digits) {
  ff::limbs<M + 1> k{};
  for (size_t i = 0; i < M; ++i) k[i] = k_in[i];
  const uint64_t mask = (uint64_t(1) << w) - 1;
  const int64_t half = int64_t(1) << (w - 1);
  size_t n = 0;
  while (!ff::is_zero(k)) {
    int64_t d = 0;
    if (k[0] & 1) {
      d = int64_t(k[0] & mask);
      if (d >= half) d -= int64_t(1) << w;
      // k −= d, making k ≡ 0 mod 2^w
      if (d > 0) {
        ff::sub_from(k, ff::from_u64<M + 1>(uint64_t(d)));
      } else {
        ff::add_to(k, ff::from_u64<M + 1>(uint64_t(-d)));
      }
    }
    digits[n++] = int8_t(d);
    k = ff::shift_right(k, 1);
  }
  return n;
}

}  // namespace detail

/// k·P for an integer k given as little-endian limbs (any width; k need not be reduced mod r).
template <class Field, size_t M>
constexpr jacobian_t<Field> mul(const jacobian_t<Field>& p, const ff::limbs<M>& k) {
  constexpr unsigned W = 5;
  constexpr size_t TABLE = size_t(1) << (W - 2);  // P, 3P, …, (2^(W−1) − 1)P
  jacobian_t<Field> table[TABLE];
  table[0] = p;
  const jacobian_t<Field> p2 = p.dbl();
  for (size_t i = 1; i < TABLE; ++i) table[i] = table[i - 1] + p2;

  int8_t digits[64 * M + 1] = {};
  const size_t n = detail::wnaf_digits(k, W, digits);
  jacobian_t<Field> acc = jacobian_t<Field>::infinity();
  for (size_t i = n; i-- > 0;) {
    acc = acc.dbl();
    const int d = digits[i];
    if (d > 0) acc += table[(d - 1) / 2];
    if (d < 0) acc += -table[(-d - 1) / 2];
  }
  return acc;
}

/// k·P for k ∈ Fr (its canonical integer).
template <class Field>
constexpr jacobian_t<Field> mul(const jacobian_t<Field>& p, const fr_t& k) {
  return mul(p, k.to_canonical());
}
template <class Field, size_t M>
constexpr jacobian_t<Field> mul(const affine_t<Field>& p, const ff::limbs<M>& k) {
  return mul(jacobian_t<Field>::from_affine(p), k);
}
template <class Field>
constexpr jacobian_t<Field> mul(const affine_t<Field>& p, const fr_t& k) {
  return mul(jacobian_t<Field>::from_affine(p), k.to_canonical());
}

/// k·P for a machine word, left-to-right binary: cheapest for sparse k such as |x| (6 bits set:
/// 63 dbl + 5 add), which the subgroup checks multiply by.
template <class Field>
constexpr jacobian_t<Field> mul_u64(const jacobian_t<Field>& p, uint64_t k) {
  jacobian_t<Field> acc = jacobian_t<Field>::infinity();
  for (unsigned bit = 64; bit-- > 0;) {
    acc = acc.dbl();
    if ((k >> bit) & 1) acc += p;
  }
  return acc;
}

/// x·P for the (negative) BLS parameter x = −|x|.
template <class Field>
constexpr jacobian_t<Field> mul_by_bls_x(const jacobian_t<Field>& p) {
  return -mul_u64(p, BLS_X_ABS);
}

}  // namespace cuzk::ec
