// SPDX-License-Identifier: Apache-2.0
// `cuzk demo`: the README's main job until the Filecoin prover exists. Exercises the foundation on
// a built-in example and checks every result against an independent route:
//   MSM     Q = Σ k_i·P_i over P_i = (i+1)·G1  must equal  (Σ k_i·(i+1))·G1 (one scalar mul);
//   NTT     ifft(fft(x)) = x and coset round trip on 2^lg_ntt random values;
//   pairing e(Q, G2) = e(G1, s·G2) with s = Σ k_i·(i+1), checked as e(Q, G2)·e(−G1, s·G2) = 1.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cli_args.hpp"
#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/batch_inverse.hpp"
#include "msm/msm_cpu.hpp"
#include "ntt/ntt_cpu.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::app {
namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

/// (i+1)·G for i < n by repeated addition, normalised to affine with one batch inversion.
std::vector<ec::g1_affine_t> multiples_of_generator(size_t n) {
  std::vector<ec::g1_jacobian_t> jac(n);
  ec::g1_jacobian_t acc = ec::g1_jacobian_t::from_affine(ec::g1_generator());
  for (size_t i = 0; i < n; ++i) {
    jac[i] = acc;
    acc = acc.add_affine(ec::g1_generator());
  }
  std::vector<ff::fp_t> zinv(n);
  for (size_t i = 0; i < n; ++i) zinv[i] = jac[i].z;
  ff::batch_inverse(std::span<ff::fp_t>(zinv));
  std::vector<ec::g1_affine_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    ff::fp_t z2 = zinv[i].sqr();
    out[i] = {jac[i].x * z2, jac[i].y * z2 * zinv[i]};
  }
  return out;
}

int run_demo(unsigned lg_msm, unsigned lg_ntt) {
  thread_pool& pool = thread_pool::default_pool();
  std::mt19937_64 rng(std::random_device{}());
  bool ok = true;
  std::printf("cuzk demo: %u threads\n", pool.size());

  // ---- MSM -------------------------------------------------------------------------------------
  const size_t n = size_t(1) << lg_msm;
  auto t0 = clock_type::now();
  std::vector<ec::g1_affine_t> bases = multiples_of_generator(n);
  std::vector<ff::fr_t> scalars(n);
  ff::fr_t s = ff::fr_t::zero();
  for (size_t i = 0; i < n; ++i) {
    scalars[i] = ff::fr_t::random(rng);
    s += scalars[i] * ff::fr_t::from_uint(i + 1);
  }
  std::printf("  inputs      %8.1f ms  (%zu bases (i+1)·G1, random scalars)\n", ms_since(t0), n);
  t0 = clock_type::now();
  ec::g1_jacobian_t q =
      msm::msm(std::span<const ec::g1_affine_t>(bases), std::span<const ff::fr_t>(scalars), pool);
  const double msm_ms = ms_since(t0);
  ec::g1_jacobian_t expect = ec::mul(ec::g1_generator(), s);
  const bool msm_ok = q == expect;
  ok &= msm_ok;
  std::printf("  g1 msm 2^%-2u %8.1f ms  (%.2f us/point)  %s\n", lg_msm, msm_ms,
              1000.0 * msm_ms / double(n), msm_ok ? "ok: equals (Σ k_i(i+1))·G1" : "MISMATCH");

  // ---- NTT -------------------------------------------------------------------------------------
  auto dom = ntt::domain_t::for_log_size(lg_ntt);
  if (!dom) {
    spdlog::error("cuzk demo: {}", dom.error().to_string());
    return EXIT_BAD;
  }
  std::vector<ff::fr_t> x(size_t(1) << lg_ntt);
  for (auto& v : x) v = ff::fr_t::random(rng);
  std::vector<ff::fr_t> y = x;
  t0 = clock_type::now();
  ntt::fft(*dom, y, pool);
  const double fft_ms = ms_since(t0);
  t0 = clock_type::now();
  ntt::ifft(*dom, y, pool);
  const double ifft_ms = ms_since(t0);
  ntt::coset_fft(*dom, y, pool);
  ntt::icoset_fft(*dom, y, pool);
  const bool ntt_ok = y == x;
  ok &= ntt_ok;
  std::printf("  ntt 2^%-2u    %8.1f ms  (inverse %.1f ms)  %s\n", lg_ntt, fft_ms, ifft_ms,
              ntt_ok ? "ok: inverse and coset round trips" : "MISMATCH");

  // ---- pairing ---------------------------------------------------------------------------------
  t0 = clock_type::now();
  const ec::g1_affine_t lhs[2] = {q.to_affine(), -ec::g1_generator()};
  const ec::g2_affine_t rhs[2] = {ec::g2_generator(), ec::mul(ec::g2_generator(), s).to_affine()};
  const bool pairing_ok = pairing::pairing_product_is_one(lhs, rhs);
  ok &= pairing_ok;
  std::printf("  pairing     %8.1f ms  (2 Miller loops, 1 final exp)  %s\n", ms_since(t0),
              pairing_ok ? "ok: e(Q, G2) = e(G1, s·G2)" : "MISMATCH");

  std::printf("cuzk demo: %s\n", ok ? "all checks passed" : "FAILED");
  return ok ? EXIT_OK : EXIT_FAIL;
}

}  // namespace

void add_demo_command(CLI::App& root, command_runner& chosen) {
  struct demo_args {
    unsigned lg_msm = 16, lg_ntt = 20;
  };
  auto args = std::make_shared<demo_args>();
  auto* demo = root.add_subcommand(
      "demo", "run the foundation demonstration (MSM, NTT, pairing) with timings");
  demo->add_option("--log-msm", args->lg_msm, "log2 of the MSM size")
      ->transform(decimal_u64(0, 26))
      ->capture_default_str();
  demo->add_option("--log-ntt", args->lg_ntt, "log2 of the NTT size")
      ->transform(decimal_u64(0, 26))
      ->capture_default_str();
  on_selected(demo, chosen, [args] { return run_demo(args->lg_msm, args->lg_ntt); });
}

}  // namespace cuzk::app
