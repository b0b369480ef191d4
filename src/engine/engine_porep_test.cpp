// SPDX-License-Identifier: Apache-2.0
// 2 KiB PoRep C2 through the engine on the CPU prover (label e2e): two sealed sectors submitted
// concurrently as Curio sends them (the {"SectorNum","Phase1Out","SectorSize"} wrapper, miner and
// sector ids), both proofs checked by filecoin::proofs::verify_porep against the .vk file (the
// verification path of `cuzk verify porep`, not the engine's); a C1 sent with another sector
// number fails naming the replica_id; an identical re-submit attaches to the finished job.
// Parameters: the shared 2 KiB set of the ctest fixture porep_2k_params ($CUZK_TEST_PARAMS_DIR).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cuzk/engine.hpp"
#include "engine/engine_test_worker.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "sealed_sectors.hpp"
#include "test_rng.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using filecoin::porep::registered_seal_proof;

using sealed_sector = test::sealed_c1;

struct shared_state {
  std::string dir;
  std::vector<sealed_sector> sectors;
};
shared_state* g_state = nullptr;

class engine_porep : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto st = std::make_unique<shared_state>();
    auto rng = test::test_rng::from_env("engine_porep");
    for (int i = 0; i < 2; ++i) st->sectors.push_back(test::seal_random_2kib_c1(rng));
    // The shared 2 KiB parameters (ctest fixture porep_2k_params).
    const char* dir = std::getenv("CUZK_TEST_PARAMS_DIR");
    ASSERT_NE(dir, nullptr) << "CUZK_TEST_PARAMS_DIR is not set (run through ctest: the "
                               "porep_2k_params fixture generates the parameters)";
    st->dir = dir;
    g_state = st.release();
  }
  static void TearDownTestSuite() {
    if (!g_state) return;
    delete g_state;
    g_state = nullptr;
  }
  void SetUp() override { ASSERT_NE(g_state, nullptr) << "shared setup failed"; }

  static proof_request request_for(const sealed_sector& s) {
    proof_request r;
    r.request_id = "porep-" + std::to_string(s.miner) + "-" + std::to_string(s.sector);
    r.kind = proof_kind::porep_seal_commit;
    r.sector_size = 2048;
    r.registered_proof = uint64_t(registered_seal_proof::stacked_drg_2kib_v1_1);
    r.prio = priority::normal;
    r.vanilla_proof.assign(s.wrapper.begin(), s.wrapper.end());
    r.sector_number = s.sector;
    r.miner_id = s.miner;
    return r;
  }
};

TEST_F(engine_porep, concurrent_sectors_prove_and_verify) {
  engine_config cfg;
  cfg.param_dir = g_state->dir;
  cfg.prover_threads = 2;
  cfg.synthesis_workers = 2;
  cfg.host_memory_budget = uint64_t(8) << 30;
  test_worker::choose(cfg);
  const bool gpu = test_worker::on_gpu();
  auto e = proving_engine::create(cfg);
  ASSERT_TRUE(e.ok()) << e.error().to_string();

  std::vector<std::string> ids;
  for (const auto& s : g_state->sectors) {
    auto r = (*e)->submit(request_for(s));
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    ids.push_back(r->job_id);
  }
  proof_request wrong = request_for(g_state->sectors[0]);
  wrong.request_id = "porep-wrong-sector";
  wrong.sector_number += 1;
  auto wr = (*e)->submit(wrong);
  ASSERT_TRUE(wr.ok());

  for (size_t i = 0; i < ids.size(); ++i) {
    auto r = (*e)->await(ids[i], 1200s);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->state, job_state::completed) << r->error.to_string();
    ASSERT_EQ(r->proof.size(), 192u);
    EXPECT_EQ(r->timings.partitions.at(0).worker, gpu ? "gpu 0" : "cpu");
    const sealed_sector& s = g_state->sectors[i];
    const filecoin::proofs::prover_identity_t who{filecoin::porep::prover_id_from_actor(s.miner),
                                                  s.sector};
    auto ok = filecoin::proofs::verify_porep(s.c1, who, r->proof, g_state->dir);
    ASSERT_TRUE(ok.ok()) << ok.error().to_string();
    EXPECT_TRUE(*ok) << ids[i];
    const auto& t = r->timings;
    std::fprintf(stderr,
                 "[engine] %s: queue %.0f ms, prepare %.0f ms, srs %.0f ms, synthesis %.0f ms, "
                 "prove %.0f ms, finalize %.0f ms, verify %.0f ms, total %.0f ms\n",
                 ids[i].c_str(), t.queue_wait, t.prepare, t.srs_load, t.synthesis, t.prove,
                 t.finalize, t.verify, t.total);
  }
  auto w = (*e)->await(wr->job_id, 600s);
  ASSERT_EQ(w->state, job_state::failed);
  EXPECT_NE(w->error.message().find("replica_id"), std::string::npos) << w->error.to_string();

  auto again = (*e)->submit(request_for(g_state->sectors[0]));
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->attached);
  EXPECT_EQ(again->job_id, ids[0]);

  const engine_status st = (*e)->status();
  EXPECT_EQ(st.completed, 2u);
  EXPECT_EQ(st.failed, 1u);
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].circuit_id, "porep-2k");
  EXPECT_GT(st.peak_rss, 0u);
  (*e)->shutdown();
}

}  // namespace
}  // namespace cuzk::engine
