// SPDX-License-Identifier: Apache-2.0
// constexpr multi-precision helpers over little-endian 64-bit limb arrays. Used at compile time to
// derive Montgomery constants (mont_derive.hpp) and at run time for exponents and scalar digits.
// Nothing here is performance-critical: hot arithmetic lives in mont.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
#include <x86intrin.h>
#endif

namespace cuzk::ff {

template <size_t N>
using limbs = std::array<uint64_t, N>;

using u128 = unsigned __int128;

/// a + b + carry (carry in {0,1}); carry receives the carry-out. On x86-64 at run time this is one
/// ADC (GCC 12 keeps the flag in a chain of _addcarry_u64, but not through __int128 arithmetic).
constexpr uint64_t addc(uint64_t a, uint64_t b, uint64_t& carry) {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
  if (!std::is_constant_evaluated()) {
    unsigned long long out;
    carry = _addcarry_u64((unsigned char)carry, a, b, &out);
    return out;
  }
#endif
  u128 t = u128(a) + b + carry;
  carry = uint64_t(t >> 64);
  return uint64_t(t);
}

/// a - b - borrow (borrow in {0,1}); borrow receives the borrow-out. One SBB on x86-64.
constexpr uint64_t subb(uint64_t a, uint64_t b, uint64_t& borrow) {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
  if (!std::is_constant_evaluated()) {
    unsigned long long out;
    borrow = _subborrow_u64((unsigned char)borrow, a, b, &out);
    return out;
  }
#endif
  u128 t = u128(a) - b - borrow;
  borrow = uint64_t(t >> 64) & 1;
  return uint64_t(t);
}

/// a + b, returning the carry-out.
template <size_t N>
constexpr uint64_t add_to(limbs<N>& a, const limbs<N>& b) {
  uint64_t carry = 0;
  for (size_t i = 0; i < N; ++i) {
    u128 t = u128(a[i]) + b[i] + carry;
    a[i] = uint64_t(t);
    carry = uint64_t(t >> 64);
  }
  return carry;
}

/// a - b, returning the borrow-out (1 when b > a).
template <size_t N>
constexpr uint64_t sub_from(limbs<N>& a, const limbs<N>& b) {
  uint64_t borrow = 0;
  for (size_t i = 0; i < N; ++i) {
    u128 t = u128(a[i]) - b[i] - borrow;
    a[i] = uint64_t(t);
    borrow = uint64_t(t >> 64) & 1;
  }
  return borrow;
}

/// a < b as unsigned integers.
template <size_t N>
constexpr bool less_than(const limbs<N>& a, const limbs<N>& b) {
  for (size_t i = N; i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return false;
}

template <size_t N>
constexpr bool is_zero(const limbs<N>& a) {
  for (auto x : a)
    if (x) return false;
  return true;
}

template <size_t N>
constexpr limbs<N> from_u64(uint64_t v) {
  limbs<N> r{};
  r[0] = v;
  return r;
}

template <size_t N>
constexpr limbs<N> shift_right(const limbs<N>& a, unsigned bits) {
  limbs<N> r{};
  const unsigned words = bits / 64, rem = bits % 64;
  for (size_t i = 0; i + words < N; ++i) {
    uint64_t lo = a[i + words] >> rem;
    uint64_t hi = (rem && i + words + 1 < N) ? a[i + words + 1] << (64 - rem) : 0;
    r[i] = lo | hi;
  }
  return r;
}

/// Number of significant bits (0 for zero).
template <size_t N>
constexpr unsigned bit_length(const limbs<N>& a) {
  for (size_t i = N; i-- > 0;) {
    if (a[i]) return unsigned(64 * i + 64 - __builtin_clzll(a[i]));
  }
  return 0;
}

template <size_t N>
constexpr bool test_bit(const limbs<N>& a, unsigned bit) {
  return bit < 64 * N && ((a[bit / 64] >> (bit % 64)) & 1);
}

/// Trailing zero bits of a nonzero value.
template <size_t N>
constexpr unsigned count_trailing_zeros(const limbs<N>& a) {
  for (size_t i = 0; i < N; ++i) {
    if (a[i]) return unsigned(64 * i + __builtin_ctzll(a[i]));
  }
  return unsigned(64 * N);
}

/// (a + b) mod m for a, b < m.
template <size_t N>
constexpr limbs<N> add_mod(limbs<N> a, const limbs<N>& b, const limbs<N>& m) {
  uint64_t carry = add_to(a, b);
  if (carry || !less_than(a, m)) sub_from(a, m);
  return a;
}

/// x mod m by schoolbook binary long division (compile-time use only).
template <size_t N>
constexpr limbs<N> reduce_slow(const limbs<N>& x, const limbs<N>& m) {
  limbs<N> r{};
  for (unsigned bit = bit_length(x); bit-- > 0;) {
    r = add_mod(r, r, m);
    if (test_bit(x, bit)) r = add_mod(r, from_u64<N>(1), m);
  }
  return r;
}

}  // namespace cuzk::ff
