// SPDX-License-Identifier: Apache-2.0
// The CUDA runtime as cuzk uses it, free of CUDA headers so host .cpp files (apps, the engine, the
// prover backends) can hold these objects: the device list, a device_context (one device ordinal
// and the caches that belong to it: NTT twiddle tables, staging buffers), RAII streams and events,
// pinned host memory and the pinned stager. CUDA handles appear as pointers to the runtime's
// opaque structs (cudaStream_t is CUstream_st*, cudaEvent_t is CUevent_st*), so .cu files pass
// them straight to the runtime. Device arrays are device_buffer<T> (device_memory.cuh, nvcc only).
// Every failing CUDA call throws gpu::gpu_error (a std::runtime_error, gpu_error.hpp); functions
// that return a status say so.
#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "gpu/arch_support.hpp"

struct CUstream_st;
struct CUevent_st;

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
/// The newest CUDA version the installed driver supports, as "13.0", or "none" (no driver). PTX
/// built by a newer toolkit than the driver's cannot be JIT-compiled.
std::string driver_version();

/// The CUDA architectures this binary's device code was built for: the CUDA_ARCHITECTURES of
/// the GPU libraries (CMAKE_CUDA_ARCHITECTURES, "native" and "all" resolved by the build), as a
/// CMake list: "80-real;86-real;89-real;90-real;100-real;120".
std::string built_cuda_architectures();

/// The binary's support of device `ordinal`. Never throws; a device that cannot be queried comes
/// back with loads = false and the reason in `error`.
device_support query_device_support(int ordinal);

/// ok when this binary can run kernels on device `ordinal`; invalid_argument otherwise, naming the
/// card, its sm_XY, the architectures built and the rebuild that fixes it (for a driver too old
/// for the binary's PTX, the update); internal when its native code fails to load (a fault of the
/// moment). Definite answers are kept per ordinal for the process.
/// device_context::open checks it, so every GPU path (the CLI's --gpu, the daemon's workers)
/// fails there with this message instead of at the first kernel launch.
status check_device_supported(int ordinal);

class event;
class stager;
class stream;
class host_registration;  // gpu/host_registration.hpp

/// One CUDA device as a library sees it: the ordinal every call on this context runs on, and the
/// per-device resources that outlive one call (twiddle tables keyed by their owner's type and a
/// number, pinned staging sets). Movable, not copyable; the caches are freed on destruction (on
/// this device). Thread-safe: any number of threads may use one context with their own streams.
class device_context {
 public:
  /// A context on device `ordinal`; invalid_argument when there is no such device or this binary
  /// has no code the device can run (check_device_supported).
  static result<device_context> open(int ordinal);
  ~device_context();
  device_context(device_context&&) noexcept;
  device_context& operator=(device_context&&) noexcept;
  device_context(const device_context&) = delete;
  device_context& operator=(const device_context&) = delete;

  int ordinal() const;

  /// The cached object of type T under `key`, made by `make()` (returning std::shared_ptr<T>) on
  /// first use. Creation runs under the cache lock, so `make` must leave the object ready for
  /// any stream (synchronize the stream it built it on). References stay valid until
  /// clear_caches() or destruction.
  template <class T, class Make>
  T& cached(unsigned long long key, Make&& make) {
    std::shared_ptr<void> p = find_or_make(std::type_index(typeid(T)), key,
                                           [&]() { return std::shared_ptr<void>(make()); });
    return *static_cast<T*>(p.get());
  }
  /// Frees every cached object (twiddle tables, staging sets); no call may be using them.
  void clear_caches();

  /// A staging set for this device (reused between calls; a fresh one when all are taken), and
  /// its return for reuse.
  std::unique_ptr<stager> take_stager();
  void put_stager(std::unique_ptr<stager> s);

 private:
  struct state;
  explicit device_context(std::unique_ptr<state> s);
  std::shared_ptr<void> find_or_make(std::type_index type, unsigned long long key,
                                     const std::function<std::shared_ptr<void>()>& make);
  std::unique_ptr<state> s_;
};

/// While alive on the calling thread, device_buffer (device_memory.cuh) allocates on `s`'s device
/// from the device's stream-ordered pool, ordered on `s`, and frees ordered on `s`
/// (cudaMallocAsync / cudaFreeAsync) instead of cudaMalloc / cudaFree. cudaFree waits for the
/// work of every stream on the device: two provers sharing a GPU, one uploading its witness
/// while the other computes, would otherwise stall the computing one on the other's copy at its
/// first freed temporary. Rules: every buffer allocated in the scope is destroyed before the
/// scope ends, on this thread; work on other streams that uses such a buffer is joined into `s`
/// (an event) before the buffer is destroyed. The pool keeps the memory it grew to while any
/// scope on the device is alive (the next call reuses it without mapping), and the last scope to
/// end returns it to the device. Objects that outlive the call (device_context's caches) are made
/// with the scope suspended (plain_allocations). The inner of nested scopes wins until it ends.
/// Devices without memory pools (cudaDevAttrMemoryPoolsSupported = 0) keep cudaMalloc / cudaFree.
class stream_ordered_allocations {
 public:
  explicit stream_ordered_allocations(const stream& s);
  /// Synchronizes `s` (its frees complete), then returns the pool's memory to the device when
  /// this is the device's last scope.
  ~stream_ordered_allocations();
  stream_ordered_allocations(const stream_ordered_allocations&) = delete;
  stream_ordered_allocations& operator=(const stream_ordered_allocations&) = delete;

 private:
  const stream* s_;
  const stream* outer_;
  bool pooled_ = false;
};

/// Suspends the calling thread's stream_ordered_allocations for a scope: buffers made meanwhile
/// use cudaMalloc / cudaFree and may outlive the scope's stream.
class plain_allocations {
 public:
  plain_allocations();
  ~plain_allocations();
  plain_allocations(const plain_allocations&) = delete;
  plain_allocations& operator=(const plain_allocations&) = delete;

 private:
  const stream* outer_;
};

/// The stream device_buffer allocates on for the calling thread on the current device: the
/// active stream_ordered_allocations' stream when it is on this device and the device has memory
/// pools, else null (cudaMalloc). For device_memory.cuh.
CUstream_st* allocation_stream();

/// Serializes the compute of the provers sharing device `ordinal` (one lock per device, for the
/// process): a prover uploads its witness, takes this lock, runs its kernels, and releases it
/// when they have finished, so a second prover's upload overlaps the first one's kernels while
/// their kernels never interleave (which would hold two working sets at once for no gain: each
/// saturates the device).
std::mutex& device_compute_lock(int ordinal);

/// Makes a device current for a scope and restores the caller's device after; clears a stale
/// non-sticky error left by someone else's failed call, so it is not misreported as ours.
class device_scope {
 public:
  explicit device_scope(int ordinal);
  explicit device_scope(const device_context& ctx) : device_scope(ctx.ordinal()) {}
  ~device_scope();
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int prev_ = 0;
};

/// A stream's scheduling priority on its device: when SMs free up, the block scheduler starts
/// the pending blocks of the greatest-priority streams first (running blocks are not preempted).
/// `raised` is one step above normal (below greatest where the device has three levels or more:
/// express work still goes first): a proof's stream that must keep up with its own long kernels
/// on a second stream.
enum class stream_priority { normal, raised, greatest };

/// A non-blocking CUDA stream on a context's device (no implicit ordering with the legacy default
/// stream or other streams). The destructor waits for the stream's work, so buffers destroyed
/// after it are no longer in use. Movable, not copyable.
class stream {
 public:
  explicit stream(const device_context& ctx, stream_priority priority = stream_priority::normal);
  ~stream();
  stream(stream&& o) noexcept;
  stream& operator=(stream&& o) noexcept;
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  CUstream_st* get() const { return s_; }
  int device() const { return device_; }
  /// Blocks the host until the work enqueued so far has finished.
  void synchronize() const;
  /// Work enqueued later on this stream waits for `e` (no host block).
  void wait(const event& e) const;

 private:
  CUstream_st* s_ = nullptr;
  int device_ = 0;
};

/// A CUDA event with timing. An event never recorded counts as complete.
class event {
 public:
  event();
  ~event();
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  CUevent_st* get() const { return e_; }
  void record(const stream& s);
  void synchronize() const;
  /// Milliseconds from `start` to this event (both recorded; waits for this one).
  float since(const event& start) const;

 private:
  CUevent_st* e_ = nullptr;
};

/// Page-locked host memory, freed on destruction.
class pinned_buffer {
 public:
  /// One cudaHostAlloc: it faults, zeroes and pins every page on the calling thread, which is
  /// fine for staging buffers of MiBs but holds tens of GB to ≈ 2.2 GB/s (21 s for 32 GiB
  /// PoRep's 47.4 GB of host-resident parameters on the H100 host).
  explicit pinned_buffer(size_t bytes);
  /// The same memory page-locked in two steps: mapped anonymous (transparent huge pages where
  /// the kernel allows them), every page faulted in (the kernel zeroes it) on every thread of
  /// `pool`, then registered with cudaHostRegister, which only pins pages already present.
  /// Throws gpu_error where the host cannot map or the driver cannot pin the memory.
  pinned_buffer(size_t bytes, thread_pool& pool);
  ~pinned_buffer();
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  char* get() const { return p_; }
  size_t size() const { return bytes_; }

 private:
  char* p_ = nullptr;
  size_t bytes_ = 0;
  // The two-step form: the driver's lock on the mapped pages (else p_ is cudaHostAlloc'd).
  std::unique_ptr<host_registration> registration_;
};

/// Small copies between pageable host memory and the device (a count, a few window sums, a
/// handful of scalars), ordered after the work enqueued on `s`. Up to small_copy_bytes they go
/// through a page-locked buffer of the calling thread and are complete when they return (an
/// upload waits for `s` to reach it: the buffer is the thread's next copy's), so the driver sees
/// only page-locked copies and the wait is `s`'s alone. A copy to or from pageable
/// memory takes the driver's staging path instead, and there one thread's readback, queued
/// behind ≈ 200 ms of its own kernels, held every other thread's pageable copies as long: an
/// express proof's three MSMs waited ≈ 200 ms each beside a 32 GiB PoRep proof while a kernel
/// launched beside it started at once (bench/results/h100/2026-12-07-express-mechanism.md).
/// Larger copies (test and setup paths) go directly: a download is complete when it returns, an
/// upload from pageable memory is staged by then (device_buffer::upload's contract).
constexpr size_t small_copy_bytes = size_t(64) << 10;
void copy_to_host(void* dst, const void* src, size_t bytes, const stream& s);
/// Several small readbacks with one wait for `s` (an MSM's count and offset): together at most
/// small_copy_bytes.
struct host_copy {
  void* dst;
  const void* src;
  size_t bytes;
};
void copy_to_host(std::initializer_list<host_copy> copies, const stream& s);
void copy_to_device(void* dst, const void* src, size_t bytes, const stream& s);

/// Host → device uploads through two pinned staging buffers of `chunk` bytes on its own copy
/// stream: the pool copies chunk k + 1 from pageable memory into one buffer while chunk k is in
/// flight from the other (pageable cudaMemcpy runs at ≈ 6 GB/s on the H200 host; pinned DMA
/// ≈ 50 GB/s, so the parallel host copy sets the rate). A page-locked source (cudaHostAlloc'd or
/// registered, gpu/host_registration.hpp) goes as one DMA instead. After upload() returns, work
/// enqueued on `consumer` sees the data (the consumer waits on an event of the copy stream) and the
/// host source may be reused. The destination must not be in use by pending work of any stream.
class stager {
 public:
  static constexpr size_t chunk = size_t(64) << 20;

  explicit stager(const device_context& ctx);
  ~stager();
  stager(const stager&) = delete;
  stager& operator=(const stager&) = delete;

  void upload(void* dst, const void* src, size_t bytes, thread_pool& pool, const stream& consumer);
  /// The same with the host copy into pinned memory done by `fill(pinned, offset, len)` (decode
  /// from a file, say) instead of a memcpy from a host array. Chunks are whole multiples of
  /// `unit` bytes (a point size), so `fill` never sees a split element.
  void upload_with(void* dst, size_t bytes, const stream& consumer,
                   const std::function<void(char* pinned, size_t offset, size_t len)>& fill,
                   size_t unit = 1);

 private:
  // Destroyed in reverse order: the stream first (it waits for in-flight copies), then the
  // events, then the staging buffers.
  pinned_buffer buf_[2] = {pinned_buffer(chunk), pinned_buffer(chunk)};
  event done_[2], ready_;
  stream stream_;
};

}  // namespace cuzk::gpu
