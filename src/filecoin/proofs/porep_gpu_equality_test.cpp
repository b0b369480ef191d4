// SPDX-License-Identifier: Apache-2.0
// The GPU prover against the CPU prover on a real witness (label gpu): one 2 KiB PoRep partition
// (2.7 M rows, domain 2^22, the PoRep's 0/1-heavy witness) synthesized from a freshly sealed
// sector's C1 and proved by both backends over the shared 2 KiB parameters (ctest fixture
// porep_2k_params); the proof parts, blinded with the same r and s (zero and random), encode to
// the same 192 bytes, and the GPU proof verifies as a PoRep proof of that sector.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "filecoin/circuits/stacked_circuit.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/prover_backend.hpp"
#include "groth16/proof.hpp"
#include "r1cs/proving_cs.hpp"
#include "sealed_sectors.hpp"
#include "test_rng.hpp"

namespace cuzk::filecoin::proofs {
namespace {

TEST(porep_gpu, proof_bytes_equal_the_cpu_provers_on_a_real_partition) {
  const char* dir = std::getenv("CUZK_TEST_PARAMS_DIR");
  ASSERT_NE(dir, nullptr) << "CUZK_TEST_PARAMS_DIR is not set (run through ctest: fixture "
                             "porep_2k_params)";
  auto rng = test::test_rng::from_env("porep_gpu");
  const test::sealed_c1 sealed = test::seal_random_2kib_c1(rng);
  const auto cfg = *porep::porep_config(porep::registered_seal_proof::stacked_drg_2kib_v1_1);
  auto circuit = circuits::stacked_circuit_from_c1(cfg, sealed.c1, 0);
  ASSERT_TRUE(circuit.ok()) << circuit.error().to_string();
  r1cs::proving_cs cs;
  circuits::synthesize_stacked_circuit(cs, *circuit);
  cs.finalize();
  ASSERT_GE(cs.num_rows(), size_t(1) << 21);
  const auto asg = groth16::make_assignment(cs);

  auto& pool = thread_pool::default_pool();
  auto file = groth16::params_file::open(porep_params_path(cfg, dir));
  ASSERT_TRUE(file.ok()) << file.error().to_string();
  auto cpu = make_prover_backend(*file, groth16::point_checks::full, -1, pool, {});
  ASSERT_TRUE(cpu.ok()) << cpu.error().to_string();
  auto gpu = make_prover_backend(*file, groth16::point_checks::full, 0, pool, {});
  ASSERT_TRUE(gpu.ok()) << gpu.error().to_string();
  ASSERT_EQ((*gpu)->name(), "gpu 0") << "no CUDA device: this test needs one";

  auto cpu_parts = (*cpu)->start(asg, pool, nullptr);
  ASSERT_TRUE(cpu_parts.ok()) << cpu_parts.error().to_string();
  auto gpu_parts = (*gpu)->start(asg, pool, nullptr);
  ASSERT_TRUE(gpu_parts.ok()) << gpu_parts.error().to_string();
  const ff::fr_t zero = ff::fr_t::zero(), r = ff::fr_t::random(rng), s = ff::fr_t::random(rng);
  for (const auto& [rr, ss] : {std::pair{zero, zero}, std::pair{r, s}}) {
    auto pc = groth16::finalize((*cpu)->vk(), *cpu_parts, rr, ss);
    auto pg = groth16::finalize((*gpu)->vk(), *gpu_parts, rr, ss);
    ASSERT_TRUE(pc.ok() && pg.ok());
    const auto bc = groth16::encode_proof(*pc), bg = groth16::encode_proof(*pg);
    EXPECT_EQ(bc, bg) << "GPU and CPU proofs differ (r = s = " << (rr.is_zero() ? "0" : "random")
                      << ")";
    const prover_identity_t who{porep::prover_id_from_actor(sealed.miner), sealed.sector};
    auto ok = verify_porep(sealed.c1, who, bg, dir);
    ASSERT_TRUE(ok.ok()) << ok.error().to_string();
    EXPECT_TRUE(*ok) << "the GPU proof does not verify";
  }
}

}  // namespace
}  // namespace cuzk::filecoin::proofs
