// SPDX-License-Identifier: Apache-2.0
// The device context and stream a GPU unit test runs on: device 0, made on first use. A test binary
// aborts with the reason when there is no device (GPU tests carry the label gpu and only run where
// one is).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "gpu/runtime.hpp"

namespace cuzk::test {

inline cuzk::gpu::device_context& gpu_ctx() {
  static cuzk::gpu::device_context ctx = [] {
    auto c = cuzk::gpu::device_context::open(0);
    if (!c) {
      std::fprintf(stderr, "GPU test without a CUDA device: %s\n", c.error().to_string().c_str());
      std::abort();
    }
    return std::move(*c);
  }();
  return ctx;
}

/// One stream on gpu_ctx(), made after it (so destroyed before it).
inline const cuzk::gpu::stream& gpu_stream() {
  static const cuzk::gpu::stream s(gpu_ctx());
  return s;
}

}  // namespace cuzk::test
