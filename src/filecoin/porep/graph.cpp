// SPDX-License-Identifier: Apache-2.0
// SDR parent graph (docs/spec/porep.md §3; storage-proofs-core drgraph.rs, crypto/feistel.rs,
// storage-proofs-porep stacked/vanilla/graph.rs). Cost per node: 2 ChaCha8 blocks for the DRG,
// 8 Feistel permutations of 3 single-block Blake2b-512 compressions each, times the cycle-walking
// factor 4^k / (8·nodes) ∈ [1, 4) (2 for 32 GiB, 1 for 64 GiB).
#include "filecoin/porep/graph.hpp"

#include <bit>
#include <cmath>
#include <cstring>

#include "base/hex.hpp"
#include "hash/blake2b.hpp"
#include "hash/chacha.hpp"
#include "hash/sha256.hpp"

namespace cuzk::filecoin::porep {
namespace {

template <size_t N>
cuzk::hash::sha256_digest_t sha256_tagged(const char (&tag)[N], const porep_id_t& porep_id) {
  cuzk::hash::sha256_t h;
  h.update(tag, N - 1);  // without the terminating NUL
  h.update(porep_id.data(), porep_id.size());
  return h.finalize();
}

constexpr uint64_t bswap64(uint64_t x) {
  return __builtin_bswap64(x);
}

}  // namespace

drg_seed_t derive_drg_seed(const porep_id_t& porep_id) {
  const auto d = sha256_tagged("Filecoin_DRSample", porep_id);
  drg_seed_t seed;
  std::memcpy(seed.data(), d.data(), seed.size());
  return seed;
}

feistel_keys_t derive_feistel_keys(const porep_id_t& porep_id) {
  const auto d = sha256_tagged("Filecoin_Feistel", porep_id);
  feistel_keys_t keys;
  for (size_t i = 0; i < 4; ++i) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; --b) k = (k << 8) | d[8 * i + size_t(b)];
    keys[i] = k;
  }
  return keys;
}

// ---- Feistel ---------------------------------------------------------------------------------

feistel_t::feistel_t(uint64_t n, const feistel_keys_t& keys) : n_(n), keys_(keys) {
  // Smallest k ≥ 1 with 4^k ≥ n: the network permutes 2k-bit values.
  unsigned k = 1;
  while ((uint64_t(1) << (2 * k)) < n) ++k;
  half_bits_ = k;
  right_mask_ = (uint64_t(1) << k) - 1;
  left_mask_ = right_mask_ << k;
}

uint64_t feistel_t::round_fn(uint64_t r, uint64_t key) const {
  // Blake2b-512 of the 16 bytes R (u64 BE) ‖ key (u64 BE): one final block with t = 16. The
  // message words are LE loads of those bytes, i.e. byte-swapped values; the first 8 digest bytes
  // read big-endian are bswap(h[0]).
  // compress_inline is unrolled, so the 14 zero message words fold away (about 1.5x faster).
  const uint64_t m[16] = {bswap64(r), bswap64(key)};
  uint64_t h[8];
  for (int i = 0; i < 8; ++i) h[i] = cuzk::hash::blake2b_detail::IV[i];
  h[0] ^= 0x01010000u ^ 64u;  // digest length 64, no key, fanout 1, depth 1
  cuzk::hash::blake2b_detail::compress_inline(h, m, 16, true);
  return bswap64(h[0]) & right_mask_;
}

uint64_t feistel_t::encode(uint64_t x) const {
  uint64_t left = (x & left_mask_) >> half_bits_;
  uint64_t right = x & right_mask_;
  for (int i = 0; i < 3; ++i) {
    const uint64_t next_right = left ^ round_fn(right, keys_[size_t(i)]);
    left = right;
    right = next_right;
  }
  return (left << half_bits_) | right;
}

uint64_t feistel_t::permute(uint64_t x) const {
  uint64_t y = encode(x);
  while (y >= n_) y = encode(y);  // cycle walking: terminates since encode is a bijection
  return y;
}

// ---- graph -----------------------------------------------------------------------------------

sdr_graph::sdr_graph(uint64_t nodes, const porep_id_t& porep_id, graph_version version)
    : nodes_(nodes),
      version_(version),
      porep_id_(porep_id),
      drg_seed_(derive_drg_seed(porep_id)),
      feistel_keys_(derive_feistel_keys(porep_id)),
      feistel_(nodes * EXP_DEGREE, feistel_keys_) {}

void sdr_graph::drg_parents(uint64_t v, uint32_t out[DRG_DEGREE]) const {
  if (v < 2) {
    for (unsigned i = 0; i < DRG_DEGREE; ++i) out[i] = 0;
    return;
  }
  constexpr uint64_t M_PRIME = DRG_DEGREE - 1;  // 5 random parents
  std::array<uint8_t, 32> seed;
  std::memcpy(seed.data(), drg_seed_.data(), drg_seed_.size());
  const uint32_t v32 = uint32_t(v);
  for (int i = 0; i < 4; ++i) seed[28 + size_t(i)] = uint8_t(v32 >> (8 * i));
  cuzk::hash::chacha_rng rng = cuzk::hash::chacha8_rng(seed);

  const uint64_t meta = v * M_PRIME;
  // ceil(log2) in f64, as upstream computes it (exact for these magnitudes).
  const uint64_t n_buckets = uint64_t(std::ceil(std::log2(double(meta))));
  uint32_t* random_slots = version_ == graph_version::v1_0 ? out : out + 1;
  for (uint64_t i = 0; i < M_PRIME; ++i) {
    const uint64_t bucket = rng.next_u64() % n_buckets + 1;
    const uint64_t largest = std::min(meta, uint64_t(1) << bucket);
    const uint64_t smallest = std::max<uint64_t>(2, largest >> 1);
    const uint64_t distance = smallest + rng.next_u64() % (largest - smallest + 1);
    const uint64_t parent = (meta - distance) / M_PRIME;
    random_slots[i] = uint32_t(parent == v ? v - 1 : parent);
  }
  out[version_ == graph_version::v1_0 ? M_PRIME : 0] = uint32_t(v - 1);
}

void sdr_graph::exp_parents(uint64_t v, uint32_t out[EXP_DEGREE]) const {
  for (uint64_t i = 0; i < EXP_DEGREE; ++i) {
    const uint64_t t = feistel_.permute(v * EXP_DEGREE + i);
    // V1_0 truncates to u32 before dividing (only differs when nodes·8 > 2^32).
    out[i] = version_ == graph_version::v1_0 ? uint32_t(t) / EXP_DEGREE : uint32_t(t / EXP_DEGREE);
  }
}

std::string sdr_graph::identifier() const {
  return "stacked_graph::StackedGraph{expansion_degree: " + std::to_string(EXP_DEGREE) +
         " base_graph: drgraph::BucketGraph{size: " + std::to_string(nodes_) +
         "; degree: " + std::to_string(DRG_DEGREE) + "; hasher: poseidon_hasher} }";
}

std::string sdr_graph::parent_cache_id() const {
  cuzk::hash::sha256_t h;
  const std::string name = "poseidon_hasher";
  h.update(name.data(), name.size());
  const std::string id = identifier();
  h.update(id.data(), id.size());
  for (uint64_t k : feistel_keys_) {
    uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = uint8_t(k >> (8 * i));
    h.update(b, 8);
  }
  const uint32_t n = uint32_t(nodes_);
  const uint8_t nb[4] = {uint8_t(n), uint8_t(n >> 8), uint8_t(n >> 16), uint8_t(n >> 24)};
  h.update(nb, 4);
  const auto d = h.finalize();
  return "v28-sdr-parent-" + to_hex(d);
}

}  // namespace cuzk::filecoin::porep
