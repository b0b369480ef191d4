// SPDX-License-Identifier: Apache-2.0
// RAII owners of CUDA resources: device_buffer<T> (cudaMalloc'd array of T, freed on scope exit,
// movable, not copyable) and cuda_event (a timing event). Every call is checked with CUZK_CUDA_OK,
// so a failed allocation surfaces as gpu_error naming the call (out-of-memory included). nvcc only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "gpu/gpu_error.hpp"

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

  /// Host → device copy of `count` elements (synchronous with respect to the host).
  void upload(const void* host, size_t count) {
    if (count != 0) CUZK_CUDA_OK(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(void* host, size_t count) const {
    if (count != 0) CUZK_CUDA_OK(cudaMemcpy(host, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

class cuda_event {
 public:
  cuda_event() { CUZK_CUDA_OK(cudaEventCreate(&ev_)); }
  ~cuda_event() { cudaEventDestroy(ev_); }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  cudaEvent_t get() const { return ev_; }
  void record(cudaStream_t s = nullptr) { CUZK_CUDA_OK(cudaEventRecord(ev_, s)); }
  /// Milliseconds from `start` to this event (both recorded; waits for this one).
  float since(const cuda_event& start) const {
    CUZK_CUDA_OK(cudaEventSynchronize(ev_));
    float ms = 0;
    CUZK_CUDA_OK(cudaEventElapsedTime(&ms, start.ev_, ev_));
    return ms;
  }

 private:
  cudaEvent_t ev_{};
};

/// Checks the launch that just happened (bad configuration, missing kernel image).
#define CUZK_CUDA_LAUNCH_OK() CUZK_CUDA_OK(cudaGetLastError())

}  // namespace cuzk::gpu
