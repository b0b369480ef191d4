// SPDX-License-Identifier: Apache-2.0
// The GPU fixed-base backend against the CPU one (label gpu): G1 and G2 points for random scalars
// and the edges of the byte-window method (0 → infinity, 1, r − 1, single nonzero windows d·2^(8w),
// all-0xff low bytes), across chunk boundaries; a whole generate_parameters on the GPU serializes
// to the CPU's bytes; a missing device is a status.
#include <gtest/gtest.h>

#include <vector>

#include "ec/curves.hpp"
#include "groth16/params_io.hpp"
#include "groth16/setup.hpp"
#include "groth16/setup_gpu.hpp"
#include "groth16/test_circuits.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::fr_t;

thread_pool& pool() {
  static thread_pool p;
  return p;
}

/// Random scalars plus the window method's edges.
std::vector<fr_t> scalars_with_edges(size_t random_count, test::test_rng& rng) {
  std::vector<fr_t> k = {fr_t::zero(),         fr_t::one(),
                         -fr_t::one(),         fr_t::from_uint(255),
                         fr_t::from_uint(256), fr_t::from_uint(0xffffffffffffffffull)};
  fr_t pow = fr_t::one();
  const fr_t radix = fr_t::from_uint(256);
  for (unsigned w = 0; w < 32; ++w, pow *= radix) {
    k.push_back(pow);                         // 2^(8w)
    k.push_back(pow * fr_t::from_uint(255));  // 255·2^(8w)
    k.push_back(-pow);                        // r − 2^(8w): many 0xff bytes
  }
  for (size_t i = 0; i < random_count; ++i) k.push_back(fr_t::random(rng));
  return k;
}

template <class Field>
void expect_same_points(const ec::affine_t<Field>& g, size_t random_count, size_t chunk,
                        test::test_rng& rng) {
  const fixed_base_table<Field> table(g, pool());
  const auto k = scalars_with_edges(random_count, rng);
  std::vector<ec::affine_t<Field>> want(k.size()), got(k.size());
  for (size_t i = 0; i < k.size(); ++i) want[i] = table.mul(k[i]).to_affine();
  auto backend = cuda::make_fixed_base_backend(0, pool(), chunk);
  ASSERT_TRUE(backend.ok()) << backend.error().to_string();
  size_t reports = 0;
  const status s =
      (*backend)->mul(table, k, got, "test", [&](const char*, size_t, size_t) { ++reports; });
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(reports, (k.size() + chunk - 1) / chunk);
  EXPECT_TRUE(got[0].is_infinity());
  for (size_t i = 0; i < k.size(); ++i) {
    ASSERT_TRUE(got[i] == want[i]) << "point " << i << " of " << k.size();
  }
}

TEST(SetupGpu, G1MatchesCpuAcrossChunks) {
  auto rng = test::test_rng::from_env("SetupGpu.G1MatchesCpuAcrossChunks");
  expect_same_points(ec::g1_generator(), 20000, 4096, rng);
}

TEST(SetupGpu, G2MatchesCpuAcrossChunks) {
  auto rng = test::test_rng::from_env("SetupGpu.G2MatchesCpuAcrossChunks");
  expect_same_points(ec::g2_generator(), 5000, 1000, rng);
}

TEST(SetupGpu, GenerateParametersIsByteIdentical) {
  auto rng = test::test_rng::from_env("SetupGpu.GenerateParametersIsByteIdentical");
  const auto ci = testing::random_circuit(30000, 4, rng);
  const uint8_t seed[] = {'g', 'p', 'u'};
  const auto tw = toxic_waste::from_seed(seed);
  auto cpu = generate_parameters(ci.cs, tw, pool());
  ASSERT_TRUE(cpu.ok()) << cpu.error().to_string();
  auto backend = cuda::make_fixed_base_backend(0, pool(), 7000);
  ASSERT_TRUE(backend.ok()) << backend.error().to_string();
  auto gpu = generate_parameters(ci.cs, tw, pool(), {}, backend->get());
  ASSERT_TRUE(gpu.ok()) << gpu.error().to_string();
  auto a = params_to_bytes(*cpu, pool());
  auto b = params_to_bytes(*gpu, pool());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(*a == *b) << "GPU setup differs from the CPU's";
}

TEST(SetupGpu, MissingDeviceIsAStatus) {
  auto backend = cuda::make_fixed_base_backend(999, pool());
  ASSERT_FALSE(backend.ok());
  EXPECT_EQ(backend.error().code(), status_code::invalid_argument) << backend.error().to_string();
}

}  // namespace
}  // namespace cuzk::groth16
