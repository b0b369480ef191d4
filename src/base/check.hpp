// SPDX-License-Identifier: Apache-2.0
// Preconditions: a violated one is a caller bug, not a data error (arithmetic has no error
// path: CONTRIBUTING.md "Code rules"), so it prints where and why and aborts. Untrusted input never
// reaches one: it is validated first and rejected with a status.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace cuzk {

/// Prints "cuzk: <where>: <printf message>" to stderr and aborts.
[[noreturn]] __attribute__((format(printf, 2, 3))) inline void precondition_failed(
    const char* where, const char* format, ...) {
  std::fprintf(stderr, "cuzk: %s: precondition violated: ", where);
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::abort();
}

}  // namespace cuzk
