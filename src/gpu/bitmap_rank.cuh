// SPDX-License-Identifier: Apache-2.0
// Device bitmaps in bitmap_view's layout (base/bitmap.hpp: bit i = word i/64 bit i%64, the bits of
// the last word past the count are garbage): a word with those bits cleared, and the rank of
// every word (the ones before it), which turns "the k-th one" into "word w, bit j" for kernels
// that compact or split by a bitmap. nvcc only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu/runtime.hpp"

namespace cuzk::gpu {

/// Word wi of a device bitmap of n bits, the bits at or past n cleared.
__device__ __forceinline__ uint64_t bitmap_word(const uint64_t* words, size_t wi, size_t n) {
  const uint64_t w = words[wi];
  const size_t tail = n - wi * 64;  // bits of this word inside the bitmap
  return tail >= 64 ? w : w & ((uint64_t(1) << tail) - 1);
}

/// For the ⌈n/64⌉ words of the device bitmap d_words (n < 2^32): d_count[i] = the ones of word i,
/// d_rank[i] = the ones of words 0…i−1 (exclusive scan); enqueued on `s` (temporary device memory
/// is freed when the call returns, after the work it was enqueued for).
void rank_bitmap_words(const uint64_t* d_words, size_t n, uint32_t* d_count, uint32_t* d_rank,
                       const stream& s);

}  // namespace cuzk::gpu
