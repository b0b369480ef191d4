// SPDX-License-Identifier: Apache-2.0
// `cuzk circuit …`: facts about the Filecoin circuits without proving.
//   stats --circuit porep|window-post|winning-post|snap --registered-proof NAME
//       synthesizes the blank partition circuit in r1cs::shape_cs (counting only: no values, no
//       matrices kept) and prints one JSON object: rows (= constraints + inputs, the Groth16 QAP
//       rows), constraints, inputs (ONE included), aux, a_nnz, b_nnz, c_nnz, a_aux_density,
//       b_input_density, b_aux_density, plus domain (next power of two ≥ rows), the shape
//       fingerprint, the official parameter file id and the synthesis time. The nnz cover all
//       rows: each input row x_j·0 = 0 adds one A entry (a_nnz = circuit A nnz + inputs), as in
//       the measured 32 GiB figures of docs/spec/porep.md §9. PoSt proofs are named by wire number
//       (0..14), Go name or Rust name; the circuit must match the proof's kind. SnapDeals
//       (EmptySectorUpdate) proofs likewise (0..4, "StackedDrg32GiBV1", the Go constant).
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr).
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "cli_args.hpp"
#include "filecoin/circuits/empty_sector_update_circuit.hpp"
#include "filecoin/circuits/fallback_post_circuit.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/snap/config.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::app {
namespace {

int fail(const std::string& msg) {
  spdlog::error("cuzk circuit: {}", msg);
  return EXIT_BAD;
}

void print_stats(std::string_view circuit, std::string_view proof_name,
                 const r1cs::shape_summary& s, const std::string& params_id, double secs) {
  const size_t rows = s.num_constraints + s.num_inputs;
  size_t domain = 1;
  while (domain < rows) domain <<= 1;
  std::printf(
      "{\"circuit\":\"%s\",\"registered_proof\":\"%s\",\"rows\":%zu,\"constraints\":%zu,"
      "\"inputs\":%zu,\"aux\":%zu,\"a_nnz\":%zu,\"b_nnz\":%zu,\"c_nnz\":%zu,"
      "\"a_aux_density\":%zu,\"b_input_density\":%zu,\"b_aux_density\":%zu,\"domain\":%zu,"
      "\"fingerprint\":\"%s\",\"params_id\":\"%s\",\"synthesis_seconds\":%.3f}\n",
      std::string(circuit).c_str(), std::string(proof_name).c_str(), rows, s.num_constraints,
      s.num_inputs, s.num_aux, s.nnz_a + s.num_inputs, s.nnz_b, s.nnz_c, s.a_aux_density,
      s.b_input_density, s.b_aux_density, domain, s.hash_hex().c_str(), params_id.c_str(), secs);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int run_porep_stats(const std::string& proof_name) {
  const auto proof = filecoin::porep::parse_registered_seal_proof(proof_name);
  if (!proof) return fail("stats: " + proof.error().message());
  const auto cfg = filecoin::porep::porep_config(*proof);
  if (!cfg) return fail("stats: " + cfg.error().message());

  const auto t0 = std::chrono::steady_clock::now();
  r1cs::shape_cs cs;
  filecoin::circuits::synthesize_stacked_circuit(cs,
                                                 filecoin::circuits::blank_stacked_circuit(*cfg));
  print_stats("porep", filecoin::porep::name_of(*proof), cs.summary(),
              filecoin::circuits::porep_param_id(*cfg), seconds_since(t0));
  return EXIT_OK;
}

int run_post_stats(const std::string& circuit, const std::string& proof_name) {
  const auto proof = filecoin::post::parse_registered_post_proof(proof_name);
  if (!proof) return fail("stats: " + proof.error().message());
  const auto cfg = filecoin::post::post_config(*proof);
  if (!cfg) return fail("stats: " + cfg.error().message());
  if (filecoin::post::to_string(cfg->kind) != circuit)
    return fail("stats: " + std::string(filecoin::post::name_of(*proof)) + " is a " +
                std::string(filecoin::post::to_string(cfg->kind)) + " proof, not " + circuit);

  const auto t0 = std::chrono::steady_clock::now();
  r1cs::shape_cs cs;
  filecoin::circuits::synthesize_fallback_post_circuit(
      cs, filecoin::circuits::blank_fallback_post_circuit(*cfg));
  print_stats(circuit, filecoin::post::name_of(*proof), cs.summary(),
              filecoin::circuits::post_param_id(*cfg), seconds_since(t0));
  return EXIT_OK;
}

int run_snap_stats(const std::string& proof_name) {
  const auto proof = filecoin::snap::parse_registered_update_proof(proof_name);
  if (!proof) return fail("stats: " + proof.error().message());
  const auto cfg = filecoin::snap::update_config(*proof);
  if (!cfg) return fail("stats: " + cfg.error().message());

  const auto t0 = std::chrono::steady_clock::now();
  r1cs::shape_cs cs;
  filecoin::circuits::synthesize_empty_sector_update_circuit(
      cs, filecoin::circuits::blank_empty_sector_update_circuit(*cfg));
  print_stats("snap", filecoin::snap::name_of(*proof), cs.summary(),
              filecoin::circuits::update_param_id(*cfg), seconds_since(t0));
  return EXIT_OK;
}

int run_circuit_stats(const std::string& circuit, const std::string& proof_name) {
  if (circuit == "porep") return run_porep_stats(proof_name);
  if (circuit == "snap") return run_snap_stats(proof_name);
  return run_post_stats(circuit, proof_name);
}

}  // namespace

void add_circuit_commands(CLI::App& root, command_runner& chosen) {
  auto* circuit = root.add_subcommand("circuit", "Filecoin circuit shapes: rows, nnz, densities");
  circuit->require_subcommand(1);
  struct stats_args {
    std::string circuit, proof_name;
  };
  auto args = std::make_shared<stats_args>();
  auto* stats = circuit->add_subcommand(
      "stats",
      "R1CS shape of one partition circuit as JSON (rows, constraints, inputs, aux, nnz, "
      "densities); 32/64 GiB take a few minutes");
  stats
      ->add_option("--circuit", args->circuit,
                   "the circuit: porep, window-post, winning-post or snap (EmptySectorUpdate)")
      ->required()
      ->check(CLI::IsMember({"porep", "window-post", "winning-post", "snap"}));
  stats
      ->add_option("--registered-proof", args->proof_name,
                   "registered seal proof (porep), PoSt proof or update proof (snap): name or id")
      ->required();
  stats->footer(std::string(REGISTERED_PROOFS_HELP) + "\n" + REGISTERED_POST_PROOFS_HELP + "\n" +
                REGISTERED_UPDATE_PROOFS_HELP);
  on_selected(stats, chosen, [args] { return run_circuit_stats(args->circuit, args->proof_name); });
}

}  // namespace cuzk::app
