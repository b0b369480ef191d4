// SPDX-License-Identifier: Apache-2.0
// MSM tests against two independent references: a naive double-and-add Σ k_i·P_i (small sizes),
// and, for bases built as P_i = (a + i·s)·G, the single scalar multiplication (Σ k_i·(a + i·s))·G
// whose scalar is computed in Fr (all sizes). Covers edge sizes, special scalars, infinity and
// repeated bases, density/mask variants, batch_add, split_witness, threads and window widths, and
// the GPU MSM's range and partial-sum index arithmetic (msm_gpu_plan.hpp) with integer sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <vector>

#include "gmp_oracle.hpp"
#include "msm/msm_cpu.hpp"
#include "msm/msm_gpu_plan.hpp"
#include "test_rng.hpp"

namespace cuzk::msm {
namespace {

using ec::affine_t;
using ec::jacobian_t;
using ff::fp2_t;
using ff::fp_t;
using ff::fr_t;
using test::test_rng;

fp_t fp_hex(const char* h) {
  return test::field_from_mpz<fp_t>(mpz_class(h, 16));
}

affine_t<fp_t> g1_gen() {
  return {fp_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aef"
                 "fb3af00adb22c6bb"),
          fp_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae4"
                 "0caa232946c5e7e1")};
}
affine_t<fp2_t> g2_gen() {
  return {{fp_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbef"
                  "d48056c8c121bdb8"),
           fp_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57"
                  "e5ac7d055d042b7e")},
          {fp_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289"
                  "e193548608b82801"),
           fp_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1"
                  "aaa9075ff05f79be")}};
}

template <class Field>
affine_t<Field> generator();
template <>
affine_t<fp_t> generator<fp_t>() {
  return g1_gen();
}
template <>
affine_t<fp2_t> generator<fp2_t>() {
  return g2_gen();
}

/// Reference scalar multiplication: left-to-right double-and-add over the canonical bits.
template <class Field>
jacobian_t<Field> naive_mul(const fr_t& k, const affine_t<Field>& p) {
  const ff::limbs<4> bits = k.to_canonical();
  jacobian_t<Field> acc = jacobian_t<Field>::infinity();
  for (int i = 255; i >= 0; --i) {
    acc = acc.dbl();
    if ((bits[i / 64] >> (i % 64)) & 1) acc = acc.add_affine(p);
  }
  return acc;
}

template <class Field>
jacobian_t<Field> naive_msm(const std::vector<affine_t<Field>>& b, const std::vector<fr_t>& k) {
  jacobian_t<Field> acc = jacobian_t<Field>::infinity();
  for (size_t i = 0; i < b.size(); ++i) acc += naive_mul(k[i], b[i]);
  return acc;
}

/// Jacobian points to affine with one inversion (Montgomery's trick).
template <class Field>
std::vector<affine_t<Field>> normalize(const std::vector<jacobian_t<Field>>& pts) {
  std::vector<Field> pre(pts.size());
  Field acc = Field::one();
  for (size_t i = 0; i < pts.size(); ++i) {
    pre[i] = acc;
    if (!pts[i].is_infinity()) acc *= pts[i].z;
  }
  Field inv = acc.inverse();
  std::vector<affine_t<Field>> out(pts.size());
  for (size_t i = pts.size(); i-- > 0;) {
    if (pts[i].is_infinity()) {
      out[i] = affine_t<Field>::infinity();
      continue;
    }
    const Field zi = inv * pre[i];
    inv *= pts[i].z;
    const Field zi2 = zi.sqr();
    out[i] = {pts[i].x * zi2, pts[i].y * zi2 * zi};
  }
  return out;
}

/// Bases P_i = (a + i·s)·G with their discrete logs.
template <class Field>
struct base_set {
  std::vector<affine_t<Field>> pts;
  std::vector<fr_t> logs;

  base_set(size_t n, test_rng& rng) {
    const fr_t a = fr_t::random(rng), s = fr_t::random(rng);
    const affine_t<Field> g = generator<Field>();
    const affine_t<Field> step = naive_mul(s, g).to_affine();
    std::vector<jacobian_t<Field>> jac(n);
    jacobian_t<Field> cur = naive_mul(a, g);
    fr_t log = a;
    for (size_t i = 0; i < n; ++i) {
      jac[i] = cur;
      logs.push_back(log);
      cur = cur.add_affine(step);
      log += s;
    }
    pts = normalize(jac);
  }
};

/// (Σ k_i·log_i)·G, or the same restricted to `sel`.
template <class Field>
jacobian_t<Field> log_reference(const std::vector<fr_t>& logs, const std::vector<fr_t>& k) {
  fr_t e = fr_t::zero();
  for (size_t i = 0; i < k.size(); ++i) e += k[i] * logs[i];
  return naive_mul(e, generator<Field>());
}

std::vector<fr_t> random_scalars(size_t n, test_rng& rng) {
  std::vector<fr_t> k(n);
  for (auto& x : k) x = fr_t::random(rng);
  return k;
}

fr_t r_minus_1() {
  return -fr_t::one();
}

std::vector<uint64_t> random_bitmap(size_t n, unsigned percent, test_rng& rng) {
  std::vector<uint64_t> w((n + 63) / 64, 0);
  for (size_t i = 0; i < n; ++i) {
    if (rng.below(100) < percent) w[i / 64] |= uint64_t(1) << (i % 64);
  }
  return w;
}

bool bit(const std::vector<uint64_t>& w, size_t i) {
  return (w[i / 64] >> (i % 64)) & 1;
}

thread_pool& pool1() {
  static thread_pool p(1);
  return p;
}
thread_pool& pool2() {
  static thread_pool p(2);
  return p;
}
thread_pool& pool3() {
  static thread_pool p(3);
  return p;
}

template <class Field>
void check_sizes(const std::vector<size_t>& sizes, size_t naive_limit, const char* name) {
  auto rng = test_rng::from_env(name);
  for (size_t n : sizes) {
    base_set<Field> bs(n, rng);
    std::vector<fr_t> k = random_scalars(n, rng);
    if (n > 3) {
      k[0] = r_minus_1();
      k[1] = fr_t::one();
      k[2] = fr_t::from_uint(2);
    }
    const auto want = log_reference<Field>(bs.logs, k);
    if (n <= naive_limit) {
      EXPECT_EQ(naive_msm(bs.pts, k), want) << "naive vs log, n=" << n;
    }
    EXPECT_EQ(msm(std::span<const affine_t<Field>>(bs.pts), k, pool1()), want) << "n=" << n;
    EXPECT_EQ(msm(std::span<const affine_t<Field>>(bs.pts), k, pool2()), want) << "n=" << n;
    if (n > 0) {
      // the comparison is not vacuous: one changed scalar changes the result
      k[n - 1] += fr_t::one();
      EXPECT_NE(msm(std::span<const affine_t<Field>>(bs.pts), k, pool2()), want) << "n=" << n;
    }
  }
}

TEST(Msm, G1Sizes) {
  check_sizes<fp_t>({0, 1, 2, 3, 7, 100, 1000, 4096}, 1000, "Msm.G1Sizes");
}
TEST(Msm, G2Sizes) {
  check_sizes<fp2_t>({0, 1, 2, 3, 7, 100, 600}, 100, "Msm.G2Sizes");
}

TEST(Msm, WindowsAndThreadsAgree) {
  auto rng = test_rng::from_env("Msm.WindowsAndThreadsAgree");
  const size_t n = 1500;
  base_set<fp_t> bs(n, rng);
  std::vector<fr_t> k = random_scalars(n, rng);
  // the largest scalars stress the top window of the signed-digit recoding
  k[0] = r_minus_1();
  k[1] = r_minus_1() - fr_t::one();
  k[2] = fr_t::one();
  const auto want = log_reference<fp_t>(bs.logs, k);
  for (unsigned c : {2u, 3u, 4u, 5u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u}) {
    for (thread_pool* p : {&pool1(), &pool2(), &pool3()}) {
      EXPECT_EQ(msm(std::span<const ec::g1_affine_t>(bs.pts), k, *p, {c}), want)
          << "c=" << c << " threads=" << p->size();
    }
  }
  base_set<fp2_t> bs2(300, rng);
  std::vector<fr_t> k2 = random_scalars(300, rng);
  const auto want2 = log_reference<fp2_t>(bs2.logs, k2);
  for (unsigned c : {3u, 8u, 9u, 12u}) {
    EXPECT_EQ(msm(std::span<const ec::g2_affine_t>(bs2.pts), k2, pool2(), {c}), want2) << c;
  }
}

TEST(Msm, AllZeroScalarsAndInfinityBases) {
  auto rng = test_rng::from_env("Msm.AllZero");
  base_set<fp_t> bs(300, rng);
  std::vector<fr_t> zero(300, fr_t::zero());
  EXPECT_TRUE(msm(std::span<const ec::g1_affine_t>(bs.pts), zero, pool2()).is_infinity());
  std::vector<ec::g1_affine_t> inf(300, ec::g1_affine_t::infinity());
  std::vector<fr_t> k = random_scalars(300, rng);
  EXPECT_TRUE(msm(std::span<const ec::g1_affine_t>(inf), k, pool2()).is_infinity());
  // mixed: every third base at infinity contributes nothing
  std::vector<fr_t> kk = k;
  for (size_t i = 0; i < 300; i += 3) {
    bs.pts[i] = ec::g1_affine_t::infinity();
    kk[i] = fr_t::zero();
  }
  EXPECT_EQ(msm(std::span<const ec::g1_affine_t>(bs.pts), k, pool2()),
            log_reference<fp_t>(bs.logs, kk));
}

TEST(Msm, RepeatedBases) {
  // The same point many times: additions inside a bucket hit P + P (tangent case) and P + (−P).
  auto rng = test_rng::from_env("Msm.RepeatedBases");
  for (size_t n : {2u, 50u, 2000u}) {
    const ec::g1_affine_t g = g1_gen();
    std::vector<ec::g1_affine_t> b(n, g);
    for (size_t i = 1; i < n; i += 2) b[i] = -g;
    for (int mode = 0; mode < 3; ++mode) {
      std::vector<fr_t> k(n);
      fr_t sum = fr_t::zero();
      for (size_t i = 0; i < n; ++i) {
        // mode 0: random; 1: one scalar for all (one bucket per window); 2: few distinct values
        k[i] = mode == 0   ? fr_t::random(rng)
               : mode == 1 ? fr_t::from_uint(12345)
                           : fr_t::from_uint(1 + rng.below(5));
        sum += i % 2 ? -k[i] : k[i];
      }
      for (unsigned c : {0u, 8u, 9u}) {
        EXPECT_EQ(msm(std::span<const ec::g1_affine_t>(b), k, pool2(), {c}), naive_mul(sum, g))
            << "n=" << n << " mode=" << mode << " c=" << c;
      }
    }
  }
}

template <class Field>
void check_dense(size_t n, const char* name) {
  auto rng = test_rng::from_env(name);
  base_set<Field> bs(n, rng);
  std::vector<fr_t> k = random_scalars(n, rng);
  for (unsigned percent : {0u, 50u, 100u}) {
    const auto dens = random_bitmap(n, percent, rng);
    const bitmap_view view{dens, n};
    // bellperson form: bases listed only for set bits
    std::vector<affine_t<Field>> compact;
    std::vector<fr_t> logs_sel, k_sel;
    for (size_t i = 0; i < n; ++i) {
      if (!bit(dens, i)) continue;
      compact.push_back(bs.pts[i]);
      logs_sel.push_back(bs.logs[i]);
      k_sel.push_back(k[i]);
    }
    const auto want = log_reference<Field>(logs_sel, k_sel);
    EXPECT_EQ(msm_dense(std::span<const affine_t<Field>>(compact), k, view, pool2()), want)
        << percent;
    EXPECT_EQ(msm_masked(std::span<const affine_t<Field>>(bs.pts), k, view, pool1()), want)
        << percent;
  }
}

TEST(Msm, DensityG1) {
  check_dense<fp_t>(2000, "Msm.DensityG1");
}
TEST(Msm, DensityG2) {
  check_dense<fp2_t>(400, "Msm.DensityG2");
}

template <class Field>
void check_batch_add(size_t n, const char* name) {
  auto rng = test_rng::from_env(name);
  base_set<Field> bs(n, rng);
  // duplicates (tangent), negations (cancellation) and infinity in the mix
  if (n > 10) {
    bs.pts[3] = bs.pts[2];
    bs.logs[3] = bs.logs[2];
    bs.pts[5] = -bs.pts[4];
    bs.logs[5] = -bs.logs[4];
    bs.pts[7] = affine_t<Field>::infinity();
    bs.logs[7] = fr_t::zero();
  }
  for (unsigned percent : {0u, 50u, 100u}) {
    const auto mask = random_bitmap(n, percent, rng);
    std::vector<fr_t> ones(n);
    jacobian_t<Field> naive = jacobian_t<Field>::infinity();
    for (size_t i = 0; i < n; ++i) {
      ones[i] = bit(mask, i) ? fr_t::one() : fr_t::zero();
      if (bit(mask, i)) naive = naive.add_affine(bs.pts[i]);
    }
    const auto got2 = batch_add(std::span<const affine_t<Field>>(bs.pts), {mask, n}, pool2());
    EXPECT_EQ(got2, naive) << percent;
    EXPECT_EQ(got2, log_reference<Field>(bs.logs, ones)) << percent;
    EXPECT_EQ(batch_add(std::span<const affine_t<Field>>(bs.pts), {mask, n}, pool1()), naive);
  }
}

TEST(BatchAdd, G1) {
  check_batch_add<fp_t>(9000, "BatchAdd.G1");
  check_batch_add<fp_t>(5, "BatchAdd.G1small");
}
TEST(BatchAdd, G2) {
  check_batch_add<fp2_t>(1000, "BatchAdd.G2");
}

TEST(SplitWitness, ClassifiesAndRecombines) {
  auto rng = test_rng::from_env("SplitWitness");
  const size_t n = 3000;
  base_set<fp_t> bs(n, rng);
  std::vector<fr_t> k(n);
  for (auto& x : k) {
    const uint64_t t = rng.below(3);
    x = t == 0 ? fr_t::zero() : t == 1 ? fr_t::one() : fr_t::random(rng);
  }
  const witness_split_t s = split_witness(k, nullptr, pool2());
  ASSERT_EQ(s.count, n);
  EXPECT_TRUE(s.scalars.empty());
  EXPECT_EQ(s.num_zero + s.num_one + s.num_other, n);
  size_t z = 0;
  for (size_t i = 0; i < n; ++i) {
    z += k[i].is_zero();
    EXPECT_EQ(bit(s.ones, i), k[i] == fr_t::one()) << i;
    EXPECT_EQ(bit(s.others, i), !k[i].is_zero() && k[i] != fr_t::one()) << i;
  }
  EXPECT_EQ(z, s.num_zero);
  const auto span = std::span<const ec::g1_affine_t>(bs.pts);
  const auto want = log_reference<fp_t>(bs.logs, k);
  EXPECT_EQ(msm_masked(span, k, s.others_view(), pool2()) + batch_add(span, s.ones_view(), pool2()),
            want);

  // with a density: bitmaps and scalars over the compacted bases
  const auto dens = random_bitmap(n, 60, rng);
  const bitmap_view dv{dens, n};
  const witness_split_t sd = split_witness(k, &dv, pool2());
  std::vector<ec::g1_affine_t> compact;
  std::vector<fr_t> logs_sel, k_sel;
  for (size_t i = 0; i < n; ++i) {
    if (!bit(dens, i)) continue;
    compact.push_back(bs.pts[i]);
    logs_sel.push_back(bs.logs[i]);
    k_sel.push_back(k[i]);
  }
  ASSERT_EQ(sd.count, compact.size());
  ASSERT_EQ(sd.scalars.size(), compact.size());
  EXPECT_EQ(sd.num_zero + sd.num_one + sd.num_other, compact.size());
  const auto cspan = std::span<const ec::g1_affine_t>(compact);
  const auto want_d = log_reference<fp_t>(logs_sel, k_sel);
  EXPECT_EQ(msm_dense(cspan, k, dv, pool2()), want_d);
  EXPECT_EQ(msm_masked(cspan, sd.scalars, sd.others_view(), pool2()) +
                batch_add(cspan, sd.ones_view(), pool2()),
            want_d);
}

// The parallel split equals a one-thread split, for sizes around word and chunk boundaries, with
// and without a density (sparse, dense, and with garbage bits past `count` in the last word).
TEST(SplitWitness, ThreadIndependent) {
  auto rng = test_rng::from_env("SplitWitness.ThreadIndependent");
  thread_pool one(1);
  for (size_t n : {size_t(1), size_t(63), size_t(64), size_t(65), size_t(1000), size_t(64 * 97 + 5),
                   size_t(100000)}) {
    std::vector<fr_t> k(n);
    for (auto& x : k) {
      const uint64_t t = rng.below(3);
      x = t == 0 ? fr_t::zero() : t == 1 ? fr_t::one() : fr_t::random(rng);
    }
    for (unsigned pct : {0u, 3u, 25u, 100u}) {
      std::vector<uint64_t> dens = random_bitmap(n, pct, rng);
      if (n % 64) dens.back() |= ~((uint64_t(1) << (n % 64)) - 1);  // bits past count: ignored
      const bitmap_view dv{dens, n};
      for (const bitmap_view* d : {static_cast<const bitmap_view*>(nullptr), &dv}) {
        const witness_split_t a = split_witness(k, d, one), b = split_witness(k, d, pool3());
        EXPECT_EQ(a.count, b.count);
        EXPECT_EQ(a.ones, b.ones) << n << " " << pct;
        EXPECT_EQ(a.others, b.others) << n << " " << pct;
        EXPECT_EQ(a.scalars, b.scalars) << n << " " << pct;
        EXPECT_EQ(a.num_zero, b.num_zero);
        EXPECT_EQ(a.num_one, b.num_one);
        EXPECT_EQ(a.num_other, b.num_other);
        EXPECT_EQ(a.num_zero + a.num_one + a.num_other, a.count);
        size_t expect = n;
        if (d) expect = dv.popcount();
        EXPECT_EQ(a.count, expect);
      }
    }
  }
}

TEST(Msm, WindowChoice) {
  for (size_t lg = 0; lg <= 24; ++lg) {
    for (unsigned t : {1u, 2u, 16u}) {
      const unsigned c = choose_window(size_t(1) << lg, t);
      EXPECT_GE(c, 2u);
      EXPECT_LE(c, 16u);
    }
  }
  EXPECT_GE(choose_window(size_t(1) << 18, 1), 11u);
}

// The GPU MSM's balanced accumulation (msm_gpu_plan.hpp), run on the CPU with integer "points":
// every range of sorted entries is summed by sum_runs as a kernel thread would, and every
// bucket's value, read where locate_partials says, must be the sum of its entries.
void check_ranges(const std::vector<uint32_t>& keys, uint32_t range, const char* what) {
  const uint32_t n = uint32_t(keys.size()), ranges = (n + range - 1) / range;
  std::vector<uint64_t> slots(2 * size_t(ranges), ~uint64_t(0));
  std::map<uint32_t, uint64_t> interior;
  for (uint32_t q = 0; q < ranges; ++q) {
    cuda::sum_runs(
        keys.data(), q * range, std::min(n, q * range + range), uint64_t(0),
        [&](uint64_t& acc, uint32_t j) { acc += j + 1; }, [&](uint64_t acc) { slots[2 * q] = acc; },
        [&](uint64_t acc) { slots[2 * q + 1] = acc; },
        [&](uint32_t key, uint64_t acc) {
          EXPECT_EQ(interior.count(key), 0u) << what;
          interior[key] = acc;
        });
  }
  for (uint64_t s : slots) ASSERT_NE(s, ~uint64_t(0)) << what << ": a slot was not written";
  std::vector<bool> used(slots.size(), false);
  for (uint32_t start = 0; start < n;) {
    uint32_t end = start;
    uint64_t want = 0;
    while (end < n && keys[end] == keys[start]) want += ++end;
    const uint32_t key = keys[start];
    const cuda::bucket_partials p = cuda::locate_partials(start, end, n, range);
    if (key != 0) {
      if (p.interior) {
        EXPECT_EQ(p.count, 0u) << what;
        EXPECT_EQ(interior.count(key), 1u) << what << " key " << key;
        EXPECT_EQ(interior[key], want) << what << " key " << key;
      } else {
        EXPECT_EQ(interior.count(key), 0u) << what << " key " << key;
        ASSERT_GE(p.count, 1u) << what;
        ASSERT_LE(size_t(p.first) + p.count, slots.size()) << what;
        uint64_t got = 0;
        for (uint32_t i = p.first; i < p.first + p.count; ++i) {
          EXPECT_FALSE(used[i]) << what << ": slot " << i << " shared";
          used[i] = true;
          got += slots[i];
        }
        EXPECT_EQ(got, want) << what << " key " << key << " [" << start << ", " << end << ")";
      }
    }
    start = end;
  }
  EXPECT_EQ(cuda::locate_partials(5, 5, n, range).count, 0u);
}

TEST(MsmGpuPlan, RangesAndPartialsSumEveryBucket) {
  auto rng = test_rng::from_env("MsmGpuPlan.RangesAndPartialsSumEveryBucket");
  for (uint32_t range : {1u, 3u, 16u, 64u, 128u}) {
    for (uint32_t n : {1u, 2u, 15u, 16u, 17u, 127u, 128u, 129u, 1000u, 5000u}) {
      for (uint32_t key_bits : {0u, 1u, 3u, 6u, 10u, 16u}) {
        std::vector<uint32_t> keys(n);
        for (auto& k : keys) k = uint32_t(rng() & ((uint64_t(1) << key_bits) - 1));
        std::sort(keys.begin(), keys.end());
        check_ranges(keys, range, "uniform");
        // mostly zeros (small scalars' high windows), then one heavy bucket
        for (uint32_t i = 0; i < n; ++i) keys[i] = i < n / 2 ? 0 : i < n - n / 8 ? 7 : 9;
        check_ranges(keys, range, "heavy");
      }
    }
  }
}

TEST(MsmGpuPlan, WindowAndGroups) {
  EXPECT_EQ(cuda::window_by_cost(size_t(1) << 27), 22u);
  EXPECT_EQ(cuda::window_by_cost(size_t(1) << 24), 20u);
  // G2's buckets weigh more (bucket_weight): the dense 2^26 sweep's best c = 20, and
  // WindowPoSt's 91.9 M-point B_G2 takes it too; 2^22 keeps 16.
  EXPECT_EQ(cuda::window_by_cost(size_t(1) << 26, cuda::G2_XYZZ_BYTES), 20u);
  EXPECT_EQ(cuda::window_by_cost(91'900'000, cuda::G2_XYZZ_BYTES), 20u);
  EXPECT_EQ(cuda::window_by_cost(size_t(1) << 22, cuda::G2_XYZZ_BYTES), 16u);
  EXPECT_EQ(cuda::window_by_cost(91'900'000), 22u);
  unsigned prev = 0;
  for (unsigned lg = 0; lg <= 30; ++lg) {
    const unsigned c = cuda::window_by_cost(size_t(1) << lg);
    EXPECT_GE(c, prev) << lg;
    EXPECT_GE(c, 5u);
    EXPECT_LE(c, 22u);
    prev = c;
  }
  for (size_t n : {size_t(1), size_t(1000), size_t(1) << 20, size_t(1) << 27, size_t(3) << 29}) {
    for (unsigned c : {2u, 13u, 22u, 24u}) {
      for (size_t point_bytes : {size_t(192), size_t(384)}) {
        const cuda::group_plan p = cuda::plan_groups(n, c, point_bytes);
        EXPECT_GE(p.group, 1u);
        EXPECT_LE(p.group, (256 + c - 1) / c);
        EXPECT_GE(size_t(p.range) * p.ranges, n);
        EXPECT_LT(size_t(p.range) * (p.ranges - 1), n);
        EXPECT_GE(p.range, cuda::RANGE_MIN);
        EXPECT_LE(p.range, cuda::RANGE_MAX);
        // 2·ranges slots per window fit the 32-bit slot offsets of a group
        EXPECT_LT(size_t(p.group) * 2 * p.ranges, size_t(1) << 32);
      }
    }
  }
}

/// The batch-add kernels' indexing run on the host: per word its ones and their rank, the start
/// word of every thread (batch_start_kernel), then each thread's walk (batch_add_kernel); every
/// selected index must be visited exactly once, in bitmap order, per ones per thread.
void check_batch_walk(const std::vector<uint64_t>& words, size_t n, uint32_t per,
                      const char* what) {
  SCOPED_TRACE(testing::Message() << what << " n=" << n << " per=" << per);
  const size_t nwords = (n + 63) / 64;
  auto word = [&](size_t wi) {
    const size_t tail = n - wi * 64;
    return tail >= 64 ? words[wi] : words[wi] & ((uint64_t(1) << tail) - 1);
  };
  std::vector<uint32_t> count(nwords), rank(nwords);
  uint32_t ones = 0;
  for (size_t wi = 0; wi < nwords; ++wi) {
    count[wi] = uint32_t(std::popcount(word(wi)));
    rank[wi] = ones;
    ones += count[wi];
  }
  const uint32_t threads = (ones + per - 1) / per;
  std::vector<uint32_t> start(threads, UINT32_MAX);
  for (size_t wi = 0; wi < nwords; ++wi) {
    const cuda::thread_span ts = cuda::threads_starting_in(rank[wi], count[wi], per);
    for (uint32_t t = ts.first; t < ts.last; ++t) {
      ASSERT_LT(t, threads);
      ASSERT_EQ(start[t], UINT32_MAX) << "two start words for thread " << t;
      start[t] = uint32_t(wi);
    }
  }
  std::vector<size_t> visited;
  for (uint32_t t = 0; t < threads; ++t) {
    ASSERT_NE(start[t], UINT32_MAX) << "no start word for thread " << t;
    size_t wi = start[t];
    uint64_t w = word(wi);
    for (uint32_t skip = t * per - rank[wi]; skip != 0; --skip) w &= w - 1;
    for (uint32_t left = std::min(per, ones - t * per); left != 0; --left) {
      while (w == 0) w = word(++wi);
      visited.push_back(wi * 64 + size_t(std::countr_zero(w)));
      w &= w - 1;
    }
  }
  std::vector<size_t> expected;
  for (size_t i = 0; i < n; ++i)
    if ((words[i / 64] >> (i % 64)) & 1) expected.push_back(i);
  EXPECT_EQ(visited, expected);
}

TEST(MsmGpuPlan, BatchAddThreadsVisitEveryOneOnce) {
  auto rng = test_rng::from_env("MsmGpuPlan.BatchAddThreadsVisitEveryOneOnce");
  for (size_t n : {size_t(1), size_t(63), size_t(64), size_t(65), size_t(1000), size_t(20000)}) {
    const size_t nwords = (n + 63) / 64;
    std::vector<uint64_t> uniform(nwords), sparse(nwords), skewed(nwords), all(nwords, ~0ull);
    for (auto& w : uniform) w = rng();
    for (size_t i = 0; i < n; i += 97) sparse[i / 64] |= uint64_t(1) << (i % 64);
    for (size_t wi = 0; wi < nwords / 8 + 1; ++wi) skewed[wi] = ~0ull;  // dense head, empty tail
    for (uint32_t per : {1u, 3u, 16u, 63u, 64u, 65u, 128u, 256u}) {
      check_batch_walk(uniform, n, per, "uniform");
      check_batch_walk(sparse, n, per, "sparse");
      check_batch_walk(skewed, n, per, "skewed");
      check_batch_walk(all, n, per, "all");
    }
  }
}

TEST(MsmGpuPlan, BatchPerThread) {
  EXPECT_EQ(cuda::batch_per_thread(1), cuda::BATCH_PER_MIN);
  EXPECT_EQ(cuda::batch_per_thread(uint64_t(1) << 26), 128u);  // 2^27 bits at 50 %: 2^19 threads
  EXPECT_EQ(cuda::batch_per_thread(uint64_t(1) << 31), cuda::BATCH_PER_MAX);
  EXPECT_EQ(cuda::batch_per_thread(uint64_t(1) << 26, 5), 5u);
  EXPECT_EQ(cuda::batch_per_thread(10, 1000), cuda::BATCH_PER_MAX);
}

}  // namespace
}  // namespace cuzk::msm
