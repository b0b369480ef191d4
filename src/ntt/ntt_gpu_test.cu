// SPDX-License-Identifier: Apache-2.0
// GPU NTT against the CPU reference (ntt_cpu.hpp): every kind at every size 2^0…2^22 in natural
// order, every order at a spread of sizes (single-pass, two-pass and three-pass plans), the
// prover's three transforms at 2^24 and 2^27, the prover's chain (coset evaluations and the fused
// quotient) from 2^1 to 2^27, plus round trips and the device-resident entry point.
// Label gpu: needs a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "gpu/device_memory.cuh"
#include "gpu_test_env.hpp"
#include "ntt/ntt_cpu.hpp"
#include "ntt/ntt_gpu.hpp"
#include "test_rng.hpp"

namespace cuzk::ntt {
namespace {

using cuda::ntt_kind;
using ff::fr_t;

std::vector<fr_t> random_vec(size_t n, test::test_rng& rng) {
  std::vector<fr_t> v(n);
  for (auto& x : v) x = fr_t::random(rng);
  return v;
}

void cpu_ref(const domain_t& d, std::vector<fr_t>& a, ntt_kind k, ntt_order o, thread_pool& pool) {
  switch (k) {
    case ntt_kind::fft:
      fft(d, a, pool, o);
      break;
    case ntt_kind::ifft:
      ifft(d, a, pool, o);
      break;
    case ntt_kind::coset_fft:
      coset_fft(d, a, pool, o);
      break;
    case ntt_kind::icoset_fft:
      icoset_fft(d, a, pool, o);
      break;
  }
}

/// Canonical elements from a splitmix stream (top limb below r's): fast enough for 2^27.
std::vector<fr_t> quick_random_vec(size_t n, uint64_t seed) {
  std::vector<fr_t> v(n);
  uint64_t z = seed;
  for (auto& x : v)
    for (unsigned j = 0; j < 4; ++j) {
      z += 0x9e3779b97f4a7c15ull;
      uint64_t w = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      w = (w ^ (w >> 27)) * 0x94d049bb133111ebull;
      x.limb[j] = w ^ (w >> 31);
    }
  for (auto& x : v) x.limb[3] &= 0x3fffffffffffffffull;  // < r: r's top limb is 0x73ed…
  return v;
}

size_t first_mismatch(const std::vector<fr_t>& a, const std::vector<fr_t>& b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return i;
  return a.size();
}

const char* kind_name(ntt_kind k) {
  switch (k) {
    case ntt_kind::fft:
      return "fft";
    case ntt_kind::ifft:
      return "ifft";
    case ntt_kind::coset_fft:
      return "coset_fft";
    case ntt_kind::icoset_fft:
      return "icoset_fft";
  }
  return "?";
}

void check(unsigned lg, ntt_kind k, ntt_order o, test::test_rng& rng, thread_pool& pool) {
  auto d = domain_t::for_log_size(lg);
  ASSERT_TRUE(d.ok());
  std::vector<fr_t> a = random_vec(d->size(), rng), ref = a;
  cpu_ref(*d, ref, k, o, pool);
  cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, a, k, o);
  const size_t i = first_mismatch(a, ref);
  EXPECT_EQ(i, a.size()) << "lg " << lg << " " << kind_name(k) << " order " << int(o)
                         << ": first mismatch at " << i;
}

constexpr ntt_kind KINDS[] = {ntt_kind::fft, ntt_kind::ifft, ntt_kind::coset_fft,
                              ntt_kind::icoset_fft};

TEST(NttGpu, AllKindsNaturalOrder) {
  auto rng = test::test_rng::from_env("NttGpu.AllKindsNaturalOrder");
  thread_pool pool;
  for (unsigned lg = 0; lg <= 22; ++lg)
    for (ntt_kind k : KINDS) check(lg, k, ntt_order::nn, rng, pool);
}

TEST(NttGpu, AllOrders) {
  auto rng = test::test_rng::from_env("NttGpu.AllOrders");
  thread_pool pool;
  for (unsigned lg : {1u, 2u, 3u, 9u, 10u, 11u, 14u, 19u, 20u, 21u})
    for (ntt_kind k : KINDS)
      for (ntt_order o : {ntt_order::nr, ntt_order::rn, ntt_order::rr}) check(lg, k, o, rng, pool);
}

/// The prover's sequence (iNTT n→r, coset NTT r→n, coset iNTT n→n) on 2^lg elements, GPU against
/// CPU after every transform.
void prover_sequence(unsigned lg) {
  auto d = domain_t::for_log_size(lg);
  ASSERT_TRUE(d.ok());
  thread_pool pool;
  std::vector<fr_t> a = quick_random_vec(d->size(), lg), ref = a;
  const std::pair<ntt_kind, ntt_order> steps[] = {{ntt_kind::ifft, ntt_order::nr},
                                                  {ntt_kind::coset_fft, ntt_order::rn},
                                                  {ntt_kind::icoset_fft, ntt_order::nn}};
  for (const auto& [k, o] : steps) {
    cpu_ref(*d, ref, k, o, pool);
    cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, a, k, o);
    const size_t i = first_mismatch(a, ref);
    EXPECT_EQ(i, a.size()) << "lg " << lg << " " << kind_name(k) << " order " << int(o)
                           << ": first mismatch at " << i;
  }
}

TEST(NttGpu, ProverSequence2To24And2To27) {
  prover_sequence(24);
  prover_sequence(27);
}

/// The prover's chain on the device (coset_evaluations for a, b, c, then coset_quotient) against
/// the CPU's ifft, coset_fft, pointwise (a·b − c)·Z^-1, icoset_fft (natural order throughout);
/// `edge` fills b with −1 and c with 0 (the values of bit-heavy rows).
void prover_chain(unsigned lg, bool edge) {
  auto d = domain_t::for_log_size(lg);
  ASSERT_TRUE(d.ok());
  thread_pool pool;
  const size_t m = d->size();
  std::vector<fr_t> v[3], ref[3];
  cuzk::gpu::device_context& ctx = test::gpu_ctx();
  const cuzk::gpu::stream& strm = test::gpu_stream();
  const cuzk::gpu::device_scope scope(ctx);
  cuzk::gpu::device_buffer<fr_t> dv[3] = {cuzk::gpu::device_buffer<fr_t>(m),
                                          cuzk::gpu::device_buffer<fr_t>(m),
                                          cuzk::gpu::device_buffer<fr_t>(m)};
  for (int j = 0; j < 3; ++j) {
    v[j] = quick_random_vec(m, 1000 * lg + j);
    if (edge && j > 0) std::fill(v[j].begin(), v[j].end(), j == 1 ? -fr_t::one() : fr_t::zero());
    ref[j] = v[j];
    ifft(*d, ref[j], pool);
    coset_fft(*d, ref[j], pool);
    dv[j].upload(v[j].data(), m, strm);
    cuda::coset_evaluations(ctx, strm, *d, dv[j].data());
    dv[j].download(v[j].data(), m, strm);
    const size_t i = first_mismatch(v[j], ref[j]);
    EXPECT_EQ(i, m) << "lg " << lg << " coset evaluations of vector " << j << ": first mismatch at "
                    << i;
  }
  for (size_t i = 0; i < m; ++i) ref[0][i] = (ref[0][i] * ref[1][i] - ref[2][i]) * d->z_coset_inv();
  icoset_fft(*d, ref[0], pool);
  cuda::coset_quotient(ctx, strm, *d, dv[0].data(), dv[1].data(), dv[2].data());
  dv[0].download(v[0].data(), m, strm);
  const size_t i = first_mismatch(v[0], ref[0]);
  EXPECT_EQ(i, m) << "lg " << lg << " quotient: first mismatch at " << i;
  // b and c are only read.
  std::vector<fr_t> b_after(m);
  dv[1].download(b_after.data(), m, strm);
  EXPECT_EQ(first_mismatch(b_after, ref[1]), m) << "lg " << lg << " b written";
}

TEST(NttGpu, ProverChain) {
  for (unsigned lg : {1u, 2u, 3u, 9u, 10u, 11u, 14u, 17u, 20u, 21u, 24u}) prover_chain(lg, false);
  prover_chain(16, true);
  prover_chain(27, false);
}

TEST(NttGpu, RoundTripAndEdgeValues) {
  auto rng = test::test_rng::from_env("NttGpu.RoundTripAndEdgeValues");
  auto d = domain_t::for_log_size(16);
  ASSERT_TRUE(d.ok());
  std::vector<fr_t> a = random_vec(d->size(), rng), orig = a;
  cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, a, ntt_kind::ifft, ntt_order::nr);
  cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, a, ntt_kind::fft, ntt_order::rn);
  EXPECT_EQ(first_mismatch(a, orig), a.size());
  cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, a, ntt_kind::coset_fft);
  cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, a, ntt_kind::icoset_fft);
  EXPECT_EQ(first_mismatch(a, orig), a.size());
  // Zero stays zero; the fft of a unit impulse is all ones; -1 = p - 1 values survive reduction.
  std::vector<fr_t> z(d->size(), fr_t::zero());
  cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, z, ntt_kind::fft);
  EXPECT_EQ(first_mismatch(z, std::vector<fr_t>(d->size(), fr_t::zero())), z.size());
  std::vector<fr_t> e(d->size(), fr_t::zero());
  e[0] = fr_t::one();
  cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, e, ntt_kind::fft);
  EXPECT_EQ(first_mismatch(e, std::vector<fr_t>(d->size(), fr_t::one())), e.size());
  thread_pool pool;
  std::vector<fr_t> m(d->size(), -fr_t::one()), mref = m;
  cuda::transform(test::gpu_ctx(), test::gpu_stream(), *d, m, ntt_kind::coset_fft);
  coset_fft(*d, mref, pool);
  EXPECT_EQ(first_mismatch(m, mref), m.size());
}

}  // namespace
}  // namespace cuzk::ntt
