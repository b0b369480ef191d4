// SPDX-License-Identifier: Apache-2.0
// Conversions between cuzk limb arrays / field elements and GMP integers, the independent oracle
// for field arithmetic (CONTRIBUTING.md "Tests").
#pragma once

#include <gmpxx.h>

#include <array>
#include <cstdint>

namespace cuzk::test {

template <size_t N>
mpz_class to_mpz(const std::array<uint64_t, N>& a) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), N, -1, sizeof(uint64_t), 0, 0, a.data());
  return r;
}

template <size_t N>
std::array<uint64_t, N> from_mpz(const mpz_class& v) {
  std::array<uint64_t, N> r{};
  size_t count = 0;
  mpz_export(r.data(), &count, -1, sizeof(uint64_t), 0, 0, v.get_mpz_t());
  return r;
}

/// The canonical integer of a field element.
template <class F>
mpz_class field_to_mpz(const F& x) {
  return to_mpz(x.to_canonical());
}

template <class F>
F field_from_mpz(const mpz_class& v) {
  return F::from_canonical(from_mpz<F::N>(v));
}

}  // namespace cuzk::test
