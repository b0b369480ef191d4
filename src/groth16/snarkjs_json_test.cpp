// SPDX-License-Identifier: Apache-2.0
// snarkjs JSON: decimal conversion against GMP, export → import round trips, Jacobian inputs,
// frozen snarkjs 0.7.6 outputs (tests/snarkjs/vectors: a key, proof and public signals made by
// snarkjs's own setup and prover) verified by cuzk with vk_alphabeta_12 recomputed, and every
// malformed input rejected with a status naming the field.
#include "groth16/snarkjs_json.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/subgroup.hpp"
#include "fixtures.hpp"
#include "gmp_oracle.hpp"
#include "groth16/verifier.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16 {
namespace {

using ec::g1_affine_t;
using ec::g2_affine_t;
using ff::fp2_t;
using ff::fp_t;
using ff::fr_t;
using json = nlohmann::json;

g1_affine_t rand_g1(test::test_rng& rng) {
  return ec::mul(ec::g1_generator(), fr_t::random(rng)).to_affine();
}
g2_affine_t rand_g2(test::test_rng& rng) {
  return ec::mul(ec::g2_generator(), fr_t::random(rng)).to_affine();
}

std::string read_vector(const std::string& name) {
  const std::string path = test::source_dir() + "/tests/snarkjs/vectors/" + name;
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << path;
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

template <class T>
void expect_error(const result<T>& r, status_code code, const std::string& needle) {
  ASSERT_FALSE(r.ok()) << needle;
  EXPECT_EQ(r.error().code(), code) << r.error().to_string();
  EXPECT_NE(r.error().message().find(needle), std::string::npos) << r.error().to_string();
}

TEST(SnarkjsJson, DecimalMatchesGmp) {
  auto rng = test::test_rng::from_env("SnarkjsJson.Decimal");
  for (int i = 0; i < 200; ++i) {
    const fp_t x = i == 0 ? fp_t::zero() : i == 1 ? -fp_t::one() : fp_t::random(rng);
    const std::string d = to_decimal(x);
    EXPECT_EQ(d, test::field_to_mpz(x).get_str(10));
    auto back = fp_from_decimal(d);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, x);
    auto hex = fp_from_decimal("0x" + test::field_to_mpz(x).get_str(16));
    ASSERT_TRUE(hex.ok());
    EXPECT_EQ(*hex, x);
    const fr_t y = fr_t::random(rng);
    EXPECT_EQ(to_decimal(y), test::field_to_mpz(y).get_str(10));
    EXPECT_EQ(*fr_from_decimal(to_decimal(y)), y);
  }
  EXPECT_EQ(*fr_from_decimal("000012"), fr_t::from_uint(12));
  const mpz_class p = test::to_mpz(fp_t::MODULUS), r = test::to_mpz(fr_t::MODULUS);
  expect_error(fp_from_decimal(p.get_str(10)), status_code::non_canonical, "not below the modulus");
  expect_error(fr_from_decimal(r.get_str(10)), status_code::non_canonical, "not below the modulus");
  EXPECT_TRUE(fr_from_decimal(mpz_class(r - 1).get_str(10)).ok());
  const mpz_class big = mpz_class(1) << 400;
  expect_error(fp_from_decimal(big.get_str(10)), status_code::non_canonical, "exceeds");
  expect_error(fr_from_decimal(std::string(5000, '9')), status_code::non_canonical, "exceeds");
  for (const char* bad : {"", "-1", " 1", "1 ", "1a", "0x", "0xg", "1e3", "+5"}) {
    expect_error(fr_from_decimal(bad), status_code::bad_encoding, "");
  }
}

TEST(SnarkjsJson, ExportImportRoundTrip) {
  auto rng = test::test_rng::from_env("SnarkjsJson.RoundTrip");
  verifying_key vk;
  vk.alpha_g1 = rand_g1(rng);
  vk.beta_g1 = rand_g1(rng);
  vk.beta_g2 = rand_g2(rng);
  vk.gamma_g2 = rand_g2(rng);
  vk.delta_g1 = rand_g1(rng);
  vk.delta_g2 = rand_g2(rng);
  for (int i = 0; i < 4; ++i) vk.ic.push_back(rand_g1(rng));
  const std::string text = vk_to_snarkjs_json(vk);
  const json j = json::parse(text);
  EXPECT_EQ(j["protocol"], "groth16");
  EXPECT_EQ(j["curve"], "bls12381");
  EXPECT_EQ(j["nPublic"], 3);
  EXPECT_EQ(j["vk_alpha_1"][2], "1");
  EXPECT_EQ(j["vk_beta_2"][0][0], to_decimal(vk.beta_g2.x.c0));  // c0 (real part) first
  EXPECT_EQ(j["vk_beta_2"][2], json::array({"1", "0"}));
  EXPECT_EQ(j["vk_alphabeta_12"].size(), 2u);
  auto back = vk_from_snarkjs_json(text);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->alpha_g1, vk.alpha_g1);
  EXPECT_EQ(back->beta_g2, vk.beta_g2);
  EXPECT_EQ(back->gamma_g2, vk.gamma_g2);
  EXPECT_EQ(back->delta_g2, vk.delta_g2);
  EXPECT_EQ(back->ic, vk.ic);
  EXPECT_TRUE(back->beta_g1.is_infinity() && back->delta_g1.is_infinity());

  const proof pf{rand_g1(rng), rand_g2(rng), rand_g1(rng)};
  auto pb = proof_from_snarkjs_json(proof_to_snarkjs_json(pf));
  ASSERT_TRUE(pb.ok()) << pb.error().to_string();
  EXPECT_EQ(pb->a, pf.a);
  EXPECT_EQ(pb->b, pf.b);
  EXPECT_EQ(pb->c, pf.c);

  const std::vector<fr_t> pub = {fr_t::zero(), fr_t::from_uint(3), -fr_t::one()};
  auto qb = public_from_snarkjs_json(public_to_snarkjs_json(pub));
  ASSERT_TRUE(qb.ok());
  EXPECT_EQ(*qb, pub);
  EXPECT_EQ(public_to_snarkjs_json({}), "[]\n");
}

TEST(SnarkjsJson, JacobianAndIdentityInputs) {
  auto rng = test::test_rng::from_env("SnarkjsJson.Jacobian");
  const g1_affine_t p = rand_g1(rng);
  const g2_affine_t q = rand_g2(rng);
  const fp_t z = fp_t::random(rng);
  const fp2_t z2 = fp2_t::random(rng);
  json j;
  j["pi_a"] = {to_decimal(p.x * z.sqr()), to_decimal(p.y * z.sqr() * z), to_decimal(z)};
  const fp2_t qx = q.x * z2.sqr(), qy = q.y * z2.sqr() * z2;
  // json::array: a brace list of string pairs would become a JSON object
  j["pi_b"] = json::array({json::array({to_decimal(qx.c0), to_decimal(qx.c1)}),
                           json::array({to_decimal(qy.c0), to_decimal(qy.c1)}),
                           json::array({to_decimal(z2.c0), to_decimal(z2.c1)})});
  j["pi_c"] = {to_decimal(p.x), to_decimal(p.y)};  // no z: affine
  auto pf = proof_from_snarkjs_json(j.dump());
  ASSERT_TRUE(pf.ok()) << pf.error().to_string();
  EXPECT_EQ(pf->a, p);
  EXPECT_EQ(pf->b, q);
  EXPECT_EQ(pf->c, p);
  j["pi_c"] = {"0", "1", "0"};  // the identity: refused in a proof
  expect_error(proof_from_snarkjs_json(j.dump()), status_code::is_infinity, "pi_c");
  // ... but an IC entry may be the identity.
  verifying_key vk{p, p, q, q, p, q, {p, g1_affine_t::infinity()}};
  auto back = vk_from_snarkjs_json(vk_to_snarkjs_json(vk));
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(back->ic[1].is_infinity());
}

TEST(SnarkjsJson, VerifiesFrozenSnarkjsProof) {
  const std::string vk_text = read_vector("verification_key.json");
  auto vk = vk_from_snarkjs_json(vk_text);
  ASSERT_TRUE(vk.ok()) << vk.error().to_string();
  auto pf = proof_from_snarkjs_json(read_vector("proof.json"));
  ASSERT_TRUE(pf.ok()) << pf.error().to_string();
  auto pub = public_from_snarkjs_json(read_vector("public.json"));
  ASSERT_TRUE(pub.ok()) << pub.error().to_string();
  ASSERT_EQ(pub->size(), 3u);
  EXPECT_EQ((*pub)[1], fr_t::from_uint(3));
  const auto pvk = prepare_verifying_key(*vk);
  auto ok = verify(pvk, *pf, *pub);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok);
  auto bad = *pub;
  bad[2] += fr_t::one();
  EXPECT_FALSE(*verify(pvk, *pf, bad));
  proof swapped = *pf;
  std::swap(swapped.a, swapped.c);
  EXPECT_FALSE(*verify(pvk, swapped, *pub));
  // Our e(α, β) in snarkjs's Fp12 layout equals the vk_alphabeta_12 snarkjs wrote.
  const json ours = json::parse(vk_to_snarkjs_json(*vk));
  const json theirs = json::parse(vk_text);
  EXPECT_EQ(ours["vk_alphabeta_12"], theirs["vk_alphabeta_12"]);
  EXPECT_EQ(ours["IC"], theirs["IC"]);
  EXPECT_EQ(ours["vk_delta_2"], theirs["vk_delta_2"]);
}

// Found by snarkjs_json_fuzz (docs/fuzzing.md): a JSON number too large for a double made the
// JSON library throw out_of_range, which escaped the readers and aborted the process.
TEST(SnarkjsJson, NumberOverflowIsMalformedNotAnAbort) {
  expect_error(proof_from_snarkjs_json(R"({"pi_a": [9E14651173, "1", "1"]})"),
               status_code::bad_encoding, "proof: invalid JSON");
  expect_error(vk_from_snarkjs_json("[1e400]"), status_code::bad_encoding,
               "verification key: invalid JSON");
  expect_error(public_from_snarkjs_json("[-1E99999]"), status_code::bad_encoding,
               "public signals: invalid JSON");
}

TEST(SnarkjsJson, RejectsMalformedWithFieldNames) {
  const std::string vk_text = read_vector("verification_key.json");
  const json vk = json::parse(vk_text);
  const json pf = json::parse(read_vector("proof.json"));
  auto vk_with = [&](auto edit) {
    json j = vk;
    edit(j);
    return vk_from_snarkjs_json(j.dump());
  };
  auto pf_with = [&](auto edit) {
    json j = pf;
    edit(j);
    return proof_from_snarkjs_json(j.dump());
  };
  expect_error(vk_from_snarkjs_json(vk_text.substr(0, vk_text.size() / 2)),
               status_code::bad_encoding, "verification key: invalid JSON");
  expect_error(vk_from_snarkjs_json("[]"), status_code::bad_encoding, "not a JSON object");
  expect_error(vk_with([](json& j) { j.erase("vk_delta_2"); }), status_code::bad_encoding,
               "vk_delta_2: missing");
  expect_error(vk_with([](json& j) { j.erase("curve"); }), status_code::bad_encoding,
               "curve: missing");
  expect_error(vk_with([](json& j) { j["curve"] = "bn128"; }), status_code::invalid_argument,
               "is not bls12381");
  EXPECT_TRUE(vk_with([](json& j) { j["curve"] = "BLS12-381"; }).ok());
  expect_error(vk_with([](json& j) { j["protocol"] = "plonk"; }), status_code::invalid_argument,
               "protocol");
  expect_error(vk_with([](json& j) { j["nPublic"] = 2; }), status_code::size_mismatch, "nPublic");
  expect_error(vk_with([](json& j) { j["IC"] = json::array(); }), status_code::bad_encoding, "IC");
  expect_error(vk_with([](json& j) { j["IC"][2][1] = "7"; }), status_code::not_on_curve, "IC[2]");
  expect_error(vk_with([](json& j) { j["vk_gamma_2"][1] = json::array({"1"}); }),
               status_code::bad_encoding, "vk_gamma_2[1]");
  expect_error(
      vk_with([](json& j) { j["vk_beta_2"][1][0] = test::to_mpz(fp_t::MODULUS).get_str(); }),
      status_code::non_canonical, "vk_beta_2[1][0]");
  expect_error(vk_with([](json& j) { j["vk_alpha_1"][0] = 1.5; }), status_code::bad_encoding,
               "vk_alpha_1[0]: expected a decimal string");

  expect_error(proof_from_snarkjs_json("{"), status_code::bad_encoding, "proof: invalid JSON");
  expect_error(pf_with([](json& j) { j.erase("pi_b"); }), status_code::bad_encoding,
               "pi_b: missing");
  expect_error(pf_with([](json& j) { j["pi_a"][0] = "x1"; }), status_code::bad_encoding, "pi_a[0]");
  expect_error(pf_with([](json& j) { j["pi_a"][1] = "5"; }), status_code::not_on_curve, "pi_a");
  expect_error(pf_with([](json& j) {
                 j["pi_b"][2] = json::array({"0", "0"});
               }),
               status_code::is_infinity, "pi_b");
  expect_error(pf_with([](json& j) { j["curve"] = "bn128"; }), status_code::invalid_argument,
               "curve");
  // A point on E1 outside the order-r subgroup: x with x^3 + 4 a square (cofactor h1 ≠ 1).
  for (uint64_t x = 1;; ++x) {
    const fp_t fx = fp_t::from_uint(x);
    fp_t y;
    if (!(fx.sqr() * fx + fp_t::from_uint(4)).sqrt(y)) continue;
    if (ec::in_subgroup(g1_affine_t{fx, y})) continue;
    expect_error(pf_with([&](json& j) {
                   j["pi_c"] = {to_decimal(fx), to_decimal(y), "1"};
                 }),
                 status_code::not_in_subgroup, "pi_c");
    break;
  }

  expect_error(public_from_snarkjs_json("{}"), status_code::bad_encoding, "expected a JSON array");
  expect_error(public_from_snarkjs_json("[\"1\", \"-2\"]"), status_code::bad_encoding, "public[1]");
  expect_error(
      public_from_snarkjs_json("[\"1\", \"" + test::to_mpz(fr_t::MODULUS).get_str() + "\"]"),
      status_code::non_canonical, "public[1]");
  expect_error(public_from_snarkjs_json("[1, null]"), status_code::bad_encoding, "public[1]");
  expect_error(public_from_snarkjs_json("[1,"), status_code::bad_encoding, "invalid JSON");
  auto nums = public_from_snarkjs_json("[7, \"0x10\"]");
  ASSERT_TRUE(nums.ok());
  EXPECT_EQ((*nums)[0], fr_t::from_uint(7));
  EXPECT_EQ((*nums)[1], fr_t::from_uint(16));
}

}  // namespace
}  // namespace cuzk::groth16
