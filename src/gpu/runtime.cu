// SPDX-License-Identifier: Apache-2.0
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include "base/check.hpp"
#include "base/huge_pages.hpp"
#include "gpu/cuda_status.hpp"
#include "gpu/gpu_error.hpp"
#include "gpu/host_registration.hpp"
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

namespace {

std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

std::string runtime_version() {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) return "none";
  return cuda_version_string(v);
}

std::string driver_version() {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess || v == 0) return "none";
  return cuda_version_string(v);
}

// ---- what the binary runs on a device ----

// CUZK_CUDA_ARCHITECTURES: the build's list with ',' for ';' (src/gpu/CMakeLists.txt).
#if !defined(CUZK_CUDA_ARCHITECTURES)
#define CUZK_CUDA_ARCHITECTURES ""
#endif

namespace {

/// Compiled for the same architectures as every kernel of the binary: whether it loads on a
/// device is whether the binary's kernels do.
__global__ void arch_probe_kernel() {}

}  // namespace

std::string built_cuda_architectures() {
  std::string list = CUZK_CUDA_ARCHITECTURES;
  for (char& c : list)
    if (c == ',') c = ';';
  return list;
}

device_support query_device_support(int ordinal) {
  device_support out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || ordinal < 0 || ordinal >= count) {
    cudaGetLastError();
    out.error = "no CUDA device " + std::to_string(ordinal);
    return out;
  }
  cudaDeviceProp prop{};
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, ordinal); e != cudaSuccess) {
    cudaGetLastError();
    out.error = cudaGetErrorString(e);
    return out;
  }
  out.name = prop.name;
  out.sm_major = prop.major;
  out.sm_minor = prop.minor;
  out.code = match_device_code(prop.major, prop.minor, built_cuda_architectures());
  int prev = 0;
  if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
  if (const cudaError_t e = cudaSetDevice(ordinal); e != cudaSuccess) {
    cudaGetLastError();
    out.error = cudaGetErrorString(e);
    return out;
  }
  cudaFuncAttributes attr{};
  const cudaError_t e = cudaFuncGetAttributes(&attr, arch_probe_kernel);
  if (e == cudaSuccess) {
    out.loads = true;
    out.binary_version = attr.binaryVersion;
    out.ptx_version = attr.ptxVersion;
  } else {
    cudaGetLastError();  // no kernel image / unsupported PTX are not sticky
    out.error = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
  }
  if (prev >= 0) cudaSetDevice(prev);
  return out;
}

status check_device_supported(int ordinal) {
  static std::mutex mutex;
  static std::map<int, status> known;  // definite answers only: a device fault is asked again
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(ordinal); it != known.end()) return it->second;
  }
  const device_support d = query_device_support(ordinal);
  if (d.loads) {
    std::lock_guard<std::mutex> lock(mutex);
    return known[ordinal] = status();
  }
  const std::string msg = device_support_problem(ordinal, d, built_cuda_architectures(),
                                                 driver_version(), runtime_version());
  // Native code that does not load is a fault of the moment (a context the device cannot hold),
  // not this binary's: asked again next time.
  const bool fault = !d.name.empty() && d.code.path == code_path::native;
  status s(fault ? status_code::internal : status_code::invalid_argument, msg);
  if (!d.name.empty() && !fault) {  // the built list explains the failure: kept
    std::lock_guard<std::mutex> lock(mutex);
    known[ordinal] = s;
  }
  return s;
}

// ---- device_context ----

struct device_context::state {
  int ordinal = 0;
  std::mutex mutex;
  std::map<std::pair<std::type_index, unsigned long long>, std::shared_ptr<void>> cache;
  std::vector<std::unique_ptr<stager>> stagers;

  void clear() {
    // Free on the device that owns the memory; a failure here cannot be reported.
    int prev = 0;
    const bool switched =
        cudaGetDevice(&prev) == cudaSuccess && cudaSetDevice(ordinal) == cudaSuccess;
    std::lock_guard<std::mutex> lock(mutex);
    cache.clear();
    stagers.clear();
    if (switched) cudaSetDevice(prev);
  }
};

device_context::device_context(std::unique_ptr<state> s) : s_(std::move(s)) {}
device_context::~device_context() {
  if (s_) s_->clear();
}
device_context::device_context(device_context&&) noexcept = default;
device_context& device_context::operator=(device_context&& o) noexcept {
  if (this != &o) {
    if (s_) s_->clear();
    s_ = std::move(o.s_);
  }
  return *this;
}

result<device_context> device_context::open(int ordinal) {
  try {
    device_scope probe(ordinal);  // cudaSetDevice: fails for an ordinal with no device
  } catch (const gpu_error& e) {
    // cudaSetDevice creates the primary context: an ordinal with no device is the caller's
    // mistake, but a device too full to hold a context is a fault of the moment (exit 1 in the
    // CLI, a retryable failure in the engine), not a bad argument.
    const std::string where = "CUDA device " + std::to_string(ordinal);
    if (e.code() == cudaErrorInvalidDevice || e.code() == cudaErrorNoDevice)
      return status(status_code::invalid_argument, where + ": " + e.what());
    return cuda_status(e, where.c_str());
  }
  // A card this binary has no code for fails here, naming the fix, not at its first launch.
  if (status supported = check_device_supported(ordinal); !supported) return supported;
  auto s = std::make_unique<state>();
  s->ordinal = ordinal;
  return device_context(std::move(s));
}

int device_context::ordinal() const {
  return s_->ordinal;
}

std::shared_ptr<void> device_context::find_or_make(
    std::type_index type, unsigned long long key,
    const std::function<std::shared_ptr<void>()>& make) {
  std::lock_guard<std::mutex> lock(s_->mutex);
  std::shared_ptr<void>& slot = s_->cache[{type, key}];
  if (!slot) {
    device_scope scope(s_->ordinal);
    plain_allocations outlives_the_call;  // cached: freed with the context, not a call's stream
    slot = make();
  }
  return slot;
}

void device_context::clear_caches() {
  s_->clear();
}

std::unique_ptr<stager> device_context::take_stager() {
  {
    std::lock_guard<std::mutex> lock(s_->mutex);
    if (!s_->stagers.empty()) {
      std::unique_ptr<stager> st = std::move(s_->stagers.back());
      s_->stagers.pop_back();
      return st;
    }
  }
  device_scope scope(s_->ordinal);  // its events and stream belong to this device
  return std::make_unique<stager>(*this);
}

void device_context::put_stager(std::unique_ptr<stager> st) {
  // One set per concurrent user is kept (cudaHostAlloc of 128 MiB costs tens of ms).
  std::lock_guard<std::mutex> lock(s_->mutex);
  s_->stagers.push_back(std::move(st));
}

// ---- device_scope ----

device_scope::device_scope(int ordinal) {
  CUZK_CUDA_OK(cudaGetDevice(&prev_));
  CUZK_CUDA_OK(cudaSetDevice(ordinal));
  // A failed cudaMalloc elsewhere in the process leaves a non-sticky "last error" that the first
  // cudaGetLastError() after one of our launches would misreport as ours: clear it on entry.
  // Sticky errors (a corrupted context) survive this and still fail the next call.
  (void)cudaGetLastError();
}
device_scope::~device_scope() {
  cudaSetDevice(prev_);
}

// ---- stream-ordered allocations ----

namespace {

thread_local const stream* tls_allocation_stream = nullptr;

struct pool_state {
  int supported = -1;   // -1: not asked yet
  unsigned scopes = 0;  // stream_ordered_allocations alive on the device
};
std::mutex pools_mutex;
std::map<int, pool_state> pools;  // by ordinal

bool pools_supported_locked(int ordinal) {
  pool_state& p = pools[ordinal];
  if (p.supported < 0) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, ordinal) != cudaSuccess) {
      cudaGetLastError();
      v = 0;
    }
    p.supported = v != 0 ? 1 : 0;
    if (p.supported) {
      // Keep what the pool grew to across synchronizations (the default, 0, would unmap it at
      // every stream synchronization); the last scope's end trims it.
      cudaMemPool_t mp{};
      uint64_t keep = UINT64_MAX;
      CUZK_CUDA_OK(cudaDeviceGetDefaultMemPool(&mp, ordinal));
      CUZK_CUDA_OK(cudaMemPoolSetAttribute(mp, cudaMemPoolAttrReleaseThreshold, &keep));
    }
  }
  return p.supported == 1;
}

}  // namespace

stream_ordered_allocations::stream_ordered_allocations(const stream& s)
    : s_(&s), outer_(tls_allocation_stream) {
  {
    std::lock_guard<std::mutex> lock(pools_mutex);
    pooled_ = pools_supported_locked(s.device());
    if (pooled_) ++pools[s.device()].scopes;
  }
  // Without pools the scope changes nothing: allocations stay plain.
  tls_allocation_stream = pooled_ ? s_ : nullptr;
}

stream_ordered_allocations::~stream_ordered_allocations() {
  tls_allocation_stream = outer_;
  if (!pooled_) return;
  cudaStreamSynchronize(s_->get());  // this scope's frees have completed
  std::lock_guard<std::mutex> lock(pools_mutex);
  if (--pools[s_->device()].scopes == 0) {
    cudaMemPool_t mp{};
    if (cudaDeviceGetDefaultMemPool(&mp, s_->device()) == cudaSuccess) cudaMemPoolTrimTo(mp, 0);
  }
}

plain_allocations::plain_allocations() : outer_(tls_allocation_stream) {
  tls_allocation_stream = nullptr;
}
plain_allocations::~plain_allocations() {
  tls_allocation_stream = outer_;
}

CUstream_st* allocation_stream() {
  const stream* s = tls_allocation_stream;  // set only where the device has pools
  if (s == nullptr) return nullptr;
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || current != s->device()) return nullptr;
  return s->get();
}

std::mutex& device_compute_lock(int ordinal) {
  static std::mutex guard;
  static std::map<int, std::unique_ptr<std::mutex>> locks;
  std::lock_guard<std::mutex> lock(guard);
  std::unique_ptr<std::mutex>& m = locks[ordinal];
  if (!m) m = std::make_unique<std::mutex>();
  return *m;
}

// ---- stream ----

stream::stream(const device_context& ctx, stream_priority priority) : device_(ctx.ordinal()) {
  device_scope scope(device_);
  cudaStream_t s{};
  // CUDA's priorities count down: the range's "greatest" is its lowest number (-5 on sm_90).
  int least = 0, greatest = 0;
  CUZK_CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  const int level = priority == stream_priority::greatest ? greatest
                    : priority == stream_priority::raised ? std::max(greatest, least - 1)
                                                          : least;
  CUZK_CUDA_OK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, level));
  s_ = s;
}
stream::~stream() {
  if (s_ != nullptr) {
    cudaStreamSynchronize(s_);
    cudaStreamDestroy(s_);
  }
}
stream::stream(stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)), device_(o.device_) {}
stream& stream::operator=(stream&& o) noexcept {
  if (this != &o) {
    if (s_ != nullptr) {
      cudaStreamSynchronize(s_);
      cudaStreamDestroy(s_);
    }
    s_ = std::exchange(o.s_, nullptr);
    device_ = o.device_;
  }
  return *this;
}
void stream::synchronize() const {
  CUZK_CUDA_OK(cudaStreamSynchronize(s_));
}
void stream::wait(const event& e) const {
  CUZK_CUDA_OK(cudaStreamWaitEvent(s_, e.get(), 0));
}

// ---- event ----

event::event() {
  cudaEvent_t e{};
  CUZK_CUDA_OK(cudaEventCreate(&e));
  e_ = e;
}
event::~event() {
  cudaEventDestroy(e_);
}
void event::record(const stream& s) {
  CUZK_CUDA_OK(cudaEventRecord(e_, s.get()));
}
void event::synchronize() const {
  CUZK_CUDA_OK(cudaEventSynchronize(e_));
}
float event::since(const event& start) const {
  synchronize();
  float ms = 0;
  CUZK_CUDA_OK(cudaEventElapsedTime(&ms, start.e_, e_));
  return ms;
}

// ---- pinned_buffer ----

pinned_buffer::pinned_buffer(size_t bytes) : bytes_(bytes) {
  void* p = nullptr;
  CUZK_CUDA_OK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
  p_ = static_cast<char*>(p);
}
pinned_buffer::pinned_buffer(size_t bytes, thread_pool& pool) : bytes_(bytes) {
  if (bytes == 0) return;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    throw gpu_error(cudaErrorMemoryAllocation, "mmap of " + std::to_string(bytes) +
                                                   " bytes of host memory: " + strerror(errno));
  }
  advise_huge_pages(p, bytes);
  // One write per page faults it in; 2^14 pages (64 MiB) per task keep the pool's overhead
  // small against the kernel's zeroing.
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  volatile char* base = static_cast<volatile char*>(p);
  pool.parallel_range((bytes + page - 1) / page,
                      [&](size_t first, size_t last) {
                        for (size_t i = first; i < last; ++i) base[i * page] = 0;
                      },
                      size_t(1) << 14);
  auto reg = host_registration::make(p, bytes);
  if (!reg) {
    munmap(p, bytes);
    throw gpu_error(cudaErrorMemoryAllocation, reg.error().message());
  }
  registration_ = std::move(*reg);
  p_ = static_cast<char*>(p);
}

pinned_buffer::~pinned_buffer() {
  if (p_ == nullptr) return;
  if (registration_) {
    registration_.reset();  // unlocked before the pages go
    munmap(p_, bytes_);
  } else {
    cudaFreeHost(p_);
  }
}

// ---- host_registration ----

result<std::unique_ptr<host_registration>> host_registration::make(const void* data, size_t bytes) {
  if (data == nullptr || bytes == 0)
    return status(status_code::invalid_argument, "host_registration: an empty range");
  void* p = const_cast<void*>(data);  // the driver only locks the pages; it writes nothing
  const cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
  if (e != cudaSuccess) {
    cudaGetLastError();  // not sticky: clear it, so the next call is not blamed
    return status(status_code::resource_exhausted, std::string("cudaHostRegister of ") +
                                                       std::to_string(bytes) +
                                                       " bytes: " + cudaGetErrorString(e));
  }
  return std::unique_ptr<host_registration>(new host_registration(p, bytes));
}

host_registration::~host_registration() {
  if (data_ != nullptr) cudaHostUnregister(data_);  // no throw from a destructor
}

bool is_page_locked(const void* data, size_t bytes) {
  if (data == nullptr || bytes == 0) return false;
  for (const void* p :
       {data, static_cast<const void*>(static_cast<const char*>(data) + bytes - 1)}) {
    cudaPointerAttributes attr{};
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    if (attr.type != cudaMemoryTypeHost) return false;
  }
  return true;
}

// ---- small copies ----

namespace {

/// The calling thread's page-locked buffer for copy_to_host / copy_to_device, allocated at its
/// first use (cudaHostAlloc, portable: any device's copies may use it) and freed with the thread.
char* thread_small_copy_buffer() {
  struct buffer {
    void* p = nullptr;
    buffer() { CUZK_CUDA_OK(cudaHostAlloc(&p, small_copy_bytes, cudaHostAllocPortable)); }
    ~buffer() {
      if (p != nullptr) cudaFreeHost(p);  // no throw at thread exit
    }
  };
  thread_local buffer b;
  return static_cast<char*>(b.p);
}

}  // namespace

void copy_to_host(void* dst, const void* src, size_t bytes, const stream& s) {
  if (bytes == 0) return;
  if (bytes > small_copy_bytes) {
    CUZK_CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s.get()));
    s.synchronize();
    return;
  }
  copy_to_host({{dst, src, bytes}}, s);
}

void copy_to_host(std::initializer_list<host_copy> copies, const stream& s) {
  size_t total = 0;
  for (const host_copy& c : copies) total += c.bytes;
  if (total > small_copy_bytes) {
    precondition_failed(__func__, "%zu bytes of readbacks, at most %zu", total, small_copy_bytes);
  }
  char* b = thread_small_copy_buffer();
  size_t off = 0;
  for (const host_copy& c : copies) {
    if (c.bytes != 0)
      CUZK_CUDA_OK(cudaMemcpyAsync(b + off, c.src, c.bytes, cudaMemcpyDeviceToHost, s.get()));
    off += c.bytes;
  }
  s.synchronize();
  off = 0;
  for (const host_copy& c : copies) {
    if (c.bytes != 0) std::memcpy(c.dst, b + off, c.bytes);
    off += c.bytes;
  }
}

void copy_to_device(void* dst, const void* src, size_t bytes, const stream& s) {
  if (bytes == 0) return;
  if (bytes > small_copy_bytes) {
    CUZK_CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s.get()));
    return;
  }
  char* b = thread_small_copy_buffer();
  std::memcpy(b, src, bytes);
  CUZK_CUDA_OK(cudaMemcpyAsync(dst, b, bytes, cudaMemcpyHostToDevice, s.get()));
  s.synchronize();  // the buffer is reused by the thread's next copy
}

// ---- stager ----

stager::stager(const device_context& ctx) : stream_(ctx) {}
stager::~stager() = default;

void stager::upload_with(void* dst, size_t bytes, const stream& consumer,
                         const std::function<void(char*, size_t, size_t)>& fill, size_t unit) {
  if (bytes == 0) return;
  char* d = static_cast<char*>(dst);
  const size_t step = unit != 0 && unit <= chunk ? chunk / unit * unit : chunk;
  size_t k = 0;
  for (size_t off = 0; off < bytes; off += step, ++k) {
    const size_t len = std::min(step, bytes - off);
    // The previous copy out of this buffer (this call's or an earlier one's) has finished.
    done_[k % 2].synchronize();
    char* p = buf_[k % 2].get();
    fill(p, off, len);
    CUZK_CUDA_OK(cudaMemcpyAsync(d + off, p, len, cudaMemcpyHostToDevice, stream_.get()));
    done_[k % 2].record(stream_);
  }
  ready_.record(stream_);
  consumer.wait(ready_);
}

void stager::upload(void* dst, const void* src, size_t bytes, thread_pool& pool,
                    const stream& consumer) {
  if (is_page_locked(src, bytes)) {
    // One DMA straight from the source. Waited for before returning: the contract lets the
    // caller reuse the source then, and the consumer's work needs the data first anyway.
    CUZK_CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_.get()));
    ready_.record(stream_);
    consumer.wait(ready_);
    ready_.synchronize();
    return;
  }
  const char* s = static_cast<const char*>(src);
  upload_with(dst, bytes, consumer, [&](char* p, size_t off, size_t len) {
    pool.parallel_range(
        len, [&](size_t x0, size_t x1) { std::memcpy(p + x0, s + off + x0, x1 - x0); },
        size_t(1) << 20);
  });
}

}  // namespace cuzk::gpu
