// SPDX-License-Identifier: Apache-2.0
// Device field inversion by Fermat: inverse(a) = a^(p−2) for dmont_t (0 ↦ 0, as the host's
// mont_t::inverse), and (c0 + c1·u)^-1 = (c0 − c1·u)/(c0² + c1²) for fp2_d. Left-to-right
// square-and-multiply over the bits of p − 2: ≈ 32n squarings + 16n multiplications for n 32-bit
// words (Fp: ≈ 380 S + 190 M). Slow next to a batch inversion; for kernels that normalise one
// point per thread (the setup's fixed-base kernel, groth16/setup_gpu.cu). Tested against the host
// in ec/arith_gpu_test (field_op::inverse). nvcc only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/fp2_device.cuh"
#include "ff/mont_device.cuh"

namespace cuzk::ff::device {

/// p − 2 word by word, the borrow carried (r's low word is 1).
template <size_t N32>
constexpr words_t<N32> minus_two(words_t<N32> p) {
  uint32_t borrow = 2;
  for (size_t i = 0; i < N32 && borrow != 0; ++i) {
    const uint32_t w = p.v[i];
    p.v[i] = w - borrow;
    borrow = w < borrow ? 1u : 0u;
  }
  return p;
}

/// The Fermat exponent of dmont_t<Config>, evaluated on the host at compile time.
template <class Config>
inline constexpr words_t<2 * Config::N> P_MINUS_2 = minus_two(dmont_t<Config>::P);

template <class Config>
__device__ dmont_t<Config> inverse(const dmont_t<Config>& a) {
  using F = dmont_t<Config>;
  constexpr words_t<2 * Config::N> e = P_MINUS_2<Config>;  // a local copy, as dmont_t::one()
  F r = F::one();
#pragma unroll
  for (int i = F::n - 1; i >= 0; --i) {
    const uint32_t word = e.v[i];
#pragma unroll 1
    for (int bit = 31; bit >= 0; --bit) {
      r = r.sqr();
      if ((word >> bit) & 1u) r *= a;
    }
  }
  return r;
}

__device__ inline fp2_d inverse(const fp2_d& a) {
  const fp_d t = inverse(a.c0.sqr() + a.c1.sqr());
  return {a.c0 * t, -(a.c1 * t)};
}

}  // namespace cuzk::ff::device
