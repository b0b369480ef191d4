// SPDX-License-Identifier: Apache-2.0
// gpu_error and CUZK_CUDA_OK: every CUDA runtime call inside gpu/, ntt/, msm/ is wrapped so a
// failure becomes an exception naming the call, file and line (CONTRIBUTING.md "Code rules",
// errors); the engine's GPU worker turns it into a status. Include only from .cu files (it needs
// cuda_runtime.h).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace cuzk::gpu {

class gpu_error : public std::runtime_error {
 public:
  gpu_error(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

[[noreturn]] inline void throw_cuda_error(cudaError_t code, const char* expr, const char* file,
                                          int line) {
  throw gpu_error(code, std::string(expr) + "@" + file + ":" + std::to_string(line) + ": " +
                            cudaGetErrorName(code) + ": " + cudaGetErrorString(code));
}

}  // namespace cuzk::gpu

#define CUZK_CUDA_OK(expr)                                                         \
  do {                                                                             \
    cudaError_t cuzk_cuda_status_ = (expr);                                        \
    if (cuzk_cuda_status_ != cudaSuccess)                                          \
      ::cuzk::gpu::throw_cuda_error(cuzk_cuda_status_, #expr, __FILE__, __LINE__); \
  } while (0)
