// SPDX-License-Identifier: Apache-2.0
// groth16::cpu_proof_bytes against what a CPU proof allocates: this binary counts every
// operator new (its own test binary, so no other test pays for the count) and compares the peak
// of live bytes during start() with the formula, for a witness whose every aux term is neither 0
// nor 1 (the worst case the engine charges).
#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "groth16/prover_cpu.hpp"
#include "groth16/split_cases_test_util.hpp"
#include "test_rng.hpp"

namespace {

std::atomic<int64_t> g_live{0}, g_peak{0};

void* counted(void* p) {
  if (!p) throw std::bad_alloc();
  const int64_t now =
      g_live.fetch_add(int64_t(malloc_usable_size(p))) + int64_t(malloc_usable_size(p));
  int64_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return p;
}
void uncounted(void* p) {
  if (!p) return;
  g_live.fetch_sub(int64_t(malloc_usable_size(p)));
  std::free(p);
}
void* aligned(size_t n, std::align_val_t a) {
  const size_t al = std::max(size_t(a), sizeof(void*));
  return counted(std::aligned_alloc(al, (std::max<size_t>(n, 1) + al - 1) / al * al));
}

}  // namespace

void* operator new(size_t n) {
  return counted(std::malloc(std::max<size_t>(n, 1)));
}
void* operator new[](size_t n) {
  return counted(std::malloc(std::max<size_t>(n, 1)));
}
void* operator new(size_t n, std::align_val_t a) {
  return aligned(n, a);
}
void* operator new[](size_t n, std::align_val_t a) {
  return aligned(n, a);
}
void operator delete(void* p) noexcept {
  uncounted(p);
}
void operator delete[](void* p) noexcept {
  uncounted(p);
}
void operator delete(void* p, size_t) noexcept {
  uncounted(p);
}
void operator delete[](void* p, size_t) noexcept {
  uncounted(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  uncounted(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  uncounted(p);
}
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  uncounted(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  uncounted(p);
}

namespace cuzk::groth16 {
namespace {

using namespace split_cases;

TEST(CpuProofMemory, StartStaysWithinTheFormula) {
  auto rng = test::test_rng::from_env("CpuProofMemory.StartStaysWithinTheFormula");
  thread_pool pool(2);
  // 2^18 rows and aux, every aux term other, full densities: the MSMs' prepared terms and the
  // splits dominate the per-thread buckets.
  const size_t rows = (size_t(1) << 18) - 3, n_aux = size_t(1) << 18;
  const split_case sc = make_split_case(rows, n_aux, aux_fill::others, density_kind::full,
                                        density_kind::full, false, rng);
  const assignment asg = sc.view();
  const auto g1 = point_pool(ec::g1_generator(), 4099, rng);
  const auto g2 = point_pool(ec::g2_generator(), 4099, rng);
  const parameters params = parameters_for(asg, size_t(1) << 18, g1, g2, 1);
  const uint64_t model = cpu_proof_bytes(params.sizes(), pool.size());
  // Without the threads' buckets (a bound for the widest window: here they hold ≈ 3 MB in all).
  const uint64_t terms_and_splits = cpu_proof_bytes(params.sizes(), 0);
  const int64_t before = g_live.load();
  g_peak.store(before);
  auto parts = start(params, asg, pool);
  ASSERT_TRUE(parts.ok()) << parts.error().to_string();
  const int64_t used = g_peak.load() - before;
  std::printf(
      "CPU proof of 2^18 rows: allocated at its peak %lld B, cpu_proof_bytes %llu B "
      "(%llu B without the threads' buckets)\n",
      (long long)used, (unsigned long long)model, (unsigned long long)terms_and_splits);
  EXPECT_LE(used, int64_t(model));
  EXPECT_GE(double(used), 0.95 * double(terms_and_splits));
}

}  // namespace
}  // namespace cuzk::groth16
