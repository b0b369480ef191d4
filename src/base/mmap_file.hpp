// SPDX-License-Identifier: Apache-2.0
// mmap_file: a read-only memory map of a whole file (RAII, move-only). Used for the multi-GB
// Groth16 parameter files: the kernel pages bytes in on demand and can drop them again, so decoding
// a 47 GB .params file does not need 47 GB of anonymous host memory. Failures come back as status.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cuzk/status.hpp"

namespace cuzk {

/// MAP_SHARED shares page-cache pages with every other reader of the file (the normal choice for
/// parameters). MAP_PRIVATE gives copy-on-write pages; the mapping is read-only either way.
enum class map_sharing { shared, private_copy };

/// madvise() hints. sequential = aggressive read-ahead, pages behind the cursor may be dropped.
enum class access_hint { normal, sequential, random, will_need, dont_need };

struct mmap_options {
  map_sharing sharing = map_sharing::shared;
  access_hint hint = access_hint::sequential;
  /// MADV_HUGEPAGE on the whole range. Only a request: file-backed huge pages need a file system
  /// and kernel that support them; failure of this hint is ignored.
  bool huge_pages = false;
  /// MAP_POPULATE: read the whole file in at open time (faults it all up front).
  bool populate = false;
};

class mmap_file {
 public:
  /// Maps `path` read-only. io_error (with strerror text) when it cannot be opened, stat'ed or
  /// mapped. An empty file gives an empty mapping (no mmap call; data() is null).
  static result<mmap_file> open(const std::string& path, const mmap_options& opt = {});

  mmap_file() = default;
  ~mmap_file();
  mmap_file(mmap_file&& other) noexcept;
  mmap_file& operator=(mmap_file&& other) noexcept;
  mmap_file(const mmap_file&) = delete;
  mmap_file& operator=(const mmap_file&) = delete;

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  bool is_open() const { return data_ != nullptr || !path_.empty(); }
  const std::string& path() const { return path_; }

  /// madvise() over [offset, offset + length), widened to whole pages and clipped to the file.
  /// dont_need lets the kernel drop the pages from this mapping once their points are decoded.
  status advise(size_t offset, size_t length, access_hint hint) const;

  /// The system page size (sysconf), the granularity of advise().
  static size_t page_size();

 private:
  void reset();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::string path_;
};

}  // namespace cuzk
