// SPDX-License-Identifier: Apache-2.0
// Pairing micro-benchmarks: one full optimal ate pairing e(G1, G2), its Miller loop and its final
// exponentiation alone, and the Fp multiplication they are built from (for scaling estimates).
#include <benchmark/benchmark.h>

#include "ff/fp12.hpp"
#include "pairing/pairing.hpp"

namespace {

using cuzk::ec::g1_affine_t;
using cuzk::ec::g2_affine_t;
using cuzk::ff::fp12_t;
using cuzk::ff::fp2_t;
using cuzk::ff::fp_t;
using cuzk::ff::limbs;

fp_t fp(const limbs<6>& canonical) {
  return fp_t::from_canonical(canonical);
}

// The standard generators (canonical limbs, little-endian).
const g1_affine_t G1{fp({0xfb3af00adb22c6bb, 0x6c55e83ff97a1aef, 0xa14e3a3f171bac58,
                         0xc3688c4f9774b905, 0x2695638c4fa9ac0f, 0x17f1d3a73197d794}),
                     fp({0x0caa232946c5e7e1, 0xd03cc744a2888ae4, 0x00db18cb2c04b3ed,
                         0xfcf5e095d5d00af6, 0xa09e30ed741d8ae4, 0x08b3f481e3aaa0f1})};
const g2_affine_t G2{{fp({0xd48056c8c121bdb8, 0x0bac0326a805bbef, 0xb4510b647ae3d177,
                          0xc6e47ad4fa403b02, 0x260805272dc51051, 0x024aa2b2f08f0a91}),
                      fp({0xe5ac7d055d042b7e, 0x334cf11213945d57, 0xb5da61bbdc7f5049,
                          0x596bd0d09920b61a, 0x7dacd3a088274f65, 0x13e02b6052719f60})},
                     {fp({0xaaa9075ff05f79be, 0x3f370d275cec1da1, 0x267492ab572e99ab,
                          0xcb3e287e85a763af, 0x32acd2b02bc28b99, 0x0606c4a02ea734cc}),
                      fp({0xe193548608b82801, 0x923ac9cc3baca289, 0x6d429a695160d12c,
                          0xadfd9baa8cbdd3a7, 0x8cc9cdc6da2e351a, 0x0ce5d527727d6e11})}};

void BM_pairing(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::pair(G1, G2));
}
BENCHMARK(BM_pairing)->Unit(benchmark::kMicrosecond);

void BM_miller_loop(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::miller_loop(G1, G2));
}
BENCHMARK(BM_miller_loop)->Unit(benchmark::kMicrosecond);

void BM_final_exp(benchmark::State& state) {
  const fp12_t f = cuzk::pairing::miller_loop(G1, G2);
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::final_exponentiation(f));
}
BENCHMARK(BM_final_exp)->Unit(benchmark::kMicrosecond);

void BM_pairing_fp_mul(benchmark::State& state) {
  fp_t a = G1.x, b = G1.y;
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_pairing_fp_mul);

void BM_pairing_fp12_mul(benchmark::State& state) {
  fp12_t a = cuzk::pairing::miller_loop(G1, G2), b = a.sqr();
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_pairing_fp12_mul);

}  // namespace
