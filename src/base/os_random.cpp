// SPDX-License-Identifier: Apache-2.0
#include "base/os_random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace cuzk {

status fill_os_random(std::span<uint8_t> out) {
  size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = getrandom(out.data() + got, out.size() - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return status(status_code::io_error, "getrandom failed: " + std::string(strerror(errno)));
    }
    got += size_t(n);
  }
  return {};
}

}  // namespace cuzk
