// SPDX-License-Identifier: Apache-2.0
// Groth16 generator: toxic-waste derivation, QAP evaluation at τ (powers of τ → iFFT = Lagrange
// basis values, then one sparse pass over A, B, C), and batch fixed-base scalar multiplication
// with byte-window tables of G1/G2 and Montgomery batch inversion to affine. Cost per point:
// 32 mixed additions (≈ 32·11 Fp(2) multiplications) plus ≈ 3 multiplications for normalisation.
#include "groth16/setup.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "base/os_random.hpp"
#include "ec/curves.hpp"
#include "groth16/fixed_base.hpp"
#include "hash/sha256.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt_cpu.hpp"

namespace cuzk::groth16 {

using ff::fr_t;

namespace {

/// A big-endian byte string reduced mod r (Horner: acc = acc·256 + byte).
fr_t reduce_be(const uint8_t* p, size_t n) {
  const fr_t radix = fr_t::from_uint(256);
  fr_t acc = fr_t::zero();
  for (size_t i = 0; i < n; ++i) acc = acc * radix + fr_t::from_uint(p[i]);
  return acc;
}

constexpr char SEED_DOMAIN[] = "cuzk-groth16-toxic-waste-v1";

fr_t derive_element(std::span<const uint8_t> seed, uint8_t k) {
  for (unsigned c = 0;; ++c) {
    uint8_t wide[64];
    for (uint8_t half = 0; half < 2; ++half) {
      cuzk::hash::sha256_t sh;
      sh.update(reinterpret_cast<const uint8_t*>(SEED_DOMAIN), sizeof(SEED_DOMAIN) - 1);
      const uint8_t tag[3] = {k, uint8_t(c), half};
      sh.update(tag, 3);
      sh.update(seed.data(), seed.size());
      const auto d = sh.finalize();
      std::memcpy(wide + 32 * half, d.data(), 32);
    }
    const fr_t x = reduce_be(wide, 64);
    if (!x.is_zero()) return x;
  }
}

/// acc_j += Σ_i M[i][j]·L_i(τ) over the matrix entries (repeated entries simply add up).
void accumulate(const r1cs::sparse_matrix& m, std::span<const fr_t> lagrange,
                std::vector<fr_t>& acc) {
  for (size_t i = 0; i < m.num_rows(); ++i) {
    const fr_t li = lagrange[i];
    for (uint64_t k = m.row_offsets[i]; k < m.row_offsets[i + 1]; ++k) {
      acc[m.columns[k]] += m.coeffs[k] * li;
    }
  }
}

/// Reports progress in rounds: runs `fn(chunk)` for chunk in [0, chunks) in rounds of a few
/// chunks per thread, calling progress after each round from the calling thread.
void run_with_progress(thread_pool& pool, size_t chunks, size_t chunk_items, size_t total_items,
                       const char* phase, const progress_fn& progress,
                       const std::function<void(size_t)>& fn) {
  const size_t round = progress ? std::max<size_t>(1, size_t(pool.size()) * 8) : chunks;
  for (size_t begin = 0; begin < chunks; begin += round) {
    const size_t end = std::min(chunks, begin + round);
    pool.parallel_for(end - begin, [&](size_t t) { fn(begin + t); });
    if (progress) progress(phase, std::min(total_items, end * chunk_items), total_items);
  }
  if (progress && chunks == 0) progress(phase, 0, 0);
}

/// out[i] = scalars[i]·G for the table's G, in affine.
template <class Field>
void batch_mul(const fixed_base_table<Field>& table, std::span<const fr_t> scalars,
               std::span<ec::affine_t<Field>> out, thread_pool& pool, const char* phase,
               const progress_fn& progress) {
  constexpr size_t CHUNK = 256;
  const size_t n = scalars.size();
  const size_t chunks = (n + CHUNK - 1) / CHUNK;
  run_with_progress(pool, chunks, CHUNK, n, phase, progress, [&](size_t c) {
    const size_t b = c * CHUNK, e = std::min(n, b + CHUNK);
    ec::jacobian_t<Field> tmp[CHUNK];
    for (size_t i = b; i < e; ++i) tmp[i - b] = table.mul(scalars[i]);
    batch_to_affine<Field>(std::span<const ec::jacobian_t<Field>>(tmp, e - b),
                           out.subspan(b, e - b));
  });
}

/// The default backend: batch_mul on the generator's pool.
class cpu_fixed_base final : public fixed_base_backend {
 public:
  explicit cpu_fixed_base(thread_pool& pool) : pool_(pool) {}
  status mul(const fixed_base_table<ec::fp_t>& g, std::span<const fr_t> scalars,
             std::span<ec::affine_t<ec::fp_t>> out, const char* phase,
             const progress_fn& progress) override {
    batch_mul<ec::fp_t>(g, scalars, out, pool_, phase, progress);
    return status();
  }
  status mul(const fixed_base_table<ec::fp2_t>& g, std::span<const fr_t> scalars,
             std::span<ec::affine_t<ec::fp2_t>> out, const char* phase,
             const progress_fn& progress) override {
    batch_mul<ec::fp2_t>(g, scalars, out, pool_, phase, progress);
    return status();
  }

 private:
  thread_pool& pool_;
};

/// The first zero scalar's index, or npos.
size_t find_zero(std::span<const fr_t> s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i].is_zero()) return i;
  return size_t(-1);
}

}  // namespace

// ---- toxic waste --------------------------------------------------------------------------------

toxic_waste toxic_waste::from_seed(std::span<const uint8_t> seed) {
  return {derive_element(seed, 0), derive_element(seed, 1), derive_element(seed, 2),
          derive_element(seed, 3), derive_element(seed, 4)};
}

result<toxic_waste> toxic_waste::random() {
  fr_t v[5];
  for (auto& x : v) {
    do {
      uint8_t wide[64];
      if (status s = fill_os_random(wide); !s) return s;
      x = reduce_be(wide, 64);
      std::memset(wide, 0, sizeof wide);
    } while (x.is_zero());
  }
  return toxic_waste{v[0], v[1], v[2], v[3], v[4]};
}

// ---- QAP ----------------------------------------------------------------------------------------

result<std::vector<fr_t>> lagrange_at_tau(uint64_t m, const fr_t& tau, thread_pool& pool,
                                          const progress_fn& progress) {
  auto dom = ntt::domain_t::create(m);
  if (!dom) return dom.error();
  if (dom->size() != m) {
    return status(status_code::invalid_argument,
                  "lagrange_at_tau: " + std::to_string(m) + " is not a power of two");
  }
  // τ^i for i < m, in chunks that start from τ^begin.
  std::vector<fr_t> lagrange(m);
  constexpr size_t CHUNK = 4096;
  const size_t chunks = (m + CHUNK - 1) / CHUNK;
  run_with_progress(pool, chunks, CHUNK, m, "powers", progress, [&](size_t c) {
    const size_t b = c * CHUNK, e = std::min<size_t>(m, b + CHUNK);
    fr_t p = tau.pow(uint64_t(b));
    for (size_t i = b; i < e; ++i, p *= tau) lagrange[i] = p;
  });
  // iFFT of (τ^i): entry k = m^-1 Σ_i τ^i ω^-ik = m^-1 Σ_i (τ/ω^k)^i = L_k(τ).
  ntt::ifft(*dom, lagrange, pool);
  if (progress) progress("lagrange", m, m);
  return lagrange;
}

result<qap_at_tau> evaluate_qap(const r1cs::matrices& cs, const fr_t& tau, thread_pool& pool,
                                const progress_fn& progress) {
  if (status s = r1cs::validate(cs); !s) return s;
  auto dom = ntt::domain_t::create(cs.num_rows());
  if (!dom) return dom.error();
  const size_t m = dom->size();
  qap_at_tau q;
  q.domain_size = m;
  auto lr = lagrange_at_tau(m, tau, pool, progress);
  if (!lr) return lr.error();
  const std::vector<fr_t>& lagrange = *lr;
  q.t_tau = tau.pow(uint64_t(m)) - fr_t::one();

  const size_t vars = cs.num_variables(), nc = cs.num_constraints();
  q.at.assign(vars, fr_t::zero());
  q.bt.assign(vars, fr_t::zero());
  q.ct.assign(vars, fr_t::zero());
  // One matrix per task (the fourth computes the densities): each writes only its own output.
  pool.parallel_for(4, [&](size_t t) {
    if (t == 0) accumulate(cs.a, lagrange, q.at);
    if (t == 1) accumulate(cs.b, lagrange, q.bt);
    if (t == 2) accumulate(cs.c, lagrange, q.ct);
    if (t == 3) q.density = r1cs::compute_densities(cs);
  });
  // The input rows: row nc + j is x_j·0 = 0, so A_j gains L_{nc+j} (inputs are A-dense).
  for (size_t j = 0; j < cs.num_inputs; ++j) q.at[j] += lagrange[nc + j];
  if (progress) progress("evaluate", vars, vars);
  return q;
}

// ---- generator ----------------------------------------------------------------------------------

result<parameters> generate_parameters(const r1cs::matrices& cs, const toxic_waste& tw,
                                       thread_pool& pool, const progress_fn& progress,
                                       fixed_base_backend* backend) {
  if (tw.gamma.is_zero()) return status(status_code::invalid_argument, "gamma is zero");
  if (tw.delta.is_zero()) return status(status_code::invalid_argument, "delta is zero");
  auto qr = evaluate_qap(cs, tw.tau, pool, progress);
  if (!qr) return qr.error();
  return generate_parameters(std::move(*qr), cs.num_inputs, cs.num_aux, tw, pool, progress,
                             backend);
}

result<parameters> generate_parameters(qap_at_tau&& q, size_t n_in, size_t n_aux,
                                       const toxic_waste& tw, thread_pool& pool,
                                       const progress_fn& progress, fixed_base_backend* backend) {
  if (tw.gamma.is_zero()) return status(status_code::invalid_argument, "gamma is zero");
  if (tw.delta.is_zero()) return status(status_code::invalid_argument, "delta is zero");
  const size_t vars = n_in + n_aux, m = q.domain_size;
  if (n_in == 0 || q.at.size() != vars || q.bt.size() != vars || q.ct.size() != vars ||
      q.density.a_aux.size() != n_aux || q.density.b_aux.size() != n_aux ||
      q.density.b_input.size() != n_in || m < 2 || (m & (m - 1)) != 0) {
    return status(status_code::size_mismatch, "QAP evaluation does not match " +
                                                  std::to_string(n_in) + " inputs and " +
                                                  std::to_string(n_aux) + " aux variables");
  }
  const fr_t gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();

  // Scalars of every query; zero scalar ⇔ point at infinity (G has prime order r).
  std::vector<fr_t> h_s(m - 1);
  {
    const fr_t coeff = q.t_tau * delta_inv;
    if (m > 1 && coeff.is_zero())
      return status(status_code::is_infinity, "t(tau) = 0: tau is in the domain");
    constexpr size_t CHUNK = 4096;
    pool.parallel_range(
        m - 1,
        [&](size_t b, size_t e) {
          fr_t p = tw.tau.pow(uint64_t(b)) * coeff;
          for (size_t i = b; i < e; ++i, p *= tw.tau) h_s[i] = p;
        },
        CHUNK);
  }
  auto lc = [&](size_t j) { return tw.beta * q.at[j] + tw.alpha * q.bt[j] + q.ct[j]; };
  std::vector<fr_t> ic_s(n_in), l_s(n_aux), a_s, b_s;
  for (size_t j = 0; j < n_in; ++j) ic_s[j] = lc(j) * gamma_inv;
  pool.parallel_range(n_aux, [&](size_t b, size_t e) {
    for (size_t j = b; j < e; ++j) l_s[j] = lc(n_in + j) * delta_inv;
  });
  for (size_t j = 0; j < n_in; ++j) {
    a_s.push_back(q.at[j]);
    if (q.density.b_input.test(j)) b_s.push_back(q.bt[j]);
  }
  a_s.reserve(n_in + q.density.a_aux.popcount());
  b_s.reserve(q.density.b_input.popcount() + q.density.b_aux.popcount());
  for (size_t j = 0; j < n_aux; ++j) {
    if (q.density.a_aux.test(j)) a_s.push_back(q.at[n_in + j]);
    if (q.density.b_aux.test(j)) b_s.push_back(q.bt[n_in + j]);
  }
  q.at = {};  // the sums are scalars now: free 3 × 32 bytes per variable before the points
  q.bt = {};
  q.ct = {};
  if (size_t z = find_zero(ic_s); z != size_t(-1))
    return status(status_code::is_infinity, "ic point " + std::to_string(z) + " is infinity");
  if (size_t z = find_zero(l_s); z != size_t(-1))
    return status(status_code::is_infinity,
                  "unconstrained aux variable " + std::to_string(z) + " (l point is infinity)");
  if (size_t z = find_zero(a_s); z != size_t(-1))
    return status(status_code::is_infinity, "a point " + std::to_string(z) + " is infinity");
  if (size_t z = find_zero(b_s); z != size_t(-1))
    return status(status_code::is_infinity, "b point " + std::to_string(z) + " is infinity");

  const fixed_base_table<ec::fp_t> g1(ec::g1_generator(), pool);
  const fixed_base_table<ec::fp2_t> g2(ec::g2_generator(), pool);

  parameters p;
  verifying_key& vk = p.vk;
  vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
  vk.beta_g1 = g1.mul(tw.beta).to_affine();
  vk.beta_g2 = g2.mul(tw.beta).to_affine();
  vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
  vk.delta_g1 = g1.mul(tw.delta).to_affine();
  vk.delta_g2 = g2.mul(tw.delta).to_affine();
  if (vk.alpha_g1.is_infinity() || vk.beta_g1.is_infinity())
    return status(status_code::is_infinity, "alpha or beta is zero");

  vk.ic.resize(n_in);
  p.h.resize(h_s.size());
  p.l.resize(n_aux);
  p.a.resize(a_s.size());
  p.b_g1.resize(b_s.size());
  p.b_g2.resize(b_s.size());
  cpu_fixed_base cpu(pool);
  fixed_base_backend& mul = backend ? *backend : cpu;
  // ic stays on the host: a handful of points, not worth a device round trip.
  if (status s = cpu.mul(g1, ic_s, vk.ic, "ic", progress); !s) return s;
  if (status s = mul.mul(g1, h_s, p.h, "h", progress); !s) return s;
  h_s = {};
  if (status s = mul.mul(g1, l_s, p.l, "l", progress); !s) return s;
  l_s = {};
  if (status s = mul.mul(g1, a_s, p.a, "a", progress); !s) return s;
  a_s = {};
  if (status s = mul.mul(g1, b_s, p.b_g1, "b_g1", progress); !s) return s;
  if (status s = mul.mul(g2, b_s, p.b_g2, "b_g2", progress); !s) return s;
  return p;
}

}  // namespace cuzk::groth16
