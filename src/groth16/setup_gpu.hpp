// SPDX-License-Identifier: Apache-2.0
// The Groth16 setup's fixed-base multiplications on a CUDA device (a fixed_base_backend for
// generate_parameters, setup.hpp): the same byte-window tables the CPU uses (fixed_base.hpp,
// built on the host and uploaded once per call, 0.8 MB for G1, 1.6 MB for G2), one thread per
// scalar summing its ≤ 32 table entries in XYZZ coordinates, then affine by one Fermat inversion
// per point. Affine coordinates are unique, so the points are the CPU's, byte for byte.
// Cost per point: ≤ 32 mixed additions (8M + 2S) and one inversion (≈ 380S + 190M), G2 in Fp2.
// Free of CUDA headers; a CUDA failure is a status naming the call. docs/notes/groth16.md.
#pragma once

#include <memory>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "groth16/setup.hpp"

namespace cuzk::groth16::cuda {

/// A backend on CUDA device `device` (invalid_argument when there is none). Scalars are converted
/// to canonical form on `pool` and streamed through the device in chunks, so device memory stays
/// bounded (≈ 0.5 GB for G1, 0.9 GB for G2 at the default 2^22 points per chunk) whatever the
/// query size. chunk_points: 0 for the default (tests pass small ones to cross chunk edges).
result<std::unique_ptr<fixed_base_backend>> make_fixed_base_backend(int device, thread_pool& pool,
                                                                    size_t chunk_points = 0);

}  // namespace cuzk::groth16::cuda
