// SPDX-License-Identifier: Apache-2.0
// domain_t: the radix-2 evaluation domain of bellperson's EvaluationDomain (docs/spec/groth16.md
// §5): m = 2^k ≥ n, ω = ROOT_OF_UNITY^(2^(32-k)), the coset generator g = 7 and the vanishing value
// Z = g^m − 1 on the coset g·⟨ω⟩, plus the per-stage twiddle tables the CPU NTT reads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/status.hpp"
#include "ff/fields.hpp"

namespace cuzk::ntt {

/// Fr's two-adicity: the largest domain is 2^32.
inline constexpr unsigned MAX_LOG_SIZE = ff::fr_t::TWO_ADICITY;

class domain_t {
 public:
  /// The domain for n values: m = smallest power of two ≥ n (m = 1 for n ≤ 1).
  /// invalid_argument when m > 2^32.
  static result<domain_t> create(uint64_t n);
  /// The domain of size 2^log_size; invalid_argument when log_size > 32.
  static result<domain_t> for_log_size(unsigned log_size);

  uint64_t size() const { return uint64_t(1) << log_size_; }
  unsigned log_size() const { return log_size_; }

  const ff::fr_t& omega() const { return omega_; }          ///< ω, a primitive m-th root of 1
  const ff::fr_t& omega_inv() const { return omega_inv_; }  ///< ω^-1
  const ff::fr_t& size_inv() const { return size_inv_; }    ///< m^-1
  const ff::fr_t& coset_gen() const { return g_; }          ///< g = 7
  const ff::fr_t& coset_gen_inv() const { return g_inv_; }  ///< g^-1
  /// Z(g·ω^i) = (g·ω^i)^m − 1 = g^m − 1 for every point of the coset: what Groth16's H divides by.
  const ff::fr_t& z_coset() const { return z_coset_; }
  const ff::fr_t& z_coset_inv() const { return z_coset_inv_; }  ///< (g^m − 1)^-1

  /// The split m = 2^log_cols · 2^log_rows used by the four-step NTT (log_cols = 0: one in-cache
  /// pass). Rows are 2^log_rows contiguous elements; columns are strided by 2^log_rows.
  unsigned log_cols() const { return log_cols_; }
  unsigned log_rows() const { return log_rows_; }

  /// Per-stage twiddles for the butterflies of half-span h ≤ 2^(log_rows-1): entry h + j is
  /// w_2h^j (j < h), w_2h = ω^(m/2h) (forward) or ω^-(m/2h) (inverse). Entry 0 is unused.
  std::span<const ff::fr_t> stage_twiddles(bool inverse) const {
    return inverse ? std::span<const ff::fr_t>(tw_inv_) : std::span<const ff::fr_t>(tw_fwd_);
  }

 private:
  domain_t() = default;

  unsigned log_size_ = 0, log_cols_ = 0, log_rows_ = 0;
  ff::fr_t omega_{}, omega_inv_{}, size_inv_{}, g_{}, g_inv_{}, z_coset_{}, z_coset_inv_{};
  std::vector<ff::fr_t> tw_fwd_, tw_inv_;
};

}  // namespace cuzk::ntt
