// SPDX-License-Identifier: Apache-2.0
// cuda_status: the status an API edge returns for a gpu_error it caught (gpu_error.hpp). nvcc or
// any file that includes cuda_runtime.h.
#pragma once

#include <string>

#include "cuzk/status.hpp"
#include "gpu/gpu_error.hpp"

namespace cuzk::gpu {

/// The message names the failed call, file, line and the CUDA error; out-of-memory is called out
/// as such and is resource_exhausted (a resource the caller may re-plan for, not a device fault),
/// every other CUDA error internal.
inline status cuda_status(const gpu_error& e, const char* where) {
  std::string msg = std::string(where) + ": ";
  if (e.code() == cudaErrorMemoryAllocation) {
    return status(status_code::resource_exhausted, msg + "out of device memory: " + e.what());
  }
  return status(status_code::internal, msg + e.what());
}

}  // namespace cuzk::gpu
