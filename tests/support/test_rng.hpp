// SPDX-License-Identifier: Apache-2.0
// test_rng: xoshiro256** seeded from CUZK_TEST_SEED when set, else from std::random_device. The
// seed is printed so any failure can be replayed: CUZK_TEST_SEED=<seed> ./ff_test.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace cuzk::test {

class test_rng {
 public:
  explicit test_rng(uint64_t seed) { reseed(seed); }
  /// Seed from the environment or fresh entropy, logging it with `what` (usually the test name).
  static test_rng from_env(const char* what) {
    uint64_t seed;
    if (const char* s = std::getenv("CUZK_TEST_SEED")) {
      seed = std::strtoull(s, nullptr, 0);
    } else {
      std::random_device rd;
      seed = (uint64_t(rd()) << 32) ^ rd();
    }
    std::printf("[seed] %s: CUZK_TEST_SEED=%llu\n", what, (unsigned long long)seed);
    std::fflush(stdout);
    return test_rng(seed);
  }
  void reseed(uint64_t seed) {
    // splitmix64 expands the seed into the 256-bit state
    for (auto& s : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      s = z ^ (z >> 31);
    }
  }
  using result_type = uint64_t;
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t(0); }
  uint64_t operator()() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform in [0, n).
  uint64_t below(uint64_t n) { return n ? (*this)() % n : 0; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace cuzk::test
