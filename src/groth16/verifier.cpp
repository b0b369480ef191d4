// SPDX-License-Identifier: Apache-2.0
// Groth16 verifier: the input accumulator (variable-base multiplications for a few inputs, a
// Pippenger MSM for many), then one shared Miller loop and one final exponentiation per call.
#include "groth16/verifier.hpp"

#include <cstring>
#include <string>

#include "base/os_random.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/msm_cpu.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {

using ec::g1_jacobian_t;
using ff::fr_t;

namespace {

/// Inputs from which the accumulator is one Pippenger MSM rather than a multiplication each (the
/// bucket method wins from a few dozen terms; a 32 GiB WindowPoSt partition has 25,839 inputs:
/// 4.4 s one by one on the H200 host, measured).
constexpr size_t MSM_INPUTS = 32;

/// ic₀·w₀ + Σ_i w_{i+1}·ic_{i+1} with w₀ given separately (1 for a single proof, Y for a batch).
/// On the calling thread: verification runs beside proving, which has the cores.
g1_jacobian_t accumulate_inputs(std::span<const g1_affine_t> ic, const fr_t& w0,
                                std::span<const fr_t> w) {
  g1_jacobian_t acc = ec::mul(ic[0], w0);
  if (w.size() >= MSM_INPUTS) {
    thread_pool calling_thread(1);
    return acc + msm::msm(ic.subspan(1, w.size()), w, calling_thread);
  }
  for (size_t i = 0; i < w.size(); ++i) acc += ec::mul(ic[i + 1], w[i]);
  return acc;
}

}  // namespace

prepared_verifying_key prepare_verifying_key(const verifying_key& vk) {
  prepared_verifying_key p;
  p.alpha_beta = pairing::pair(vk.alpha_g1, vk.beta_g2);
  p.neg_gamma_g2 = -vk.gamma_g2;
  p.neg_delta_g2 = -vk.delta_g2;
  p.alpha_g1 = vk.alpha_g1;
  p.beta_g2 = vk.beta_g2;
  p.gamma_g2 = vk.gamma_g2;
  p.delta_g2 = vk.delta_g2;
  p.ic = vk.ic;
  return p;
}

result<bool> verify(const prepared_verifying_key& pvk, const proof& pf,
                    std::span<const fr_t> public_inputs) {
  if (public_inputs.size() + 1 != pvk.ic.size())
    return status(status_code::size_mismatch, std::to_string(public_inputs.size()) +
                                                  " public inputs for a key with " +
                                                  std::to_string(pvk.ic.size()) + " ic points");
  const g1_affine_t acc = accumulate_inputs(pvk.ic, fr_t::one(), public_inputs).to_affine();
  const g1_affine_t p[3] = {pf.a, acc, pf.c};
  const g2_affine_t q[3] = {pf.b, pvk.neg_gamma_g2, pvk.neg_delta_g2};
  const ff::fp12_t f = pairing::final_exponentiation(pairing::multi_miller_loop(p, q));
  return f == pvk.alpha_beta;
}

result<bool> verify_batch(const prepared_verifying_key& pvk, std::span<const proof> proofs,
                          std::span<const std::vector<fr_t>> inputs_per_proof, const rng_fn& rng) {
  if (proofs.size() != inputs_per_proof.size())
    return status(status_code::size_mismatch, "proof and input-set counts differ");
  if (pvk.ic.empty()) return status(status_code::size_mismatch, "verifying key has no ic points");
  const size_t n_pub = pvk.ic.size() - 1;
  for (size_t j = 0; j < proofs.size(); ++j)
    if (inputs_per_proof[j].size() != n_pub)
      return status(status_code::size_mismatch, "proof " + std::to_string(j) + " has " +
                                                    std::to_string(inputs_per_proof[j].size()) +
                                                    " public inputs, expected " +
                                                    std::to_string(n_pub));
  if (proofs.empty()) return true;

  std::vector<g1_affine_t> p;
  std::vector<g2_affine_t> q;
  p.reserve(proofs.size() + 3);
  q.reserve(proofs.size() + 3);
  fr_t y = fr_t::zero();
  std::vector<fr_t> w(n_pub, fr_t::zero());  // Σ_j z_j·x_{j,i}
  g1_jacobian_t c_sum = g1_jacobian_t::infinity();
  for (size_t j = 0; j < proofs.size(); ++j) {
    fr_t z;
    do {  // 128 random bits, high limbs zero (bellperson draws a u128)
      z = fr_t::from_canonical({rng(), rng(), 0, 0});
    } while (z.is_zero());
    y += z;
    for (size_t i = 0; i < n_pub; ++i) w[i] += z * inputs_per_proof[j][i];
    c_sum += ec::mul(proofs[j].c, z);
    p.push_back(ec::mul(proofs[j].a, z).to_affine());
    q.push_back(-proofs[j].b);
  }
  p.push_back(c_sum.to_affine());
  q.push_back(pvk.delta_g2);
  p.push_back(accumulate_inputs(pvk.ic, y, w).to_affine());
  q.push_back(pvk.gamma_g2);
  p.push_back(ec::mul(pvk.alpha_g1, y).to_affine());
  q.push_back(pvk.beta_g2);
  return pairing::pairing_product_is_one(p, q);
}

result<bool> verify_batch(const prepared_verifying_key& pvk, std::span<const proof> proofs,
                          std::span<const std::vector<fr_t>> inputs_per_proof) {
  status drawn;
  auto rng = [&]() -> uint64_t {
    uint8_t bytes[8] = {};
    if (drawn) drawn = fill_os_random(bytes);
    uint64_t v = 0;
    std::memcpy(&v, bytes, sizeof v);
    return drawn ? v : 1;
  };
  auto r = verify_batch(pvk, proofs, inputs_per_proof, rng);
  if (!drawn) return drawn;
  return r;
}

}  // namespace cuzk::groth16
