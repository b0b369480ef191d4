// SPDX-License-Identifier: Apache-2.0
// End to end 2 KiB PoRep (label e2e): seal a sector, C1, prove with the shared 2 KiB parameters
// (ctest fixture porep_2k_params: `cuzk params generate`, seeded), verify;
// a tampered proof, another sector id or prover id are rejected; a C1 with one corrupted path
// sibling makes proving fail with a clear status (vanilla check, or self-verification when that
// check is off), never an invalid proof.
#include "filecoin/proofs/porep_prover.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "sealed_sectors.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::proofs {
namespace {

using filecoin::porep::registered_seal_proof;

/// The default batched subgroup check costs ≈ 270 s per load of the 2 KiB parameters on 2 cores;
/// it is the subject of params_io_test and tests/e2e/params_blame.sh, not of these cases, which
/// load with the curve check only.
prove_options_t on_curve_loads() {
  prove_options_t opt;
  opt.params_checks = groth16::point_checks::on_curve_only;
  return opt;
}

struct shared_state {
  std::string dir;
  filecoin::porep::c1_output_t c1;
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
      prove_timings_t tm;
      auto p = prove_porep(state_->c1, state_->who, state_->dir, thread_pool::default_pool(), &tm,
                           on_curve_loads());
      EXPECT_TRUE(p.ok()) << p.error().to_string();
      if (p.ok()) state_->proof = *p;
      const auto& t = tm.prover;
      std::fprintf(stderr,
                   "[prove] vanilla %.2f s, params load %.1f s, synthesis %.1f s, prove %.1f s "
                   "(ntt %.1f s, h %.1f s, msm h/l/a/b1/b2 %.1f/%.1f/%.1f/%.1f/%.1f s), "
                   "self-verify %.2f s, total %.1f s, peak RSS %.0f MiB\n",
                   tm.vanilla_check, tm.params_load, tm.synthesis, tm.prove,
                   (t.ntt_a + t.ntt_b + t.ntt_c) / 1e3, t.h_compute / 1e3, t.msm_h / 1e3,
                   t.msm_l / 1e3, t.msm_a / 1e3, t.msm_b_g1 / 1e3, t.msm_b_g2 / 1e3, tm.self_verify,
                   tm.total, double(peak_rss_bytes()) / (1 << 20));
    }
    return state_->proof;
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
  auto p = prove_porep(state_->c1, other_sector, state_->dir, thread_pool::default_pool());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message().find("replica_id"), std::string::npos) << p.error().to_string();
}

TEST_F(porep_e2e, corrupted_path_fails_clearly) {
  filecoin::porep::c1_output_t bad = state_->c1;
  auto& hashes = bad.vanilla_proofs[0][0].comm_r_last_proof.hashes;
  ASSERT_FALSE(hashes.empty());
  hashes[0][3] ^= 0x10;  // low bytes: stays a canonical Fr
  auto p = prove_porep(bad, state_->who, state_->dir, thread_pool::default_pool());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message().find("vanilla"), std::string::npos) << p.error().to_string();

  // Without the native check the circuit is unsatisfied and self-verification catches it.
  prove_options_t opt = on_curve_loads();
  opt.check_vanilla = false;
  auto q = prove_porep(bad, state_->who, state_->dir, thread_pool::default_pool(), nullptr, opt);
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.error().message().find("proof self-verification failed: the C1 is inconsistent"),
            std::string::npos)
      << q.error().to_string();
}

}  // namespace
}  // namespace cuzk::filecoin::proofs
