// SPDX-License-Identifier: Apache-2.0
// Text that came from outside (a request id a client chose, a path from a config) made safe for a
// line-oriented log: every control byte is written as \xNN, so a client cannot end a log line and
// forge the next one, nor send terminal escapes to whoever reads the log.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/hex.hpp"

namespace cuzk {

/// `text` with each byte below 0x20 and 0x7f (DEL) written as the four characters \xNN (two
/// lower-case hex digits); every other byte, UTF-8 included, unchanged.
inline std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto byte = static_cast<uint8_t>(ch);
    if (byte < 0x20 || byte == 0x7f) {
      out += "\\x" + to_hex({&byte, 1});
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace cuzk
