// SPDX-License-Identifier: Apache-2.0
// commP and zero commitments: the zero-sector comm_d table of docs/spec/porep.md §5 (independent
// values), frozen @web3-storage/data-segment 5.3.0 outputs for deterministic payloads (the live
// comparison on random files is piece_commp_npm_test), the streaming hasher against a one-shot
// tree, and CIDs.
#include "filecoin/common/commp.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "base/hex.hpp"
#include "filecoin/common/fr32.hpp"
#include "filecoin/common/sector.hpp"  // KiB, MiB, GiB
#include "test_rng.hpp"

namespace cuzk::filecoin::common {
namespace {

std::string hex(const hash::bytes32_t& b) {
  return cuzk::to_hex(b);
}

TEST(zero_comm, spec_table) {
  // docs/spec/porep.md §5 (also supra_seal tree_d_cc_nodes.h): level 1, 6, 18, 24, 30, 31.
  EXPECT_EQ(hex(zero_comm(0)), std::string(64, '0'));
  EXPECT_EQ(hex(zero_comm(1)).substr(0, 8), "f5a5fd42");
  EXPECT_EQ(hex(zero_comm(1)).substr(60), "fb0b");
  EXPECT_EQ(hex(zero_comm(6)), "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  EXPECT_EQ(hex(zero_comm(18)).substr(0, 8), "65f29e5d");
  EXPECT_EQ(hex(zero_comm(18)).substr(60), "421c");
  EXPECT_EQ(hex(zero_comm(24)).substr(0, 8), "39560e7b");
  EXPECT_EQ(hex(zero_comm(24)).substr(60), "da06");
  EXPECT_EQ(hex(zero_comm(30)), "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e");
  EXPECT_EQ(piece_cid(zero_comm(30)),
            "baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4ynr3d2y6x2mpq");
  EXPECT_EQ(hex(zero_comm(31)), "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02");
  // The stored-tree and root-only builds agree with the chain (2 KiB, 8 MiB).
  for (uint64_t size : {2 * KiB, 8 * MiB}) {
    std::vector<hash::bytes32_t> leaves(size / 32);
    auto root = hash::merkle_root<hash::sha256_hasher>(*hash::tree_d_shape(size), leaves);
    ASSERT_TRUE(root.ok());
    EXPECT_EQ(*root, zero_comm(unsigned(std::countr_zero(size / 32))));
  }
}

std::vector<uint8_t> det_payload(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(((i * 7 + 3) ^ (i >> 8)) & 0xff);
  return v;
}

TEST(commp, frozen_data_segment_vectors) {
  // node tests/commp/commp.mjs on det_payload(n), @web3-storage/data-segment 5.3.0.
  struct kat {
    size_t n;
    const char* hex;
    const char* cid;
    uint64_t padded;
  };
  const kat kats[] = {
      {0, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
       "baga6ea4seaqdomn3tgwgrh3g532zopskstnbrd2n3sxfqbze7rxt7vqn7veigmy", 128},
      {1, "71f2fc9aeddd6fded762d9d7e257b955d5910c805ee92a9e09eca306f4765920",
       "baga6ea4seaqhd4x4tlw5236625rntv7ck64vlvmrbsaf52jktye6ziyg6r3fsia", 128},
      {64, "bae58cf785507c8996e6272714b82f30693285fa1b38714570a88b44150dff3a",
       "baga6ea4seaqlvzmm66cva7ejs3tcojyuxaxta2jsqx5bwodrivykrc2ecug76oq", 128},
      {65, "a5f99ca572e01c971cd1c6851ee26b6005b6ee9ea7748c58216a470760625332",
       "baga6ea4seaqkl6m4uvzoahexdti4nbi64jvwabnw52pko5emlaqwuryhmbrfgmq", 128},
      {127, "0c494f347c283554f141f4cf32dbb886137a478ceeb575de1cabee6674ddc11d",
       "baga6ea4seaqayskpgr6cqnku6fa7jtzs3o4ime32i6go5nlv3yokx3tgoto4chi", 128},
      {128, "35556248ba7f088d060cd985ccce55ff134abf304808d273758c97a1ba980627",
       "baga6ea4seaqdkvlcjc5h6cenaygntbomzzk76e2kx4yeqcgson2yzf5bxkmamjy", 256},
      {254, "65e989f4588eba277ca04bb10513e59ec61386a9d0fe67a204cd57bdb8a1a912",
       "baga6ea4seaqgl2mj6rmi5orhpsqexmifcpsz5rqtq2u5b7thuicm2v55xcq2seq", 256},
      {1000, "6bcbd3ec2195b12915fea251af9dfb45162059b79c40150133012d60cb29af35",
       "baga6ea4seaqgxs6t5qqzlmjjcx7keunptx5ukfralg3zyqavaezqcllazmu26ni", 1024},
      {1016, "563183a14bf44b5b9182e510bdc3ab8baf373c053bf21d79abba82808a867f1a",
       "baga6ea4seaqfmmmduff7is23sgbokef5yovyxlzxhqctx4q5pgv3vauarkdh6gq", 1024},
      {1017, "b81b1ed6d8e130698b4f244a13b3c6a6c8ec1d72b428eebd5574bf70b87dae0b",
       "baga6ea4seaqlqgy623mocmdjrnhsisqtwpdknshmdvzlikhoxvkxjp3qxb624cy", 2048},
      {4064, "c9ab23355d096b7344b782491efc66c614482ba79122636879b9844fc36ff91a",
       "baga6ea4seaqmtkzdgvoqs23tis3yesi67rtmmfcifotzcitdnb43tbcpynx7sgq", 4096},
      {520192, "6fbc4fa9285ff71831eef26c349ccdd41b01a22094baa86b692b7b79101e6806",
       "baga6ea4seaqg7pcpveuf75yyghxpe3buttg5igybuiqjjovinnusw63zcapgqbq", 524288},
      {520193, "53cc141f8cf2926cd0a9d4058845b24f280b9132db33ecd0d308586cc0ba4d31",
       "baga6ea4seaqfhtaud6gpfetm2cu5ibmiiwze6kalseznwm7m2djqqwdmyc5e2mi", 1048576},
      {1040384, "f437c8e421c645d1617e1dc8640a75c618f2da32a6eea83ddfbdbdaf4570d534",
       "baga6ea4seaqpin6i4qq4mrormf7b3sdebj24mghs3izkn3vihxp33pnpivynkna", 1048576},
      {1300000, "aa8680d0ba4a4d0e610fd8449f5a605ad9cba7a099c9a1707671cef43384230f",
       "baga6ea4seaqkvbua2c5eutiomeh5qre7ljqfvwolu6qjtsnbob3hdtxugoccgdy", 2097152},
  };
  for (const auto& k : kats) {
    const commp_t c = commp_of(det_payload(k.n));
    EXPECT_EQ(hex(c.comm), k.hex) << k.n;
    EXPECT_EQ(piece_cid(c.comm), k.cid) << k.n;
    EXPECT_EQ(c.padded_size, k.padded) << k.n;
    EXPECT_EQ(c.payload_size, k.n);
  }
}

TEST(commp, streaming_equals_one_shot_tree) {
  auto rng = test::test_rng::from_env("commp_stream");
  thread_pool pool1(1), pool2(2);
  for (size_t n : {size_t(3 * 520192 + 777), size_t(2 * 520192), size_t(130000)}) {
    std::vector<uint8_t> data(n);
    for (auto& b : data) b = uint8_t(rng());
    // Reference: pad all, zero-extend to the padded size, one stored tree.
    const uint64_t padded = commp_padded_size(n);
    std::vector<hash::bytes32_t> leaves(padded / 32);
    fr32_pad(data, {leaves.front().data(), size_t(fr32_padded_size(n))});
    auto tree = hash::sha256_tree::build(hash::tree_shape::binary(leaves.size()), leaves);
    ASSERT_TRUE(tree.ok());
    for (thread_pool* pool : {&pool1, &pool2}) {
      commp_hasher h(*pool);
      for (size_t off = 0; off < n;) {
        const size_t step = std::min<size_t>(n - off, 1 + rng.below(300000));
        h.update({data.data() + off, step});
        off += step;
      }
      const commp_t c = h.finalize();
      EXPECT_EQ(c.comm, tree->root()) << n;
      EXPECT_EQ(c.padded_size, padded);
    }
  }
}

TEST(commp, sizes_cids_and_hex) {
  EXPECT_EQ(commp_padded_size(0), 128u);
  EXPECT_EQ(commp_padded_size(127), 128u);
  EXPECT_EQ(commp_padded_size(128), 256u);
  EXPECT_EQ(commp_padded_size(fr32_unpadded_size(32 * GiB)), 32 * GiB);
  EXPECT_EQ(commp_padded_size(fr32_unpadded_size(32 * GiB) + 1), 64 * GiB);
  // comm_r CIDs start "bagboea4b5abc" (docs/spec/primitives.md §4).
  EXPECT_EQ(sealed_cid(zero_comm(5)).substr(0, 13), "bagboea4b5abc");
  EXPECT_EQ(piece_cid(zero_comm(5)).substr(0, 11), "baga6ea4sea");
  auto h = parse_hex32(hex(zero_comm(30)));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(*h, zero_comm(30));
  EXPECT_FALSE(parse_hex32("00").ok());
  EXPECT_FALSE(parse_hex32(std::string(63, '0') + "g").ok());
  auto pref = parse_hex32("0x" + std::string(64, 'F'));
  ASSERT_TRUE(pref.ok());
  EXPECT_EQ((*pref)[0], 0xff);
}

}  // namespace
}  // namespace cuzk::filecoin::common
