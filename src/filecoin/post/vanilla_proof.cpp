// SPDX-License-Identifier: Apache-2.0
// FallbackPoStSectorProof bincode codec on porep::bincode (the MerkleProof layout is PoRep's).
#include "filecoin/post/vanilla_proof.hpp"

#include "base/base64.hpp"
#include "filecoin/porep/bincode.hpp"
#include "filecoin/porep/json_reader.hpp"

namespace cuzk::post {
namespace {

using porep::bincode::path_t;

// Smallest encodings, for the length checks: a MerkleProof is at least its variant, root, leaf
// and one path count; a SectorProof at least its count, comm_c and comm_r_last.
constexpr size_t MIN_MERKLE_PROOF_BYTES = 4 + 64 + 8;
constexpr size_t MIN_SECTOR_PROOF_BYTES = 8 + 64;

bool read_sector_proof(porep::bincode::reader& r, const path_t* p, sector_proof_t& s) {
  const path_t ip{p, "inclusion_proofs", -1};
  uint64_t n = 0;
  if (!r.length(&ip, n, MIN_MERKLE_PROOF_BYTES)) return false;
  s.inclusion_proofs.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    const path_t ep{&ip, {}, int64_t(i)};
    if (!porep::bincode::read_merkle_proof(r, &ep, s.inclusion_proofs[i])) return false;
  }
  const path_t cc{p, "comm_c", -1}, crl{p, "comm_r_last", -1};
  return r.bytes32(&cc, s.comm_c) && r.bytes32(&crl, s.comm_r_last);
}

}  // namespace

result<fallback_sector_proof_t> parse_fallback_sector_proof(std::span<const uint8_t> bytes) {
  porep::bincode::reader r(bytes);
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
  porep::bincode::writer w;
  size_t size = 8 + 32 + 8;
  for (const sector_proof_t& s : p.sectors) {
    size += 8 + 64;
    for (const merkle_proof_t& m : s.inclusion_proofs) size += porep::bincode::merkle_proof_size(m);
  }
  w.bytes().reserve(size);
  w.le(p.sector_id);
  w.bytes32(p.comm_r);
  w.le(uint64_t(p.sectors.size()));
  for (const sector_proof_t& s : p.sectors) {
    w.le(uint64_t(s.inclusion_proofs.size()));
    for (const merkle_proof_t& m : s.inclusion_proofs) porep::bincode::write_merkle_proof(w, m);
    w.bytes32(s.comm_c);
    w.bytes32(s.comm_r_last);
  }
  return std::move(w.bytes());
}

result<std::vector<std::vector<uint8_t>>> parse_vanilla_file(std::string_view json) {
  porep::json::reader r(json);
  std::vector<std::vector<uint8_t>> out;
  const path_t root{};
  const bool ok = r.array(&root, [&](size_t, const path_t* p) {
    std::string_view text;
    if (!r.read_string(p, text)) return false;
    auto bytes = base64_decode(text);
    if (!bytes) return r.fail(p, bytes.error().message(), false);
    out.push_back(std::move(*bytes));
    return true;
  });
  if (ok && !r.at_end()) r.fail(&root, "trailing characters after the array");
  if (r.failed()) return r.error();
  return out;
}

std::string vanilla_file_json(std::span<const std::vector<uint8_t>> elements) {
  std::string out(1, '[');
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i) out.push_back(',');
    out.push_back('"');
    out.append(base64_encode(elements[i]));
    out.push_back('"');
  }
  out.push_back(']');
  return out;
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

}  // namespace cuzk::post
