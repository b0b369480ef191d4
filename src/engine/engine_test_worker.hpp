// SPDX-License-Identifier: Apache-2.0
// Which prover worker the engine tests use: the CPU by default (also on a GPU machine), GPU 0
// when CUZK_ENGINE_TEST_WORKER=gpu (the `gpu`-labelled registrations of the same binaries); and
// one request proved the way `cuzk prove` proves it (prove_once).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/engine.hpp"
#include "engine/proof_kind.hpp"

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

/// Proves `req` on a fresh engine with the chosen worker and the parameters in `param_dir`, as
/// `cuzk prove` does: the proof bytes, or why not (the refusal at submit, or the failed job's
/// error). The parameters load with the curve check only: the subgroup check costs minutes per
/// load of the 2 KiB parameters on 2 cores, and is params_io_test's and
/// tests/e2e/params_blame.sh's subject. `handlers`: the kinds (kind_options to turn a check off).
inline result<std::vector<uint8_t>> prove_once(proof_request req, const std::string& param_dir,
                                               handler_list handlers = builtin_handlers(),
                                               job_timings* timings = nullptr) {
  engine_config cfg;
  choose(cfg);
  cfg.param_dir = param_dir;
  cfg.prover_threads = 2;
  cfg.synthesis_workers = 1;
  cfg.host_memory_budget = uint64_t(8) << 30;
  cfg.params_checks = engine_config::param_checks::on_curve;
  engine_parts parts;
  parts.handlers = std::move(handlers);
  auto e = create_engine(cfg, std::move(parts));
  if (!e) return e.error();
  auto submitted = (*e)->submit(std::move(req));
  if (!submitted) return submitted.error();
  auto r = (*e)->await(submitted->job_id, std::chrono::minutes(30));
  (*e)->shutdown();
  if (!r) return r.error();
  if (timings) *timings = r->timings;
  if (r->state != job_state::completed) return r->error;
  return std::move(r->proof);
}

}  // namespace cuzk::engine::test_worker
