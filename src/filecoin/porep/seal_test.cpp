// SPDX-License-Identifier: Apache-2.0
// Sealing and vanilla proofs: 2 KiB sectors of every variant (V1, V1_1, SyntheticPoRep,
// NonInteractivePoRep) with zero and random data → C1 → every Merkle path verified natively
// against comm_d / comm_c / comm_r_last, labels recomputed from the labeling proofs, comm_r =
// Poseidon_2(comm_c, comm_r_last), challenges re-derived; tampering is caught; the JSON form
// round-trips; the out-dir files have the documented layout. 8 MiB once (a few seconds).
#include "filecoin/porep/seal.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "base/hex.hpp"
#include "filecoin/common/commp.hpp"
#include "filecoin/common/fr32.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::porep {
namespace {

using common::commp_of;
using common::fr32_unpadded_size;
using common::zero_comm;
using ff::fr_t;

seal_request_t request(registered_seal_proof p) {
  seal_request_t r;
  r.config = *porep_config(p);
  r.prover_id = prover_id_from_actor(1000);
  r.sector_id = 7;
  r.ticket.fill(1);
  return r;
}

void check_sealed(const sealed_sector_t& s) {
  const fr_t pair[2] = {s.tree_c.root(), s.tree_r_last.root()};
  EXPECT_EQ(s.comm_r, hash::fr_to_bytes(hash::poseidon_hash(std::span<const fr_t>(pair, 2))));
  EXPECT_EQ(s.comm_d, s.tree_d.root());
  const unsigned L = s.config().layers();
  for (uint64_t v = 0; v < s.config().nodes(); v += 7) {
    fr_t label, data;
    ASSERT_TRUE(hash::bytes_to_fr(s.labels.at(L, v), label));
    ASSERT_TRUE(hash::bytes_to_fr(s.tree_d.leaves()[v], data));
    EXPECT_EQ(s.replica()[v], label + data);
    EXPECT_EQ(s.tree_c.leaves()[v], column_hash(s.labels, v));
  }
}

TEST(seal, cc_2kib_every_variant_c1_verifies) {
  bytes32_t seed;
  seed.fill(2);
  for (auto p :
       {registered_seal_proof::stacked_drg_2kib_v1, registered_seal_proof::stacked_drg_2kib_v1_1,
        registered_seal_proof::stacked_drg_2kib_v1_1_feat_synthetic_porep,
        registered_seal_proof::stacked_drg_2kib_v1_2_feat_non_interactive_porep}) {
    SCOPED_TRACE(std::string(name_of(p)));
    auto s = seal_sector(request(p), {});
    ASSERT_TRUE(s.ok()) << s.error().to_string();
    EXPECT_EQ(s->comm_d, zero_comm(6));  // a CC sector's comm_d (docs/spec/porep.md §5)
    check_sealed(*s);
    auto c1 = seal_commit_phase1(*s, seed);
    ASSERT_TRUE(c1.ok());
    EXPECT_EQ(c1->vanilla_proofs.size(), s->config().partitions());
    EXPECT_EQ(c1->vanilla_proofs[0].size(), s->config().challenges_per_partition());
    const status st = verify_c1_output(*c1, s->config());
    EXPECT_TRUE(st.ok()) << st.to_string();
  }
}

TEST(seal, random_data_c1_verifies_and_tampering_is_caught) {
  auto rng = test::test_rng::from_env("seal_random");
  std::vector<uint8_t> payload(fr32_unpadded_size(2048) - 100);
  for (auto& b : payload) b = uint8_t(rng());
  auto req = request(registered_seal_proof::stacked_drg_2kib_v1_1);
  for (auto& b : req.ticket) b = uint8_t(rng());
  req.sector_id = rng();
  auto s = seal_sector(req, payload);
  ASSERT_TRUE(s.ok());
  check_sealed(*s);
  // comm_d is the commP of the payload zero-extended to the sector.
  std::vector<uint8_t> full(fr32_unpadded_size(2048), 0);
  std::copy(payload.begin(), payload.end(), full.begin());
  EXPECT_EQ(s->comm_d, commp_of(full).comm);
  bytes32_t seed;
  for (auto& b : seed) b = uint8_t(rng());
  auto c1 = seal_commit_phase1(*s, seed);
  ASSERT_TRUE(c1.ok());
  const porep_config_t& cfg = s->config();
  ASSERT_TRUE(verify_c1_output(*c1, cfg).ok()) << verify_c1_output(*c1, cfg).to_string();

  // Every part of a proof is bound: flip one byte and the verifier names what broke.
  const auto expect_bad = [&](auto&& mutate, const char* what) {
    c1_output_t bad = *c1;
    mutate(bad.vanilla_proofs[0][1]);
    const status st = verify_c1_output(bad, cfg);
    EXPECT_FALSE(st.ok()) << what;
  };
  expect_bad([](challenge_proof_t& p) { p.comm_d_proofs.leaf[0] ^= 1; }, "comm_d leaf");
  expect_bad([](challenge_proof_t& p) { p.comm_d_proofs.hashes[3][5] ^= 1; }, "comm_d sibling");
  expect_bad([](challenge_proof_t& p) { p.comm_r_last_proof.hashes[0][0] ^= 1; }, "tree_r sibling");
  expect_bad([](challenge_proof_t& p) { p.replica_column_proofs.c_x.column.rows[0][0] ^= 1; },
             "c_x row");
  expect_bad(
      [](challenge_proof_t& p) { p.replica_column_proofs.exp_parents[7].column.rows[1][2] ^= 1; },
      "exp parent row");
  expect_bad([](challenge_proof_t& p) { p.replica_column_proofs.drg_parents[2].column.index ^= 1; },
             "drg parent index");
  expect_bad([](challenge_proof_t& p) { p.labeling_proofs[1].parents[36][0] ^= 1; }, "label slot");
  expect_bad([](challenge_proof_t& p) { p.encoding_proof.parents[0][0] ^= 1; }, "encoding");
  expect_bad([](challenge_proof_t& p) { p.comm_r_last_proof.leaf[1] ^= 1; }, "replica leaf");
  c1_output_t bad = *c1;
  bad.seed[0] ^= 1;
  EXPECT_FALSE(verify_c1_output(bad, cfg).ok()) << "seed";
  bad = *c1;
  bad.comm_r[0] ^= 1;
  EXPECT_FALSE(verify_c1_output(bad, cfg).ok()) << "comm_r";
  bad = *c1;
  bad.replica_id[0] ^= 1;
  EXPECT_FALSE(verify_c1_output(bad, cfg).ok()) << "replica_id";

  // seal → C1 → JSON → C1 round trip.
  auto json = write_c1_json(*c1);
  ASSERT_TRUE(json.ok()) << json.error().to_string();
  auto back = parse_c1_json(*json);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(*back == *c1);
  EXPECT_TRUE(verify_c1_output(*back, cfg).ok());
}

TEST(seal, curio_comm_d_vector) {
  // curio lib/proof/treed_build_test.go (docs/spec/porep.md §10): a 2 KiB sector whose first byte
  // is 1, the rest zero.
  auto s =
      seal_sector(request(registered_seal_proof::stacked_drg_2kib_v1_1), std::vector<uint8_t>{1});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(cuzk::to_hex(s->comm_d),
            "ea995c54784720b449fc92b070adb6cf6635c2619a7a5e0054a24e88f252ec0d");
}

TEST(seal, deterministic_and_out_dir_layout) {
  const auto req = request(registered_seal_proof::stacked_drg_2kib_v1_1);
  const std::vector<uint8_t> payload(500, 0xab);
  auto a = seal_sector(req, payload), b = seal_sector(req, payload);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->comm_r, b->comm_r);
  const auto dir =
      std::filesystem::temp_directory_path() / ("cuzk_seal_test_" + std::to_string(::getpid()));
  ASSERT_TRUE(write_sealed_sector(*a, dir.string()).ok());
  const auto size = [&](const char* f) { return std::filesystem::file_size(dir / f); };
  EXPECT_EQ(size("unsealed"), 2048u);
  EXPECT_EQ(size("sealed"), 2048u);
  EXPECT_EQ(size("sc-02-data-tree-d.dat"), 127u * 32);           // 64 + 32 + … + 1 nodes
  EXPECT_EQ(size("sc-02-data-tree-c.dat"), (64u + 8 + 1) * 32);  // 8-0-0
  EXPECT_EQ(size("sc-02-data-tree-r-last.dat"), (64u + 8 + 1) * 32);
  EXPECT_EQ(size("sc-02-data-layer-1.dat"), 2048u);
  EXPECT_EQ(size("sc-02-data-layer-2.dat"), 2048u);
  std::ifstream p(dir / "p_aux", std::ios::binary);
  uint8_t aux[64];
  p.read(reinterpret_cast<char*>(aux), 64);
  EXPECT_TRUE(std::equal(aux, aux + 32, a->comm_c.begin()));
  EXPECT_TRUE(std::equal(aux + 32, aux + 64, a->comm_r_last.begin()));
  std::filesystem::remove_all(dir);
  // Bad inputs.
  EXPECT_FALSE(seal_sector(req, std::vector<uint8_t>(2033)).ok());
  std::vector<hash::bytes32_t> leaves(64);
  leaves[3].fill(0xff);
  EXPECT_EQ(seal_padded_sector(req, leaves).error().code(), status_code::non_canonical);
  auto big = req;
  big.config = *porep_config(registered_seal_proof::stacked_drg_32gib_v1_1);
  EXPECT_EQ(seal_sector(big, {}).error().code(), status_code::invalid_argument);
}

TEST(seal, eight_mib_cc_c1_verifies) {
  auto s = seal_sector(request(registered_seal_proof::stacked_drg_8mib_v1_1), {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->comm_d, zero_comm(18));
  std::printf(
      "8 MiB seal: parents %.2f s, tree_d %.2f s, labels %.2f s, tree_c %.2f s, "
      "tree_r_last %.2f s\n",
      s->timings.parents, s->timings.tree_d, s->timings.labels, s->timings.tree_c,
      s->timings.tree_r_last);
  bytes32_t seed;
  seed.fill(3);
  auto c1 = seal_commit_phase1(*s, seed);
  ASSERT_TRUE(c1.ok());
  EXPECT_TRUE(verify_c1_output(*c1, s->config()).ok());
}

// An end-to-end oracle from upstream: lotus-bench's `simple` command documents its sealing of a
// 2 KiB CC sector with its defaults — miner t01000 (prover_id = LEB128(1000)), sector 1,
// StackedDrg2KiBV1_1, ticket 32 zero bytes (the default from 2022-03 to 2023-11) — as
// d:baga6ea4seaqpy7usqklokfx2vxuynmupslkeutzexe2uqurdg5vhtebhxqmpqmy and
// r:bagboea4b5abcbrshxgmmpaucffwp2elaofbcrvb7hmcu3653o4lsw2arlor4hn3c (filecoin-project/lotus,
// cmd/lotus-bench/simple.go, the help text of simpleCmd; the hex below is the CIDs' digests).
// Real rust-fil-proofs output: the whole labeling, both trees and the comm_r hash at once.
TEST(seal, lotus_bench_2kib_cc_comm_r) {
  seal_request_t r;
  r.config = *porep_config(registered_seal_proof::stacked_drg_2kib_v1_1);
  r.prover_id = prover_id_from_actor(1000);
  r.sector_id = 1;
  r.ticket.fill(0);
  auto s = seal_sector(r, {});
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(cuzk::to_hex(s->comm_d),
            "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  EXPECT_EQ(cuzk::to_hex(s->comm_r),
            "c647b998c78282296cfd1160714228d43f3b054dfbbb77172b68115ba3c3b762");
}

}  // namespace
}  // namespace cuzk::filecoin::porep
