// SPDX-License-Identifier: Apache-2.0
// Device point types over a device field (ff/mont_device.cuh): affine_d (same bytes as
// ec::affine_t, (0, 0) = infinity) and xyzz_d (same bytes as ec::xyzz_t, ZZ = 0 = infinity), with
// the EFD formulas the MSM buckets use (costs in M/S of the coordinate field). The host versions
// in ec/point.hpp are the reference these are tested against. Instantiated over fp_d (G1) and
// fp2_d (G2); the formulas use a = 0 only, which holds on both curves. nvcc only.
#pragma once

#include "ff/fp2_device.cuh"
#include "ff/mont_device.cuh"

namespace cuzk::ec::device {

template <class F>
struct affine_d {
  F x, y;
  __device__ __forceinline__ bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  /// −(x, y) = (x, −y); −(0, 0) = (0, 0) since −0 = 0 in the field code.
  __device__ __forceinline__ affine_d neg() const { return {x, -y}; }
};

template <class F>
struct xyzz_d {
  F x, y, zz, zzz;

  __device__ __forceinline__ static xyzz_d infinity() {
    return {F::one(), F::one(), F::zero(), F::zero()};
  }
  __device__ __forceinline__ bool is_infinity() const { return zz.is_zero(); }
  __device__ __forceinline__ static xyzz_d from_affine(const affine_d<F>& a) {
    return a.is_infinity() ? infinity() : xyzz_d{a.x, a.y, F::one(), F::one()};
  }

  /// dbl-2008-s-1 (a = 0), 6M + 3S.
  __device__ __forceinline__ xyzz_d dbl() const {
    if (is_infinity()) return *this;
    F u = y.dbl(), v = u.sqr(), w = u * v, s = x * v;
    F x2 = x.sqr(), m = x2.dbl() + x2;
    F x3 = m.sqr() - s.dbl();
    F y3 = F::mul_sub(m, s - x3, w, y);
    return {x3, y3, v * zz, w * zzz};
  }

  /// mdbl-2008-s-1, 3M + 2S.
  __device__ __forceinline__ static xyzz_d dbl_affine(const affine_d<F>& a) {
    F u = a.y.dbl(), v = u.sqr(), w = u * v, s = a.x * v;
    F x2 = a.x.sqr(), m = x2.dbl() + x2;
    F x3 = m.sqr() - s.dbl();
    F y3 = F::mul_sub(m, s - x3, w, a.y);
    return {x3, y3, v, w};
  }

  /// madd-2008-s (ZZ2 = ZZZ2 = 1), 8M + 2S: the bucket accumulation step. Handles infinity on
  /// either side, equal points (doubling) and opposite points (infinity).
  __device__ __forceinline__ void add_affine(const affine_d<F>& q) {
    if (q.is_infinity()) return;
    if (is_infinity()) {
      *this = from_affine(q);
      return;
    }
    F u2 = q.x * zz, s2 = q.y * zzz;
    F P = u2 - x, R = s2 - y;
    if (P.is_zero()) {
      *this = R.is_zero() ? dbl_affine(q) : infinity();
      return;
    }
    F pp = P.sqr(), ppp = P * pp, Q = x * pp;
    F x3 = R.sqr() - ppp - Q.dbl();
    F y3 = F::mul_sub(R, Q - x3, y, ppp);
    *this = {x3, y3, zz * pp, zzz * ppp};
  }

  /// add-2008-s, 12M + 2S.
  __device__ __forceinline__ void add(const xyzz_d& q) {
    if (q.is_infinity()) return;
    if (is_infinity()) {
      *this = q;
      return;
    }
    F u1 = x * q.zz, u2 = q.x * zz;
    F s1 = y * q.zzz, s2 = q.y * zzz;
    F P = u2 - u1, R = s2 - s1;
    if (P.is_zero()) {
      *this = R.is_zero() ? dbl() : infinity();
      return;
    }
    F pp = P.sqr(), ppp = P * pp, Q = u1 * pp;
    F x3 = R.sqr() - ppp - Q.dbl();
    F y3 = F::mul_sub(R, Q - x3, s1, ppp);
    *this = {x3, y3, zz * q.zz * pp, zzz * q.zzz * ppp};
  }
};

/// The same point with coordinates kept below 2p (ff::device::dmont_lazy_t), and back.
template <class C>
__device__ __forceinline__ affine_d<ff::device::dmont_lazy_t<C>> to_lazy(
    const affine_d<ff::device::dmont_t<C>>& a) {
  using L = ff::device::dmont_lazy_t<C>;
  return {L::from(a.x), L::from(a.y)};
}
template <class C>
__device__ __forceinline__ xyzz_d<ff::device::dmont_t<C>> reduced(
    const xyzz_d<ff::device::dmont_lazy_t<C>>& p) {
  return {p.x.reduced(), p.y.reduced(), p.zz.reduced(), p.zzz.reduced()};
}

using g1_affine_d = affine_d<ff::device::fp_d>;
using g1_xyzz_d = xyzz_d<ff::device::fp_d>;
static_assert(sizeof(g1_affine_d) == 96 && sizeof(g1_xyzz_d) == 192);
using g2_affine_d = affine_d<ff::device::fp2_d>;
using g2_xyzz_d = xyzz_d<ff::device::fp2_d>;
static_assert(sizeof(g2_affine_d) == 192 && sizeof(g2_xyzz_d) == 384);

}  // namespace cuzk::ec::device
