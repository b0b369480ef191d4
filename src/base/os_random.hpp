// SPDX-License-Identifier: Apache-2.0
// Bytes from the OS CSPRNG (getrandom): the one place that loops over short reads and EINTR, for
// every caller that draws secrets (Groth16 blinding r, s; toxic waste; batch-verification weights).
#pragma once

#include <cstdint>
#include <span>

#include "cuzk/status.hpp"

namespace cuzk {

/// Fills `out` entirely from getrandom(2), retrying after EINTR and short reads; io_error (with
/// strerror) if the kernel refuses. An empty span succeeds without a system call.
status fill_os_random(std::span<uint8_t> out);

}  // namespace cuzk
