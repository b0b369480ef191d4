// SPDX-License-Identifier: Apache-2.0
// ec_oracle_dump SEED COUNT: prints cuzk-computed G1/G2 records (scalar mul, wide mul, add, dbl,
// neg, msm, both encodings, decoder verdicts on valid / off-curve / non-subgroup bytes) in the
// tests/vectors/ line format, for `ec_oracle_dump … | node tests/oracle/live_check.mjs`, which
// recomputes each line with @noble/curves. SEED "env" takes CUZK_TEST_SEED or fresh entropy; the
// seed used is printed as a comment line so a failure can be replayed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ec/ec_test_util.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialization.hpp"
#include "ec/subgroup.hpp"
#include "test_rng.hpp"

namespace {

using namespace cuzk::ec;
using cuzk::test::test_rng;

std::string comp(const g1_affine_t& p) {
  return cuzk::to_hex(g1_to_compressed(p));
}
std::string comp(const g2_affine_t& p) {
  return cuzk::to_hex(g2_to_compressed(p));
}
std::string uncomp(const g1_affine_t& p) {
  return cuzk::to_hex(g1_to_uncompressed(p));
}
std::string uncomp(const g2_affine_t& p) {
  return cuzk::to_hex(g2_to_uncompressed(p));
}
std::vector<uint8_t> encode_bytes(const g1_affine_t& p, bool compressed) {
  if (compressed) {
    const auto a = g1_to_compressed(p);
    return {a.begin(), a.end()};
  }
  const auto a = g1_to_uncompressed(p);
  return {a.begin(), a.end()};
}
std::vector<uint8_t> encode_bytes(const g2_affine_t& p, bool compressed) {
  if (compressed) {
    const auto a = g2_to_compressed(p);
    return {a.begin(), a.end()};
  }
  const auto a = g2_to_uncompressed(p);
  return {a.begin(), a.end()};
}
cuzk::result<g1_affine_t> decode(const fp_t*, const std::vector<uint8_t>& b) {
  return g1_from_bytes(b);
}
cuzk::result<g2_affine_t> decode(const fp2_t*, const std::vector<uint8_t>& b) {
  return g2_from_bytes(b);
}

template <class Field>
void emit_decode(const char* g, const std::vector<uint8_t>& b) {
  const auto r = decode(static_cast<const Field*>(nullptr), b);
  const std::string verdict(r.ok() ? "ok" : to_string(r.error().code()));
  std::printf("%s_decode %s %s %s\n", g, cuzk::to_hex(b).c_str(), verdict.c_str(),
              r.ok() ? comp(*r).c_str() : "-");
}

template <class Field>
void emit(const char* g, test_rng& rng, int count) {
  using affine = affine_t<Field>;
  using jac = jacobian_t<Field>;
  const affine gen = curve_traits<Field>::GENERATOR;
  for (int i = 0; i < count; ++i) {
    const fr_t k = fr_t::random(rng);
    const affine p = test::random_subgroup_point<Field>(rng);
    affine q = test::random_subgroup_point<Field>(rng);
    if (i % 8 == 1) q = p;                   // doubling through add
    if (i % 8 == 2) q = -p;                  // P + (-P) = O
    if (i % 8 == 3) q = affine::infinity();  // P + O
    std::printf("%s_mul %s %s %s\n", g, test::scalar_hex(k.to_canonical()).c_str(),
                comp(gen).c_str(), comp(mul(gen, k).to_affine()).c_str());
    std::printf("%s_mul %s %s %s\n", g, test::scalar_hex(k.to_canonical()).c_str(), comp(p).c_str(),
                comp(mul(p, k).to_affine()).c_str());
    const cuzk::ff::limbs<4> wide = {rng(), rng(), rng(), rng()};
    std::printf("%s_mul_wide %s %s %s\n", g, test::scalar_hex(wide).c_str(), comp(p).c_str(),
                comp(mul(p, wide).to_affine()).c_str());
    std::printf("%s_add %s %s %s\n", g, comp(p).c_str(), comp(q).c_str(),
                comp(jac::from_affine(p).add_affine(q).to_affine()).c_str());
    std::printf("%s_dbl %s %s\n", g, comp(p).c_str(),
                comp(jac::from_affine(p).dbl().to_affine()).c_str());
    std::printf("%s_neg %s %s\n", g, comp(p).c_str(), comp(-p).c_str());
    std::printf("%s_point %s %s\n", g, comp(p).c_str(), uncomp(p).c_str());
    {
      const fr_t k2 = fr_t::random(rng);
      const jac sum = mul(p, k) + mul(q, k2);
      std::printf("%s_msm 2 %s %s %s %s %s\n", g, test::scalar_hex(k.to_canonical()).c_str(),
                  comp(p).c_str(), test::scalar_hex(k2.to_canonical()).c_str(), comp(q).c_str(),
                  comp(sum.to_affine()).c_str());
    }
    // decoder verdicts: a valid point, a curve point outside the subgroup, an x off the curve
    const auto cb = encode_bytes(p, true), ub = encode_bytes(p, false);
    emit_decode<Field>(g, cb);
    emit_decode<Field>(g, ub);
    const affine any = test::random_curve_point<Field>(rng);
    emit_decode<Field>(g, encode_bytes(any, true));
    emit_decode<Field>(g, encode_bytes(any, false));
    affine off = any;
    off.y = off.y + Field::one();
    emit_decode<Field>(g, encode_bytes(off, false));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SEED|env COUNT\n", argv[0]);
    return 2;
  }
  uint64_t seed;
  if (std::strcmp(argv[1], "env") == 0) {
    if (const char* s = std::getenv("CUZK_TEST_SEED")) {
      seed = std::strtoull(s, nullptr, 0);
    } else {
      std::random_device rd;
      seed = (uint64_t(rd()) << 32) ^ rd();
    }
  } else {
    seed = std::strtoull(argv[1], nullptr, 0);
  }
  const int count = std::atoi(argv[2]);
  std::printf("# ec_oracle_dump: CUZK_TEST_SEED=%llu count=%d\n", (unsigned long long)seed, count);
  test_rng rng(seed);
  emit<fp_t>("g1", rng, count);
  emit<fp2_t>("g2", rng, count);
  return 0;
}
