// SPDX-License-Identifier: Apache-2.0
// StackedCircuit: shape_cs counts equal docs/spec/porep.md §9 (2 KiB, 8 MiB, 512 MiB, and the four
// rust-fil-proofs stacked_circuit.rs test shapes); official parameter names (the
// docs/spec/params.md §2 hash prefixes and the parameters.json fixture); public inputs (3 + 18·cpp,
// equal to what the circuit allocates); a sealed 2 KiB sector's C1 (V1_1, NI partition, synthetic
// C1) synthesized with matrix_witness_cs satisfies every row; shape_cs, matrix_cs and witness_cs
// agree; a tampered witness fails; malformed C1 partitions are rejected.
#include "filecoin/circuits/stacked_circuit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/synthetic.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "fixtures.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs_test_util.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::circuits {
namespace {

using porep::registered_seal_proof;

r1cs::shape_summary shape_of(const stacked_circuit_t& c) {
  r1cs::shape_cs cs;
  synthesize_stacked_circuit(cs, c);
  return cs.summary();
}

void expect_counts(registered_seal_proof p, size_t rows, size_t inputs, size_t aux) {
  const auto cfg = *porep::porep_config(p);
  const stacked_circuit_t c = blank_stacked_circuit(cfg);
  ASSERT_TRUE(validate_stacked_circuit(c).ok());
  const r1cs::shape_summary s = shape_of(c);
  EXPECT_EQ(s.num_constraints + s.num_inputs, rows);
  EXPECT_EQ(s.num_inputs, inputs);
  EXPECT_EQ(s.num_aux, aux);
  const stacked_counts_t n = stacked_circuit_counts(c.layers, c.tree_d, c.tree_r, 2);
  EXPECT_EQ(n.rows(), rows);
  EXPECT_EQ(n.inputs, inputs);
  // Only ONE is used in B: every B row is `1` or a parent bit / SHA operand (aux).
  EXPECT_EQ(s.b_input_density, 1u);
}

TEST(stacked_circuit, counts_2kib) {
  expect_counts(registered_seal_proof::stacked_drg_2kib_v1_1, 2'687'961, 40, 2'685'673);
}

TEST(stacked_circuit, counts_8mib) {
  expect_counts(registered_seal_proof::stacked_drg_8mib_v1_1, 3'844'969, 40, 3'842'449);
}

TEST(stacked_circuit, counts_512mib) {
  expect_counts(registered_seal_proof::stacked_drg_512mib_v1_1, 4'423'473, 40, 4'420'837);
}

// storage-proofs-porep/tests/stacked_circuit.rs: 1 challenge, 2 layers, nodes = 8 · base trees;
// bellperson's MetricCS counts circuit constraints (no input rows) and 22 inputs.
TEST(stacked_circuit, rust_test_shapes) {
  struct shape_case {
    unsigned b, s, t;
    size_t constraints;
  };
  for (const shape_case& sc : {shape_case{2, 0, 0, 1'206'212}, shape_case{8, 0, 0, 1'199'620},
                               shape_case{8, 4, 0, 1'296'576}, shape_case{8, 4, 2, 1'346'982}}) {
    const uint64_t nodes = 8 * uint64_t(sc.s ? sc.s : 1) * (sc.t ? sc.t : 1);
    const hash::tree_shape tree_r{sc.b, sc.s, sc.t, nodes};
    SCOPED_TRACE(tree_r.name());
    const stacked_circuit_t c =
        blank_stacked_circuit(2, hash::tree_shape::binary(nodes), tree_r, 1);
    ASSERT_TRUE(validate_stacked_circuit(c).ok()) << validate_stacked_circuit(c).to_string();
    const r1cs::shape_summary s = shape_of(c);
    EXPECT_EQ(s.num_constraints, sc.constraints);
    EXPECT_EQ(s.num_inputs, 22u);
    const stacked_counts_t n = stacked_circuit_counts(2, c.tree_d, tree_r, 1);
    EXPECT_EQ(n.constraints, sc.constraints);
    EXPECT_EQ(n.inputs, 22u);
  }
}

TEST(stacked_circuit, closed_form_counts_32gib_64gib) {
  for (auto [p, rows] :
       {std::pair{registered_seal_proof::stacked_drg_32gib_v1_1, 130'278'869ull},
        std::pair{registered_seal_proof::stacked_drg_64gib_v1_1, 131'186'177ull}}) {
    const auto cfg = *porep::porep_config(p);
    const stacked_counts_t n =
        stacked_circuit_counts(cfg.layers(), cfg.sector.tree_d, cfg.sector.tree_r, 18);
    EXPECT_EQ(n.rows(), rows);
    EXPECT_EQ(n.inputs, 328u);
  }
}

// ---- parameter names -------------------------------------------------------------------------

TEST(params_name, official_names) {
  std::ifstream f(test::fixture_path("parameters.json"));
  ASSERT_TRUE(f) << "missing fixture parameters.json";
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string json = ss.str();
  struct name_case {
    registered_seal_proof p;
    const char* shape;
    const char* prefix;
  };
  for (const name_case& nc :
       {name_case{registered_seal_proof::stacked_drg_2kib_v1_1, "8-0-0", "032d3138"},
        name_case{registered_seal_proof::stacked_drg_8mib_v1, "8-0-0", "ecd68364"},
        name_case{registered_seal_proof::stacked_drg_512mib_v1_1_feat_synthetic_porep, "8-0-0",
                  "6babf46c"},
        name_case{registered_seal_proof::stacked_drg_32gib_v1_2_feat_non_interactive_porep, "8-8-0",
                  "82a357d2"},
        name_case{registered_seal_proof::stacked_drg_64gib_v1_1, "8-8-2", "96f1b4a0"}}) {
    const auto cfg = *porep::porep_config(nc.p);
    const std::string id = porep_param_id(cfg);
    SCOPED_TRACE(id);
    const std::string want = std::string("v28-stacked-proof-of-replication-merkletree-") +
                             "poseidon_hasher-" + nc.shape + "-sha256_hasher-" + nc.prefix;
    EXPECT_EQ(id.rfind(want, 0), 0u);
    EXPECT_EQ(id.size(), want.size() - 8 + 64);
    for (const std::string& file : {porep_params_file_name(cfg), porep_vk_file_name(cfg)}) {
      std::string quoted = "\"";
      quoted.append(file).push_back('"');
      EXPECT_NE(json.find(quoted), std::string::npos) << file;
    }
  }
  // The exact identifier of 32 GiB (rust-fil-proofs params.rs identifier, docs/spec/params.md
  // §1–§2).
  EXPECT_EQ(
      porep_param_identifier(*porep::porep_config(registered_seal_proof::stacked_drg_32gib_v1)),
      "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: "
      "8 base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: "
      "poseidon_hasher} }, challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
      "merkletree-poseidon_hasher-8-8-0 }");
}

// ---- witness: sealed / synthetic 2 KiB C1 ------------------------------------------------------

porep::seal_request_t seal_request(registered_seal_proof p, test::test_rng& rng) {
  porep::seal_request_t r;
  r.config = *porep::porep_config(p);
  r.prover_id = porep::prover_id_from_actor(1000 + rng.below(1000));
  r.sector_id = rng.below(1 << 20);
  for (auto& b : r.ticket) b = uint8_t(rng());
  return r;
}

std::vector<uint8_t> random_payload(test::test_rng& rng, size_t n) {
  std::vector<uint8_t> d(n);
  for (auto& b : d) b = uint8_t(rng());
  return d;
}

// Synthesizes partition k with matrix_witness_cs, checks every row holds and that the inputs
// (without ONE) are porep_public_inputs. Returns the recorded matrices.
r1cs::matrices check_partition(const porep::porep_config_t& cfg, const porep::c1_output_t& c1,
                               unsigned k) {
  auto c = stacked_circuit_from_c1(cfg, c1, k);
  EXPECT_TRUE(c.ok()) << c.error().to_string();
  if (!c.ok()) return {};
  r1cs::matrix_witness_cs cs;
  synthesize_stacked_circuit(cs, *c);
  const std::vector<ff::fr_t> inputs(cs.inputs().begin(), cs.inputs().end());
  const std::vector<ff::fr_t> aux(cs.aux().begin(), cs.aux().end());
  r1cs::matrices m = cs.take_matrices();
  const auto bad = r1cs::is_satisfied(m, inputs, aux);
  EXPECT_FALSE(bad.has_value()) << "row " << *bad << " of " << m.num_constraints();

  const porep_publics_t pub{c1.replica_id, c1.comm_d, c1.comm_r, c1.seed};
  auto want = porep_public_inputs(cfg, pub, k);
  EXPECT_TRUE(want.ok()) << want.error().to_string();
  EXPECT_EQ(want->size(), 3 + 18 * size_t(cfg.challenges_per_partition()));
  EXPECT_EQ(inputs.size(), want->size() + 1);
  EXPECT_TRUE(std::equal(want->begin(), want->end(), inputs.begin() + 1));
  return m;
}

TEST(stacked_circuit, sealed_2kib_witness_satisfies_and_modes_agree) {
  auto rng = test::test_rng::from_env("stacked_circuit.sealed_2kib");
  const auto req = seal_request(registered_seal_proof::stacked_drg_2kib_v1_1, rng);
  auto s = porep::seal_sector(req, random_payload(rng, 2032));
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  porep::bytes32_t seed;
  for (auto& b : seed) b = uint8_t(rng());
  auto c1 = porep::seal_commit_phase1(*s, seed);
  ASSERT_TRUE(c1.ok()) << c1.error().to_string();
  const auto& cfg = req.config;

  const r1cs::matrices m = check_partition(cfg, *c1, 0);
  // The recorded circuit of a real witness has the blank circuit's shape, fingerprint included.
  const r1cs::shape_summary blank = shape_of(blank_stacked_circuit(cfg));
  EXPECT_EQ(r1cs::summarize(m), blank);
  EXPECT_EQ(blank.num_constraints + blank.num_inputs, 2'687'961u);
  // Frozen: any change to a gadget's rows, order or coefficients changes it.
  EXPECT_EQ(blank.hash_hex(), "8c1269e376674de0d9549a8e29c36d87353445c7b6638f10c74fa74a95486a5d");

  // witness_cs (no LCs) assigns the same values; a tampered witness breaks a row.
  auto c = stacked_circuit_from_c1(cfg, *c1, 0);
  ASSERT_TRUE(c.ok());
  r1cs::witness_cs w;
  synthesize_stacked_circuit(w, *c);
  EXPECT_EQ(w.num_constraints(), m.num_constraints());
  EXPECT_FALSE(r1cs::is_satisfied(m, w.inputs(), w.aux()).has_value());
  for (int which = 0; which < 3; ++which) {
    stacked_circuit_t t = *c;
    if (which == 0) t.challenges[1].data_leaf += ff::fr_t::one();
    if (which == 1) t.challenges[0].exp_parents[3].rows[0] += ff::fr_t::one();
    if (which == 2) t.comm_c += ff::fr_t::one();
    r1cs::witness_cs tw;
    synthesize_stacked_circuit(tw, t);
    EXPECT_TRUE(r1cs::is_satisfied(m, tw.inputs(), tw.aux()).has_value()) << which;
  }
}

TEST(stacked_circuit, ni_and_synthetic_2kib_partitions) {
  auto rng = test::test_rng::from_env("stacked_circuit.ni_2kib");
  // NI-PoRep: 13 partitions of 2; check two of them (challenges from comm_r, not the seed).
  const auto req =
      seal_request(registered_seal_proof::stacked_drg_2kib_v1_2_feat_non_interactive_porep, rng);
  auto s = porep::seal_sector(req, random_payload(rng, 2032));
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  porep::bytes32_t seed{};
  auto c1 = porep::seal_commit_phase1(*s, seed);
  ASSERT_TRUE(c1.ok()) << c1.error().to_string();
  ASSERT_EQ(c1->vanilla_proofs.size(), 13u);
  check_partition(req.config, *c1, 0);
  check_partition(req.config, *c1, 12);

  // A synthetic (never sealed) C1 from the generator.
  porep::synthetic_request_t sr;
  sr.config = *porep::porep_config(registered_seal_proof::stacked_drg_2kib_v1);
  sr.prover_id = porep::prover_id_from_actor(1234);
  sr.sector_id = 99;
  sr.ticket.fill(3);
  sr.seed.fill(4);
  auto sc1 = porep::generate_synthetic_c1(sr);
  ASSERT_TRUE(sc1.ok()) << sc1.error().to_string();
  check_partition(sr.config, *sc1, 0);
}

// The challenges synthesized in parallel (one block per challenge) give exactly the sequential
// synthesis, into a fresh and into a recycled buffer; a block whose declared shape is wrong is an
// error, not a wrong witness.
TEST(stacked_circuit, parallel_synthesis_equals_sequential) {
  porep::synthetic_request_t sr;
  sr.config = *porep::porep_config(registered_seal_proof::stacked_drg_2kib_v1_1);
  sr.prover_id = porep::prover_id_from_actor(1000);
  sr.sector_id = 7;
  sr.ticket.fill(5);
  sr.seed.fill(6);
  auto c1 = porep::generate_synthetic_c1(sr);
  ASSERT_TRUE(c1.ok()) << c1.error().to_string();
  auto c = stacked_circuit_from_c1(sr.config, *c1, 0);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  ASSERT_EQ(c->challenges.size(), 2u);

  // One challenge's rows are what the closed form adds per challenge.
  const auto shape = stacked_challenge_shape(c->layers, c->tree_d, c->tree_r);
  EXPECT_EQ(shape.constraints,
            stacked_circuit_counts(c->layers, c->tree_d, c->tree_r, 2).constraints -
                stacked_circuit_counts(c->layers, c->tree_d, c->tree_r, 1).constraints);

  r1cs::proving_cs sequential;
  synthesize_stacked_circuit(sequential, *c);
  sequential.finalize();

  thread_pool pool(3);
  r1cs::proving_cs parallel;
  for (int round = 0; round < 2; ++round) {  // fresh, then recycled
    parallel.reset();
    ASSERT_TRUE(synthesize_stacked_circuit_parallel(parallel, *c, pool).ok());
    parallel.finalize();
    r1cs::expect_same_synthesis(sequential, parallel);
  }

  for (bool bigger : {false, true}) {
    r1cs::proving_cs wrong;
    const stacked_shared_t sh = synthesize_stacked_prologue(wrong, *c);
    auto off = shape;
    off.aux = bigger ? off.aux + 1 : off.aux - 1;
    wrong.open_blocks(2, off);
    pool.parallel_for(2, [&](size_t i) {
      auto block = wrong.block(i);
      synthesize_stacked_challenge(block, *c, sh, i);
    });
    const status st = wrong.close_blocks();
    EXPECT_EQ(st.code(), status_code::internal) << st.to_string();
  }
}

TEST(stacked_circuit, from_c1_rejects_malformed) {
  porep::synthetic_request_t sr;
  sr.config = *porep::porep_config(registered_seal_proof::stacked_drg_2kib_v1_1);
  sr.seed.fill(5);
  auto c1 = porep::generate_synthetic_c1(sr);
  ASSERT_TRUE(c1.ok());
  const auto& cfg = sr.config;
  EXPECT_TRUE(stacked_circuit_from_c1(cfg, *c1, 0).ok());
  EXPECT_EQ(stacked_circuit_from_c1(cfg, *c1, 1).error().code(), status_code::invalid_argument);
  {
    auto t = *c1;
    t.vanilla_proofs[0].pop_back();
    EXPECT_EQ(stacked_circuit_from_c1(cfg, t, 0).error().code(), status_code::size_mismatch);
  }
  {
    auto t = *c1;
    t.vanilla_proofs[0][1].replica_column_proofs.c_x.inclusion_proof.root[0] ^= 1;
    EXPECT_FALSE(stacked_circuit_from_c1(cfg, t, 0).ok());
  }
  {
    auto t = *c1;
    t.vanilla_proofs[0][0].replica_column_proofs.drg_parents[2].column.rows.pop_back();
    EXPECT_EQ(stacked_circuit_from_c1(cfg, t, 0).error().code(), status_code::size_mismatch);
  }
  {
    auto t = *c1;
    t.comm_r.fill(0xff);
    EXPECT_EQ(stacked_circuit_from_c1(cfg, t, 0).error().code(), status_code::non_canonical);
  }
  {
    auto t = *c1;  // one tree_r level missing
    auto& p = t.vanilla_proofs[0][0].comm_r_last_proof;
    p.path.pop_back();
    p.hashes.resize(p.hashes.size() - 7);
    p.base_len--;
    EXPECT_EQ(stacked_circuit_from_c1(cfg, t, 0).error().code(), status_code::size_mismatch);
  }
  // Wrong config for the C1: 8 MiB paths are longer.
  EXPECT_FALSE(stacked_circuit_from_c1(
                   *porep::porep_config(registered_seal_proof::stacked_drg_8mib_v1_1), *c1, 0)
                   .ok());
}

TEST(public_inputs, layout_and_range) {
  for (auto p :
       {registered_seal_proof::stacked_drg_2kib_v1, registered_seal_proof::stacked_drg_32gib_v1_1,
        registered_seal_proof::stacked_drg_64gib_v1_1_feat_synthetic_porep}) {
    const auto cfg = *porep::porep_config(p);
    porep_publics_t pub;
    pub.replica_id.fill(7);
    pub.comm_d.fill(8);
    pub.comm_r.fill(9);
    pub.seed.fill(10);
    auto in = porep_public_inputs(cfg, pub, cfg.partitions() - 1);
    ASSERT_TRUE(in.ok()) << in.error().to_string();
    const size_t cpp = cfg.challenges_per_partition();
    ASSERT_EQ(in->size(), 3 + 18 * cpp);
    const porep::sdr_graph g(cfg);
    for (size_t i = 0; i < cpp; ++i) {
      const ff::fr_t* x = in->data() + 3 + 18 * i;
      EXPECT_EQ(x[0], x[15]);
      EXPECT_EQ(x[0], x[16]);
      EXPECT_EQ(x[0], x[17]);
      const uint64_t ch = x[0].to_canonical()[0];
      EXPECT_GE(ch, 1u);
      EXPECT_LT(ch, cfg.nodes());
      const auto parents = g.parents(ch);
      for (size_t q = 0; q < porep::PARENT_COUNT; ++q)
        EXPECT_EQ(x[1 + q], ff::fr_t::from_uint(parents[q]));
    }
    EXPECT_FALSE(porep_public_inputs(cfg, pub, cfg.partitions()).ok());
    pub.comm_d.fill(0xff);
    EXPECT_EQ(porep_public_inputs(cfg, pub, 0).error().code(), status_code::non_canonical);
  }
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
