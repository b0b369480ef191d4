// SPDX-License-Identifier: Apache-2.0
// EmptySectorUpdate circuit: the closed-form counts equal post_snap_constraint_counts.json (the
// model for the 5 production sizes, the upstream circuit tests 1 KiB … 32 KiB and 32 GiB); the
// 2 KiB blank circuit in shape_cs has exactly the fixture's constraints, inputs and aux, and the
// 1 KiB test shape (8-4-0) its upstream constraint count; the upstream gadget counts
// (apex_por, gen_challenge_bits); the official parameter names; a 2 KiB update (sector sealed in
// memory, new data encoded, vanilla partition proof) satisfies every row with exactly its public
// inputs, and a wrong comm_r_new, a tampered sibling or a tampered apex leaf do not; its
// challenges synthesized in parallel give exactly the sequential synthesis.
#include "filecoin/circuits/empty_sector_update_circuit.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "base/file_io.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/snap/encode.hpp"
#include "fixtures.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs_test_util.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "sealed_sectors.hpp"

namespace cuzk::filecoin::circuits {
namespace {

using snap::registered_update_proof;

snap::update_config_t config(registered_update_proof p) {
  auto c = snap::update_config(p);
  EXPECT_TRUE(c.ok());
  return *c;
}

snap::update_config_t config_for(hash::tree_shape t) {
  auto c = snap::update_config_for_shape(t);
  EXPECT_TRUE(c.ok());
  return *c;
}

struct model_counts {
  uint64_t constraints = 0, inputs = 0, aux = 0;
};

class snap_counts_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    auto text =
        read_text_file_bounded(test::fixture_path("post_snap_constraint_counts.json"), 1 << 20);
    ASSERT_TRUE(text.ok()) << "missing fixture post_snap_constraint_counts.json";
    text_ = std::move(*text);
    ASSERT_EQ(parser_.parse(text_).get(doc_), simdjson::SUCCESS);
  }
  model_counts model(std::string_view size) {
    simdjson::dom::array model;
    EXPECT_EQ(doc_["model"].get(model), simdjson::SUCCESS);
    model_counts out;
    for (simdjson::dom::element e : model) {
      std::string_view family, s;
      if (e["family"].get(family) || e["sector_size"].get(s)) continue;
      if (family == "snap" && s == size) {
        EXPECT_FALSE(e["constraints"].get(out.constraints) ||
                     e["inputs_incl_one"].get(out.inputs) || e["aux"].get(out.aux));
      }
    }
    EXPECT_NE(out.constraints, 0u) << "no snap model entry for " << size;
    return out;
  }
  // The upstream entry of `test` (family "snap").
  uint64_t upstream(std::string_view test) {
    simdjson::dom::array up;
    EXPECT_EQ(doc_["upstream"].get(up), simdjson::SUCCESS);
    for (simdjson::dom::element e : up) {
      std::string_view family, t;
      uint64_t n = 0;
      if (e["family"].get(family) || e["test"].get(t) || family != "snap") continue;
      if (t.starts_with(test) && !e["constraints"].get(n)) return n;
    }
    ADD_FAILURE() << "no upstream entry " << test;
    return 0;
  }

  std::string text_;
  simdjson::dom::parser parser_;
  simdjson::dom::element doc_;
};

// The upstream circuit tests' sizes and tree_r shapes (storage-proofs-update tests/circuit.rs).
struct test_shape {
  const char* test;
  hash::tree_shape tree;
};
const test_shape UPSTREAM_SHAPES[] = {
    {"test_empty_sector_update_circuit_1kib", {8, 4, 0, 32}},
    {"test_empty_sector_update_circuit_2kib", {8, 0, 0, 64}},
    {"test_empty_sector_update_circuit_4kib", {8, 2, 0, 128}},
    {"test_empty_sector_update_circuit_8kib", {8, 4, 0, 256}},
    {"test_empty_sector_update_circuit_16kib", {8, 8, 0, 512}},
    {"test_empty_sector_update_circuit_32kib", {8, 8, 2, 1024}},
};

TEST_F(snap_counts_fixture, closed_form_equals_the_fixture) {
  const std::pair<registered_update_proof, const char*> sizes[] = {
      {registered_update_proof::stacked_drg_2kib_v1, "2KiB"},
      {registered_update_proof::stacked_drg_8mib_v1, "8MiB"},
      {registered_update_proof::stacked_drg_512mib_v1, "512MiB"},
      {registered_update_proof::stacked_drg_32gib_v1, "32GiB"},
      {registered_update_proof::stacked_drg_64gib_v1, "64GiB"},
  };
  for (const auto& [p, size] : sizes) {
    const model_counts want = model(size);
    const update_counts_t got = empty_sector_update_circuit_counts(config(p));
    EXPECT_EQ(got.constraints, want.constraints) << size;
    EXPECT_EQ(got.inputs, want.inputs) << size;
  }
  EXPECT_EQ(
      empty_sector_update_circuit_counts(config(registered_update_proof::stacked_drg_32gib_v1))
          .constraints,
      upstream("test_empty_sector_update_constraints_32gib"));
  for (const test_shape& t : UPSTREAM_SHAPES)
    EXPECT_EQ(empty_sector_update_circuit_counts(config_for(t.tree)).constraints, upstream(t.test))
        << t.test;
}

TEST_F(snap_counts_fixture, shape_cs_2kib_equals_the_fixture) {
  const model_counts want = model("2KiB");
  r1cs::shape_cs cs;
  synthesize_empty_sector_update_circuit(
      cs, blank_empty_sector_update_circuit(config(registered_update_proof::stacked_drg_2kib_v1)));
  const r1cs::shape_summary s = cs.summary();
  EXPECT_EQ(s.num_constraints, want.constraints);
  EXPECT_EQ(s.num_inputs, want.inputs);
  EXPECT_EQ(s.num_aux, want.aux);
  EXPECT_EQ(s.b_input_density, 1u);
}

TEST_F(snap_counts_fixture, shape_cs_upstream_test_shapes) {
  for (const test_shape& t : UPSTREAM_SHAPES) {
    // 1 KiB (8-4-0, a sub level); the others are in the slow test.
    if (t.tree.num_leaves != 32) continue;
    r1cs::shape_cs cs;
    synthesize_empty_sector_update_circuit(cs,
                                           blank_empty_sector_update_circuit(config_for(t.tree)));
    EXPECT_EQ(cs.num_constraints(), upstream(t.test)) << t.test;
    EXPECT_EQ(cs.num_inputs(), 5u);
  }
}

TEST(snap_gadgets, upstream_gadget_counts) {
  using gadgets::allocated_num_t;
  // apex_por over 8 apex leaves and no partition bits (1 … 8 KiB): 317,654.
  {
    r1cs::shape_cs cs;
    std::vector<allocated_num_t> leaves(8);
    for (auto& l : leaves) l = gadgets::alloc_num(cs, fr_t::zero());
    const allocated_num_t comm_d = gadgets::alloc_num(cs, fr_t::zero());
    gadgets::apex_por(cs, std::span<const allocated_num_t>(leaves), {}, {}, comm_d);
    EXPECT_EQ(cs.num_constraints(), 317'654u);
  }
  // gen_challenge_bits: 568 per digest (2 KiB: 1, 512 MiB: 8, 32 GiB: 10 digests).
  for (auto p : {registered_update_proof::stacked_drg_2kib_v1,
                 registered_update_proof::stacked_drg_512mib_v1,
                 registered_update_proof::stacked_drg_32gib_v1}) {
    const snap::update_config_t c = config(p);
    r1cs::shape_cs cs;
    const allocated_num_t comm = gadgets::alloc_num(cs, fr_t::zero());
    const allocated_num_t k = gadgets::alloc_num(cs, fr_t::zero());
    const auto bits =
        gadgets::gen_challenge_bits(cs, comm, k, c.challenges, c.challenge_bits, c.digests);
    EXPECT_EQ(cs.num_constraints(), 568u * c.digests);
    EXPECT_EQ(bits.size(), size_t(c.challenges) * c.challenge_bits);
  }
}

TEST(snap_circuit, official_parameter_names) {
  const std::pair<registered_update_proof, const char*> want[] = {
      {registered_update_proof::stacked_drg_2kib_v1,
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
       "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
      {registered_update_proof::stacked_drg_8mib_v1,
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
       "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
      {registered_update_proof::stacked_drg_512mib_v1,
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
       "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
      {registered_update_proof::stacked_drg_32gib_v1,
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
       "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
      {registered_update_proof::stacked_drg_64gib_v1,
       "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
       "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
  };
  for (const auto& [p, id] : want) EXPECT_EQ(update_param_id(config(p)), id);
  // The names are registered in parameters.json.
  auto reg = read_text_file_bounded(test::fixture_path("parameters.json"), 1 << 20);
  ASSERT_TRUE(reg.ok()) << "missing fixture parameters.json";
  for (const auto& [p, id] : want) {
    EXPECT_NE(reg->find(std::string(id) + ".params"), std::string::npos) << id;
    EXPECT_NE(reg->find(std::string(id) + ".vk"), std::string::npos) << id;
  }
}

// ---- a real 2 KiB update -----------------------------------------------------------------------

class snap_2kib_witness : public ::testing::Test {
 protected:
  void SetUp() override {
    const porep::sealed_sector_t key = test::seal_2kib(21);
    std::vector<uint8_t> payload(1500);
    for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * 31 + 5);
    auto s = snap::encode_update(cfg_, key, payload);
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    comms_ = snap::commitments_of(*s);
    auto p = snap::prove_partition(*s, 0);
    ASSERT_TRUE(p.ok());
    proof_ = std::move(*p);
    ASSERT_TRUE(snap::validate_partition_proof(cfg_, comms_, 0, proof_).ok());
  }

  // The matrices of the blank circuit, recorded once: every witness has the same shape.
  static void SetUpTestSuite() {
    r1cs::matrix_cs cs;
    synthesize_empty_sector_update_circuit(
        cs, blank_empty_sector_update_circuit(
                *snap::update_config(registered_update_proof::stacked_drg_2kib_v1)));
    matrices_ = new r1cs::matrices(cs.take_matrices());
  }
  static void TearDownTestSuite() {
    delete matrices_;
    matrices_ = nullptr;
  }

  // Computes the witness of (comms, proof); the first row it does not satisfy, if any, and the
  // inputs it allocated.
  std::optional<size_t> unsatisfied(const snap::update_commitments_t& comms,
                                    const snap::partition_proof_t& proof,
                                    std::vector<fr_t>* inputs_out = nullptr) {
    auto c = empty_sector_update_circuit_from_vanilla(cfg_, comms, 0, proof);
    EXPECT_TRUE(c.ok()) << c.error().to_string();
    r1cs::witness_cs cs;
    synthesize_empty_sector_update_circuit(cs, *c);
    const auto inputs = cs.take_inputs();
    const auto aux = cs.take_aux();
    if (inputs_out) inputs_out->assign(inputs.begin(), inputs.end());
    return r1cs::is_satisfied(*matrices_, inputs, aux);
  }

  static inline r1cs::matrices* matrices_ = nullptr;

  const snap::update_config_t cfg_ = config(registered_update_proof::stacked_drg_2kib_v1);
  snap::update_commitments_t comms_;
  snap::partition_proof_t proof_;
};

TEST_F(snap_2kib_witness, satisfies_the_circuit_with_its_public_inputs) {
  std::vector<fr_t> inputs;
  const auto bad = unsatisfied(comms_, proof_, &inputs);
  EXPECT_FALSE(bad.has_value()) << "row " << *bad;
  auto want = empty_sector_update_public_inputs(cfg_, comms_, 0);
  ASSERT_TRUE(want.ok());
  ASSERT_EQ(inputs.size(), 5u);
  EXPECT_EQ(inputs[0], fr_t::one());
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(inputs[1 + i], (*want)[i]) << i;
  EXPECT_EQ((*want)[0], fr_t::from_uint(1));  // k = 0, h_select = 1
}

TEST_F(snap_2kib_witness, tampering_is_unsatisfied) {
  {
    snap::update_commitments_t comms = comms_;
    comms.comm_r_new[0] ^= 1;
    EXPECT_TRUE(unsatisfied(comms, proof_).has_value()) << "comm_r_new";
  }
  {
    snap::partition_proof_t p = proof_;
    p.challenge_proofs[3].proof_r_old.hashes[2][0] ^= 1;
    EXPECT_TRUE(unsatisfied(comms_, p).has_value()) << "a proof_r_old sibling";
  }
  {
    snap::partition_proof_t p = proof_;
    p.challenge_proofs[5].proof_d_new.hashes[0][0] ^= 1;
    EXPECT_TRUE(unsatisfied(comms_, p).has_value()) << "a proof_d_new sibling";
  }
  {
    snap::partition_proof_t p = proof_;
    p.apex_leafs[2][0] ^= 1;
    EXPECT_TRUE(unsatisfied(comms_, p).has_value()) << "an apex leaf";
  }
  {
    snap::partition_proof_t p = proof_;
    p.challenge_proofs[1].proof_r_new.leaf[0] ^= 1;  // not used: leaf_r_new is recomputed
    EXPECT_FALSE(unsatisfied(comms_, p).has_value()) << "proof_r_new's leaf";
  }
  EXPECT_EQ(empty_sector_update_circuit_from_vanilla(cfg_, comms_, 1, proof_).error().code(),
            status_code::invalid_argument);
  snap::partition_proof_t short_proof = proof_;
  short_proof.challenge_proofs.pop_back();
  EXPECT_EQ(empty_sector_update_circuit_from_vanilla(cfg_, comms_, 0, short_proof).error().code(),
            status_code::size_mismatch);
}

// The challenges synthesized in parallel (one block per challenge, after the global block) give
// exactly the sequential synthesis, into a fresh and into a recycled buffer. A challenge's shape
// is what the closed form adds per challenge.
TEST_F(snap_2kib_witness, parallel_synthesis_equals_sequential) {
  auto c = empty_sector_update_circuit_from_vanilla(cfg_, comms_, 0, proof_);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  ASSERT_GE(c->challenges.size(), 2u);

  snap::update_config_t fewer = cfg_;
  --fewer.challenges;
  const auto shape = update_challenge_shape(cfg_);
  EXPECT_EQ(shape.constraints, empty_sector_update_circuit_counts(cfg_).constraints -
                                   empty_sector_update_circuit_counts(fewer).constraints);
  EXPECT_EQ(shape.inputs, 0u);

  r1cs::proving_cs sequential;
  synthesize_empty_sector_update_circuit(sequential, *c);
  sequential.finalize();

  thread_pool pool(3);
  r1cs::proving_cs parallel;
  for (int round = 0; round < 2; ++round) {  // fresh, then recycled
    parallel.reset();
    ASSERT_TRUE(synthesize_empty_sector_update_circuit_parallel(parallel, *c, pool).ok());
    parallel.finalize();
    r1cs::expect_same_synthesis(sequential, parallel);
  }
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
