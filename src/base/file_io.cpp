// SPDX-License-Identifier: Apache-2.0
// POSIX implementation of file_io.hpp. Reads open with O_NONBLOCK so that a FIFO swapped in after
// the stat cannot block the open; the fstat on the descriptor is the check that counts.
#include "base/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

namespace cuzk {
namespace {

std::string errno_text() {
  return std::strerror(errno);
}

status io_error(const std::string& what, const std::string& path) {
  return {status_code::io_error, what + " " + path + ": " + errno_text()};
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

status not_regular(const std::string& path, mode_t mode) {
  return {status_code::io_error, path + " is " + kind_of(mode) + ", expected a regular file"};
}

/// Closes on scope exit; the read path has nothing to report from close().
struct fd_guard {
  int fd;
  ~fd_guard() {
    if (fd >= 0) ::close(fd);
  }
};

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

/// Reads the regular file into `out` (a vector or a string of bytes).
template <class Buffer>
status read_bounded_into(const std::string& path, uint64_t max_bytes, Buffer& out) {
  if (status s = require_regular_file(path); !s) return s;
  const fd_guard f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)};
  if (f.fd < 0) return io_error("cannot open", path);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return io_error("cannot stat", path);
  if (!S_ISREG(st.st_mode)) return not_regular(path, st.st_mode);
  const uint64_t size = uint64_t(st.st_size);
  if (size > max_bytes) {
    return {status_code::bad_length, path + ": " + std::to_string(size) +
                                         " bytes, more than the limit of " +
                                         std::to_string(max_bytes)};
  }
  out.resize(size_t(size));
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(f.fd, out.data() + done, out.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot read", path);
    }
    if (n == 0) {
      return {status_code::io_error, path + ": file shrank while being read (" +
                                         std::to_string(done) + " of " + std::to_string(size) +
                                         " bytes)"};
    }
    done += size_t(n);
  }
  return {};
}

}  // namespace

status require_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return io_error("cannot stat", path);
  if (!S_ISREG(st.st_mode)) return not_regular(path, st.st_mode);
  return {};
}

result<std::vector<uint8_t>> read_file_bounded(const std::string& path, uint64_t max_bytes) {
  std::vector<uint8_t> out;
  if (status s = read_bounded_into(path, max_bytes, out); !s) return s;
  return out;
}

result<std::string> read_text_file_bounded(const std::string& path, uint64_t max_bytes) {
  std::string out;
  if (status s = read_bounded_into(path, max_bytes, out); !s) return s;
  return out;
}

// ---- atomic_file_writer ------------------------------------------------------------------------

result<atomic_file_writer> atomic_file_writer::create(const std::string& path) {
  if (path.empty() || path.back() == '/') {
    return status(status_code::invalid_argument, "output path '" + path + "' names no file");
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    return status(status_code::invalid_argument,
                  "refusing to replace " + path + ": it is " + kind_of(st.st_mode));
  }
  // A unique sibling name: pid and a process-wide counter; O_EXCL makes a collision an error
  // rather than a shared file. Mode 0666 lets the umask decide, as for any created file.
  static std::atomic<uint64_t> counter{0};
  atomic_file_writer w;
  w.path_ = path;
  for (int attempt = 0; attempt < 16; ++attempt) {
    w.temp_ = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    w.fd_ = ::open(w.temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
    if (w.fd_ >= 0 || errno != EEXIST) break;
  }
  if (w.fd_ < 0) {
    status s = io_error("cannot create a temporary file in", directory_of(path));
    w.temp_.clear();
    return s;
  }
  return w;
}

atomic_file_writer::~atomic_file_writer() {
  abandon();
}

atomic_file_writer::atomic_file_writer(atomic_file_writer&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      temp_(std::exchange(other.temp_, {})),
      error_(std::move(other.error_)) {}

atomic_file_writer& atomic_file_writer::operator=(atomic_file_writer&& other) noexcept {
  if (this != &other) {
    abandon();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    temp_ = std::exchange(other.temp_, {});
    error_ = std::move(other.error_);
  }
  return *this;
}

void atomic_file_writer::abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

status atomic_file_writer::fail(status s) {
  abandon();
  error_ = s;
  return s;
}

status atomic_file_writer::write(std::span<const uint8_t> bytes) {
  if (!error_.ok()) return error_;
  if (fd_ < 0) return {status_code::internal, "write to a closed atomic_file_writer"};
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(io_error("cannot write", temp_));
    }
    done += size_t(n);
  }
  return {};
}

status atomic_file_writer::write(std::string_view text) {
  return write(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

status atomic_file_writer::commit() {
  if (!error_.ok()) return error_;
  if (fd_ < 0) return {status_code::internal, "commit of a closed atomic_file_writer"};
  if (::fsync(fd_) != 0) return fail(io_error("cannot fsync", temp_));
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) return fail(io_error("cannot close", temp_));
  // The target may have been replaced by something else since create(): check again.
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    return fail({status_code::invalid_argument,
                 "refusing to replace " + path_ + ": it is " + kind_of(st.st_mode)});
  }
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    return fail(io_error("cannot rename " + temp_ + " to", path_));
  }
  temp_.clear();
  // The rename is durable once the directory is synced. Some file systems cannot fsync a
  // directory (EINVAL); the file itself is already on disk then.
  const std::string dir = directory_of(path_);
  const fd_guard d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (d.fd < 0) return error_ = io_error("cannot open directory", dir);
  if (::fsync(d.fd) != 0 && errno != EINVAL) return error_ = io_error("cannot fsync", dir);
  return {};
}

status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes) {
  auto w = atomic_file_writer::create(path);
  if (!w) return w.error();
  if (status s = w->write(bytes); !s) return s;
  return w->commit();
}

status write_file_atomic(const std::string& path, std::string_view text) {
  return write_file_atomic(
      path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

}  // namespace cuzk
