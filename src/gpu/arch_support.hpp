// SPDX-License-Identifier: Apache-2.0
// Which of a binary's device code a card runs, from the CUDA architectures it was built for (a
// CMake CUDA_ARCHITECTURES list: "80-real;86-real;89-real;90-real;100-real;120") and the card's
// compute capability. Pure functions, no CUDA: runtime.hpp applies them to a device and confirms
// with a kernel of the binary (check_device_supported). The rules (CUDA C++ Programming Guide,
// "Binary Compatibility" and "PTX Compatibility"): SASS for sm_XY runs on compute capability X.Z
// with Z ≥ Y (same major); PTX for compute_XY is JIT-compiled by the driver for any capability
// ≥ X.Y; an arch-specific target (sm_90a, compute_90a) runs on X.Y only and a family target
// (sm_100f) on the same major with a minor ≥ Y.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cuzk::gpu {

/// One entry of a CUDA_ARCHITECTURES list: "86" (SASS and PTX), "86-real" (SASS only),
/// "86-virtual" (PTX only); an 'a' or 'f' after the number marks an arch-specific or family
/// target ("90a-real").
struct cuda_arch {
  int number = 0;     ///< 10·major + minor: 86 for sm_86, 120 for sm_120
  char variant = 0;   ///< 0, 'a' (that capability only) or 'f' (the family: same major)
  bool sass = false;  ///< native code (sm_XY) is in the binary
  bool ptx = false;   ///< PTX (compute_XY) is in the binary
};

/// The entries of `list` (separated by ';' or ','; blanks ignored), in order. Words that are not
/// an architecture (CMake's "native", "all", "all-major", which the build resolves before it
/// passes the list on) are skipped.
std::vector<cuda_arch> parse_cuda_architectures(std::string_view list);

/// "sm_80 sm_86 sm_90 compute_90": the SASS and PTX targets of `list`, for messages.
std::string describe_cuda_architectures(std::string_view list);

/// How a card runs a binary's kernels.
enum class code_path {
  native,  ///< SASS the card executes as is
  ptx,     ///< PTX the driver JIT-compiles for the card at first use (minutes, then cached)
  none,    ///< nothing: every launch fails with "no kernel image is available"
};

constexpr std::string_view to_string(code_path p) {
  switch (p) {
    case code_path::native:
      return "native";
    case code_path::ptx:
      return "ptx";
    case code_path::none:
      return "none";
  }
  return "unknown";
}

struct code_match {
  code_path path = code_path::none;
  int arch = 0;  ///< the sm_ (native) or compute_ (ptx) number used: the newest that applies
};

/// What a card of compute capability major.minor runs of a binary built for `list`: SASS when
/// some applies (the newest: sm_86 over sm_80 on an sm_89 card), else PTX (the newest ≤ the
/// card), else none. The driver makes the same choice.
code_match match_device_code(int major, int minor, std::string_view list);

/// Whether this binary can run its kernels on a device, and how.
struct device_support {
  int sm_major = 0, sm_minor = 0;
  std::string name;
  /// What the built list gives the card (match_device_code).
  code_match code;
  /// A kernel of the binary loaded on the device (cudaFuncGetAttributes: the driver found SASS
  /// for it or JIT-compiled its PTX). This, not `code`, decides.
  bool loads = false;
  int binary_version = 0;  ///< of the loaded kernel: 86 for sm_86 SASS (JIT output included)
  int ptx_version = 0;     ///< the PTX version the kernel was compiled for
  std::string error;       ///< the runtime's error when it does not load (or the device fails)
};

/// Why device `ordinal` cannot run a binary built for `list` (with the CUDA `runtime` it links
/// and the `driver` installed, "13.0"), for check_device_supported: names the card, its sm_XY,
/// what was built and the fix (a rebuild with its architecture, or for PTX the driver cannot
/// JIT-compile, a driver update). Empty when `d.loads`.
std::string device_support_problem(int ordinal, const device_support& d, std::string_view list,
                                   std::string_view driver, std::string_view runtime);

}  // namespace cuzk::gpu
