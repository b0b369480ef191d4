// SPDX-License-Identifier: Apache-2.0
// Host entry points that run the device field and point arithmetic element-wise over host arrays:
// what the GPU arithmetic tests compare against the host types (ff/mont.hpp, ec/point.hpp). Free
// of CUDA headers. Each call copies in, runs one kernel, copies out, and throws gpu_error on a
// CUDA failure.
#pragma once

#include <span>

#include "ec/point.hpp"
#include "ff/fields.hpp"

namespace cuzk::ec::cuda {

/// mul and sqr run the device operator* and sqr() (the even/odd split multiply and squaring);
/// mul_cios the baseline CIOS and sqr_fast the squaring called directly: all the same results;
/// inverse the Fermat inversion (0 ↦ 0).
enum class field_op { add, sub, mul, sqr, neg, dbl, mul_cios, sqr_fast, inverse };

/// out[i] = op(a[i], b[i]) on the device (b ignored by the unary ops). All spans the same length.
void apply(field_op op, std::span<const ff::fp_t> a, std::span<const ff::fp_t> b,
           std::span<ff::fp_t> out);
void apply(field_op op, std::span<const ff::fr_t> a, std::span<const ff::fr_t> b,
           std::span<ff::fr_t> out);

/// The same for add, sub, mul, sqr, neg and dbl over ff::device::fp_lazy_d (values kept below
/// 2p): element i enters as a[i] + p when i is odd and b[i] + p when bit 1 of i is set (the other
/// representation of the same residue), the result leaves reduced below p. Other ops:
/// std::invalid_argument.
void apply_lazy(field_op op, std::span<const ff::fp_t> a, std::span<const ff::fp_t> b,
                std::span<ff::fp_t> out);

/// out[i] = acc[i] + q[i] (madd-2008-s on the device); `lazy`: over ff::device::fp_lazy_d, as the
/// MSM accumulation runs it.
void g1_add_affine(std::span<const ec::g1_xyzz_t> acc, std::span<const ec::g1_affine_t> q,
                   std::span<ec::g1_xyzz_t> out, bool lazy = false);
/// out[i] = a[i] + b[i] (add-2008-s), and out[i] = 2·a[i] when b is empty.
void g1_add(std::span<const ec::g1_xyzz_t> a, std::span<const ec::g1_xyzz_t> b,
            std::span<ec::g1_xyzz_t> out);

}  // namespace cuzk::ec::cuda
