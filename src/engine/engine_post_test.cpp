// SPDX-License-Identifier: Apache-2.0
// 2 KiB WindowPoSt and WinningPoSt through the engine on the CPU prover (label e2e; GPU 0 with
// CUZK_ENGINE_TEST_WORKER=gpu, the `gpu`-labelled registration of CUDA builds): requests as
// Curio sends them (one bincode FallbackPoStSectorProof per sector, 32 bytes of randomness, the Go
// RegisteredPoStProof number), the proofs checked by filecoin::proofs::verify_post against the .vk
// file (the verification path of `cuzk verify window-post`, not the engine's). Also: the kinds'
// default priorities and circuit ids, malformed requests refused at submit with named errors, a
// corrupt vanilla proof failing the job naming the sector and challenge, and two WindowPoSt
// partitions under one request_id (as Curio sends a deadline's partitions) proved separately.
// Parameters: generated with a fixed seed into a temporary directory (seconds for 2 KiB).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "cuzk/engine.hpp"
#include "engine/engine_test_worker.hpp"
#include "engine/proof_kind.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/post/vanilla_prove.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "temp_dir.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using filecoin::post::registered_post_proof;

constexpr auto WINDOW = registered_post_proof::window_2kib_v1_1;  // wire 10
constexpr auto WINNING = registered_post_proof::winning_2kib_v1;  // wire 0

struct shared_state {
  test::temp_dir dir{"engine_post"};
  std::vector<filecoin::porep::sealed_sector_t> sectors;
};
shared_state* g_state = nullptr;

class engine_post : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto st = std::make_unique<shared_state>();
    const std::vector<uint8_t> seed = {'e', 'n', 'g', 'i', 'n', 'e'};
    for (auto p : {WINDOW, WINNING}) {
      auto gen = filecoin::proofs::generate_post_parameters(p, st->dir.string(),
                                                            thread_pool::default_pool(), {}, seed);
      ASSERT_TRUE(gen.ok()) << gen.error().to_string();
    }
    for (uint64_t id : {3u, 8u}) {
      filecoin::porep::seal_request_t req;
      req.config = *filecoin::porep::porep_config(
          filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1);
      req.prover_id = filecoin::porep::prover_id_from_actor(1234);
      req.sector_id = id;
      req.ticket.fill(uint8_t(id + 1));
      std::vector<uint8_t> payload(2032);
      for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * 7 + id);
      auto s = filecoin::porep::seal_sector(req, payload);
      ASSERT_TRUE(s.ok()) << s.error().to_string();
      st->sectors.push_back(std::move(*s));
    }
    g_state = st.release();
  }
  static void TearDownTestSuite() {
    delete g_state;
    g_state = nullptr;
  }
  void SetUp() override { ASSERT_NE(g_state, nullptr) << "shared setup failed"; }

  static filecoin::porep::bytes32_t randomness(uint8_t salt) {
    filecoin::porep::bytes32_t r{};
    for (size_t i = 0; i < 32; ++i) r[i] = uint8_t(29 * i + salt);
    r[31] &= 0x3f;  // as Curio masks it
    return r;
  }

  static proof_request request(registered_post_proof p, std::span<const size_t> sector_indices,
                               const filecoin::porep::bytes32_t& rand, const std::string& id) {
    const auto cfg = *filecoin::post::post_config(p);
    proof_request r;
    r.request_id = id;
    r.kind = cfg.kind == filecoin::post::post_kind::window ? proof_kind::window_post_partition
                                                           : proof_kind::winning_post;
    r.sector_size = cfg.sector_bytes;
    r.registered_proof = filecoin::post::id_of(p);
    r.miner_id = 1234;
    r.randomness.assign(rand.begin(), rand.end());
    r.partition_index = 0;
    unsigned position = 0;
    for (size_t i : sector_indices) {
      auto v = filecoin::post::prove_sector(cfg, g_state->sectors[i], rand, 0, position++);
      EXPECT_TRUE(v.ok()) << v.error().to_string();
      r.vanilla_proofs.push_back(filecoin::post::serialize_fallback_sector_proof(*v));
    }
    return r;
  }

  static bool verifies(const proof_request& r, std::span<const uint8_t> proof) {
    std::vector<filecoin::post::fallback_sector_proof_t> vanilla;
    for (const auto& e : r.vanilla_proofs)
      vanilla.push_back(*filecoin::post::parse_fallback_sector_proof(e));
    filecoin::porep::bytes32_t rand;
    std::copy(r.randomness.begin(), r.randomness.end(), rand.begin());
    auto p = *filecoin::post::registered_post_proof_from_id(r.registered_proof);
    auto ok = filecoin::proofs::verify_post(p, filecoin::proofs::public_sectors_of(vanilla), rand,
                                            r.partition_index, proof, g_state->dir.string());
    EXPECT_TRUE(ok.ok()) << ok.error().to_string();
    return ok.ok() && *ok;
  }
};

TEST_F(engine_post, kinds_priorities_and_circuit_ids) {
  const auto window = window_post_handler(), winning = winning_post_handler();
  EXPECT_EQ(window->kind(), proof_kind::window_post_partition);
  EXPECT_EQ(window->default_priority(), priority::high);
  EXPECT_EQ(winning->kind(), proof_kind::winning_post);
  EXPECT_EQ(winning->default_priority(), priority::critical);
  const auto c = window->circuit_by_id("wpost-32g", "/p");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->params_path,
            filecoin::proofs::post_params_path(
                *filecoin::post::post_config(registered_post_proof::window_32gib_v1_1), "/p"));
  EXPECT_TRUE(winning->circuit_by_id("winning-32g", "/p").has_value());
  EXPECT_TRUE(window->circuit_by_id("wpost-2k", "/p").has_value());
  EXPECT_FALSE(window->circuit_by_id("winning-32g", "/p").has_value());
  EXPECT_FALSE(winning->circuit_by_id("porep-32g", "/p").has_value());
  bool has_window = false, has_winning = false;
  for (const auto& h : builtin_handlers()) {
    has_window |= h->kind() == proof_kind::window_post_partition;
    has_winning |= h->kind() == proof_kind::winning_post;
  }
  EXPECT_TRUE(has_window && has_winning);
}

TEST_F(engine_post, malformed_requests_are_refused_by_name) {
  const size_t both[] = {0, 1};
  const proof_request good = request(WINDOW, both, randomness(1), "wpost-bad");
  const auto window = window_post_handler(), winning = winning_post_handler();
  ASSERT_TRUE(window->check(good).ok());
  auto refused = [&](const proof_kind_handler& h, const proof_request& r, const char* words) {
    const status s = h.check(r);
    EXPECT_EQ(s.code(), status_code::invalid_argument) << words;
    EXPECT_NE(s.message().find(words), std::string::npos) << s.to_string();
  };
  proof_request r = good;
  r.vanilla_proofs.clear();
  refused(*window, r, "0 vanilla proofs");
  r = good;
  r.randomness.pop_back();
  refused(*window, r, "randomness has 31 bytes");
  r = good;
  r.randomness[31] = 0xff;
  refused(*window, r, "randomness");
  r = good;
  r.registered_proof = 3;
  refused(*window, r, "is a winning-post proof");
  r = good;
  r.registered_proof = 15;
  refused(*window, r, "registered_proof");
  r = good;
  r.vanilla_proofs[1].resize(100);
  refused(*window, r, "vanilla_proofs[1]");
  r = good;
  r.vanilla_proofs.push_back(good.vanilla_proofs[0]);
  refused(*window, r, "3 vanilla proofs");
  r = good;
  r.registered_proof = filecoin::post::id_of(WINNING);
  r.kind = proof_kind::winning_post;
  refused(*winning, r, "exactly 1");
  r.vanilla_proofs.resize(1);
  r.partition_index = 2;
  refused(*winning, r, "partition_index 2");
}

TEST_F(engine_post, window_and_winning_prove_through_the_engine) {
  engine_config cfg;
  cfg.param_dir = g_state->dir.string();
  cfg.prover_threads = 2;
  cfg.synthesis_workers = 2;
  cfg.host_memory_budget = uint64_t(4) << 30;
  test_worker::choose(cfg);
  const bool gpu = test_worker::on_gpu();
  auto e = proving_engine::create(cfg);
  ASSERT_TRUE(e.ok()) << e.error().to_string();

  const filecoin::porep::bytes32_t rand = randomness(5);
  const size_t both[] = {0, 1}, first[] = {0}, second[] = {1};
  // Two partitions of one deadline under one request_id, as Curio sends them.
  const std::vector<proof_request> reqs = {
      request(WINDOW, both, rand, "wdpost-1234-0-[1 2 3]"),
      request(WINDOW, second, rand, "wdpost-1234-0-[1 2 3]"),
      request(WINNING, first, rand, "winning-1234"),
  };
  std::vector<std::string> ids;
  for (const auto& r : reqs) {
    auto s = (*e)->submit(r);
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    EXPECT_FALSE(s->attached);
    ids.push_back(s->job_id);
  }
  proof_request corrupt = request(WINDOW, both, rand, "wdpost-corrupt");
  corrupt.vanilla_proofs[1][180] ^= 1;  // inside the first inclusion proof's hashes
  auto cs = (*e)->submit(corrupt);
  ASSERT_TRUE(cs.ok()) << cs.error().to_string();
  // Refused at submit, never queued.
  proof_request empty = reqs[0];
  empty.request_id = "wdpost-empty";
  empty.vanilla_proofs.clear();
  EXPECT_EQ((*e)->submit(empty).error().code(), status_code::invalid_argument);

  for (size_t i = 0; i < reqs.size(); ++i) {
    auto r = (*e)->await(ids[i], 600s);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->state, job_state::completed) << r->error.to_string();
    ASSERT_EQ(r->proof.size(), 192u);
    EXPECT_EQ(r->timings.partitions.at(0).worker, gpu ? "gpu 0" : "cpu");
    EXPECT_TRUE(verifies(reqs[i], r->proof)) << i;
    const auto& t = r->timings;
    std::fprintf(stderr,
                 "[engine] %s: queue %.0f ms, prepare %.0f ms, srs %.0f ms, synthesis %.0f ms, "
                 "prove %.0f ms, verify %.0f ms, total %.0f ms\n",
                 ids[i].c_str(), t.queue_wait, t.prepare, t.srs_load, t.synthesis, t.prove,
                 t.verify, t.total);
  }
  // The other partition's proof does not verify for this one.
  auto a = (*e)->await(ids[0], 1s), b = (*e)->await(ids[1], 1s);
  EXPECT_NE(a->proof, b->proof);
  EXPECT_FALSE(verifies(reqs[1], a->proof));

  auto c = (*e)->await(cs->job_id, 600s);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->state, job_state::failed);
  EXPECT_NE(c->error.message().find("sector 8 challenge"), std::string::npos)
      << c->error.to_string();

  const engine_status st = (*e)->status();
  EXPECT_EQ(st.completed, 3u);
  EXPECT_EQ(st.failed, 1u);
  std::vector<std::string> srs;
  for (const auto& s : st.srs) srs.push_back(s.circuit_id);
  std::sort(srs.begin(), srs.end());
  EXPECT_EQ(srs, (std::vector<std::string>{"winning-2k", "wpost-2k"}));
  (*e)->shutdown();
}

}  // namespace
}  // namespace cuzk::engine
