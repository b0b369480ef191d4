// SPDX-License-Identifier: Apache-2.0
// StackedCircuit at full size (label slow): the 32 GiB partition's shape_cs counts, nnz and
// densities equal the measured figures of docs/spec/porep.md §9 (curio cuzk-project.md), and 64
// GiB's rows/aux/inputs; the synthetic 32 GiB C1 satisfies the circuit for its first challenge.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/porep/synthetic.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::filecoin::circuits {
namespace {

using porep::registered_seal_proof;

r1cs::shape_summary timed_shape(const stacked_circuit_t& c, const char* what) {
  const auto t0 = std::chrono::steady_clock::now();
  r1cs::shape_cs cs;
  synthesize_stacked_circuit(cs, c);
  const r1cs::shape_summary s = cs.summary();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %zu rows in %.1f s (%.2f M rows/s), fingerprint %s\n", what,
              s.num_constraints + s.num_inputs, secs,
              double(s.num_constraints + s.num_inputs) / secs * 1e-6, s.hash_hex().c_str());
  return s;
}

TEST(stacked_circuit_slow, counts_32gib) {
  const auto cfg = *porep::porep_config(registered_seal_proof::stacked_drg_32gib_v1_1);
  const r1cs::shape_summary s = timed_shape(blank_stacked_circuit(cfg), "32 GiB");
  EXPECT_EQ(s.num_constraints + s.num_inputs, 130'278'869u);
  EXPECT_EQ(s.num_constraints, 130'278'541u);
  EXPECT_EQ(s.num_aux, 130'169'893u);
  EXPECT_EQ(s.num_inputs, 328u);
  // The measured A nnz counts the x_j·0 = 0 input rows too (one A entry each, docs/spec/gadgets.md
  // §1): 309,404,723 circuit entries + 328.
  EXPECT_EQ(s.nnz_a + s.num_inputs, 309'405'051u);
  EXPECT_EQ(s.nnz_b, 130'327'340u);
  EXPECT_EQ(s.nnz_c, 282'656'500u);
  EXPECT_EQ(s.a_aux_density, 129'753'292u);
  EXPECT_EQ(s.b_input_density, 1u);
  EXPECT_EQ(s.b_aux_density, 33'112'281u);
  EXPECT_EQ(s.hash_hex(), "2a87e9c73f73e597e2271ce0817e4453fc80cc0103f35e20d4fb632ea1a03a8f");
}

TEST(stacked_circuit_slow, counts_64gib) {
  const auto cfg = *porep::porep_config(registered_seal_proof::stacked_drg_64gib_v1_1);
  const r1cs::shape_summary s = timed_shape(blank_stacked_circuit(cfg), "64 GiB");
  EXPECT_EQ(s.num_constraints + s.num_inputs, 131'186'177u);
  EXPECT_EQ(s.num_aux, 131'076'643u);
  EXPECT_EQ(s.num_inputs, 328u);
}

// One challenge of a synthetic 32 GiB C1: the circuit with only challenge 0 is a prefix of the
// partition circuit (globals, then challenge blocks in order), so satisfying it checks the
// witness of that challenge exactly as the full partition would.
TEST(stacked_circuit_slow, synthetic_32gib_first_challenge_satisfies) {
  porep::synthetic_request_t req;
  req.config = *porep::porep_config(registered_seal_proof::stacked_drg_32gib_v1_1);
  req.prover_id = porep::prover_id_from_actor(1000);
  req.sector_id = 1;
  req.ticket.fill(1);
  req.seed.fill(2);
  auto c1 = porep::generate_synthetic_c1(req);
  ASSERT_TRUE(c1.ok()) << c1.error().to_string();
  auto c = stacked_circuit_from_c1(req.config, *c1, 0);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  c->challenges.resize(1);
  r1cs::matrix_witness_cs cs;
  synthesize_stacked_circuit(cs, *c);
  const std::vector<ff::fr_t> inputs(cs.inputs().begin(), cs.inputs().end());
  const std::vector<ff::fr_t> aux(cs.aux().begin(), cs.aux().end());
  const r1cs::matrices m = cs.take_matrices();
  const auto bad = r1cs::is_satisfied(m, inputs, aux);
  EXPECT_FALSE(bad.has_value()) << "row " << *bad;
  auto pub = porep_public_inputs(req.config, {c1->replica_id, c1->comm_d, c1->comm_r, c1->seed}, 0);
  ASSERT_TRUE(pub.ok());
  ASSERT_EQ(inputs.size(), 1 + 3 + 18u);
  EXPECT_TRUE(std::equal(inputs.begin() + 1, inputs.end(), pub->begin()));
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
