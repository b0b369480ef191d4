// SPDX-License-Identifier: Apache-2.0
// Registered seal proofs and sector configs against docs/spec/primitives.md §4, porep.md §1–§2: the
// 20-entry table round trip (names, ids, versions, features, sizes), porep_id bytes, prover_id
// LEB128 (actor 3751 → a7 1d, as in rust-filecoin-proofs-api's verify_window_post_test), per-size
// layers/partitions/challenges/tree shapes; a zero sector's comm_d (zero_comm of its tree_d depth,
// docs/spec/porep.md §5) at every size.
#include "filecoin/porep/config.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "filecoin/common/commp.hpp"
#include "filecoin/common/fr32.hpp"

namespace cuzk::filecoin::porep {
namespace {

TEST(porep_config, registered_table_round_trip) {
  const char* sizes[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
  const char* suffix[4] = {"V1", "V1_1", "V1_1_Feat_SyntheticPoRep",
                           "V1_2_Feat_NonInteractivePoRep"};
  for (uint32_t id = 0; id < NUM_REGISTERED_SEAL_PROOFS; ++id) {
    const auto p = registered_seal_proof_from_id(id);
    ASSERT_TRUE(p.ok());
    const std::string name = std::string("StackedDrg") + sizes[id % 5] + suffix[id / 5];
    EXPECT_EQ(name_of(*p), name);
    auto q = parse_registered_seal_proof(name);
    ASSERT_TRUE(q.ok()) << name;
    EXPECT_EQ(*q, *p);
    auto r = parse_registered_seal_proof(std::to_string(id));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, *p);
    EXPECT_EQ(sector_size_name(sector_size_of(*p)), sizes[id % 5]);
    EXPECT_EQ(version_of(*p), id < 5    ? api_version::v1_0_0
                              : id < 10 ? api_version::v1_1_0
                                        : api_version::v1_2_0);
    EXPECT_EQ(feature_of(*p), id < 10   ? api_feature::none
                              : id < 15 ? api_feature::synthetic_porep
                                        : api_feature::non_interactive_porep);
    auto cfg = porep_config(*p);
    ASSERT_TRUE(cfg.ok());
    EXPECT_EQ(cfg->proof, *p);
    EXPECT_EQ(cfg->graph(), id < 5 ? graph_version::v1_0 : graph_version::v1_1);
  }
  EXPECT_EQ(sector_size_of(registered_seal_proof::stacked_drg_32gib_v1_1), 32 * GiB);
  EXPECT_EQ(id_of(registered_seal_proof::stacked_drg_32gib_v1_1), 8u);
  EXPECT_FALSE(registered_seal_proof_from_id(20).ok());
  for (const char* bad :
       {"", "20", "StackedDrg2KiBV2", "stackeddrg2kibv1", "-1", "5x", "StackedDrg2KiB"})
    EXPECT_FALSE(parse_registered_seal_proof(bad).ok()) << bad;
}

TEST(porep_config, api_version_strings) {
  for (auto v : {api_version::v1_0_0, api_version::v1_1_0, api_version::v1_2_0}) {
    auto p = parse_api_version(to_string(v));
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(*p, v);
  }
  EXPECT_EQ(to_string(api_version::v1_2_0), "V1_2_0");
  EXPECT_FALSE(parse_api_version("V1_3_0").ok());
  EXPECT_EQ(to_string(api_feature::non_interactive_porep), "NonInteractivePoRep");
}

TEST(porep_config, porep_id_bytes) {
  const auto id =
      porep_id_of(registered_seal_proof::stacked_drg_64gib_v1_2_feat_non_interactive_porep);
  porep_id_t want{};
  want[0] = 19;
  EXPECT_EQ(id, want);
  EXPECT_EQ(porep_id_of(registered_seal_proof::stacked_drg_2kib_v1), porep_id_t{});
}

TEST(porep_config, prover_id_leb128) {
  const auto p = prover_id_from_actor(3751);
  EXPECT_EQ(p[0], 0xa7);
  EXPECT_EQ(p[1], 0x1d);
  for (size_t i = 2; i < 32; ++i) EXPECT_EQ(p[i], 0);
  const auto q = prover_id_from_actor(1000);  // curio postpub.json prover
  EXPECT_EQ(q[0], 0xe8);
  EXPECT_EQ(q[1], 0x07);
  EXPECT_EQ(prover_id_from_actor(0), bytes32_t{});
  EXPECT_EQ(prover_id_from_actor(127)[0], 0x7f);
  EXPECT_EQ(prover_id_from_actor(128)[0], 0x80);
  EXPECT_EQ(prover_id_from_actor(128)[1], 0x01);
  const auto m = prover_id_from_actor(UINT64_MAX);  // 10 bytes: nine 0xff, then 0x01
  for (size_t i = 0; i < 9; ++i) EXPECT_EQ(m[i], 0xff);
  EXPECT_EQ(m[9], 0x01);
  EXPECT_EQ(m[10], 0x00);
}

TEST(porep_config, sector_configs) {
  struct row {
    uint64_t bytes;
    unsigned layers, partitions, cpp, ni_partitions, ni_cpp, d_depth;
    const char* shape;
    bool production;
  } rows[] = {
      {2 * KiB, 2, 1, 2, 13, 2, 6, "8-0-0", true},
      {4 * KiB, 2, 1, 2, 13, 2, 7, "8-2-0", false},
      {16 * KiB, 2, 1, 2, 13, 2, 9, "8-8-0", false},
      {32 * KiB, 2, 1, 2, 13, 2, 10, "8-8-2", false},
      {8 * MiB, 2, 1, 2, 13, 2, 18, "8-0-0", true},
      {16 * MiB, 2, 1, 2, 13, 2, 19, "8-2-0", false},
      {512 * MiB, 2, 1, 2, 13, 2, 24, "8-0-0", true},
      {1 * GiB, 2, 1, 2, 13, 2, 25, "8-2-0", false},
      {32 * GiB, 11, 10, 18, 126, 18, 30, "8-8-0", true},
      {64 * GiB, 11, 10, 18, 126, 18, 31, "8-8-2", true},
  };
  for (const auto& r : rows) {
    auto c = sector_config(r.bytes);
    ASSERT_TRUE(c.ok()) << r.bytes;
    EXPECT_EQ(c->nodes, r.bytes / 32);
    EXPECT_EQ(c->layers, r.layers);
    EXPECT_EQ(c->partitions, r.partitions);
    EXPECT_EQ(c->challenges_per_partition, r.cpp);
    EXPECT_EQ(c->ni_partitions, r.ni_partitions);
    EXPECT_EQ(c->ni_challenges_per_partition, r.ni_cpp);
    EXPECT_EQ(c->tree_d_depth(), r.d_depth);
    EXPECT_EQ(c->tree_r.name(), r.shape);
    EXPECT_EQ(c->tree_r.num_leaves, c->nodes);
    EXPECT_EQ(c->tree_d.num_leaves, c->nodes);
    EXPECT_EQ(c->production, r.production);
  }
  EXPECT_EQ(sector_config(32 * GiB)->min_challenges, 176u);
  EXPECT_EQ(sector_config(32 * GiB)->ni_min_challenges, 2253u);
  // 32 GiB base trees: 8 sub-trees of 2^27 leaves, 9 base levels.
  EXPECT_EQ(sector_config(32 * GiB)->tree_r.base_leaves(), uint64_t(1) << 27);
  EXPECT_EQ(sector_config(32 * GiB)->tree_r.base_height(), 9u);
  for (uint64_t bad : {uint64_t(0), uint64_t(1024), 2 * MiB, 128 * GiB})
    EXPECT_FALSE(sector_config(bad).ok());
}

TEST(porep_config, feature_dependent_counts) {
  auto ni = porep_config(registered_seal_proof::stacked_drg_32gib_v1_2_feat_non_interactive_porep);
  ASSERT_TRUE(ni.ok());
  EXPECT_EQ(ni->partitions(), 126u);
  EXPECT_EQ(ni->challenges_per_partition(), 18u);
  EXPECT_EQ(ni->synthetic_challenges(), 0u);
  auto syn = porep_config(registered_seal_proof::stacked_drg_32gib_v1_1_feat_synthetic_porep);
  EXPECT_EQ(syn->partitions(), 10u);
  EXPECT_EQ(syn->challenges_per_partition(), 18u);
  EXPECT_EQ(syn->synthetic_challenges(), uint64_t(1) << 18);
  auto syn2k = porep_config(registered_seal_proof::stacked_drg_2kib_v1_1_feat_synthetic_porep);
  EXPECT_EQ(syn2k->synthetic_challenges(), 64u);
  auto ni8 = porep_config(registered_seal_proof::stacked_drg_8mib_v1_2_feat_non_interactive_porep);
  EXPECT_EQ(ni8->partitions(), 13u);
  EXPECT_EQ(ni8->challenges_per_partition(), 2u);
  auto v1 = porep_config(registered_seal_proof::stacked_drg_64gib_v1);
  EXPECT_EQ(v1->partitions(), 10u);
  EXPECT_EQ(v1->layers(), 11u);
  // Custom porep_id (regression records use e.g. [127; 32]); features need V1_2_0.
  porep_id_t custom;
  custom.fill(127);
  auto c = porep_config(8 * MiB, api_version::v1_2_0, api_feature::synthetic_porep, custom);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->proof.has_value());
  EXPECT_EQ(c->porep_id, custom);
  EXPECT_FALSE(
      porep_config(8 * MiB, api_version::v1_1_0, api_feature::synthetic_porep, custom).ok());
  EXPECT_FALSE(porep_config(3 * MiB, api_version::v1_1_0, api_feature::none, custom).ok());
}

using common::commp_of;
using common::commp_t;
using common::fr32_unpadded_size;
using common::zero_comm;

TEST(zero_comm, every_sector_size) {
  // Every configured size: comm_d of a zero sector is zero_comm(tree_d depth), and a zero payload
  // filling the sector has that commP.
  for (uint64_t size : {2 * KiB, 4 * KiB, 16 * KiB, 32 * KiB, 8 * MiB, 16 * MiB, 512 * MiB, 1 * GiB,
                        32 * GiB, 64 * GiB}) {
    auto cfg = sector_config(size);
    ASSERT_TRUE(cfg.ok()) << size;
    EXPECT_EQ(uint64_t(1) << cfg->tree_d_depth(), size / 32);
    if (size <= 8 * MiB) {
      std::vector<uint8_t> zeros(fr32_unpadded_size(size), 0);
      const commp_t c = commp_of(zeros);
      EXPECT_EQ(c.padded_size, size);
      EXPECT_EQ(c.comm, zero_comm(cfg->tree_d_depth())) << size;
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin::porep
