// SPDX-License-Identifier: Apache-2.0
// Label `slow`: parent-cache digests of the large production sizes against parent_cache.json,
// computed streaming (never stored) over all cores. 512 MiB (2^24 nodes) always; 32 GiB and
// 64 GiB (2^30 / 2^31 nodes, 60 / 120 GB of cache) only with CUZK_POREP_HUGE=1, since on a 2-core
// machine each takes hours (see docs/notes/porep-graph.md for measured rates).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>

#include "base/hex.hpp"
#include "filecoin/porep/parent_cache.hpp"
#include "filecoin/porep/porep_test_util.hpp"

namespace cuzk::filecoin::porep {
namespace {

void check_digest(registered_seal_proof p) {
  const auto facts = test::parent_cache_facts();
  ASSERT_EQ(facts.size(), 10u);
  const sdr_graph g(*porep_config(p));
  const auto* f = test::find_fact(facts, g.parent_cache_id());
  ASSERT_NE(f, nullptr) << name_of(p);
  const auto t0 = std::chrono::steady_clock::now();
  const auto d = parent_cache_digest(g, thread_pool::default_pool());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %llu nodes in %.1f s (%.3g nodes/s, %u threads)\n",
              std::string(name_of(p)).c_str(), (unsigned long long)g.nodes(), s, g.nodes() / s,
              thread_pool::default_pool().size());
  EXPECT_EQ(to_hex(d), f->digest_hex) << name_of(p);
}

TEST(porep_graph_slow, digest_512mib_v1) {
  check_digest(registered_seal_proof::stacked_drg_512mib_v1);
}
TEST(porep_graph_slow, digest_512mib_v1_1) {
  check_digest(registered_seal_proof::stacked_drg_512mib_v1_1);
}

bool huge_enabled() {
  const char* e = std::getenv("CUZK_POREP_HUGE");
  return e && std::string(e) == "1";
}

TEST(porep_graph_slow, digest_32gib) {
  if (!huge_enabled()) GTEST_SKIP() << "set CUZK_POREP_HUGE=1 (hours on 2 cores)";
  check_digest(registered_seal_proof::stacked_drg_32gib_v1);
  check_digest(registered_seal_proof::stacked_drg_32gib_v1_1);
}

TEST(porep_graph_slow, digest_64gib) {
  if (!huge_enabled()) GTEST_SKIP() << "set CUZK_POREP_HUGE=1 (hours on 2 cores)";
  check_digest(registered_seal_proof::stacked_drg_64gib_v1);
  check_digest(registered_seal_proof::stacked_drg_64gib_v1_1);
}

}  // namespace
}  // namespace cuzk::filecoin::porep
