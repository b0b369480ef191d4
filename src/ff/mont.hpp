// SPDX-License-Identifier: Apache-2.0
// mont_t<Config>: a prime field element in Montgomery form, a·R mod p with R = 2^(64N), stored as
// N little-endian 64-bit limbs (the same bytes as 2N 32-bit limbs, so arrays copy to a device
// unchanged). Written once for Fp (N = 6) and Fr (N = 4); every constant is derived from
// Config::MODULUS at compile time (mont_derive.hpp).
//
// Multiplication is CIOS (Koç, Acar, Kaliski 1996, "Analyzing and comparing Montgomery
// multiplication algorithms") in the "no-carry" form: when the top limb of p is below
// (2^64 - 1)/2 - 1, the running sum t never exceeds N limbs, so the extra carry word of textbook
// CIOS and its additions disappear (gnark-crypto's observation). Both BLS12-381 moduli qualify
// (top limbs 0x1a01… and 0x73ed…); a static_assert guards it. Cost: 2N^2 + N 64x64 multiplies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "base/hd.hpp"
#include "ff/bigint.hpp"
#include "ff/mont_derive.hpp"

#if defined(CUZK_X86_ASM) && defined(__x86_64__) && !defined(__CUDA_ARCH__)
#include <type_traits>

#include "ff/mont_asm_x86.hpp"
#define CUZK_MONT_USE_ADX 1
#endif

namespace cuzk::ff {

template <class Config>
struct mont_t {
  static constexpr size_t N = Config::N;
  static constexpr limbs<N> MODULUS = Config::MODULUS;
  static constexpr uint64_t INV = derive_inv(Config::MODULUS[0]);
  static constexpr limbs<N> R = derive_r<N>(Config::MODULUS);
  static constexpr limbs<N> R2 = derive_r2<N>(Config::MODULUS);
  static constexpr unsigned TWO_ADICITY = derive_two_adicity<N>(Config::MODULUS);
  static constexpr unsigned BITS = bit_length(Config::MODULUS);
  static constexpr size_t BYTES = 8 * N;
  static_assert(Config::MODULUS[N - 1] < (~uint64_t(0) >> 1) - 1,
                "no-carry CIOS needs a spare top bit in the modulus");

  uint64_t limb[N];  ///< Montgomery representation a·R mod p, little-endian

  // ---- construction -------------------------------------------------------------------------

  static constexpr mont_t zero() { return from_raw(limbs<N>{}); }
  static constexpr mont_t one() { return from_raw(R); }
  /// Wraps limbs that are already in Montgomery form.
  static constexpr mont_t from_raw(const limbs<N>& m) {
    mont_t r{};
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) r.limb[i] = m[i];
    return r;
  }
  /// x·R mod p for a canonical integer x < p (precondition; use from_canonical_checked otherwise).
  static constexpr mont_t from_canonical(const limbs<N>& x) { return from_raw(x) * from_raw(R2); }
  /// false (and leaves out unchanged) when x >= p.
  static constexpr bool from_canonical_checked(const limbs<N>& x, mont_t& out) {
    if (!less_than(x, MODULUS)) return false;
    out = from_canonical(x);
    return true;
  }
  static constexpr mont_t from_uint(uint64_t v) { return from_canonical(from_u64<N>(v)); }

  /// The canonical integer a < p: Montgomery multiplication by 1 removes the factor R.
  constexpr limbs<N> to_canonical() const {
    mont_t r = *this * from_raw(from_u64<N>(1));
    limbs<N> out{};
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) out[i] = r.limb[i];
    return out;
  }
  constexpr limbs<N> raw() const {
    limbs<N> out{};
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) out[i] = limb[i];
    return out;
  }

  // ---- byte forms ---------------------------------------------------------------------------

  /// Canonical little-endian bytes (Fr's "repr", docs/spec/primitives.md §1).
  constexpr void to_bytes_le(uint8_t out[BYTES]) const {
    limbs<N> c = to_canonical();
    for (size_t i = 0; i < BYTES; ++i) out[i] = uint8_t(c[i / 8] >> (8 * (i % 8)));
  }
  /// Canonical big-endian bytes (the ZCash point encoding's coordinate form).
  constexpr void to_bytes_be(uint8_t out[BYTES]) const {
    limbs<N> c = to_canonical();
    for (size_t i = 0; i < BYTES; ++i) out[BYTES - 1 - i] = uint8_t(c[i / 8] >> (8 * (i % 8)));
  }
  /// false when the integer is >= p (non-canonical).
  static constexpr bool from_bytes_le(const uint8_t in[BYTES], mont_t& out) {
    limbs<N> c{};
    for (size_t i = 0; i < BYTES; ++i) c[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
    return from_canonical_checked(c, out);
  }
  static constexpr bool from_bytes_be(const uint8_t in[BYTES], mont_t& out) {
    limbs<N> c{};
    for (size_t i = 0; i < BYTES; ++i) c[i / 8] |= uint64_t(in[BYTES - 1 - i]) << (8 * (i % 8));
    return from_canonical_checked(c, out);
  }

  // ---- predicates ---------------------------------------------------------------------------

  CUZK_ALWAYS_INLINE constexpr bool is_zero() const {
    uint64_t acc = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) acc |= limb[i];
    return acc == 0;
  }
  constexpr bool is_one() const { return *this == one(); }
  CUZK_ALWAYS_INLINE friend constexpr bool operator==(const mont_t& a, const mont_t& b) {
    uint64_t acc = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) acc |= a.limb[i] ^ b.limb[i];
    return acc == 0;
  }
  friend constexpr bool operator!=(const mont_t& a, const mont_t& b) { return !(a == b); }
  /// canonical(a) > (p-1)/2: the "sign" of the ZCash compressed encoding.
  constexpr bool is_lexicographically_largest() const {
    limbs<N> half = shift_right(MODULUS, 1);  // (p-1)/2 since p is odd
    return less_than(half, to_canonical());
  }

  // ---- ring operations ----------------------------------------------------------------------

  CUZK_ALWAYS_INLINE friend constexpr mont_t operator+(const mont_t& a, const mont_t& b) {
    // a + b < 2p < 2^(64N) thanks to the spare top bit, so no carry-out; subtract p if >= p.
    mont_t r{};
    uint64_t carry = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
      r.limb[i] = addc(a.limb[i], b.limb[i], carry);
    }
    r.reduce_once();
    return r;
  }
  CUZK_ALWAYS_INLINE friend constexpr mont_t operator-(const mont_t& a, const mont_t& b) {
    mont_t r{};
    uint64_t borrow = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
      r.limb[i] = subb(a.limb[i], b.limb[i], borrow);
    }
    // add p back when the subtraction borrowed; mask = 0 or all ones
    const uint64_t mask = 0 - borrow;
    uint64_t carry = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
      r.limb[i] = addc(r.limb[i], MODULUS[i] & mask, carry);
    }
    return r;
  }
  CUZK_ALWAYS_INLINE constexpr mont_t operator-() const { return zero() - *this; }
  CUZK_ALWAYS_INLINE constexpr mont_t dbl() const { return *this + *this; }

  /// Montgomery product a·b·R^-1 mod p. At run time on x86-64 the MULX/ADX kernel
  /// (mont_asm_x86.hpp); in constant evaluation and elsewhere the portable CIOS below.
  CUZK_ALWAYS_INLINE friend constexpr mont_t operator*(const mont_t& a, const mont_t& b) {
#if defined(CUZK_MONT_USE_ADX)
    if (!std::is_constant_evaluated()) {
      if constexpr (N == 4 || N == 6) {
        mont_t r;
        if constexpr (N == 4) {
          x86::mont_mul_adx_4(r.limb, a.limb, b.limb, MODULUS.data(), INV);
        } else {
          x86::mont_mul_adx_6(r.limb, a.limb, b.limb, MODULUS.data(), INV);
        }
        r.reduce_once();
        return r;
      }
    }
#endif
    return mul_portable(a, b);
  }

  /// Portable no-carry CIOS (see file comment); the reference for the assembly kernels.
  CUZK_ALWAYS_INLINE static constexpr mont_t mul_portable(const mont_t& a, const mont_t& b) {
    uint64_t t[N] = {};
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
      // t += a·b[i]; A is the carry of this row
      u128 p = u128(a.limb[0]) * b.limb[i] + t[0];
      uint64_t A = uint64_t(p >> 64);
      t[0] = uint64_t(p);
      // m chosen so that t + m·p ≡ 0 mod 2^64; then shift t right by one limb
      const uint64_t m = t[0] * INV;
      u128 q = u128(m) * MODULUS[0] + t[0];
      uint64_t C = uint64_t(q >> 64);
      CUZK_UNROLL
      for (size_t j = 1; j < N; ++j) {
        p = u128(a.limb[j]) * b.limb[i] + t[j] + A;
        A = uint64_t(p >> 64);
        q = u128(m) * MODULUS[j] + uint64_t(p) + C;
        C = uint64_t(q >> 64);
        t[j - 1] = uint64_t(q);
      }
      t[N - 1] = C + A;
    }
    mont_t r{};
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) r.limb[i] = t[i];
    r.reduce_once();
    return r;
  }
  CUZK_ALWAYS_INLINE constexpr mont_t sqr() const {
    return *this * *this;
  }

  constexpr mont_t& operator+=(const mont_t& b) {
    return *this = *this + b;
  }
  constexpr mont_t& operator-=(const mont_t& b) {
    return *this = *this - b;
  }
  constexpr mont_t& operator*=(const mont_t& b) {
    return *this = *this * b;
  }

  /// a^e for an exponent given as little-endian limbs (any width), left-to-right binary.
  template <size_t M>
  constexpr mont_t pow(const limbs<M>& e) const {
    mont_t r = one();
    for (unsigned bit = bit_length(e); bit-- > 0;) {
      r = r.sqr();
      if (test_bit(e, bit)) r *= *this;
    }
    return r;
  }
  constexpr mont_t pow(uint64_t e) const {
    return pow(limbs<1>{e});
  }

  /// a^-1 = a^(p-2) (Fermat); zero maps to zero.
  constexpr mont_t inverse() const {
    return pow(P_MINUS_2);
  }

  /// Legendre symbol a^((p-1)/2): 1 for a nonzero square, -1 for a non-square, 0 for zero.
  constexpr int legendre() const {
    mont_t l = pow(P_MINUS_1_OVER_2);
    if (l.is_zero()) return 0;
    return l.is_one() ? 1 : -1;
  }

  /// A square root of a in out; false when a is not a square. p ≡ 3 mod 4 uses a^((p+1)/4);
  /// otherwise Tonelli–Shanks with 2-adicity s and the non-residue Config::GENERATOR.
  constexpr bool sqrt(mont_t& out) const {
    if constexpr ((MODULUS[0] & 3) == 3) {
      mont_t c = pow(P_PLUS_1_OVER_4);
      if (c.sqr() != *this) return false;
      out = c;
      return true;
    } else {
      if (is_zero()) {
        out = zero();
        return true;
      }
      // p - 1 = 2^s·t with t odd; z = g^t generates the 2-Sylow subgroup.
      mont_t z = from_uint(Config::GENERATOR).pow(T_ODD);
      mont_t x = pow(T_PLUS_1_OVER_2);  // candidate root
      mont_t b = pow(T_ODD);            // a^t, the error term; x^2 = a·b
      unsigned m = TWO_ADICITY;
      while (!b.is_one()) {
        unsigned k = 0;  // least k with b^(2^k) = 1
        mont_t b2k = b;
        while (!b2k.is_one()) {
          b2k = b2k.sqr();
          if (++k == m) return false;  // a is not a square
        }
        mont_t w = z;
        for (unsigned i = 0; i + k + 1 < m; ++i) w = w.sqr();
        z = w.sqr();
        x *= w;
        b *= z;
        m = k;
      }
      out = x;
      return true;
    }
  }

  /// Uniform element from a 64-bit random source (rejection sampling on the top bits).
  template <class Rng>
  static mont_t random(Rng& rng) {
    constexpr unsigned top_bits = BITS - 64 * (N - 1);
    for (;;) {
      limbs<N> c{};
      CUZK_UNROLL
      for (size_t i = 0; i < N; ++i) c[i] = rng();
      if (top_bits < 64) c[N - 1] &= (uint64_t(1) << top_bits) - 1;
      mont_t r{};
      if (from_canonical_checked(c, r)) return r;
    }
  }

 private:
  static constexpr limbs<N> modulus_plus(int64_t d) {
    limbs<N> m = MODULUS;
    if (d < 0) {
      sub_from(m, from_u64<N>(uint64_t(-d)));
    } else {
      add_to(m, from_u64<N>(uint64_t(d)));
    }
    return m;
  }

 public:
  static constexpr limbs<N> P_MINUS_2 = modulus_plus(-2);
  static constexpr limbs<N> P_MINUS_1_OVER_2 = shift_right(modulus_plus(-1), 1);
  static constexpr limbs<N> P_PLUS_1_OVER_4 = shift_right(modulus_plus(1), 2);
  /// t = (p-1)/2^s, odd, and (t+1)/2 (Tonelli–Shanks)
  static constexpr limbs<N> T_ODD = shift_right(modulus_plus(-1), TWO_ADICITY);
  static constexpr limbs<N> T_PLUS_1_OVER_2 = [] {
    limbs<N> t = T_ODD;
    add_to(t, from_u64<N>(1));
    return shift_right(t, 1);
  }();

 private:
  /// Subtract p when the value is >= p. Branch-free: after a multiplication the outcome is a coin
  /// toss, and a mispredicted branch costs more than the whole subtraction.
  CUZK_ALWAYS_INLINE constexpr void reduce_once() {
    uint64_t tmp[N];
    uint64_t borrow = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
      tmp[i] = subb(limb[i], MODULUS[i], borrow);
    }
    const uint64_t keep = 0 - borrow;  // all ones: the value was < p, keep it
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) limb[i] = (limb[i] & keep) | (tmp[i] & ~keep);
  }
};

}  // namespace cuzk::ff
