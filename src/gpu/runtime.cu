// SPDX-License-Identifier: Apache-2.0
#include <cuda_runtime.h>

#include "gpu/gpu_error.hpp"
#include "gpu/runtime.hpp"

namespace cuzk::gpu {

std::vector<device_info> list_devices() {
  std::vector<device_info> out;
  int count = 0;
  // No driver / no device is not an error for the caller: report an empty list.
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    return out;
  }
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    CUZK_CUDA_OK(cudaGetDeviceProperties(&prop, d));
    out.push_back({d, prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                   size_t(prop.totalGlobalMem)});
  }
  return out;
}

std::string runtime_version() {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) return "none";
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace cuzk::gpu
