// SPDX-License-Identifier: Apache-2.0
// file_io: bounded reads refuse /dev/zero, directories and FIFOs at once (no hang, no unbounded
// read) and check the size before reading; atomic writes replace the target whole, refuse device
// nodes and directories, and leave no temporary file behind on any failure. mmap_file shares the
// FIFO case (its open must not block either).
#include "base/file_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "base/mmap_file.hpp"

namespace {

using namespace cuzk;
namespace fs = std::filesystem;

/// A fresh empty directory under the test temp dir, removed on destruction.
struct temp_dir {
  fs::path path;
  explicit temp_dir(const std::string& name)
      : path(fs::path(testing::TempDir()) /
             ("cuzk_file_io_" + std::to_string(::getpid()) + "_" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, ec);
    fs::remove_all(path, ec);
  }
  size_t entries() const {
    return size_t(std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
};

std::span<const uint8_t> as_bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(file_io, reads_a_regular_file_within_the_limit) {
  temp_dir d("read");
  const std::string p = (d.path / "f").string();
  ASSERT_TRUE(write_file_atomic(p, std::string_view("hello")).ok());
  auto r = read_file_bounded(p, 5);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r, (std::vector<uint8_t>{'h', 'e', 'l', 'l', 'o'}));
  auto t = read_text_file_bounded(p, 100);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, "hello");
  auto big = read_file_bounded(p, 4);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().code(), status_code::bad_length);
  EXPECT_NE(big.error().message().find("limit of 4"), std::string::npos) << big.error().message();
}

TEST(file_io, refuses_dev_zero_directory_fifo_and_missing_paths_fast) {
  temp_dir d("special");
  const std::string fifo = (d.path / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& p : {std::string("/dev/zero"), d.path.string(), fifo}) {
    auto r = read_file_bounded(p, uint64_t(1) << 40);
    ASSERT_FALSE(r.ok()) << p;
    EXPECT_EQ(r.error().code(), status_code::io_error) << p;
    EXPECT_NE(r.error().message().find("expected a regular file"), std::string::npos)
        << r.error().message();
    auto m = mmap_file::open(p);
    ASSERT_FALSE(m.ok()) << p;
    EXPECT_EQ(m.error().code(), status_code::io_error);
  }
  auto missing = read_text_file_bounded((d.path / "absent").string(), 10);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), status_code::io_error);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

TEST(file_io, atomic_write_replaces_the_target_and_leaves_no_temp_file) {
  temp_dir d("replace");
  const std::string p = (d.path / "out.bin").string();
  ASSERT_TRUE(write_file_atomic(p, std::string_view("first version, longer")).ok());
  ASSERT_TRUE(write_file_atomic(p, std::string_view("second")).ok());
  EXPECT_EQ(*read_text_file_bounded(p, 100), "second");
  EXPECT_EQ(d.entries(), 1u);
}

TEST(file_io, abandoned_writer_leaves_the_target_untouched) {
  temp_dir d("abandon");
  const std::string p = (d.path / "out.bin").string();
  ASSERT_TRUE(write_file_atomic(p, std::string_view("old")).ok());
  {
    auto w = atomic_file_writer::create(p);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->write(as_bytes("new partial")).ok());
    EXPECT_TRUE(fs::exists(w->temp_path()));
  }
  EXPECT_EQ(*read_text_file_bounded(p, 100), "old");
  EXPECT_EQ(d.entries(), 1u);
}

TEST(file_io, refuses_device_node_and_directory_targets) {
  temp_dir d("targets");
  fs::create_directory(d.path / "subdir");
  for (const std::string& target : {std::string("/dev/null"), (d.path / "subdir").string()}) {
    const std::string dir = target == "/dev/null" ? "/dev" : d.path.string();
    const size_t before =
        size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
    status s = write_file_atomic(target, std::string_view("x"));
    ASSERT_FALSE(s.ok()) << target;
    EXPECT_EQ(s.code(), status_code::invalid_argument) << s.to_string();
    EXPECT_NE(s.message().find("refusing to replace"), std::string::npos) << s.message();
    EXPECT_EQ(size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator())), before);
  }
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(file_io, unwritable_directory_is_a_status_and_leaves_nothing) {
  // /proc refuses new files even to root; a directory without write permission refuses them to
  // everyone else (root bypasses the permission bits, so that half only runs unprivileged).
  status s = write_file_atomic("/proc/cuzk_file_io_test.bin", std::string_view("x"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), status_code::io_error);
  EXPECT_NE(s.message().find("cannot create a temporary file in /proc"), std::string::npos)
      << s.message();
  EXPECT_FALSE(fs::exists("/proc/cuzk_file_io_test.bin"));
  if (::geteuid() != 0) {
    temp_dir d("readonly");
    fs::permissions(d.path, fs::perms::owner_read | fs::perms::owner_exec);
    s = write_file_atomic((d.path / "out.bin").string(), std::string_view("x"));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), status_code::io_error);
    fs::permissions(d.path, fs::perms::owner_all);
    EXPECT_EQ(d.entries(), 0u);
  }
}

TEST(file_io, missing_directory_is_a_status) {
  status s = write_file_atomic("/nonexistent-cuzk-dir/out.bin", std::string_view("x"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), status_code::io_error);
}

}  // namespace
