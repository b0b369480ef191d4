// SPDX-License-Identifier: Apache-2.0
// bincode v1 reader/writer and the MerkleProof codec (see bincode.hpp).
#include "filecoin/common/bincode.hpp"

#include <cstring>
#include <string_view>

namespace cuzk::filecoin::common::bincode {
namespace {

// One of the base/sub/top paths of a MerkleProof: u64 count of PathElement.
bool read_path_part(reader& r, const path_t* p, merkle_proof_t& m, unsigned part) {
  const path_t pp{p, "path", -1};
  uint64_t n = 0;
  if (!r.length(&pp, n, 16)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    const path_t ep{&pp, {}, int64_t(i)};
    const path_t hp{&ep, "hashes", -1};
    uint64_t nh = 0;
    if (!r.length(&hp, nh, 32)) return false;
    if (nh > UINT32_MAX) return r.fail(&hp, "too many hashes");
    for (uint64_t h = 0; h < nh; ++h) {
      const path_t xp{&hp, {}, int64_t(h)};
      m.hashes.emplace_back();
      if (!r.bytes32(&xp, m.hashes.back())) return false;
    }
    const path_t ip{&ep, "index", -1};
    uint64_t idx = 0;
    if (!r.le(&ip, idx)) return false;
    if (idx > UINT32_MAX) return r.fail(&ip, "index " + std::to_string(idx) + " out of range");
    m.path.push_back({uint32_t(nh), uint32_t(idx)});
    (part == 0 ? m.base_len : part == 1 ? m.sub_len : m.top_len)++;
  }
  return true;
}

void write_path_part(writer& w, const merkle_proof_t& m, size_t first, size_t count,
                     size_t& hash_off) {
  w.le(uint64_t(count));
  for (size_t l = first; l < first + count; ++l) {
    const path_element_t& e = m.path[l];
    w.le(uint64_t(e.num_hashes));
    for (uint32_t h = 0; h < e.num_hashes; ++h) w.bytes32(m.hashes[hash_off++]);
    w.le(uint64_t(e.index));
  }
}

}  // namespace

bool reader::fail(const path_t* p, const std::string& what) {
  if (err_.ok())
    err_ = status(status_code::bad_encoding,
                  json::format_path(p) + ": " + what + " (byte " + std::to_string(off_) + ")");
  return false;
}

bool reader::need(const path_t* p, size_t n) {
  if (left() >= n) return true;
  return fail(
      p, "truncated: need " + std::to_string(n) + " bytes, " + std::to_string(left()) + " left");
}

bool reader::bytes32(const path_t* p, domain_t& out) {
  if (!need(p, 32)) return false;
  std::memcpy(out.data(), b_.data() + off_, 32);
  off_ += 32;
  return true;
}

bool reader::length(const path_t* p, uint64_t& n, size_t min_elem) {
  if (!le(p, n)) return false;
  if (min_elem && n > left() / min_elem) {
    off_ -= 8;
    return fail(p, "length " + std::to_string(n) + " exceeds the remaining input");
  }
  return true;
}

bool read_merkle_proof(reader& r, const path_t* p, merkle_proof_t& m) {
  const path_t dp{p, "data", -1};
  uint32_t variant = 0;
  if (!r.le(&dp, variant)) return false;
  if (variant > 2)
    return r.fail(&dp, "unknown variant " + std::to_string(variant) +
                           ", expected 0 (Single), 1 (Sub) or 2 (Top)");
  m.kind = merkle_proof_kind(variant);
  static constexpr std::string_view NAMES[] = {"Single", "Sub", "Top"};
  const path_t vp{&dp, NAMES[variant], -1};
  const path_t root{&vp, "root", -1}, leaf{&vp, "leaf", -1};
  if (variant == 0) {
    const path_t ip{&vp, "path", -1};
    return r.bytes32(&root, m.root) && r.bytes32(&leaf, m.leaf) && read_path_part(r, &ip, m, 0);
  }
  const path_t bp{&vp, "base_proof", -1}, sp{&vp, "sub_proof", -1}, tp{&vp, "top_proof", -1};
  if (!read_path_part(r, &bp, m, 0) || !read_path_part(r, &sp, m, 1)) return false;
  if (variant == 2 && !read_path_part(r, &tp, m, 2)) return false;
  return r.bytes32(&root, m.root) && r.bytes32(&leaf, m.leaf);
}

void write_merkle_proof(writer& w, const merkle_proof_t& m) {
  w.le(uint32_t(m.kind));
  size_t hash_off = 0;
  if (m.kind == merkle_proof_kind::single) {
    w.bytes32(m.root);
    w.bytes32(m.leaf);
    write_path_part(w, m, 0, m.base_len, hash_off);
    return;
  }
  write_path_part(w, m, 0, m.base_len, hash_off);
  write_path_part(w, m, m.base_len, m.sub_len, hash_off);
  if (m.kind == merkle_proof_kind::top)
    write_path_part(w, m, size_t(m.base_len) + m.sub_len, m.top_len, hash_off);
  w.bytes32(m.root);
  w.bytes32(m.leaf);
}

size_t merkle_proof_size(const merkle_proof_t& m) {
  const size_t parts = m.kind == merkle_proof_kind::single ? 1
                       : m.kind == merkle_proof_kind::sub  ? 2
                                                           : 3;
  return 4 + 64 + 8 * parts + 16 * m.path.size() + 32 * m.hashes.size();
}

}  // namespace cuzk::filecoin::common::bincode
