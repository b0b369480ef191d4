// SPDX-License-Identifier: Apache-2.0
// Derivation of neptune's Poseidon constants (docs/spec/poseidon.md §2–§4; neptune
// spec/poseidon_spec.md "Optimized Round Constants" and "Sparse MDS Matrices"). Everything here
// runs once per arity; matrices are small (t ≤ 37) so plain O(t^3) algorithms are fine.
#include "filecoin/hash/poseidon_constants.hpp"
#include "base/check.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

namespace cuzk::filecoin::hash {

namespace {

using vec_t = std::vector<fr_t>;

square_matrix_t make_matrix(size_t n) {
  square_matrix_t r;
  r.n = n;
  r.m.assign(n * n, fr_t::zero());
  return r;
}

square_matrix_t identity(size_t n) {
  square_matrix_t r = make_matrix(n);
  for (size_t i = 0; i < n; ++i) r.at(i, i) = fr_t::one();
  return r;
}

square_matrix_t mat_mul(const square_matrix_t& a, const square_matrix_t& b) {
  const size_t n = a.n;
  square_matrix_t r = make_matrix(n);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < n; ++k) {
      const fr_t aik = a.at(i, k);
      for (size_t j = 0; j < n; ++j) r.at(i, j) += aik * b.at(k, j);
    }
  return r;
}

// M·v with v a column vector: r_i = Σ_j M[i][j]·v_j (neptune left_apply_matrix).
vec_t left_apply(const square_matrix_t& m, std::span<const fr_t> v) {
  vec_t r(m.n, fr_t::zero());
  for (size_t i = 0; i < m.n; ++i)
    for (size_t j = 0; j < m.n; ++j) r[i] += m.at(i, j) * v[j];
  return r;
}

// The matrix without row 0 and column 0.
square_matrix_t minor00(const square_matrix_t& m) {
  square_matrix_t r = make_matrix(m.n - 1);
  for (size_t i = 1; i < m.n; ++i)
    for (size_t j = 1; j < m.n; ++j) r.at(i - 1, j - 1) = m.at(i, j);
  return r;
}

// Factor m = M'·M'' (neptune mds.rs make_prime / make_double_prime):
//   M'  = [[1, 0], [0, m_hat]]               (m_hat = m without row 0 / column 0)
//   M'' = [[m00, v], [w_hat, I]]             (v = m[0][1..], w = m[1..][0], w_hat = m_hat^-1·w)
void factor_prime(const square_matrix_t& m, square_matrix_t& prime, square_matrix_t& dprime) {
  const size_t n = m.n;
  square_matrix_t m_hat = minor00(m);
  square_matrix_t m_hat_inv;
  if (!invert_matrix(m_hat, m_hat_inv)) {
    precondition_failed(__func__, "singular MDS minor");
  }
  vec_t w(n - 1);
  for (size_t i = 1; i < n; ++i) w[i - 1] = m.at(i, 0);
  const vec_t w_hat = left_apply(m_hat_inv, w);

  prime = make_matrix(n);
  prime.at(0, 0) = fr_t::one();
  for (size_t i = 1; i < n; ++i)
    for (size_t j = 1; j < n; ++j) prime.at(i, j) = m.at(i, j);

  dprime = make_matrix(n);
  dprime.at(0, 0) = m.at(0, 0);
  for (size_t j = 1; j < n; ++j) dprime.at(0, j) = m.at(0, j);
  for (size_t i = 1; i < n; ++i) {
    dprime.at(i, 0) = w_hat[i - 1];
    dprime.at(i, i) = fr_t::one();
  }
}

// The Grain LFSR of the Poseidon reference scripts, 80 bits of state in a ring buffer.
class grain_lfsr {
 public:
  grain_lfsr(unsigned field_bits, unsigned t, unsigned r_f, unsigned r_p) {
    size_t k = 0;
    auto put = [&](unsigned nbits, uint64_t v) {
      for (unsigned i = nbits; i-- > 0;) state_[k++] = (v >> i) & 1;  // MSB first
    };
    put(2, 1);  // field: prime
    put(4, 1);  // S-box: x^alpha
    put(12, field_bits);
    put(12, t);
    put(10, r_f);
    put(10, r_p);
    put(30, (uint64_t(1) << 30) - 1);
    for (int i = 0; i < 160; ++i) step();  // discarded warm-up
  }

  // Self-shrinking output: draw pairs (a, b) until a = 1, output b.
  bool next() {
    for (;;) {
      const bool a = step();
      const bool b = step();
      if (a) return b;
    }
  }

 private:
  // b_new = b62 ^ b51 ^ b38 ^ b23 ^ b13 ^ b0, then shift the window by one.
  bool step() {
    auto bit = [&](size_t i) { return state_[(head_ + i) % 80]; };
    const bool nb = bit(62) ^ bit(51) ^ bit(38) ^ bit(23) ^ bit(13) ^ bit(0);
    state_[head_] = nb;  // overwrites b0, which leaves the window
    head_ = (head_ + 1) % 80;
    return nb;
  }

  std::array<bool, 80> state_{};
  size_t head_ = 0;
};

}  // namespace

bool poseidon_arity_supported(size_t arity) {
  return poseidon_partial_rounds(arity) != 0;
}

size_t poseidon_partial_rounds(size_t arity) {
  switch (arity) {
    case 2:
      return 55;
    case 4:
      return 56;
    case 8:
      return 57;
    case 11:
      return 57;
    case 16:
      return 59;
    case 24:
      return 59;
    case 36:
      return 60;
    default:
      return 0;
  }
}

bool invert_matrix(const square_matrix_t& a, square_matrix_t& out) {
  const size_t n = a.n;
  square_matrix_t m = a;
  out = identity(n);
  for (size_t col = 0; col < n; ++col) {
    size_t piv = col;
    while (piv < n && m.at(piv, col).is_zero()) ++piv;
    if (piv == n) return false;
    if (piv != col)
      for (size_t j = 0; j < n; ++j) {
        std::swap(m.at(piv, j), m.at(col, j));
        std::swap(out.at(piv, j), out.at(col, j));
      }
    const fr_t inv = m.at(col, col).inverse();
    for (size_t j = 0; j < n; ++j) {
      m.at(col, j) *= inv;
      out.at(col, j) *= inv;
    }
    for (size_t i = 0; i < n; ++i) {
      if (i == col || m.at(i, col).is_zero()) continue;
      const fr_t f = m.at(i, col);
      for (size_t j = 0; j < n; ++j) {
        m.at(i, j) -= f * m.at(col, j);
        out.at(i, j) -= f * out.at(col, j);
      }
    }
  }
  return true;
}

std::vector<fr_t> grain_round_constants(unsigned field_bits, unsigned t, unsigned r_f,
                                        unsigned r_p) {
  grain_lfsr g(field_bits, t, r_f, r_p);
  const size_t count = size_t(r_f + r_p) * t;
  std::vector<fr_t> out;
  out.reserve(count);
  while (out.size() < count) {
    // field_bits bits, MSB first, as a big-endian integer; rejected when ≥ r.
    ff::limbs<4> x{};
    for (unsigned i = field_bits; i-- > 0;)
      if (g.next()) x[i / 64] |= uint64_t(1) << (i % 64);
    fr_t f;
    if (fr_t::from_canonical_checked(x, f)) out.push_back(f);
  }
  return out;
}

poseidon_constants_t make_poseidon_constants(size_t arity) {
  if (!poseidon_arity_supported(arity)) {
    precondition_failed(__func__, "unsupported arity %zu", arity);
  }
  poseidon_constants_t c;
  c.arity = arity;
  c.width = arity + 1;
  c.full_rounds = POSEIDON_FULL_ROUNDS;
  c.partial_rounds = poseidon_partial_rounds(arity);
  const size_t t = c.width, half = c.half_full_rounds(), rp = c.partial_rounds;
  c.round_constants =
      grain_round_constants(255, unsigned(t), unsigned(c.full_rounds), unsigned(rp));

  // Cauchy MDS: x_i = i, y_j = t + j, M[i][j] = 1/(x_i + y_j) = 1/(i + j + t).
  c.mds = make_matrix(t);
  for (size_t i = 0; i < t; ++i)
    for (size_t j = 0; j < t; ++j) c.mds.at(i, j) = fr_t::from_uint(i + j + t).inverse();
  if (!invert_matrix(c.mds, c.mds_inv)) {
    precondition_failed(__func__, "singular MDS");
  }

  // Compressed round constants (neptune preprocessing.rs, all R_P partial rounds preprocessed):
  // a constant k added after a linear layer M equals M·(M^-1 k) added before it, so every key but
  // the first round's moves in front of the previous S-box layer as a post-S-box key. Through the
  // partial rounds only element 0 is S-boxed, so the keys of elements 1.. keep moving back and only
  // the element-0 share stays in each partial round.
  auto keys = [&](size_t r) { return std::span<const fr_t>(c.round_constants).subspan(r * t, t); };
  std::vector<fr_t>& out = c.compressed_round_constants;
  out.assign(keys(0).begin(), keys(0).end());
  for (size_t i = 0; i + 1 < half; ++i) {
    const vec_t inv = left_apply(c.mds_inv, keys(i + 1));
    out.insert(out.end(), inv.begin(), inv.end());
  }
  const size_t final_round = half + rp;
  vec_t acc(keys(final_round).begin(), keys(final_round).end());
  vec_t partial_keys;  // in reverse round order
  for (size_t i = 0; i < rp; ++i) {
    vec_t inv = left_apply(c.mds_inv, acc);
    partial_keys.push_back(inv[0]);
    inv[0] = fr_t::zero();
    const auto prev = keys(final_round - i - 1);
    for (size_t j = 0; j < t; ++j) acc[j] = prev[j] + inv[j];
  }
  {
    const vec_t inv = left_apply(c.mds_inv, acc);
    out.insert(out.end(), inv.begin(), inv.end());
  }
  out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());
  for (size_t i = 1; i < half; ++i) {
    const vec_t inv = left_apply(c.mds_inv, keys(i + half + rp));
    out.insert(out.end(), inv.begin(), inv.end());
  }

  // Sparse factorization (neptune mds.rs factor_to_sparse_matrices, base = M^T = M): from the
  // last partial round back, M_cur = M'·M''; M'' stays with that round, M·M' moves one round back.
  // After R_P steps the accumulated product is the pre-sparse matrix of round R_F/2 - 1.
  square_matrix_t cur = c.mds;
  std::vector<square_matrix_t> dprimes;
  for (size_t k = 0; k < rp; ++k) {
    square_matrix_t prime, dprime;
    factor_prime(cur, prime, dprime);
    dprimes.push_back(std::move(dprime));
    cur = mat_mul(c.mds, prime);
  }
  c.pre_sparse = std::move(cur);
  c.sparse.resize(rp);
  for (size_t k = 0; k < rp; ++k) {
    const square_matrix_t& d = dprimes[rp - 1 - k];
    sparse_matrix_t& s = c.sparse[k];
    s.w_hat.resize(t);
    for (size_t i = 0; i < t; ++i) s.w_hat[i] = d.at(i, 0);
    s.v_rest.assign(d.m.begin() + 1, d.m.begin() + t);
  }
  return c;
}

const poseidon_constants_t& poseidon_constants(size_t arity) {
  // One slot per arity; std::call_once makes the first computation race-free and later calls a
  // single acquire load.
  struct slot {
    std::once_flag once;
    std::unique_ptr<poseidon_constants_t> value;
  };
  static slot slots[POSEIDON_MAX_ARITY + 1];
  if (arity > POSEIDON_MAX_ARITY || !poseidon_arity_supported(arity)) {
    precondition_failed(__func__, "unsupported arity %zu", arity);
  }
  slot& s = slots[arity];
  std::call_once(s.once, [&] {
    s.value = std::make_unique<poseidon_constants_t>(make_poseidon_constants(arity));
  });
  return *s.value;
}

}  // namespace cuzk::filecoin::hash
