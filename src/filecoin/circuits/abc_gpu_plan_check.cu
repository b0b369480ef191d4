// SPDX-License-Identifier: Apache-2.0
// Links the device a, b, c evaluator (groth16/abc_gpu.hpp) into the circuit plan tests as their
// second evaluator (r1cs/abc_plan_test_util.hpp): the gpu-labelled registration of
// abc_plan_circuit_test then checks, for every circuit it compiles (PoRep blocks with their own
// inputs, PoSt sector slots, SnapDeals' shared-reference table), that the GPU's a, b, c equal the
// CPU's and proving_cs's.
#include <gtest/gtest.h>

#include <vector>

#include "gpu/device_memory.cuh"
#include "groth16/abc_gpu.hpp"
#include "r1cs/abc_plan_test_util.hpp"

namespace {

using cuzk::ff::fr_t;

void evaluate_on_gpu(const cuzk::r1cs::abc_plan& plan, std::span<const fr_t> inputs,
                     std::span<const fr_t> aux, std::vector<fr_t>& a, std::vector<fr_t>& b,
                     std::vector<fr_t>& c) {
  auto ctx = cuzk::gpu::device_context::open(0);
  ASSERT_TRUE(ctx.ok()) << ctx.error().to_string();
  auto prog = cuzk::groth16::cuda::device_abc_program::upload(plan, *ctx);
  ASSERT_TRUE(prog.ok()) << prog.error().to_string();
  std::printf("device plan: %zu bytes\n", (*prog)->device_bytes());
  const cuzk::gpu::device_scope scope(*ctx);
  const cuzk::gpu::stream strm(*ctx);
  const size_t n = plan.num_rows();
  cuzk::gpu::device_buffer<fr_t> d_in(inputs.size()), d_aux(aux.size()), da(n), db(n), dc(n);
  d_in.upload(inputs.data(), inputs.size(), strm);
  d_aux.upload(aux.data(), aux.size(), strm);
  (*prog)->evaluate(d_in.data(), d_aux.data(), da.data(), db.data(), dc.data(), strm);
  a.resize(n);
  b.resize(n);
  c.resize(n);
  da.download(a.data(), n, strm);
  db.download(b.data(), n, strm);
  dc.download(c.data(), n, strm);
}

[[maybe_unused]] const bool registered = [] {
  cuzk::r1cs::second_plan_evaluator() = evaluate_on_gpu;
  return true;
}();

}  // namespace
