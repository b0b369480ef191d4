// SPDX-License-Identifier: Apache-2.0
// Label `slow`: 512 MiB CC sectors sealed against comm_c, comm_r_last and comm_r that lotus
// recorded from rust-fil-proofs (and SupraSeal) runs with lotus-bench's defaults: miner t01000
// (prover_id = LEB128(1000)), sector 1, StackedDrg512MiBV1_1, data from /dev/zero (comm_d the
// 512 MiB zero commitment). Each seal holds ≈ 7.5 GB and takes minutes on a few cores; the 2 KiB
// counterpart runs in the unit tier (seal_test.cpp, lotus_bench_2kib_cc_comm_r).
#include <gtest/gtest.h>

#include <chrono>

#include "base/hex.hpp"
#include "filecoin/porep/seal.hpp"

namespace cuzk::filecoin::porep {
namespace {

result<sealed_sector_t> seal_512mib_cc(uint8_t ticket_byte) {
  seal_request_t r;
  r.config = *porep_config(registered_seal_proof::stacked_drg_512mib_v1_1);
  r.prover_id = prover_id_from_actor(1000);
  r.sector_id = 1;
  r.ticket.fill(ticket_byte);
  const auto t0 = std::chrono::steady_clock::now();
  auto s = seal_sector(r, {});
  std::printf("512 MiB CC seal, ticket %02x: %.1f s on %u threads\n", ticket_byte,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
              thread_pool::default_pool().size());
  return s;
}

// The 512 MiB zero commitment: baga6ea4seaqdsvqopmj2soyhujb72jza76t4wpq5fzifvm3ctz47iyytkewnubq.
constexpr const char* ZERO_COMM_D_512MIB =
    "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06";

// Ticket 32 zero bytes (the default until 2023-11). comm_c and comm_r_last are hard-coded in
// filecoin-project/lotus storage/sealer/commitment/commr_test.go (2023-08), whose expected comm_r
// is also the `lotus-bench simple precommit2` output in filecoin-project/lotus-docs
// content/en/storage-providers/operate/benchmarks.md (2022-06):
// r:bagboea4b5abcbztu2gpgzz746m537wntioqm5mjnfay5dwsugfqyshv4zljmnwyb.
TEST(seal_oracle, lotus_512mib_cc_zero_ticket) {
  auto s = seal_512mib_cc(0x00);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(to_hex(s->comm_d), ZERO_COMM_D_512MIB);
  EXPECT_EQ(to_hex(s->comm_c), "091e073b982f66f013c026da6e54d87dbf8bba848ef57a5529c7e7f72c828843");
  EXPECT_EQ(to_hex(s->comm_r_last),
            "f0c5785c6c8cf62d968b1ecd68edb9d91eb9445c7858a60026f8826860f7e768");
  EXPECT_EQ(to_hex(s->comm_r), "e674d19e6ce7fcf33bbfd9b343a0ceb12d2831d1da543161891ebccad2c6db01");
}

// Ticket 32 × 0x01 (the default since 2023-11), PC2 computed by SupraSeal: lotus-docs
// content/en/tutorials/lotus-miner/supra-seal-pc2.md (2023-12), whose PC1 output names this
// ticket, the zero comm_d and StackedDrg512MiBV1_1:
// r:bagboea4b5abcbgfzry2gavrhgzhefwz3pyozaheii5kcjako55zr65zolhwmwbbq.
TEST(seal_oracle, supraseal_512mib_cc_ticket_ones) {
  auto s = seal_512mib_cc(0x01);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(to_hex(s->comm_d), ZERO_COMM_D_512MIB);
  EXPECT_EQ(to_hex(s->comm_r), "98b98e34605627364e42db3b7e1d901c88475424814eef731f772e59eccb0430");
}

}  // namespace
}  // namespace cuzk::filecoin::porep
