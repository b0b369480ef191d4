// SPDX-License-Identifier: Apache-2.0
// The logging hook. Libraries never own a logger: the code that wants to report takes a log_sink
// (a callback) from its caller, and an empty sink drops everything. Applications bind the sink to
// spdlog (apps/cuzk/logging.hpp) and choose the level (--log-level).
#pragma once

#include <cstdarg>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace cuzk {

enum class log_level { trace, debug, info, warn, error };

/// Receives one formatted message (no trailing newline).
using log_sink = std::function<void(log_level, std::string_view)>;

/// printf-style formatting into a sink; nothing is formatted when the sink is empty.
__attribute__((format(printf, 3, 4))) inline void logf(const log_sink& sink, log_level level,
                                                       const char* format, ...) {
  if (!sink) return;
  char small[512];
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(small, sizeof small, format, args);
  va_end(args);
  if (n < 0) {
    va_end(copy);
    return;
  }
  if (size_t(n) < sizeof small) {
    va_end(copy);
    sink(level, std::string_view(small, size_t(n)));
    return;
  }
  std::string big(size_t(n) + 1, '\0');
  std::vsnprintf(big.data(), big.size(), format, copy);
  va_end(copy);
  big.resize(size_t(n));
  sink(level, big);
}

}  // namespace cuzk
