// SPDX-License-Identifier: Apache-2.0
// fp2_d: the device twin of ff::fp2_t (Fp[u]/(u^2 + 1), c0 + c1·u), same bytes (c0 then c1, 96
// bytes), so G2 coordinates are copied to the device unchanged. The formulas are fp2.hpp's:
// Karatsuba multiplication (3 Fp multiplications) and complex squaring (2). It exposes the same
// member set as dmont_t, so ec::device::xyzz_d/affine_d are instantiated over it unchanged. nvcc
// only.
#pragma once

#include "ff/fp2.hpp"
#include "ff/mont_device.cuh"

namespace cuzk::ff::device {

struct fp2_d {
  fp_d c0, c1;

  __device__ __forceinline__ static fp2_d zero() { return {fp_d::zero(), fp_d::zero()}; }
  __device__ __forceinline__ static fp2_d one() { return {fp_d::one(), fp_d::zero()}; }

  __device__ __forceinline__ bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  __device__ __forceinline__ friend bool operator==(const fp2_d& a, const fp2_d& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }

  __device__ __forceinline__ friend fp2_d operator+(const fp2_d& a, const fp2_d& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  __device__ __forceinline__ friend fp2_d operator-(const fp2_d& a, const fp2_d& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  __device__ __forceinline__ fp2_d operator-() const { return {-c0, -c1}; }
  __device__ __forceinline__ fp2_d dbl() const { return {c0.dbl(), c1.dbl()}; }

  // The product and the square are called, not inlined: a G2 point addition inlines ≈ 28 Fp
  // products of ≈ 600 instructions each, more code than the instruction caches hold, and the G2
  // MSM's accumulation stalled 2.58 cycles per instruction on instruction fetch. Out of line:
  // 0.09 cycles, the MSM at 2^22 153 → 140 ms; operands by value (in registers, where references
  // went through a 1.5 KB stack frame): 119 ms (H200, bench/results/h200/2026-12-04-msm-merge.md).
  // Fp's own product stays inline (out of line it made the G1 MSM 18 % slower). The square (two
  // Fp products) is inline again: on top of the by-value product, G2 MSM 2^22 119 → 106 ms
  // (bench/results/h200/2026-12-04-prover-lanes.md).
  __device__ __forceinline__ friend fp2_d operator*(const fp2_d& a, const fp2_d& b) {
    return mul_out_of_line(a, b);
  }
  /// Complex squaring, 2M: (a0 + a1)(a0 − a1) + 2·a0·a1·u.
  __device__ __forceinline__ fp2_d sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }

  /// Karatsuba, (a0 b0 − a1 b1) + ((a0 + a1)(b0 + b1) − a0 b0 − a1 b1)·u, with lazy reduction
  /// (words::mul2_lazy): three double-width products and two Montgomery reductions instead of
  /// three full Fp products' three (744 word products instead of 900).
  __device__ __noinline__ static fp2_d mul_out_of_line(fp2_d a, fp2_d b) {
    constexpr words_t<fp_d::n> p = fp_d::P;
    device_ops ops;
    fp2_d r;
    words::mul2_lazy<fp_d::n>(ops, r.c0.w, r.c1.w, a.c0.w, a.c1.w, b.c0.w, b.c1.w, p.v,
                              m0_const<fp_config>);
    return r;
  }

  /// a·b − c·d (dmont_t's member set; each product reduced on its own here).
  __device__ __forceinline__ static fp2_d mul_sub(const fp2_d& a, const fp2_d& b, const fp2_d& c,
                                                  const fp2_d& d) {
    return a * b - c * d;
  }

  __device__ __forceinline__ fp2_d& operator+=(const fp2_d& b) { return *this = *this + b; }
  __device__ __forceinline__ fp2_d& operator-=(const fp2_d& b) { return *this = *this - b; }
  __device__ __forceinline__ fp2_d& operator*=(const fp2_d& b) { return *this = *this * b; }
};

static_assert(sizeof(fp2_d) == sizeof(fp2_t) && alignof(fp2_d) <= alignof(fp2_t));

}  // namespace cuzk::ff::device
