// SPDX-License-Identifier: Apache-2.0
// Compile-time derivation of Montgomery constants from the modulus alone
// (CONTRIBUTING.md "Code rules", constants):
//   R = 2^(64N) mod p, R^2 mod p, INV = -p^-1 mod 2^64, two-adicity s of p-1.
// The generated literal table (bls12_381_params.hpp) must agree; fields.hpp static_asserts that.
#pragma once

#include "ff/bigint.hpp"

namespace cuzk::ff {

/// 2^k mod m, by k modular doublings of 1.
template <size_t N>
consteval limbs<N> pow2_mod(unsigned k, const limbs<N>& m) {
  limbs<N> r = reduce_slow(from_u64<N>(1), m);
  for (unsigned i = 0; i < k; ++i) r = add_mod(r, r, m);
  return r;
}

/// Montgomery one: R = 2^(64N) mod m.
template <size_t N>
consteval limbs<N> derive_r(const limbs<N>& m) {
  return pow2_mod<N>(64 * N, m);
}

/// R^2 = 2^(128N) mod m, used to enter Montgomery form: mont(x) = x·R^2·R^-1.
template <size_t N>
consteval limbs<N> derive_r2(const limbs<N>& m) {
  return pow2_mod<N>(128 * N, m);
}

/// -m^-1 mod 2^64 by Newton iteration x <- x(2 - m·x), which doubles the correct low bits each
/// step (1 -> 2 -> 4 -> ... -> 64 bits; m odd so x = 1 is correct to one bit).
consteval uint64_t derive_inv(uint64_t m0) {
  uint64_t x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - m0 * x;
  return ~x + 1;
}

/// s such that 2^s || m - 1.
template <size_t N>
consteval unsigned derive_two_adicity(const limbs<N>& m) {
  limbs<N> t = m;
  sub_from(t, from_u64<N>(1));
  return count_trailing_zeros(t);
}

}  // namespace cuzk::ff
