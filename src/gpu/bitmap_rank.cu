// SPDX-License-Identifier: Apache-2.0
#include "gpu/bitmap_rank.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cub/device/device_scan.cuh>

#include "base/check.hpp"
#include "gpu/device_memory.cuh"

namespace cuzk::gpu {
namespace {

__global__ void word_popcount_kernel(const uint64_t* words, size_t n, size_t nwords,
                                     uint32_t* count) {
  const size_t wi = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (wi < nwords) count[wi] = uint32_t(__popcll(bitmap_word(words, wi, n)));
}

}  // namespace

void rank_bitmap_words(const uint64_t* d_words, size_t n, uint32_t* d_count, uint32_t* d_rank,
                       const stream& s) {
  if (n == 0) return;
  if (n >= (size_t(1) << 32)) precondition_failed(__func__, "%zu bits exceed 2^32 - 1", n);
  const size_t nwords = (n + 63) / 64;
  const cudaStream_t st = s.get();
  constexpr unsigned threads = 256;
  word_popcount_kernel<<<unsigned((nwords + threads - 1) / threads), threads, 0, st>>>(
      d_words, n, nwords, d_count);
  CUZK_CUDA_LAUNCH_OK();
  size_t temp_bytes = 0;
  CUZK_CUDA_OK(
      cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, d_count, d_rank, int(nwords), st));
  // Never a null temporary: CUB would take it for another size query and scan nothing.
  device_buffer<uint8_t> temp(std::max<size_t>(temp_bytes, 1));
  CUZK_CUDA_OK(
      cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, d_count, d_rank, int(nwords), st));
}

}  // namespace cuzk::gpu
