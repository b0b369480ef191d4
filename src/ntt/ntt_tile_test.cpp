// SPDX-License-Identifier: Apache-2.0
// The GPU NTT's pass arithmetic (ntt_tile.hpp) run on the CPU: a model that does what
// ntt_gpu.cu's transform_device does (same plan, tile indices, radix-4/radix-2 steps, inner and
// twist tables, fused coset and m^-1 factors), thread by thread between the kernel's barriers,
// checked against the CPU NTT for every kind and order at 2^1…2^14, and at 2^20 (two passes)
// and 2^21 (three); likewise the prover's chain (coset_evaluations, coset_quotient). Needs no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ntt/ntt_cpu.hpp"
#include "ntt/ntt_tile.hpp"
#include "test_rng.hpp"

namespace cuzk::ntt {
namespace {

using ff::fr_t;
using test::test_rng;

enum class kind { fft, ifft, coset_fft, icoset_fft };
constexpr kind ALL_KINDS[] = {kind::fft, kind::ifft, kind::coset_fft, kind::icoset_fft};
constexpr ntt_order ALL_ORDERS[] = {ntt_order::nn, ntt_order::nr, ntt_order::rn, ntt_order::rr};

struct host_tile {
  std::vector<fr_t> v;
  fr_t get(unsigned e) const { return v[e]; }
  void set(unsigned e, const fr_t& x) { v[e] = x; }
};

/// ntt_gpu.cu's scale_d.
struct scale_t {
  enum { none, constant, split, product_minus } mode = none;
  fr_t c{};
  const tile::split_powers_t* table = nullptr;
  const std::vector<fr_t>* mul = nullptr;
  const std::vector<fr_t>* sub = nullptr;
  fr_t apply(const fr_t& x, size_t i) const {
    if (mode == constant) return x * c;
    if (mode == product_minus) return x * mul->at(i) - sub->at(i);
    return x * table->at(i);
  }
};

/// ntt_pass_kernel<DIT> for every tile, the threads of a tile one after the other between barriers.
template <bool DIT>
void model_pass(std::vector<fr_t>& a, const tile::pass_t& p, unsigned lg_n,
                const std::vector<fr_t>& inner, const tile::split_powers_t& twist,
                const std::vector<fr_t>* single, const scale_t& pre, const scale_t& post) {
  // ntt_gpu.cu's twist_d: the pass's single table when it has one, else the split tables.
  const auto twist_at = [&](size_t b, unsigned e) {
    if (single != nullptr) return single->at(tile::twist_step(p, b, e));
    return twist.at(tile::twist_exponent(p, lg_n, b, e));
  };
  const unsigned T = 1u << p.lg_tile;
  const unsigned nt = tile::threads_per_tile(p);
  const unsigned lg_inner = tile::inner_log(lg_n);
  const auto in = [&](unsigned i) { return inner.at(i); };
  host_tile tl{std::vector<fr_t>(T)};
  for (size_t b = 0; b < tile::tiles(p, lg_n); ++b) {
    for (unsigned e = 0; e < T; ++e) {
      const size_t i = tile::element_index(p, b, e);
      fr_t x = a.at(i);
      if (pre.mode != scale_t::none) x = pre.apply(x, i);
      if (DIT && p.lg_slow != 0) x = x * twist_at(b, e);
      tl.set(e, x);
    }
    for (unsigned s = 0; s < tile::step_count(p); ++s)
      for (unsigned t = 0; t < nt; ++t) tile::run_step<DIT, fr_t>(tl, in, p, lg_inner, s, t);
    for (unsigned e = 0; e < T; ++e) {
      const size_t i = tile::element_index(p, b, e);
      fr_t x = tl.get(e);
      if (!DIT && p.lg_slow != 0) x = x * twist_at(b, e);
      if (post.mode != scale_t::none) x = post.apply(x, i);
      a.at(i) = x;
    }
  }
}

/// run_passes on the host: the plan's passes (reversed for DIT), pre on the first, post on the
/// last.
void model_passes(const domain_t& d, std::vector<fr_t>& a, bool dit, bool inverse,
                  const scale_t& pre, const scale_t& post) {
  const unsigned lg = d.log_size();
  const fr_t omega = inverse ? d.omega_inv() : d.omega();
  const std::vector<fr_t> inner = tile::inner_table(omega, lg);
  const tile::split_powers_t twist = tile::split_powers(omega, lg, fr_t::one());
  std::vector<tile::pass_t> passes = tile::plan(lg);
  if (dit) std::reverse(passes.begin(), passes.end());
  for (size_t i = 0; i < passes.size(); ++i) {
    const scale_t first = i == 0 ? pre : scale_t{};
    const scale_t last = i + 1 == passes.size() ? post : scale_t{};
    std::vector<fr_t> single_table;
    if (tile::single_twist(passes[i]))
      single_table = tile::single_twist_table(omega, lg, passes[i].k + passes[i].lg_slow);
    const std::vector<fr_t>* single = single_table.empty() ? nullptr : &single_table;
    if (dit) {
      model_pass<true>(a, passes[i], lg, inner, twist, single, first, last);
    } else {
      model_pass<false>(a, passes[i], lg, inner, twist, single, first, last);
    }
  }
}

/// coset_evaluations on the host: DIF inverse with m^-1·g^bitrev(i) as it stores, then DIT
/// forward.
void model_coset_evaluations(const domain_t& d, std::vector<fr_t>& a) {
  const tile::split_powers_t coset_scaled =
      tile::split_powers_bit_reversed(d.coset_gen(), d.log_size(), d.size_inv());
  scale_t post;
  post.mode = scale_t::split;
  post.table = &coset_scaled;
  model_passes(d, a, false, true, scale_t{}, post);
  model_passes(d, a, true, false, scale_t{}, scale_t{});
}

/// coset_quotient on the host: DIF inverse loading a·b − c, storing times
/// g^-bitrev(i)·m^-1·Z^-1, then the bit reversal.
void model_coset_quotient(const domain_t& d, std::vector<fr_t>& a, const std::vector<fr_t>& b,
                          const std::vector<fr_t>& c, thread_pool& pool) {
  const tile::split_powers_t quotient = tile::split_powers_bit_reversed(
      d.coset_gen_inv(), d.log_size(), d.size_inv() * d.z_coset_inv());
  scale_t pre;
  pre.mode = scale_t::product_minus;
  pre.mul = &b;
  pre.sub = &c;
  scale_t post;
  post.mode = scale_t::split;
  post.table = &quotient;
  model_passes(d, a, false, true, pre, post);
  bit_reverse(a, pool);
}

/// transform_device's sequence on the host.
void model(const domain_t& d, std::vector<fr_t>& a, kind k, ntt_order order, thread_pool& pool) {
  const unsigned lg = d.log_size();
  const bool inverse = k == kind::ifft || k == kind::icoset_fft;
  const bool dit = order == ntt_order::rn;
  // A bit-reversed array's factors come from the table built bit-reversed (as ntt_gpu.cu's *_br).
  const tile::split_powers_t coset =
      dit ? tile::split_powers_bit_reversed(d.coset_gen(), lg, fr_t::one())
          : tile::split_powers(d.coset_gen(), lg, fr_t::one());
  const tile::split_powers_t icoset =
      dit ? tile::split_powers(d.coset_gen_inv(), lg, d.size_inv())
          : tile::split_powers_bit_reversed(d.coset_gen_inv(), lg, d.size_inv());
  scale_t pre, post;
  if (k == kind::coset_fft) {
    pre.mode = scale_t::split;
    pre.table = &coset;
  } else if (k == kind::ifft) {
    post.mode = scale_t::constant;
    post.c = d.size_inv();
  } else if (k == kind::icoset_fft) {
    post.mode = scale_t::split;
    post.table = &icoset;
  }
  if (order == ntt_order::rr) bit_reverse(a, pool);
  model_passes(d, a, dit, inverse, pre, post);
  if (order == ntt_order::nn) bit_reverse(a, pool);
}

void reference(const domain_t& d, std::vector<fr_t>& a, kind k, ntt_order o, thread_pool& pool) {
  switch (k) {
    case kind::fft:
      fft(d, a, pool, o);
      break;
    case kind::ifft:
      ifft(d, a, pool, o);
      break;
    case kind::coset_fft:
      coset_fft(d, a, pool, o);
      break;
    case kind::icoset_fft:
      icoset_fft(d, a, pool, o);
      break;
  }
}

void check(unsigned lg, kind k, ntt_order o, test_rng& rng, thread_pool& pool) {
  auto d = domain_t::for_log_size(lg);
  ASSERT_TRUE(d.ok());
  std::vector<fr_t> a(d->size());
  for (auto& x : a) x = fr_t::random(rng);
  std::vector<fr_t> ref = a;
  reference(*d, ref, k, o, pool);
  model(*d, a, k, o, pool);
  size_t i = 0;
  while (i < a.size() && a[i] == ref[i]) ++i;
  EXPECT_EQ(i, a.size()) << "lg " << lg << " kind " << int(k) << " order " << int(o)
                         << ": first mismatch at " << i;
}

// The tables at bit-reversed exponents against s·x^bitrev(i) computed directly (x a random
// element, not only roots of unity), for every lg up to 13 (odd and even splits, lg 0 and 1).
TEST(NttTile, SplitPowersBitReversedAreThePowersAtBitrev) {
  auto rng = test_rng::from_env("NttTile.SplitPowersBitReversedAreThePowersAtBitrev");
  for (unsigned lg = 0; lg <= 13; ++lg) {
    const fr_t x = fr_t::random(rng), s = fr_t::random(rng);
    const tile::split_powers_t t = tile::split_powers_bit_reversed(x, lg, s);
    ASSERT_EQ(t.lo.size() * t.hi.size(), size_t(1) << lg);
    std::vector<fr_t> natural(size_t(1) << lg);
    fr_t acc = s;
    for (auto& v : natural) {
      v = acc;
      acc *= x;
    }
    for (size_t i = 0; i < natural.size(); ++i)
      ASSERT_EQ(t.at(i), natural[tile::bitrev(i, lg)]) << "lg " << lg << " i " << i;
  }
}

TEST(NttTile, PlanCoversEveryStageOnce) {
  for (unsigned lg = 1; lg <= 32; ++lg) {
    unsigned stages = 0, slow_above = lg;
    for (const tile::pass_t& p : tile::plan(lg)) {
      EXPECT_LE(p.lg_tile, tile::MAX_TILE_LG);
      EXPECT_LE(p.k, p.lg_tile);
      EXPECT_LE(p.lg_tile - p.k, p.lg_slow == 0 ? 0u : p.lg_slow);  // a row's columns fit in S
      EXPECT_EQ(p.lg_slow + p.k, slow_above);                       // contiguous in span
      EXPECT_LE(p.k, tile::inner_log(lg));
      slow_above = p.lg_slow;
      stages += p.k;
    }
    EXPECT_EQ(stages, lg);
    EXPECT_EQ(slow_above, 0u);
  }
}

TEST(NttTile, ElementIndicesArePermutations) {
  for (unsigned lg : {1u, 5u, 10u, 11u, 17u, 20u}) {
    for (const tile::pass_t& p : tile::plan(lg)) {
      std::vector<bool> seen(size_t(1) << lg, false);
      for (size_t b = 0; b < tile::tiles(p, lg); ++b)
        for (unsigned e = 0; e < (1u << p.lg_tile); ++e) {
          const size_t i = tile::element_index(p, b, e);
          ASSERT_LT(i, seen.size());
          EXPECT_FALSE(seen[i]) << "lg " << lg << " index " << i << " twice";
          seen[i] = true;
        }
    }
  }
}

/// The prover's chain (a, b, c → coset values → quotient coefficients, natural order) against the
/// CPU NTT's ifft, coset_fft, pointwise, icoset_fft.
void check_prover_chain(unsigned lg, test_rng& rng, thread_pool& pool) {
  auto d = domain_t::for_log_size(lg);
  ASSERT_TRUE(d.ok());
  std::vector<fr_t> v[3], ref[3];
  for (int j = 0; j < 3; ++j) {
    v[j].resize(d->size());
    for (auto& x : v[j]) x = fr_t::random(rng);
    ref[j] = v[j];
    ifft(*d, ref[j], pool);
    coset_fft(*d, ref[j], pool);
    model_coset_evaluations(*d, v[j]);
    EXPECT_EQ(v[j], ref[j]) << "lg " << lg << " coset evaluations of vector " << j;
  }
  for (size_t i = 0; i < d->size(); ++i)
    ref[0][i] = (ref[0][i] * ref[1][i] - ref[2][i]) * d->z_coset_inv();
  icoset_fft(*d, ref[0], pool);
  model_coset_quotient(*d, v[0], v[1], v[2], pool);
  EXPECT_EQ(v[0], ref[0]) << "lg " << lg << " quotient";
}

TEST(NttTile, ModelOfTheProverChainMatchesCpuNtt) {
  auto rng = test_rng::from_env("NttTile.ModelOfTheProverChainMatchesCpuNtt");
  thread_pool pool(2);
  for (unsigned lg = 1; lg <= 12; ++lg) check_prover_chain(lg, rng, pool);
  check_prover_chain(17, rng, pool);  // two passes
  check_prover_chain(21, rng, pool);  // three passes, as at 2^27
}

TEST(NttTile, ModelMatchesCpuNttSmall) {
  auto rng = test_rng::from_env("NttTile.ModelMatchesCpuNttSmall");
  thread_pool pool(2);
  for (unsigned lg = 1; lg <= 14; ++lg)
    for (kind k : ALL_KINDS)
      for (ntt_order o : ALL_ORDERS) check(lg, k, o, rng, pool);
}

TEST(NttTile, ModelMatchesCpuNtt2To20And2To21) {
  auto rng = test_rng::from_env("NttTile.ModelMatchesCpuNtt2To20And2To21");
  thread_pool pool(2);
  // The prover's three orders: iNTT n→r, coset NTT r→n, coset iNTT n→n.
  check(20, kind::ifft, ntt_order::nr, rng, pool);
  check(20, kind::coset_fft, ntt_order::rn, rng, pool);
  check(20, kind::icoset_fft, ntt_order::nn, rng, pool);
  check(21, kind::fft, ntt_order::nr, rng, pool);  // three passes
}

}  // namespace
}  // namespace cuzk::ntt
