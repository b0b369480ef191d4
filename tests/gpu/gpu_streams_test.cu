// SPDX-License-Identifier: Apache-2.0
// Independent GPU contexts and streams in one process: three host threads on one device — two on
// separate device contexts, one sharing the first context through a stream of its own — each run
// coset NTTs (the shared context builds its twiddle tables once, under its lock, while the other
// thread may be asking for them) and G1 MSMs back to back on their own stream; every result must
// equal the CPU reference. Nothing in the library waits for the whole device, so the streams
// overlap. Label gpu: needs a CUDA device.
#include <gtest/gtest.h>

#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "gpu/runtime.hpp"
#include "msm/msm_cpu.hpp"
#include "msm/msm_gpu.hpp"
#include "ntt/ntt_cpu.hpp"
#include "ntt/ntt_gpu.hpp"
#include "test_rng.hpp"

namespace cuzk {
namespace {

using ec::g1_affine_t;
using ec::g1_jacobian_t;
using ff::fr_t;

constexpr unsigned NTT_LG = 16;
constexpr size_t MSM_N = size_t(1) << 12;
constexpr int ROUNDS = 4;

struct job_t {
  std::vector<fr_t> ntt_in, scalars;
  std::vector<fr_t> ntt_out;  // filled by the GPU
  g1_jacobian_t msm_out;
};

std::vector<g1_affine_t> make_bases(size_t n, test::test_rng& rng) {
  std::vector<g1_affine_t> pts(n);
  const g1_jacobian_t step = ec::mul(ec::g1_generator(), fr_t::random(rng));
  g1_jacobian_t p = ec::mul(ec::g1_generator(), fr_t::random(rng));
  for (auto& q : pts) {
    q = p.to_affine();
    p += step;
  }
  return pts;
}

std::vector<fr_t> random_vec(size_t n, test::test_rng& rng) {
  std::vector<fr_t> v(n);
  for (auto& x : v) x = fr_t::random(rng);
  return v;
}

/// One worker: every job's coset NTT and MSM on (ctx, s), in order.
void run_jobs(gpu::device_context& ctx, const gpu::stream& s, const ntt::domain_t& d,
              const std::vector<g1_affine_t>& bases, std::vector<job_t>& jobs) {
  for (job_t& j : jobs) {
    j.ntt_out = j.ntt_in;
    ntt::cuda::transform(ctx, s, d, j.ntt_out, ntt::cuda::ntt_kind::coset_fft);
    j.msm_out = msm::cuda::msm(ctx, s, bases, j.scalars);
  }
}

TEST(GpuStreams, TwoContextsAndTwoStreamsOnOneDeviceRunIndependently) {
  auto rng = test::test_rng::from_env("GpuStreams.TwoContextsAndTwoStreamsOnOneDevice");
  auto ctx_a = gpu::device_context::open(0);
  ASSERT_TRUE(ctx_a.ok()) << ctx_a.error().to_string();
  auto ctx_b = gpu::device_context::open(0);
  ASSERT_TRUE(ctx_b.ok()) << ctx_b.error().to_string();
  const gpu::stream s_a1(*ctx_a), s_a2(*ctx_a), s_b(*ctx_b);

  auto d = ntt::domain_t::for_log_size(NTT_LG);
  ASSERT_TRUE(d.ok());
  const std::vector<g1_affine_t> bases = make_bases(MSM_N, rng);
  std::vector<std::vector<job_t>> work(3);
  for (auto& jobs : work) {
    for (int r = 0; r < ROUNDS; ++r)
      jobs.push_back({random_vec(d->size(), rng), random_vec(MSM_N, rng), {}, {}});
  }

  // A CUDA failure in a worker is reported, not left to terminate the process.
  std::vector<std::string> errors(work.size());
  auto worker = [&](gpu::device_context& ctx, const gpu::stream& s, size_t w) {
    return std::thread([&ctx, &s, w, &d, &bases, &work, &errors] {
      try {
        run_jobs(ctx, s, *d, bases, work[w]);
      } catch (const std::exception& e) {
        errors[w] = e.what();
      }
    });
  };
  {
    std::thread t1 = worker(*ctx_a, s_a1, 0);
    std::thread t2 = worker(*ctx_a, s_a2, 1);
    std::thread t3 = worker(*ctx_b, s_b, 2);
    t1.join();
    t2.join();
    t3.join();
  }
  for (size_t w = 0; w < errors.size(); ++w) ASSERT_EQ(errors[w], "") << "worker " << w;

  thread_pool pool;
  for (size_t w = 0; w < work.size(); ++w) {
    for (size_t r = 0; r < work[w].size(); ++r) {
      const job_t& j = work[w][r];
      std::vector<fr_t> ref = j.ntt_in;
      ntt::coset_fft(*d, ref, pool);
      EXPECT_TRUE(j.ntt_out == ref) << "worker " << w << " round " << r << ": NTT";
      EXPECT_TRUE(j.msm_out == msm::msm(bases, j.scalars, pool))
          << "worker " << w << " round " << r << ": MSM";
    }
  }
}

}  // namespace
}  // namespace cuzk
