// SPDX-License-Identifier: Apache-2.0
// Whole-file reads with a size limit and atomic whole-file writes (issue #13, hostile input). Every
// file the tools read or write outside the mapped parameter files goes through here, so the rules
// live in one place:
//  - a read stats the path first and accepts regular files only (a directory, FIFO or device is a
//    status, never a hang on /dev/zero or a blocked open on a FIFO); the size is checked against
//    the caller's limit before a byte is read, and no more than that size is ever read;
//  - a write goes to a fresh temporary file in the target's directory, is flushed, fsync'ed and
//    closed with every return checked, then renamed over the target. A target that exists and is
//    not a regular file (/dev/null, a directory) is refused. A failure anywhere returns a status
//    and removes the temporary file, leaving the target as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/status.hpp"

namespace cuzk {

/// io_error unless `path` names an existing regular file (symlinks followed). Opens nothing.
status require_regular_file(const std::string& path);

/// The whole contents of the regular file `path`. bad_length when it is larger than `max_bytes`
/// (checked from fstat before reading); io_error for a missing path, a directory, a FIFO, a device,
/// or a file that changes size while being read.
result<std::vector<uint8_t>> read_file_bounded(const std::string& path, uint64_t max_bytes);

/// read_file_bounded for text (JSON): the same checks, the bytes as a string.
result<std::string> read_text_file_bounded(const std::string& path, uint64_t max_bytes);

/// Writes a file through a temporary sibling and renames it into place on commit(). Move-only; a
/// writer destroyed without a successful commit() removes its temporary file.
class atomic_file_writer {
 public:
  /// Creates the temporary file beside `path`. io_error when the directory is not writable;
  /// invalid_argument when `path` exists and is not a regular file.
  static result<atomic_file_writer> create(const std::string& path);

  atomic_file_writer() = default;
  ~atomic_file_writer();
  atomic_file_writer(atomic_file_writer&& other) noexcept;
  atomic_file_writer& operator=(atomic_file_writer&& other) noexcept;
  atomic_file_writer(const atomic_file_writer&) = delete;
  atomic_file_writer& operator=(const atomic_file_writer&) = delete;

  /// Appends bytes (retrying short writes). After a failure every later call fails too.
  status write(std::span<const uint8_t> bytes);
  status write(std::string_view text);
  /// fsync, close, re-check the target, rename, fsync the directory. On failure the temporary
  /// file is removed and the target is untouched.
  status commit();
  /// Removes the temporary file now (also done by the destructor when not committed).
  void abandon();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }

 private:
  status fail(status s);

  int fd_ = -1;
  std::string path_;
  std::string temp_;
  status error_;
};

/// One-shot atomic_file_writer: create, write `bytes`, commit.
status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes);
status write_file_atomic(const std::string& path, std::string_view text);

}  // namespace cuzk
