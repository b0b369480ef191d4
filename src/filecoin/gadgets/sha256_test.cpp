// SPDX-License-Identifier: Apache-2.0
// The SHA-256 gadget against bellperson / rust-fil-proofs: the constraint counts their tests assert
// (25,840 one block; 44,874 for 512 allocated bits; create_label 532,025) and the
// docs/spec/gadgets.md §2 shapes (tree_d node 44,866; label hash 522,268); outputs equal to
// OpenSSL's SHA-256 on random inputs; every witness satisfies its recorded matrices; witness_cs,
// proving_cs and matrix_cs give the same aux vector; SHA256-trunc254 circuits equal the native hash
// of the LE reprs; and frozen BLAKE2s shape fingerprints (r1cs::shape_cs) of each circuit.
#include "filecoin/gadgets/sha256.hpp"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <string>
#include <vector>

#include "hash/blake2s.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::gadgets {
namespace {

using r1cs::matrix_witness_cs;
using r1cs::proving_cs;
using r1cs::shape_cs;
using r1cs::witness_cs;

std::vector<uint8_t> random_bytes(test::test_rng& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t(rng());
  return v;
}

cuzk::hash::sha256_digest_t openssl_sha256(std::span<const uint8_t> d) {
  cuzk::hash::sha256_digest_t out;
  SHA256(d.data(), d.size(), out.data());
  return out;
}

fr_t random_fr(test::test_rng& rng) {
  return fr_t::random(rng);
}

std::array<uint8_t, 32> fr_le_bytes(const fr_t& x) {
  std::array<uint8_t, 32> b;
  x.to_bytes_le(b.data());
  return b;
}

// ---- circuits under test (each a function of the CS, so every CS type runs the same code)
// --------

// bellperson test_full_block: 512 allocated bits, one compression from the IV.
template <class CS>
void one_block_circuit(CS& cs, std::span<const uint8_t> block64, boolean_t* out) {
  std::array<boolean_t, 512> in;
  alloc_bytes_be(cs, block64, in.data());
  sha256_block_no_padding(cs, in.data(), out);
}

// bellperson sha256 over allocated message bits.
template <class CS>
void full_hash_circuit(CS& cs, std::span<const uint8_t> msg, boolean_t* out) {
  std::vector<boolean_t> in(8 * msg.size());
  alloc_bytes_be(cs, msg, in.data());
  sha256(cs, std::span<const boolean_t>(in), out);
}

// filecoin-hashers hash2_circuit over two allocated field elements (a tree_d node).
template <class CS>
allocated_num_t node_circuit(CS& cs, const fr_t& a, const fr_t& b) {
  const allocated_num_t x = alloc_num(cs, a), y = alloc_num(cs, b);
  return sha256_trunc254_hash2(cs, x, y);
}

// The label preimage as StackedCircuit builds it (docs/spec/porep.md §8 step 6): replica_id bits
// (255 allocated + constant pad, byte-reversed) ‖ layer as 32 constant BE bits ‖ the challenge
// UInt64 (64 allocated bits) BE ‖ 160 constant zeros ‖ 37 parent bit vectors (each 255 allocated +
// pad). The bit vectors are allocated first (`prefix` constraints), then the label hash runs.
struct label_inputs_t {
  fr_t replica_id;
  uint32_t layer;
  uint64_t challenge;
  std::array<fr_t, 14> parents;
};

template <class CS>
void label_preimage(CS& cs, const label_inputs_t& in, std::vector<boolean_t>& pre) {
  pre.assign(512 + 37 * 256, boolean_t::constant(false));
  fr_to_sha_bits(cs, alloc_num(cs, in.replica_id), pre.data());
  const word32_t layer = word32_t::constant(in.layer);
  layer.to_bits_be(pre.data() + 256);
  const word64_t node = word64_t::alloc(cs, in.challenge);
  node.to_bits_be(pre.data() + 288);
  // 14 distinct parents decomposed once each, then expanded to 37 slots (14, 14, first 9).
  std::array<std::array<boolean_t, 256>, 14> pb;
  for (int p = 0; p < 14; ++p) fr_to_sha_bits(cs, alloc_num(cs, in.parents[p]), pb[p].data());
  for (int s = 0; s < 37; ++s) {
    const auto& src = pb[s < 28 ? s % 14 : s - 28];
    std::copy(src.begin(), src.end(), pre.begin() + 512 + 256 * s);
  }
}

std::vector<uint8_t> label_preimage_bytes(const label_inputs_t& in) {
  std::vector<uint8_t> b(64 + 37 * 32, 0);
  const auto rid = fr_le_bytes(in.replica_id);
  std::copy(rid.begin(), rid.end(), b.begin());
  for (int i = 0; i < 4; ++i) b[32 + i] = uint8_t(in.layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) b[36 + i] = uint8_t(in.challenge >> (56 - 8 * i));
  for (int s = 0; s < 37; ++s) {
    const auto p = fr_le_bytes(in.parents[s < 28 ? s % 14 : s - 28]);
    std::copy(p.begin(), p.end(), b.begin() + 64 + 32 * s);
  }
  return b;
}

label_inputs_t random_label_inputs(test::test_rng& rng) {
  label_inputs_t in;
  in.replica_id = random_fr(rng);
  in.layer = 1 + uint32_t(rng.below(11));
  in.challenge = rng() >> 30;
  for (auto& p : in.parents) p = random_fr(rng);
  return in;
}

// Expected digest bits (message order) compared with the gadget's output booleans.
void expect_digest(const boolean_t* out, const cuzk::hash::sha256_digest_t& want) {
  for (size_t i = 0; i < 256; ++i) {
    ASSERT_EQ(out[i].value, bool((want[i / 8] >> (7 - i % 8)) & 1)) << "digest bit " << i;
  }
}

// Synthesises `circuit` into matrix_witness_cs and checks every row holds.
template <class F>
void expect_satisfied(F&& circuit) {
  matrix_witness_cs cs;
  circuit(cs);
  const std::vector<fr_t> inputs(cs.inputs().begin(), cs.inputs().end());
  const std::vector<fr_t> aux(cs.aux().begin(), cs.aux().end());
  const r1cs::matrices m = cs.take_matrices();
  const auto bad = r1cs::is_satisfied(m, inputs, aux);
  EXPECT_FALSE(bad.has_value()) << "row " << bad.value_or(0) << " fails";
}

// ---- counts -------------------------------------------------------------------------------------

TEST(sha256_gadget, counts_match_bellperson) {
  auto rng = test::test_rng::from_env("sha256_gadget.counts");
  {
    witness_cs cs;
    boolean_t out[256];
    const auto blk = random_bytes(rng, 64);
    one_block_circuit(cs, blk, out);
    EXPECT_EQ(cs.num_constraints() - 512, 25840u);  // bellperson test_full_block
  }
  {
    witness_cs cs;
    boolean_t out[256];
    const auto msg = random_bytes(rng, 64);
    full_hash_circuit(cs, msg, out);
    EXPECT_EQ(cs.num_constraints() - 512, 44874u);  // bellperson test_full_hash
  }
  {
    // test_blank_hash: constant input, no constraints; the empty-message digest.
    witness_cs cs;
    std::array<boolean_t, 512> in;
    in.fill(boolean_t::constant(false));
    in[0] = boolean_t::constant(true);
    boolean_t out[256];
    sha256_block_no_padding(cs, in.data(), out);
    EXPECT_EQ(cs.num_constraints(), 0u);
    EXPECT_EQ(cs.num_aux(), 0u);
    expect_digest(out, openssl_sha256({}));
  }
  {
    // tree_d node: 2 × to_bits_le (256 each) + SHA of 512 bits with 2 constant pad bits +
    // pack_bits.
    witness_cs cs;
    node_circuit(cs, random_fr(rng), random_fr(rng));
    EXPECT_EQ(cs.num_constraints(), 512u + 44866u + 1u);
  }
}

TEST(sha256_gadget, label_counts) {
  auto rng = test::test_rng::from_env("sha256_gadget.label_counts");
  const label_inputs_t in = random_label_inputs(rng);
  witness_cs cs;
  std::vector<boolean_t> pre;
  label_preimage(cs, in, pre);
  const size_t before = cs.num_constraints();
  EXPECT_EQ(before, 15u * 256u + 64u);
  EXPECT_EQ(sha256_num_blocks(pre.size()), 20u);
  const allocated_num_t label = sha256_trunc254_circuit(cs, std::span<const boolean_t>(pre));
  EXPECT_EQ(cs.num_constraints() - before - 1, 522268u);  // docs/spec/gadgets.md §2 label hash

  // The label equals the vanilla label: SHA256-trunc254 of the byte preimage, as an LE Fr.
  const auto want = hash::sha256_trunc254(label_preimage_bytes(in));
  EXPECT_EQ(fr_le_bytes(label.value), want);
}

// rust-fil-proofs create_label.rs test_create_label: every id and parent bit allocated from bytes
// (bytes_into_boolean_vec_be, 38 × 256 bits), layer and node constants, then create_label_circuit
// (sha256 + reverse + pack_bits): 532,025 constraints in total.
TEST(sha256_gadget, create_label_test_count) {
  auto rng = test::test_rng::from_env("sha256_gadget.create_label");
  witness_cs cs;
  std::vector<std::vector<uint8_t>> parents14;
  for (int p = 0; p < 14; ++p) parents14.push_back(random_bytes(rng, 32));
  std::vector<boolean_t> pre(512 + 37 * 256, boolean_t::constant(false));
  std::vector<uint8_t> bytes(64 + 37 * 32, 0);
  std::vector<boolean_t> parent_bits(37 * 256);
  for (int s = 0; s < 37; ++s) {
    const auto& p = parents14[s < 28 ? s % 14 : s - 28];
    alloc_bytes_be(cs, p, parent_bits.data() + 256 * s);  // each slot allocated anew
    std::copy(p.begin(), p.end(), bytes.begin() + 64 + 32 * s);
  }
  const auto id = random_bytes(rng, 32);
  alloc_bytes_be(cs, id, pre.data());
  std::copy(id.begin(), id.end(), bytes.begin());
  const uint32_t layer = 3;
  const uint64_t node = 22;
  word32_t::constant(layer).to_bits_be(pre.data() + 256);
  word64_t::constant(node).to_bits_be(pre.data() + 288);
  for (int i = 0; i < 4; ++i) bytes[32 + i] = uint8_t(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) bytes[36 + i] = uint8_t(node >> (56 - 8 * i));
  std::copy(parent_bits.begin(), parent_bits.end(), pre.begin() + 512);
  const allocated_num_t label = sha256_trunc254_circuit(cs, std::span<const boolean_t>(pre));
  EXPECT_EQ(cs.num_constraints(), 532025u);
  EXPECT_EQ(fr_le_bytes(label.value), hash::sha256_trunc254(bytes));
}

// ---- values against OpenSSL, satisfaction
// ---------------------------------------------------------

TEST(sha256_gadget, matches_openssl_and_satisfied) {
  auto rng = test::test_rng::from_env("sha256_gadget.matches_openssl");
  // bellperson test_against_vectors lengths (bytes): 0..31, then multiples of 8 up to 248, plus
  // the padding boundaries 55, 56, 63, 64, 119, 120.
  std::vector<size_t> lens;
  for (size_t n = 0; n < 32; ++n) lens.push_back(n);
  for (size_t n = 32; n < 256; n += 8) lens.push_back(n);
  for (size_t n : {55, 63, 119}) lens.push_back(n);
  for (size_t len : lens) {
    const auto msg = random_bytes(rng, len);
    matrix_witness_cs cs;
    boolean_t out[256];
    full_hash_circuit(cs, msg, out);
    expect_digest(out, openssl_sha256(msg));
    const std::vector<fr_t> inputs(cs.inputs().begin(), cs.inputs().end());
    const std::vector<fr_t> aux(cs.aux().begin(), cs.aux().end());
    const r1cs::matrices m = cs.take_matrices();
    const auto bad = r1cs::is_satisfied(m, inputs, aux);
    ASSERT_FALSE(bad.has_value()) << "len " << len << " row " << *bad;
  }
}

TEST(sha256_gadget, label_and_node_satisfied) {
  auto rng = test::test_rng::from_env("sha256_gadget.label_and_node_satisfied");
  const label_inputs_t in = random_label_inputs(rng);
  expect_satisfied([&](auto& cs) {
    std::vector<boolean_t> pre;
    label_preimage(cs, in, pre);
    sha256_trunc254_circuit(cs, std::span<const boolean_t>(pre));
  });
  const fr_t a = random_fr(rng), b = random_fr(rng);
  expect_satisfied([&](auto& cs) { node_circuit(cs, a, b); });
}

// Circuit <-> bytes mapping (docs/spec/gadgets.md §2): hash2 of two Frs = SHA256-trunc254 of their
// LE reprs, read back as an LE Fr.
TEST(sha256_gadget, node_equals_native_trunc254) {
  auto rng = test::test_rng::from_env("sha256_gadget.node_equals_native");
  for (int i = 0; i < 8; ++i) {
    const fr_t a = random_fr(rng), b = random_fr(rng);
    witness_cs cs;
    const allocated_num_t h = node_circuit(cs, a, b);
    const auto la = fr_le_bytes(a), lb = fr_le_bytes(b);
    EXPECT_EQ(fr_le_bytes(h.value), hash::sha256_trunc254_node(la.data(), lb.data()));
  }
}

// ---- the CS types agree
// ------------------------------------------------------------------------------

TEST(sha256_gadget, witness_proving_matrix_aux_identical) {
  auto rng = test::test_rng::from_env("sha256_gadget.aux_identical");
  const label_inputs_t in = random_label_inputs(rng);
  auto circuit = [&](auto& cs) {
    std::vector<boolean_t> pre;
    label_preimage(cs, in, pre);
    sha256_trunc254_circuit(cs, std::span<const boolean_t>(pre));
  };
  witness_cs w;
  circuit(w);
  proving_cs p;
  circuit(p);
  matrix_witness_cs m;
  circuit(m);
  ASSERT_EQ(w.num_aux(), p.num_aux());
  ASSERT_EQ(w.num_aux(), m.num_aux());
  ASSERT_EQ(w.num_constraints(), p.num_constraints());
  ASSERT_EQ(w.num_constraints(), m.num_constraints());
  for (size_t i = 0; i < w.num_aux(); ++i) {
    ASSERT_EQ(w.aux()[i], p.aux()[i]) << i;
    ASSERT_EQ(w.aux()[i], m.aux()[i]) << i;
  }
  // proving_cs rows hold: a·b = c everywhere.
  for (size_t r = 0; r < p.num_rows(); ++r) ASSERT_EQ(p.a()[r] * p.b()[r], p.c()[r]) << r;
}

// ---- frozen shapes
// -------------------------------------------------------------------------------

template <class F>
r1cs::shape_summary shape_of(F&& circuit) {
  shape_cs cs;
  circuit(cs);
  return cs.summary();
}

// Fingerprints of the circuits' matrices (docs/notes/r1cs.md byte stream), frozen when the counts
// above first matched bellperson; any change to a constraint, coefficient or allocation order
// changes them.
TEST(sha256_gadget, frozen_shapes) {
  const std::vector<uint8_t> zeros64(64, 0);
  const auto one_block = shape_of([&](auto& cs) {
    boolean_t out[256];
    one_block_circuit(cs, zeros64, out);
  });
  EXPECT_EQ(one_block.num_constraints, 512u + 25840u);
  const auto full = shape_of([&](auto& cs) {
    boolean_t out[256];
    full_hash_circuit(cs, zeros64, out);
  });
  EXPECT_EQ(full.num_constraints, 512u + 44874u);
  const auto node = shape_of([&](auto& cs) { node_circuit(cs, fr_t::zero(), fr_t::zero()); });
  EXPECT_EQ(node.num_constraints, 512u + 44866u + 1u);
  label_inputs_t in{};
  in.layer = 1;
  const auto label = shape_of([&](auto& cs) {
    std::vector<boolean_t> pre;
    label_preimage(cs, in, pre);
    sha256_trunc254_circuit(cs, std::span<const boolean_t>(pre));
  });
  EXPECT_EQ(label.num_constraints, 15u * 256u + 64u + 522268u + 1u);

  EXPECT_EQ(one_block.hash_hex(),
            "106c863c34f00ba162c15708fcd02532f8305507760232b9bccebc9802076cf1");
  EXPECT_EQ(full.hash_hex(), "c45b7d201edaad12f1d11de51f543ea4efb7d1d3a3166c379f1c422af3c4c25e");
  EXPECT_EQ(node.hash_hex(), "1f20158ed68aadcfe891d8c3010e8c927a605e87c67b9240d1b750d3ac01a405");
  EXPECT_EQ(label.hash_hex(), "2280e7574c681dfd99019f0e4fc844f755bdd4fcebe9bc87c45667a4d7a703ad");
}

}  // namespace
}  // namespace cuzk::filecoin::gadgets
