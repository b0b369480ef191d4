// SPDX-License-Identifier: Apache-2.0
// device_buffer<T>: an array of T on the current device, freed on scope exit, movable, not
// copyable. Made with cudaMalloc and freed with cudaFree (which waits for the whole device), or,
// inside a gpu::stream_ordered_allocations scope (runtime.hpp), taken from the device's pool and
// returned to it in the order of that scope's stream. Copies are enqueued on a gpu::stream. Every
// call is checked with CUZK_CUDA_OK, so a failed allocation surfaces as gpu_error naming the call
// (out-of-memory included). nvcc only.
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
    if (count_ == 0) return;
    stream_ = allocation_stream();
    if (stream_ != nullptr) {
      CUZK_CUDA_OK(cudaMallocAsync(reinterpret_cast<void**>(&ptr_), bytes(), stream_));
    } else {
      CUZK_CUDA_OK(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()));
    }
  }
  ~device_buffer() { release(); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        count_(std::exchange(o.count_, 0)),
        stream_(std::exchange(o.stream_, nullptr)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
      stream_ = std::exchange(o.stream_, nullptr);
    }
    return *this;
  }

  T* data() const { return ptr_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

  /// Host → device copy of `count` elements, ordered on `s`; the host array may be reused when
  /// this returns (a pageable source is staged by the runtime before the call returns).
  /// Small uploads wait for `s` to reach them (gpu::copy_to_device).
  void upload(const void* host, size_t count, const stream& s) {
    copy_to_device(ptr_, host, count * sizeof(T), s);
  }
  /// Device → host copy of `count` elements after the work enqueued on `s`; returns when the
  /// host array holds them.
  void download(void* host, size_t count, const stream& s) const {
    copy_to_host(host, ptr_, count * sizeof(T), s);
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
  // No throw from a destructor; a failed free leaves a sticky error the next call reports.
  void release() noexcept {
    if (ptr_ == nullptr) return;
    if (stream_ != nullptr) {
      cudaFreeAsync(ptr_, stream_);
    } else {
      cudaFree(ptr_);
    }
    ptr_ = nullptr;
  }

  T* ptr_ = nullptr;
  size_t count_ = 0;
  cudaStream_t stream_ = nullptr;  ///< the stream it was taken from the pool on; null: cudaMalloc
};

/// Checks the launch that just happened (bad configuration, missing kernel image).
#define CUZK_CUDA_LAUNCH_OK() CUZK_CUDA_OK(cudaGetLastError())

}  // namespace cuzk::gpu
