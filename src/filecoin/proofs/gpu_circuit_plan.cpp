// SPDX-License-Identifier: Apache-2.0
#include "filecoin/proofs/gpu_circuit_plan.hpp"

#include <cstdio>

#include "filecoin/circuits/empty_sector_update_circuit.hpp"
#include "filecoin/circuits/fallback_post_circuit.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/snap/config.hpp"

namespace cuzk::filecoin::proofs {
namespace {

constexpr uint64_t gib_bytes = uint64_t(1) << 30;

// The query sizes the plan's witness implies (groth16::query_sizes_for): inputs, aux, the domain
// (the rows' next power of two) and the density counts.
gpu_circuit_shape shape_from(const r1cs::abc_plan& plan) {
  const r1cs::density_bitmaps d = plan.densities();
  groth16::parameters_shape ps;
  ps.num_inputs = plan.num_inputs();
  ps.num_aux = plan.num_aux();
  ps.domain_size = 1;
  while (ps.domain_size < plan.num_rows()) ps.domain_size <<= 1;
  ps.a_aux_density = d.a_aux.popcount();
  ps.b_input_density = d.b_input.popcount();
  ps.b_aux_density = d.b_aux.popcount();
  gpu_circuit_shape s;
  s.q = groth16::query_sizes_for(ps);
  s.rows = plan.num_rows();
  s.program_bytes = plan.size().bytes;
  return s;
}

// Each circuit's resident 32 GiB proof on the reference card (groth16::gpu_time_reference: an
// H100 80GB HBM3, one prover lane, every proof verified), and the rows it was measured at.
struct measured_profile {
  groth16::gpu_time_profile profile;
  uint64_t rows;
};

// PoRep: p2–p10 mean of one lane on the whole card, its MSMs timed one by one (H 804, L + A 82,
// B1 + B2 76 ms); two lanes 1,375 ms a partition. The others are about a tenth of a split's terms
// (2^23.6 of 130 M: groth16::gpu_others_group_bytes).
const measured_profile porep_profile{{1461, 1375, 804, 158, 0.1,
                                      "bench/results/h100/2026-12-07-others-piece-mps-caps.md, "
                                      "bench/results/h100/2026-12-06-device-memory-plans.md"},
                                     130278869};
// WindowPoSt: one lane on the whole card (4 GiB groups), H 0.83, L 0.99, A 0.76, B1 0.71,
// B2 1.85 s: the witness is dense. Two lanes not measured.
const measured_profile window_post_profile{
    {5680, 0, 830, 4310, 1.0, "bench/results/h100/2026-12-07-others-piece-mps-caps.md"}, 125305057};
// WinningPoSt: 48–50 ms a proof beside the PoRep runs (resident; its MSMs not timed apart).
const measured_profile winning_post_profile{
    {50, 0, 0, 0, 1.0, "bench/results/h100/2026-12-07-others-piece-mps-caps.md"}, 370723};
// SnapDeals: one lane at a 48 GiB cap, 1.41 s a partition, its H 0.84 s and B2 37 ms; L and A
// 39 and 37 ms, B1 as B2 (the H200's split: the witness is bits, its splits batch additions);
// two lanes on the whole card 1.29 s.
const measured_profile snap_profile{{1410, 1290, 840, 150, 0.1,
                                     "bench/results/h100/2026-12-07-engine-gpu-snap-caps.md, "
                                     "bench/results/h200/2026-12-03-post-snap32g.md"},
                                    81049504};

groth16::gpu_time_profile profile_for(const measured_profile& m, uint64_t rows) {
  return m.profile.scaled(double(rows) / double(m.rows));
}

std::string gib_text(uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", double(bytes) / double(gib_bytes));
  return b;
}

}  // namespace

result<gpu_circuit_shape> gpu_circuit_shape_of(std::string_view circuit,
                                               std::string_view proof_name) {
  const auto bad = [&](const std::string& why) {
    return status(status_code::invalid_argument,
                  std::string(circuit) + " " + std::string(proof_name) + ": " + why);
  };
  result<r1cs::abc_plan> plan = status(status_code::internal, "no plan");
  gpu_circuit_shape meta;
  const measured_profile* measured = nullptr;
  if (circuit == "porep") {
    const auto proof = porep::parse_registered_seal_proof(proof_name);
    if (!proof) return bad(proof.error().message());
    const auto cfg = porep::porep_config(*proof);
    if (!cfg) return bad(cfg.error().message());
    plan = circuits::stacked_abc_plan(cfg->layers(), cfg->sector.tree_d, cfg->sector.tree_r,
                                      cfg->challenges_per_partition());
    meta.proof = std::string(porep::name_of(*proof));
    meta.params_id = circuits::porep_param_id(*cfg);
    meta.partitions = cfg->partitions();
    measured = &porep_profile;
  } else if (circuit == "window-post" || circuit == "winning-post") {
    const auto proof = post::parse_registered_post_proof(proof_name);
    if (!proof) return bad(proof.error().message());
    const auto cfg = post::post_config(*proof);
    if (!cfg) return bad(cfg.error().message());
    if (post::to_string(cfg->kind) != circuit)
      return bad("a " + std::string(post::to_string(cfg->kind)) + " proof, not " +
                 std::string(circuit));
    plan = circuits::fallback_post_abc_plan(*cfg);
    meta.proof = std::string(post::name_of(*proof));
    meta.params_id = circuits::post_param_id(*cfg);
    measured = circuit == "window-post" ? &window_post_profile : &winning_post_profile;
  } else if (circuit == "snap") {
    const auto proof = snap::parse_registered_update_proof(proof_name);
    if (!proof) return bad(proof.error().message());
    const auto cfg = snap::update_config(*proof);
    if (!cfg) return bad(cfg.error().message());
    plan = circuits::empty_sector_update_abc_plan(*cfg);
    meta.proof = std::string(snap::name_of(*proof));
    meta.params_id = circuits::update_param_id(*cfg);
    meta.partitions = cfg->partitions;
    measured = &snap_profile;
  } else {
    return bad("the circuit is porep, window-post, winning-post or snap");
  }
  if (!plan)
    return status(plan.error().code(), "compiling the a, b, c plan of " + std::string(circuit) +
                                           ": " + plan.error().message());
  gpu_circuit_shape s = shape_from(*plan);
  s.circuit = std::string(circuit);
  s.proof = meta.proof;
  s.params_id = meta.params_id;
  s.partitions = meta.partitions;
  s.time_profile = profile_for(*measured, s.rows);
  return s;
}

uint64_t automatic_budget(uint64_t card_bytes) {
  return card_bytes > gib_bytes ? card_bytes - gib_bytes : 0;
}

result<groth16::gpu_plan> gpu_plan_on_card(const gpu_circuit_shape& s, uint64_t card_bytes,
                                           unsigned lanes) {
  groth16::gpu_plan_request req;
  req.q = s.q;
  req.device_budget = automatic_budget(card_bytes);
  req.program_bytes = s.program_bytes;
  req.max_lanes = lanes;
  return groth16::choose_gpu_plan(req);
}

std::string predicted_json(const gpu_circuit_shape& s, const groth16::gpu_plan& plan,
                           const groth16::gpu_time_reference& reference) {
  const groth16::gpu_time_prediction t =
      groth16::gpu_predicted_time(s.q, plan, s.time_profile, reference);
  const auto seconds = [](double ms) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", ms / 1e3);
    return std::string(b);
  };
  std::string out = "{\"card\":\"" + reference.card + "\",\"host_link_bytes_per_s\":" +
                    std::to_string(uint64_t(reference.link_bytes_per_s)) + ",\"record\":\"" +
                    s.time_profile.record + "\",";
  if (!t.modelled) return out + "\"s_per_partition\":null,\"why\":\"" + t.why + "\"}";
  return out + "\"s_per_partition\":" + seconds(t.ms) +
         ",\"s_per_proof\":" + seconds(t.ms * s.partitions) +
         ",\"resident_s\":" + seconds(t.resident_ms) +
         ",\"streamed_h_s\":" + seconds(t.streamed_h_ms) +
         ",\"streamed_split_s\":" + seconds(t.streamed_split_ms) +
         ",\"link_s\":" + seconds(t.link_ms) +
         ",\"link_bound\":" + (t.link_bound ? "true" : "false") + "}";
}

std::string gpu_plan_json(const gpu_circuit_shape& s, uint64_t card_bytes,
                          const result<groth16::gpu_plan>& plan,
                          const groth16::gpu_time_reference& reference) {
  std::string out = "{\"circuit\":\"" + s.circuit + "\",\"registered_proof\":\"" + s.proof +
                    "\",\"params_id\":\"" + s.params_id + "\",\"rows\":" + std::to_string(s.rows) +
                    ",\"partitions\":" + std::to_string(s.partitions) +
                    ",\"card_bytes\":" + std::to_string(card_bytes) +
                    ",\"device_budget_bytes\":" + std::to_string(automatic_budget(card_bytes)) +
                    ",";
  if (plan)
    return out + "\"plan\":" + plan->to_json() +
           ",\"predicted\":" + predicted_json(s, *plan, reference) + "}";
  return out + "\"plan\":null,\"refused\":\"" + plan.error().message() + "\"}";
}

std::string gpu_plan_table(const std::vector<gpu_circuit_shape>& shapes,
                           const std::vector<unsigned>& card_gib, unsigned lanes) {
  std::string t = "| circuit | proof | parameters GiB |";
  std::string rule = "|---|---|---|";
  for (unsigned g : card_gib) {
    t += " " + std::to_string(g) + " GiB |";
    rule += "---|";
  }
  t += "\n" + rule + "\n";
  for (const gpu_circuit_shape& s : shapes) {
    t += "| " + s.circuit + " | " + s.proof + " | " +
         gib_text(groth16::gpu_parameter_bytes(s.q, groth16::gpu_residency::device)) + " |";
    for (unsigned g : card_gib) {
      const auto plan = gpu_plan_on_card(s, uint64_t(g) * gib_bytes, lanes);
      std::string cell = "—";
      if (plan) {
        cell = plan->residency == groth16::gpu_residency::device ? "resident"
               : plan->knobs.resident_queries != 0               ? "partial ("
                                                                 : "streamed";
        if (plan->knobs.resident_queries != 0) {
          cell.append(groth16::gpu_query_names(plan->knobs.resident_queries));
          cell.append(" on the device)");
        }
        if (plan->lanes > 1) cell += " ×" + std::to_string(plan->lanes);
        if (plan->knobs.msm_group_bytes != groth16::gpu_memory_knobs{}.msm_group_bytes)
          cell += ", MSM groups " + gib_text(plan->knobs.msm_group_bytes);
        if (!plan->knobs.abc_on_device) cell += ", abc on host";
        if (plan->knobs.abc_in_turn) cell += ", abc in turn";
        if (plan->knobs.interleave_queries) cell += ", interleaved";
        if (plan->residency == groth16::gpu_residency::host) {
          cell += ", ring " + gib_text(plan->knobs.ring_bytes);
          if (plan->knobs.ring_after_abc) cell += " after abc";
          if (plan->knobs.h_window_bits != 0)
            cell += ", H window " + std::to_string(plan->knobs.h_window_bits);
        }
        cell += ", " + gib_text(plan->device_peak_bytes) + " GiB";
        const groth16::gpu_time_prediction t =
            groth16::gpu_predicted_time(s.q, *plan, s.time_profile);
        if (t.modelled) {
          char b[32];
          std::snprintf(b, sizeof b, ", %.2f s", t.ms / 1e3);
          cell += b;
        }
      }
      t += " " + cell + " |";
    }
    t += "\n";
  }
  return t;
}

const std::vector<unsigned>& table_card_gib() {
  static const std::vector<unsigned> cards = {8, 10, 12, 16, 20, 24, 32, 48, 80, 96, 141};
  return cards;
}

const std::vector<std::pair<std::string, std::string>>& table_circuits() {
  static const std::vector<std::pair<std::string, std::string>> c = {
      {"porep", std::string(porep::name_of(porep::registered_seal_proof::stacked_drg_32gib_v1_1))},
      {"porep", std::string(porep::name_of(porep::registered_seal_proof::stacked_drg_64gib_v1_1))},
      {"window-post", std::string(post::name_of(post::registered_post_proof::window_32gib_v1_1))},
      {"window-post", std::string(post::name_of(post::registered_post_proof::window_64gib_v1_1))},
      {"winning-post", std::string(post::name_of(post::registered_post_proof::winning_32gib_v1))},
      {"winning-post", std::string(post::name_of(post::registered_post_proof::winning_64gib_v1))},
      {"snap", std::string(snap::name_of(snap::registered_update_proof::stacked_drg_32gib_v1))},
      {"snap", std::string(snap::name_of(snap::registered_update_proof::stacked_drg_64gib_v1))},
  };
  return c;
}

}  // namespace cuzk::filecoin::proofs
