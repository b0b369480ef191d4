// SPDX-License-Identifier: Apache-2.0
// GPU Groth16 prover against the CPU prover: byte-identical proofs for fixed r, s (zero and
// random) on random circuits of several shapes and on the cubic example, and the proofs verify;
// one resident device_parameters reused for many proofs; parameters streamed from a .params file
// (stream_from) give the same proofs and name a corrupt point; start/finalize split; no device
// memory leaked over repeated proofs (cudaMemGetInfo); CUDA failures (bad device ordinal, out of
// device memory forced by a hog allocation) come back as statuses naming the call, and the prover
// works again afterwards; size mismatches; the device 0/1 split against the CPU's on synthetic
// assignments (aux all 0, all 1, all "other", mixed; densities empty, full, sparse, half, with
// garbage bits past count). Label gpu: needs a CUDA device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ec/curves.hpp"
#include "ec/scalar_mul.hpp"

#include "groth16/params_io.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover_cpu.hpp"
#include "groth16/prover_gpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/split_cases_test_util.hpp"
#include "groth16/test_circuits.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/abc_plan.hpp"
#include "test_rng.hpp"

namespace cuzk::groth16 {
namespace {

using ff::fr_t;
using namespace split_cases;

thread_pool& pool() {
  static thread_pool p;
  return p;
}

struct fixture {
  testing::circuit_instance ci;
  testing::owned_assignment oa;
  parameters params;
  prepared_verifying_key pvk;
};

fixture make_fixture(size_t constraints, size_t num_public, test::test_rng& rng) {
  fixture f;
  f.ci = testing::random_circuit(constraints, num_public, rng);
  auto a = testing::make_assignment(f.ci.cs, f.ci.inputs, f.ci.aux, pool());
  EXPECT_TRUE(a.ok()) << a.error().to_string();
  f.oa = std::move(*a);
  toxic_waste tw{fr_t::random(rng), fr_t::random(rng), fr_t::random(rng), fr_t::random(rng),
                 fr_t::random(rng)};
  auto p = generate_parameters(f.ci.cs, tw, pool());
  EXPECT_TRUE(p.ok()) << p.error().to_string();
  f.params = std::move(*p);
  f.pvk = prepare_verifying_key(f.params.vk);
  return f;
}

std::vector<fr_t> public_of(const testing::circuit_instance& ci) {
  return {ci.inputs.begin() + 1, ci.inputs.end()};
}

// The smallest ring host residency takes: two halves of 64 G2 points (and 128 G1 points).
constexpr size_t kSmallestRing = 2 * 64 * sizeof(ec::g2_affine_t) + 512;

std::unique_ptr<cuda::device_parameters> upload(const parameters& p) {
  auto dp = cuda::device_parameters::upload(p, 0);
  EXPECT_TRUE(dp.ok()) << dp.error().to_string();
  if (!dp.ok()) return nullptr;
  return std::move(*dp);
}

/// The fixture's compiled a, b, c plan on dp's device, and its assignment without a, b, c (the
/// prover evaluates them from the plan).
struct device_plan {
  std::unique_ptr<cuda::device_abc_program> prog;
  assignment witness_only;
};
result<device_plan> device_plan_of(const fixture& f, const cuda::device_parameters& dp) {
  auto plan = r1cs::abc_plan::from_matrices(f.ci.cs);
  if (!plan) return plan.error();
  auto prog = cuda::device_abc_program::upload(*plan, dp.context());
  if (!prog) return prog.error();
  device_plan out{std::move(*prog), f.oa.view()};
  out.witness_only.a = out.witness_only.b = out.witness_only.c = {};
  return result<device_plan>(std::move(out));
}

void expect_same_proof(const fixture& f, const cuda::device_parameters& dp, const fr_t& r,
                       const fr_t& s, const std::string& what) {
  auto cpu = create_proof(f.params, f.oa.view(), r, s, pool());
  ASSERT_TRUE(cpu.ok()) << cpu.error().to_string();
  prover_timings tm;
  auto got = cuda::create_proof(dp, f.oa.view(), r, s, pool(), &tm);
  ASSERT_TRUE(got.ok()) << what << ": " << got.error().to_string();
  EXPECT_EQ(encode_proof(*got), encode_proof(*cpu)) << what;
  const auto x = public_of(f.ci);
  auto ok = verify(f.pvk, *got, x);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok) << what;
}

TEST(Groth16Gpu, MatchesCpuOnRandomCircuits) {
  auto rng = test::test_rng::from_env("Groth16Gpu.MatchesCpuOnRandomCircuits");
  // Row counts around powers of two (m − 1 = rows − 1, rows, rows + 1) and a larger one.
  const std::pair<size_t, size_t> shapes[] = {{10, 1},  {30, 2},   {62, 1},   {64, 3},
                                              {200, 4}, {1021, 2}, {4000, 5}, {20000, 3}};
  for (auto [rows, pub] : shapes) {
    const fixture f = make_fixture(rows, pub, rng);
    auto dp = upload(f.params);
    ASSERT_TRUE(dp);
    const std::string what = "rows=" + std::to_string(rows) + " public=" + std::to_string(pub);
    expect_same_proof(f, *dp, fr_t::zero(), fr_t::zero(), what + " r=s=0");
    expect_same_proof(f, *dp, fr_t::random(rng), fr_t::random(rng), what + " random r,s");
    // The same with the parameters in host memory, streamed through the default ring (one chunk
    // per query here) and through the smallest one (many).
    for (size_t ring : {cuda::default_ring_bytes, kSmallestRing}) {
      auto hp = cuda::device_parameters::host_resident(f.params, 0, ring);
      ASSERT_TRUE(hp.ok()) << hp.error().to_string();
      EXPECT_EQ((*hp)->where(), cuda::residency::host);
      EXPECT_EQ((*hp)->bytes(), 0u);
      EXPECT_EQ((*hp)->host_bytes(),
                query_bytes(f.params.sizes()) - f.params.vk.ic.size() * sizeof(ec::g1_affine_t));
      expect_same_proof(f, **hp, fr_t::random(rng), fr_t::random(rng),
                        what + " host residency, ring " + std::to_string(ring));
    }
  }
}

// a, b, c evaluated on the device from the witness (the assignment carries none) give the same
// proof bytes as a, b, c from the host, and the proofs verify; misuse is a status.
TEST(Groth16Gpu, DeviceEvaluatedAbcMatchesHostAbc) {
  auto rng = test::test_rng::from_env("Groth16Gpu.DeviceEvaluatedAbcMatchesHostAbc");
  const std::pair<size_t, size_t> shapes[] = {{10, 1}, {64, 3}, {1021, 2}, {20000, 3}};
  for (auto [rows, pub] : shapes) {
    const fixture f = make_fixture(rows, pub, rng);
    auto dp = upload(f.params);
    ASSERT_TRUE(dp);
    auto plan = device_plan_of(f, *dp);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    const cuda::device_abc_program* prog = plan->prog.get();
    const assignment& witness_only = plan->witness_only;
    const std::string what = "rows=" + std::to_string(rows) + " public=" + std::to_string(pub);
    const fr_t r = fr_t::random(rng), s = fr_t::random(rng);
    auto host = cuda::create_proof(*dp, f.oa.view(), r, s, pool());
    ASSERT_TRUE(host.ok()) << what << ": " << host.error().to_string();
    auto dev = start_and_finalize(dp->vk(), r, s, nullptr, [&](prover_timings* tm) {
      return cuda::start(*dp, *prog, witness_only, pool(), tm);
    });
    ASSERT_TRUE(dev.ok()) << what << ": " << dev.error().to_string();
    EXPECT_EQ(encode_proof(*dev), encode_proof(*host)) << what;
    auto ok = verify(f.pvk, *dev, public_of(f.ci));
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok) << what;
    // a, b, c in turn through two domain buffers (gpu_memory_knobs::abc_in_turn), with the
    // parameters on the device; and streamed from host memory through the smallest ring (two
    // slots) and a ring of four slots of 256 G1 points, each query after the last or H, L and A
    // interleaved (interleave_queries), a, b, c in turn or not, the ring taken before a, b, c or
    // after them (ring_after_abc).
    // Partially resident (resident_queries): some queries kept on the device, the rest
    // streamed, each query after the last or interleaved (the device's own among H, L and A on
    // a second stream).
    const auto prove_with = [&](cuda::device_parameters& where, bool in_turn, bool interleave,
                                bool ring_after_abc, const std::string& how,
                                unsigned resident = 0) {
      gpu_memory_knobs k = where.memory_knobs();
      k.abc_in_turn = in_turn;
      k.interleave_queries = interleave;
      k.ring_after_abc = ring_after_abc;
      k.resident_queries = resident;
      const cuzk::status set = where.set_memory_knobs(k);
      ASSERT_TRUE(set.ok()) << how << ": " << set.to_string();
      // An empty query has nothing to keep.
      const query_sizes q = where.sizes();
      if (q.b_g1 == 0) k.resident_queries &= ~unsigned(gpu_query_b_g1);
      if (q.b_g2 == 0) k.resident_queries &= ~unsigned(gpu_query_b_g2);
      if (where.where() == cuda::residency::device) k.resident_queries = 0;
      EXPECT_EQ(where.memory_knobs(), k) << how;
      prover_timings tm;
      auto got = start_and_finalize(where.vk(), r, s, &tm, [&](prover_timings* t) {
        return cuda::start(where, *prog, witness_only, pool(), t);
      });
      ASSERT_TRUE(got.ok()) << what << ", " << how << ": " << got.error().to_string();
      EXPECT_EQ(encode_proof(*got), encode_proof(*host)) << what << ", " << how;
      // Streamed: every MSM timed on its own (interleaved too: each its share of the phase),
      // and the waits for the copies within them.
      if (where.where() == cuda::residency::host) {
        EXPECT_GT(tm.msm_h, 0) << how;
        EXPECT_GT(tm.msm_l, 0) << how;
        EXPECT_GT(tm.msm_a, 0) << how;
        EXPECT_GE(tm.stream_wait, 0) << how;
        EXPECT_LE(tm.stream_wait, tm.msm_h + tm.msm_l + tm.msm_a + tm.msm_b_g1 + tm.msm_b_g2)
            << how;
      } else {
        EXPECT_EQ(tm.stream_wait, 0) << how;
      }
    };
    prove_with(*dp, true, false, false, "a, b, c in turn, device residency");
    for (size_t ring : {kSmallestRing, 4 * (kSmallestRing / 2)}) {
      auto hp = cuda::device_parameters::host_resident(f.params, 0, ring);
      ASSERT_TRUE(hp.ok()) << hp.error().to_string();
      for (bool in_turn : {false, true}) {
        for (bool interleave : {false, true}) {
          for (bool after : {false, true}) {
            prove_with(**hp, in_turn, interleave, after,
                       "host residency, ring " + std::to_string(ring) +
                           (in_turn ? ", a, b, c in turn" : "") +
                           (interleave ? ", interleaved" : "") +
                           (after ? ", ring after a, b, c" : ""));
          }
        }
      }
      for (const unsigned resident :
           {unsigned(gpu_query_h), unsigned(gpu_query_h | gpu_query_l),
            unsigned(gpu_query_l | gpu_query_a), unsigned(gpu_query_h | gpu_query_b_g2),
            unsigned(gpu_query_h | gpu_query_l | gpu_query_a | gpu_query_b_g1), gpu_all_queries}) {
        for (bool interleave : {false, true}) {
          prove_with(**hp, false, interleave, false,
                     "host residency, ring " + std::to_string(ring) + ", on the device: " +
                         gpu_query_names(resident) + (interleave ? ", interleaved" : ""),
                     resident);
        }
      }
      // H's window widened and one window a pass (gpu_memory_knobs::h_window_bits,
      // h_group_bytes: what the planner's widen_streamed_h sets), each query after the last or
      // interleaved; prove_with keeps the two knobs it does not set.
      gpu_memory_knobs wide = (**hp).memory_knobs();
      wide.h_window_bits = 13;
      wide.h_group_bytes = 1;
      ASSERT_TRUE((**hp).set_memory_knobs(wide).ok());
      for (bool interleave : {false, true}) {
        prove_with(**hp, false, interleave, false,
                   "host residency, ring " + std::to_string(ring) +
                       ", H's window 13 bits, one window a pass" +
                       (interleave ? ", interleaved" : ""));
      }
      wide.h_window_bits = 0;
      wide.h_group_bytes = 0;
      ASSERT_TRUE((**hp).set_memory_knobs(wide).ok());
      // Back to every query streamed: the device copies freed.
      prove_with(**hp, false, true, false, "host residency, every query streamed again", 0);
      EXPECT_EQ((*hp)->bytes(), 0u);
    }
    if (rows != 64) continue;
    // Misuse: a, b, c given as well; a program for another witness.
    auto both = cuda::start(*dp, *prog, f.oa.view(), pool());
    ASSERT_FALSE(both.ok());
    EXPECT_EQ(both.error().code(), status_code::invalid_argument);
    assignment short_aux = witness_only;
    short_aux.aux = short_aux.aux.first(short_aux.aux.size() - 1);
    auto mismatch = cuda::start(*dp, *prog, short_aux, pool());
    ASSERT_FALSE(mismatch.ok());
    EXPECT_EQ(mismatch.error().code(), status_code::size_mismatch) << mismatch.error().to_string();
  }
}

// Provers sharing one device (the engine's lanes): threads proving at once on one
// device_parameters, from the witness (upload before the device's compute lock) and from host
// a, b, c (the lock from the start), and one as express work (express_scope: the device's
// greatest-priority stream, no lock, its kernels among the others'), give the CPU's proof bytes
// for their r, s; their buffers come from the stream-ordered pool, which is handed back to the
// device once the last prover ends.
TEST(Groth16Gpu, ConcurrentProversShareTheDevice) {
  auto rng = test::test_rng::from_env("Groth16Gpu.ConcurrentProversShareTheDevice");
  const fixture f = make_fixture(3000, 2, rng);
  auto dp = upload(f.params);
  ASSERT_TRUE(dp);
  auto plan = device_plan_of(f, *dp);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  const cuda::device_abc_program* prog = plan->prog.get();
  const assignment& witness_only = plan->witness_only;
  constexpr int threads = 3, proofs = 4;
  std::vector<std::unique_ptr<thread_pool>> pools;
  for (int t = 0; t < threads; ++t) pools.push_back(std::make_unique<thread_pool>(2));
  // One round: every lane proves `proofs` partitions (lane 0 from host a, b, c, the others from
  // the witness), each proof compared with the CPU's for its r, s.
  const auto round = [&] {
    std::vector<fr_t> r(threads * proofs), s(threads * proofs);
    for (size_t i = 0; i < r.size(); ++i) {
      r[i] = fr_t::random(rng);
      s[i] = fr_t::random(rng);
    }
    std::vector<decltype(encode_proof(std::declval<proof>()))> got(r.size());
    std::vector<std::string> errors(threads);
    std::vector<std::thread> lanes;
    for (int t = 0; t < threads; ++t) {
      lanes.emplace_back([&, t] {
        std::optional<express_scope> express;
        if (t == threads - 1) express.emplace();
        for (int k = 0; k < proofs; ++k) {
          const size_t i = size_t(t * proofs + k);
          auto pf = start_and_finalize(dp->vk(), r[i], s[i], nullptr, [&](prover_timings* tm) {
            return t == 0 ? cuda::start(*dp, f.oa.view(), *pools[t], tm)
                          : cuda::start(*dp, *prog, witness_only, *pools[t], tm);
          });
          if (!pf) {
            errors[t] = pf.error().to_string();
            return;
          }
          got[i] = encode_proof(*pf);
        }
      });
    }
    for (std::thread& l : lanes) l.join();
    for (int t = 0; t < threads; ++t) EXPECT_EQ(errors[t], "") << "lane " << t;
    for (size_t i = 0; i < r.size(); ++i) {
      auto cpu = create_proof(f.params, f.oa.view(), r[i], s[i], pool());
      ASSERT_TRUE(cpu.ok());
      EXPECT_EQ(got[i], encode_proof(*cpu)) << "proof " << i;
    }
  };
  // The first round also makes what is cached on purpose (the NTT tables, a staging set and its
  // stream per concurrent lane); the second must leave the device as the first did.
  round();
  auto before = cuda::memory_info(0);
  ASSERT_TRUE(before.ok());
  round();
  auto after = cuda::memory_info(0);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->first, before->first) << "the pool kept device memory after the last prover";
}

TEST(Groth16Gpu, CubicCircuit) {
  const auto ci = testing::cubic_circuit();
  auto a = testing::make_assignment(ci.cs, ci.inputs, ci.aux, pool());
  ASSERT_TRUE(a.ok());
  const uint8_t seed[] = {42};
  auto params = generate_parameters(ci.cs, toxic_waste::from_seed(seed), pool());
  ASSERT_TRUE(params.ok());
  fixture f{ci, std::move(*a), std::move(*params), {}};
  f.pvk = prepare_verifying_key(f.params.vk);
  auto dp = upload(f.params);
  ASSERT_TRUE(dp);
  expect_same_proof(f, *dp, fr_t::from_uint(3), fr_t::from_uint(11), "cubic");
}

// allocate() + filling the queries through their device pointers is the same key as upload().
TEST(Groth16Gpu, AllocateThenFill) {
  auto rng = test::test_rng::from_env("Groth16Gpu.AllocateThenFill");
  const fixture f = make_fixture(500, 3, rng);
  const query_sizes q = f.params.sizes();
  auto dp = cuda::device_parameters::allocate(f.params.vk, q, 0);
  ASSERT_TRUE(dp.ok()) << dp.error().to_string();
  EXPECT_EQ((*dp)->sizes().h, q.h);
  const auto d = (*dp)->queries();
  auto copy = [](void* dst, const auto& v) {
    ASSERT_EQ(cudaMemcpy(dst, v.data(), v.size() * sizeof(v[0]), cudaMemcpyHostToDevice),
              cudaSuccess);
  };
  copy(d.h, f.params.h);
  copy(d.l, f.params.l);
  copy(d.a, f.params.a);
  copy(d.b_g1, f.params.b_g1);
  copy(d.b_g2, f.params.b_g2);
  // The prover runs on streams of its own: the copies above must have landed first.
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  expect_same_proof(f, **dp, fr_t::random(rng), fr_t::random(rng), "allocate+fill");
  query_sizes bad = q;
  ++bad.ic;
  auto mism = cuda::device_parameters::allocate(f.params.vk, bad, 0);
  ASSERT_FALSE(mism.ok());
  EXPECT_EQ(mism.error().code(), status_code::size_mismatch);
}

// stream_from() decodes the mapped file chunk by chunk straight into pinned staging: the same key
// as upload(); a corrupt point is the decode status naming it, not a proof with a wrong base.
TEST(Groth16Gpu, StreamFromParamsFile) {
  auto rng = test::test_rng::from_env("Groth16Gpu.StreamFromParamsFile");
  const fixture f = make_fixture(3000, 2, rng);
  auto bytes = params_to_bytes(f.params, pool());
  ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
  auto file = params_file::from_bytes(*bytes);
  ASSERT_TRUE(file.ok()) << file.error().to_string();
  auto dp = cuda::device_parameters::stream_from(*file, point_checks::full, 0, pool());
  ASSERT_TRUE(dp.ok()) << dp.error().to_string();
  EXPECT_EQ((*dp)->sizes().l, f.params.l.size());
  EXPECT_EQ((*dp)->sizes().b_g2, f.params.b_g2.size());
  expect_same_proof(f, **dp, fr_t::random(rng), fr_t::random(rng), "stream_from");

  ASSERT_GE(f.params.l.size(), 2u);
  std::vector<uint8_t> bad = *bytes;
  const section_info& l = file->section(params_section::l);
  bad[l.offset + l.point_bytes + 40] ^= 0x01;  // x of l[1]: off the curve
  auto bad_file = params_file::from_bytes(bad);
  ASSERT_TRUE(bad_file.ok());
  auto bad_dp =
      cuda::device_parameters::stream_from(*bad_file, point_checks::on_curve_only, 0, pool());
  ASSERT_FALSE(bad_dp.ok());
  EXPECT_NE(bad_dp.error().to_string().find("l[1]"), std::string::npos)
      << bad_dp.error().to_string();

  // Host residency from the file: the five arrays page-locked (progress phase "page-lock"),
  // then decoded into them ("load"), each phase up to the file's query bytes (the ic points stay
  // in the vk), the same proof; the corrupt point named the same way; a ring too small to hold 64
  // G2 points refused.
  std::vector<std::string> phases;
  std::map<std::string, size_t> last_done;
  auto hp = cuda::device_parameters::host_resident(
      *file, point_checks::full, 0, pool(), [&](const char* phase, size_t done, size_t total) {
        if (phases.empty() || phases.back() != phase) phases.emplace_back(phase);
        EXPECT_EQ(total, size_t(file->query_bytes())) << phase;
        last_done[phase] = done;
      });
  ASSERT_TRUE(hp.ok()) << hp.error().to_string();
  EXPECT_EQ(phases, (std::vector<std::string>{"page-lock", "load"}));
  EXPECT_EQ(last_done["page-lock"], size_t(file->query_bytes()));
  EXPECT_EQ(last_done["load"], size_t(file->query_bytes()));
  expect_same_proof(f, **hp, fr_t::random(rng), fr_t::random(rng), "host_resident(file)");
  auto bad_hp =
      cuda::device_parameters::host_resident(*bad_file, point_checks::on_curve_only, 0, pool());
  ASSERT_FALSE(bad_hp.ok());
  EXPECT_NE(bad_hp.error().to_string().find("l[1]"), std::string::npos)
      << bad_hp.error().to_string();
  auto tiny = cuda::device_parameters::host_resident(f.params, 0, kSmallestRing - 1);
  ASSERT_FALSE(tiny.ok());
  EXPECT_EQ(tiny.error().code(), status_code::invalid_argument);
}

// The device decoder (the file's bytes copied unchanged, decoded in place on the GPU) against the
// host decoder: the same proofs under on_curve_only and none, and for a corrupt file the same
// status, character for character, whichever section the first bad point is in (two bad points:
// the earlier in file order is named; an off-curve point passes under none on both).
TEST(Groth16Gpu, DeviceDecoderMatchesHostDecoder) {
  auto rng = test::test_rng::from_env("Groth16Gpu.DeviceDecoderMatchesHostDecoder");
  const fixture f = make_fixture(3000, 2, rng);
  auto bytes = params_to_bytes(f.params, pool());
  ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
  auto file = params_file::from_bytes(*bytes);
  ASSERT_TRUE(file.ok()) << file.error().to_string();
  using cuda::params_decoder;
  for (point_checks checks : {point_checks::on_curve_only, point_checks::none}) {
    for (params_decoder d : {params_decoder::device, params_decoder::host}) {
      auto dp = cuda::device_parameters::stream_from(*file, checks, 0, pool(), {}, d);
      ASSERT_TRUE(dp.ok()) << dp.error().to_string();
      expect_same_proof(
          f, **dp, fr_t::random(rng), fr_t::random(rng),
          std::string(to_string(checks)) + (d == params_decoder::device ? " device" : " host"));
    }
  }
  struct corruption {
    params_section sec;
    uint64_t index;
    size_t byte;           // within the encoding
    uint8_t mask;          // XORed into that byte,
    bool or_mask = false;  // or ORed
  };
  const std::vector<std::vector<corruption>> cases = {
      {{params_section::h, 7, 95, 0x01}},                                     // y: off the curve
      {{params_section::l, 1, 40, 0x01}, {params_section::b_g2, 0, 191, 1}},  // l first
      {{params_section::a, 2, 0, 0x80}},                                      // compressed flag
      {{params_section::b_g1, 3, 0, 0x1f, true}},                             // x >= p
      {{params_section::b_g2, 1, 0, 0x40}},                                   // infinity flag
      {{params_section::b_g2, 2, 150, 0x04}},                                 // y.c0: off the curve
  };
  for (const auto& c : cases) {
    std::vector<uint8_t> bad = *bytes;
    for (const corruption& x : c) {
      const section_info& si = file->section(x.sec);
      uint8_t& b = bad[si.offset + x.index * si.point_bytes + x.byte];
      b = x.or_mask ? uint8_t(b | x.mask) : uint8_t(b ^ x.mask);
    }
    auto bad_file = params_file::from_bytes(bad);
    ASSERT_TRUE(bad_file.ok());
    for (point_checks checks : {point_checks::on_curve_only, point_checks::none}) {
      auto on_device = cuda::device_parameters::stream_from(*bad_file, checks, 0, pool(), {},
                                                            params_decoder::device);
      auto on_host = cuda::device_parameters::stream_from(*bad_file, checks, 0, pool(), {},
                                                          params_decoder::host);
      const std::string what = std::string(to_string(c[0].sec)) + "[" + std::to_string(c[0].index) +
                               "] " + std::string(to_string(checks));
      ASSERT_EQ(on_device.ok(), on_host.ok()) << what;
      if (!on_host.ok()) {
        EXPECT_EQ(on_device.error().to_string(), on_host.error().to_string()) << what;
        EXPECT_NE(on_device.error().to_string().find(std::string(to_string(c[0].sec)) + "[" +
                                                     std::to_string(c[0].index) + "]"),
                  std::string::npos)
            << on_device.error().to_string();
      }
    }
  }
}

TEST(Groth16Gpu, StartFinalizeReuseAndNoLeak) {
  auto rng = test::test_rng::from_env("Groth16Gpu.StartFinalizeReuseAndNoLeak");
  const fixture f = make_fixture(3000, 2, rng);
  auto dp = upload(f.params);
  ASSERT_TRUE(dp);
  EXPECT_EQ(dp->device(), 0);
  EXPECT_GT(dp->bytes(), 0u);
  // Warm-up: the NTT twiddle tables are cached per (device, size) on purpose.
  ASSERT_TRUE(cuda::start(*dp, f.oa.view(), pool()).ok());
  auto before = cuda::memory_info(0);
  ASSERT_TRUE(before.ok());
  // One start, several finalizes with different blinding: each is the CPU proof for that r, s.
  auto parts = cuda::start(*dp, f.oa.view(), pool());
  ASSERT_TRUE(parts.ok()) << parts.error().to_string();
  for (int i = 0; i < 3; ++i) {
    const fr_t r = fr_t::random(rng), s = fr_t::random(rng);
    auto pf = finalize(dp->vk(), *parts, r, s);
    ASSERT_TRUE(pf.ok());
    auto cpu = create_proof(f.params, f.oa.view(), r, s, pool());
    ASSERT_TRUE(cpu.ok());
    EXPECT_EQ(encode_proof(*pf), encode_proof(*cpu));
  }
  for (int i = 0; i < 8; ++i) {
    auto pf = cuda::create_proof(*dp, f.oa.view(), fr_t::random(rng), fr_t::random(rng), pool());
    ASSERT_TRUE(pf.ok());
    EXPECT_TRUE(*verify(f.pvk, *pf, public_of(f.ci)));
  }
  auto after = cuda::memory_info(0);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->first, before->first) << "device memory leaked over repeated proofs";
  // Upload/free cycles of the parameters leak nothing either. (Free memory is not compared with
  // bytes(): the driver sub-allocates small buffers from 2 MiB pages, so a few MB of small
  // buffers need not show up one for one in cudaMemGetInfo — the first H200 run showed that.)
  dp.reset();
  auto cycle_before = cuda::memory_info(0);
  ASSERT_TRUE(cycle_before.ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(upload(f.params));
  auto cycle_after = cuda::memory_info(0);
  ASSERT_TRUE(cycle_after.ok());
  EXPECT_EQ(cycle_after->first, cycle_before->first) << "device memory leaked by upload/free";
}

TEST(Groth16Gpu, ErrorsAreStatuses) {
  auto rng = test::test_rng::from_env("Groth16Gpu.ErrorsAreStatuses");
  const fixture f = make_fixture(500, 1, rng);
  // No such device.
  auto bad = cuda::device_parameters::upload(f.params, 4096);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().to_string().find("cudaSetDevice"), std::string::npos)
      << bad.error().to_string();
  auto dp = upload(f.params);
  ASSERT_TRUE(dp);
  // Size mismatch: the parameters of a different circuit.
  const fixture g = make_fixture(700, 1, rng);
  auto mism = cuda::create_proof(*dp, g.oa.view(), fr_t::zero(), fr_t::zero(), pool());
  ASSERT_FALSE(mism.ok());
  EXPECT_EQ(mism.error().code(), status_code::size_mismatch);
  // Out of device memory: take every byte cudaMalloc will give (halving the request down to
  // 256 B, so the driver's small-allocation pages are used up too), then upload and prove.
  // (Leaving a fixed slack is not enough: the first H200 run left 1 MiB, and this small proof
  // fitted in it.)
  std::vector<void*> hog;
  auto mi = cuda::memory_info(0);
  ASSERT_TRUE(mi.ok());
  for (size_t req = mi->first; req >= 256;) {
    void* p = nullptr;
    if (cudaMalloc(&p, req) == cudaSuccess) {
      hog.push_back(p);
    } else {
      (void)cudaGetLastError();
      req /= 2;
    }
  }
  auto up = cuda::device_parameters::upload(g.params, 0);
  auto pf = cuda::create_proof(*dp, f.oa.view(), fr_t::zero(), fr_t::zero(), pool());
  for (void* p : hog) ASSERT_EQ(cudaFree(p), cudaSuccess);
  ASSERT_FALSE(up.ok()) << "upload should have run out of device memory";
  EXPECT_NE(up.error().to_string().find("out of device memory"), std::string::npos)
      << up.error().to_string();
  EXPECT_NE(up.error().to_string().find("cudaMalloc"), std::string::npos);
  ASSERT_FALSE(pf.ok()) << "the proof should have run out of device memory";
  EXPECT_NE(pf.error().to_string().find("out of device memory"), std::string::npos)
      << pf.error().to_string();
  // A resource the caller may re-plan for (the engine steps its plan down), not a device fault.
  EXPECT_EQ(pf.error().code(), status_code::resource_exhausted);
  EXPECT_EQ(up.error().code(), status_code::resource_exhausted);
  // The device recovers: the same proof now succeeds and matches the CPU.
  expect_same_proof(f, *dp, fr_t::from_uint(5), fr_t::from_uint(6), "after OOM");
}

// ---- the device 0/1 split -------------------------------------------------------------------
// Synthetic assignments (not satisfying any circuit: the CPU and GPU provers compute the same
// group elements for any a, b, c, aux, so their proof bytes must still agree) with random
// parameters of the sizes the densities imply. Every aux size edge of the split: 0, < 32, 32,
// not a multiple of 64, several warps and blocks.

TEST(Groth16Gpu, DeviceSplitMatchesCpu) {
  auto rng = test::test_rng::from_env("Groth16Gpu.DeviceSplitMatchesCpu");
  const size_t rows = 37;  // domain 64: 63 h points
  const size_t sizes[] = {0, 1, 5, 31, 32, 33, 64, 65, 100, 127, 1000, 4099};
  const size_t max_n = 4099 + 3;
  const auto g1 = point_pool(ec::g1_generator(), max_n + 7, rng);
  const auto g2 = point_pool(ec::g2_generator(), max_n + 7, rng);
  const aux_fill fills[] = {aux_fill::zeros, aux_fill::ones, aux_fill::others, aux_fill::mixed};
  const density_kind kinds[] = {density_kind::empty, density_kind::full, density_kind::sparse,
                                density_kind::half};
  size_t t = 0;
  for (size_t n : sizes) {
    for (aux_fill fill : fills) {
      const density_kind ka = kinds[t % 4], kb = kinds[(t + t / 4 + 1) % 4];
      const bool garbage = t % 2 == 1;
      const split_case sc = make_split_case(rows, n, fill, ka, kb, garbage, rng);
      const assignment asg = sc.view();
      const size_t m = 64;
      const parameters params = parameters_for(asg, m, g1, g2, t);
      const std::string what = "n_aux=" + std::to_string(n) + " fill=" + std::to_string(int(fill)) +
                               " a_density=" + std::to_string(int(ka)) +
                               " b_density=" + std::to_string(int(kb)) +
                               " garbage=" + std::to_string(int(garbage));
      auto dp = upload(params);
      ASSERT_TRUE(dp) << what;
      const fr_t r = fr_t::random(rng), s = fr_t::random(rng);
      auto cpu = create_proof(params, asg, r, s, pool());
      ASSERT_TRUE(cpu.ok()) << what << ": " << cpu.error().to_string();
      auto got = cuda::create_proof(*dp, asg, r, s, pool());
      ASSERT_TRUE(got.ok()) << what << ": " << got.error().to_string();
      EXPECT_EQ(encode_proof(*got), encode_proof(*cpu)) << what;
      // Host residency with the smallest ring: chunks of 128 G1 / 64 G2 points, so the ones'
      // bitmap words and the others are cut at many chunk edges.
      auto hp = cuda::device_parameters::host_resident(params, 0, kSmallestRing);
      ASSERT_TRUE(hp.ok()) << what << ": " << hp.error().to_string();
      prover_timings tm;
      auto streamed = cuda::create_proof(**hp, asg, r, s, pool(), &tm);
      ASSERT_TRUE(streamed.ok()) << what << ": " << streamed.error().to_string();
      EXPECT_EQ(encode_proof(*streamed), encode_proof(*cpu)) << what << " host residency";
      EXPECT_GE(tm.streamed_bytes, (m - 1) * sizeof(ec::g1_affine_t)) << what;
      // The others gathered in pieces of 7 and the MSM windows one group at a time: the same.
      gpu_memory_knobs small;
      small.gather_points = 7;
      small.msm_group_bytes = 1;
      for (auto* d : {dp.get(), hp->get()}) {
        ASSERT_TRUE(d->set_memory_knobs(small).ok());
        EXPECT_EQ(d->memory_knobs().gather_points, 7u);
        auto pieces = cuda::create_proof(*d, asg, r, s, pool());
        ASSERT_TRUE(pieces.ok()) << what << ": " << pieces.error().to_string();
        EXPECT_EQ(encode_proof(*pieces), encode_proof(*cpu)) << what << " small knobs";
      }
      // Partially resident: H and B2 kept on the device, L, A and B1 streamed.
      gpu_memory_knobs partial = small;
      partial.resident_queries = gpu_query_h | gpu_query_b_g2;
      ASSERT_TRUE((*hp)->set_memory_knobs(partial).ok());
      auto mixed = cuda::create_proof(**hp, asg, r, s, pool());
      ASSERT_TRUE(mixed.ok()) << what << ": " << mixed.error().to_string();
      EXPECT_EQ(encode_proof(*mixed), encode_proof(*cpu)) << what << " partially resident";
      ++t;
    }
  }
}

// The device pool's measured peak of a proof against gpu_proof_bytes (gpu_memory.hpp), the
// formula the engine plans with: never above it, and within 5 % of it for the worst witness
// (every aux term "other", full densities), whatever the residency and knobs.
TEST(Groth16Gpu, DevicePeakWithinModel) {
  auto rng = test::test_rng::from_env("Groth16Gpu.DevicePeakWithinModel");
  const size_t rows = (size_t(1) << 20) - 3, n_aux = size_t(1) << 20;
  split_case sc = make_split_case(rows, n_aux, aux_fill::others, density_kind::full,
                                  density_kind::full, false, rng);
  const assignment asg = sc.view();
  const size_t m = size_t(1) << 20;
  const auto g1 = point_pool(ec::g1_generator(), 4099, rng);
  const auto g2 = point_pool(ec::g2_generator(), 4099, rng);
  const parameters params = parameters_for(asg, m, g1, g2, 1);
  const query_sizes q = params.sizes();
  gpu_memory_knobs small;
  small.gather_points = size_t(1) << 16;
  small.msm_group_bytes = size_t(64) << 20;
  small.ring_bytes = size_t(256) << 20;
  struct run_case {
    const char* name;
    bool host;
    gpu_memory_knobs knobs;
  };
  gpu_memory_knobs defaults;
  defaults.ring_bytes = cuda::default_ring_bytes;
  gpu_memory_knobs small_ring_after = small;
  small_ring_after.ring_after_abc = true;
  gpu_memory_knobs small_partial = small;
  small_partial.resident_queries = gpu_query_h | gpu_query_l;
  // H's buckets the largest buffer of its phase (15 windows of 2^17 XYZZ points, 377 MB).
  gpu_memory_knobs small_wide_h = small;
  small_wide_h.h_window_bits = 18;
  small_wide_h.h_group_bytes = size_t(256) << 20;
  for (const run_case& c :
       {run_case{"device, default knobs", false, defaults},
        run_case{"device, small knobs", false, small}, run_case{"host, small knobs", true, small},
        run_case{"host, small knobs, ring after a, b, c", true, small_ring_after},
        run_case{"host, small knobs, H and L on the device", true, small_partial},
        run_case{"host, small knobs, H's window 18 bits", true, small_wide_h}}) {
    auto dp = c.host ? cuda::device_parameters::host_resident(params, 0, c.knobs.ring_bytes)
                     : cuda::device_parameters::upload(params, 0);
    ASSERT_TRUE(dp.ok()) << c.name << ": " << dp.error().to_string();
    ASSERT_TRUE((*dp)->set_memory_knobs(c.knobs).ok()) << c.name;
    prover_timings tm;
    auto pf = cuda::create_proof(**dp, asg, fr_t::random(rng), fr_t::random(rng), pool(), &tm);
    ASSERT_TRUE(pf.ok()) << c.name << ": " << pf.error().to_string();
    const gpu_proof_memory model =
        gpu_proof_bytes(q, c.host ? gpu_residency::host : gpu_residency::device, false, c.knobs);
    std::printf("%s: measured %llu B, model %llu B (abc %llu, msm_h %llu, split %llu, lab %llu)\n",
                c.name, (unsigned long long)tm.device_peak_bytes, (unsigned long long)model.peak(),
                (unsigned long long)model.abc, (unsigned long long)model.msm_h,
                (unsigned long long)model.split, (unsigned long long)model.msm_lab);
    ASSERT_GT(tm.device_peak_bytes, 0u) << c.name << ": the device has no memory pool";
    EXPECT_LE(tm.device_peak_bytes, model.peak()) << c.name;
    EXPECT_LE(double(model.peak()), 1.05 * double(tm.device_peak_bytes)) << c.name;
  }
  // A third of the aux terms others: each streamed chunk's others accumulated with more windows
  // a pass (msm::cuda::accumulator_within_plan), still within the worst case's model.
  const split_case mixed = make_split_case(rows, n_aux, aux_fill::mixed, density_kind::full,
                                           density_kind::full, false, rng);
  auto hp = cuda::device_parameters::host_resident(params, 0, small.ring_bytes);
  ASSERT_TRUE(hp.ok()) << hp.error().to_string();
  ASSERT_TRUE((*hp)->set_memory_knobs(small).ok());
  prover_timings tm;
  auto pf =
      cuda::create_proof(**hp, mixed.view(), fr_t::random(rng), fr_t::random(rng), pool(), &tm);
  ASSERT_TRUE(pf.ok()) << pf.error().to_string();
  const uint64_t model = gpu_proof_bytes(q, gpu_residency::host, false, small).peak();
  std::printf("host, small knobs, a third others: measured %llu B, model %llu B\n",
              (unsigned long long)tm.device_peak_bytes, (unsigned long long)model);
  EXPECT_LE(tm.device_peak_bytes, model);
}

// Sections several staging chunks long (h and l 96 MiB, b_g2 192 MiB; a chunk is 64 MiB): the
// device decoder takes them in pieces, on the device path through the stager and on the host
// path through two scratch buffers, and both load the bases the host decoder loads (the same
// proof as uploading the decoded parameters); a corrupt point past the first chunk is named with
// its index in the whole section, the same text from every decoder and residency.
TEST(Groth16Gpu, LargeSectionsDecodedInPieces) {
  auto rng = test::test_rng::from_env("Groth16Gpu.LargeSectionsDecodedInPieces");
  const size_t rows = (size_t(1) << 20) - 3, n_aux = size_t(1) << 20;
  split_case sc = make_split_case(rows, n_aux, aux_fill::mixed, density_kind::full,
                                  density_kind::full, false, rng);
  const assignment asg = sc.view();
  const auto g1 = point_pool(ec::g1_generator(), 4099, rng);
  const auto g2 = point_pool(ec::g2_generator(), 4099, rng);
  const parameters params = parameters_for(asg, size_t(1) << 20, g1, g2, 1);
  auto bytes = params_to_bytes(params, pool());
  ASSERT_TRUE(bytes.ok()) << bytes.error().to_string();
  auto file = params_file::from_bytes(*bytes);
  ASSERT_TRUE(file.ok()) << file.error().to_string();
  const fr_t r = fr_t::random(rng), s = fr_t::random(rng);
  auto reference_dp = upload(params);
  ASSERT_TRUE(reference_dp);
  auto want = cuda::create_proof(*reference_dp, asg, r, s, pool());
  ASSERT_TRUE(want.ok()) << want.error().to_string();
  using cuda::params_decoder;
  const auto load = [&](const params_file& f, bool host, params_decoder d) {
    return host ? cuda::device_parameters::host_resident(f, point_checks::on_curve_only, 0, pool(),
                                                         {}, cuda::default_ring_bytes, d)
                : cuda::device_parameters::stream_from(f, point_checks::on_curve_only, 0, pool(),
                                                       {}, d);
  };
  for (bool host : {false, true}) {
    for (params_decoder d : {params_decoder::device, params_decoder::host}) {
      const std::string what =
          std::string(host ? "host residency" : "device residency") +
          (d == params_decoder::device ? ", device decoder" : ", host decoder");
      auto dp = load(*file, host, d);
      ASSERT_TRUE(dp.ok()) << what << ": " << dp.error().to_string();
      auto got = cuda::create_proof(**dp, asg, r, s, pool());
      ASSERT_TRUE(got.ok()) << what << ": " << got.error().to_string();
      EXPECT_EQ(encode_proof(*got), encode_proof(*want)) << what;
    }
  }
  std::vector<uint8_t> bad = *bytes;
  const section_info& h = file->section(params_section::h);
  const section_info& b2 = file->section(params_section::b_g2);
  bad[h.offset + 800000 * h.point_bytes + 95] ^= 1;     // h[800000]: in h's second chunk
  bad[b2.offset + 900000 * b2.point_bytes + 191] ^= 1;  // later in file order
  auto bad_file = params_file::from_bytes(bad);
  ASSERT_TRUE(bad_file.ok());
  std::string first_error;
  for (bool host : {false, true}) {
    for (params_decoder d : {params_decoder::device, params_decoder::host}) {
      auto dp = load(*bad_file, host, d);
      ASSERT_FALSE(dp.ok());
      const std::string e = dp.error().to_string();
      EXPECT_NE(e.find("h[800000]"), std::string::npos) << e;
      if (first_error.empty()) first_error = e;
      EXPECT_EQ(e, first_error);
    }
  }
}

}  // namespace
}  // namespace cuzk::groth16
