// SPDX-License-Identifier: Apache-2.0
// The SDR graph against upstream facts: the parent-cache names AND SHA-256 digests of
// rust-fil-proofs' parent_cache.json (2 KiB and 8 MiB, V1 and V1_1; names of every size), the
// spot parents of docs/spec/porep.md §3, structural properties (DRG parents < v, Feistel bijection,
// V1_0/V1_1 slot order and u32 truncation), file write/map/verify round trip, JSON parsing.
#include "filecoin/porep/graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "base/hex.hpp"
#include "filecoin/porep/parent_cache.hpp"
#include "filecoin/porep/porep_test_util.hpp"

namespace cuzk::filecoin::porep {
namespace {

using test::find_fact;
using test::parent_cache_facts;

sdr_graph graph_of(registered_seal_proof p) {
  return sdr_graph(*porep_config(p));
}

TEST(porep_graph, spot_parents_2kib_v1_1) {
  const sdr_graph g = graph_of(registered_seal_proof::stacked_drg_2kib_v1_1);
  EXPECT_EQ(g.parents(10),
            (std::array<uint32_t, 14>{9, 6, 6, 9, 9, 5, 30, 20, 60, 53, 31, 9, 47, 41}));
  EXPECT_EQ(g.parents(63),
            (std::array<uint32_t, 14>{62, 15, 42, 62, 61, 62, 0, 15, 30, 30, 28, 42, 49, 38}));
  // Nodes 0 and 1: all DRG parents 0.
  for (uint64_t v : {0, 1}) {
    const auto p = g.parents(v);
    for (unsigned i = 0; i < DRG_DEGREE; ++i) EXPECT_EQ(p[i], 0u);
  }
}

TEST(porep_graph, parent_cache_json_parses) {
  const auto facts = parent_cache_facts();
  ASSERT_EQ(facts.size(), 10u) << cuzk::test::fixture_path("parent_cache.json");
  EXPECT_FALSE(parse_parent_cache_json("").ok());
  EXPECT_FALSE(parse_parent_cache_json("{\"a\": {\"sector_size\": 1}}").ok());
  EXPECT_FALSE(parse_parent_cache_json("{\"a\": {\"sector_size\": x, \"digest\": \"00\"}}").ok());
  EXPECT_FALSE(parse_parent_cache_json("{\"a\": {\"sector_size\": 1, \"digest\": \"00\"}} x").ok());
  auto ok = parse_parent_cache_json(" {\"a\" : {\"digest\":\"ab\", \"sector_size\": 2048}} ");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)[0].sector_size, 2048u);
  EXPECT_EQ((*ok)[0].digest_hex, "ab");
}

// Every registered size/version (ids 0..9) names an entry of parent_cache.json with its size;
// the ten names are exactly the ten entries.
TEST(porep_graph, cache_names_of_all_sizes) {
  const auto facts = parent_cache_facts();
  ASSERT_EQ(facts.size(), 10u);
  for (uint32_t id = 0; id < 10; ++id) {
    const auto p = *registered_seal_proof_from_id(id);
    const sdr_graph g = graph_of(p);
    const auto* f = find_fact(facts, g.parent_cache_id());
    ASSERT_NE(f, nullptr) << name_of(p) << " " << g.parent_cache_id();
    EXPECT_EQ(f->sector_size, sector_size_of(p));
    EXPECT_EQ(g.parent_cache_file_name(), g.parent_cache_id() + ".cache");
  }
  // Synthetic and NI proofs share the V1_1 graph (same porep-id-independent shape, own ids).
  EXPECT_EQ(graph_of(registered_seal_proof::stacked_drg_2kib_v1_1).identifier(),
            "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{"
            "size: 64; degree: 6; hasher: poseidon_hasher} }");
}

// The upstream digests: the whole cache of 2 KiB and 8 MiB, for the V1 (ids 0, 1) and V1_1
// (ids 5, 6) graphs, generated in memory (8 MiB: 2^18 nodes, 14 MiB).
TEST(porep_graph, cache_digests_2kib_8mib) {
  const auto facts = parent_cache_facts();
  ASSERT_EQ(facts.size(), 10u);
  for (auto p :
       {registered_seal_proof::stacked_drg_2kib_v1, registered_seal_proof::stacked_drg_8mib_v1,
        registered_seal_proof::stacked_drg_2kib_v1_1,
        registered_seal_proof::stacked_drg_8mib_v1_1}) {
    const sdr_graph g = graph_of(p);
    const parent_cache c = parent_cache::generate(g);
    const auto* f = find_fact(facts, g.parent_cache_id());
    ASSERT_NE(f, nullptr) << name_of(p);
    EXPECT_EQ(to_hex(c.digest()), f->digest_hex) << name_of(p);
    EXPECT_TRUE(verify_parent_cache(c, g, facts).ok()) << name_of(p);
  }
  // The 2 KiB V1_1 example of docs/spec/porep.md §3.
  const sdr_graph g = graph_of(registered_seal_proof::stacked_drg_2kib_v1_1);
  EXPECT_EQ(g.parent_cache_id().substr(0, 23), "v28-sdr-parent-494d91dc");
}

TEST(porep_graph, streaming_digest_matches_memory) {
  const sdr_graph g(uint64_t(1) << 14, porep_id_of(registered_seal_proof::stacked_drg_8mib_v1_1),
                    graph_version::v1_1);
  thread_pool pool(2);
  const auto want = parent_cache::generate(g, pool).digest();
  for (uint64_t chunk : {uint64_t(0), uint64_t(1000), uint64_t(1) << 14})
    EXPECT_EQ(parent_cache_digest(g, pool, chunk), want) << chunk;
}

TEST(porep_graph, structure) {
  for (auto p :
       {registered_seal_proof::stacked_drg_2kib_v1, registered_seal_proof::stacked_drg_2kib_v1_1}) {
    const sdr_graph g = graph_of(p);
    for (uint64_t v = 2; v < g.nodes(); ++v) {
      const auto par = g.parents(v);
      for (unsigned i = 0; i < DRG_DEGREE; ++i) EXPECT_LT(par[i], v);
      for (unsigned i = DRG_DEGREE; i < PARENT_COUNT; ++i) EXPECT_LT(par[i], g.nodes());
      EXPECT_EQ(par[g.version() == graph_version::v1_0 ? 5 : 0], v - 1);
    }
  }
  // Same porep_id, both versions: the random DRG parents move from slots 0..4 to 1..5, and the
  // expander parents agree while nodes·8 ≤ 2^32.
  porep_id_t id{};
  id[0] = 42;
  const sdr_graph a(1 << 12, id, graph_version::v1_0), b(1 << 12, id, graph_version::v1_1);
  for (uint64_t v = 2; v < 4096; v += 37) {
    const auto pa = a.parents(v), pb = b.parents(v);
    for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(pa[i], pb[i + 1]);
    EXPECT_EQ(pa[5], pb[0]);
    for (unsigned i = DRG_DEGREE; i < PARENT_COUNT; ++i) EXPECT_EQ(pa[i], pb[i]);
  }
}

TEST(porep_graph, feistel_is_a_permutation) {
  const sdr_graph g = graph_of(registered_seal_proof::stacked_drg_2kib_v1_1);
  for (uint64_t n : {g.nodes() * EXP_DEGREE, uint64_t(1000), uint64_t(4096)}) {
    const feistel_t f(n, g.feistel_keys());
    std::vector<bool> seen(n);
    for (uint64_t x = 0; x < n; ++x) {
      const uint64_t y = f.permute(x);
      ASSERT_LT(y, n);
      EXPECT_FALSE(seen[y]);
      seen[y] = true;
    }
  }
  EXPECT_EQ(feistel_t(512, {}).half_bits(), 5u);  // 4^5 = 1024 ≥ 512
  EXPECT_EQ(feistel_t(1024, {}).half_bits(), 5u);
  EXPECT_EQ(feistel_t(uint64_t(1) << 33, {}).half_bits(), 17u);  // 32 GiB: cycle walking ×2
}

// 32 GiB: nodes·8 = 2^33, so permuted values reach 2^33 and V1_0 keeps only their low 32 bits
// before dividing by 8.
TEST(porep_graph, v1_0_truncates_feistel_output_at_32gib) {
  const sdr_graph v0 = graph_of(registered_seal_proof::stacked_drg_32gib_v1);
  const sdr_graph v1(v0.nodes(), v0.porep_id(), graph_version::v1_1);
  int differing = 0;
  for (uint64_t v = 1000; v < 1064; ++v) {
    uint32_t a[EXP_DEGREE], b[EXP_DEGREE];
    v0.exp_parents(v, a);
    v1.exp_parents(v, b);
    for (unsigned i = 0; i < EXP_DEGREE; ++i) {
      EXPECT_EQ(a[i], b[i] % (1u << 29));
      differing += a[i] != b[i];
    }
  }
  EXPECT_GT(differing, 0);
}

TEST(porep_graph, write_open_verify_round_trip) {
  const auto facts = parent_cache_facts();
  const sdr_graph g = graph_of(registered_seal_proof::stacked_drg_2kib_v1_1);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("cuzk_porep_graph_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = write_parent_cache(g, dir.string());
  ASSERT_TRUE(path.ok()) << path.error().to_string();
  EXPECT_EQ(std::filesystem::path(*path).filename().string(), g.parent_cache_file_name());
  {
    auto c = parent_cache::open(*path, g.nodes());
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_TRUE(verify_parent_cache(*c, g, facts).ok());
    EXPECT_EQ(std::vector<uint32_t>(c->parents(10), c->parents(10) + 14),
              std::vector<uint32_t>({9, 6, 6, 9, 9, 5, 30, 20, 60, 53, 31, 9, 47, 41}));
    // Wrong graph (V1) for this file: no entry with that name matches this cache's digest.
    const sdr_graph other = graph_of(registered_seal_proof::stacked_drg_2kib_v1);
    EXPECT_FALSE(verify_parent_cache(*c, other, facts).ok());
    EXPECT_EQ(parent_cache::open(*path, g.nodes() + 1).error().code(), status_code::size_mismatch);
  }
  // Corrupt one byte: the digest check fails.
  {
    std::FILE* f = std::fopen(path->c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, 100, SEEK_SET);
    std::fputc(0xff, f);
    std::fclose(f);
    auto c = parent_cache::open(*path, g.nodes());
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(verify_parent_cache(*c, g, facts).code(), status_code::bad_encoding);
  }
  EXPECT_EQ(parent_cache::open((dir / "missing").string(), 64).error().code(),
            status_code::io_error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::filecoin::porep
