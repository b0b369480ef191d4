// SPDX-License-Identifier: Apache-2.0
// GPU G1 MSM and batch addition against the CPU reference (msm_cpu.hpp) at sizes 2^1…2^20 and
// non-powers of two, with zero scalars, ±1 scalars, infinity bases, repeated bases and forced
// window widths up to 24 (buckets of a few points, and buckets spanning many accumulation
// ranges); the largest size is also checked against one scalar multiplication (bases
// P_i = (a + i·s)·G, so Σ k_i·P_i = (Σ k_i·(a + i·s))·G). The G2 MSM and G2 batch addition get
// the same treatment at 2^1…2^16 (same kernels over Fp2). The streamed MSM (msm_accumulator) is
// checked against the CPU over uneven chunks of G1 and G2 terms. Label gpu: needs a CUDA device.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/batch_inverse.hpp"
#include "gpu/device_memory.cuh"
#include "gpu_test_env.hpp"
#include "msm/msm_cpu.hpp"
#include "msm/msm_gpu.hpp"
#include "test_rng.hpp"

namespace cuzk::msm {
namespace {

using ec::g1_affine_t;
using ec::g1_jacobian_t;
using ec::g2_affine_t;
using ec::g2_jacobian_t;
using ff::fp2_t;
using ff::fp_t;
using ff::fr_t;

struct bases_t {
  std::vector<g1_affine_t> pts;
  fr_t a, s;  // P_i = (a + i·s)·G
};

bases_t make_bases(size_t n, test::test_rng& rng) {
  bases_t b{std::vector<g1_affine_t>(n), fr_t::random(rng), fr_t::random(rng)};
  std::vector<g1_jacobian_t> jac(n);
  const g1_jacobian_t step = ec::mul(ec::g1_generator(), b.s);
  g1_jacobian_t p = ec::mul(ec::g1_generator(), b.a);
  for (size_t i = 0; i < n; ++i) {
    jac[i] = p;
    p += step;
  }
  std::vector<fp_t> zinv(n);
  for (size_t i = 0; i < n; ++i) zinv[i] = jac[i].z;
  ff::batch_inverse<fp_t>(zinv);
  for (size_t i = 0; i < n; ++i) {
    const fp_t zi2 = zinv[i].sqr();
    b.pts[i] = jac[i].is_infinity() ? g1_affine_t::infinity()
                                    : g1_affine_t{jac[i].x * zi2, jac[i].y * zi2 * zinv[i]};
  }
  return b;
}

std::vector<fr_t> random_scalars(size_t n, test::test_rng& rng) {
  std::vector<fr_t> v(n);
  for (auto& x : v) x = fr_t::random(rng);
  return v;
}

thread_pool& pool() {
  static thread_pool p;
  return p;
}

void expect_same(std::span<const g1_affine_t> b, std::span<const fr_t> k, const char* what,
                 unsigned window = 0) {
  msm_config cfg;
  cfg.window_bits = window;
  const g1_jacobian_t ref = msm::msm(b, k, pool());
  const g1_jacobian_t got = cuda::msm(test::gpu_ctx(), test::gpu_stream(), b, k, cfg);
  EXPECT_TRUE(got == ref) << what << " n=" << b.size() << " window=" << window;
}

TEST(MsmGpu, PowersOfTwoAndOthers) {
  auto rng = test::test_rng::from_env("MsmGpu.PowersOfTwoAndOthers");
  const bases_t b = make_bases(1 << 20, rng);
  const std::vector<fr_t> k = random_scalars(1 << 20, rng);
  for (unsigned lg = 1; lg <= 20; ++lg) {
    const size_t n = size_t(1) << lg;
    expect_same({b.pts.data(), n}, {k.data(), n}, "random");
  }
  for (size_t n : {1u, 3u, 5u, 63u, 100u, 1000u, 12345u, 100003u, 777777u})
    expect_same({b.pts.data(), n}, {k.data(), n}, "non-power");
  // Independent check at 2^20: Σ k_i·(a + i·s) in Fr, times G.
  fr_t e = fr_t::zero(), x = b.a;
  for (size_t i = 0; i < k.size(); ++i) {
    e += k[i] * x;
    x += b.s;
  }
  EXPECT_TRUE(cuda::msm(test::gpu_ctx(), test::gpu_stream(), b.pts, k) ==
              ec::mul(ec::g1_generator(), e))
      << "scalar-sum oracle";
}

TEST(MsmGpu, SpecialScalarsAndBases) {
  auto rng = test::test_rng::from_env("MsmGpu.SpecialScalarsAndBases");
  const size_t n = 1 << 14;
  bases_t b = make_bases(n, rng);
  std::vector<fr_t> k = random_scalars(n, rng);
  // all zero scalars -> infinity
  std::vector<fr_t> zeros(n, fr_t::zero());
  EXPECT_TRUE(cuda::msm(test::gpu_ctx(), test::gpu_stream(), b.pts, zeros).is_infinity());
  // mixed zeros, ones, minus ones, small values
  for (size_t i = 0; i < n; ++i) {
    switch (i % 5) {
      case 0:
        k[i] = fr_t::zero();
        break;
      case 1:
        k[i] = fr_t::one();
        break;
      case 2:
        k[i] = -fr_t::one();
        break;
      case 3:
        k[i] = fr_t::from_uint(i);
        break;
      default:
        break;
    }
  }
  expect_same(b.pts, k, "special scalars");
  // infinity bases sprinkled in
  std::vector<g1_affine_t> with_inf = b.pts;
  for (size_t i = 0; i < n; i += 3) with_inf[i] = g1_affine_t::infinity();
  expect_same(with_inf, k, "infinity bases");
  std::vector<g1_affine_t> all_inf(n, g1_affine_t::infinity());
  EXPECT_TRUE(cuda::msm(test::gpu_ctx(), test::gpu_stream(), all_inf, k).is_infinity());
  // repeated bases: one point everywhere (doublings inside buckets), and equal scalars
  std::vector<g1_affine_t> same(n, b.pts[7]);
  expect_same(same, k, "repeated bases");
  std::vector<fr_t> same_k(n, k[9]);
  expect_same(b.pts, same_k, "repeated scalar");
  expect_same(same, same_k, "repeated base and scalar");
  // a point next to its negation
  std::vector<g1_affine_t> pm = b.pts;
  for (size_t i = 1; i < n; i += 2) pm[i] = -pm[i - 1];
  std::vector<fr_t> kk(n, fr_t::from_uint(5));
  EXPECT_TRUE(cuda::msm(test::gpu_ctx(), test::gpu_stream(), pm, kk).is_infinity());
  expect_same(pm, k, "opposite pairs");
}

TEST(MsmGpu, WindowWidths) {
  auto rng = test::test_rng::from_env("MsmGpu.WindowWidths");
  const size_t n = 30000;
  const bases_t b = make_bases(n, rng);
  const std::vector<fr_t> k = random_scalars(n, rng);
  for (unsigned c : {2u, 3u, 5u, 8u, 11u, 13u, 16u, 17u, 20u, 21u, 22u, 24u})
    expect_same(b.pts, k, "window", c);
}

// The balanced accumulation at the wide windows of large MSMs: buckets of a few points (c = 22),
// buckets that span many accumulation ranges (few distinct scalars), long runs of zero digits
// (small scalars) and infinity bases inside the runs.
TEST(MsmGpu, WideWindowsAndHeavyBuckets) {
  auto rng = test::test_rng::from_env("MsmGpu.WideWindowsAndHeavyBuckets");
  const size_t n = (size_t(1) << 18) + 77;
  const bases_t b = make_bases(n, rng);
  std::vector<fr_t> k = random_scalars(n, rng);
  for (unsigned c : {0u, 18u, 22u}) expect_same(b.pts, k, "random", c);
  const fr_t few[3] = {k[1], fr_t::from_uint(3), -fr_t::from_uint(2)};
  std::vector<fr_t> heavy(n);
  for (size_t i = 0; i < n; ++i) heavy[i] = i % 11 == 0 ? fr_t::zero() : few[i % 3];
  for (unsigned c : {0u, 16u, 22u}) expect_same(b.pts, heavy, "three scalars", c);
  std::vector<fr_t> small(n);
  for (size_t i = 0; i < n; ++i) small[i] = fr_t::from_uint(rng() & 0xffff);
  for (unsigned c : {0u, 22u}) expect_same(b.pts, small, "16-bit scalars", c);
  std::vector<g1_affine_t> with_inf = b.pts;
  for (size_t i = 0; i < n; i += 4) with_inf[i] = g1_affine_t::infinity();
  expect_same(with_inf, heavy, "three scalars, infinity bases", 22);
}

TEST(MsmGpu, BatchAdd) {
  auto rng = test::test_rng::from_env("MsmGpu.BatchAdd");
  const size_t nmax = 1 << 20;
  bases_t b = make_bases(nmax, rng);
  std::vector<uint64_t> words((nmax + 63) / 64);
  for (auto& w : words) w = rng() & rng();  // ~25 % density
  for (size_t n : {1u, 2u, 63u, 64u, 65u, 1000u, 4097u, 65536u, 300001u, 1u << 20}) {
    const bitmap_view m{{words.data(), (n + 63) / 64}, n};
    const std::span<const g1_affine_t> bs{b.pts.data(), n};
    EXPECT_TRUE(cuda::batch_add(test::gpu_ctx(), test::gpu_stream(), bs, m) ==
                msm::batch_add(bs, m, pool()))
        << "n=" << n;
  }
  const size_t n = 1 << 16;
  std::vector<uint64_t> none(n / 64, 0), all(n / 64, ~uint64_t(0));
  const std::span<const g1_affine_t> bs{b.pts.data(), n};
  EXPECT_TRUE(cuda::batch_add(test::gpu_ctx(), test::gpu_stream(), bs, {none, n}).is_infinity());
  EXPECT_TRUE(cuda::batch_add(test::gpu_ctx(), test::gpu_stream(), bs, {all, n}) ==
              msm::batch_add(bs, {all, n}, pool()));
  std::vector<g1_affine_t> mixed(b.pts.begin(), b.pts.begin() + n);
  for (size_t i = 0; i < n; i += 5) mixed[i] = g1_affine_t::infinity();
  for (size_t i = 1; i < n; i += 7) mixed[i] = mixed[0];
  EXPECT_TRUE(cuda::batch_add(test::gpu_ctx(), test::gpu_stream(), mixed, {all, n}) ==
              msm::batch_add(mixed, {all, n}, pool()));
}

// Every thread adds the same number of ones wherever they lie (batch_per_thread): thread spans
// that start mid-word, span empty words, or several in one word, on uniform, skewed (dense head,
// empty tail) and sparse masks, with the per-thread count forced through its whole range.
TEST(MsmGpu, BatchAddBalancedThreads) {
  auto rng = test::test_rng::from_env("MsmGpu.BatchAddBalancedThreads");
  const size_t n = (1 << 16) + 77;
  bases_t b = make_bases(n, rng);
  const size_t nwords = (n + 63) / 64;
  std::vector<uint64_t> uniform(nwords), skewed(nwords), sparse(nwords);
  for (auto& w : uniform) w = rng();
  for (size_t wi = 0; wi < nwords / 8; ++wi) skewed[wi] = rng() | rng();
  for (size_t i = 5; i < n; i += 1001) sparse[i / 64] |= uint64_t(1) << (i % 64);
  const std::span<const g1_affine_t> bs{b.pts.data(), n};
  const std::pair<const char*, const std::vector<uint64_t>*> masks[] = {
      {"uniform", &uniform}, {"skewed", &skewed}, {"sparse", &sparse}};
  for (const auto& [name, words] : masks) {
    const bitmap_view m{*words, n};
    const auto want = msm::batch_add(bs, m, pool());
    for (uint32_t per : {0u, 1u, 7u, 16u, 64u, 100u, 256u}) {
      EXPECT_TRUE(cuda::batch_add(test::gpu_ctx(), test::gpu_stream(), bs, m, {per}) == want)
          << "mask " << name << " per_thread=" << per;
    }
  }
}

// ---- G2 -----------------------------------------------------------------------------------

struct g2_bases_t {
  std::vector<g2_affine_t> pts;
  fr_t a, s;  // P_i = (a + i·s)·G2
};

g2_bases_t make_g2_bases(size_t n, test::test_rng& rng) {
  g2_bases_t b{std::vector<g2_affine_t>(n), fr_t::random(rng), fr_t::random(rng)};
  std::vector<g2_jacobian_t> jac(n);
  const g2_jacobian_t step = ec::mul(g2_jacobian_t::from_affine(ec::g2_generator()), b.s);
  g2_jacobian_t p = ec::mul(g2_jacobian_t::from_affine(ec::g2_generator()), b.a);
  for (size_t i = 0; i < n; ++i) {
    jac[i] = p;
    p += step;
  }
  std::vector<fp2_t> zinv(n);
  for (size_t i = 0; i < n; ++i) zinv[i] = jac[i].z;
  ff::batch_inverse<fp2_t>(zinv);
  for (size_t i = 0; i < n; ++i) {
    const fp2_t zi2 = zinv[i].sqr();
    b.pts[i] = jac[i].is_infinity() ? g2_affine_t::infinity()
                                    : g2_affine_t{jac[i].x * zi2, jac[i].y * zi2 * zinv[i]};
  }
  return b;
}

void expect_same_g2(std::span<const g2_affine_t> b, std::span<const fr_t> k, const char* what,
                    unsigned window = 0) {
  msm_config cfg;
  cfg.window_bits = window;
  const g2_jacobian_t ref = msm::msm(b, k, pool());
  const g2_jacobian_t got = cuda::msm(test::gpu_ctx(), test::gpu_stream(), b, k, cfg);
  EXPECT_TRUE(got == ref) << what << " n=" << b.size() << " window=" << window;
}

TEST(MsmGpuG2, PowersOfTwoAndOthers) {
  auto rng = test::test_rng::from_env("MsmGpuG2.PowersOfTwoAndOthers");
  const g2_bases_t b = make_g2_bases(1 << 16, rng);
  const std::vector<fr_t> k = random_scalars(1 << 16, rng);
  for (unsigned lg = 1; lg <= 16; ++lg) {
    const size_t n = size_t(1) << lg;
    expect_same_g2({b.pts.data(), n}, {k.data(), n}, "random");
  }
  for (size_t n : {1u, 3u, 63u, 1000u, 12345u})
    expect_same_g2({b.pts.data(), n}, {k.data(), n}, "non-power");
  // Independent check at 2^16: Σ k_i·(a + i·s) in Fr, times G2.
  fr_t e = fr_t::zero(), x = b.a;
  for (size_t i = 0; i < k.size(); ++i) {
    e += k[i] * x;
    x += b.s;
  }
  EXPECT_TRUE(cuda::msm(test::gpu_ctx(), test::gpu_stream(), std::span<const g2_affine_t>(b.pts),
                        k) == ec::mul(g2_jacobian_t::from_affine(ec::g2_generator()), e))
      << "scalar-sum oracle";
}

TEST(MsmGpuG2, SpecialScalarsBasesAndWindows) {
  auto rng = test::test_rng::from_env("MsmGpuG2.SpecialScalarsBasesAndWindows");
  const size_t n = 1 << 12;
  const g2_bases_t b = make_g2_bases(n, rng);
  std::vector<fr_t> k = random_scalars(n, rng);
  const std::span<const g2_affine_t> pts(b.pts);
  std::vector<fr_t> zeros(n, fr_t::zero());
  EXPECT_TRUE(cuda::msm(test::gpu_ctx(), test::gpu_stream(), pts, zeros).is_infinity());
  for (size_t i = 0; i < n; ++i) {
    if (i % 5 == 0) k[i] = fr_t::zero();
    if (i % 5 == 1) k[i] = fr_t::one();
    if (i % 5 == 2) k[i] = -fr_t::one();
    if (i % 5 == 3) k[i] = fr_t::from_uint(i);
  }
  expect_same_g2(pts, k, "special scalars");
  std::vector<g2_affine_t> with_inf = b.pts;
  for (size_t i = 0; i < n; i += 3) with_inf[i] = g2_affine_t::infinity();
  expect_same_g2(with_inf, k, "infinity bases");
  std::vector<g2_affine_t> all_inf(n, g2_affine_t::infinity());
  EXPECT_TRUE(
      cuda::msm(test::gpu_ctx(), test::gpu_stream(), std::span<const g2_affine_t>(all_inf), k)
          .is_infinity());
  std::vector<g2_affine_t> same(n, b.pts[7]);
  expect_same_g2(same, k, "repeated bases");
  std::vector<fr_t> same_k(n, k[9]);
  expect_same_g2(pts, same_k, "repeated scalar");
  std::vector<g2_affine_t> pm = b.pts;
  for (size_t i = 1; i < n; i += 2) pm[i] = -pm[i - 1];
  std::vector<fr_t> kk(n, fr_t::from_uint(5));
  EXPECT_TRUE(cuda::msm(test::gpu_ctx(), test::gpu_stream(), std::span<const g2_affine_t>(pm), kk)
                  .is_infinity());
  expect_same_g2(pm, k, "opposite pairs");
  for (unsigned c : {2u, 5u, 8u, 13u, 16u, 22u}) expect_same_g2(pts, k, "window", c);
  std::vector<fr_t> heavy(n, k[3]);
  for (size_t i = 0; i < n; i += 7) heavy[i] = fr_t::one();
  for (unsigned c : {0u, 22u}) expect_same_g2(pts, heavy, "two scalars", c);
}

TEST(MsmGpuG2, BatchAdd) {
  auto rng = test::test_rng::from_env("MsmGpuG2.BatchAdd");
  const size_t nmax = 1 << 16;
  g2_bases_t b = make_g2_bases(nmax, rng);
  std::vector<uint64_t> words((nmax + 63) / 64);
  for (auto& w : words) w = rng() & rng();
  for (size_t n : {1u, 63u, 65u, 4097u, 1u << 16}) {
    const bitmap_view m{{words.data(), (n + 63) / 64}, n};
    const std::span<const g2_affine_t> bs{b.pts.data(), n};
    EXPECT_TRUE(cuda::batch_add(test::gpu_ctx(), test::gpu_stream(), bs, m) ==
                msm::batch_add(bs, m, pool()))
        << "n=" << n;
  }
  std::vector<g2_affine_t> mixed(b.pts.begin(), b.pts.begin() + 4096);
  for (size_t i = 0; i < mixed.size(); i += 5) mixed[i] = g2_affine_t::infinity();
  for (size_t i = 1; i < mixed.size(); i += 7) mixed[i] = mixed[1];
  std::vector<uint64_t> all(64, ~uint64_t(0));
  const std::span<const g2_affine_t> ms(mixed);
  EXPECT_TRUE(cuda::batch_add(test::gpu_ctx(), test::gpu_stream(), ms, {all, 4096}) ==
              msm::batch_add(ms, {all, 4096}, pool()));
  for (uint32_t per : {1u, 64u, 256u}) {
    EXPECT_TRUE(cuda::batch_add(test::gpu_ctx(), test::gpu_stream(), ms, {all, 4096}, {per}) ==
                msm::batch_add(ms, {all, 4096}, pool()))
        << "per_thread=" << per;
  }
}

/// Σ bases over the set bits of words through one batch_accumulator, chunk by chunk (chunk
/// lengths summing to b.size(), each but the last a whole number of words: ring chunks), with a
/// per-thread count (0: batch_per_thread's); then once more, the total having been reset by
/// result().
template <class Affine>
auto batch_in_chunks(std::span<const Affine> b, const std::vector<uint64_t>& words,
                     const std::vector<size_t>& chunks, uint32_t per = 0) {
  cuzk::gpu::device_buffer<Affine> db(b.size());
  cuzk::gpu::device_buffer<uint64_t> dw(words.size());
  db.upload(b.data(), b.size(), test::gpu_stream());
  dw.upload(words.data(), words.size(), test::gpu_stream());
  cuda::batch_accumulator<Affine> acc(test::gpu_ctx(), test::gpu_stream());
  const auto once = [&] {
    size_t first = 0;
    for (size_t len : chunks) {
      acc.add(db.data() + first, dw.data() + first / 64, len, {per});
      first += len;
    }
    return acc.result();
  };
  const auto r = once();
  EXPECT_TRUE(once() == r) << "the total reused after result()";
  EXPECT_TRUE(acc.result().is_infinity()) << "result() leaves the total at infinity";
  return r;
}

// A streamed query's ones summed chunk by chunk on the device (no count read back a chunk: the
// threads a chunk's bits could need beyond its ones add nothing), against the CPU's batch
// addition of the whole: dense and sparse chunks, a chunk without ones, one of every bit, a
// partial last word, per-thread counts forced; G1 and G2.
TEST(MsmGpu, BatchAccumulatorSumsChunksOnTheDevice) {
  auto rng = test::test_rng::from_env("MsmGpu.BatchAccumulatorSumsChunksOnTheDevice");
  const std::vector<size_t> chunks = {65536, 4096, 64, 128 * 64, 100000 - 100000 % 64, 1077};
  size_t n = 0;
  for (size_t len : chunks) n += len;
  bases_t b = make_bases(n, rng);
  std::vector<uint64_t> words((n + 63) / 64);
  for (auto& w : words) w = rng() | rng();                                 // ~75 % ones
  for (size_t i = 65536 / 64; i < (65536 + 4096) / 64; ++i) words[i] = 0;  // a chunk of none
  for (size_t i = (65536 + 4096) / 64; i < (65536 + 4096 + 64) / 64; ++i) words[i] = ~uint64_t(0);
  for (size_t i = (65536 + 4096 + 64) / 64; i < (65536 + 4096 + 64 + 128 * 64) / 64; ++i)
    words[i] = rng() & rng() & rng();  // ~12 %
  const std::span<const g1_affine_t> bs{b.pts.data(), n};
  const auto want = msm::batch_add(bs, {words, n}, pool());
  for (uint32_t per : {0u, 1u, 7u, 256u})
    EXPECT_TRUE(batch_in_chunks(bs, words, chunks, per) == want) << "per_thread=" << per;
  std::vector<uint64_t> none(words.size(), 0);
  EXPECT_TRUE(batch_in_chunks(bs, none, chunks).is_infinity());

  const std::vector<size_t> g2_chunks = {4096, 64, 3000};
  g2_bases_t g2 = make_g2_bases(4096 + 64 + 3000, rng);
  std::vector<uint64_t> g2_words((g2.pts.size() + 63) / 64);
  for (auto& w : g2_words) w = rng() & rng();
  const std::span<const g2_affine_t> g2s(g2.pts);
  EXPECT_TRUE(batch_in_chunks(g2s, g2_words, g2_chunks) ==
              msm::batch_add(g2s, {g2_words, g2.pts.size()}, pool()));
}

/// Σ k_i·b_i through one msm_accumulator, the terms added in chunks of the given lengths (which
/// sum to b.size()), chunks of at most max_chunk; `again` adds the terms a second time after a
/// first result() (which must then equal the second).
template <class Affine>
auto accumulate_in_chunks(std::span<const Affine> b, std::span<const fr_t> k,
                          const std::vector<size_t>& chunks, size_t max_chunk,
                          const msm_config& cfg = {}) {
  cuzk::gpu::device_buffer<Affine> db(b.size());
  cuzk::gpu::device_buffer<fr_t> dk(k.size());
  db.upload(b.data(), b.size(), test::gpu_stream());
  dk.upload(k.data(), k.size(), test::gpu_stream());
  cuda::msm_accumulator<Affine> acc(test::gpu_ctx(), test::gpu_stream(), b.size(), max_chunk, cfg);
  const auto once = [&] {
    size_t first = 0;
    for (size_t len : chunks) {
      acc.add(db.data() + first, dk.data() + first, len);
      first += len;
    }
    return acc.result();
  };
  const auto r = once();
  EXPECT_TRUE(once() == r) << "the accumulator reused after result()";
  return r;
}

/// Uneven chunk lengths summing to n, none above max_chunk (some of 1 term, one of max_chunk).
std::vector<size_t> uneven_chunks(size_t n, size_t max_chunk, test::test_rng& rng) {
  std::vector<size_t> out;
  for (size_t left = n; left != 0;) {
    size_t len = out.size() % 5 == 1 ? 1 : out.size() % 5 == 2 ? max_chunk : 1 + rng() % max_chunk;
    len = std::min(len, left);
    out.push_back(len);
    left -= len;
  }
  return out;
}

TEST(MsmGpuAccumulator, ChunksAgainstCpu) {
  auto rng = test::test_rng::from_env("MsmGpuAccumulator.ChunksAgainstCpu");
  const size_t n = (size_t(1) << 18) + 77, max_chunk = size_t(1) << 15;
  const bases_t b = make_bases(n, rng);
  const std::vector<fr_t> k = random_scalars(n, rng);
  const g1_jacobian_t ref = msm::msm(b.pts, k, pool());
  const std::vector<size_t> chunks = uneven_chunks(n, max_chunk, rng);
  EXPECT_TRUE(accumulate_in_chunks<g1_affine_t>(b.pts, k, chunks, max_chunk) == ref) << "default";
  EXPECT_TRUE(accumulate_in_chunks<g1_affine_t>(b.pts, k, {n}, n) == ref) << "one chunk";
  for (unsigned c : {5u, 13u, 22u}) {
    msm_config cfg;
    cfg.window_bits = c;
    EXPECT_TRUE(accumulate_in_chunks<g1_affine_t>(b.pts, k, chunks, max_chunk, cfg) == ref)
        << "window " << c;
  }
  // Windows in several groups per chunk (a small card's group bytes).
  msm_config small;
  small.device_group_bytes = size_t(4) << 20;
  EXPECT_TRUE(accumulate_in_chunks<g1_affine_t>(b.pts, k, chunks, max_chunk, small) == ref)
      << "small groups";
  // Heavy buckets that span chunks and ranges, zero and ±1 scalars, infinity bases.
  const fr_t few[4] = {k[1], fr_t::one(), -fr_t::one(), fr_t::zero()};
  std::vector<fr_t> heavy(n);
  for (size_t i = 0; i < n; ++i) heavy[i] = few[i % 4];
  std::vector<g1_affine_t> with_inf = b.pts;
  for (size_t i = 0; i < n; i += 9) with_inf[i] = g1_affine_t::infinity();
  const g1_jacobian_t heavy_ref = msm::msm(with_inf, heavy, pool());
  for (unsigned c : {0u, 22u}) {
    msm_config cfg;
    cfg.window_bits = c;
    EXPECT_TRUE(accumulate_in_chunks<g1_affine_t>(with_inf, heavy, chunks, max_chunk, cfg) ==
                heavy_ref)
        << "heavy buckets, window " << c;
  }
  // Nothing added: infinity.
  cuda::msm_accumulator<g1_affine_t> empty(test::gpu_ctx(), test::gpu_stream(), n, max_chunk);
  EXPECT_TRUE(empty.result().is_infinity());
}

TEST(MsmGpuAccumulator, G2ChunksAgainstCpu) {
  auto rng = test::test_rng::from_env("MsmGpuAccumulator.G2ChunksAgainstCpu");
  const size_t n = (size_t(1) << 13) + 5, max_chunk = 700;
  const g2_bases_t b = make_g2_bases(n, rng);
  std::vector<fr_t> k = random_scalars(n, rng);
  for (size_t i = 0; i < n; i += 6) k[i] = fr_t::one();
  const g2_jacobian_t ref = msm::msm(std::span<const g2_affine_t>(b.pts), k, pool());
  const std::vector<size_t> chunks = uneven_chunks(n, max_chunk, rng);
  for (unsigned c : {0u, 9u, 16u}) {
    msm_config cfg;
    cfg.window_bits = c;
    EXPECT_TRUE(accumulate_in_chunks<g2_affine_t>(b.pts, k, chunks, max_chunk, cfg) == ref)
        << "window " << c;
  }
}

}  // namespace
}  // namespace cuzk::msm
