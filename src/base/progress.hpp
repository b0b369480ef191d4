// SPDX-License-Identifier: Apache-2.0
// The progress hook of long library work (parameter generation, parameter loading and upload):
// the library reports, the app decides how to show it (apps/cuzk/phase_progress.hpp).
#pragma once

#include <cstddef>
#include <functional>

namespace cuzk {

/// Progress report: a phase name (e.g. "powers", "h", "load"), units done and total in that
/// phase. Called from the calling thread only; an empty function reports nothing.
using progress_fn = std::function<void(const char* phase, size_t done, size_t total)>;

}  // namespace cuzk
