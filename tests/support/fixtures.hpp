// SPDX-License-Identifier: Apache-2.0
// Where tests find files of the source tree: $CUZK_SOURCE_DIR (ctest sets it) or the path baked in
// at configure time (CUZK_SOURCE_DIR_FALLBACK, defined for every cuzk_test), so a test binary run
// by hand finds the same files. The helpers only build paths: a test that needs a fixture opens it
// and fails (never skips) when it is missing.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

namespace cuzk::test {

/// The repository root.
inline std::string source_dir() {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  return src ? std::string(src) : std::string(CUZK_SOURCE_DIR_FALLBACK);
}

/// A shared Filecoin fixture, read in place and never copied:
/// <source>/../shared/fixtures/filecoin/<name>.
inline std::string fixture_path(std::string_view name) {
  return source_dir() + "/../shared/fixtures/filecoin/" + std::string(name);
}

/// The known-answer vector directory, <source>/tests/vectors/ (with the trailing slash).
inline std::string vectors_path() {
  return source_dir() + "/tests/vectors/";
}

}  // namespace cuzk::test
