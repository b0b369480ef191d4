// SPDX-License-Identifier: Apache-2.0
// Legacy neptune Poseidon circuit: constraint counts (neptune circuit.rs tests,
// docs/spec/poseidon.md §5), output == native hash and satisfiability on random inputs, witness_cs
// == proving_cs == the recorded witness, and a frozen shape fingerprint per arity (catches any
// drift in LCs/order).
#include "filecoin/gadgets/poseidon.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "r1cs/assignment_data.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::gadgets {
namespace {

using ff::fr_t;

// Allocates the preimage as aux (as the Filecoin circuits do), then hashes.
template <class CS>
poseidon_result_t synth(CS& cs, const std::vector<fr_t>& in, const fr_t& tag) {
  std::vector<r1cs::variable> vars;
  for (const fr_t& x : in) vars.push_back(cs.alloc([&] { return x; }));
  return poseidon_hash(cs, vars, in, hash::poseidon_constants(in.size()), tag);
}

std::vector<fr_t> random_preimage(size_t a, test::test_rng& rng) {
  std::vector<fr_t> v(a);
  for (fr_t& x : v) x = fr_t::random(rng);
  return v;
}

struct count_case_t {
  size_t arity;
  size_t constraints;
  const char* shape_hash;  ///< frozen shape_cs fingerprint (MerkleTree tag)
};
// neptune circuit.rs test_poseidon_hash (Standard): 2 → 311, 4 → 377, 8 → 505, 16 → 761,
// 24 → 1009, 36 → 1385; storage-proofs circuit/hash.rs: column hash (arity 11) → 598.
// Fingerprints frozen from this implementation (preimage = aux 0..a-1, then the hash), after the
// counts, native equality and satisfiability checks below passed; they only guard against drift.
const count_case_t CASES[] = {
    {2, 311, "50ed48f73ce778f97d431f3f11cf353793b80125c372db6f6bd17f82bf163217"},
    {4, 377, "4dff320c50284c7861b8eeda88c56db09ed729ad28e96370d299c1c19d339931"},
    {8, 505, "337f384f4e0856386369ddacda7db268889e94b148c994bf533e2898c9b8eacc"},
    {11, 598, "968942b83a31e6bc086dcfe6431b160dff793238445319ffdea21fda2d4d93a9"},
    {16, 761, "6b93ae96c426f2f4fe4c21823f8d53eaa327e44fbe9f8c5b3fa0953c2bdb16b0"},
    {24, 1009, "60ad8bf1d94ca1fe8a62a8765ceed80656c3b09bbafa21ead9b1ed3b38c8589d"},
    {36, 1385, "c8a725f2045a843f147abb311f9405dd638cd4f5390aed959c3670699d77e6c0"},
};

TEST(poseidon_gadget, constraint_counts_and_shape) {
  for (const count_case_t& k : CASES) {
    r1cs::shape_cs cs;
    synth(cs, std::vector<fr_t>(k.arity), hash::poseidon_merkle_tag(k.arity));
    EXPECT_EQ(cs.num_constraints(), k.constraints) << "arity " << k.arity;
    EXPECT_EQ(cs.num_aux(), k.arity + k.constraints) << "one aux per constraint";
    EXPECT_EQ(cs.num_inputs(), 1u);
    const r1cs::shape_summary s = cs.summary();
    std::printf("arity %zu: %zu constraints, nnz %zu/%zu/%zu, hash %s\n", k.arity,
                s.num_constraints, s.nnz_a, s.nnz_b, s.nnz_c, s.hash_hex().c_str());
    if (*k.shape_hash) {
      EXPECT_EQ(s.hash_hex(), k.shape_hash) << "arity " << k.arity;
    }
  }
}

// Recorded circuit + witness: output equals the native hash, every row holds, and the
// witness-only and proving systems produce the same assignment.
TEST(poseidon_gadget, matches_native_and_satisfied) {
  auto rng = test::test_rng::from_env("poseidon_gadget.matches_native_and_satisfied");
  for (const count_case_t& k : CASES) {
    const hash::poseidon_constants_t& c = hash::poseidon_constants(k.arity);
    for (int rep = 0; rep < 2; ++rep) {
      const std::vector<fr_t> in = random_preimage(k.arity, rng);
      // Alternate the tag kinds: the tag only enters through a constant (ONE) coefficient.
      const fr_t tag = rep == 0 ? hash::poseidon_merkle_tag(k.arity)
                                : hash::poseidon_custom_tag(1 + rng.below(256));
      const fr_t expected = hash::poseidon_hash(in, tag, c);

      r1cs::matrix_witness_cs mcs;
      const poseidon_result_t out = synth(mcs, in, tag);
      EXPECT_EQ(out.value, expected) << "arity " << k.arity;
      EXPECT_EQ(mcs.value(out.var), expected);
      const std::vector<fr_t> inputs(mcs.inputs().begin(), mcs.inputs().end());
      const std::vector<fr_t> aux(mcs.aux().begin(), mcs.aux().end());
      const r1cs::matrices m = mcs.take_matrices();
      EXPECT_EQ(r1cs::is_satisfied(m, inputs, aux), std::nullopt) << "arity " << k.arity;

      // A wrong output value must break the last row.
      std::vector<fr_t> bad = aux;
      bad.back() += fr_t::one();
      EXPECT_NE(r1cs::is_satisfied(m, inputs, bad), std::nullopt);

      r1cs::witness_cs wcs;
      const poseidon_result_t wout = synth(wcs, in, tag);
      EXPECT_EQ(wout.value, expected);
      EXPECT_EQ(wcs.num_constraints(), k.constraints);
      r1cs::proving_cs pcs;
      synth(pcs, in, tag);
      ASSERT_EQ(wcs.aux().size(), aux.size());
      EXPECT_TRUE(std::equal(aux.begin(), aux.end(), wcs.aux().begin()));
      EXPECT_TRUE(std::equal(aux.begin(), aux.end(), pcs.aux().begin()));
    }
  }
}

// The recorded matrices summarize to the same fingerprint as shape_cs (same LCs either way).
TEST(poseidon_gadget, summarize_matches_shape_cs) {
  for (size_t a : {2, 8, 11}) {
    r1cs::shape_cs scs;
    synth(scs, std::vector<fr_t>(a), hash::poseidon_merkle_tag(a));
    r1cs::matrix_cs mcs;
    synth(mcs, std::vector<fr_t>(a), hash::poseidon_merkle_tag(a));
    EXPECT_EQ(r1cs::summarize(mcs.take_matrices()), scs.summary()) << "arity " << a;
  }
}

}  // namespace
}  // namespace cuzk::filecoin::gadgets
