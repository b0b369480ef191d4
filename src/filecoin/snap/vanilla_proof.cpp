// SPDX-License-Identifier: Apache-2.0
// PartitionProof bincode codec on common::bincode (the MerkleProof layout every proof
// kind shares).
#include "filecoin/snap/vanilla_proof.hpp"

#include "filecoin/common/bincode.hpp"

namespace cuzk::filecoin::snap {
namespace {

using common::bincode::path_t;

// Smallest encodings, for the length checks: a MerkleProof is at least its variant, root, leaf
// and one path count; a ChallengeProof three of them.
constexpr size_t MIN_MERKLE_PROOF_BYTES = 4 + 64 + 8;
constexpr size_t MIN_CHALLENGE_PROOF_BYTES = 3 * MIN_MERKLE_PROOF_BYTES;

// Bytes of a MerkleProof with `levels` path elements of `arity` (Single) or of a tree shape.
size_t merkle_bytes(const hash::tree_shape& t) {
  size_t n = 4 + 64;
  const unsigned parts = 1 + (t.sub_arity ? 1 : 0) + (t.top_arity ? 1 : 0);
  n += 8 * parts;
  for (unsigned l = 0; l < t.height(); ++l) n += 8 + 32 * size_t(t.arity_at(l) - 1) + 8;
  return n;
}

}  // namespace

result<partition_proof_t> parse_partition_proof(std::span<const uint8_t> bytes) {
  common::bincode::reader r(bytes);
  partition_proof_t out;
  const path_t root{};
  const path_t cc{&root, "comm_c", -1}, al{&root, "apex_leafs", -1};
  const path_t cp{&root, "challenge_proofs", -1};
  uint64_t n = 0;
  bool ok = r.bytes32(&cc, out.comm_c) && r.length(&al, n, 32);
  if (ok) out.apex_leafs.resize(n);
  for (uint64_t i = 0; ok && i < n; ++i) {
    const path_t ep{&al, {}, int64_t(i)};
    ok = r.bytes32(&ep, out.apex_leafs[i]);
  }
  ok = ok && r.length(&cp, n, MIN_CHALLENGE_PROOF_BYTES);
  if (ok) out.challenge_proofs.resize(n);
  for (uint64_t i = 0; ok && i < n; ++i) {
    const path_t ep{&cp, {}, int64_t(i)};
    const path_t ro{&ep, "proof_r_old", -1}, dn{&ep, "proof_d_new", -1}, rn{&ep, "proof_r_new", -1};
    challenge_proof_t& c = out.challenge_proofs[i];
    ok = common::bincode::read_merkle_proof(r, &ro, c.proof_r_old) &&
         common::bincode::read_merkle_proof(r, &dn, c.proof_d_new) &&
         common::bincode::read_merkle_proof(r, &rn, c.proof_r_new);
  }
  if (ok && r.left() != 0)
    r.fail(&root, std::to_string(r.left()) + " trailing bytes after the PartitionProof");
  if (!r.error().ok()) return r.error();
  return out;
}

std::vector<uint8_t> serialize_partition_proof(const partition_proof_t& p) {
  common::bincode::writer w;
  size_t size = 32 + 8 + 32 * p.apex_leafs.size() + 8;
  for (const challenge_proof_t& c : p.challenge_proofs)
    size += common::bincode::merkle_proof_size(c.proof_r_old) +
            common::bincode::merkle_proof_size(c.proof_d_new) +
            common::bincode::merkle_proof_size(c.proof_r_new);
  w.bytes().reserve(size);
  w.bytes32(p.comm_c);
  w.le(uint64_t(p.apex_leafs.size()));
  for (const domain_t& leaf : p.apex_leafs) w.bytes32(leaf);
  w.le(uint64_t(p.challenge_proofs.size()));
  for (const challenge_proof_t& c : p.challenge_proofs) {
    common::bincode::write_merkle_proof(w, c.proof_r_old);
    common::bincode::write_merkle_proof(w, c.proof_d_new);
    common::bincode::write_merkle_proof(w, c.proof_r_new);
  }
  return std::move(w.bytes());
}

result<std::vector<partition_proof_t>> parse_partition_proofs(
    std::span<const std::vector<uint8_t>> elements) {
  std::vector<partition_proof_t> out;
  out.reserve(elements.size());
  for (size_t k = 0; k < elements.size(); ++k) {
    auto p = parse_partition_proof(elements[k]);
    if (!p)
      return status(p.error().code(),
                    "vanilla_proofs[" + std::to_string(k) + "]: " + p.error().message());
    out.push_back(std::move(*p));
  }
  return out;
}

size_t partition_proof_bytes(const update_config_t& c) {
  const size_t per_challenge = 2 * merkle_bytes(c.tree_r) + merkle_bytes(c.tree_d);
  return 32 + 8 + 32 * size_t(c.apex_leaves) + 8 + c.challenges * per_challenge;
}

}  // namespace cuzk::filecoin::snap
