// SPDX-License-Identifier: Apache-2.0
// mmap_file: contents match what was written, both sharing modes, empty files, move semantics,
// advise() on sub-ranges, and io_error (never a crash) for missing paths and directories.
#include "base/mmap_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace cuzk;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("cuzk_mmap_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::vector<uint8_t> write_file(const std::string& path, size_t n) {
  std::vector<uint8_t> data(n);
  for (size_t i = 0; i < n; ++i) data[i] = uint8_t(i * 131 + (i >> 8));
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data.data()), n);
  return data;
}

TEST(mmap_file, maps_contents_in_both_modes) {
  const std::string path = temp_path("contents");
  const auto data = write_file(path, 3 * mmap_file::page_size() + 123);
  for (map_sharing mode : {map_sharing::shared, map_sharing::private_copy}) {
    auto f = mmap_file::open(path, {.sharing = mode, .huge_pages = true});
    ASSERT_TRUE(f.ok()) << f.error().to_string();
    ASSERT_EQ(f->size(), data.size());
    EXPECT_EQ(f->path(), path);
    EXPECT_TRUE(std::equal(data.begin(), data.end(), f->bytes().begin()));
    EXPECT_TRUE(f->advise(5, 100, access_hint::will_need).ok());
    EXPECT_TRUE(f->advise(mmap_file::page_size() + 7, 1 << 20, access_hint::random).ok());
    // dont_need on a file mapping only drops this process's view: the bytes read back the same.
    EXPECT_TRUE(f->advise(0, f->size(), access_hint::dont_need).ok());
    EXPECT_TRUE(std::equal(data.begin(), data.end(), f->bytes().begin()));
    EXPECT_TRUE(f->advise(f->size() + 10, 10, access_hint::normal).ok());  // past the end: no-op
  }
  auto populated = mmap_file::open(path, {.populate = true});
  ASSERT_TRUE(populated.ok());
  EXPECT_EQ(populated->bytes()[77], data[77]);
  std::remove(path.c_str());
}

TEST(mmap_file, empty_file) {
  const std::string path = temp_path("empty");
  write_file(path, 0);
  auto f = mmap_file::open(path);
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  EXPECT_EQ(f->size(), 0u);
  EXPECT_TRUE(f->bytes().empty());
  std::remove(path.c_str());
}

TEST(mmap_file, move_transfers_ownership) {
  const std::string path = temp_path("move");
  const auto data = write_file(path, 5000);
  auto f = mmap_file::open(path);
  ASSERT_TRUE(f.ok());
  mmap_file a = std::move(*f);
  EXPECT_EQ(f->data(), nullptr);
  EXPECT_EQ(f->size(), 0u);
  mmap_file b;
  b = std::move(a);
  EXPECT_EQ(a.data(), nullptr);
  ASSERT_EQ(b.size(), data.size());
  EXPECT_EQ(b.bytes()[4999], data[4999]);
  b = mmap_file();  // unmaps
  EXPECT_EQ(b.data(), nullptr);
  std::remove(path.c_str());
}

TEST(mmap_file, errors_are_statuses) {
  auto missing = mmap_file::open(temp_path("does_not_exist"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), status_code::io_error);
  EXPECT_NE(missing.error().message().find("does_not_exist"), std::string::npos);

  auto dir = mmap_file::open(std::filesystem::temp_directory_path().string());
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().code(), status_code::io_error);
}

}  // namespace
