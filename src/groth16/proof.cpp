// SPDX-License-Identifier: Apache-2.0
// Proof (de)serialization on top of ec/serialization (compressed ZCash points, subgroup-checked).
#include "groth16/proof.hpp"

#include <string>

#include "ec/serialization.hpp"

namespace cuzk::groth16 {

namespace {
constexpr size_t OFF_B = ec::G1_COMPRESSED_BYTES;
constexpr size_t OFF_C = OFF_B + ec::G2_COMPRESSED_BYTES;
static_assert(OFF_C + ec::G1_COMPRESSED_BYTES == PROOF_BYTES);

status with_context(const status& s, const std::string& where) {
  return {s.code(), where + ": " + s.message()};
}
}  // namespace

void encode_proof(const proof& pf, std::span<uint8_t, PROOF_BYTES> out) {
  ec::g1_to_compressed(pf.a, out.subspan<0, ec::G1_COMPRESSED_BYTES>());
  ec::g2_to_compressed(pf.b, out.subspan<OFF_B, ec::G2_COMPRESSED_BYTES>());
  ec::g1_to_compressed(pf.c, out.subspan<OFF_C, ec::G1_COMPRESSED_BYTES>());
}

std::array<uint8_t, PROOF_BYTES> encode_proof(const proof& pf) {
  std::array<uint8_t, PROOF_BYTES> out{};
  encode_proof(pf, out);
  return out;
}

result<proof> decode_proof(std::span<const uint8_t> in) {
  if (in.size() != PROOF_BYTES)
    return status(status_code::bad_length,
                  "proof has " + std::to_string(in.size()) + " bytes, expected 192");
  auto a = ec::g1_from_compressed(in.subspan(0, ec::G1_COMPRESSED_BYTES));
  if (!a) return with_context(a.error(), "proof A");
  auto b = ec::g2_from_compressed(in.subspan(OFF_B, ec::G2_COMPRESSED_BYTES));
  if (!b) return with_context(b.error(), "proof B");
  auto c = ec::g1_from_compressed(in.subspan(OFF_C, ec::G1_COMPRESSED_BYTES));
  if (!c) return with_context(c.error(), "proof C");
  if (a->is_infinity()) return status(status_code::is_infinity, "proof A is the identity");
  if (b->is_infinity()) return status(status_code::is_infinity, "proof B is the identity");
  if (c->is_infinity()) return status(status_code::is_infinity, "proof C is the identity");
  return proof{*a, *b, *c};
}

std::vector<uint8_t> encode_proofs(std::span<const proof> proofs) {
  std::vector<uint8_t> out(proofs.size() * PROOF_BYTES);
  for (size_t k = 0; k < proofs.size(); ++k)
    encode_proof(proofs[k],
                 std::span<uint8_t, PROOF_BYTES>(out.data() + k * PROOF_BYTES, PROOF_BYTES));
  return out;
}

result<std::vector<proof>> decode_proofs(std::span<const uint8_t> in) {
  if (in.empty() || in.size() % PROOF_BYTES != 0)
    return status(status_code::bad_length,
                  std::to_string(in.size()) + " bytes is not a nonzero multiple of 192");
  std::vector<proof> out;
  out.reserve(in.size() / PROOF_BYTES);
  for (size_t k = 0; k < in.size() / PROOF_BYTES; ++k) {
    auto p = decode_proof(in.subspan(k * PROOF_BYTES, PROOF_BYTES));
    if (!p) return with_context(p.error(), "partition " + std::to_string(k));
    out.push_back(*p);
  }
  return out;
}

}  // namespace cuzk::groth16
