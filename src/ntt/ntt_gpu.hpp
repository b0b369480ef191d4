// SPDX-License-Identifier: Apache-2.0
// GPU NTT over Fr with the CPU reference's semantics (ntt_cpu.hpp, bellperson's EvaluationDomain):
// fft, ifft (with m^-1), coset_fft, icoset_fft, and the four input/output orders. Radix-2^k passes
// through shared memory (at most 10 stages per pass, so 2^27 takes 3 passes). Free of CUDA
// headers; device pointers are plain fr_t* to device memory. Design and figures: docs/notes/gpu.md.
#pragma once

#include <span>

#include "ff/fields.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt_cpu.hpp"

namespace cuzk::ntt::gpu {

enum class ntt_kind { fft, ifft, coset_fft, icoset_fft };

/// Transforms d_a, a device array of d.size() elements, in place on the current device; returns
/// when the work is done. Twiddle tables are built once per (device, size) and cached.
void transform_device(const domain_t& d, ff::fr_t* d_a, ntt_kind kind,
                      ntt_order order = ntt_order::nn);

/// Host array version: copies a to the device, transforms, copies back.
void transform(const domain_t& d, std::span<ff::fr_t> a, ntt_kind kind,
               ntt_order order = ntt_order::nn);

/// Releases the cached twiddle tables of the current device.
void release_tables();

}  // namespace cuzk::ntt::gpu
