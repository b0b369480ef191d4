// SPDX-License-Identifier: Apache-2.0
// CPU Groth16 prover (see prover_cpu.hpp for the formulas). NTT orders are chosen so that only the
// last transform pays a bit-reversal pass: iFFT natural→reversed, coset FFT reversed→natural,
// inverse coset FFT natural→natural (the h coefficients must come out in natural order).
#include "groth16/prover_cpu.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "base/os_random.hpp"
#include "msm/msm_cpu.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt_cpu.hpp"

namespace cuzk::groth16 {

using ec::g1_affine_t;
using ec::g1_jacobian_t;
using ec::g2_affine_t;
using ec::g2_jacobian_t;
using ff::fr_t;

namespace {

using clock_type = std::chrono::steady_clock;

/// The transforms of one of a, b, c: zero-pad to m, iFFT (values on ⟨ω⟩ → coefficients), coset
/// FFT (coefficients → values on g·⟨ω⟩).
void to_coset(const ntt::domain_t& d, std::span<const fr_t> v, std::vector<fr_t>& out,
              thread_pool& pool) {
  out.assign(d.size(), fr_t::zero());
  pool.parallel_range(
      v.size(),
      [&](size_t b, size_t e) { std::copy(v.begin() + b, v.begin() + e, out.begin() + b); },
      1 << 14);
  ntt::ifft(d, out, pool, ntt::ntt_order::nr);
  ntt::coset_fft(d, out, pool, ntt::ntt_order::rn);
}

/// Σ w_j·P_j over aux variables using the 0/1 split: batch addition for w_j = 1, Pippenger for
/// the others, nothing for 0. `split` indexes `bases` (compacted when it was made with a density).
template <class Affine>
auto split_msm(std::span<const Affine> bases, std::span<const fr_t> scalars,
               const msm::witness_split_t& split, thread_pool& pool) {
  auto ones = msm::batch_add(bases, split.ones_view(), pool);
  auto others = msm::msm_masked(bases, scalars, split.others_view(), pool);
  return ones + others;
}

}  // namespace

result<fr_t> os_random_fr() {
  uint8_t wide[64];
  if (status s = fill_os_random(wide); !s) return s;
  // Big-endian 512-bit integer mod r (bias below 2^-250).
  const fr_t radix = fr_t::from_uint(256);
  fr_t acc = fr_t::zero();
  for (uint8_t byte : wide) acc = acc * radix + fr_t::from_uint(byte);
  std::memset(wide, 0, sizeof wide);
  return acc;
}

result<std::vector<fr_t>> compute_h(const assignment& asg, thread_pool& pool,
                                    prover_timings* timings) {
  const size_t rows = asg.num_rows();
  if (rows == 0 || asg.b.size() != rows || asg.c.size() != rows)
    return status(status_code::size_mismatch, "a, b, c must have the same nonzero length");
  auto dom = ntt::domain_t::create(rows);
  if (!dom) return dom.error();
  const ntt::domain_t& d = *dom;
  const size_t m = d.size();

  std::vector<fr_t> a, b, c;
  auto t0 = clock_type::now();
  to_coset(d, asg.a, a, pool);
  if (timings) timings->ntt_a = ms_since(t0);
  t0 = clock_type::now();
  to_coset(d, asg.b, b, pool);
  if (timings) timings->ntt_b = ms_since(t0);
  t0 = clock_type::now();
  to_coset(d, asg.c, c, pool);
  if (timings) timings->ntt_c = ms_since(t0);

  // On the coset t(X) = X^m − 1 takes the constant value Z = g^m − 1, so h = (a·b − c)·Z^-1
  // pointwise; then back to coefficients.
  t0 = clock_type::now();
  const fr_t zi = d.z_coset_inv();
  pool.parallel_range(
      m,
      [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) a[i] = (a[i] * b[i] - c[i]) * zi;
      },
      1 << 12);
  b = {};
  c = {};
  ntt::icoset_fft(d, a, pool, ntt::ntt_order::nn);
  a.resize(m - 1);  // deg h ≤ m − 2: bellperson keeps exactly m − 1 coefficients
  if (timings) timings->h_compute = ms_since(t0);
  return a;
}

result<proof_parts> start(const parameters& params, const assignment& asg, thread_pool& pool,
                          prover_timings* timings) {
  const auto t_start = clock_type::now();
  prover_timings local;
  prover_timings& tm = timings ? *timings : local;
  tm = {};

  if (asg.num_rows() == 0) return status(status_code::size_mismatch, "empty assignment");
  auto dom = ntt::domain_t::create(asg.num_rows());
  if (!dom) return dom.error();
  if (status st = check_query_sizes(params.sizes(), asg, dom->size()); !st) return st;

  auto hr = compute_h(asg, pool, &tm);
  if (!hr) return hr.error();
  const std::vector<fr_t>& h = *hr;

  const size_t n_in = asg.num_inputs();
  auto t0 = clock_type::now();
  const msm::bitmap_view a_aux = asg.a_aux_density;
  const msm::bitmap_view b_in = asg.b_input_density;
  const msm::bitmap_view b_aux = asg.b_aux_density;
  const msm::witness_split_t split_l = msm::split_witness(asg.aux, nullptr, pool);
  const msm::witness_split_t split_a = msm::split_witness(asg.aux, &a_aux, pool);
  const msm::witness_split_t split_b = msm::split_witness(asg.aux, &b_aux, pool);
  tm.split = ms_since(t0);

  proof_parts out;
  t0 = clock_type::now();
  out.h = msm::msm(std::span<const g1_affine_t>(params.h), h, pool);
  tm.msm_h = ms_since(t0);

  t0 = clock_type::now();
  out.l = split_msm<g1_affine_t>(params.l, asg.aux, split_l, pool);
  tm.msm_l = ms_since(t0);

  // A_part: the inputs are dense in A (input constraints), aux follow over a_aux.
  t0 = clock_type::now();
  const std::span<const g1_affine_t> a_q(params.a);
  out.a_part = msm::msm(a_q.first(n_in), asg.inputs, pool) +
               split_msm<g1_affine_t>(a_q.subspan(n_in), split_a.scalars, split_a, pool);
  tm.msm_a = ms_since(t0);

  // B: inputs with nonzero B first, then aux over b_aux; the same split serves G1 and G2.
  const size_t nb_in = asg.b_input_density.popcount();
  t0 = clock_type::now();
  const std::span<const g1_affine_t> b1_q(params.b_g1);
  out.b_g1 = msm::msm_dense(b1_q.first(nb_in), asg.inputs, b_in, pool) +
             split_msm<g1_affine_t>(b1_q.subspan(nb_in), split_b.scalars, split_b, pool);
  tm.msm_b_g1 = ms_since(t0);
  t0 = clock_type::now();
  const std::span<const g2_affine_t> b2_q(params.b_g2);
  out.b_g2 = msm::msm_dense(b2_q.first(nb_in), asg.inputs, b_in, pool) +
             split_msm<g2_affine_t>(b2_q.subspan(nb_in), split_b.scalars, split_b, pool);
  tm.msm_b_g2 = ms_since(t0);
  tm.start = ms_since(t_start);
  return out;
}

uint64_t cpu_proof_bytes(const query_sizes& q, unsigned threads) {
  const uint64_t m = uint64_t(q.h) + 1, fr = sizeof(fr_t);
  // A's and B's aux terms (their inputs are few and dense: their MSMs prepare at most as many).
  const size_t na = q.a > q.ic ? q.a - q.ic : 0, nb = q.b_g1;
  const uint64_t splits = msm::split_bytes(q.l, q.l, false) + msm::split_bytes(q.l, na, true) +
                          msm::split_bytes(q.l, nb, true);
  const uint64_t terms =
      std::max({msm::msm_terms_bytes(q.h, false), msm::msm_terms_bytes(q.l, true),
                msm::msm_terms_bytes(na, true), msm::msm_terms_bytes(nb, true)});
  return std::max(3 * m * fr, uint64_t(q.h) * fr + splits + terms +
                                  uint64_t(threads) * msm::msm_thread_bytes());
}

result<proof> create_proof(const parameters& params, const assignment& asg, const fr_t& r,
                           const fr_t& s, thread_pool& pool, prover_timings* timings) {
  return start_and_finalize(params.vk, r, s, timings,
                            [&](prover_timings* tm) { return start(params, asg, pool, tm); });
}

result<proof> create_proof(const parameters& params, const assignment& asg, thread_pool& pool,
                           prover_timings* timings) {
  auto r = os_random_fr();
  if (!r) return r.error();
  auto s = os_random_fr();
  if (!s) return s.error();
  return create_proof(params, asg, *r, *s, pool, timings);
}

}  // namespace cuzk::groth16
