// SPDX-License-Identifier: Apache-2.0
// Large CPU NTT round trips (2^22…2^24) and the cheap nr/rn pairing at those sizes (label slow).
#include <gtest/gtest.h>

#include <vector>

#include "ntt/ntt_cpu.hpp"
#include "test_rng.hpp"

namespace cuzk::ntt {
namespace {

using ff::fr_t;

TEST(ntt_slow, large_round_trips) {
  auto rng = test::test_rng::from_env("ntt_slow.large_round_trips");
  thread_pool& pool = thread_pool::default_pool();
  for (unsigned lg : {22u, 23u, 24u}) {
    auto d = domain_t::for_log_size(lg);
    ASSERT_TRUE(d.ok());
    std::vector<fr_t> x(d->size());
    for (auto& v : x) v = fr_t::random(rng);
    auto a = x;
    fft(*d, a, pool);
    // spot value: a[k] = Σ x[i]·ω^(ik)
    const uint64_t k = rng.below(d->size());
    const fr_t pt = d->omega().pow(k);
    fr_t v = fr_t::zero();
    for (size_t i = x.size(); i-- > 0;) v = v * pt + x[i];
    EXPECT_EQ(a[k], v) << "lg " << lg;
    ifft(*d, a, pool);
    EXPECT_EQ(a, x) << "ifft∘fft, lg " << lg;
    coset_fft(*d, a, pool, ntt_order::nr);
    icoset_fft(*d, a, pool, ntt_order::rn);
    EXPECT_EQ(a, x) << "icoset∘coset, lg " << lg;
  }
}

}  // namespace
}  // namespace cuzk::ntt
