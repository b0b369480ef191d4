// SPDX-License-Identifier: Apache-2.0
// The device twin of the uncompressed ZCash decoders (serialization.hpp) for bulk loading: a
// .params section is copied to the device byte for byte, and a kernel turns the encodings into
// Montgomery affine points in place (an uncompressed G1 encoding and a g1_affine_t are both 96
// bytes, G2 both 192). Loading then costs a file read and a PCIe copy; the host's share per point
// (the Montgomery conversion and the curve equation, ≈ 6 Fp products for G1 and ≈ 20 for G2) goes
// to the GPU, where it is a few milliseconds per GB.
//
// The kernel only classifies: an encoding is accepted when its three flag bits are clear, both
// coordinates are canonical (< p), it is not the all-zero pair (infinity in memory) and, with
// curve_check::on_curve, y² = x³ + b. That is exactly what the host codec accepts with the
// subgroup check off (flags: compressed and sign are errors in an uncompressed encoding, infinity
// is refused by the parameter reader); the subgroup check has no device form here, so callers
// that want it decode on the host. The lowest rejected index is reported, and the caller decodes
// that one encoding on the host for the exact status (code and message as the host path gives).
// Free of CUDA headers.
#pragma once

#include <cstdint>

namespace cuzk::gpu {
class stream;
}

namespace cuzk::ec::cuda {

/// The algebraic check the device decoder applies on top of the byte checks.
enum class curve_check : uint8_t {
  none,      ///< flags, canonical coordinates, not infinity (params_io's point_checks::none)
  on_curve,  ///< and the curve equation (point_checks::on_curve_only)
};

/// Marks "no encoding rejected" in the first-bad slot.
inline constexpr unsigned long long NO_REJECTED_INDEX = ~0ull;

/// Enqueues on `s` the in-place decode of `count` uncompressed G1 encodings at `d_points` (device
/// memory, 16-byte aligned, 96·count bytes) into g1_affine_t. The lowest rejected index, counted
/// from `first_index` (the index of d_points[0] in a larger array decoded in pieces), is merged
/// into *d_first_rejected by atomicMin (initialise it to NO_REJECTED_INDEX); the bytes at rejected
/// indices are unspecified afterwards. Throws gpu_error on a CUDA failure, std::invalid_argument
/// on a misaligned pointer.
void g1_from_uncompressed_in_place(void* d_points, uint64_t count, uint64_t first_index,
                                   curve_check check, unsigned long long* d_first_rejected,
                                   const cuzk::gpu::stream& s);
/// The same for G2 (192-byte encodings, Fp2 as c1 ‖ c0) into g2_affine_t.
void g2_from_uncompressed_in_place(void* d_points, uint64_t count, uint64_t first_index,
                                   curve_check check, unsigned long long* d_first_rejected,
                                   const cuzk::gpu::stream& s);

}  // namespace cuzk::ec::cuda
