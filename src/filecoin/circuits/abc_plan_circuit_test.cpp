// SPDX-License-Identifier: Apache-2.0
// The compiled matrices (r1cs::abc_plan) of the Filecoin circuits: for a PoRep 2 KiB partition
// (synthetic C1), WindowPoSt and WinningPoSt 2 KiB partitions and a SnapDeals 2 KiB partition
// (sealed sectors), a, b, c evaluated by the plan from a parallel witness-only synthesis equal
// proving_cs's bit for bit, and so do the densities and the assignment; a PoRep plan whose last
// challenge is unlike the first is refused. Prints each plan's size
// and the single-thread witness-only vs proving_cs synthesis times. The 8 MiB partition is in
// abc_plan_circuit_slow_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "filecoin/circuits/empty_sector_update_circuit.hpp"
#include "filecoin/circuits/fallback_post_circuit.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/synthetic.hpp"
#include "filecoin/post/vanilla_prove.hpp"
#include "filecoin/snap/encode.hpp"
#include "filecoin/snap/vanilla_prove.hpp"
#include "r1cs/abc_plan.hpp"
#include "r1cs/abc_plan_test_util.hpp"
#include "sealed_sectors.hpp"

namespace cuzk::filecoin::circuits {
namespace {

using ff::fr_t;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

stacked_circuit_t synthetic_porep_partition(porep::registered_seal_proof proof) {
  porep::synthetic_request_t sr;
  sr.config = *porep::porep_config(proof);
  sr.prover_id = porep::prover_id_from_actor(1000);
  sr.sector_id = 7;
  sr.ticket.fill(5);
  sr.seed.fill(6);
  auto c1 = porep::generate_synthetic_c1(sr);
  EXPECT_TRUE(c1.ok()) << c1.error().to_string();
  auto c = stacked_circuit_from_c1(sr.config, *c1, 0);
  EXPECT_TRUE(c.ok()) << c.error().to_string();
  return std::move(*c);
}

TEST(abc_plan_circuit, porep_2kib) {
  const stacked_circuit_t c =
      synthetic_porep_partition(porep::registered_seal_proof::stacked_drg_2kib_v1_1);
  ASSERT_EQ(c.challenges.size(), 2u);

  // One thread each: what synthesis costs with and without the rows.
  auto t0 = std::chrono::steady_clock::now();
  r1cs::proving_cs p;
  synthesize_stacked_circuit(p, c);
  p.finalize();
  const double proving_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  r1cs::witness_cs sequential;
  synthesize_stacked_circuit(sequential, c);
  const double witness_s = seconds_since(t0);
  std::printf("PoRep 2 KiB partition, one thread: proving_cs %.3f s, witness_cs %.3f s\n",
              proving_s, witness_s);

  thread_pool pool(3);
  r1cs::witness_cs w;
  ASSERT_TRUE(synthesize_stacked_circuit_parallel(w, c, pool).ok());
  ASSERT_TRUE(std::ranges::equal(w.aux(), sequential.aux()));
  t0 = std::chrono::steady_clock::now();
  const auto plan = stacked_abc_plan(c.layers, c.tree_d, c.tree_r, 2);
  std::printf("PoRep 2 KiB plan built in %.3f s\n", seconds_since(t0));
  r1cs::expect_plan_matches("PoRep 2 KiB", plan, p, w, pool);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->size().block_count, 2u);
  EXPECT_EQ(plan->layout().block, stacked_challenge_shape(c.layers, c.tree_d, c.tree_r));

  // A recycled witness buffer gives the same witness again.
  w.reset();
  ASSERT_TRUE(synthesize_stacked_circuit_parallel(w, c, pool).ok());
  EXPECT_TRUE(std::ranges::equal(w.aux(), sequential.aux()));
  EXPECT_TRUE(std::ranges::equal(w.inputs(), sequential.inputs()));
}

// The last challenge unlike the others: synthesized with 4 layers instead of 2 (more rows), with
// one more constraint at its end, or reading the shared replica_id bits rotated by one (the
// same shape; some rows then read two bits where challenge 0 reads one). Each plan is refused:
// its template would compute a wrong a, b, c for that challenge.
TEST(abc_plan_circuit, porep_last_challenge_unlike_the_template_is_refused) {
  const auto cfg = *porep::porep_config(porep::registered_seal_proof::stacked_drg_2kib_v1_1);
  const stacked_circuit_t blank = blank_stacked_circuit(cfg);
  const stacked_circuit_t four_layers = blank_stacked_circuit(
      4, cfg.sector.tree_d, cfg.sector.tree_r, cfg.challenges_per_partition());
  const size_t count = blank.challenges.size();
  for (int tamper = 0; tamper < 3; ++tamper) {
    const auto plan = r1cs::compile_abc_plan(
        count, [&](r1cs::abc_plan_recorder& cs) { return synthesize_stacked_prologue(cs, blank); },
        [&](r1cs::abc_plan_recorder& cs, const stacked_shared_t& sh, size_t i) {
          const bool last = i == count - 1;
          stacked_shared_t other = sh;
          if (last && tamper == 2)
            std::rotate(other.replica_id_bits.begin(), other.replica_id_bits.begin() + 1,
                        other.replica_id_bits.end());
          synthesize_stacked_challenge(cs, last && tamper == 0 ? four_layers : blank, other, i);
          if (last && tamper == 1) {
            cs.enforce([](r1cs::linear_combination& lc) { lc += r1cs::variable::one(); },
                       [](r1cs::linear_combination& lc) { lc += r1cs::variable::one(); },
                       [](r1cs::linear_combination& lc) { lc += r1cs::variable::one(); });
          }
        });
    ASSERT_FALSE(plan.ok()) << tamper;
    EXPECT_EQ(plan.error().code(), status_code::internal) << plan.error().to_string();
    std::printf("tamper %d: %s\n", tamper, plan.error().to_string().c_str());
  }
}

TEST(abc_plan_circuit, window_and_winning_post_2kib) {
  const porep::sealed_sector_t a = test::seal_2kib(3), b = test::seal_2kib(11);
  porep::bytes32_t randomness{};
  for (size_t i = 0; i < 31; ++i) randomness[i] = uint8_t(17 * i + 2);
  const post::post_config_t window =
      *post::post_config(post::registered_post_proof::window_2kib_v1_1);
  const post::post_config_t winning =
      *post::post_config(post::registered_post_proof::winning_2kib_v1);
  const post::fallback_sector_proof_t two[] = {*post::prove_sector(window, a, randomness, 0, 0),
                                               *post::prove_sector(window, b, randomness, 0, 1)};
  const post::fallback_sector_proof_t win[] = {*post::prove_sector(winning, b, randomness, 0, 0)};
  const struct {
    const char* what;
    const post::post_config_t& cfg;
    std::span<const post::fallback_sector_proof_t> proofs;
  } cases[] = {{"WindowPoSt 2 KiB", window, two}, {"WinningPoSt 2 KiB", winning, win}};

  thread_pool pool(3);
  for (const auto& k : cases) {
    SCOPED_TRACE(k.what);
    auto c = fallback_post_circuit_from_vanilla(k.cfg, k.proofs);
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    r1cs::proving_cs p;
    synthesize_fallback_post_circuit(p, *c);
    p.finalize();
    r1cs::witness_cs w;
    ASSERT_TRUE(synthesize_fallback_post_circuit_parallel(w, *c, pool).ok());
    const auto plan = fallback_post_abc_plan(k.cfg);
    r1cs::expect_plan_matches(k.what, plan, p, w, pool);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->size().prologue_rows, 0u);
    EXPECT_EQ(plan->size().block_count, k.cfg.circuit_sector_count);
  }
}

TEST(abc_plan_circuit, snap_2kib) {
  const snap::update_config_t cfg =
      *snap::update_config(snap::registered_update_proof::stacked_drg_2kib_v1);
  const porep::sealed_sector_t key = test::seal_2kib(21);
  std::vector<uint8_t> payload(1500);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * 31 + 5);
  auto s = snap::encode_update(cfg, key, payload);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  auto proof = snap::prove_partition(*s, 0);
  ASSERT_TRUE(proof.ok());
  auto c = empty_sector_update_circuit_from_vanilla(cfg, snap::commitments_of(*s), 0, *proof);
  ASSERT_TRUE(c.ok()) << c.error().to_string();

  thread_pool pool(3);
  r1cs::proving_cs p;
  synthesize_empty_sector_update_circuit(p, *c);
  p.finalize();
  r1cs::witness_cs w;
  ASSERT_TRUE(synthesize_empty_sector_update_circuit_parallel(w, *c, pool).ok());
  const auto plan = empty_sector_update_abc_plan(cfg);
  r1cs::expect_plan_matches("SnapDeals 2 KiB", plan, p, w, pool);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->size().block_count, cfg.challenges);
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
