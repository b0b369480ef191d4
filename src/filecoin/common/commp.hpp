// SPDX-License-Identifier: Apache-2.0
// Piece commitment (commP) of a payload: Fr32-pad it, zero-pad to a power-of-two padded size
// (at least 128 bytes) and take the root of the binary SHA256-trunc254 tree over its 32-byte
// nodes (docs/spec/primitives.md §2–§5). Printed as hex and as a CIDv1 (codec
// fil-commitment-unsealed 0xf101, multihash sha2-256-trunc254-padded 0x1012, base32 "baga…"). Same
// sizes and values as @web3-storage/data-segment and go-fil-commp-hashhash.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/hash/merkle.hpp"

namespace cuzk::filecoin::common {

/// Root of an all-zero SHA256-trunc254 binary tree with 2^level leaves (level 0: the zero leaf).
/// A zero sector of 32·2^k bytes has comm_d = zero_comm(k) (docs/spec/porep.md §5). level ≤ 63.
const hash::bytes32_t& zero_comm(unsigned level);

/// Padded piece size of a payload: the smallest power of two P ≥ 128 with P/128·127 ≥ payload.
uint64_t commp_padded_size(uint64_t payload_bytes);

struct commp_t {
  hash::bytes32_t comm{};     ///< the root (LE repr of an Fr)
  uint64_t padded_size = 0;   ///< power of two ≥ 128
  uint64_t payload_size = 0;  ///< bytes hashed
};

/// Streaming commP: update() with the payload in any pieces, then finalize(). Full batches of
/// 2^14 leaves (127·2^12 payload bytes) are reduced to subtree roots over the pool; the tail is
/// pushed leaf by leaf; finalize() completes the tree with zero subtrees (zero_comm).
class commp_hasher {
 public:
  explicit commp_hasher(thread_pool& pool = thread_pool::default_pool());
  void update(std::span<const uint8_t> data);
  commp_t finalize();

 private:
  void flush_batches(size_t n);
  void push(unsigned level, const hash::bytes32_t& node);

  thread_pool& pool_;
  std::vector<uint8_t> buf_;  ///< pending payload bytes (< batch_bytes · batches_per_flush)
  std::vector<std::array<uint8_t, 32>> stack_;  ///< pending left node per level
  std::vector<bool> have_;                      ///< stack_[l] is set
  uint64_t total_ = 0;
};

/// commP of a byte string.
commp_t commp_of(std::span<const uint8_t> payload, thread_pool& pool = thread_pool::default_pool());
/// commP of a file, read in 16 MiB blocks (io_error when it cannot be read).
result<commp_t> commp_of_file(const std::string& path,
                              thread_pool& pool = thread_pool::default_pool());

/// The CIDv1 string of a commitment with the given codec and multihash codes, base32 lower with
/// multibase prefix 'b'. comm_d / commP: 0xf101 + 0x1012 ("baga6ea4sea…"); comm_r: 0xf102 +
/// 0xb401 ("bagboea4b5abc…").
std::string commitment_cid(const hash::bytes32_t& comm, uint64_t codec, uint64_t multihash);
inline std::string piece_cid(const hash::bytes32_t& comm) {
  return commitment_cid(comm, 0xf101, 0x1012);
}
inline std::string sealed_cid(const hash::bytes32_t& comm) {
  return commitment_cid(comm, 0xf102, 0xb401);
}

}  // namespace cuzk::filecoin::common
