// SPDX-License-Identifier: Apache-2.0
// The device-memory plan of a Filecoin circuit on a GPU of a given size, without a GPU or its
// parameter file: the circuit's compiled a, b, c plan (seconds, as the engine compiles it) gives
// the exact witness counts and densities, hence the parameters' query sizes, and its program
// size; groth16::choose_gpu_plan does the rest. What `cuzk plan` prints and docs/hardware.md
// tabulates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/status.hpp"
#include "groth16/gpu_memory.hpp"
#include "groth16/gpu_time_model.hpp"
#include "groth16/keys.hpp"

namespace cuzk::filecoin::proofs {

/// One partition circuit as a GPU plans for it.
struct gpu_circuit_shape {
  std::string circuit;    ///< porep, window-post, winning-post, snap
  std::string proof;      ///< the registered proof's name
  std::string params_id;  ///< the official parameter file's id
  groth16::query_sizes q{};
  uint64_t rows = 0;           ///< R1CS rows (constraints + inputs)
  uint64_t program_bytes = 0;  ///< the compiled a, b, c plan (the engine charges it as device)
  unsigned partitions = 1;     ///< partitions of one proof (PoRep 10, SnapDeals 16 at 32 GiB)
  /// Its resident proof measured on the reference card (the 32 GiB sector's, scaled by the rows
  /// for 64 GiB): what the plan's predicted time starts from.
  groth16::gpu_time_profile time_profile;
};

/// The shape of `circuit` ("porep", "window-post", "winning-post" or "snap") for the registered
/// proof `proof_name` (name or id, as `cuzk circuit stats` takes them), from its compiled plan.
/// invalid_argument for an unknown circuit or proof, or a proof of another kind.
result<gpu_circuit_shape> gpu_circuit_shape_of(std::string_view circuit,
                                               std::string_view proof_name);

/// The daemon's automatic device budget on a card of `card_bytes`: the card minus 1 GiB
/// (gpus.memory_budget = "auto").
uint64_t automatic_budget(uint64_t card_bytes);
/// The plan the engine chooses for `s` on a card of `card_bytes` (its automatic budget) with
/// `lanes` prover lanes at most: groth16::choose_gpu_plan's plan or refusal.
result<groth16::gpu_plan> gpu_plan_on_card(const gpu_circuit_shape& s, uint64_t card_bytes,
                                           unsigned lanes);
/// `plan` (gpu_plan_on_card's) as one JSON object: the circuit, the card, the budget, then the
/// plan (groth16::gpu_plan::to_json) and its predicted time on the reference card with its host
/// link (groth16::gpu_predicted_time: "predicted", s_per_partition and what it is made of), or
/// "plan":null and "refused" with the reason and the smallest card that would prove it.
std::string gpu_plan_json(const gpu_circuit_shape& s, uint64_t card_bytes,
                          const result<groth16::gpu_plan>& plan,
                          const groth16::gpu_time_reference& reference = {});

/// The markdown table of docs/hardware.md: one row per shape, one column per card size in GiB;
/// each cell the mode and lanes ("resident ×2", "streamed", "—" when refused), the knobs that
/// differ from the fastest (smaller MSM window groups, a, b, c evaluated on the host) and the
/// planned device peak in GiB.
std::string gpu_plan_table(const std::vector<gpu_circuit_shape>& shapes,
                           const std::vector<unsigned>& card_gib, unsigned lanes);

/// The card sizes (GiB) and registered proofs of docs/hardware.md's table.
const std::vector<unsigned>& table_card_gib();
const std::vector<std::pair<std::string, std::string>>& table_circuits();

}  // namespace cuzk::filecoin::proofs
