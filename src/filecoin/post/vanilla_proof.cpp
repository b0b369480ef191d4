// SPDX-License-Identifier: Apache-2.0
// FallbackPoStSectorProof bincode codec on common::bincode (the MerkleProof layout
// every proof kind shares).
#include "filecoin/post/vanilla_proof.hpp"

#include "filecoin/common/bincode.hpp"

namespace cuzk::filecoin::post {
namespace {

using common::bincode::path_t;

// Smallest encodings, for the length checks: a MerkleProof is at least its variant, root, leaf
// and one path count; a SectorProof at least its count, comm_c and comm_r_last.
constexpr size_t MIN_MERKLE_PROOF_BYTES = 4 + 64 + 8;
constexpr size_t MIN_SECTOR_PROOF_BYTES = 8 + 64;

bool read_sector_proof(common::bincode::reader& r, const path_t* p, sector_proof_t& s) {
  const path_t ip{p, "inclusion_proofs", -1};
  uint64_t n = 0;
  if (!r.length(&ip, n, MIN_MERKLE_PROOF_BYTES)) return false;
  s.inclusion_proofs.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    const path_t ep{&ip, {}, int64_t(i)};
    if (!common::bincode::read_merkle_proof(r, &ep, s.inclusion_proofs[i])) return false;
  }
  const path_t cc{p, "comm_c", -1}, crl{p, "comm_r_last", -1};
  return r.bytes32(&cc, s.comm_c) && r.bytes32(&crl, s.comm_r_last);
}

}  // namespace

result<fallback_sector_proof_t> parse_fallback_sector_proof(std::span<const uint8_t> bytes) {
  common::bincode::reader r(bytes);
  fallback_sector_proof_t out;
  const path_t root{};
  const path_t id{&root, "sector_id", -1}, cr{&root, "comm_r", -1};
  const path_t vp{&root, "vanilla_proof", -1};
  const path_t sp{&vp, "sectors", -1};
  uint64_t n = 0;
  bool ok = r.le(&id, out.sector_id) && r.bytes32(&cr, out.comm_r) &&
            r.length(&sp, n, MIN_SECTOR_PROOF_BYTES);
  if (ok) out.sectors.resize(n);
  for (uint64_t i = 0; ok && i < n; ++i) {
    const path_t ep{&sp, {}, int64_t(i)};
    ok = read_sector_proof(r, &ep, out.sectors[i]);
  }
  if (ok && r.left() != 0)
    r.fail(&root, std::to_string(r.left()) + " trailing bytes after the FallbackPoStSectorProof");
  if (!r.error().ok()) return r.error();
  return out;
}

std::vector<uint8_t> serialize_fallback_sector_proof(const fallback_sector_proof_t& p) {
  common::bincode::writer w;
  size_t size = 8 + 32 + 8;
  for (const sector_proof_t& s : p.sectors) {
    size += 8 + 64;
    for (const merkle_proof_t& m : s.inclusion_proofs)
      size += common::bincode::merkle_proof_size(m);
  }
  w.bytes().reserve(size);
  w.le(p.sector_id);
  w.bytes32(p.comm_r);
  w.le(uint64_t(p.sectors.size()));
  for (const sector_proof_t& s : p.sectors) {
    w.le(uint64_t(s.inclusion_proofs.size()));
    for (const merkle_proof_t& m : s.inclusion_proofs) common::bincode::write_merkle_proof(w, m);
    w.bytes32(s.comm_c);
    w.bytes32(s.comm_r_last);
  }
  return std::move(w.bytes());
}

result<std::vector<fallback_sector_proof_t>> parse_fallback_sector_proofs(
    std::span<const std::vector<uint8_t>> elements) {
  std::vector<fallback_sector_proof_t> out;
  out.reserve(elements.size());
  for (size_t i = 0; i < elements.size(); ++i) {
    auto p = parse_fallback_sector_proof(elements[i]);
    if (!p)
      return status(p.error().code(),
                    "vanilla_proofs[" + std::to_string(i) + "]: " + p.error().message());
    out.push_back(std::move(*p));
  }
  return out;
}

}  // namespace cuzk::filecoin::post
