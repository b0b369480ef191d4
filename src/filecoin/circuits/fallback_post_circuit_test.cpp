// SPDX-License-Identifier: Apache-2.0
// FallbackPoSt circuit: shape_cs counts (constraints, inputs, aux) equal
// post_snap_constraint_counts.json for WindowPoSt 2 KiB / 8 MiB / 512 MiB and WinningPoSt at every
// size, and the upstream fallback_circuit.rs test shapes; the closed form agrees everywhere
// (32/64 GiB WindowPoSt included; their synthesis is the slow test); official parameter names;
// public inputs of the 32 GiB vector in window_post_32g_vector.json under V1 and V1_2; the
// post.vproof witness satisfies every row and its inputs are the public inputs; padding; a
// tampered witness fails; malformed partitions are refused; WindowPoSt (1 sector padded, 2
// sectors; V1 and V1_2) and WinningPoSt circuits from vanilla proofs of sealed 2 KiB sectors are
// satisfied and allocate exactly their public inputs; their slots synthesized in parallel give
// exactly the sequential synthesis.
#include "filecoin/circuits/fallback_post_circuit.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/circuits/public_inputs.hpp"
#include "filecoin/post/partition.hpp"
#include "filecoin/post/vanilla_prove.hpp"
#include "fixtures.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs_test_util.hpp"
#include "r1cs/shape_cs.hpp"
#include "sealed_sectors.hpp"

namespace cuzk::filecoin::circuits {
namespace {

using post::registered_post_proof;

post::post_config_t config(registered_post_proof p) {
  auto c = post::post_config(p);
  EXPECT_TRUE(c.ok());
  return *c;
}

r1cs::shape_summary shape_of(const fallback_post_circuit_t& c) {
  r1cs::shape_cs cs;
  synthesize_fallback_post_circuit(cs, c);
  return cs.summary();
}

std::string read_fixture_text(const char* name) {
  auto t = read_text_file_bounded(test::fixture_path(name), 1 << 20);
  EXPECT_TRUE(t.ok()) << "missing fixture " << name << ": " << t.error().to_string();
  return t.ok() ? std::move(*t) : std::string{};
}

struct model_counts {
  std::string family, sector_size;
  uint64_t constraints, inputs, rows, aux;
};

std::vector<model_counts> model_counts_fixture() {
  const std::string text = read_fixture_text("post_snap_constraint_counts.json");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS);
  std::vector<model_counts> out;
  simdjson::dom::array model;
  if (doc["model"].get(model) != simdjson::SUCCESS) return out;
  for (simdjson::dom::element e : model) {
    std::string_view family, size;
    if (e["family"].get(family) || e["sector_size"].get(size)) continue;
    if (family != "post-window" && family != "post-winning") continue;
    model_counts m{std::string(family), std::string(size), 0, 0, 0, 0};
    EXPECT_FALSE(e["constraints"].get(m.constraints) || e["inputs_incl_one"].get(m.inputs) ||
                 e["r1cs_rows"].get(m.rows) || e["aux"].get(m.aux));
    out.push_back(m);
  }
  return out;
}

uint64_t upstream_count(const std::string& test_name) {
  const std::string text = read_fixture_text("post_snap_constraint_counts.json");
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS);
  simdjson::dom::array up;
  if (doc["upstream"].get(up) != simdjson::SUCCESS) return 0;
  for (simdjson::dom::element e : up) {
    std::string_view t;
    uint64_t n = 0;
    if (!e["test"].get(t) && t == test_name && !e["constraints"].get(n)) return n;
  }
  ADD_FAILURE() << "no upstream count for " << test_name;
  return 0;
}

registered_post_proof proof_for(const model_counts& m) {
  const unsigned index = m.sector_size == "2KiB"     ? 0
                         : m.sector_size == "8MiB"   ? 1
                         : m.sector_size == "512MiB" ? 2
                         : m.sector_size == "32GiB"  ? 3
                                                     : 4;
  return registered_post_proof((m.family == "post-window" ? 5 : 0) + index);
}

// ---- counts ----------------------------------------------------------------------------------

TEST(fallback_post_circuit, counts_equal_the_fixture) {
  const std::vector<model_counts> models = model_counts_fixture();
  ASSERT_EQ(models.size(), 10u);
  for (const model_counts& m : models) {
    SCOPED_TRACE(m.family + " " + m.sector_size);
    const post::post_config_t cfg = config(proof_for(m));
    const fallback_post_counts_t n = fallback_post_circuit_counts(cfg);
    EXPECT_EQ(n.constraints, m.constraints);
    EXPECT_EQ(n.inputs, m.inputs);
    EXPECT_EQ(n.rows(), m.rows);
    EXPECT_EQ(n.aux, m.aux);
    // WindowPoSt 32/64 GiB (125 M rows) is synthesized by post_circuit_slow_test.
    if (cfg.kind == post::post_kind::window && cfg.sector_count > 2) continue;
    const fallback_post_circuit_t c = blank_fallback_post_circuit(cfg);
    ASSERT_TRUE(validate_fallback_post_circuit(c).ok());
    const r1cs::shape_summary s = shape_of(c);
    EXPECT_EQ(s.num_constraints, m.constraints);
    EXPECT_EQ(s.num_inputs, m.inputs);
    EXPECT_EQ(s.num_aux, m.aux);
    // B holds ONE and aux only (inputize: input·ONE = x).
    EXPECT_EQ(s.b_input_density, 1u);
  }
}

// storage-proofs-post/tests/fallback_circuit.rs: leaves, tree, sectors × 5 challenges.
TEST(fallback_post_circuit, upstream_test_shapes) {
  struct shape_case {
    const char* test;
    hash::tree_shape tree;
    unsigned sectors, challenges;
    size_t inputs;
  };
  const shape_case cases[] = {
      {"test_fallback_post_circuit_poseidon_single_partition_base_8", {8, 0, 0, 64}, 3, 5, 19},
      {"test_fallback_post_circuit_poseidon_single_partition_sub_8_4", {8, 4, 0, 256}, 3, 5, 19},
      {"test_fallback_post_circuit_poseidon_single_partition_top_8_4_2", {8, 4, 2, 512}, 3, 5, 19},
      {"test_fallback_post_circuit_poseidon_two_partitions_base_8", {8, 0, 0, 64}, 2, 5, 13},
      {"test_fallback_post_circuit_poseidon_base_8_bench_cs (ignored)",
       {8, 0, 0, uint64_t(1) << 30},
       5,
       10,
       56},
  };
  for (const shape_case& sc : cases) {
    SCOPED_TRACE(sc.test);
    fallback_post_circuit_t c;
    c.tree = sc.tree;
    c.sector_count = sc.sectors;
    c.challenge_count = sc.challenges;
    c.sectors.push_back(
        {fr_t::zero(), fr_t::zero(), fr_t::zero(),
         std::vector<gadgets::por_path_t>(sc.challenges, gadgets::blank_por_path(sc.tree))});
    ASSERT_TRUE(validate_fallback_post_circuit(c).ok())
        << validate_fallback_post_circuit(c).to_string();
    const r1cs::shape_summary s = shape_of(c);
    const uint64_t want = upstream_count(sc.test);
    EXPECT_EQ(s.num_constraints, want);
    EXPECT_EQ(s.num_inputs, sc.inputs);
    const fallback_post_counts_t n =
        fallback_post_circuit_counts(sc.tree, sc.sectors, sc.challenges);
    EXPECT_EQ(n.constraints, want);
    EXPECT_EQ(n.aux, s.num_aux);
  }
}

TEST(fallback_post_circuit, closed_form_32gib_64gib_window) {
  EXPECT_EQ(
      fallback_post_circuit_counts(config(registered_post_proof::window_32gib_v1_1)).constraints,
      125'279'217u);
  EXPECT_EQ(
      fallback_post_circuit_counts(config(registered_post_proof::window_64gib_v1)).constraints,
      129'887'900u);
  EXPECT_EQ(
      fallback_post_circuit_counts(config(registered_post_proof::winning_32gib_v1)).constraints,
      370'590u);
}

// ---- parameter names -------------------------------------------------------------------------

TEST(fallback_post_circuit, official_parameter_names) {
  const std::string params = read_fixture_text("parameters.json");
  const char* window[5] = {"0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0",
                           "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9",
                           "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9",
                           "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc",
                           "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"};
  const char* winning[5] = {"3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e",
                            "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331",
                            "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781",
                            "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e",
                            "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"};
  for (unsigned i = 0; i < 5; ++i) {
    for (unsigned base : {0u, 5u, 10u}) {
      const post::post_config_t cfg = config(registered_post_proof(base + i));
      const std::string id = post_param_id(cfg);
      EXPECT_EQ(id, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-" +
                        cfg.tree.name() + "-" + (base == 0 ? winning[i] : window[i]));
      EXPECT_NE(params.find("\"" + id + ".params\""), std::string::npos) << id;
      EXPECT_NE(params.find("\"" + id + ".vk\""), std::string::npos) << id;
    }
  }
}

// ---- public inputs ---------------------------------------------------------------------------

std::string json_string_field(const std::string& json, const std::string& key) {
  size_t at = json.find("\"" + key + "\"");
  if (at == std::string::npos) return {};
  at = json.find('"', json.find(':', at) + 1) + 1;
  return json.substr(at, json.find('"', at) - at);
}

// An Fr from 0x-prefixed big-endian hex.
fr_t fr_from_be_hex(const std::string& h) {
  porep::bytes32_t be{}, le{};
  EXPECT_TRUE(from_hex_into(h.substr(2), be).ok()) << h;
  for (int i = 0; i < 32; ++i) le[i] = be[31 - i];
  fr_t x;
  EXPECT_TRUE(hash::bytes_to_fr(le, x));
  return x;
}

TEST(fallback_post_public_inputs, window_post_32g_vector) {
  const std::string v = read_fixture_text("window_post_32g_vector.json");
  porep::bytes32_t randomness{}, comm_r{};
  ASSERT_TRUE(from_hex_into(json_string_field(v, "randomness_hex"), randomness).ok());
  ASSERT_TRUE(from_hex_into(json_string_field(v, "comm_r_hex"), comm_r).ok());
  std::vector<fr_t> block;
  for (size_t at = v.find("\"0x"); at != std::string::npos; at = v.find("\"0x", at + 1))
    block.push_back(fr_from_be_hex(v.substr(at + 1, 66)));
  ASSERT_EQ(block.size(), 11u);

  const post::public_sector_t sectors[] = {{132, comm_r}};
  for (auto p :
       {registered_post_proof::window_32gib_v1, registered_post_proof::window_32gib_v1_1}) {
    auto inputs = fallback_post_public_inputs(config(p), sectors, randomness, 0);
    ASSERT_TRUE(inputs.ok()) << inputs.error().to_string();
    ASSERT_EQ(inputs->size(), 25'839u);
    for (size_t i = 0; i < inputs->size(); ++i)
      ASSERT_EQ((*inputs)[i], block[i % 11]) << "input " << i;
  }
  // The partition index changes V1's challenges, not V1_2's.
  const auto v1_k1 = fallback_post_public_inputs(config(registered_post_proof::window_32gib_v1),
                                                 sectors, randomness, 1);
  const auto v12_k1 = fallback_post_public_inputs(config(registered_post_proof::window_32gib_v1_1),
                                                  sectors, randomness, 1);
  EXPECT_NE((*v1_k1)[1], block[1]);
  EXPECT_EQ((*v12_k1)[1], block[1]);
  porep::bytes32_t bad = randomness;
  bad[31] = 0xff;
  EXPECT_EQ(
      fallback_post_public_inputs(config(registered_post_proof::window_32gib_v1), sectors, bad, 0)
          .error()
          .code(),
      status_code::non_canonical);
}

// ---- the post.vproof witness -----------------------------------------------------------------

class post_vproof_witness : public ::testing::Test {
 protected:
  void SetUp() override {
    auto b = read_file_bounded(test::fixture_path("post.vproof"), 1 << 20);
    ASSERT_TRUE(b.ok()) << "missing fixture post.vproof";
    auto p = post::parse_fallback_sector_proof(*b);
    ASSERT_TRUE(p.ok()) << p.error().to_string();
    proof_ = std::move(*p);
  }
  post::fallback_sector_proof_t proof_;
};

TEST_F(post_vproof_witness, satisfies_the_circuit_and_matches_the_public_inputs) {
  const post::post_config_t cfg = config(registered_post_proof::window_32gib_v1);
  const post::fallback_sector_proof_t proofs[] = {proof_};
  auto full = fallback_post_circuit_from_vanilla(cfg, proofs);
  ASSERT_TRUE(full.ok()) << full.error().to_string();
  ASSERT_EQ(full->sectors.size(), 1u);  // padded by repetition, not by copies
  EXPECT_EQ(full->sector_count, 2349u);

  // Slots are independent and identical: two of them (the real one and one padding slot) carry
  // every kind of row; the full 2,349-slot synthesis is in the slow test.
  fallback_post_circuit_t two = *full;
  two.sector_count = 2;
  r1cs::matrix_witness_cs cs;
  synthesize_fallback_post_circuit(cs, two);
  const std::vector<fr_t> inputs(cs.inputs().begin(), cs.inputs().end());
  const std::vector<fr_t> aux(cs.aux().begin(), cs.aux().end());
  r1cs::matrices m = cs.take_matrices();
  const auto bad = r1cs::is_satisfied(m, inputs, aux);
  EXPECT_FALSE(bad.has_value()) << "row " << *bad;

  const post::public_sector_t pub[] = {{proof_.sector_id, proof_.comm_r}};
  auto want = fallback_post_public_inputs(cfg, pub, porep::bytes32_t{}, 0);
  ASSERT_TRUE(want.ok());
  ASSERT_EQ(inputs.size(), 1 + 2 * 11u);
  for (size_t i = 0; i < 22; ++i) EXPECT_EQ(inputs[1 + i], (*want)[i]) << i;

  // A tampered sibling breaks a row (the prover's witness is not trusted).
  fallback_post_circuit_t t = two;
  t.sectors[0].paths[3].levels[2].siblings[1] += fr_t::one();
  r1cs::matrix_witness_cs tcs;
  synthesize_fallback_post_circuit(tcs, t);
  const std::vector<fr_t> tin(tcs.inputs().begin(), tcs.inputs().end());
  const std::vector<fr_t> taux(tcs.aux().begin(), tcs.aux().end());
  r1cs::matrices tm = tcs.take_matrices();
  EXPECT_TRUE(r1cs::is_satisfied(tm, tin, taux).has_value());

  // The witness circuit has the blank circuit's shape.
  fallback_post_circuit_t blank = blank_fallback_post_circuit(cfg);
  blank.sector_count = 2;
  EXPECT_EQ(r1cs::summarize(m), shape_of(blank));
}

TEST_F(post_vproof_witness, malformed_partitions_are_refused) {
  const post::post_config_t cfg = config(registered_post_proof::window_32gib_v1_1);
  EXPECT_FALSE(fallback_post_circuit_from_vanilla(cfg, {}).ok());
  post::fallback_sector_proof_t short_proof = proof_;
  short_proof.sectors[0].inclusion_proofs.resize(9);
  const post::fallback_sector_proof_t one[] = {short_proof};
  const auto r = fallback_post_circuit_from_vanilla(cfg, one);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::size_mismatch);
  EXPECT_NE(r.error().message().find("sector 1"), std::string::npos);
  post::fallback_sector_proof_t big = proof_;
  big.sectors[0].comm_c.fill(0xff);
  const post::fallback_sector_proof_t two[] = {big};
  EXPECT_EQ(fallback_post_circuit_from_vanilla(cfg, two).error().code(),
            status_code::non_canonical);
  EXPECT_FALSE(
      fallback_post_circuit_from_vanilla(config(registered_post_proof::winning_32gib_v1), one)
          .ok());
}

// ---- sealed 2 KiB sectors --------------------------------------------------------------------

// Synthesizes the partition's circuit with values: every row holds, the inputs (after ONE) are
// fallback_post_public_inputs, and the recorded shape is the blank circuit's.
void check_post_partition(const post::post_config_t& cfg,
                          std::span<const post::fallback_sector_proof_t> proofs,
                          const porep::bytes32_t& randomness, unsigned k) {
  ASSERT_TRUE(post::validate_partition(cfg, proofs, randomness, k).ok());
  auto c = fallback_post_circuit_from_vanilla(cfg, proofs);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  r1cs::matrix_witness_cs cs;
  synthesize_fallback_post_circuit(cs, *c);
  const std::vector<fr_t> inputs(cs.inputs().begin(), cs.inputs().end());
  const std::vector<fr_t> aux(cs.aux().begin(), cs.aux().end());
  const r1cs::matrices m = cs.take_matrices();
  const auto bad = r1cs::is_satisfied(m, inputs, aux);
  EXPECT_FALSE(bad.has_value()) << "row " << *bad;

  std::vector<post::public_sector_t> pub;
  for (const auto& p : proofs) pub.push_back({p.sector_id, p.comm_r});
  auto want = fallback_post_public_inputs(cfg, pub, randomness, k);
  ASSERT_TRUE(want.ok()) << want.error().to_string();
  ASSERT_EQ(inputs.size(), want->size() + 1);
  EXPECT_TRUE(std::equal(want->begin(), want->end(), inputs.begin() + 1));
  EXPECT_EQ(r1cs::summarize(m), shape_of(blank_fallback_post_circuit(cfg)));

  // Other randomness: the witness still satisfies its rows, but its leaf inputs are not the
  // verifier's, so the proof would not verify.
  porep::bytes32_t other = randomness;
  other[5] ^= 0x40;
  auto other_inputs = fallback_post_public_inputs(cfg, pub, other, k);
  ASSERT_TRUE(other_inputs.ok());
  EXPECT_FALSE(std::equal(other_inputs->begin(), other_inputs->end(), inputs.begin() + 1));
}

TEST(fallback_post_circuit, sealed_2kib_witness_satisfies) {
  const porep::sealed_sector_t a = test::seal_2kib(3), b = test::seal_2kib(11);
  porep::bytes32_t randomness{};
  for (size_t i = 0; i < 31; ++i) randomness[i] = uint8_t(29 * i + 1);
  for (auto p : {registered_post_proof::window_2kib_v1, registered_post_proof::window_2kib_v1_1}) {
    const post::post_config_t cfg = config(p);
    for (unsigned k : {0u, 2u}) {
      SCOPED_TRACE(std::string(post::name_of(p)) + " partition " + std::to_string(k));
      const post::fallback_sector_proof_t one[] = {*post::prove_sector(cfg, a, randomness, k, 0)};
      check_post_partition(cfg, one, randomness, k);
      const post::fallback_sector_proof_t two[] = {one[0],
                                                   *post::prove_sector(cfg, b, randomness, k, 1)};
      check_post_partition(cfg, two, randomness, k);
    }
  }
  const post::post_config_t g = config(registered_post_proof::winning_2kib_v1);
  const post::fallback_sector_proof_t win[] = {*post::prove_sector(g, b, randomness, 0, 0)};
  check_post_partition(g, win, randomness, 0);
}

// The slots synthesized in parallel (one block per slot) give exactly the sequential synthesis,
// into a fresh and into a recycled buffer: WindowPoSt with two distinct sectors and with one
// sector padded, and WinningPoSt (66 one-challenge slots). A slot's shape is the closed form's.
TEST(fallback_post_circuit, parallel_synthesis_equals_sequential) {
  const porep::sealed_sector_t a = test::seal_2kib(3), b = test::seal_2kib(11);
  porep::bytes32_t randomness{};
  for (size_t i = 0; i < 31; ++i) randomness[i] = uint8_t(17 * i + 2);
  const post::post_config_t window = config(registered_post_proof::window_2kib_v1_1);
  const post::post_config_t winning = config(registered_post_proof::winning_2kib_v1);
  const post::fallback_sector_proof_t pa = *post::prove_sector(window, a, randomness, 0, 0);
  const post::fallback_sector_proof_t pb = *post::prove_sector(window, b, randomness, 0, 1);
  const post::fallback_sector_proof_t two[] = {pa, pb};
  const post::fallback_sector_proof_t one[] = {pa};
  const post::fallback_sector_proof_t win[] = {*post::prove_sector(winning, b, randomness, 0, 0)};
  const struct {
    const char* what;
    const post::post_config_t& cfg;
    std::span<const post::fallback_sector_proof_t> proofs;
  } cases[] = {{"window, 2 sectors", window, two},
               {"window, 1 sector padded", window, one},
               {"winning", winning, win}};

  thread_pool pool(3);
  for (const auto& k : cases) {
    SCOPED_TRACE(k.what);
    auto c = fallback_post_circuit_from_vanilla(k.cfg, k.proofs);
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    ASSERT_GE(c->sector_count, 2u);

    const auto shape = fallback_post_slot_shape(c->tree, c->challenge_count);
    const fallback_post_counts_t slot =
        fallback_post_circuit_counts(c->tree, 1, c->challenge_count);
    EXPECT_EQ(shape, (r1cs::proving_cs::block_shape{slot.constraints, slot.aux, slot.inputs - 1}));

    r1cs::proving_cs sequential;
    synthesize_fallback_post_circuit(sequential, *c);
    sequential.finalize();

    r1cs::proving_cs parallel;
    for (int round = 0; round < 2; ++round) {  // fresh, then recycled
      parallel.reset();
      ASSERT_TRUE(synthesize_fallback_post_circuit_parallel(parallel, *c, pool).ok());
      parallel.finalize();
      r1cs::expect_same_synthesis(sequential, parallel);
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin::circuits
