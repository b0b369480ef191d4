// SPDX-License-Identifier: Apache-2.0
// PoSt vanilla side: registered proofs by wire number, Go and Rust name; per-size constants; the
// curio golden post.vproof (32 GiB WindowPoSt, sector 1) decoded byte for byte, re-encoded
// identically, its comm_r equal to the SealedCID of postpub.json, every path checked against
// comm_r_last under V1 and V1_2; the worked challenge examples of docs/spec/post.md §3 (post.vproof
// and window_post_32g_vector.json); malformed bytes, tampered paths and wrong randomness
// rejected with a status naming the field or the sector and challenge; partition slots/padding;
// vanilla proofs generated from sealed 2 KiB sectors check, at the wire sizes of post.md §7.
#include <gtest/gtest.h>

#include <string>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "filecoin/post/challenges.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/partition.hpp"
#include "filecoin/post/synthetic.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/post/vanilla_prove.hpp"
#include "fixtures.hpp"
#include "sealed_sectors.hpp"
#include "temp_dir.hpp"

namespace cuzk::filecoin::post {
namespace {

std::vector<uint8_t> read_fixture(const char* name) {
  auto b = read_file_bounded(test::fixture_path(name), 1 << 20);
  EXPECT_TRUE(b.ok()) << "missing fixture " << name << ": " << b.error().to_string();
  return b.ok() ? std::move(*b) : std::vector<uint8_t>{};
}

std::string read_fixture_text(const char* name) {
  auto t = read_text_file_bounded(test::fixture_path(name), 1 << 20);
  EXPECT_TRUE(t.ok()) << "missing fixture " << name << ": " << t.error().to_string();
  return t.ok() ? std::move(*t) : std::string{};
}

// The text between `"key":"` and the next quote (the fixtures' flat string fields).
std::string json_string_field(const std::string& json, const std::string& key) {
  const std::string pat = "\"" + key + "\"";
  size_t at = json.find(pat);
  if (at == std::string::npos) return {};
  at = json.find('"', json.find(':', at) + 1) + 1;
  return json.substr(at, json.find('"', at) - at);
}

// RFC 4648 base32, lower case, no padding (multibase 'b').
std::vector<uint8_t> base32_decode(std::string_view s) {
  std::vector<uint8_t> out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    const int v = c >= 'a' && c <= 'z' ? c - 'a' : c >= '2' && c <= '7' ? c - '2' + 26 : -1;
    EXPECT_GE(v, 0);
    acc = (acc << 5) | uint32_t(v);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(uint8_t(acc >> bits));
    }
  }
  return out;
}

bytes32_t hex32(const std::string& h) {
  bytes32_t out{};
  EXPECT_TRUE(from_hex_into(h, out).ok()) << h;
  return out;
}

post_config_t config(registered_post_proof p) {
  auto c = post_config(p);
  EXPECT_TRUE(c.ok());
  return *c;
}

// ---- registered proofs and constants ---------------------------------------------------------

TEST(post_config, names_and_numbers) {
  for (uint32_t id = 0; id < NUM_REGISTERED_POST_PROOFS; ++id) {
    const auto p = registered_post_proof(id);
    EXPECT_EQ(*parse_registered_post_proof(std::to_string(id)), p);
    EXPECT_EQ(*parse_registered_post_proof(name_of(p)), p);
    EXPECT_EQ(*parse_registered_post_proof(go_name_of(p)), p);
  }
  EXPECT_EQ(*parse_registered_post_proof("StackedDrgWindow32GiBV1_1"),
            registered_post_proof::window_32gib_v1_1);
  EXPECT_EQ(*parse_registered_post_proof("StackedDrgWindow32GiBV1_2"),
            registered_post_proof::window_32gib_v1_1);
  EXPECT_EQ(*parse_registered_post_proof("13"), registered_post_proof::window_32gib_v1_1);
  EXPECT_EQ(name_of(registered_post_proof::window_2kib_v1_1), "StackedDrgWindow2KiBV1_2");
  EXPECT_EQ(go_name_of(registered_post_proof::window_2kib_v1_1), "StackedDrgWindow2KiBV1_1");
  EXPECT_EQ(name_of(registered_post_proof::winning_64gib_v1), "StackedDrgWinning64GiBV1");
  EXPECT_FALSE(parse_registered_post_proof("15").ok());
  EXPECT_FALSE(parse_registered_post_proof("StackedDrgWinning32GiBV1_2").ok());
  EXPECT_FALSE(parse_registered_post_proof("").ok());
  EXPECT_EQ(version_of(registered_post_proof::winning_32gib_v1), api_version::v1_0_0);
  EXPECT_EQ(version_of(registered_post_proof::window_32gib_v1), api_version::v1_0_0);
  EXPECT_EQ(version_of(registered_post_proof::window_32gib_v1_1), api_version::v1_2_0);
}

TEST(post_config, per_size_constants) {
  struct size_case {
    unsigned index;
    uint64_t bytes;
    const char* shape;
    unsigned window_sectors;
  };
  for (const size_case& sc :
       {size_case{0, 2048, "8-0-0", 2}, size_case{1, 8 << 20, "8-0-0", 2},
        size_case{2, 512 << 20, "8-0-0", 2}, size_case{3, 32ull << 30, "8-8-0", 2349},
        size_case{4, 64ull << 30, "8-8-2", 2300}}) {
    for (unsigned base : {5u, 10u}) {
      const post_config_t w = config(registered_post_proof(base + sc.index));
      EXPECT_EQ(w.kind, post_kind::window);
      EXPECT_EQ(w.sector_bytes, sc.bytes);
      EXPECT_EQ(w.nodes, sc.bytes / 32);
      EXPECT_EQ(w.tree.name(), sc.shape);
      EXPECT_EQ(w.sector_count, sc.window_sectors);
      EXPECT_EQ(w.circuit_sector_count, sc.window_sectors);
      EXPECT_EQ(w.challenge_count, 10u);
      EXPECT_EQ(w.circuit_challenge_count, 10u);
    }
    const post_config_t g = config(registered_post_proof(sc.index));
    EXPECT_EQ(g.kind, post_kind::winning);
    EXPECT_EQ(g.sector_count, 1u);
    EXPECT_EQ(g.challenge_count, 66u);
    EXPECT_EQ(g.circuit_sector_count, 66u);
    EXPECT_EQ(g.circuit_challenge_count, 1u);
  }
  EXPECT_EQ(window_post_partitions(0, 2349), 1u);
  EXPECT_EQ(window_post_partitions(1, 2349), 1u);
  EXPECT_EQ(window_post_partitions(2349, 2349), 1u);
  EXPECT_EQ(window_post_partitions(2350, 2349), 2u);
  EXPECT_EQ(window_post_partitions(5, 2), 3u);
}

// ---- post.vproof -----------------------------------------------------------------------------

class post_vproof : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = read_fixture("post.vproof");
    ASSERT_EQ(bytes_.size(), 24'960u);
    auto p = parse_fallback_sector_proof(bytes_);
    ASSERT_TRUE(p.ok()) << p.error().to_string();
    proof_ = std::move(*p);
  }
  std::vector<uint8_t> bytes_;
  fallback_sector_proof_t proof_;
  const bytes32_t zero_randomness_{};
};

TEST_F(post_vproof, decodes_byte_for_byte) {
  EXPECT_EQ(proof_.sector_id, 1u);
  ASSERT_EQ(proof_.sectors.size(), 1u);
  const sector_proof_t& s = proof_.sectors[0];
  ASSERT_EQ(s.inclusion_proofs.size(), 10u);
  for (const merkle_proof_t& m : s.inclusion_proofs) {
    EXPECT_EQ(m.kind, porep::merkle_proof_kind::sub);
    EXPECT_EQ(m.base_len, 9u);
    EXPECT_EQ(m.sub_len, 1u);
    EXPECT_EQ(m.hashes.size(), 70u);
    EXPECT_EQ(m.root, s.comm_r_last);
  }
  EXPECT_EQ(serialize_fallback_sector_proof(proof_), bytes_);

  // comm_r is the digest of the SealedCID in postpub.json: CIDv1 (0x01), fil-commitment-sealed
  // (0xf102), poseidon-bls12_381-a2-fc1 (0xb401), 32 bytes.
  const std::string pub = read_fixture_text("postpub.json");
  const std::string cid = json_string_field(pub, "/");
  ASSERT_EQ(cid.front(), 'b');
  const std::vector<uint8_t> raw = base32_decode(std::string_view(cid).substr(1));
  ASSERT_GE(raw.size(), 32u);
  EXPECT_EQ(to_hex(std::span<const uint8_t>(raw.data(), raw.size() - 32)), "0182e20381e80220");
  EXPECT_TRUE(std::equal(raw.end() - 32, raw.end(), proof_.comm_r.begin()));
}

TEST_F(post_vproof, challenges_and_paths_check_as_v1_and_v1_2) {
  const std::vector<uint64_t> expected = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                          6202012,   1055504637, 389535735, 1000069704, 600088878};
  const post_config_t v1 = config(registered_post_proof::window_32gib_v1);  // postpub.json: 8
  EXPECT_EQ(sector_leaf_challenges(v1, zero_randomness_, 1, 0, 0), expected);
  for (size_t n = 0; n < 10; ++n)
    EXPECT_EQ(proof_.sectors[0].inclusion_proofs[n].leaf_index(), expected[n]);
  for (auto p :
       {registered_post_proof::window_32gib_v1, registered_post_proof::window_32gib_v1_1}) {
    const post_config_t cfg = config(p);
    const status st = validate_sector_proof(cfg, proof_, zero_randomness_, 0, 0);
    EXPECT_TRUE(st.ok()) << st.to_string();
    const fallback_sector_proof_t one[] = {proof_};
    EXPECT_TRUE(validate_partition(cfg, one, zero_randomness_, 0).ok());
  }
  // V1 indexing depends on the position; V1_2 does not.
  EXPECT_FALSE(validate_sector_proof(v1, proof_, zero_randomness_, 0, 1).ok());
  EXPECT_TRUE(validate_sector_proof(config(registered_post_proof::window_32gib_v1_1), proof_,
                                    zero_randomness_, 3, 7)
                  .ok());
}

TEST_F(post_vproof, tampering_is_named) {
  const post_config_t cfg = config(registered_post_proof::window_32gib_v1);
  {
    fallback_sector_proof_t t = proof_;
    t.sectors[0].inclusion_proofs[4].hashes[17][3] ^= 1;
    const status st = validate_sector_proof(cfg, t, zero_randomness_, 0, 0);
    EXPECT_EQ(st.code(), status_code::invalid_argument);
    EXPECT_NE(st.message().find("sector 1 challenge 4"), std::string::npos) << st.to_string();
  }
  {
    fallback_sector_proof_t t = proof_;
    t.sectors[0].comm_c[0] ^= 1;
    const status st = validate_sector_proof(cfg, t, zero_randomness_, 0, 0);
    EXPECT_NE(st.message().find("comm_r is not Poseidon"), std::string::npos) << st.to_string();
  }
  {
    bytes32_t wrong{};
    wrong[0] = 1;
    const status st = validate_sector_proof(cfg, proof_, wrong, 0, 0);
    EXPECT_NE(st.message().find("sector 1 challenge 0: proves leaf 707914199"), std::string::npos)
        << st.to_string();
  }
  {
    fallback_sector_proof_t t = proof_;
    t.sectors[0].inclusion_proofs.pop_back();
    EXPECT_EQ(validate_sector_proof(cfg, t, zero_randomness_, 0, 0).code(),
              status_code::size_mismatch);
  }
  {
    // A 2 KiB config does not accept 32 GiB paths.
    const status st =
        check_sector_proof_shape(config(registered_post_proof::window_2kib_v1), proof_);
    EXPECT_EQ(st.code(), status_code::size_mismatch);
    EXPECT_NE(st.message().find("sector 1 challenge 0"), std::string::npos);
  }
}

TEST_F(post_vproof, malformed_bytes_name_the_field) {
  // Every truncation fails (never aborts), naming a field.
  for (size_t len : {0ul, 7ul, 40ul, 47ul, 48ul, 100ul, 2'600ul, 24'900ul, 24'959ul}) {
    const auto r = parse_fallback_sector_proof(std::span<const uint8_t>(bytes_.data(), len));
    ASSERT_FALSE(r.ok()) << len;
    EXPECT_EQ(r.error().code(), status_code::bad_encoding);
    const std::string m = r.error().message();
    EXPECT_TRUE(m.find("truncated") != std::string::npos ||
                m.find("exceeds the remaining input") != std::string::npos)
        << m;
  }
  auto error_at = [&](size_t len) {
    return parse_fallback_sector_proof(std::span<const uint8_t>(bytes_.data(), len))
        .error()
        .message();
  };
  EXPECT_EQ(error_at(7), "sector_id: truncated: need 8 bytes, 7 left (byte 0)");
  EXPECT_EQ(error_at(40), "vanilla_proof.sectors: truncated: need 8 bytes, 0 left (byte 40)");
  EXPECT_EQ(error_at(130),
            "vanilla_proof.sectors[0].inclusion_proofs: length 10 exceeds the remaining input "
            "(byte 48)");
  EXPECT_EQ(error_at(24'959),
            "vanilla_proof.sectors[0].comm_r_last: truncated: need 32 bytes, 31 "
            "left (byte 24928)");
  {
    std::vector<uint8_t> b = bytes_;
    b.push_back(0);
    const auto r = parse_fallback_sector_proof(b);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message().find("trailing"), std::string::npos);
  }
  {
    // A huge sector count is refused before anything is allocated.
    std::vector<uint8_t> b = bytes_;
    for (int i = 40; i < 48; ++i) b[i] = 0xff;
    const auto r = parse_fallback_sector_proof(b);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message().find("vanilla_proof.sectors: length"), std::string::npos)
        << r.error().to_string();
  }
  {
    // Inclusion proof count (byte 48) and the first variant (byte 56).
    std::vector<uint8_t> b = bytes_;
    b[48 + 5] = 0x10;
    EXPECT_NE(parse_fallback_sector_proof(b).error().message().find(
                  "vanilla_proof.sectors[0].inclusion_proofs: length"),
              std::string::npos);
    b = bytes_;
    b[56] = 7;
    EXPECT_NE(parse_fallback_sector_proof(b).error().message().find("unknown variant 7"),
              std::string::npos);
  }
}

TEST_F(post_vproof, vanilla_file_round_trip_and_errors) {
  const std::vector<uint8_t> two[] = {bytes_, bytes_};
  const std::string json = vanilla_file_json(two);
  EXPECT_EQ(json.substr(0, 2), "[\"");
  auto elements = parse_vanilla_file("  " + json + "\n");
  ASSERT_TRUE(elements.ok()) << elements.error().to_string();
  ASSERT_EQ(elements->size(), 2u);
  EXPECT_EQ((*elements)[1], bytes_);
  auto proofs = parse_fallback_sector_proofs(*elements);
  ASSERT_TRUE(proofs.ok());
  EXPECT_EQ((*proofs)[1], proof_);
  EXPECT_TRUE(parse_vanilla_file("[]")->empty());

  EXPECT_FALSE(parse_vanilla_file("{}").ok());
  EXPECT_FALSE(parse_vanilla_file(json + "x").ok());
  const auto bad = parse_vanilla_file("[\"AAAA\", \"A*==\"]");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message().substr(0, 4), "[1]:") << bad.error().to_string();
  const auto not_string = parse_vanilla_file("[\"AAAA\", 7]");
  ASSERT_FALSE(not_string.ok());
  EXPECT_EQ(not_string.error().message().substr(0, 4), "[1]:") << not_string.error().to_string();

  (*elements)[1].resize(100);
  const auto short_proof = parse_fallback_sector_proofs(*elements);
  ASSERT_FALSE(short_proof.ok());
  EXPECT_EQ(short_proof.error().message().substr(0, 33), "vanilla_proofs[1]: vanilla_proof.")
      << short_proof.error().to_string();
}

// ---- the rust-filecoin-proofs-api 32 GiB vector ----------------------------------------------

TEST(post_challenges, window_post_32g_vector) {
  const std::string v = read_fixture_text("window_post_32g_vector.json");
  const bytes32_t randomness = hex32(json_string_field(v, "randomness_hex"));
  const std::vector<uint64_t> expected = {396119802, 277217811, 436245381, 243087716, 706056829,
                                          128152768, 598990178, 81580961,  470132133, 332920863};
  ASSERT_NE(v.find("396119802, 277217811"), std::string::npos);
  for (auto p : {registered_post_proof::window_32gib_v1, registered_post_proof::window_32gib_v1_1})
    EXPECT_EQ(sector_leaf_challenges(config(p), randomness, 132, 0, 0), expected);
  EXPECT_EQ(hex32(json_string_field(v, "prover_id_hex")), porep::prover_id_from_actor(3751));
}

TEST(post_challenges, indexing) {
  EXPECT_EQ(challenge_index(api_version::v1_0_0, 2, 2349, 5, 10, 3), (2u * 2349 + 5) * 10 + 3);
  EXPECT_EQ(challenge_index(api_version::v1_2_0, 2, 2349, 5, 10, 3), 3u);
  // Winning: the vanilla view (1 sector × 66) and the circuit view (66 × 1) agree.
  const post_config_t g = config(registered_post_proof::winning_2kib_v1);
  const bytes32_t r{7};
  const std::vector<uint64_t> vanilla = sector_leaf_challenges(g, r, 9, 0, 0);
  ASSERT_EQ(vanilla.size(), 66u);
  for (unsigned i = 0; i < 66; ++i) {
    const uint64_t ci =
        challenge_index(g.version, 0, g.circuit_sector_count, i, g.circuit_challenge_count, 0);
    EXPECT_EQ(leaf_challenge(r, 9, ci, g.nodes), vanilla[i]);
    EXPECT_LT(vanilla[i], 64u);
  }
  EXPECT_FALSE(winning_sector_challenge(bytes32_t{}, r, 0, 0).ok());
  EXPECT_LT(*winning_sector_challenge(bytes32_t{1}, r, 0, 5), 5u);
  bytes32_t big;
  big.fill(0xff);
  EXPECT_EQ(check_safe_commitment(big, "randomness").code(), status_code::non_canonical);
}

// ---- partitions ------------------------------------------------------------------------------

TEST(post_partition, slots_and_padding) {
  const post_config_t w = config(registered_post_proof::window_32gib_v1_1);
  auto slots = circuit_slots(w, 3);
  ASSERT_TRUE(slots.ok());
  ASSERT_EQ(slots->size(), 2349u);
  EXPECT_EQ((*slots)[0], (slot_source_t{0, 0}));
  EXPECT_EQ((*slots)[2], (slot_source_t{2, 0}));
  EXPECT_EQ((*slots)[2348], (slot_source_t{2, 0}));
  EXPECT_FALSE(circuit_slots(w, 0).ok());
  EXPECT_FALSE(circuit_slots(w, 2350).ok());

  const post_config_t g = config(registered_post_proof::winning_32gib_v1);
  slots = circuit_slots(g, 1);
  ASSERT_TRUE(slots.ok());
  ASSERT_EQ(slots->size(), 66u);
  EXPECT_EQ((*slots)[65], (slot_source_t{0, 65}));
  EXPECT_FALSE(circuit_slots(g, 2).ok());

  const public_sector_t one[] = {{4, {}}};
  EXPECT_EQ(circuit_public_sectors(g, one).size(), 66u);
  EXPECT_EQ(circuit_public_sectors(w, one).size(), 1u);
}

// ---- vanilla proofs of sealed sectors --------------------------------------------------------

TEST(post_vanilla_prove, sealed_2kib_window_and_winning) {
  const porep::sealed_sector_t a = test::seal_2kib(5), b = test::seal_2kib(9);
  bytes32_t randomness{};
  for (size_t i = 0; i < 31; ++i) randomness[i] = uint8_t(17 * i + 3);

  for (auto p : {registered_post_proof::window_2kib_v1, registered_post_proof::window_2kib_v1_1}) {
    const post_config_t cfg = config(p);
    for (unsigned k : {0u, 1u}) {
      auto pa = prove_sector(cfg, a, randomness, k, 0);
      auto pb = prove_sector(cfg, b, randomness, k, 1);
      ASSERT_TRUE(pa.ok() && pb.ok());
      const std::vector<uint8_t> bytes = serialize_fallback_sector_proof(*pa);
      EXPECT_EQ(bytes.size(), 5'680u);
      EXPECT_EQ(*parse_fallback_sector_proof(bytes), *pa);
      const fallback_sector_proof_t both[] = {*pa, *pb};
      EXPECT_TRUE(validate_partition(cfg, both, randomness, k).ok());
      // Swapped positions: V1 challenges depend on the position, V1_2 ones do not (but the order
      // must ascend).
      const fallback_sector_proof_t swapped[] = {*pb, *pa};
      EXPECT_FALSE(validate_partition(cfg, swapped, randomness, k).ok());
      const status second = validate_sector_proof(cfg, *pb, randomness, k, 0);
      EXPECT_EQ(second.ok(), cfg.version == api_version::v1_2_0) << second.to_string();
      bytes32_t other = randomness;
      other[0] ^= 1;
      const status wrong = validate_partition(cfg, both, other, k);
      EXPECT_FALSE(wrong.ok());
      EXPECT_NE(wrong.message().find("sector 5 challenge"), std::string::npos) << wrong.to_string();
    }
  }

  const post_config_t g = config(registered_post_proof::winning_2kib_v1);
  auto w = prove_sector(g, b, randomness, 0, 0);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(serialize_fallback_sector_proof(*w).size(), 36'816u);
  const fallback_sector_proof_t one[] = {*w};
  EXPECT_TRUE(validate_partition(g, one, randomness, 0).ok());
  EXPECT_FALSE(validate_partition(g, one, randomness, 1).ok());

  EXPECT_FALSE(
      prove_sector(config(registered_post_proof::window_8mib_v1), a, randomness, 0, 0).ok());
  bytes32_t big;
  big.fill(0xff);
  EXPECT_EQ(prove_sector(g, a, big, 0, 0).error().code(), status_code::non_canonical);
}

// The directory `cuzk porep seal` writes gives the same proofs as the sector in memory.
TEST(post_vanilla_prove, from_a_sealed_sector_directory) {
  const porep::sealed_sector_t s = test::seal_2kib(21);
  const test::temp_dir dir("cuzk_post_test");
  ASSERT_TRUE(porep::write_sealed_sector(s, dir.string()).ok());
  const post_config_t cfg = config(registered_post_proof::window_2kib_v1_1);
  auto r = open_replica(cfg, dir.string(), 21);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->comm_r, s.comm_r);
  const bytes32_t randomness{9, 9, 9};
  auto from_dir = prove_sector(cfg, *r, randomness, 0, 0);
  ASSERT_TRUE(from_dir.ok());
  EXPECT_EQ(*from_dir, *prove_sector(cfg, s, randomness, 0, 0));
  const fallback_sector_proof_t one[] = {*from_dir};
  EXPECT_TRUE(validate_partition(cfg, one, randomness, 0).ok());

  EXPECT_EQ(
      open_replica(config(registered_post_proof::window_8mib_v1), dir.string(), 21).error().code(),
      status_code::bad_length);
  EXPECT_FALSE(open_replica(cfg, dir.string() + "/missing", 21).ok());
  {
    // A p_aux that does not match the replica.
    std::vector<uint8_t> aux(64);
    std::copy(s.comm_c.begin(), s.comm_c.end(), aux.begin());
    std::copy(s.comm_r_last.begin(), s.comm_r_last.end(), aux.begin() + 32);
    aux[40] ^= 1;
    ASSERT_TRUE(write_file_atomic(dir.string() + "/p_aux", aux).ok());
    const auto bad = open_replica(cfg, dir.string(), 21);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message().find("not p_aux's comm_r_last"), std::string::npos);
  }
}

// ---- synthetic vanilla proofs ----------------------------------------------------------------

// Synthetic partitions of any size pass the same vanilla checks a real sector's do (the challenges
// derived independently by validate_partition, every path hashed to its root, comm_r from comm_c
// and comm_r_last), are a function of the seed, and are refused where a real one would be.
TEST(post_synthetic, partitions_validate_at_every_size) {
  bytes32_t randomness{};
  for (size_t i = 0; i < 31; ++i) randomness[i] = uint8_t(29 * i + 7);
  struct case_t {
    registered_post_proof proof;
    unsigned sectors, partition;
    size_t element_bytes;  // one serialized FallbackPoStSectorProof (docs/spec/post.md §7)
  };
  const case_t cases[] = {
      {registered_post_proof::window_2kib_v1, 0, 1, 5'680},
      {registered_post_proof::window_2kib_v1_1, 2, 0, 5'680},
      {registered_post_proof::window_32gib_v1_1, 3, 1, 24'960},
      {registered_post_proof::window_64gib_v1, 2, 4, 0},
      {registered_post_proof::winning_32gib_v1, 0, 0, 0},
      {registered_post_proof::winning_2kib_v1, 1, 0, 36'816},
  };
  for (const case_t& t : cases) {
    const post_config_t cfg = config(t.proof);
    SCOPED_TRACE(std::string(name_of(t.proof)));
    synthetic_post_request_t req{cfg, randomness, 1000, t.sectors, t.partition, 5};
    auto v = generate_synthetic_post(req);
    ASSERT_TRUE(v.ok()) << v.error().to_string();
    const unsigned n =
        t.sectors ? t.sectors : (cfg.kind == post_kind::window ? cfg.sector_count : 1);
    ASSERT_EQ(v->size(), n);
    EXPECT_EQ((*v)[0].sector_id, 1000u);
    EXPECT_EQ(v->back().sector_id, 1000u + n - 1);
    const status ok = validate_partition(cfg, *v, randomness, t.partition);
    EXPECT_TRUE(ok.ok()) << ok.to_string();
    if (t.element_bytes) {
      EXPECT_EQ(serialize_fallback_sector_proof((*v)[0]).size(), t.element_bytes);
    }
    // The wire form decodes to the same proofs.
    EXPECT_EQ(*parse_fallback_sector_proof(serialize_fallback_sector_proof(v->back())), v->back());
    // Deterministic in the seed; another seed, other sectors.
    EXPECT_EQ(*generate_synthetic_post(req), *v);
    req.seed = 6;
    EXPECT_NE(generate_synthetic_post(req)->front().comm_r, (*v)[0].comm_r);
    // Under other randomness the challenges differ: the proofs no longer validate.
    bytes32_t other = randomness;
    other[3] ^= 1;
    EXPECT_FALSE(validate_partition(cfg, *v, other, t.partition).ok());
  }

  const post_config_t w = config(registered_post_proof::window_32gib_v1_1);
  EXPECT_EQ(generate_synthetic_post({w, randomness, 1, w.sector_count + 1, 0, 1}).error().code(),
            status_code::invalid_argument);
  EXPECT_EQ(generate_synthetic_post({w, randomness, UINT64_MAX - 1, 2, 0, 1}).error().code(),
            status_code::invalid_argument);
  const post_config_t g = config(registered_post_proof::winning_32gib_v1);
  EXPECT_EQ(generate_synthetic_post({g, randomness, 1, 1, 1, 1}).error().code(),
            status_code::invalid_argument);
  bytes32_t big;
  big.fill(0xff);
  EXPECT_EQ(generate_synthetic_post({g, big, 1, 1, 0, 1}).error().code(),
            status_code::non_canonical);
}

}  // namespace
}  // namespace cuzk::filecoin::post
