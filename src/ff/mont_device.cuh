// SPDX-License-Identifier: Apache-2.0
// dmont_t<Config>: the device twin of mont_t<Config> (ff/mont.hpp). Same value (a·R mod p,
// R = 2^(64N)), same bytes: 2N little-endian 32-bit words are the N little-endian 64-bit limbs of
// the host type, so an array of fp_t/fr_t is copied to the device unchanged. Every constant is
// derived from Config::MODULUS at compile time (nothing retyped,
// CONTRIBUTING.md "Code rules").
//
// Multiplication: CIOS over 32-bit words with PTX carry chains. Each row adds a·b[i] as two chains
// (mad.lo.cc into t[j], then mad.hi.cc into t[j+1]) and then m·p the same way with
// m = t[0]·(-p^-1) mod 2^32, and shifts one word: 4n^2 + n 32-bit multiplies for n = 2N words
// (Fp: 588, Fr: 264). Both BLS12-381 moduli leave the top bit of the top word clear, so the running
// sum stays below 2p and fits in n + 1 words. That CIOS is mul_cios, kept as the baseline of
// gpu_field_bench: its lo and hi chains write different words, so ptxas cannot fuse them: sm_90
// SASS per Fp multiply is 321 IMAD + 288 IMAD.HI + 566 IADD3, 1280 instructions (Fr: 656).
//
// operator* runs mul_fast and sqr() sqr_fast: the even/odd split sequences of ff/mont_words.hpp
// through device_ops (one PTX instruction per primitive; the same sequences are tested on the CPU
// by carry emulation): each lo/hi pair fuses into one IMAD.WIDE, 448 instructions per Fp multiply
// (279 IMAD.WIDE), 248 per Fr. Measured on the H200: Fp 26.6 G mul/s (CIOS 16.9), 33.0 G sqr/s.
// nvcc only (.cuh).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/fields.hpp"
#include "ff/mont_words.hpp"

namespace cuzk::ff::device {

/// n 32-bit words of a 64-bit-limb constant, as a literal type usable in device constant
/// expressions (a plain array member: no host-only member functions involved).
template <size_t N32>
struct words_t {
  uint32_t v[N32];
};

/// 2·x over the same words (x < 2^(32n − 1)).
template <size_t N32>
constexpr words_t<N32> twice(const words_t<N32>& x) {
  words_t<N32> r{};
  uint32_t carry = 0;
  for (size_t i = 0; i < N32; ++i) {
    r.v[i] = (x.v[i] << 1) | carry;
    carry = x.v[i] >> 31;
  }
  return r;
}

template <size_t N>
constexpr words_t<2 * N> split_words(const limbs<N>& x) {
  words_t<2 * N> r{};
  for (size_t i = 0; i < 2 * N; ++i) r.v[i] = uint32_t(x[i / 2] >> (32 * (i % 2)));
  return r;
}

/// The primitives of ff/mont_words.hpp, each exactly one PTX instruction. The carry flag lives in
/// the hardware condition code (CC.CF) between these separate asm statements: `volatile` keeps
/// their order, and instructions the compiler places between them do not write CC.
struct device_ops {
  __device__ __forceinline__ uint32_t mul_lo(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
  __device__ __forceinline__ uint32_t mul_hi(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
  __device__ __forceinline__ uint32_t mad_lo_cc(uint32_t x, uint32_t y, uint32_t c) const {
    uint32_t d;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(x), "r"(y), "r"(c));
    return d;
  }
  __device__ __forceinline__ uint32_t madc_lo_cc(uint32_t x, uint32_t y, uint32_t c) const {
    uint32_t d;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(x), "r"(y), "r"(c));
    return d;
  }
  __device__ __forceinline__ uint32_t mad_hi_cc(uint32_t x, uint32_t y, uint32_t c) const {
    uint32_t d;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(x), "r"(y), "r"(c));
    return d;
  }
  __device__ __forceinline__ uint32_t madc_hi_cc(uint32_t x, uint32_t y, uint32_t c) const {
    uint32_t d;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(x), "r"(y), "r"(c));
    return d;
  }
  __device__ __forceinline__ uint32_t madc_hi(uint32_t x, uint32_t y, uint32_t c) const {
    uint32_t d;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(x), "r"(y), "r"(c));
    return d;
  }
  __device__ __forceinline__ uint32_t add_cc(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
  __device__ __forceinline__ uint32_t addc_cc(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
  __device__ __forceinline__ uint32_t addc(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
  __device__ __forceinline__ uint32_t addc_wrap(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
  __device__ __forceinline__ uint32_t sub_cc(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
  __device__ __forceinline__ uint32_t subc_cc(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
  __device__ __forceinline__ uint32_t subc(uint32_t x, uint32_t y) const {
    uint32_t d;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
    return d;
  }
};

/// -p^-1 mod 2^32 in constant memory for mul_fast/sqr_fast: an operand ptxas cannot see through.
/// Fr's is 0xffffffff (r = 1 mod 2^32), and as an immediate ptxas rewrites m = -t0 and the m·p
/// rows into 32-bit IMAD/IMAD.HI pairs: 296 SASS instructions per Fr multiply instead of 248.
template <class Config>
__constant__ uint32_t m0_const = uint32_t(mont_t<Config>::INV);

/// +, −, negation and doubling modulo T::RING_MODULUS (words::add_mod / sub_mod), written once
/// for a word-array field type T: dmont_t (modulo p) and dmont_lazy_t (modulo 2p).
template <class T>
struct modular_ring {
  __device__ __forceinline__ friend T operator+(const T& a, const T& b) {
    constexpr auto m = T::RING_MODULUS;
    device_ops ops;
    T r;
    words::add_mod<T::n>(ops, r.w, a.w, b.w, m.v);
    return r;
  }
  __device__ __forceinline__ friend T operator-(const T& a, const T& b) {
    constexpr auto m = T::RING_MODULUS;
    device_ops ops;
    T r;
    words::sub_mod<T::n>(ops, r.w, a.w, b.w, m.v);
    return r;
  }
  __device__ __forceinline__ T operator-() const { return T::zero() - self(); }
  __device__ __forceinline__ T dbl() const { return self() + self(); }

 private:
  __device__ __forceinline__ const T& self() const { return static_cast<const T&>(*this); }
};

template <class Config>
struct dmont_t : modular_ring<dmont_t<Config>> {
  using host_t = mont_t<Config>;
  static constexpr int n = int(2 * Config::N);
  // Constants as scalars/literal structs evaluated on the host at compile time.
  static constexpr words_t<2 * Config::N> P = split_words<Config::N>(host_t::MODULUS);
  static constexpr words_t<2 * Config::N> ONE = split_words<Config::N>(host_t::R);
  static constexpr uint32_t M0 =
      uint32_t(host_t::INV);  // -p^-1 mod 2^32 (low word of -p^-1 mod 2^64)
  static_assert(P.v[2 * Config::N - 1] < 0x7fffffffu, "need a spare top bit");
  static constexpr words_t<2 * Config::N> RING_MODULUS = P;  // what + and − reduce by

  uint32_t w[2 * Config::N];

  // ---- global memory as 16-byte vectors -------------------------------------------------------
  // A plain copy of this 4-byte-aligned struct compiles to one 4-byte access per word (8 for Fr,
  // 12 for Fp); these issue one 16-byte access per four words, a quarter of the load/store
  // instructions (a kernel that gathers elements is bound by those: issue 16's a, b, c kernel).
  // p must be 16-byte aligned: every device allocation is (256 bytes), and so is every element
  // of an array of these (32 and 48 bytes).
  static_assert(Config::N % 2 == 0, "whole 16-byte vectors");
  static constexpr int VECTORS = n / 4;

  __device__ __forceinline__ static dmont_t load(const dmont_t* p) {
    dmont_t r;
#pragma unroll
    for (int i = 0; i < VECTORS; ++i) r.set_vector(i, reinterpret_cast<const uint4*>(p)[i]);
    return r;
  }
  /// Through the read-only data cache: for data no thread of the kernel writes.
  __device__ __forceinline__ static dmont_t load_ro(const dmont_t* p) {
    dmont_t r;
#pragma unroll
    for (int i = 0; i < VECTORS; ++i) r.set_vector(i, __ldg(reinterpret_cast<const uint4*>(p) + i));
    return r;
  }
  __device__ __forceinline__ void store(dmont_t* p) const {
#pragma unroll
    for (int i = 0; i < VECTORS; ++i)
      reinterpret_cast<uint4*>(p)[i] =
          make_uint4(w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]);
  }
  __device__ __forceinline__ void set_vector(int i, const uint4& v) {
    w[4 * i] = v.x, w[4 * i + 1] = v.y, w[4 * i + 2] = v.z, w[4 * i + 3] = v.w;
  }

  // ---- construction ---------------------------------------------------------------------------

  __device__ __forceinline__ static dmont_t zero() {
    dmont_t r;
#pragma unroll
    for (int i = 0; i < n; ++i) r.w[i] = 0;
    return r;
  }
  __device__ __forceinline__ static dmont_t one() {
    constexpr words_t<2 * Config::N> k = ONE;
    dmont_t r;
#pragma unroll
    for (int i = 0; i < n; ++i) r.w[i] = k.v[i];
    return r;
  }
  /// Out of Montgomery form: a·1·R^-1 = the canonical integer, as words.
  __device__ __forceinline__ dmont_t from_mont() const {
    dmont_t u = zero();
    u.w[0] = 1;
    return *this * u;
  }

  // ---- predicates -----------------------------------------------------------------------------

  __device__ __forceinline__ bool is_zero() const {
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < n; ++i) acc |= w[i];
    return acc == 0;
  }
  __device__ __forceinline__ friend bool operator==(const dmont_t& a, const dmont_t& b) {
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < n; ++i) acc |= a.w[i] ^ b.w[i];
    return acc == 0;
  }

  // ---- ring operations ------------------------------------------------------------------------

  // +, −, unary − and dbl(): modular_ring

  /// t[0..n] += a·b (n+1 words; the caller guarantees no carry out of t[n]).
  __device__ __forceinline__ static void mul_add_row(uint32_t (&t)[2 * Config::N + 1],
                                                     const uint32_t (&a)[2 * Config::N],
                                                     uint32_t b) {
    // low halves into t[j]
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(a[0]), "r"(b));
#pragma unroll
    for (int j = 1; j < n; ++j)
      asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(a[j]), "r"(b));
    asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[n]));
    // high halves into t[j+1]
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(a[0]), "r"(b));
#pragma unroll
    for (int j = 1; j < n - 1; ++j)
      asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(a[j]), "r"(b));
    asm volatile("madc.hi.u32 %0, %1, %2, %0;" : "+r"(t[n]) : "r"(a[n - 1]), "r"(b));
  }

  /// Montgomery product a·b·R^-1 mod p (CIOS, see the file comment): the baseline.
  __device__ __forceinline__ static dmont_t mul_cios(const dmont_t& a, const dmont_t& b) {
    constexpr words_t<2 * Config::N> p = P;
    uint32_t t[2 * Config::N + 1];
#pragma unroll
    for (int j = 0; j <= n; ++j) t[j] = 0;
#pragma unroll
    for (int i = 0; i < n; ++i) {
      mul_add_row(t, a.w, b.w[i]);
      const uint32_t m = t[0] * M0;
      mul_add_row(t, p.v, m);  // t[0] becomes 0
#pragma unroll
      for (int j = 0; j < n; ++j) t[j] = t[j + 1];
      t[n] = 0;
    }
    uint32_t s[2 * Config::N];
#pragma unroll
    for (int j = 0; j < n; ++j) s[j] = t[j];
    device_ops ops;
    dmont_t r;
    words::reduce_once<n>(ops, r.w, s, p.v);
    return r;
  }
  __device__ __forceinline__ friend dmont_t operator*(const dmont_t& a, const dmont_t& b) {
    return mul_fast(a, b);
  }
  __device__ __forceinline__ dmont_t sqr() const {
    return sqr_fast();
  }

  /// The same product by the even/odd split sequence (words::mul_split): two accumulators so
  /// that each (mad.lo, mad.hi) pair fuses into one 64-bit IMAD.WIDE with carry; fully reduced.
  __device__ __forceinline__ static dmont_t mul_fast(const dmont_t& a, const dmont_t& b) {
    constexpr words_t<2 * Config::N> p = P;
    device_ops ops;
    dmont_t r;
    words::mul_split<n>(ops, r.w, a.w, b.w, p.v, m0_const<Config>);
    return r;
  }
  /// a·b − c·d with one Montgomery reduction for both products (words::mul_sub_lazy), as in
  /// the Y coordinate of an XYZZ addition: n² + n word products fewer than two products.
  __device__ __forceinline__ static dmont_t mul_sub(const dmont_t& a, const dmont_t& b,
                                                    const dmont_t& c, const dmont_t& d) {
    constexpr words_t<2 * Config::N> p = P;
    device_ops ops;
    dmont_t r;
    words::mul_sub_lazy<n>(ops, r.w, a.w, b.w, c.w, d.w, p.v, m0_const<Config>);
    return r;
  }
  /// a² by words::sqr_split: n(n-1)/2 + n word products, then a separate reduction.
  __device__ __forceinline__ dmont_t sqr_fast() const {
    constexpr words_t<2 * Config::N> p = P;
    device_ops ops;
    dmont_t r;
    words::sqr_split<n>(ops, r.w, w, p.v, m0_const<Config>);
    return r;
  }

  __device__ __forceinline__ dmont_t& operator+=(const dmont_t& b) {
    return *this = *this + b;
  }
  __device__ __forceinline__ dmont_t& operator-=(const dmont_t& b) {
    return *this = *this - b;
  }
  __device__ __forceinline__ dmont_t& operator*=(const dmont_t& b) {
    return *this = *this * b;
  }
};

/// An element of the field kept in [0, 2p) — the residue class of a dmont_t, not always below p
/// — for the inner loop of a kernel: a product skips its final conditional subtraction
/// (words::reduction::partial: 25 of an Fp product's ≈ 450 instructions, and the products are
/// bound by instruction issue, bench/results/h200/2026-12-04-product-forms.md), sums and
/// differences are taken mod 2p, zero is tested as 0 or p. A dmont_t value is valid as it is
/// (from); reduced() brings one back below p. Needs 4p < 2^(32n): Fp (4p ≈ 0.41·2^384), not Fr.
template <class Config>
struct dmont_lazy_t : modular_ring<dmont_lazy_t<Config>> {
  using field_t = dmont_t<Config>;
  static constexpr int n = field_t::n;
  static constexpr words_t<2 * Config::N> P = field_t::P;
  static constexpr words_t<2 * Config::N> RING_MODULUS = twice(field_t::P);  // + and −: mod 2p
  static_assert(P.v[n - 1] < 0x40000000u, "4p < 2^(32n)");

  uint32_t w[2 * Config::N];

  __device__ __forceinline__ static dmont_lazy_t from(const field_t& a) {
    dmont_lazy_t r;
#pragma unroll
    for (int i = 0; i < n; ++i) r.w[i] = a.w[i];
    return r;
  }
  /// The same residue below p.
  __device__ __forceinline__ field_t reduced() const {
    constexpr words_t<2 * Config::N> p = P;
    device_ops ops;
    field_t r;
    words::reduce_once<n>(ops, r.w, w, p.v);
    return r;
  }
  __device__ __forceinline__ static dmont_lazy_t zero() {
    return from(field_t::zero());
  }
  __device__ __forceinline__ static dmont_lazy_t one() {
    return from(field_t::one());
  }
  /// ≡ 0 (mod p): 0 or p.
  __device__ __forceinline__ bool is_zero() const {
    constexpr words_t<2 * Config::N> p = P;
    uint32_t zero = 0, is_p = 0;
#pragma unroll
    for (int i = 0; i < n; ++i) {
      zero |= w[i];
      is_p |= w[i] ^ p.v[i];
    }
    return zero == 0 || is_p == 0;
  }
  // +, −, unary − and dbl() modulo 2p: modular_ring
  __device__ __forceinline__ friend dmont_lazy_t operator*(const dmont_lazy_t& a,
                                                           const dmont_lazy_t& b) {
    constexpr words_t<2 * Config::N> p = P;
    device_ops ops;
    dmont_lazy_t r;
    words::mul_split<n, words::reduction::partial>(ops, r.w, a.w, b.w, p.v, m0_const<Config>);
    return r;
  }
  __device__ __forceinline__ dmont_lazy_t sqr() const {
    constexpr words_t<2 * Config::N> p = P;
    device_ops ops;
    dmont_lazy_t r;
    words::sqr_split<n, words::reduction::partial>(ops, r.w, w, p.v, m0_const<Config>);
    return r;
  }
  /// a·b − c·d with one reduction (words::mul_sub_lazy), below 2p.
  __device__ __forceinline__ static dmont_lazy_t mul_sub(const dmont_lazy_t& a,
                                                         const dmont_lazy_t& b,
                                                         const dmont_lazy_t& c,
                                                         const dmont_lazy_t& d) {
    constexpr words_t<2 * Config::N> p = P;
    device_ops ops;
    dmont_lazy_t r;
    words::mul_sub_lazy<n, words::reduction::partial>(ops, r.w, a.w, b.w, c.w, d.w, p.v,
                                                      m0_const<Config>);
    return r;
  }
};

using fp_d = dmont_t<fp_config>;
using fp_lazy_d = dmont_lazy_t<fp_config>;
using fr_d = dmont_t<fr_config>;

// The layout contract with the host types: same size, words alias limbs.
static_assert(sizeof(fp_d) == sizeof(fp_t) && sizeof(fr_d) == sizeof(fr_t));
static_assert(alignof(fp_d) <= alignof(fp_t) && alignof(fr_d) <= alignof(fr_t));

}  // namespace cuzk::ff::device
