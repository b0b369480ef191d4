// SPDX-License-Identifier: Apache-2.0
// A 2 KiB SnapDeals update through the engine on the CPU prover (label e2e; GPU 0 with
// CUZK_ENGINE_TEST_WORKER=gpu, the `gpu`-labelled registration of CUDA builds): the request as
// Curio sends it (snap-vproof.json's base64 elements decoded to one bincode PartitionProof per
// partition, raw 32-byte commitments, the RegisteredUpdateProof number), the proof checked by
// filecoin::proofs::verify_update against the .vk file (the path of `cuzk verify snap`, not the
// engine's). Also: the kind's priority and circuit ids; hostile requests (wrong registered proof,
// wrong commitment sizes, a non-canonical commitment, the wrong number of partitions, truncated or
// garbled vanilla bytes) refused at submit by name; a vanilla proof with a tampered path failing
// its job naming the challenge while the engine goes on to prove the next request. One proof.
// Parameters: the shared fixture snap_2k_params ($CUZK_TEST_SNAP_PARAMS_DIR).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "cuzk/engine.hpp"
#include "engine/engine_test_worker.hpp"
#include "engine/proof_kind.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/proofs/snap_prover.hpp"
#include "filecoin/snap/encode.hpp"
#include "filecoin/snap/vanilla_prove.hpp"
#include "sealed_sectors.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using filecoin::snap::registered_update_proof;

constexpr auto SNAP_2KIB = registered_update_proof::stacked_drg_2kib_v1;  // wire 0

struct shared_state {
  std::string params_dir;
  proof_request good;
};
shared_state* g_state = nullptr;

class engine_snap : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto st = std::make_unique<shared_state>();
    const char* dir = std::getenv("CUZK_TEST_SNAP_PARAMS_DIR");
    ASSERT_NE(dir, nullptr) << "CUZK_TEST_SNAP_PARAMS_DIR is not set (run through ctest: the "
                               "snap_2k_params fixture generates the parameters)";
    st->params_dir = dir;

    const filecoin::snap::update_config_t cfg = *filecoin::snap::update_config(SNAP_2KIB);
    auto s = test::update_2kib(41, 5, 2);
    ASSERT_TRUE(s.ok()) << s.error().to_string();

    // What Curio stores (snap-vproof.json) and decodes into the request's [][]byte.
    const std::string vproof_json =
        filecoin::post::vanilla_file_json(filecoin::snap::prove_all_partitions(*s));
    auto elements = filecoin::post::parse_vanilla_file(vproof_json);
    ASSERT_TRUE(elements.ok()) << elements.error().to_string();

    proof_request& r = st->good;
    r.request_id = "snap-1000-41";
    r.kind = proof_kind::snap_deals_update;
    r.sector_size = cfg.sector_bytes;
    r.registered_proof = filecoin::snap::id_of(SNAP_2KIB);
    r.prio = priority::normal;
    r.vanilla_proofs = std::move(*elements);
    r.sector_number = 41;
    r.miner_id = 1000;
    r.comm_r_old.assign(s->comm_r_old.begin(), s->comm_r_old.end());
    r.comm_r_new.assign(s->comm_r_new.begin(), s->comm_r_new.end());
    r.comm_d_new.assign(s->comm_d_new.begin(), s->comm_d_new.end());
    g_state = st.release();
  }
  static void TearDownTestSuite() {
    delete g_state;
    g_state = nullptr;
  }
  void SetUp() override { ASSERT_NE(g_state, nullptr) << "shared setup failed"; }

  static const proof_request& good() { return g_state->good; }

  static bool verifies(const proof_request& r, std::span<const uint8_t> proof) {
    filecoin::snap::update_commitments_t comms;
    std::copy(r.comm_r_old.begin(), r.comm_r_old.end(), comms.comm_r_old.begin());
    std::copy(r.comm_r_new.begin(), r.comm_r_new.end(), comms.comm_r_new.begin());
    std::copy(r.comm_d_new.begin(), r.comm_d_new.end(), comms.comm_d_new.begin());
    auto ok = filecoin::proofs::verify_update(SNAP_2KIB, comms, proof, g_state->params_dir);
    EXPECT_TRUE(ok.ok()) << ok.error().to_string();
    return ok.ok() && *ok;
  }
};

TEST_F(engine_snap, kind_priority_and_circuit_ids) {
  const auto h = snap_update_handler();
  EXPECT_EQ(h->kind(), proof_kind::snap_deals_update);
  EXPECT_EQ(h->default_priority(), priority::normal);
  const auto c = h->circuit_by_id("snap-32g", "/p");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(
      c->params_path,
      filecoin::proofs::update_params_path(
          *filecoin::snap::update_config(registered_update_proof::stacked_drg_32gib_v1), "/p"));
  EXPECT_TRUE(h->circuit_by_id("snap-64g", "/p").has_value());
  EXPECT_TRUE(h->circuit_by_id("snap-2k", "/p").has_value());
  EXPECT_FALSE(h->circuit_by_id("porep-32g", "/p").has_value());
  bool served = false;
  for (const auto& b : builtin_handlers()) served |= b->kind() == proof_kind::snap_deals_update;
  EXPECT_TRUE(served);
}

TEST_F(engine_snap, hostile_requests_are_refused_by_name) {
  const auto h = snap_update_handler();
  ASSERT_TRUE(h->check(good()).ok()) << h->check(good()).to_string();
  auto refused = [&](const proof_request& r, const char* words) {
    const status s = h->check(r);
    EXPECT_EQ(s.code(), status_code::invalid_argument) << words;
    EXPECT_NE(s.message().find(words), std::string::npos) << s.to_string();
  };
  proof_request r = good();
  r.registered_proof = 5;
  refused(r, "registered_proof");
  r = good();
  r.registered_proof = uint64_t(1) << 40;
  refused(r, "registered_proof");
  r = good();
  r.registered_proof = filecoin::snap::id_of(registered_update_proof::stacked_drg_32gib_v1);
  refused(r, "1 vanilla proofs, StackedDrg32GiBV1 has 16 partitions");
  r = good();
  r.comm_r_old.pop_back();
  refused(r, "comm_r_old has 31 bytes, not 32");
  r = good();
  r.comm_d_new.clear();
  refused(r, "comm_d_new has 0 bytes, not 32");
  r = good();
  std::fill(r.comm_r_new.begin(), r.comm_r_new.end(), uint8_t(0xff));
  refused(r, "comm_r_new");
  r = good();
  r.vanilla_proofs.clear();
  refused(r, "0 vanilla proofs");
  r = good();
  r.vanilla_proofs.push_back(good().vanilla_proofs[0]);
  refused(r, "2 vanilla proofs");
  r = good();
  r.vanilla_proofs[0].resize(r.vanilla_proofs[0].size() - 100);
  refused(r, "vanilla_proofs[0] has 14964 bytes, a StackedDrg2KiBV1 PartitionProof has 15064");
  r = good();
  r.vanilla_proofs[0].resize(uint64_t(1) << 20);
  refused(r, "vanilla_proofs[0] has 1048576 bytes");
  r = good();
  // The apex_leafs count (after comm_c) made huge: refused before anything is allocated.
  std::fill_n(r.vanilla_proofs[0].begin() + 32, 8, uint8_t(0xff));
  refused(r, "vanilla_proofs[0]");
  r = good();
  std::fill_n(r.vanilla_proofs[0].begin() + 32, 8, uint8_t(0));
  r.vanilla_proofs[0][32] = 9;  // one apex leaf too many: the rest no longer lines up
  refused(r, "vanilla_proofs[0]");
}

TEST_F(engine_snap, proves_through_the_engine_and_survives_a_bad_vanilla_proof) {
  engine_config cfg;
  cfg.param_dir = g_state->params_dir;
  cfg.prover_threads = 2;
  cfg.synthesis_workers = 1;
  cfg.host_memory_budget = uint64_t(6) << 30;
  test_worker::choose(cfg);
  auto e = proving_engine::create(cfg);
  ASSERT_TRUE(e.ok()) << e.error().to_string();

  // Refused at submit, never queued.
  proof_request wrong = good();
  wrong.request_id = "snap-wrong-proof";
  wrong.registered_proof = filecoin::snap::id_of(registered_update_proof::stacked_drg_8mib_v1);
  EXPECT_EQ((*e)->submit(wrong).error().code(), status_code::invalid_argument);
  proof_request truncated = good();
  truncated.request_id = "snap-truncated";
  truncated.vanilla_proofs[0].resize(1000);
  EXPECT_EQ((*e)->submit(truncated).error().code(), status_code::invalid_argument);

  // A tampered Merkle path decodes but does not verify: the job fails in prepare, naming it.
  proof_request tampered = good();
  tampered.request_id = "snap-tampered";
  auto part = filecoin::snap::parse_partition_proof(tampered.vanilla_proofs[0]);
  ASSERT_TRUE(part.ok()) << part.error().to_string();
  part->challenge_proofs[4].proof_r_old.hashes[3][0] ^= 1;
  tampered.vanilla_proofs[0] = filecoin::snap::serialize_partition_proof(*part);
  auto ts = (*e)->submit(tampered);
  ASSERT_TRUE(ts.ok()) << ts.error().to_string();
  auto t = (*e)->await(ts->job_id, 600s);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->state, job_state::failed);
  EXPECT_EQ(t->error.code(), status_code::invalid_argument);
  EXPECT_NE(t->error.message().find("challenge 4"), std::string::npos) << t->error.to_string();

  // The engine goes on: the good request proves and verifies.
  auto s = (*e)->submit(good());
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_FALSE(s->attached);
  auto r = (*e)->await(s->job_id, 1200s);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->state, job_state::completed) << r->error.to_string();
  ASSERT_EQ(r->proof.size(), 192u);
  EXPECT_EQ(r->timings.partitions.at(0).worker, test_worker::name());
  EXPECT_TRUE(verifies(good(), r->proof));
  const auto& tm = r->timings;
  std::fprintf(stderr,
               "[engine] %s: queue %.0f ms, prepare %.0f ms, srs %.0f ms, synthesis %.0f ms, "
               "prove %.0f ms, verify %.0f ms, total %.0f ms\n",
               s->job_id.c_str(), tm.queue_wait, tm.prepare, tm.srs_load, tm.synthesis, tm.prove,
               tm.verify, tm.total);
  // The same proof does not verify another update's commitments.
  proof_request other = good();
  other.comm_d_new[0] ^= 1;
  EXPECT_FALSE(verifies(other, r->proof));

  const engine_status st = (*e)->status();
  EXPECT_EQ(st.completed, 1u);
  EXPECT_EQ(st.failed, 1u);
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].circuit_id, "snap-2k");
  (*e)->shutdown();
}

}  // namespace
}  // namespace cuzk::engine
