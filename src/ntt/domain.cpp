// SPDX-License-Identifier: Apache-2.0
// domain_t construction: roots by repeated squaring of the 2^32-th root, inverses by Fermat, and
// the stage twiddle tables by running products (2^log_rows multiplications per direction).
#include "ntt/domain.hpp"

#include <string>

namespace cuzk::ntt {

using ff::fr_t;

namespace {

// Above 2^12 elements (128 KiB) a single radix-2 pass starts streaming each stage from L2 or
// memory; from there the transform is split into columns and rows of at most 2^14 (512 KiB).
constexpr unsigned SINGLE_PASS_MAX_LOG = 12;

/// tw[h + j] = root_2h^j for h = 1, 2, …, len/2 and j < h, where root_len is a primitive len-th
/// root; root_2h = root_len^(len/2h) is obtained by squaring.
std::vector<fr_t> stage_table(unsigned log_len, const fr_t& root_len) {
  const size_t len = size_t(1) << log_len;
  std::vector<fr_t> tw(len > 1 ? len : 2, fr_t::zero());
  fr_t root = root_len;  // primitive (2h)-th root for the current h, starting at h = len/2
  for (size_t h = len / 2; h >= 1; h /= 2) {
    fr_t w = fr_t::one();
    for (size_t j = 0; j < h; ++j) {
      tw[h + j] = w;
      w *= root;
    }
    root = root.sqr();
  }
  return tw;
}

}  // namespace

result<domain_t> domain_t::create(uint64_t n) {
  unsigned lg = 0;
  while (lg <= MAX_LOG_SIZE && (uint64_t(1) << lg) < n) ++lg;
  if (lg > MAX_LOG_SIZE) {
    return {status_code::invalid_argument,
            "NTT domain for " + std::to_string(n) + " values exceeds 2^32 (Fr two-adicity)"};
  }
  return for_log_size(lg);
}

result<domain_t> domain_t::for_log_size(unsigned lg) {
  if (lg > MAX_LOG_SIZE) {
    return {status_code::invalid_argument,
            "NTT domain 2^" + std::to_string(lg) + " exceeds 2^32 (Fr two-adicity)"};
  }
  domain_t d;
  d.log_size_ = lg;
  // ω = ROOT_OF_UNITY^(2^(32 - lg)): squaring a primitive 2^32-th root 32 - lg times.
  fr_t w = ff::FR_ROOT_OF_UNITY;
  for (unsigned i = lg; i < MAX_LOG_SIZE; ++i) w = w.sqr();
  d.omega_ = w;
  d.omega_inv_ = w.inverse();
  d.size_inv_ = fr_t::from_uint(2).inverse().pow(lg);
  d.g_ = fr_t::from_uint(bls12_381::FR_GENERATOR);
  d.g_inv_ = d.g_.inverse();
  fr_t gm = d.g_;
  for (unsigned i = 0; i < lg; ++i) gm = gm.sqr();  // g^(2^lg)
  d.z_coset_ = gm - fr_t::one();
  d.z_coset_inv_ = d.z_coset_.inverse();

  if (lg <= SINGLE_PASS_MAX_LOG) {
    d.log_cols_ = 0;
    d.log_rows_ = lg;
  } else {
    d.log_cols_ = lg / 2;
    d.log_rows_ = lg - d.log_cols_;
  }
  // Stage tables cover half-spans up to 2^(log_rows - 1); the column transforms (log_cols ≤
  // log_rows) use the prefix. The root of length 2^log_rows is ω^(2^log_cols).
  fr_t wr = d.omega_, wri = d.omega_inv_;
  for (unsigned i = 0; i < d.log_cols_; ++i) {
    wr = wr.sqr();
    wri = wri.sqr();
  }
  d.tw_fwd_ = stage_table(d.log_rows_, wr);
  d.tw_inv_ = stage_table(d.log_rows_, wri);
  return d;
}

}  // namespace cuzk::ntt
