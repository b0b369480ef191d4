// SPDX-License-Identifier: Apache-2.0
// A scoped temporary directory for tests: created under the system temp directory with a name
// unique to the process and the instance, removed with everything in it when the object goes.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace cuzk::test {

class temp_dir {
 public:
  explicit temp_dir(std::string_view prefix) {
    static std::atomic<unsigned> counter{0};
    path_ =
        std::filesystem::temp_directory_path() /
        (std::string(prefix) + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string string() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace cuzk::test
