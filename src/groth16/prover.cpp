// SPDX-License-Identifier: Apache-2.0
// The shared epilogue of the Groth16 backends (prover.hpp).
#include "groth16/prover.hpp"

#include <chrono>

#include "ec/scalar_mul.hpp"

namespace cuzk::groth16 {

using ec::g1_jacobian_t;
using ec::g2_jacobian_t;
using ff::fr_t;

namespace {
thread_local bool g_express = false;
}  // namespace

express_scope::express_scope() : outer_(g_express) {
  g_express = true;
}
express_scope::~express_scope() {
  g_express = outer_;
}
bool express_requested() {
  return g_express;
}

status check_delta(const verifying_key& vk) {
  if (vk.delta_g1.is_infinity() || vk.delta_g2.is_infinity())
    return status(status_code::invalid_argument, "delta is the identity");
  return {};
}

result<proof> finalize(const verifying_key& vk, const proof_parts& parts, const fr_t& r,
                       const fr_t& s, prover_timings* timings) {
  const auto t0 = std::chrono::steady_clock::now();
  if (status st = check_delta(vk); !st) return st;
  // Groth16 with A = α + A_part + rδ, B = β + B + sδ and C = (H + L) + s·A + r·B₁ − r·s·δ,
  // expanded. The products by r and s use the variable-time wNAF of ec/scalar_mul.hpp (timing
  // exposure of the blinding scalars is a documented limitation, docs/notes/groth16.md).
  const g1_jacobian_t alpha1 = g1_jacobian_t::from_affine(vk.alpha_g1);
  const g1_jacobian_t beta1 = g1_jacobian_t::from_affine(vk.beta_g1);
  const g1_jacobian_t delta1 = g1_jacobian_t::from_affine(vk.delta_g1);
  const g2_jacobian_t beta2 = g2_jacobian_t::from_affine(vk.beta_g2);
  const g2_jacobian_t delta2 = g2_jacobian_t::from_affine(vk.delta_g2);
  const g1_jacobian_t A = alpha1 + parts.a_part + ec::mul(delta1, r);
  const g2_jacobian_t B = beta2 + parts.b_g2 + ec::mul(delta2, s);
  const g1_jacobian_t C = parts.h + parts.l + ec::mul(parts.a_part, s) + ec::mul(parts.b_g1, r) +
                          ec::mul(delta1, r * s) + ec::mul(alpha1, s) + ec::mul(beta1, r);
  proof pf{A.to_affine(), B.to_affine(), C.to_affine()};
  if (timings) {
    timings->epilogue =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return pf;
}

}  // namespace cuzk::groth16
