// SPDX-License-Identifier: Apache-2.0
// Slow synthetic C1 checks: 64 GiB (8-8-2 Top trees, 2^31 nodes) and 32 GiB V1 (the V1_0 graph
// with its u32 truncation of the Feistel output), each through the independent checker, the
// JSON round trip and the c1.json wrapper.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <optional>

#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c1_test_check.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/synthetic.hpp"

namespace cuzk::filecoin::porep {
namespace {

void run(registered_seal_proof p) {
  synthetic_request_t req;
  req.config = *porep_config(p);
  req.prover_id = prover_id_from_actor(3751);
  req.sector_id = 132;
  req.ticket.fill(0x11);
  req.seed.fill(0x22);
  const auto t0 = std::chrono::steady_clock::now();
  auto c1 = generate_synthetic_c1(req);
  const double gen = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(c1.ok()) << c1.error().to_string();
  std::printf("%s synthetic C1: %.3f s\n", std::string(name_of(p)).c_str(), gen);
  EXPECT_LT(gen, 10.0);
  EXPECT_EQ(test::check_c1(*c1, req.prover_id, req.sector_id), "");
  auto w = c1_to_wrapper_json(*c1, 132);
  ASSERT_TRUE(w.ok());
  std::optional<uint64_t> num;
  auto back = parse_c1_any(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(w->data()), w->size()), {}, &num);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(num, std::optional<uint64_t>(132));
  EXPECT_TRUE(*back == *c1);
}

TEST(synthetic_slow, c1_64gib_v1_1) {
  run(registered_seal_proof::stacked_drg_64gib_v1_1);
}
TEST(synthetic_slow, c1_32gib_v1) {
  run(registered_seal_proof::stacked_drg_32gib_v1);
}
TEST(synthetic_slow, c1_64gib_v1) {
  run(registered_seal_proof::stacked_drg_64gib_v1);
}

}  // namespace
}  // namespace cuzk::filecoin::porep
