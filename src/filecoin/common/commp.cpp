// SPDX-License-Identifier: Apache-2.0
// commP: streaming Fr32 padding into a binary SHA256-trunc254 tree with a stack of pending left
// nodes per level (one entry per set bit of the leaf count), zero subtrees on the right, CIDs.
#include "filecoin/common/commp.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>

#include "base/file_io.hpp"
#include "filecoin/common/fr32.hpp"
#include "filecoin/hash/sha256_trunc254.hpp"

namespace cuzk::filecoin::common {

using hash::bytes32_t;

namespace {

// A batch is 2^12 Fr32 chunks = 2^14 leaves (512 KiB padded): big enough that a pool task
// (~16k node hashes, ~4 ms with SHA-NI) dwarfs the hand-out, small enough to stay in L2.
constexpr unsigned BATCH_LEVEL = 14;
constexpr size_t BATCH_CHUNKS = size_t(1) << (BATCH_LEVEL - 2);
constexpr size_t BATCH_BYTES = BATCH_CHUNKS * FR32_UNPADDED_CHUNK;

struct zero_table {
  std::array<bytes32_t, 64> v{};
  zero_table() {
    for (unsigned l = 1; l < 64; ++l)
      v[l] = hash::sha256_trunc254_node(v[l - 1].data(), v[l - 1].data());
  }
};

// The root of one batch: pad into leaves, then halve in place (node i overwrites slot i, which
// no later parent of the same level reads since 2j ≥ i for j ≥ i).
bytes32_t batch_root(const uint8_t* payload) {
  std::vector<bytes32_t> nodes(size_t(1) << BATCH_LEVEL);
  fr32_pad({payload, BATCH_BYTES}, {nodes.front().data(), nodes.size() * 32});
  for (size_t n = nodes.size() / 2; n >= 1; n /= 2)
    for (size_t i = 0; i < n; ++i)
      nodes[i] = hash::sha256_trunc254_node(nodes[2 * i].data(), nodes[2 * i + 1].data());
  return nodes[0];
}

}  // namespace

const bytes32_t& zero_comm(unsigned level) {
  static const zero_table t;
  return t.v[level];
}

uint64_t commp_padded_size(uint64_t payload_bytes) {
  uint64_t p = FR32_PADDED_CHUNK;
  while (fr32_unpadded_size(p) < payload_bytes) p <<= 1;
  return p;
}

commp_hasher::commp_hasher(thread_pool& pool) : pool_(pool) {}

void commp_hasher::push(unsigned level, const bytes32_t& node) {
  bytes32_t cur = node;
  for (unsigned l = level;; ++l) {
    if (stack_.size() <= l) {
      stack_.resize(l + 1);
      have_.resize(l + 1, false);
    }
    if (!have_[l]) {
      stack_[l] = cur;
      have_[l] = true;
      return;
    }
    cur = hash::sha256_trunc254_node(stack_[l].data(), cur.data());
    have_[l] = false;
  }
}

void commp_hasher::flush_batches(size_t n) {
  std::vector<bytes32_t> roots(n);
  pool_.parallel_for(n, [&](size_t b) { roots[b] = batch_root(buf_.data() + b * BATCH_BYTES); });
  for (const auto& r : roots) push(BATCH_LEVEL, r);
  buf_.erase(buf_.begin(), buf_.begin() + ptrdiff_t(n * BATCH_BYTES));
}

void commp_hasher::update(std::span<const uint8_t> data) {
  total_ += data.size();
  const size_t per_flush = size_t(2) * pool_.size();
  while (!data.empty()) {
    const size_t cap = per_flush * BATCH_BYTES;
    const size_t take = std::min(data.size(), cap - buf_.size());
    buf_.insert(buf_.end(), data.begin(), data.begin() + ptrdiff_t(take));
    data = data.subspan(take);
    if (buf_.size() == cap) flush_batches(per_flush);
  }
}

commp_t commp_hasher::finalize() {
  // Whole batches first (keeps the stack aligned: a batch root sits at a level-14 boundary),
  // then the tail leaf by leaf, zero-extended to a whole Fr32 chunk.
  if (const size_t n = buf_.size() / BATCH_BYTES; n) flush_batches(n);
  if (!buf_.empty()) {
    std::vector<uint8_t> padded(fr32_padded_size(buf_.size()));
    fr32_pad(buf_, padded);
    for (size_t i = 0; i < padded.size(); i += 32) {
      bytes32_t leaf;
      std::memcpy(leaf.data(), padded.data() + i, 32);
      push(0, leaf);
    }
    buf_.clear();
  }
  commp_t out;
  out.payload_size = total_;
  out.padded_size = commp_padded_size(total_);
  const unsigned target = unsigned(std::countr_zero(out.padded_size / 32));
  // Fold the pending left nodes (bits of the leaf count) with zero subtrees on the right.
  bool have_cur = false;
  bytes32_t cur{};
  for (unsigned l = 0; l < target; ++l) {
    const bool pending = l < have_.size() && have_[l];
    if (pending && have_cur) {
      cur = hash::sha256_trunc254_node(stack_[l].data(), cur.data());
    } else if (pending) {
      cur = hash::sha256_trunc254_node(stack_[l].data(), zero_comm(l).data());
      have_cur = true;
    } else if (have_cur) {
      cur = hash::sha256_trunc254_node(cur.data(), zero_comm(l).data());
    }
  }
  if (target < have_.size() && have_[target])
    out.comm = stack_[target];  // exactly 2^target leaves
  else
    out.comm = have_cur ? cur : zero_comm(target);
  stack_.clear();
  have_.clear();
  total_ = 0;
  return out;
}

commp_t commp_of(std::span<const uint8_t> payload, thread_pool& pool) {
  commp_hasher h(pool);
  h.update(payload);
  return h.finalize();
}

result<commp_t> commp_of_file(const std::string& path, thread_pool& pool) {
  // Streamed with no size limit (pieces are GBs), so only regular files: /dev/zero never ends.
  if (status s = require_regular_file(path); !s) return s;
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) return {status_code::io_error, "cannot open " + path};
  commp_hasher h(pool);
  std::vector<uint8_t> block(size_t(16) << 20);
  for (;;) {
    const size_t n = std::fread(block.data(), 1, block.size(), f.get());
    h.update({block.data(), n});
    if (n < block.size()) {
      if (std::ferror(f.get())) return {status_code::io_error, "read error on " + path};
      break;
    }
  }
  return h.finalize();
}

namespace {

void put_varint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(uint8_t(v | 0x80));
    v >>= 7;
  }
  out.push_back(uint8_t(v));
}

}  // namespace

std::string commitment_cid(const bytes32_t& comm, uint64_t codec, uint64_t multihash) {
  // CIDv1 = varint(1) ‖ varint(codec) ‖ varint(multihash code) ‖ varint(32) ‖ digest.
  std::vector<uint8_t> bin;
  put_varint(bin, 1);
  put_varint(bin, codec);
  put_varint(bin, multihash);
  put_varint(bin, 32);
  bin.insert(bin.end(), comm.begin(), comm.end());
  // RFC 4648 base32, lower case, no padding; multibase prefix 'b'.
  static constexpr char ALPHABET[] = "abcdefghijklmnopqrstuvwxyz234567";
  std::string s = "b";
  uint32_t acc = 0;
  int bits = 0;
  for (uint8_t b : bin) {
    acc = acc << 8 | b;
    bits += 8;
    while (bits >= 5) {
      s += ALPHABET[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) s += ALPHABET[(acc << (5 - bits)) & 31];
  return s;
}

}  // namespace cuzk::filecoin::common
