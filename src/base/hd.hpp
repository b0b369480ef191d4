// SPDX-License-Identifier: Apache-2.0
// Host/device function qualifiers. Arithmetic headers (.hpp) are valid C++ for both g++ and nvcc;
// they mark functions with CUZK_HD so nvcc also compiles them for the device. Keywords are never
// redefined (CONTRIBUTING.md "Code rules").
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__
#define CUZK_HD_INLINE __host__ __device__ __forceinline__
#else
#define CUZK_HD
#define CUZK_HD_INLINE inline __attribute__((always_inline))
#endif

// Force inlining of small hot functions (field operators, the assembly multiply). GCC otherwise
// keeps the 6-limb multiply out of line at many call sites, which costs 20-25 % in the MSM.
#if defined(__GNUC__) || defined(__clang__)
#define CUZK_ALWAYS_INLINE [[gnu::always_inline]]
#else
#define CUZK_ALWAYS_INLINE
#endif

// Fully unroll a fixed-trip-count loop (limb loops). GCC does not unroll at -O2 by default, and a
// rolled 6-limb carry loop costs several times the unrolled one.
#if defined(__CUDA_ARCH__)
#define CUZK_UNROLL _Pragma("unroll")
#elif defined(__clang__)
#define CUZK_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define CUZK_UNROLL _Pragma("GCC unroll 16")
#else
#define CUZK_UNROLL
#endif
