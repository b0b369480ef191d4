// SPDX-License-Identifier: Apache-2.0
// End to end 2 KiB PoRep through the PoRep kind's recipe (porep_kind.cpp, label e2e): seal a
// sector, C1, prove one request on an engine as `cuzk prove porep` does, with the shared 2 KiB
// parameters (ctest fixture porep_2k_params: `cuzk params generate`, seeded), verify with
// filecoin::proofs::verify_porep; a tampered proof, another sector id or prover id are rejected; a
// C1 with one corrupted path sibling makes proving fail with a clear status (vanilla check, or
// self-verification when that check is off), never an invalid proof.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "engine/engine_test_worker.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "sealed_sectors.hpp"
#include "test_rng.hpp"

namespace cuzk::engine {
namespace {

using filecoin::porep::registered_seal_proof;
using filecoin::proofs::prover_identity_t;
using filecoin::proofs::verify_porep;

/// The request Curio sends for `c1` of miner `miner`, sector `sector` (the wrapper JSON).
proof_request request_for(const filecoin::porep::c1_output_t& c1, uint64_t miner, uint64_t sector) {
  proof_request r;
  r.kind = proof_kind::porep_seal_commit;
  r.registered_proof = uint64_t(*filecoin::porep::parse_registered_seal_proof(c1.registered_proof));
  auto w = filecoin::porep::c1_to_wrapper_json(c1, sector);
  EXPECT_TRUE(w.ok()) << w.error().to_string();
  if (w.ok()) r.vanilla_proof.assign(w->begin(), w->end());
  r.miner_id = miner;
  r.sector_number = sector;
  return r;
}

struct shared_state {
  std::string dir;
  filecoin::porep::c1_output_t c1;
  uint64_t miner = 0;
  prover_identity_t who;
  std::vector<uint8_t> proof;
};

class porep_e2e : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto st = std::make_unique<shared_state>();
    auto rng = test::test_rng::from_env("porep_e2e");
    test::sealed_c1 sealed = test::seal_random_2kib_c1(rng);
    st->c1 = std::move(sealed.c1);
    st->miner = sealed.miner;
    st->who = {filecoin::porep::prover_id_from_actor(sealed.miner), sealed.sector};

    // The shared 2 KiB parameters (ctest fixture porep_2k_params, tests/CMakeLists.txt).
    const char* dir = std::getenv("CUZK_TEST_PARAMS_DIR");
    ASSERT_NE(dir, nullptr) << "CUZK_TEST_PARAMS_DIR is not set (run through ctest: the "
                               "porep_2k_params fixture generates the parameters)";
    st->dir = dir;
    state_ = st.release();
  }
  static void TearDownTestSuite() {
    delete state_;
    state_ = nullptr;
  }
  void SetUp() override {
    if (!state_) GTEST_SKIP() << "shared setup failed";
  }
  // The valid proof, made once by the first case that needs it.
  static const std::vector<uint8_t>& valid_proof() {
    if (state_->proof.empty()) {
      job_timings tm;
      auto p = test_worker::prove_once(own_request(), state_->dir, builtin_handlers(), &tm);
      EXPECT_TRUE(p.ok()) << p.error().to_string();
      if (p.ok()) state_->proof = *p;
      std::fprintf(stderr,
                   "[prove] decode and checks %.2f s, params load %.1f s, synthesis %.1f s, "
                   "prove %.1f s, self-verify %.2f s, total %.1f s, peak RSS %.0f MiB\n",
                   tm.prepare / 1e3, tm.srs_load / 1e3, tm.synthesis / 1e3,
                   (tm.prove + tm.finalize) / 1e3, tm.verify / 1e3, tm.total / 1e3,
                   double(filecoin::proofs::peak_rss_bytes()) / (1 << 20));
    }
    return state_->proof;
  }
  static proof_request own_request() {
    return request_for(state_->c1, state_->miner, state_->who.sector_id);
  }
  static shared_state* state_;
};
shared_state* porep_e2e::state_ = nullptr;

TEST_F(porep_e2e, prove_then_verify) {
  const auto& proof = valid_proof();
  ASSERT_EQ(proof.size(), 192u);
  auto ok = verify_porep(state_->c1, state_->who, proof, state_->dir);
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_TRUE(*ok);
  // Without an identity the C1's replica_id is used: the same public inputs.
  auto ok2 = verify_porep(state_->c1, std::nullopt, proof, state_->dir);
  ASSERT_TRUE(ok2.ok()) << ok2.error().to_string();
  EXPECT_TRUE(*ok2);
}

TEST_F(porep_e2e, tampered_proof_rejected) {
  const auto& proof = valid_proof();
  ASSERT_FALSE(proof.empty());
  for (size_t at : {size_t(5), size_t(60), size_t(150), size_t(191)}) {
    std::vector<uint8_t> bad = proof;
    bad[at] ^= 0x01;
    auto ok = verify_porep(state_->c1, state_->who, bad, state_->dir);
    EXPECT_TRUE(!ok.ok() || !*ok) << "byte " << at;
  }
  std::vector<uint8_t> twice = proof;
  twice.insert(twice.end(), proof.begin(), proof.end());
  EXPECT_FALSE(verify_porep(state_->c1, state_->who, twice, state_->dir).ok());
}

TEST_F(porep_e2e, wrong_public_inputs_rejected) {
  const auto& proof = valid_proof();
  ASSERT_FALSE(proof.empty());
  prover_identity_t other_sector = state_->who;
  other_sector.sector_id += 1;
  auto a = verify_porep(state_->c1, other_sector, proof, state_->dir);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  EXPECT_FALSE(*a);
  prover_identity_t other_prover = state_->who;
  other_prover.prover_id[0] ^= 1;
  auto b = verify_porep(state_->c1, other_prover, proof, state_->dir);
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  EXPECT_FALSE(*b);
  // Proving for an identity that does not match the C1's replica_id is refused up front.
  auto p = test_worker::prove_once(request_for(state_->c1, state_->miner, other_sector.sector_id),
                                   state_->dir);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message().find("replica_id"), std::string::npos) << p.error().to_string();
}

TEST_F(porep_e2e, corrupted_path_fails_clearly) {
  filecoin::porep::c1_output_t bad = state_->c1;
  auto& hashes = bad.vanilla_proofs[0][0].comm_r_last_proof.hashes;
  ASSERT_FALSE(hashes.empty());
  hashes[0][3] ^= 0x10;  // low bytes: stays a canonical Fr
  auto p =
      test_worker::prove_once(request_for(bad, state_->miner, state_->who.sector_id), state_->dir);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message().find("vanilla"), std::string::npos) << p.error().to_string();

  // Without the native check the circuit is unsatisfied and self-verification catches it.
  auto q = test_worker::prove_once(request_for(bad, state_->miner, state_->who.sector_id),
                                   state_->dir, {porep_handler({.check_vanilla = false})});
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.error().message().find("proof self-verification failed: the C1 is inconsistent"),
            std::string::npos)
      << q.error().to_string();
}

// An empty C1 is refused at submit (no registered proof), before anything is queued or a
// parameter is looked at: the PoRep kind's check(), for `cuzk prove porep` and the daemon alike.
TEST(porep_kind_checks, empty_c1_is_refused) {
  proof_request r;
  r.kind = proof_kind::porep_seal_commit;
  const std::string empty = "{}";
  r.vanilla_proof.assign(empty.begin(), empty.end());
  const status s = porep_handler()->check(r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_NE(s.message().find("registered_proof"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace cuzk::engine
