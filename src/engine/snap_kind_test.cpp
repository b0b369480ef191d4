// SPDX-License-Identifier: Apache-2.0
// SnapDeals end to end through the SnapDeals kind's recipe (snap_kind.cpp) on the CPU prover
// (label e2e): the shared 2 KiB parameters (ctest fixture snap_2k_params, a 1.7 M-row setup under
// the official names); a sector sealed in memory, new data encoded, its vanilla PartitionProof,
// proven and self-verified on an engine as `cuzk prove snap` does, then verified with
// filecoin::proofs::verify_update; a flipped proof byte, another comm_r_new or comm_d_new fail
// verification; a tampered vanilla path is refused by the vanilla check and, with the check off,
// by self-verification; a wrong partition count is refused.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "engine/engine_test_worker.hpp"
#include "filecoin/proofs/snap_prover.hpp"
#include "filecoin/snap/encode.hpp"
#include "filecoin/snap/synthetic.hpp"
#include "sealed_sectors.hpp"

namespace cuzk::filecoin::proofs {
namespace {

using filecoin::snap::registered_update_proof;
constexpr auto SNAP_2KIB = registered_update_proof::stacked_drg_2kib_v1;

/// The request Curio sends for `in` (each PartitionProof in its bincode); prove_once loads the
/// parameters with the curve check only.
engine::proof_request request_of(const update_inputs_t& in) {
  engine::proof_request r;
  r.kind = engine::proof_kind::snap_deals_update;
  r.registered_proof = filecoin::snap::id_of(in.proof);
  r.sector_size = filecoin::snap::sector_size_of(in.proof);
  for (const auto& p : in.partitions)
    r.vanilla_proofs.push_back(filecoin::snap::serialize_partition_proof(p));
  r.comm_r_old.assign(in.comms.comm_r_old.begin(), in.comms.comm_r_old.end());
  r.comm_r_new.assign(in.comms.comm_r_new.begin(), in.comms.comm_r_new.end());
  r.comm_d_new.assign(in.comms.comm_d_new.begin(), in.comms.comm_d_new.end());
  return r;
}

result<std::vector<uint8_t>> prove_update(
    const update_inputs_t& in, const std::string& dir,
    engine::handler_list handlers = engine::builtin_handlers(),
    engine::job_timings* timings = nullptr) {
  return engine::test_worker::prove_once(request_of(in), dir, std::move(handlers), timings);
}

struct shared_state {
  std::string params_dir;
  update_inputs_t inputs;
};
shared_state* g_state = nullptr;

class snap_prover : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto st = std::make_unique<shared_state>();
    // The shared 2 KiB parameters (ctest fixture snap_2k_params, tests/CMakeLists.txt).
    const char* dir = std::getenv("CUZK_TEST_SNAP_PARAMS_DIR");
    ASSERT_NE(dir, nullptr) << "CUZK_TEST_SNAP_PARAMS_DIR is not set (run through ctest: the "
                               "snap_2k_params fixture generates the parameters)";
    st->params_dir = dir;

    auto s = test::update_2kib(33, 3, 1);
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    st->inputs.proof = SNAP_2KIB;
    st->inputs.comms = filecoin::snap::commitments_of(*s);
    st->inputs.partitions.push_back(*filecoin::snap::prove_partition(*s, 0));
    g_state = st.release();
  }
  static void TearDownTestSuite() {
    delete g_state;
    g_state = nullptr;
  }
  void SetUp() override { ASSERT_NE(g_state, nullptr) << "shared setup failed"; }

  static std::string dir() { return g_state->params_dir; }
  static const update_inputs_t& inputs() { return g_state->inputs; }
};

TEST_F(snap_prover, prove_verify_and_rejections) {
  engine::job_timings tm;
  auto proof = prove_update(inputs(), dir(), engine::builtin_handlers(), &tm);
  ASSERT_TRUE(proof.ok()) << proof.error().to_string();
  ASSERT_EQ(proof->size(), 192u);
  EXPECT_EQ(tm.partitions.size(), 1u);
  std::fprintf(stderr, "[snap] prove: synthesis %.2f s, prove %.2f s, total %.2f s\n",
               tm.synthesis / 1e3, (tm.prove + tm.finalize) / 1e3, tm.total / 1e3);

  auto ok = verify_update(SNAP_2KIB, inputs().comms, *proof, dir());
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_TRUE(*ok);

  std::vector<uint8_t> flipped = *proof;
  flipped[100] ^= 1;
  auto bad = verify_update(SNAP_2KIB, inputs().comms, flipped, dir());
  EXPECT_TRUE(!bad.ok() || !*bad) << "a flipped proof byte";

  for (int which = 0; which < 2; ++which) {
    filecoin::snap::update_commitments_t comms = inputs().comms;
    (which == 0 ? comms.comm_r_new : comms.comm_d_new)[0] ^= 1;
    auto v = verify_update(SNAP_2KIB, comms, *proof, dir());
    ASSERT_TRUE(v.ok()) << v.error().to_string();
    EXPECT_FALSE(*v) << (which == 0 ? "comm_r_new" : "comm_d_new");
  }

  auto two = verify_update(SNAP_2KIB, inputs().comms, std::vector<uint8_t>(384), dir());
  EXPECT_FALSE(two.ok());
}

// A synthetic update (the 32 GiB benchmark's input, snap/synthetic.hpp) is a satisfiable witness
// of the real circuit: it proves and verifies under its own commitments only.
TEST_F(snap_prover, synthetic_update_proves) {
  auto u = filecoin::snap::generate_synthetic_update(*filecoin::snap::update_config(SNAP_2KIB), 11);
  ASSERT_TRUE(u.ok()) << u.error().to_string();
  update_inputs_t in;
  in.proof = SNAP_2KIB;
  in.comms = u->commitments;
  auto parts = filecoin::snap::parse_partition_proofs(u->partition_proofs);
  ASSERT_TRUE(parts.ok());
  in.partitions = *parts;
  auto proof = prove_update(in, dir());
  ASSERT_TRUE(proof.ok()) << proof.error().to_string();
  auto ok = verify_update(SNAP_2KIB, in.comms, *proof, dir());
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_TRUE(*ok);
  auto other = verify_update(SNAP_2KIB, inputs().comms, *proof, dir());
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(*other);
}

TEST_F(snap_prover, tampered_vanilla_is_never_proven) {
  update_inputs_t in = inputs();
  in.partitions[0].challenge_proofs[4].proof_r_old.hashes[3][0] ^= 1;
  auto refused = prove_update(in, dir());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), status_code::invalid_argument);
  EXPECT_NE(refused.error().message().find("challenge 4"), std::string::npos)
      << refused.error().to_string();

  auto unsat = prove_update(in, dir(), {engine::snap_update_handler({.check_vanilla = false})});
  ASSERT_FALSE(unsat.ok());
  EXPECT_EQ(unsat.error().code(), status_code::invalid_argument) << unsat.error().to_string();

  update_inputs_t none = inputs();
  none.partitions.clear();
  EXPECT_EQ(prove_update(none, dir()).error().code(), status_code::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin::proofs
