// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the snarkjs JSON readers (verification_key.json, proof.json, public.json):
// any text comes back as a status or a value, and what is accepted survives export and import
// unchanged (the export is not byte-identical to arbitrary input: snarkjs JSON has free spacing,
// key order and number forms). docs/fuzzing.md.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "groth16/snarkjs_json.hpp"

namespace {

using namespace cuzk::groth16;

bool same_proof(const proof& x, const proof& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c;
}

bool same_vk(const verifying_key& x, const verifying_key& y) {
  return x.alpha_g1 == y.alpha_g1 && x.beta_g2 == y.beta_g2 && x.gamma_g2 == y.gamma_g2 &&
         x.delta_g2 == y.delta_g2 && x.ic == y.ic;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto vk = vk_from_snarkjs_json(text)) {
    auto again = vk_from_snarkjs_json(vk_to_snarkjs_json(*vk));
    if (!again || !same_vk(*vk, *again)) __builtin_trap();
  }
  if (auto pf = proof_from_snarkjs_json(text)) {
    auto again = proof_from_snarkjs_json(proof_to_snarkjs_json(*pf));
    if (!again || !same_proof(*pf, *again)) __builtin_trap();
  }
  if (auto pub = public_from_snarkjs_json(text)) {
    auto again = public_from_snarkjs_json(public_to_snarkjs_json(*pub));
    if (!again || !std::equal(again->begin(), again->end(), pub->begin(), pub->end())) {
      __builtin_trap();
    }
  }
  // The number parsers on their own (every decimal field goes through them).
  if (auto x = fp_from_decimal(text)) {
    auto again = fp_from_decimal(to_decimal(*x));
    if (!again || !(*again == *x)) __builtin_trap();
  }
  if (auto x = fr_from_decimal(text)) {
    auto again = fr_from_decimal(to_decimal(*x));
    if (!again || !(*again == *x)) __builtin_trap();
  }
  return 0;
}
