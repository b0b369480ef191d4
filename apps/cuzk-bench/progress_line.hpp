// SPDX-License-Identifier: Apache-2.0
// A one-line progress bar with an ETA on stderr for cuzk-bench's long runs (batch, stress), drawn
// only when stderr is a terminal: "batch [#####-----] 5/10  ETA 12 s". The ETA is the mean time
// per finished item times the items left. Not thread-safe: callers serialize update/clear.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace cuzk::bench {

class progress_line {
 public:
  progress_line(std::string label, unsigned total)
      : label_(std::move(label)),
        total_(total),
        tty_(::isatty(2) == 1),
        t0_(std::chrono::steady_clock::now()) {}

  void update(unsigned done) {
    if (!tty_ || total_ == 0) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    const unsigned width = 30, filled = unsigned(uint64_t(width) * done / total_);
    std::string bar(filled, '#');
    bar.append(width - filled, '-');
    const double eta = done ? elapsed / done * (total_ - done) : 0;
    std::fprintf(stderr, "\r%s [%s] %u/%u  ETA %.0f s ", label_.c_str(), bar.c_str(), done, total_,
                 eta);
    std::fflush(stderr);
    drawn_ = true;
  }
  /// Erases the line (before printing other output, and at the end).
  void clear() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

 private:
  std::string label_;
  unsigned total_;
  bool tty_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace cuzk::bench
