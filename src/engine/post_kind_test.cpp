// SPDX-License-Identifier: Apache-2.0
// 2 KiB WindowPoSt and WinningPoSt through the PoSt kinds' recipe (post_kind.cpp) → verify, on the
// CPU prover (label e2e: the setup and the proofs take a while on 2 cores): parameters generated
// under the official names with a fixed seed, vanilla proofs of sealed sectors as Curio sends
// them, each request proved on an engine as `cuzk prove window-post|winning-post` does; a tampered
// proof, wrong randomness and a wrong sector are rejected; a corrupt vanilla proof fails naming
// the sector and challenge, and with the vanilla check off it still never yields a proof; the
// digest check of `cuzk prove --check-digests` refuses the seeded files.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "engine/engine_test_worker.hpp"
#include "filecoin/circuits/params_name.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/post/synthetic.hpp"
#include "filecoin/post/vanilla_prove.hpp"
#include "filecoin/proofs/params_digest.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "filecoin/proofs/prove_steps.hpp"
#include "sealed_sectors.hpp"
#include "temp_dir.hpp"

namespace cuzk::filecoin::proofs {
namespace {

using filecoin::post::fallback_sector_proof_t;
using filecoin::post::registered_post_proof;

constexpr auto WINDOW = registered_post_proof::window_2kib_v1_1;
constexpr auto WINDOW_V1 = registered_post_proof::window_2kib_v1;
constexpr auto WINNING = registered_post_proof::winning_2kib_v1;

struct shared_state {
  test::temp_dir dir{"post_prover"};
  std::vector<filecoin::porep::sealed_sector_t> sectors;
};
shared_state* g_state = nullptr;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class post_prover : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto st = std::make_unique<shared_state>();
    const std::vector<uint8_t> seed = {'p', 'o', 's', 't'};
    // Window V1 and V1_1 share one parameter set: generating V1_1 serves both.
    for (auto p : {WINDOW, WINNING}) {
      const auto t0 = std::chrono::steady_clock::now();
      auto gen =
          generate_post_parameters(p, st->dir.string(), thread_pool::default_pool(), {}, seed);
      ASSERT_TRUE(gen.ok()) << gen.error().to_string();
      std::fprintf(stderr, "[post] %s parameters: %zu rows, %.1f s\n",
                   std::string(filecoin::post::name_of(p)).c_str(), gen->rows, seconds_since(t0));
    }
    for (uint64_t id : {5u, 9u}) st->sectors.push_back(test::seal_2kib(id));
    g_state = st.release();
  }
  static void TearDownTestSuite() {
    delete g_state;
    g_state = nullptr;
  }
  void SetUp() override { ASSERT_NE(g_state, nullptr) << "shared setup failed"; }

  static filecoin::porep::bytes32_t randomness(uint8_t salt) {
    filecoin::porep::bytes32_t r{};
    for (size_t i = 0; i < 31; ++i) r[i] = uint8_t(17 * i + salt);
    return r;
  }

  // The inputs Curio sends for partition k: each sector proven at its position.
  static post_inputs_t inputs(registered_post_proof p, size_t sectors, unsigned k,
                              const filecoin::porep::bytes32_t& rand) {
    const auto cfg = *filecoin::post::post_config(p);
    post_inputs_t in;
    in.proof = p;
    in.randomness = rand;
    in.miner_id = 1000;
    in.partition = k;
    for (size_t i = 0; i < sectors; ++i) {
      auto v = filecoin::post::prove_sector(cfg, g_state->sectors[i], rand, k, unsigned(i));
      EXPECT_TRUE(v.ok()) << v.error().to_string();
      // Through the wire format, as the daemon receives it.
      auto decoded = filecoin::post::parse_fallback_sector_proof(
          filecoin::post::serialize_fallback_sector_proof(*v));
      EXPECT_TRUE(decoded.ok());
      in.vanilla.push_back(*decoded);
    }
    return in;
  }

  // The request Curio sends for `in` (each vanilla proof in its bincode).
  static engine::proof_request request_of(const post_inputs_t& in) {
    const auto cfg = *filecoin::post::post_config(in.proof);
    engine::proof_request r;
    r.kind = cfg.kind == filecoin::post::post_kind::window
                 ? engine::proof_kind::window_post_partition
                 : engine::proof_kind::winning_post;
    r.registered_proof = filecoin::post::id_of(in.proof);
    r.sector_size = cfg.sector_bytes;
    for (const auto& v : in.vanilla)
      r.vanilla_proofs.push_back(filecoin::post::serialize_fallback_sector_proof(v));
    r.randomness.assign(in.randomness.begin(), in.randomness.end());
    r.miner_id = in.miner_id;
    r.partition_index = in.partition;
    return r;
  }

  static result<std::vector<uint8_t>> prove(
      const post_inputs_t& in, engine::handler_list handlers = engine::builtin_handlers(),
      const std::string& dir = g_state->dir.string()) {
    return engine::test_worker::prove_once(request_of(in), dir, std::move(handlers));
  }

  static std::vector<uint8_t> prove_ok(const post_inputs_t& in) {
    engine::job_timings tm;
    auto pf = engine::test_worker::prove_once(request_of(in), g_state->dir.string(),
                                              engine::builtin_handlers(), &tm);
    EXPECT_TRUE(pf.ok()) << pf.error().to_string();
    if (!pf.ok()) return {};
    EXPECT_EQ(pf->size(), 192u);
    std::fprintf(stderr,
                 "[post] %s partition %u, %zu sector(s): decode and checks %.3f s, synthesis "
                 "%.2f s, params %.2f s, prove %.2f s, self-verify %.3f s, total %.2f s\n",
                 std::string(filecoin::post::name_of(in.proof)).c_str(), in.partition,
                 in.vanilla.size(), tm.prepare / 1e3, tm.synthesis / 1e3, tm.srs_load / 1e3,
                 (tm.prove + tm.finalize) / 1e3, tm.verify / 1e3, tm.total / 1e3);
    return *pf;
  }

  static bool verifies(const post_inputs_t& in,
                       std::span<const filecoin::post::public_sector_t> sectors,
                       const filecoin::porep::bytes32_t& rand, std::span<const uint8_t> proof) {
    auto ok = verify_post(in.proof, sectors, rand, in.partition, proof, g_state->dir.string());
    return ok.ok() && *ok;
  }
};

TEST_F(post_prover, window_prove_verify_and_rejections) {
  const filecoin::porep::bytes32_t rand = randomness(3);
  for (auto [p, k] : {std::pair{WINDOW, 0u}, std::pair{WINDOW_V1, 1u}}) {
    const post_inputs_t in = inputs(p, 2, k, rand);
    const std::vector<uint8_t> proof = prove_ok(in);
    ASSERT_EQ(proof.size(), 192u);
    const auto sectors = public_sectors_of(in.vanilla);
    EXPECT_TRUE(verifies(in, sectors, rand, proof)) << filecoin::post::name_of(p);

    std::vector<uint8_t> tampered = proof;
    tampered[100] ^= 1;
    EXPECT_FALSE(verifies(in, sectors, rand, tampered));
    EXPECT_FALSE(verifies(in, sectors, randomness(4), proof));
    auto wrong_id = sectors;
    wrong_id[1].sector_id += 1;
    EXPECT_FALSE(verifies(in, wrong_id, rand, proof));
    auto wrong_comm_r = sectors;
    wrong_comm_r[0].comm_r = g_state->sectors[1].comm_r;
    EXPECT_FALSE(verifies(in, wrong_comm_r, rand, proof));
    // Under V1 the challenges depend on the partition: the proof of partition k is not one of
    // k + 1 (V1_2 challenges do not, so there it would be).
    if (p == WINDOW_V1) {
      post_inputs_t other = in;
      other.partition = k + 1;
      EXPECT_FALSE(verifies(other, sectors, rand, proof));
    }
  }
  // A short partition (1 sector, padded by repeating it).
  const post_inputs_t one = inputs(WINDOW, 1, 0, rand);
  const std::vector<uint8_t> proof = prove_ok(one);
  const auto sectors = public_sectors_of(one.vanilla);
  EXPECT_TRUE(verifies(one, sectors, rand, proof));
}

TEST_F(post_prover, winning_prove_verify_and_rejections) {
  const filecoin::porep::bytes32_t rand = randomness(11);
  post_inputs_t in = inputs(WINNING, 1, 0, rand);
  const std::vector<uint8_t> proof = prove_ok(in);
  ASSERT_EQ(proof.size(), 192u);
  const auto sectors = public_sectors_of(in.vanilla);
  EXPECT_TRUE(verifies(in, sectors, rand, proof));
  std::vector<uint8_t> tampered = proof;
  tampered[7] ^= 0x10;
  EXPECT_FALSE(verifies(in, sectors, rand, tampered));
  EXPECT_FALSE(verifies(in, sectors, randomness(12), proof));
  const filecoin::post::public_sector_t other[] = {
      {g_state->sectors[1].request.sector_id, g_state->sectors[1].comm_r}};
  EXPECT_FALSE(verifies(in, other, rand, proof));

  // WinningPoSt takes exactly one sector and only partition 0.
  post_inputs_t two = in;
  two.vanilla.push_back(in.vanilla[0]);
  EXPECT_FALSE(prove(two).ok());
  post_inputs_t k1 = in;
  k1.partition = 1;
  EXPECT_EQ(prove(k1).error().code(), status_code::invalid_argument);
}

// Synthetic vanilla proofs (the 32 GiB benchmarks' input, post/synthetic.hpp) are a satisfiable
// witness of the real circuit: a full 2 KiB partition of never-sealed sectors proves and verifies.
TEST_F(post_prover, synthetic_vanilla_proves) {
  const filecoin::porep::bytes32_t rand = randomness(9);
  post_inputs_t in;
  in.proof = WINDOW;
  in.randomness = rand;
  in.partition = 1;
  auto v = filecoin::post::generate_synthetic_post(
      {*filecoin::post::post_config(WINDOW), rand, 40, 0, 1, 2});
  ASSERT_TRUE(v.ok()) << v.error().to_string();
  in.vanilla = *v;
  const std::vector<uint8_t> proof = prove_ok(in);
  ASSERT_EQ(proof.size(), 192u);
  const auto sectors = public_sectors_of(in.vanilla);
  EXPECT_TRUE(verifies(in, sectors, rand, proof));
  EXPECT_FALSE(verifies(in, sectors, randomness(10), proof));
}

TEST_F(post_prover, corrupt_vanilla_is_named_never_proven) {
  const filecoin::porep::bytes32_t rand = randomness(21);
  post_inputs_t in = inputs(WINDOW, 2, 0, rand);
  in.vanilla[1].sectors[0].inclusion_proofs[6].hashes[0][3] ^= 1;
  auto r = prove(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::invalid_argument);
  EXPECT_NE(r.error().message().find("sector 9 challenge 6"), std::string::npos)
      << r.error().to_string();

  // Without the vanilla check the unsatisfied circuit is caught by self-verification.
  auto u = prove(in, {engine::window_post_handler({.check_vanilla = false})});
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.error().code(), status_code::invalid_argument) << u.error().to_string();

  // Vanilla proofs made for other randomness name the first challenge that differs.
  const post_inputs_t stale = inputs(WINDOW, 1, 0, randomness(22));
  post_inputs_t replay = stale;
  replay.randomness = rand;
  auto s = prove(replay);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message().find("sector 5 challenge"), std::string::npos)
      << s.error().to_string();
}

TEST_F(post_prover, digest_check_and_missing_parameters) {
  const filecoin::porep::bytes32_t rand = randomness(31);
  const post_inputs_t in = inputs(WINDOW, 1, 0, rand);
  // Our seeded files are not the official ones: the built-in facts say MISMATCH (the step
  // `cuzk prove --check-digests` takes before the proof).
  const auto facts = builtin_post_facts();
  const auto cfg = *filecoin::post::post_config(in.proof);
  std::vector<digest_check_t> digests;
  const status r = steps::check_param_digests(
      post_params_path(cfg, g_state->dir.string()), post_vk_path(cfg, g_state->dir.string()),
      std::vector<param_fact_t>(facts.begin(), facts.end()), digests);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.code(), status_code::bad_encoding) << r.to_string();
  ASSERT_EQ(digests.size(), 1u);
  EXPECT_EQ(digests[0].verdict, digest_verdict::mismatch);

  test::temp_dir empty("post_prover_empty");
  auto missing = prove(in, engine::builtin_handlers(), empty.string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message().find(
                filecoin::circuits::post_param_id(*filecoin::post::post_config(WINDOW))),
            std::string::npos)
      << missing.error().to_string();
}

}  // namespace
}  // namespace cuzk::filecoin::proofs
