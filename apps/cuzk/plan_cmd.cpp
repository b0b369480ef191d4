// SPDX-License-Identifier: Apache-2.0
// `cuzk plan`: the device-memory plan the engine would choose for a circuit on a GPU of a given
// size, without a GPU or parameter files (filecoin/proofs/gpu_circuit_plan.hpp).
//   plan --circuit porep|window-post|winning-post|snap --registered-proof NAME --gpu-memory SIZE
//        [--lanes N] [--host-link GB/s]
//       one JSON object: the circuit, the card, its budget (the card minus 1 GiB, as the daemon's
//       gpus.memory_budget = "auto"), and the plan (mode resident|streamed, lanes,
//       device_peak_bytes, host_bytes, streamed_bytes, the knobs) with its predicted time on
//       the reference card (groth16/gpu_time_model.hpp) or the refusal naming the smallest card.
//   plan --table [--lanes N]
//       docs/hardware.md's table: every 32/64 GiB circuit × 8 … 141 GiB cards (CI compares it).
// Exit codes: 0 a plan (or the table), 1 no plan fits the card, 2 bad input.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "cli_args.hpp"
#include "filecoin/proofs/gpu_circuit_plan.hpp"
#include "server/config.hpp"

namespace cuzk::app {
namespace {

struct plan_args {
  std::string circuit, proof_name, gpu_memory;
  unsigned lanes = engine::engine_config{}.gpu_lanes;
  double host_link_gbps = groth16::gpu_time_reference{}.link_bytes_per_s / 1e9;
  bool table = false;
};

int run_plan(const plan_args& a) {
  if (a.table) {
    std::vector<filecoin::proofs::gpu_circuit_shape> shapes;
    for (const auto& [circuit, proof] : filecoin::proofs::table_circuits()) {
      auto s = filecoin::proofs::gpu_circuit_shape_of(circuit, proof);
      if (!s) {
        spdlog::error("cuzk plan: {}", s.error().message());
        return EXIT_FAIL;
      }
      shapes.push_back(std::move(*s));
    }
    std::fputs(filecoin::proofs::gpu_plan_table(shapes, filecoin::proofs::table_card_gib(), a.lanes)
                   .c_str(),
               stdout);
    return EXIT_OK;
  }
  if (a.circuit.empty() || a.proof_name.empty() || a.gpu_memory.empty()) {
    spdlog::error(
        "cuzk plan: --circuit, --registered-proof and --gpu-memory are required "
        "(or --table)");
    return EXIT_BAD;
  }
  const auto card = server::parse_size("--gpu-memory", a.gpu_memory);
  if (!card) {
    spdlog::error("cuzk plan: {}", card.error().message());
    return EXIT_BAD;
  }
  const auto shape = filecoin::proofs::gpu_circuit_shape_of(a.circuit, a.proof_name);
  if (!shape) {
    spdlog::error("cuzk plan: {}", shape.error().message());
    return shape.error().code() == status_code::invalid_argument ? EXIT_BAD : EXIT_FAIL;
  }
  const auto plan = filecoin::proofs::gpu_plan_on_card(*shape, *card, std::max(1u, a.lanes));
  groth16::gpu_time_reference reference;
  reference.link_bytes_per_s = a.host_link_gbps * 1e9;
  std::printf("%s\n", filecoin::proofs::gpu_plan_json(*shape, *card, plan, reference).c_str());
  return plan ? EXIT_OK : EXIT_FAIL;
}

}  // namespace

void add_plan_command(CLI::App& root, command_runner& chosen) {
  auto args = std::make_shared<plan_args>();
  auto* plan = root.add_subcommand(
      "plan",
      "the GPU plan (resident or streamed, lanes, device and host bytes) the engine chooses for "
      "a circuit on a card of --gpu-memory bytes, as JSON; no GPU or parameters needed");
  plan->add_option("--circuit", args->circuit,
                   "porep, window-post, winning-post or snap (EmptySectorUpdate)")
      ->check(CLI::IsMember({"porep", "window-post", "winning-post", "snap"}));
  plan->add_option("--registered-proof", args->proof_name,
                   "registered seal proof (porep), PoSt proof or update proof (snap): name or id");
  plan->add_option("--gpu-memory", args->gpu_memory,
                   "the card's memory: 24GiB, 80GB, 16384MiB, … (the budget is 1 GiB less)");
  plan->add_option("--lanes", args->lanes,
                   "prover lanes per GPU (gpus.gpu_workers_per_device; default 2)");
  plan->add_option(
          "--host-link", args->host_link_gbps,
          "the card's host link in GB/s for the predicted time (default the reference "
          "H100's measured PCIe 5.0 x16; ≈ 25 for PCIe 4.0 x16: RTX 3090/4090, A6000, L40S)")
      ->check(CLI::Range(0.1, 1000.0))
      // CLI::Range lets NaN through (every comparison with it is false): it would print "nan"
      // into the JSON.
      ->check(CLI::Validator(
          [](std::string& v) {
            return std::isfinite(std::strtod(v.c_str(), nullptr)) ? std::string()
                                                                  : "not a finite number: " + v;
          },
          "FINITE"));
  plan->add_flag("--table", args->table,
                 "print docs/hardware.md's table (every 32/64 GiB circuit × 8 … 141 GiB cards)");
  plan->footer(std::string(REGISTERED_PROOFS_HELP) + "\n" + REGISTERED_POST_PROOFS_HELP + "\n" +
               REGISTERED_UPDATE_PROOFS_HELP);
  on_selected(plan, chosen, [args] { return run_plan(*args); });
}

}  // namespace cuzk::app
