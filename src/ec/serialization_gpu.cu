// SPDX-License-Identifier: Apache-2.0
// In-place device decode of uncompressed ZCash encodings (serialization_gpu.hpp). One thread per
// point: it loads the whole encoding into registers before storing the decoded point over it, so
// the in-place rewrite never races with another thread's read.
#include "ec/serialization_gpu.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include "ec/curves.hpp"
#include "ff/fp2_device.cuh"
#include "ff/mont_device.cuh"
#include "gpu/gpu_error.hpp"
#include "gpu/runtime.hpp"

namespace cuzk::ec::cuda {
namespace {

using ff::device::fp2_d;
using ff::device::fp_d;
using ff::device::words_t;

constexpr int WORDS = fp_d::n;  // 32-bit words per Fp coordinate (12)
constexpr int COORD_BYTES = 4 * WORDS;
static_assert(COORD_BYTES == 48);

/// An fp_t constant's Montgomery words (the host value's limbs, split).
constexpr words_t<WORDS> montgomery_words(const ff::fp_t& v) {
  ff::limbs<ff::fp_t::N> l{};
  for (size_t i = 0; i < ff::fp_t::N; ++i) l[i] = v.limb[i];
  return ff::device::split_words<ff::fp_t::N>(l);
}

/// R² mod p: a Montgomery product with it takes a canonical integer x to x·R.
constexpr words_t<WORDS> R2_WORDS = ff::device::split_words<ff::fp_t::N>(ff::fp_t::R2);
/// b of E1 (4) in Montgomery form; E2's b is 4 + 4u, the same word for both halves.
constexpr words_t<WORDS> B_WORDS = montgomery_words(curve_traits<ff::fp_t>::B);
static_assert(curve_traits<ff::fp2_t>::B.c0 == curve_traits<ff::fp_t>::B &&
              curve_traits<ff::fp2_t>::B.c1 == curve_traits<ff::fp_t>::B);

__device__ __forceinline__ fp_d from_words(const words_t<WORDS>& k) {
  fp_d r;
#pragma unroll
  for (int i = 0; i < WORDS; ++i) r.w[i] = k.v[i];
  return r;
}

/// Coordinate `c` of an encoding held as raw 32-bit words in memory order (big-endian bytes):
/// little-endian word t is the byte-swap of memory word 12c + 11 − t. The flag bits of the
/// first coordinate are kept: the caller has already rejected any that are set.
__device__ __forceinline__ fp_d coordinate(const uint32_t* raw, int c) {
  fp_d r;
#pragma unroll
  for (int t = 0; t < WORDS; ++t) r.w[t] = __byte_perm(raw[WORDS * c + WORDS - 1 - t], 0, 0x0123);
  return r;
}

/// x < p on canonical words.
__device__ __forceinline__ bool below_modulus(const fp_d& x) {
  constexpr words_t<WORDS> p = fp_d::P;
#pragma unroll
  for (int t = WORDS - 1; t >= 0; --t) {
    if (x.w[t] != p.v[t]) return x.w[t] < p.v[t];
  }
  return false;  // equal to p
}

/// The encoding's C coordinates (file order) as canonical words; false on a set flag bit, a
/// coordinate >= p, or all zero (infinity in memory).
template <int C>
__device__ __forceinline__ bool canonical_coordinates(const uint32_t* raw, fp_d (&c)[C]) {
  if ((raw[0] & 0xe0u) != 0) return false;  // byte 0 is the low byte of memory word 0
  bool any_nonzero = false;
#pragma unroll
  for (int k = 0; k < C; ++k) {
    c[k] = coordinate(raw, k);
    if (!below_modulus(c[k])) return false;
    any_nonzero |= !c[k].is_zero();
  }
  return any_nonzero;
}

__device__ __forceinline__ fp_d to_montgomery(const fp_d& canonical) {
  constexpr words_t<WORDS> r2 = R2_WORDS;  // a local constant: device code cannot read the global
  return canonical * from_words(r2);
}

__device__ __forceinline__ fp_d curve_b() {
  constexpr words_t<WORDS> b = B_WORDS;
  return from_words(b);
}

template <int C>
__device__ __forceinline__ void load_raw(const uint32_t* in, uint32_t (&raw)[C * WORDS]) {
  static_assert((C * WORDS) % 4 == 0);
#pragma unroll
  for (int v = 0; v < C * WORDS / 4; ++v) {
    const uint4 q = reinterpret_cast<const uint4*>(in)[v];
    raw[4 * v] = q.x, raw[4 * v + 1] = q.y, raw[4 * v + 2] = q.z, raw[4 * v + 3] = q.w;
  }
}

/// G1: x ‖ y in file order, stored as g1_affine_t. finish() converts the canonical coordinates
/// to Montgomery form, applies the curve check and stores the point; false: off the curve.
struct g1_codec {
  static constexpr int COORDS = 2;
  __device__ __forceinline__ static bool finish(const fp_d (&c)[COORDS], curve_check check,
                                                fp_d* out) {
    const fp_d x = to_montgomery(c[0]), y = to_montgomery(c[1]);
    if (check == curve_check::on_curve && !(y.sqr() == x.sqr() * x + curve_b())) return false;
    x.store(out);
    y.store(out + 1);
    return true;
  }
};

/// G2: x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 in file order, stored as g2_affine_t (x.c0, x.c1, y.c0, y.c1).
struct g2_codec {
  static constexpr int COORDS = 4;
  __device__ __forceinline__ static bool finish(const fp_d (&c)[COORDS], curve_check check,
                                                fp_d* out) {
    const fp2_d x{to_montgomery(c[1]), to_montgomery(c[0])};
    const fp2_d y{to_montgomery(c[3]), to_montgomery(c[2])};
    if (check == curve_check::on_curve) {
      const fp2_d b{curve_b(), curve_b()};
      if (!(y.sqr() == x.sqr() * x + b)) return false;
    }
    x.c0.store(out);
    x.c1.store(out + 1);
    y.c0.store(out + 2);
    y.c1.store(out + 3);
    return true;
  }
};

template <class Codec>
__global__ void decode_kernel(uint32_t* points, uint64_t count, uint64_t first_index,
                              curve_check check, unsigned long long* first_rejected) {
  constexpr int C = Codec::COORDS;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += uint64_t(gridDim.x) * blockDim.x) {
    uint32_t* at = points + i * (C * WORDS);
    uint32_t raw[C * WORDS];
    load_raw<C>(at, raw);
    fp_d c[C];
    if (!canonical_coordinates<C>(raw, c) || !Codec::finish(c, check, reinterpret_cast<fp_d*>(at)))
      atomicMin(first_rejected, static_cast<unsigned long long>(first_index + i));
  }
}

/// Threads per block and blocks: enough blocks to fill any device, the rest by the grid stride.
constexpr unsigned BLOCK = 256;
unsigned blocks_for(uint64_t count) {
  constexpr uint64_t MAX_BLOCKS = 1u << 16;
  const uint64_t b = (count + BLOCK - 1) / BLOCK;
  return unsigned(b < MAX_BLOCKS ? b : MAX_BLOCKS);
}

template <class Codec>
void launch_decode(void* d_points, uint64_t count, uint64_t first_index, curve_check check,
                   unsigned long long* d_first_rejected, const cuzk::gpu::stream& s) {
  if (count == 0) return;
  if (reinterpret_cast<uintptr_t>(d_points) % 16 != 0)
    throw std::invalid_argument("ec::cuda decode: the points must be 16-byte aligned");
  decode_kernel<Codec><<<blocks_for(count), BLOCK, 0, s.get()>>>(
      static_cast<uint32_t*>(d_points), count, first_index, check, d_first_rejected);
  CUZK_CUDA_OK(cudaGetLastError());
}

}  // namespace

void g1_from_uncompressed_in_place(void* d_points, uint64_t count, uint64_t first_index,
                                   curve_check check, unsigned long long* d_first_rejected,
                                   const cuzk::gpu::stream& s) {
  launch_decode<g1_codec>(d_points, count, first_index, check, d_first_rejected, s);
}

void g2_from_uncompressed_in_place(void* d_points, uint64_t count, uint64_t first_index,
                                   curve_check check, unsigned long long* d_first_rejected,
                                   const cuzk::gpu::stream& s) {
  launch_decode<g2_codec>(d_points, count, first_index, check, d_first_rejected, s);
}

}  // namespace cuzk::ec::cuda
