// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the Groth16 proof decoders (one 192-byte proof, N concatenated): any byte
// string comes back as a status or proofs, and accepted proofs re-encode to the same bytes.
// docs/fuzzing.md.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "groth16/proof.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::groth16;
  const std::span<const uint8_t> in(data, size);
  if (auto one = decode_proof(in)) {
    const auto again = encode_proof(*one);
    if (size != PROOF_BYTES || !std::equal(again.begin(), again.end(), in.begin())) {
      __builtin_trap();
    }
  }
  if (auto many = decode_proofs(in)) {
    const auto again = encode_proofs(*many);
    if (again.size() != size || !std::equal(again.begin(), again.end(), in.begin())) {
      __builtin_trap();
    }
  }
  return 0;
}
