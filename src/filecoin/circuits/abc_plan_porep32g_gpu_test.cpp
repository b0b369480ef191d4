// SPDX-License-Identifier: Apache-2.0
// A full 32 GiB PoRep partition (130,278,869 constraints; labels gpu and slow: ≈ 50 GB of host
// memory, the H200 host's 16 cores): a, b, c evaluated on the GPU from the compiled plan and a
// parallel witness-only synthesis equal, row for row over every row, the CPU's evaluation of the
// same plan and proving_cs's own a, b, c (the engine's prover path against full synthesis), and
// the plan's densities equal proving_cs's. The witness is the blank circuit's (every SHA-256 and
// Poseidon value still computed; the 2 KiB unit test uses a real C1).
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

TEST(abc_plan_porep32g_gpu, every_row_of_a_32gib_partition) {
  const auto cfg = *porep::porep_config(porep::registered_seal_proof::stacked_drg_32gib_v1_1);
  thread_pool pool;
  auto t0 = std::chrono::steady_clock::now();
  const stacked_circuit_t c = blank_stacked_circuit(cfg);
  std::printf("blank 32 GiB circuit in %.1f s\n", seconds_since(t0));

  t0 = std::chrono::steady_clock::now();
  r1cs::proving_cs p;
  ASSERT_TRUE(synthesize_stacked_circuit_parallel(p, c, pool).ok());
  p.finalize();
  std::printf("proving_cs (a, b, c, witness) in %.1f s on %u threads\n", seconds_since(t0),
              pool.size());
  ASSERT_EQ(p.num_rows(), 130'278'869u);  // docs/spec/porep.md §9: constraints + one row per input

  t0 = std::chrono::steady_clock::now();
  r1cs::witness_cs w;
  ASSERT_TRUE(synthesize_stacked_circuit_parallel(w, c, pool).ok());
  std::printf("witness_cs in %.1f s\n", seconds_since(t0));

  t0 = std::chrono::steady_clock::now();
  const auto plan = stacked_abc_plan(c.layers, c.tree_d, c.tree_r, cfg.challenges_per_partition());
  std::printf("plan built in %.1f s\n", seconds_since(t0));
  r1cs::expect_plan_matches("PoRep 32 GiB", plan, p, w, pool);
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
