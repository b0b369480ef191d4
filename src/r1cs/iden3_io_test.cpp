// SPDX-License-Identifier: Apache-2.0
// iden3 .r1cs / .wtns: write → parse round trips (random circuits, reordered sections), and every
// class of malformed file rejected with a status naming the section: wrong magic/version/prime,
// section sizes overflowing the file, wire ids out of range, non-canonical values, duplicates,
// custom gates, and every truncation. snarkjs reading our files is checked in tests/snarkjs.
#include "r1cs/iden3_io.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "r1cs/assignment_data.hpp"
#include "test_rng.hpp"

namespace cuzk::r1cs {
namespace {

using ff::fr_t;

// Offsets in a file written by r1cs_to_bytes (header section first).
constexpr size_t OFF_N8 = 24, OFF_PRIME = 28, OFF_NWIRES = 60, OFF_NCONS = 84;
constexpr size_t OFF_CONS_SIZE = 92, OFF_FIRST_WIRE = 104, OFF_FIRST_COEFF = 108;

void put32(std::vector<uint8_t>& b, size_t off, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[off + i] = uint8_t(v >> (8 * i));
}
void put64(std::vector<uint8_t>& b, size_t off, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[off + i] = uint8_t(v >> (8 * i));
}

/// A circuit with random rows: `rows` constraints over `inputs` inputs and `aux` aux variables,
/// sorted distinct wires per combination, some zero coefficients, some empty combinations.
matrices random_matrices(test::test_rng& rng, size_t inputs, size_t aux, size_t rows) {
  matrices m;
  m.num_inputs = inputs;
  m.num_aux = aux;
  const size_t vars = inputs + aux;
  for (auto* sm : {&m.a, &m.b, &m.c}) {
    for (size_t i = 0; i < rows; ++i) {
      const size_t n = rng.below(5);
      std::vector<uint32_t> cols;
      for (size_t t = 0; t < n; ++t) cols.push_back(uint32_t(rng.below(vars)));
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
      for (uint32_t c : cols) {
        sm->columns.push_back(c);
        sm->coeffs.push_back(rng.below(8) == 0 ? fr_t::zero() : fr_t::random(rng));
      }
      sm->row_offsets.push_back(sm->columns.size());
    }
  }
  return m;
}

void expect_same(const sparse_matrix& x, const sparse_matrix& y) {
  EXPECT_EQ(x.row_offsets, y.row_offsets);
  EXPECT_EQ(x.columns, y.columns);
  ASSERT_EQ(x.coeffs.size(), y.coeffs.size());
  for (size_t i = 0; i < x.coeffs.size(); ++i) ASSERT_EQ(x.coeffs[i], y.coeffs[i]) << i;
}

std::vector<uint8_t> small_file() {
  auto rng = test::test_rng(7);
  return *r1cs_to_bytes(random_matrices(rng, 3, 5, 6));
}

void expect_error(const std::vector<uint8_t>& b, status_code code, const std::string& needle) {
  auto r = parse_r1cs(b);
  ASSERT_FALSE(r.ok()) << needle;
  EXPECT_EQ(r.error().code(), code) << r.error().to_string();
  EXPECT_NE(r.error().message().find(needle), std::string::npos) << r.error().to_string();
}

TEST(Iden3R1cs, RoundTripRandom) {
  auto rng = test::test_rng::from_env("Iden3R1cs.RoundTripRandom");
  for (int it = 0; it < 20; ++it) {
    const size_t inputs = 1 + rng.below(4), aux = rng.below(30), rows = rng.below(40);
    const matrices m = random_matrices(rng, inputs, aux, rows);
    r1cs_write_options opt;
    opt.num_pub_out = uint32_t(rng.below(inputs));
    opt.num_prv_in = uint32_t(rng.below(aux + 1));
    auto bytes = r1cs_to_bytes(m, opt);
    ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
    auto r = parse_r1cs(*bytes);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_EQ(r->header.num_wires, inputs + aux);
    EXPECT_EQ(r->header.num_pub_out, opt.num_pub_out);
    EXPECT_EQ(r->header.num_pub_in, inputs - 1 - opt.num_pub_out);
    EXPECT_EQ(r->header.num_prv_in, opt.num_prv_in);
    EXPECT_EQ(r->header.num_constraints, rows);
    EXPECT_EQ(r->cs.num_inputs, inputs);
    EXPECT_EQ(r->cs.num_aux, aux);
    expect_same(r->cs.a, m.a);
    expect_same(r->cs.b, m.b);
    expect_same(r->cs.c, m.c);
    ASSERT_EQ(r->wire_to_label.size(), inputs + aux);
    for (size_t w = 0; w < inputs + aux; ++w) EXPECT_EQ(r->wire_to_label[w], w);
    // Writing the parsed circuit again gives the same bytes.
    auto again = r1cs_to_bytes(r->cs, opt);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *bytes);
  }
}

TEST(Iden3R1cs, SectionsInAnyOrderAndUnknownSkipped) {
  const auto b = small_file();
  // Split the three sections and reassemble them as map, unknown(type 9), constraints, header.
  std::vector<std::vector<uint8_t>> secs;
  size_t pos = 12;
  while (pos < b.size()) {
    uint64_t size = 0;
    for (int i = 0; i < 8; ++i) size |= uint64_t(b[pos + 4 + i]) << (8 * i);
    secs.emplace_back(b.begin() + ptrdiff_t(pos), b.begin() + ptrdiff_t(pos + 12 + size));
    pos += 12 + size;
  }
  ASSERT_EQ(secs.size(), 3u);
  std::vector<uint8_t> unknown(12 + 5, 0xab);
  put32(unknown, 0, 9);
  put64(unknown, 4, 5);
  std::vector<uint8_t> re(b.begin(), b.begin() + 12);
  put32(re, 8, 4);
  for (const auto* s : {&secs[2], &unknown, &secs[1], &secs[0]})
    re.insert(re.end(), s->begin(), s->end());
  auto x = parse_r1cs(b), y = parse_r1cs(re);
  ASSERT_TRUE(x.ok() && y.ok()) << y.error().to_string();
  expect_same(x->cs.a, y->cs.a);
  expect_same(x->cs.b, y->cs.b);
  expect_same(x->cs.c, y->cs.c);
  EXPECT_EQ(x->wire_to_label, y->wire_to_label);
}

TEST(Iden3R1cs, UnsortedTermsAcceptedDuplicatesRejected) {
  matrices m;
  m.num_inputs = 1;
  m.num_aux = 3;
  m.a = {{0, 2}, {3, 1}, {fr_t::one(), fr_t::from_uint(2)}};
  m.b = {{0, 1}, {0}, {fr_t::one()}};
  m.c = {{0, 1}, {2}, {fr_t::one()}};
  auto b = r1cs_to_bytes(m);
  ASSERT_TRUE(b.ok());
  auto r = parse_r1cs(*b);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->cs.a.columns, (std::vector<uint32_t>{3, 1}));
  m.a.columns = {1, 1};
  b = r1cs_to_bytes(m);
  ASSERT_TRUE(b.ok());
  expect_error(*b, status_code::bad_encoding, "constraint 0 A: wire 1 appears twice");
}

TEST(Iden3R1cs, RejectsWrongMagicVersionPrime) {
  auto b = small_file();
  auto x = b;
  x[0] = 'R';
  expect_error(x, status_code::bad_encoding, "wrong magic");
  x = b;
  put32(x, 4, 2);
  expect_error(x, status_code::bad_encoding, "version 2 unsupported");
  // BN254's scalar field (what circom uses by default).
  const uint64_t bn254_r[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                               0x30644e72e131a029};
  x = b;
  for (size_t i = 0; i < 32; ++i) x[OFF_PRIME + i] = uint8_t(bn254_r[i / 8] >> (8 * (i % 8)));
  expect_error(x, status_code::bad_encoding, "header: unsupported prime 0x30644e72e131a029");
  x = b;
  x[OFF_PRIME] ^= 2;
  expect_error(x, status_code::bad_encoding, "unsupported prime");
  x = b;
  put32(x, OFF_N8, 16);  // a 16-byte field: still "unsupported prime", the section size is fine
  expect_error(x, status_code::bad_encoding, "n8 = 16");
  x = b;
  put32(x, OFF_N8, 1000);
  expect_error(x, status_code::bad_length, "field size n8 = 1000");
}

TEST(Iden3R1cs, RejectsBadSizesAndIds) {
  auto b = small_file();
  auto x = b;
  put64(x, OFF_CONS_SIZE, uint64_t(1) << 62);
  expect_error(x, status_code::bad_length, "exceeds the");
  x = b;
  put64(x, OFF_CONS_SIZE, ~uint64_t(0));
  expect_error(x, status_code::bad_length, "exceeds the");
  x = b;
  put32(x, OFF_NCONS, 0xffffffffu);
  expect_error(x, status_code::bad_length, "nConstraints = 4294967295");
  x = b;
  put32(x, OFF_NCONS, 5);  // one constraint fewer than written: the rest are trailing bytes
  expect_error(x, status_code::bad_length, "trailing bytes after constraint 5");
  x = b;
  put32(x, OFF_NWIRES, 2);  // fewer wires than 1 + public inputs
  expect_error(x, status_code::invalid_argument, "nWires = 2");
  // The first term of the first constraint's A: out-of-range wire, non-canonical coefficient.
  x = b;
  ASSERT_GE(x[100], 1) << "fixture: constraint 0 A must have a term";
  put32(x, OFF_FIRST_WIRE, 8);
  expect_error(x, status_code::invalid_argument, "constraint 0 A term 0: wire 8 >= nWires 8");
  x = b;
  for (size_t i = 0; i < 32; ++i) x[OFF_FIRST_COEFF + i] = 0xff;
  expect_error(x, status_code::non_canonical, "constraint 0 A term 0: coefficient >= r");
  x = b;
  put32(x, 100, 0x10000000);  // a huge term count
  expect_error(x, status_code::bad_length, "constraint 0 A: 268435456 terms overrun");
  x = b;
  x.push_back(0);
  expect_error(x, status_code::bad_length, "trailing bytes after the last section");
}

TEST(Iden3R1cs, RejectsMissingDuplicateAndCustomGateSections) {
  auto b = small_file();
  auto x = b;
  put32(x, 12, 7);  // the header section becomes an unknown type
  expect_error(x, status_code::bad_encoding, "header: section 1 missing");
  x = b;
  put32(x, OFF_CONS_SIZE - 4, 1);  // the constraints section claims to be a second header
  expect_error(x, status_code::bad_encoding, "header: section duplicated");
  x = b;
  put32(x, OFF_CONS_SIZE - 4, 4);
  expect_error(x, status_code::bad_encoding, "custom gates");
}

TEST(Iden3R1cs, HugeWireCountRejectedBeforeAllocating) {
  // A small file claiming 2·10^8 wires (issue #13: this exhausted memory in `groth16 setup`). The
  // wire → label map must hold 8 bytes per wire, so the claim is checked against the file.
  auto b = small_file();
  put32(b, OFF_NWIRES, 200'000'000);
  const auto t0 = std::chrono::steady_clock::now();
  expect_error(b, status_code::bad_length, "expected 8 × nWires = 1600000000");
  // Without the map there is nothing to check nWires against: the file is refused.
  auto x = small_file();
  const size_t map_start = x.size() - (12 + 8 * 8);  // the last section: the map of 8 wires
  x.resize(map_start);
  put32(x, 8, 2);
  put32(x, OFF_NWIRES, 200'000'000);
  expect_error(x, status_code::bad_encoding, "wire2label: section 3 missing");
  const std::string path = testing::TempDir() + "/iden3_io_test_huge.r1cs";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(std::fwrite(b.data(), 1, b.size(), f), b.size());
    ASSERT_EQ(std::fclose(f), 0);
  }
  auto r = read_r1cs(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::bad_length) << r.error().to_string();
  std::remove(path.c_str());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
}

TEST(Iden3R1cs, SpecialFilesAreStatusNotHang) {
  for (const std::string& p : {std::string("/dev/zero"), testing::TempDir()}) {
    auto r = read_r1cs(p);
    ASSERT_FALSE(r.ok()) << p;
    EXPECT_EQ(r.error().code(), status_code::io_error) << r.error().to_string();
    auto w = read_wtns(p);
    ASSERT_FALSE(w.ok()) << p;
    EXPECT_EQ(w.error().code(), status_code::io_error) << w.error().to_string();
  }
  EXPECT_FALSE(write_r1cs("/dev/null", matrices{}).ok());
}

TEST(Iden3R1cs, EveryTruncationRejected) {
  const auto b = small_file();
  for (size_t n = 0; n < b.size(); ++n) {
    auto r = parse_r1cs(std::span<const uint8_t>(b.data(), n));
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_FALSE(r.error().message().empty());
  }
}

TEST(Iden3R1cs, FileRoundTripAndMissingFile) {
  auto rng = test::test_rng::from_env("Iden3R1cs.File");
  const matrices m = random_matrices(rng, 2, 10, 12);
  const std::string path = testing::TempDir() + "/iden3_io_test.r1cs";
  ASSERT_TRUE(write_r1cs(path, m).ok());
  auto r = read_r1cs(path);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  expect_same(r->cs.b, m.b);
  std::remove(path.c_str());
  auto missing = read_r1cs(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), status_code::io_error);
  EXPECT_NE(missing.error().message().find(path), std::string::npos);
}

TEST(Iden3Wtns, RoundTripAndSplit) {
  auto rng = test::test_rng::from_env("Iden3Wtns.RoundTrip");
  std::vector<fr_t> w = {fr_t::one()};
  for (int i = 0; i < 50; ++i) w.push_back(fr_t::random(rng));
  w.push_back(fr_t::zero());
  w.push_back(-fr_t::one());
  const auto bytes = wtns_to_bytes(w);
  EXPECT_EQ(bytes.size(), 12 + 12 + 40 + 12 + 32 * w.size());
  auto r = parse_wtns(bytes);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r, w);
  const std::string path = testing::TempDir() + "/iden3_io_test.wtns";
  ASSERT_TRUE(write_wtns(path, w).ok());
  auto f = read_wtns(path);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f, w);
  std::remove(path.c_str());

  matrices m;
  m.num_inputs = 3;
  m.num_aux = w.size() - 3;
  auto s = split_witness(m, w);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->inputs, std::vector<fr_t>(w.begin(), w.begin() + 3));
  EXPECT_EQ(s->aux, std::vector<fr_t>(w.begin() + 3, w.end()));
  m.num_aux -= 1;
  EXPECT_EQ(split_witness(m, w).error().code(), status_code::size_mismatch);
  m.num_aux += 1;
  auto w2 = w;
  w2[0] = fr_t::from_uint(2);
  EXPECT_EQ(split_witness(m, w2).error().code(), status_code::invalid_argument);
}

TEST(Iden3Wtns, RejectsMalformed) {
  const std::vector<fr_t> w = {fr_t::one(), fr_t::from_uint(5), fr_t::from_uint(9)};
  const auto b = wtns_to_bytes(w);
  auto check = [](const std::vector<uint8_t>& x, status_code code, const std::string& needle) {
    auto r = parse_wtns(x);
    ASSERT_FALSE(r.ok()) << needle;
    EXPECT_EQ(r.error().code(), code) << r.error().to_string();
    EXPECT_NE(r.error().message().find(needle), std::string::npos) << r.error().to_string();
  };
  auto x = b;
  x[3] = 'x';
  check(x, status_code::bad_encoding, "wrong magic");
  x = b;
  put32(x, 4, 1);
  check(x, status_code::bad_encoding, "version 1 unsupported");
  x = b;
  x[OFF_PRIME + 31] ^= 0x40;
  check(x, status_code::bad_encoding, "unsupported prime");
  x = b;
  put32(x, 60, 4);  // nWitness disagrees with the data section
  check(x, status_code::bad_length, "expected nWitness × 32 = 128");
  x = b;
  put64(x, 68, 1000);  // witness section size past the end
  check(x, status_code::bad_length, "exceeds the");
  x = b;
  for (size_t i = 0; i < 32; ++i) x[76 + 32 + i] = 0xff;  // value 1
  check(x, status_code::non_canonical, "witness: value 1 >= r");
  for (size_t n = 0; n < b.size(); ++n) {
    EXPECT_FALSE(parse_wtns(std::span<const uint8_t>(b.data(), n)).ok()) << n;
  }
}

}  // namespace
}  // namespace cuzk::r1cs
