// SPDX-License-Identifier: Apache-2.0
// bincode 1.x legacy encoding as filecoin-proofs uses it (docs/spec/c1.md §2): little-endian
// integers, u64 Vec lengths, u32 enum variant ids, [u8; 32] as 32 raw bytes. A bounds-checked
// reader whose Vec lengths are checked against the bytes left (times the element's minimum size)
// before anything is allocated, errors naming the field path and byte offset; and the
// MerkleProof codec shared by the C1 reader (c1_bincode) and the PoSt vanilla proofs
// (filecoin/post).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/json_reader.hpp"
#include "cuzk/status.hpp"
#include "filecoin/common/merkle_proof.hpp"

namespace cuzk::filecoin::common::bincode {

using json::path_t;

/// Reads values front to back; the first failure is kept (later reads fail without changing it).
class reader {
 public:
  explicit reader(std::span<const uint8_t> b) : b_(b) {}

  const status& error() const { return err_; }
  size_t left() const { return b_.size() - off_; }
  size_t offset() const { return off_; }

  /// Records "<path>: <what> (byte N)" as bad_encoding; returns false.
  bool fail(const path_t* p, const std::string& what);
  /// True when n more bytes are there, else a "truncated" failure.
  bool need(const path_t* p, size_t n);
  template <class T>
  bool le(const path_t* p, T& out) {
    if (!need(p, sizeof(T))) return false;
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= T(b_[off_ + i]) << (8 * i);
    off_ += sizeof(T);
    out = v;
    return true;
  }
  bool bytes32(const path_t* p, domain_t& out);
  /// A Vec length whose elements take at least `min_elem` bytes each (0: no check).
  bool length(const path_t* p, uint64_t& n, size_t min_elem);

 private:
  std::span<const uint8_t> b_;
  size_t off_ = 0;
  status err_;
};

/// Appends values in the same encoding.
class writer {
 public:
  template <class T>
  void le(T v) {
    for (size_t i = 0; i < sizeof(T); ++i) out_.push_back(uint8_t(uint64_t(v) >> (8 * i)));
  }
  void bytes32(const domain_t& v) { out_.insert(out_.end(), v.begin(), v.end()); }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

/// MerkleProof: u32 variant (0 Single {root, leaf, path}, 1 Sub {base_proof, sub_proof, root,
/// leaf}, 2 Top {base_proof, sub_proof, top_proof, root, leaf}); each path a u64 count of
/// {Vec<[u8;32]> hashes, u64 index}. `p` names the proof in error messages.
bool read_merkle_proof(reader& r, const path_t* p, merkle_proof_t& m);
/// The same layout; m must be well_formed().
void write_merkle_proof(writer& w, const merkle_proof_t& m);
/// Encoded size of m.
size_t merkle_proof_size(const merkle_proof_t& m);

}  // namespace cuzk::filecoin::common::bincode
