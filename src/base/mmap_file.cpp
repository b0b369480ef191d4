// SPDX-License-Identifier: Apache-2.0
// POSIX implementation of mmap_file: open + fstat + mmap(PROT_READ); the descriptor is closed
// right after mapping (the mapping keeps the file referenced).
#include "base/mmap_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace cuzk {
namespace {

status errno_status(const std::string& what, const std::string& path) {
  return {status_code::io_error, what + " " + path + ": " + std::strerror(errno)};
}

int madvise_flag(access_hint hint) {
  switch (hint) {
    case access_hint::normal:
      return MADV_NORMAL;
    case access_hint::sequential:
      return MADV_SEQUENTIAL;
    case access_hint::random:
      return MADV_RANDOM;
    case access_hint::will_need:
      return MADV_WILLNEED;
    case access_hint::dont_need:
      return MADV_DONTNEED;
  }
  return MADV_NORMAL;
}

}  // namespace

result<mmap_file> mmap_file::open(const std::string& path, const mmap_options& opt) {
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer; fstat rejects it below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return errno_status("cannot open", path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    status s = errno_status("cannot stat", path);
    ::close(fd);
    return s;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return status(status_code::io_error, "not a regular file: " + path);
  }
  mmap_file f;
  f.path_ = path;
  f.size_ = size_t(st.st_size);
  if (f.size_ == 0) {
    ::close(fd);
    return f;
  }
  int flags = opt.sharing == map_sharing::shared ? MAP_SHARED : MAP_PRIVATE;
#ifdef MAP_POPULATE
  if (opt.populate) flags |= MAP_POPULATE;
#endif
  void* p = ::mmap(nullptr, f.size_, PROT_READ, flags, fd, 0);
  if (p == MAP_FAILED) {
    status s = errno_status("cannot mmap", path);
    ::close(fd);
    return s;
  }
  ::close(fd);
  f.data_ = static_cast<const uint8_t*>(p);
  // Hints are advisory: a kernel that refuses one still serves the mapping correctly.
  (void)::madvise(p, f.size_, madvise_flag(opt.hint));
#ifdef MADV_HUGEPAGE
  if (opt.huge_pages) (void)::madvise(p, f.size_, MADV_HUGEPAGE);
#endif
  return f;
}

mmap_file::~mmap_file() {
  reset();
}

mmap_file::mmap_file(mmap_file&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      path_(std::move(other.path_)) {
  other.path_.clear();
}

mmap_file& mmap_file::operator=(mmap_file&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    path_ = std::move(other.path_);
    other.path_.clear();
  }
  return *this;
}

void mmap_file::reset() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
  path_.clear();
}

size_t mmap_file::page_size() {
  static const size_t page = size_t(::sysconf(_SC_PAGESIZE));
  return page;
}

status mmap_file::advise(size_t offset, size_t length, access_hint hint) const {
  if (data_ == nullptr || offset >= size_ || length == 0) return {};
  length = std::min(length, size_ - offset);
  const size_t page = page_size();
  // madvise wants a page-aligned start; the map itself is page aligned, so align the offset down.
  const size_t begin = offset / page * page;
  const size_t end = offset + length;
  if (::madvise(const_cast<uint8_t*>(data_) + begin, end - begin, madvise_flag(hint)) != 0) {
    return errno_status("madvise failed on", path_);
  }
  return {};
}

}  // namespace cuzk
