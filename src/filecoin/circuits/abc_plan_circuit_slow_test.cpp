// SPDX-License-Identifier: Apache-2.0
// The compiled matrices (r1cs::abc_plan) of an 8 MiB PoRep partition (label slow: 3.8 M rows
// synthesized three times): a, b, c evaluated by the plan from a parallel witness-only synthesis
// equal proving_cs's bit for bit, and so do the densities. The witness is the blank circuit's
// (every SHA-256 and Poseidon value is still computed; the 2 KiB unit test uses a real C1).
// Prints the plan's size and the single-thread witness-only vs proving_cs synthesis times.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "filecoin/circuits/stacked_circuit.hpp"
#include "r1cs/abc_plan_test_util.hpp"

namespace cuzk::filecoin::circuits {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(abc_plan_circuit_slow, porep_8mib) {
  const auto cfg = *porep::porep_config(porep::registered_seal_proof::stacked_drg_8mib_v1_1);
  const stacked_circuit_t c = blank_stacked_circuit(cfg);

  auto t0 = std::chrono::steady_clock::now();
  r1cs::proving_cs p;
  synthesize_stacked_circuit(p, c);
  p.finalize();
  const double proving_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  r1cs::witness_cs sequential;
  synthesize_stacked_circuit(sequential, c);
  const double witness_s = seconds_since(t0);
  std::printf("PoRep 8 MiB partition, one thread: proving_cs %.3f s, witness_cs %.3f s\n",
              proving_s, witness_s);

  thread_pool pool(3);
  r1cs::witness_cs w;
  ASSERT_TRUE(synthesize_stacked_circuit_parallel(w, c, pool).ok());
  t0 = std::chrono::steady_clock::now();
  const auto plan = stacked_abc_plan(c.layers, c.tree_d, c.tree_r, cfg.challenges_per_partition());
  std::printf("PoRep 8 MiB plan built in %.3f s\n", seconds_since(t0));
  r1cs::expect_plan_matches("PoRep 8 MiB", plan, p, w, pool);
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
