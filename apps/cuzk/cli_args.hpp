// SPDX-License-Identifier: Apache-2.0
// Argument helpers shared by the `cuzk` subcommands.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace cuzk::app {

/// Strict decimal u64: digits only, no sign or space, no overflow.
inline bool parse_u64(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  for (char ch : s)
    if (ch < '0' || ch > '9') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}

}  // namespace cuzk::app
