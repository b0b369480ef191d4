// SPDX-License-Identifier: Apache-2.0
// CPU NTT over Fr with bellperson's semantics (docs/spec/groth16.md §5): fft, ifft (including the
// m^-1 factor), coset_fft (coefficient i times g^i, then fft) and icoset_fft (ifft, then
// coefficient i times g^-i). In place, multi-threaded through a caller's thread_pool; the reference
// the GPU NTT is checked against. Algorithm and figures: docs/notes/ntt.md.
#pragma once

#include <span>

#include "base/thread_pool.hpp"
#include "ff/fields.hpp"
#include "ntt/domain.hpp"

namespace cuzk::ntt {

/// Element order of the input (first letter) and output (second letter): n = natural, r = bit
/// reversed (element with logical index i stored at position bitrev_log m(i)). The logical
/// semantics (which coefficient is multiplied by g^i, which output is the value at ω^k) do not
/// change with the order. nr and rn are the cheapest (no permutation pass); nn is the default.
enum class ntt_order { nn, nr, rn, rr };

/// a[k] = Σ_i a[i]·ω^(ik). Precondition: a.size() == d.size() (checked; aborts otherwise).
void fft(const domain_t& d, std::span<ff::fr_t> a, thread_pool& pool,
         ntt_order order = ntt_order::nn);
/// a[i] = m^-1 · Σ_k a[k]·ω^(-ik): the inverse of fft.
void ifft(const domain_t& d, std::span<ff::fr_t> a, thread_pool& pool,
          ntt_order order = ntt_order::nn);
/// Evaluation on the coset g·⟨ω⟩: a[k] = Σ_i a[i]·g^i·ω^(ik).
void coset_fft(const domain_t& d, std::span<ff::fr_t> a, thread_pool& pool,
               ntt_order order = ntt_order::nn);
/// The inverse of coset_fft: a[i] = g^-i · m^-1 · Σ_k a[k]·ω^(-ik).
void icoset_fft(const domain_t& d, std::span<ff::fr_t> a, thread_pool& pool,
                ntt_order order = ntt_order::nn);

/// In-place bit-reversal permutation of a power-of-two-sized array (a[i] ↔ a[bitrev(i)]),
/// cache-blocked; converts between the n and r orders.
void bit_reverse(std::span<ff::fr_t> a, thread_pool& pool);

}  // namespace cuzk::ntt
