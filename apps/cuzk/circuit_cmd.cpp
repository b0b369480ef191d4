// SPDX-License-Identifier: Apache-2.0
// `cuzk circuit …`: facts about the Filecoin circuits without proving.
//   stats --circuit porep --registered-proof NAME
//       synthesizes the blank partition circuit in r1cs::shape_cs (counting only: no values, no
//       matrices kept) and prints one JSON object: rows (= constraints + inputs, the Groth16 QAP
//       rows), constraints, inputs (ONE included), aux, a_nnz, b_nnz, c_nnz, a_aux_density,
//       b_input_density, b_aux_density, plus domain (next power of two ≥ rows), the shape
//       fingerprint, the official parameter file id and the synthesis time. The nnz cover all
//       rows: each input row x_j·0 = 0 adds one A entry (a_nnz = circuit A nnz + inputs), as in
//       the measured 32 GiB figures of FILECOIN.md §3.5.
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr).
#include <chrono>
#include <cstdio>
#include <string>

#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/config.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::app {
namespace {

constexpr int EXIT_OK = 0, EXIT_BAD = 2;

const char* const USAGE =
    "usage: cuzk circuit <command>\n"
    "  stats --circuit porep --registered-proof NAME\n"
    "          R1CS shape of one partition circuit as JSON (rows, constraints, inputs, aux, nnz,\n"
    "          densities); 32/64 GiB take a few minutes\n";

int fail(const std::string& msg) {
  std::fprintf(stderr, "cuzk circuit: %s\n", msg.c_str());
  return EXIT_BAD;
}

int cmd_circuit_stats(int argc, char** argv) {
  std::string circuit, proof_name;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return fail("stats: missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--circuit") {
      circuit = v;
    } else if (a == "--registered-proof") {
      proof_name = v;
    } else {
      return fail("stats: unknown option " + a);
    }
  }
  if (circuit != "porep") return fail("stats: --circuit must be 'porep'");
  if (proof_name.empty()) return fail("stats: --registered-proof is required");
  const auto proof = porep::parse_registered_seal_proof(proof_name);
  if (!proof) return fail("stats: " + proof.error().message());
  const auto cfg = porep::porep_config(*proof);
  if (!cfg) return fail("stats: " + cfg.error().message());

  const auto t0 = std::chrono::steady_clock::now();
  r1cs::shape_cs cs;
  synth::synthesize_stacked_circuit(cs, synth::blank_stacked_circuit(*cfg));
  const r1cs::shape_summary s = cs.summary();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const size_t rows = s.num_constraints + s.num_inputs;
  size_t domain = 1;
  while (domain < rows) domain <<= 1;
  std::printf(
      "{\"circuit\":\"porep\",\"registered_proof\":\"%s\",\"rows\":%zu,\"constraints\":%zu,"
      "\"inputs\":%zu,\"aux\":%zu,\"a_nnz\":%zu,\"b_nnz\":%zu,\"c_nnz\":%zu,"
      "\"a_aux_density\":%zu,\"b_input_density\":%zu,\"b_aux_density\":%zu,\"domain\":%zu,"
      "\"fingerprint\":\"%s\",\"params_id\":\"%s\",\"synthesis_seconds\":%.3f}\n",
      std::string(porep::name_of(*proof)).c_str(), rows, s.num_constraints, s.num_inputs, s.num_aux,
      s.nnz_a + s.num_inputs, s.nnz_b, s.nnz_c, s.a_aux_density, s.b_input_density, s.b_aux_density,
      domain, s.hash_hex().c_str(), synth::porep_param_id(*cfg).c_str(), secs);
  return EXIT_OK;
}

}  // namespace

int cmd_circuit(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(USAGE, stderr);
    return EXIT_BAD;
  }
  const std::string sub = argv[1];
  if (sub == "stats") return cmd_circuit_stats(argc - 1, argv + 1);
  if (sub == "help" || sub == "--help" || sub == "-h") {
    std::fputs(USAGE, stdout);
    return EXIT_OK;
  }
  std::fprintf(stderr, "cuzk circuit: unknown command '%s'\n", sub.c_str());
  std::fputs(USAGE, stderr);
  return EXIT_BAD;
}

}  // namespace cuzk::app
