// SPDX-License-Identifier: Apache-2.0
// device_buffer<T>: a cudaMalloc'd array of T on the current device, freed on scope exit, movable,
// not copyable. Copies are enqueued on a gpu::stream (runtime.hpp). Every call is checked with
// CUZK_CUDA_OK, so a failed allocation surfaces as gpu_error naming the call (out-of-memory
// included). nvcc only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "gpu/gpu_error.hpp"
#include "gpu/runtime.hpp"

namespace cuzk::gpu {

template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(size_t count) : count_(count) {
    if (count_ != 0) CUZK_CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()));
  }
  ~device_buffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);  // no throw from a destructor; errors are sticky anyway
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      if (ptr_ != nullptr) cudaFree(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }

  T* data() const { return ptr_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

  /// Host → device copy of `count` elements, ordered on `s`; the host array may be reused when
  /// this returns (a pageable source is staged by the runtime before the call returns).
  void upload(const void* host, size_t count, const stream& s) {
    if (count != 0) {
      CUZK_CUDA_OK(cudaMemcpyAsync(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice, s.get()));
    }
  }
  /// Device → host copy of `count` elements after the work enqueued on `s`; returns when the
  /// host array holds them.
  void download(void* host, size_t count, const stream& s) const {
    if (count != 0) {
      CUZK_CUDA_OK(cudaMemcpyAsync(host, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost, s.get()));
      s.synchronize();
    }
  }
  /// Blocking copies on the legacy default stream, for code that runs no streams of its own (the
  /// device arithmetic tests and field benchmarks); library code passes a stream.
  void upload(const void* host, size_t count) {
    if (count != 0) CUZK_CUDA_OK(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(void* host, size_t count) const {
    if (count != 0) CUZK_CUDA_OK(cudaMemcpy(host, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  /// Zeroes the buffer, ordered on `s`.
  void zero(const stream& s) {
    if (count_ != 0) CUZK_CUDA_OK(cudaMemsetAsync(ptr_, 0, bytes(), s.get()));
  }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

/// Checks the launch that just happened (bad configuration, missing kernel image).
#define CUZK_CUDA_LAUNCH_OK() CUZK_CUDA_OK(cudaGetLastError())

}  // namespace cuzk::gpu
