// SPDX-License-Identifier: Apache-2.0
// C1 formats and synthetic vanilla proofs: synthetic 2 KiB / 8 MiB / 512 MiB C1s pass the
// independent checker (c1_test_check.hpp: OpenSSL SHA-256 labels, tree_d paths, challenges and
// replica_id; Poseidon paths; comm_r); serde JSON write → read → write is byte-identical and
// whitespace-tolerant; the c1.json wrapper round-trips; a bincode v1 file written by an
// independent minimal writer here (docs/spec/c1.md §2) parses to the same C1; malformed inputs are
// rejected with errors that name the field.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/base64.hpp"
#include "base/hex.hpp"
#include "filecoin/porep/c1_bincode.hpp"
#include "filecoin/porep/c1_bincode_test_util.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/c1_test_check.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/synthetic.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::porep {
namespace {

synthetic_request_t request(registered_seal_proof p) {
  synthetic_request_t r;
  r.config = *porep_config(p);
  r.prover_id = prover_id_from_actor(1000);
  r.sector_id = 7;
  for (int i = 0; i < 32; ++i) r.ticket[i] = uint8_t(i + 1), r.seed[i] = uint8_t(200 - i);
  return r;
}

const c1_output_t& c1_2kib() {
  static const c1_output_t c1 =
      *generate_synthetic_c1(request(registered_seal_proof::stacked_drg_2kib_v1_1));
  return c1;
}

// ---- synthetic
// -----------------------------------------------------------------------------------

TEST(synthetic, c1_2kib_checks) {
  for (auto p :
       {registered_seal_proof::stacked_drg_2kib_v1, registered_seal_proof::stacked_drg_2kib_v1_1}) {
    const auto req = request(p);
    auto c1 = generate_synthetic_c1(req);
    ASSERT_TRUE(c1.ok()) << c1.error().to_string();
    EXPECT_EQ(c1->registered_proof, name_of(p));
    // CC sector: the zero-sector comm_d of docs/spec/porep.md §5.
    EXPECT_EQ(to_hex(c1->comm_d),
              "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    EXPECT_EQ(test::check_c1(*c1, req.prover_id, req.sector_id), "");
  }
}

TEST(synthetic, c1_8mib_and_512mib_checks) {
  for (auto p : {registered_seal_proof::stacked_drg_8mib_v1_1,
                 registered_seal_proof::stacked_drg_512mib_v1}) {
    const auto req = request(p);
    synthetic_stats_t st;
    auto c1 = generate_synthetic_c1(req, thread_pool::default_pool(), &st);
    ASSERT_TRUE(c1.ok()) << c1.error().to_string();
    EXPECT_EQ(test::check_c1(*c1, req.prover_id, req.sector_id), "") << name_of(p);
    EXPECT_GT(st.real_columns, 2u);
  }
}

/// 32 GiB: 10 × 18 challenges, 11 layers, 8-8-0 (Sub) trees; generation, the full check and a
/// JSON round trip (~39 MB) take seconds (a minute in the -O0 sanitizer build), so this runs in
/// CI. The times are printed, not asserted (a loaded or instrumented machine is no failure).
TEST(synthetic, c1_32gib_checks_and_json_round_trip) {
  const auto req = request(registered_seal_proof::stacked_drg_32gib_v1_1);
  synthetic_stats_t st;
  const auto t0 = std::chrono::steady_clock::now();
  auto c1 = generate_synthetic_c1(req, thread_pool::default_pool(), &st);
  const double gen = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(c1.ok()) << c1.error().to_string();
  std::printf(
      "32 GiB synthetic C1: %.3f s (labels %.3f, trees %.3f, proofs %.3f; %zu columns, "
      "%zu hashes)\n",
      gen, st.labels, st.trees, st.proofs, st.real_columns, st.poseidon_hashes);
  EXPECT_EQ(to_hex(c1->comm_d), "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e");
  ASSERT_EQ(c1->vanilla_proofs.size(), 10u);
  ASSERT_EQ(c1->vanilla_proofs[0].size(), 18u);
  EXPECT_EQ(c1->vanilla_proofs[3][7].comm_r_last_proof.kind, merkle_proof_kind::sub);
  EXPECT_EQ(test::check_c1(*c1, req.prover_id, req.sector_id), "");
  const auto t1 = std::chrono::steady_clock::now();
  auto j = write_c1_json(*c1);
  const auto t2 = std::chrono::steady_clock::now();
  ASSERT_TRUE(j.ok());
  auto back = parse_c1_json(*j);
  const auto t3 = std::chrono::steady_clock::now();
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::printf("JSON %zu bytes: write %.3f s, parse %.3f s (%.0f MB/s)\n", j->size(), secs(t1, t2),
              secs(t2, t3), double(j->size()) / 1e6 / secs(t2, t3));
  EXPECT_TRUE(*back == *c1);
  EXPECT_TRUE(*write_c1_json(*back) == *j);
}

TEST(synthetic, checker_catches_tampering) {
  const auto req = request(registered_seal_proof::stacked_drg_2kib_v1_1);
  auto bad = c1_2kib();
  bad.vanilla_proofs[0][1].labeling_proofs[1].parents[3][0] ^= 1;
  EXPECT_NE(test::check_c1(bad, req.prover_id, req.sector_id), "");
  bad = c1_2kib();
  bad.vanilla_proofs[0][0].comm_r_last_proof.hashes[2][5] ^= 1;
  EXPECT_NE(test::check_c1(bad, req.prover_id, req.sector_id), "");
  bad = c1_2kib();
  bad.seed[0] ^= 1;
  EXPECT_NE(test::check_c1(bad, req.prover_id, req.sector_id), "");
  EXPECT_NE(test::check_c1(c1_2kib(), req.prover_id, req.sector_id + 1), "");
}

TEST(synthetic, deterministic_and_rejects_ni) {
  const auto req = request(registered_seal_proof::stacked_drg_2kib_v1_1);
  EXPECT_EQ(*generate_synthetic_c1(req), c1_2kib());
  auto ni = request(registered_seal_proof::stacked_drg_2kib_v1_2_feat_non_interactive_porep);
  auto r = generate_synthetic_c1(ni);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::invalid_argument);
}

// ---- interop with sealing (vanilla_prove.hpp) ------------------------------------------------

/// A really sealed 2 KiB sector (random payload): its C1 passes this file's independent checker
/// and survives JSON / bincode; the seal side's verifier accepts the synthetic C1.
TEST(synthetic, sealed_c1_interop) {
  auto rng = cuzk::test::test_rng::from_env("synthetic.sealed_c1_interop");
  seal_request_t sr;
  sr.config = *porep_config(registered_seal_proof::stacked_drg_2kib_v1_1);
  sr.prover_id = prover_id_from_actor(1234);
  sr.sector_id = 5;
  for (auto& b : sr.ticket) b = uint8_t(rng());
  std::vector<uint8_t> payload(2032);
  for (auto& b : payload) b = uint8_t(rng());
  auto sealed = seal_sector(sr, payload);
  ASSERT_TRUE(sealed.ok()) << sealed.error().to_string();
  bytes32_t seed;
  for (auto& b : seed) b = uint8_t(rng());
  auto c1 = seal_commit_phase1(*sealed, seed);
  ASSERT_TRUE(c1.ok()) << c1.error().to_string();
  EXPECT_EQ(test::check_c1(*c1, sr.prover_id, sr.sector_id), "");
  auto back = parse_c1_json(*write_c1_json(*c1));
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(*back == *c1);
  const auto req = request(registered_seal_proof::stacked_drg_2kib_v1_1);
  const status v = verify_c1_output(c1_2kib(), req.config);
  EXPECT_TRUE(v.ok()) << v.to_string();
}

// ---- JSON
// ----------------------------------------------------------------------------------------

TEST(c1_json, write_read_write_byte_identical) {
  auto j1 = write_c1_json(c1_2kib());
  ASSERT_TRUE(j1.ok());
  // serde's exact shape: field order, integer arrays, "_h":null, size-only variant key.
  EXPECT_EQ(j1->rfind("{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\""
                      "StackedDrg2KiBV1\":[[{\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[",
                      0),
            0u);
  EXPECT_NE(j1->find("\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":"), std::string::npos);
  EXPECT_NE(j1->find("]},\"labeling_proofs\":[{\"parents\":[["), std::string::npos);
  EXPECT_NE(j1->find("\"layer_index\":2,\"node\":"), std::string::npos);
  EXPECT_NE(j1->find("]},\"comm_r\":["), std::string::npos);
  auto c = parse_c1_json(*j1);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_EQ(*c, c1_2kib());
  auto j2 = write_c1_json(*c);
  ASSERT_TRUE(j2.ok());
  EXPECT_EQ(*j1, *j2);
}

TEST(c1_json, whitespace_and_key_order_tolerant) {
  std::string j = *write_c1_json(c1_2kib());
  std::string pretty;
  for (char ch : j) {
    pretty += ch;
    if (ch == ',' || ch == ':' || ch == '{' || ch == '[') pretty += "\n  ";
  }
  auto c = parse_c1_json(pretty);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_EQ(*c, c1_2kib());
  // Move "seed" to the front, add an unknown field.
  const size_t s = j.find(",\"seed\":");
  const size_t e = j.find(",\"ticket\":");
  std::string seed = j.substr(s + 1, e - s - 1);
  std::string moved =
      "{" + seed + ",\"extra\":{\"a\":[1,2,{\"b\":null}]}," + j.substr(1, s - 1) + j.substr(e);
  c = parse_c1_json(moved);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_EQ(*c, c1_2kib());
}

struct bad_case {
  std::string from, to;  // first occurrence replaced
  std::string want;      // substring of the error message
};

TEST(c1_json, malformed_rejected_with_field_path) {
  const std::string j = *write_c1_json(c1_2kib());
  auto expect_error = [](const std::string& text, const std::string& want) {
    auto c = parse_c1_json(text);
    ASSERT_FALSE(c.ok()) << "accepted; wanted error " << want;
    EXPECT_EQ(c.error().code(), status_code::bad_encoding);
    EXPECT_NE(c.error().message().find(want), std::string::npos)
        << "got: " << c.error().message() << "\nwant: " << want;
  };
  const bad_case cases[] = {
      {"\"index\":", "\"index\":\"x\",\"_i\":",
       "vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs.data.Single.path.path[0].index: "
       "expected integer"},
      {"\"registered_proof\":\"StackedDrg2KiBV1_1\"", "\"registered_proof\":\"StackedDrg3KiBV1\"",
       "registered_proof: unknown variant \"StackedDrg3KiBV1\""},
      {"\"StackedDrg2KiBV1\":", "\"StackedDrg4KiBV1\":",
       "vanilla_proofs.StackedDrg4KiBV1: unknown variant"},
      {"{\"data\":{\"Single\"", "{\"data\":{\"Double\"",
       "comm_d_proofs.data.Double: unknown variant \"Double\""},
      {"\"comm_r\":[", "\"comm_r\":[300,", "comm_r[0]: expected byte value 0..255"},
      {"\"comm_d\":[", "\"comm_d\":[-", "comm_d[0]: expected integer"},
      {"\"seed\":[", "\"seed\":[1.5,", "seed[0]: expected integer"},
      {"\"layer_index\":1", "\"layer_index\":4294967296",
       "labeling_proofs[0].layer_index: integer 4294967296 out of range"},
      {"\"_h\":null", "\"_h\":0", "replica_column_proofs.c_x.column._h: expected null"},
      {"\"ticket\":[", "\"ticket\":\"abc\",\"x\":[", "ticket: expected array of 32 bytes"},
      {"\"node\":", "\"node\":1,\"node\":", "labeling_proofs[0].node: duplicate field"},
      {",\"encoding_proof\":", ",\"encoding_proofX\":",
       "vanilla_proofs.StackedDrg2KiBV1[0][0]: missing field \"encoding_proof\""},
  };
  for (const auto& bc : cases) {
    std::string t = j;
    const size_t at = t.find(bc.from);
    ASSERT_NE(at, std::string::npos) << bc.from;
    t.replace(at, bc.from.size(), bc.to);
    expect_error(t, bc.want);
  }
  // Wrong lengths: a 31-byte domain, 5 DRG parents, 36 label parents.
  {
    std::string t = j;
    const size_t at = t.find("\"comm_r\":[") + 10;
    t.erase(at, t.find(',', at) + 1 - at);
    expect_error(t, "comm_r: expected 32 bytes, got 31");
  }
  {
    std::string t = j;
    const size_t at = t.find("\"drg_parents\":[") + 15;
    const size_t next = t.find(",{\"column\":", at);
    t.erase(at, next + 1 - at);
    expect_error(t, "replica_column_proofs.drg_parents: expected 6 elements, got 5");
  }
  {
    std::string t = j;
    const size_t at = t.find("\"parents\":[") + 11;
    t.erase(at, t.find("],[", at) + 2 - at);
    expect_error(t, "labeling_proofs[0].parents: expected 37 parents, got 36");
  }
  // Variant key that disagrees with registered_proof.
  {
    std::string t = j;
    const size_t at = t.find("\"StackedDrg2KiBV1\":");
    t.replace(at, 19, "\"StackedDrg8MiBV1\":");
    expect_error(t, "vanilla_proofs: variant \"StackedDrg8MiBV1\" does not match");
  }
  // Truncation anywhere fails (and never crashes).
  for (size_t cut :
       {size_t(0), size_t(1), size_t(50), j.size() / 3, j.size() / 2, j.size() - 2, j.size() - 1}) {
    auto c = parse_c1_json(std::string_view(j).substr(0, cut));
    EXPECT_FALSE(c.ok()) << cut;
  }
  expect_error(j + "x", "trailing characters");
}

// ---- wrapper
// -------------------------------------------------------------------------------------

TEST(c1_wrapper, sector_num_round_trips_the_full_u64_range) {
  // `porep seal --sector-id 18446744073709551615` once wrote "SectorNum":-1, which read back as
  // "no sector number" (issue #13). Sector ids are u64 (filecoin-proofs SectorId(u64)).
  auto bytes = [](const std::string& s) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  for (const uint64_t id :
       {uint64_t(0), uint64_t(INT64_MAX), uint64_t(INT64_MAX) + 1, UINT64_MAX}) {
    auto w = c1_to_wrapper_json(c1_2kib(), id);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->rfind("{\"SectorNum\":" + std::to_string(id) + ",", 0), 0u) << *w;
    std::optional<uint64_t> num;
    auto c = parse_c1_any(bytes(*w), {}, &num);
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    ASSERT_TRUE(num.has_value());
    EXPECT_EQ(*num, id);
  }
  const std::string path = testing::TempDir() + "/c1_test_u64_wrapper.json";
  ASSERT_TRUE(write_c1_wrapper_file(path, c1_2kib(), UINT64_MAX).ok());
  std::optional<uint64_t> num;
  auto c = read_c1_file(path, {}, &num);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_EQ(num, std::optional<uint64_t>(UINT64_MAX));
  std::remove(path.c_str());
  // Special files: a status, never a write over /dev/null or a read from /dev/zero.
  EXPECT_EQ(write_c1_wrapper_file("/dev/null", c1_2kib(), 1).code(), status_code::invalid_argument);
  for (const std::string& in : {std::string("/dev/zero"), testing::TempDir()}) {
    auto r = read_c1_file(in, {}, &num);
    ASSERT_FALSE(r.ok()) << in;
    EXPECT_EQ(r.error().code(), status_code::io_error) << r.error().to_string();
  }
  // A raw serde JSON C1 carries no sector number.
  num.reset();
  ASSERT_TRUE(parse_c1_any(bytes(*write_c1_json(c1_2kib())), {}, &num).ok());
  EXPECT_FALSE(num.has_value());
  // Negative or beyond u64: refused, naming the field.
  for (const char* bad : {"-1", "18446744073709551616"}) {
    const std::string t =
        "{\"SectorNum\":" + std::string(bad) + ",\"Phase1Out\":\"e30=\",\"SectorSize\":2048}";
    auto r = parse_c1_wrapper(t);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message().find("SectorNum"), std::string::npos) << r.error().message();
  }
}

TEST(c1_wrapper, round_trip_and_detection) {
  auto w = c1_to_wrapper_json(c1_2kib(), 42);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->rfind("{\"SectorNum\":42,\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29mIjoi", 0), 0u);
  EXPECT_EQ(w->substr(w->size() - 20), "\",\"SectorSize\":2048}");
  auto pw = parse_c1_wrapper(*w);
  ASSERT_TRUE(pw.ok());
  EXPECT_EQ(pw->sector_num, 42);
  EXPECT_EQ(pw->sector_size, 2048u);
  EXPECT_EQ(pw->phase1_out, *write_c1_json(c1_2kib()));
  EXPECT_EQ(write_c1_wrapper(*pw), *w);

  auto bytes = [](const std::string& s) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  std::optional<uint64_t> num;
  EXPECT_EQ(detect_c1_format(bytes(*w)), c1_format::wrapper);
  auto c = parse_c1_any(bytes(*w), {}, &num);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_EQ(*c, c1_2kib());
  EXPECT_EQ(num, std::optional<uint64_t>(42));
  const std::string raw = *write_c1_json(c1_2kib());
  EXPECT_EQ(detect_c1_format(bytes(raw)), c1_format::json);
  EXPECT_EQ(*parse_c1_any(bytes(raw)), c1_2kib());

  // Malformed wrappers.
  auto bad = [&](std::string t, const std::string& want) {
    auto r = parse_c1_any(bytes(t));
    ASSERT_FALSE(r.ok()) << want;
    EXPECT_NE(r.error().message().find(want), std::string::npos) << r.error().message();
  };
  std::string t = *w;
  t[40] = '!';
  bad(t, "Phase1Out: base64: invalid character '!'");
  t = *w;
  t.replace(t.find("2048"), 4, "4096");
  bad(t, "SectorSize 4096 does not match");
  bad("{\"SectorNum\":1,\"Phase1Out\":\"e30=\"}", "missing field \"SectorSize\"");
  bad("{\"SectorNum\":\"1\",\"Phase1Out\":\"\",\"SectorSize\":2048}",
      "SectorNum: expected integer");
  bad("{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}",
      "Phase1Out: (root): missing field \"registered_proof\"");
}

// ---- bincode
// -------------------------------------------------------------------------------------

TEST(c1_bincode, reads_independent_writer_and_agrees_with_json) {
  for (auto p :
       {registered_seal_proof::stacked_drg_2kib_v1_1, registered_seal_proof::stacked_drg_8mib_v1}) {
    auto c1 = *generate_synthetic_c1(request(p));
    test::bin_writer w;
    w.c1(c1);
    auto c = parse_c1_bincode(w.out, name_of(p));
    ASSERT_TRUE(c.ok()) << c.error().to_string();
    EXPECT_EQ(*c, c1);
    EXPECT_EQ(*write_c1_json(*c), *write_c1_json(c1));
    EXPECT_EQ(detect_c1_format(w.out), c1_format::bincode);
    EXPECT_EQ(*parse_c1_any(w.out, name_of(p)), c1);
    EXPECT_FALSE(parse_c1_any(w.out).ok());  // bincode needs the registered proof
  }
}

TEST(c1_bincode, malformed_rejected) {
  test::bin_writer w;
  w.c1(c1_2kib());
  const std::string rp = "StackedDrg2KiBV1_1";
  for (size_t cut : {size_t(0), size_t(7), size_t(100), w.out.size() / 2, w.out.size() - 1}) {
    auto c = parse_c1_bincode(std::span<const uint8_t>(w.out.data(), cut), rp);
    ASSERT_FALSE(c.ok()) << cut;
    EXPECT_EQ(c.error().code(), status_code::bad_encoding);
  }
  auto c = parse_c1_bincode(std::span<const uint8_t>(w.out.data(), w.out.size() - 1), rp);
  EXPECT_NE(c.error().message().find("ticket: truncated"), std::string::npos)
      << c.error().message();
  // Unknown MerkleProof variant at the first comm_d_proofs (after two u64 lengths).
  auto t = w.out;
  t[16] = 7;
  c = parse_c1_bincode(t, rp);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message().find("vanilla_proofs[0][0].comm_d_proofs.data: unknown variant 7"),
            std::string::npos)
      << c.error().message();
  // An absurd length.
  t = w.out;
  t[7] = 0x7f;
  c = parse_c1_bincode(t, rp);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message().find("exceeds the remaining input"), std::string::npos);
  // Trailing bytes, unknown registered proof.
  t = w.out;
  t.push_back(0);
  EXPECT_NE(parse_c1_bincode(t, rp).error().message().find("trailing"), std::string::npos);
  EXPECT_EQ(parse_c1_bincode(w.out, "StackedDrg3KiBV1").error().code(),
            status_code::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin::porep
