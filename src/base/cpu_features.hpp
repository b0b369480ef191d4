// SPDX-License-Identifier: Apache-2.0
// Run-time check that the CPU has what the build assumes: with CUZK_X86_ASM the field
// multiplication uses MULX (BMI2) and ADCX/ADOX (ADX), present since Intel Broadwell and AMD Zen.
#pragma once

#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace cuzk {

/// Empty when the CPU is fine, else a one-line explanation.
inline std::string check_cpu_features() {
#if defined(CUZK_X86_ASM) && defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return "cannot query CPUID leaf 7";
  const bool bmi2 = ebx & (1u << 8), adx = ebx & (1u << 19);
  if (!bmi2 || !adx) {
    return "this CPU lacks BMI2/ADX, which this build's field arithmetic uses; rebuild with "
           "-DCUZK_X86_ASM=OFF";
  }
#endif
  return {};
}

}  // namespace cuzk
