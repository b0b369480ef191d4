// SPDX-License-Identifier: Apache-2.0
// Which prover worker the engine tests use: the CPU by default (also on a GPU machine), GPU 0
// when CUZK_ENGINE_TEST_WORKER=gpu (the `gpu`-labelled registrations of the same binaries).
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

#include "cuzk/engine.hpp"

namespace cuzk::engine::test_worker {

inline bool on_gpu() {
  const char* w = std::getenv("CUZK_ENGINE_TEST_WORKER");
  return w && std::string_view(w) == "gpu";
}

/// The worker's name in timings and status: "gpu 0" or "cpu".
inline std::string name() {
  return on_gpu() ? "gpu 0" : "cpu";
}

/// Points `cfg` at the chosen worker.
inline void choose(engine_config& cfg) {
  if (on_gpu()) {
    cfg.gpu_devices = {0};
    cfg.disable_gpus = false;
  } else {
    cfg.disable_gpus = true;
  }
}

}  // namespace cuzk::engine::test_worker
