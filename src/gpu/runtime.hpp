// SPDX-License-Identifier: Apache-2.0
// Host-side view of the CUDA devices, free of CUDA headers so apps and the engine can include it.
#pragma once

#include <string>
#include <vector>

#include "base/status.hpp"

namespace cuzk::gpu {

struct device_info {
  int ordinal = 0;
  std::string name;
  int sm_major = 0, sm_minor = 0;
  int multiprocessors = 0;
  size_t total_memory_bytes = 0;
};

/// The CUDA devices visible to this process; an empty list (not an error) when there are none or
/// no driver is installed, since a CPU-only machine is a normal place to run cuzk.
std::vector<device_info> list_devices();

/// CUDA runtime version as "13.0", or "none".
std::string runtime_version();

}  // namespace cuzk::gpu
