// SPDX-License-Identifier: Apache-2.0
// The CLI's progress lines for long library work that reports through base/progress.hpp
// (parameter generation, parameter loading and upload): at info level on stderr, every 10 % of a
// phase, "<prefix>: <phase> <pct>%  ETA <s> s", the ETA from the phase's pace so far
// (elapsed / done · (total − done)). With progress_units::bytes (parameter loading and upload)
// the line also says "<done> / <total> GB".
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <string>

#include "base/progress.hpp"

namespace cuzk::app {

enum class progress_units { count, bytes };

inline progress_fn phase_progress_lines(std::string prefix,
                                        progress_units units = progress_units::count) {
  struct state {
    std::string phase;
    size_t pct = 101;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  };
  auto st = std::make_shared<state>();
  return [prefix = std::move(prefix), st, units](const char* phase, size_t done, size_t total) {
    const size_t pct = total ? done * 100 / total : 100;
    const bool new_phase = phase != st->phase;
    if (new_phase) st->start = std::chrono::steady_clock::now();
    if (!new_phase && pct / 10 == st->pct / 10) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - st->start).count();
    const std::string amount =
        units == progress_units::bytes
            ? fmt::format("  {:.2f} / {:.2f} GB", double(done) / 1e9, double(total) / 1e9)
            : std::string();
    if (done > 0 && done < total) {
      spdlog::info("{}: {:<9} {:>3}%{}  ETA {:.0f} s", prefix, phase, pct, amount,
                   elapsed / double(done) * double(total - done));
    } else {
      spdlog::info("{}: {:<9} {:>3}%{}", prefix, phase, pct, amount);
    }
    st->phase = phase;
    st->pct = pct;
  };
}

}  // namespace cuzk::app
