// SPDX-License-Identifier: Apache-2.0
// Fixed-base scalar multiplication k·G for one generator and many scalars (the setup's workload),
// and Montgomery batch normalisation of Jacobian points to affine.
//   Table: T[w][d] = d·2^(8w)·G for the 32 byte windows w and digits d = 1..255 (8160 affine
//   points, 0.8 MB for G1, 1.6 MB for G2), built once with 32·(8 dbl + 254 add) and one batch
//   inversion. Then k·G = Σ_w T[w][byte_w(k)]: at most 32 mixed additions, no doublings.
#pragma once

#include <span>
#include <vector>

#include "base/thread_pool.hpp"
#include "ec/point.hpp"

namespace cuzk::groth16 {

/// out[i] = in[i] in affine with one field inversion for the whole batch (Montgomery's trick:
/// prefix products of Z, one inverse, then a backward sweep; 3 multiplications per point plus the
/// x·Z^-2, y·Z^-3 products). Infinity maps to affine (0, 0). in and out have equal length.
template <class Field>
void batch_to_affine(std::span<const ec::jacobian_t<Field>> in,
                     std::span<ec::affine_t<Field>> out) {
  const size_t n = in.size();
  std::vector<Field> prefix(n);
  Field acc = Field::one();
  for (size_t i = 0; i < n; ++i) {
    prefix[i] = acc;
    if (!in[i].is_infinity()) acc *= in[i].z;
  }
  Field inv = acc.inverse();
  for (size_t i = n; i-- > 0;) {
    if (in[i].is_infinity()) {
      out[i] = ec::affine_t<Field>::infinity();
      continue;
    }
    const Field zi = inv * prefix[i];  // 1/Z_i
    inv *= in[i].z;
    const Field zi2 = zi.sqr();
    out[i] = {in[i].x * zi2, in[i].y * zi2 * zi};
  }
}

template <class Field>
class fixed_base_table {
 public:
  static constexpr unsigned WINDOWS = 32;  // 256 bits in bytes; canonical Fr < 2^255
  static constexpr unsigned DIGITS = 255;  // d = 1..255 (d = 0 adds nothing)

  fixed_base_table(const ec::affine_t<Field>& g, thread_pool& pool) : table_(WINDOWS * DIGITS) {
    // base_w = 2^(8w)·G, sequentially (8 doublings per window).
    std::vector<ec::jacobian_t<Field>> base(WINDOWS);
    base[0] = ec::jacobian_t<Field>::from_affine(g);
    for (unsigned w = 1; w < WINDOWS; ++w) {
      ec::jacobian_t<Field> b = base[w - 1];
      for (int i = 0; i < 8; ++i) b = b.dbl();
      base[w] = b;
    }
    std::vector<ec::jacobian_t<Field>> jac(WINDOWS * DIGITS);
    pool.parallel_for(WINDOWS, [&](size_t w) {
      ec::jacobian_t<Field> acc = base[w];
      for (unsigned d = 0; d < DIGITS; ++d) {
        jac[w * DIGITS + d] = acc;
        acc += base[w];
      }
    });
    batch_to_affine<Field>(jac, table_);
  }

  /// k·G for k ∈ Fr (its canonical integer).
  ec::jacobian_t<Field> mul(const ff::fr_t& k) const {
    const ff::limbs<4> c = k.to_canonical();
    ec::jacobian_t<Field> acc = ec::jacobian_t<Field>::infinity();
    for (unsigned w = 0; w < WINDOWS; ++w) {
      const unsigned d = unsigned(c[w / 8] >> (8 * (w % 8))) & 0xff;
      if (d != 0) acc = acc.add_affine(table_[w * DIGITS + d - 1]);
    }
    return acc;
  }

  /// The table as built: entry w·DIGITS + d − 1 is d·2^(8w)·G (for backends that upload it).
  std::span<const ec::affine_t<Field>> entries() const { return table_; }

 private:
  std::vector<ec::affine_t<Field>> table_;
};

}  // namespace cuzk::groth16
