// SPDX-License-Identifier: Apache-2.0
// GPU NTT over Fr with the CPU reference's semantics (ntt_cpu.hpp, bellperson's EvaluationDomain):
// fft, ifft (with m^-1), coset_fft, icoset_fft, and the four input/output orders. Radix-2^k passes
// through shared memory (at most 10 stages per pass, so 2^27 takes 3 passes). Twiddle tables
// belong to the device context (built once per size). Free of CUDA headers; device pointers are
// plain fr_t* to device memory. Design and figures: docs/notes/gpu.md.
#pragma once

#include <span>

#include "ff/fields.hpp"
#include "gpu/runtime.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt_cpu.hpp"

namespace cuzk::ntt::cuda {

using cuzk::gpu::device_context;
using cuzk::gpu::stream;

enum class ntt_kind { fft, ifft, coset_fft, icoset_fft };

/// Enqueues the in-place transform of d_a, a device array of d.size() elements on ctx's device,
/// on `s` and returns without waiting (the first use of a size builds its tables and waits for
/// that). Synchronize `s` (or record an event) before reading d_a on the host or another stream.
void transform_device(device_context& ctx, const stream& s, const domain_t& d, ff::fr_t* d_a,
                      ntt_kind kind, ntt_order order = ntt_order::nn);

/// The prover's step from the QAP's a (or b, c) to its values on the coset: d_a holds the values
/// on the domain H and is left holding the values on the coset g·H, both in natural order —
/// ifft then coset_fft as a decimation-in-frequency inverse transform (natural → bit-reversed)
/// with m^-1·g^i applied as its last pass stores and a decimation-in-time forward transform
/// (bit-reversed → natural) with no factor: no bit reversal, one multiply per element fewer than
/// the two calls of transform_device. Enqueued on `s` like transform_device.
void coset_evaluations(device_context& ctx, const stream& s, const domain_t& d, ff::fr_t* d_a);

/// The prover's quotient: d_a, d_b, d_c hold A, B, C on the coset g·H in natural order (as
/// coset_evaluations leaves them); d_a is left holding the coefficients of H = (A·B − C)/Z in
/// natural order, Z = x^m − 1 (the constant g^m − 1 on the coset) — the pointwise step and
/// icoset_fft as one decimation-in-frequency inverse transform whose first pass computes
/// a·b − c as it loads and whose last applies g^-i·m^-1·Z^-1 as it stores, then the bit
/// reversal. d_b and d_c are only read; d_b null: d_a holds A·B already (coset_product), so the
/// prover needs two domain buffers, not three. Enqueued on `s`.
void coset_quotient(device_context& ctx, const stream& s, const domain_t& d, ff::fr_t* d_a,
                    const ff::fr_t* d_b, const ff::fr_t* d_c);

/// d_a[i] ·= d_b[i] over the domain (A·B on the coset, before C is evaluated into d_b's buffer).
/// Enqueued on `s`.
void coset_product(device_context& ctx, const stream& s, const domain_t& d, ff::fr_t* d_a,
                   const ff::fr_t* d_b);

/// Host array version: copies a to the device, transforms, copies back; returns when done.
void transform(device_context& ctx, const stream& s, const domain_t& d, std::span<ff::fr_t> a,
               ntt_kind kind, ntt_order order = ntt_order::nn);

}  // namespace cuzk::ntt::cuda
