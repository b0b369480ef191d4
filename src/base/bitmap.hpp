// SPDX-License-Identifier: Apache-2.0
// Bit vectors for density trackers and the 0/1 scalar split: `bitmap` owns its words, `bitmap_view`
// is the read-only span the MSM and the provers take. Bit i is words[i / 64] >> (i % 64) & 1.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk {

struct bitmap_view {
  std::span<const uint64_t> words;
  size_t count = 0;  ///< number of bits

  bool test(size_t i) const { return (words[i / 64] >> (i % 64)) & 1; }
  /// Set bits among the first `count` (bits past `count` in the last word do not count).
  size_t popcount() const {
    const size_t nw = (count + 63) / 64;
    size_t n = 0;
    for (size_t i = 0; i < nw; ++i) {
      uint64_t w = words[i];
      if (i + 1 == nw && count % 64) w &= (uint64_t(1) << (count % 64)) - 1;
      n += size_t(std::popcount(w));
    }
    return n;
  }
};

/// A growable bit vector (bellperson's DensityTracker is one of these plus a running popcount).
class bitmap {
 public:
  bitmap() = default;
  explicit bitmap(size_t count) : words_((count + 63) / 64, 0), count_(count) {}

  size_t size() const { return count_; }
  size_t popcount() const { return popcount_; }
  bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  /// Sets bit i; returns true when it was clear.
  bool set(size_t i) {
    uint64_t& w = words_[i / 64];
    const uint64_t m = uint64_t(1) << (i % 64);
    if (w & m) return false;
    w |= m;
    ++popcount_;
    return true;
  }
  /// Appends one clear bit (a new variable).
  void push_back_clear() {
    if (count_ % 64 == 0) words_.push_back(0);
    ++count_;
  }
  /// Grows to `count` bits (count >= size()); the new bits are clear.
  void resize_clear(size_t count) {
    words_.resize((count + 63) / 64, 0);
    count_ = count;
  }
  /// Sets bit i while other threads may set bits of the same words (parallel synthesis fills
  /// disjoint variable ranges whose edges share words, and marks shared variables): an atomic OR,
  /// skipped when the bit is already set. popcount() is stale until recount().
  void set_concurrent(size_t i) {
    std::atomic_ref<uint64_t> w(words_[i / 64]);
    const uint64_t m = uint64_t(1) << (i % 64);
    if (!(w.load(std::memory_order_relaxed) & m)) w.fetch_or(m, std::memory_order_relaxed);
  }
  /// Recomputes popcount() after set_concurrent() calls (once all of them have returned).
  void recount() { popcount_ = view().popcount(); }
  void reserve(size_t count) { words_.reserve((count + 63) / 64); }
  /// Empties the bitmap and keeps its storage (a recycled buffer is not re-faulted).
  void clear() {
    words_.clear();
    count_ = 0;
    popcount_ = 0;
  }
  /// Bytes of storage held (capacity, not size).
  size_t capacity_bytes() const { return words_.capacity() * sizeof(uint64_t); }
  bitmap_view view() const { return {words_, count_}; }
  std::span<const uint64_t> words() const { return words_; }

 private:
  std::vector<uint64_t> words_;
  size_t count_ = 0;
  size_t popcount_ = 0;
};

}  // namespace cuzk
