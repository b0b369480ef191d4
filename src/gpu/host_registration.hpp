// SPDX-License-Identifier: Apache-2.0
// Page-locking host memory that someone else allocated (cudaHostRegister), so an upload from it
// runs as one DMA at the link's rate (≈ 50 GB/s on the H200 host) instead of through the
// stager's CPU copy into pinned staging (≈ 10–12 GB/s: the copy sets the rate). The engine locks
// its recycled witness buffers once and keeps them locked across partitions; stager::upload
// takes the direct path by itself when its source is locked. CUDA-header free, like runtime.hpp.
#pragma once

#include <cstddef>
#include <memory>

#include "cuzk/status.hpp"

namespace cuzk::gpu {

/// [data, data + size) page-locked for every device (portable) until destruction. The memory
/// must stay allocated, at the same address, for the registration's whole life: free or move it
/// only after destroying the registration (a freed, still registered range would keep stale
/// physical pages behind a later allocation at that address).
class host_registration {
 public:
  /// Errors: an empty range (invalid_argument), a range already (partly) registered or the
  /// driver's refusal (no device, out of lockable memory), named as the CUDA error.
  static result<std::unique_ptr<host_registration>> make(const void* data, size_t bytes);
  ~host_registration();
  host_registration(const host_registration&) = delete;
  host_registration& operator=(const host_registration&) = delete;

  const void* data() const { return data_; }
  size_t size() const { return bytes_; }

 private:
  host_registration(void* data, size_t bytes) : data_(data), bytes_(bytes) {}
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

/// Whether the first and the last byte of [data, data + bytes) are page-locked host memory
/// (cudaHostAlloc'd or registered); false for an empty range or without a driver. One
/// registration covering both ends covers the range (host_registration never leaves holes).
bool is_page_locked(const void* data, size_t bytes);

}  // namespace cuzk::gpu
