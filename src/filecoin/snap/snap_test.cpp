// SPDX-License-Identifier: Apache-2.0
// SnapDeals vanilla side: registered update proofs by wire number, Go and Rust name; the
// per-size constants of docs/spec/snap.md §2; all 24 upstream challenge vectors of
// snap_challenges_vectors.json (and the full derived lists, and the first digest); encoding new
// data into a 2 KiB sector sealed in memory and into the directory `cuzk porep seal` writes,
// decoded back; PartitionProofs generated, at the wire sizes of snap.md §8, re-encoded byte for
// byte and validated for 2 KiB, 16 KiB, 32 KiB and 8 MiB (1, 2, 2, 4 partitions); malformed bytes
// and every kind of tampering rejected with a status naming the partition and challenge.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "filecoin/snap/challenges.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/encode.hpp"
#include "filecoin/snap/synthetic.hpp"
#include "filecoin/snap/vanilla_proof.hpp"
#include "filecoin/snap/vanilla_prove.hpp"
#include "fixtures.hpp"
#include "sealed_sectors.hpp"
#include "temp_dir.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::snap {
namespace {

update_config_t config(registered_update_proof p) {
  auto c = update_config(p);
  EXPECT_TRUE(c.ok());
  return *c;
}

update_config_t config_for(hash::tree_shape t) {
  auto c = update_config_for_shape(t);
  EXPECT_TRUE(c.ok()) << c.error().to_string();
  return *c;
}

fr_t fr_from_le_hex(std::string_view h) {
  bytes32_t b{};
  EXPECT_TRUE(from_hex_into(h, b).ok()) << h;
  fr_t x;
  EXPECT_TRUE(hash::bytes_to_fr(b, x)) << h;
  return x;
}

// ---- registered proofs and constants -----------------------------------------------------------

TEST(snap_config, names_and_numbers) {
  for (uint32_t id = 0; id < NUM_REGISTERED_UPDATE_PROOFS; ++id) {
    const auto p = registered_update_proof(id);
    EXPECT_EQ(*parse_registered_update_proof(std::to_string(id)), p);
    EXPECT_EQ(*parse_registered_update_proof(name_of(p)), p);
    EXPECT_EQ(*parse_registered_update_proof(go_name_of(p)), p);
  }
  EXPECT_EQ(name_of(registered_update_proof::stacked_drg_32gib_v1), "StackedDrg32GiBV1");
  EXPECT_EQ(go_name_of(registered_update_proof::stacked_drg_2kib_v1),
            "RegisteredUpdateProof_StackedDrg2KiBV1");
  EXPECT_EQ(sector_size_of(registered_update_proof::stacked_drg_64gib_v1), 64 * porep::GiB);
  EXPECT_FALSE(parse_registered_update_proof("5").ok());
  EXPECT_FALSE(parse_registered_update_proof("StackedDrg32GiBV1_1").ok());
  EXPECT_FALSE(parse_registered_update_proof("").ok());
  EXPECT_FALSE(registered_update_proof_from_id(uint64_t(1) << 40).ok());
}

TEST(snap_config, per_size_constants) {
  struct row {
    registered_update_proof p;
    unsigned L, P, p_bits, challenges, bits, per_digest, digests, A, a, below_apex, h, h_select;
    uint64_t k_and_h_select_of_1;
    const char* shape;
  };
  using enum registered_update_proof;
  const row rows[] = {
      {stacked_drg_2kib_v1, 6, 1, 0, 10, 6, 42, 1, 8, 3, 3, 1, 1, 1 | 1 << 0, "8-0-0"},
      {stacked_drg_8mib_v1, 18, 4, 2, 10, 16, 15, 1, 128, 7, 9, 10, 8, 1 + 32, "8-0-0"},
      {stacked_drg_512mib_v1, 24, 16, 4, 86, 20, 12, 8, 128, 7, 13, 10, 8, 1 + 128, "8-0-0"},
      {stacked_drg_32gib_v1, 30, 16, 4, 86, 26, 9, 10, 128, 7, 19, 10, 8, 1 + 128, "8-8-0"},
      {stacked_drg_64gib_v1, 31, 16, 4, 86, 27, 9, 10, 128, 7, 20, 10, 8, 1 + 128, "8-8-2"},
  };
  for (const row& r : rows) {
    const update_config_t c = config(r.p);
    SCOPED_TRACE(std::string(name_of(r.p)));
    EXPECT_EQ(c.node_bits, r.L);
    EXPECT_EQ(c.partitions, r.P);
    EXPECT_EQ(c.partition_bits, r.p_bits);
    EXPECT_EQ(c.challenges, r.challenges);
    EXPECT_EQ(c.challenge_bits, r.bits);
    EXPECT_EQ(c.challenges_per_digest, r.per_digest);
    EXPECT_EQ(c.digests, r.digests);
    EXPECT_EQ(c.apex_leaves, r.A);
    EXPECT_EQ(c.apex_bits, r.a);
    EXPECT_EQ(c.tree_d_levels_below_apex(), r.below_apex);
    EXPECT_EQ(c.h, r.h);
    EXPECT_EQ(c.h_select, r.h_select);
    // 2 KiB has p = 0: k_and_h_select(1) would not be a valid partition, it only shows the OR.
    EXPECT_EQ(c.k_and_h_select(1), r.k_and_h_select_of_1);
    EXPECT_EQ(c.tree_r.name(), r.shape);
    EXPECT_EQ(c.tree_d.num_leaves, c.nodes);
  }
  EXPECT_EQ(config(stacked_drg_2kib_v1).hs, (std::array<unsigned, 6>{1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(config(stacked_drg_32gib_v1).hs, (std::array<unsigned, 6>{7, 8, 9, 10, 11, 12}));
  EXPECT_FALSE(update_config_for_shape({8, 0, 0, 8}).ok());
}

// ---- challenges ------------------------------------------------------------------------------

TEST(snap_challenges, upstream_vectors) {
  auto text = read_text_file_bounded(test::fixture_path("snap_challenges_vectors.json"), 1 << 20);
  ASSERT_TRUE(text.ok()) << "missing fixture snap_challenges_vectors.json";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(*text).get(doc), simdjson::SUCCESS);
  std::string_view comm_hex, digest_hex;
  ASSERT_FALSE(doc["comm_r_new"]["le_hex"].get(comm_hex));
  ASSERT_FALSE(doc["derived_digest_0"]["le_hex"].get(digest_hex));
  const fr_t comm_r_new = fr_from_le_hex(comm_hex);
  EXPECT_EQ(hash_randomness(comm_r_new, fr_t::zero()), fr_from_le_hex(digest_hex));

  simdjson::dom::array vectors;
  ASSERT_FALSE(doc["vectors"].get(vectors));
  size_t checked = 0;
  for (simdjson::dom::element v : vectors) {
    uint64_t nodes = 0, k = 0;
    simdjson::dom::array first5, all;
    ASSERT_FALSE(v["sector_nodes"].get(nodes) || v["k"].get(k) ||
                 v["first5_upstream"].get(first5) || v["all_derived"].get(all));
    // Only the node count matters for the challenges; a binary shape stands in for tree_r.
    const update_config_t c = config_for(hash::tree_shape::binary(nodes));
    SCOPED_TRACE("nodes " + std::to_string(nodes) + " k " + std::to_string(k));
    const std::vector<uint64_t> got = partition_challenges(c, comm_r_new, unsigned(k));
    ASSERT_EQ(got.size(), all.size());
    size_t i = 0;
    for (uint64_t want : first5) EXPECT_EQ(got[i++], want);
    EXPECT_EQ(i, 5u);
    i = 0;
    for (uint64_t want : all) EXPECT_EQ(got[i++], want);
    for (uint64_t ch : got) {
      EXPECT_GE(ch, k * nodes / c.partitions);
      EXPECT_LT(ch, (k + 1) * nodes / c.partitions);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 24u);
}

// ---- encoding and vanilla proofs -------------------------------------------------------------

// A random sector key of any tree_r shape (the encoding does not care how it was sealed).
updated_sector_t random_update(test::test_rng& rng, const update_config_t& c) {
  auto random_fr_bytes = [&] {
    bytes32_t b;
    for (auto& x : b) x = uint8_t(rng());
    b[31] &= 0x3f;
    return b;
  };
  std::vector<fr_t> key(c.nodes);
  for (fr_t& x : key) hash::bytes_to_fr(random_fr_bytes(), x);
  auto tree = hash::poseidon_tree::build(c.tree_r, std::move(key));
  EXPECT_TRUE(tree.ok());
  std::vector<hash::bytes32_t> data(c.nodes);
  for (auto& d : data) d = random_fr_bytes();
  auto s = encode_update(c, random_fr_bytes(), std::move(*tree), std::move(data));
  EXPECT_TRUE(s.ok()) << s.error().to_string();
  return std::move(*s);
}

std::vector<partition_proof_t> proofs_of(const updated_sector_t& s) {
  const auto bytes = prove_all_partitions(s);
  EXPECT_EQ(bytes.size(), s.config.partitions);
  auto parsed = parse_partition_proofs(bytes);
  EXPECT_TRUE(parsed.ok()) << parsed.error().to_string();
  for (size_t k = 0; k < bytes.size(); ++k) {
    EXPECT_EQ(bytes[k].size(), partition_proof_bytes(s.config));
    EXPECT_EQ(serialize_partition_proof((*parsed)[k]), bytes[k]);
  }
  return std::move(*parsed);
}

TEST(snap_encode, sealed_2kib_round_trip) {
  const porep::sealed_sector_t key = test::seal_2kib(7);
  const update_config_t c = config(registered_update_proof::stacked_drg_2kib_v1);
  std::vector<uint8_t> payload(2032);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * 7 + 3);
  auto s = encode_update(c, key, payload);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->comm_r_old, key.comm_r);
  EXPECT_EQ(s->comm_c, key.comm_c);
  EXPECT_NE(s->comm_r_new, key.comm_r);
  EXPECT_EQ(decode_update(*s), std::vector<hash::bytes32_t>(s->tree_d_new.leaves().begin(),
                                                            s->tree_d_new.leaves().end()));
  // Node by node: new = key + data·rho(node >> (L − h)), h = 1 for 2 KiB.
  fr_t comm_d, comm_r_old;
  hash::bytes_to_fr(s->comm_d_new, comm_d);
  hash::bytes_to_fr(s->comm_r_old, comm_r_old);
  const fr_t ph = phi(comm_d, comm_r_old);
  for (uint64_t i : {uint64_t(0), uint64_t(31), uint64_t(32), uint64_t(63)}) {
    fr_t d;
    hash::bytes_to_fr(s->tree_d_new.leaves()[i], d);
    EXPECT_EQ(s->tree_r_new.leaves()[i], key.replica()[i] + d * rho(ph, i >> 5));
  }

  // The same from the directory `cuzk porep seal` writes.
  test::temp_dir dir("snap_encode");
  ASSERT_TRUE(porep::write_sealed_sector(key, dir.string()).ok());
  auto from_dir = encode_update_dir(c, dir.string(), payload);
  ASSERT_TRUE(from_dir.ok()) << from_dir.error().to_string();
  EXPECT_EQ(from_dir->comm_r_new, s->comm_r_new);
  EXPECT_EQ(from_dir->comm_d_new, s->comm_d_new);
  EXPECT_FALSE(encode_update_dir(c, dir.string() + "/missing", payload).ok());

  EXPECT_EQ(encode_update(c, key, std::vector<uint8_t>(2033)).error().code(),
            status_code::invalid_argument);

  const std::vector<partition_proof_t> proofs = proofs_of(*s);
  ASSERT_EQ(proofs.size(), 1u);
  EXPECT_EQ(partition_proof_bytes(c), 15'064u);
  const status st = validate_partition_proofs(c, commitments_of(*s), proofs);
  EXPECT_TRUE(st.ok()) << st.to_string();
}

TEST(snap_vanilla, wire_sizes) {
  using enum registered_update_proof;
  EXPECT_EQ(partition_proof_bytes(config(stacked_drg_2kib_v1)), 15'064u);
  EXPECT_EQ(partition_proof_bytes(config(stacked_drg_8mib_v1)), 43'864u);
  EXPECT_EQ(partition_proof_bytes(config(stacked_drg_512mib_v1)), 453'064u);
  EXPECT_EQ(partition_proof_bytes(config(stacked_drg_32gib_v1)), 561'768u);
  EXPECT_EQ(partition_proof_bytes(config(stacked_drg_64gib_v1)), 575'528u);
}

TEST(snap_vanilla, several_partitions_and_shapes) {
  auto rng = test::test_rng::from_env("snap_vanilla.several_partitions_and_shapes");
  const hash::tree_shape shapes[] = {
      {8, 8, 0, 512},                       // 16 KiB: 2 partitions, 8-8-0
      {8, 8, 2, 1024},                      // 32 KiB: 2 partitions, 8-8-2
      *hash::tree_r_shape(8 * porep::MiB),  // 8 MiB: 4 partitions, 128 apex leaves
  };
  for (const hash::tree_shape& t : shapes) {
    SCOPED_TRACE(t.name() + " " + std::to_string(t.num_leaves));
    const update_config_t c = config_for(t);
    const updated_sector_t s = random_update(rng, c);
    const std::vector<partition_proof_t> proofs = proofs_of(s);
    ASSERT_EQ(proofs.size(), c.partitions);
    const status st = validate_partition_proofs(c, commitments_of(s), proofs);
    EXPECT_TRUE(st.ok()) << st.to_string();
    // A proof is bound to its partition index.
    EXPECT_FALSE(validate_partition_proof(c, commitments_of(s), 1, proofs[0]).ok());
  }
}

class snap_tamper : public ::testing::Test {
 protected:
  void SetUp() override {
    auto rng = test::test_rng(15);
    c_ = config_for({8, 8, 0, 512});
    s_ = random_update(rng, c_);
    proofs_ = proofs_of(s_);
    ASSERT_TRUE(validate_partition_proofs(c_, commitments_of(s_), proofs_).ok());
  }
  status check(const partition_proof_t& p, unsigned k = 1) const {
    return validate_partition_proof(c_, commitments_of(s_), k, p);
  }

  update_config_t c_;
  updated_sector_t s_;
  std::vector<partition_proof_t> proofs_;
};

TEST_F(snap_tamper, every_part_is_checked) {
  const partition_proof_t good = proofs_[1];
  auto rejected = [&](const partition_proof_t& p, const char* what) {
    const status st = check(p);
    EXPECT_FALSE(st.ok()) << what;
    return st;
  };
  auto expect_rejected = [&](const partition_proof_t& p, const char* what) {
    (void)rejected(p, what);
  };
  {
    partition_proof_t p = good;
    p.comm_c[0] ^= 1;
    expect_rejected(p, "comm_c");
  }
  {
    partition_proof_t p = good;
    p.apex_leafs[77][3] ^= 1;
    const status st = rejected(p, "an apex leaf");
    EXPECT_NE(st.message().find("partition 1"), std::string::npos) << st.to_string();
  }
  {
    partition_proof_t p = good;
    p.apex_leafs.pop_back();
    EXPECT_EQ(rejected(p, "apex count").code(), status_code::size_mismatch);
  }
  for (int part = 0; part < 3; ++part) {
    for (size_t level : {size_t(0), size_t(5)}) {
      partition_proof_t p = good;
      challenge_proof_t& cp = p.challenge_proofs[4];
      merkle_proof_t& m = part == 0 ? cp.proof_r_old : part == 1 ? cp.proof_d_new : cp.proof_r_new;
      if (level >= m.hashes.size()) continue;
      m.hashes[level][1] ^= 1;
      const status st = rejected(p, "a sibling");
      EXPECT_NE(st.message().find("challenge 4"), std::string::npos) << st.to_string();
    }
    partition_proof_t p = good;
    challenge_proof_t& cp = p.challenge_proofs[2];
    merkle_proof_t& m = part == 0 ? cp.proof_r_old : part == 1 ? cp.proof_d_new : cp.proof_r_new;
    m.leaf[0] ^= 1;
    expect_rejected(p, "a leaf");
    m = part == 0   ? good.challenge_proofs[3].proof_r_old
        : part == 1 ? good.challenge_proofs[3].proof_d_new
                    : good.challenge_proofs[3].proof_r_new;
    expect_rejected(p, "another challenge's proof");
  }
  {
    // The top (partition-path) sibling of one d proof only: its own path then fails.
    partition_proof_t p = good;
    p.challenge_proofs[9].proof_d_new.hashes.back()[2] ^= 1;
    expect_rejected(p, "a partition path sibling");
  }
  {
    partition_proof_t p = good;
    std::swap(p.challenge_proofs[0], p.challenge_proofs[1]);
    expect_rejected(p, "reordered challenges");
  }
  {
    update_commitments_t comms = commitments_of(s_);
    comms.comm_r_new[0] ^= 1;
    EXPECT_FALSE(validate_partition_proof(c_, comms, 1, good).ok());
    comms = commitments_of(s_);
    comms.comm_d_new[0] ^= 1;
    EXPECT_FALSE(validate_partition_proof(c_, comms, 1, good).ok());
    comms = commitments_of(s_);
    comms.comm_r_old[0] ^= 1;
    EXPECT_FALSE(validate_partition_proof(c_, comms, 1, good).ok());
  }
  EXPECT_FALSE(check(good, 2).ok());
  EXPECT_FALSE(validate_partition_proofs(c_, commitments_of(s_),
                                         std::span<const partition_proof_t>(proofs_).first(1))
                   .ok());
  {
    partition_proof_t p = good;
    p.challenge_proofs[0].proof_r_new.path[0].index ^= 1;
    expect_rejected(p, "a path index");
  }
}

TEST_F(snap_tamper, malformed_bytes) {
  const std::vector<uint8_t> bytes = serialize_partition_proof(proofs_[0]);
  for (size_t cut : {size_t(0), size_t(31), size_t(40), bytes.size() / 2, bytes.size() - 1}) {
    auto r = parse_partition_proof(std::span<const uint8_t>(bytes).first(cut));
    EXPECT_EQ(r.error().code(), status_code::bad_encoding) << cut;
  }
  std::vector<uint8_t> trailing = bytes;
  trailing.push_back(0);
  EXPECT_EQ(parse_partition_proof(trailing).error().code(), status_code::bad_encoding);
  // A huge apex_leafs count is refused before anything is allocated.
  std::vector<uint8_t> huge = bytes;
  for (int i = 32; i < 40; ++i) huge[i] = 0xff;
  auto r = parse_partition_proof(huge);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("apex_leafs"), std::string::npos) << r.error().to_string();
  // A bad Merkle proof variant inside challenge 3.
  const size_t head = 32 + 8 + 32 * c_.apex_leaves + 8;
  const size_t per_challenge = (bytes.size() - head) / c_.challenges;
  std::vector<uint8_t> variant = bytes;
  variant[head + 3 * per_challenge] = 7;
  auto v = parse_partition_proofs(std::vector<std::vector<uint8_t>>{bytes, variant});
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message().find("vanilla_proofs[1]"), std::string::npos);
  EXPECT_NE(v.error().message().find("challenge_proofs[3]"), std::string::npos)
      << v.error().to_string();
  // The shape check catches a d proof of the wrong height.
  partition_proof_t p = proofs_[0];
  p.challenge_proofs[0].proof_d_new.path.pop_back();
  p.challenge_proofs[0].proof_d_new.hashes.pop_back();
  p.challenge_proofs[0].proof_d_new.base_len--;
  EXPECT_EQ(check_partition_proof_shape(c_, p).code(), status_code::size_mismatch);
  // The JSON file form is the PoSt one (Go [][]byte).
  const std::vector<std::vector<uint8_t>> elements = {bytes};
  auto file = parse_vanilla_file(vanilla_file_json(elements));
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(*file, elements);
}

// The commitments file beside a vanilla file: written and read back; a missing, repeated or
// unknown field, bad hex and trailing bytes are refused naming the field.
TEST(snap_commitments, json_round_trip_and_refusals) {
  update_commitments_t c;
  for (size_t i = 0; i < 32; ++i) {
    c.comm_r_old[i] = uint8_t(i);
    c.comm_r_new[i] = uint8_t(2 * i + 1);
    c.comm_d_new[i] = uint8_t(31 - i);
  }
  const std::string json = commitments_json(c);
  EXPECT_EQ(json.substr(0, 27), "{\"comm_r_old\":\"000102030405");
  auto back = parse_commitments_json(json);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->comm_r_old, c.comm_r_old);
  EXPECT_EQ(back->comm_r_new, c.comm_r_new);
  EXPECT_EQ(back->comm_d_new, c.comm_d_new);

  // Built with append: GCC 12's -Wrestrict misfires on "…" + std::string chains.
  const auto field = [](std::string_view name, std::string_view v) {
    std::string f(1, '"');
    f.append(name).append("\":\"").append(v).push_back('"');
    return f;
  };
  const auto object = [](std::initializer_list<std::string_view> members, std::string_view tail) {
    std::string o(1, '{');
    for (std::string_view m : members) o.append(o.size() > 1 ? "," : "").append(m);
    o.push_back('}');
    return o.append(tail);
  };
  const std::string hex(64, 'a');
  const std::string rold = field("comm_r_old", hex), rnew = field("comm_r_new", hex),
                    dnew = field("comm_d_new", hex), bad_hex = field("comm_r_old", "abc");
  EXPECT_TRUE(parse_commitments_json(object({dnew, rnew, rold}, "")).ok());
  const std::pair<std::string, std::string> refused[] = {
      {object({rold, rnew}, ""), "comm_d_new"},
      {object({rold, rold, rnew, dnew}, ""), "duplicate"},
      {object({rold, rnew, dnew, "\"x\":1"}, ""), "unknown"},
      {object({bad_hex, rnew, dnew}, ""), "comm_r_old"},
      {object({rold, rnew, dnew}, "x"), "trailing"},
      {"[]", ""},
  };
  for (const auto& [text, needle] : refused) {
    auto r = parse_commitments_json(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().to_string().find(needle), std::string::npos) << r.error().to_string();
  }
}

// ---- synthetic updates ---------------------------------------------------------------------

// A synthetic update passes every check a vanilla verifier makes (challenges derived
// from comm_r_new, every path, the encoding of each challenged node with rho, the apex leaves
// against comm_d_new), is a function of its seed, and is bound to its commitments. 32 GiB:
// synthetic_slow_test.
TEST(snap_synthetic, validates_at_every_size) {
  struct case_t {
    update_config_t config;
    unsigned block_bits;
  };
  using enum registered_update_proof;
  const case_t cases[] = {
      {config(stacked_drg_2kib_v1), 0},  // 64 nodes: one block per node
      {config_for({8, 8, 2, 1024}), 0},  // 32 KiB, 8-8-2
      {config(stacked_drg_8mib_v1), 2},  // 2^18 nodes: 2^16 blocks of 4
  };
  for (const case_t& t : cases) {
    const update_config_t& c = t.config;
    SCOPED_TRACE(std::to_string(c.sector_bytes) + " bytes");
    auto u = generate_synthetic_update(c, 3);
    ASSERT_TRUE(u.ok()) << u.error().to_string();
    EXPECT_EQ(u->block_bits, t.block_bits);
    ASSERT_EQ(u->partition_proofs.size(), c.partitions);
    EXPECT_EQ(u->partition_proofs[0].size(), partition_proof_bytes(c));
    auto proofs = parse_partition_proofs(u->partition_proofs);
    ASSERT_TRUE(proofs.ok()) << proofs.error().to_string();
    const status ok = validate_partition_proofs(c, u->commitments, *proofs);
    EXPECT_TRUE(ok.ok()) << ok.to_string();

    EXPECT_EQ(generate_synthetic_update(c, 3)->partition_proofs, u->partition_proofs);
    const auto other = generate_synthetic_update(c, 4);
    EXPECT_NE(other->commitments.comm_r_new, u->commitments.comm_r_new);
    EXPECT_NE(other->commitments.comm_d_new, u->commitments.comm_d_new);
    update_commitments_t wrong = u->commitments;
    wrong.comm_r_old = other->commitments.comm_r_old;
    EXPECT_FALSE(validate_partition_proof(c, wrong, 0, (*proofs)[0]).ok());
  }
}

}  // namespace
}  // namespace cuzk::filecoin::snap
