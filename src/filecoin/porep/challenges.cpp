// SPDX-License-Identifier: Apache-2.0
// Challenge derivation: SHA-256 (interactive, NI) and ChaCha20 keyed by Blake2b-256 (synthetic).
#include "filecoin/porep/challenges.hpp"

#include <cstring>
#include <string_view>

#include "hash/blake2b.hpp"
#include "hash/chacha.hpp"
#include "hash/sha256.hpp"

namespace cuzk::filecoin::porep {

namespace {

constexpr std::array<uint8_t, 12> SYNTH_NONCE = {'s', 'y', 'n', 't', 'h', '-',
                                                 'p', 'o', 'r', 'e', 'p', 0};
constexpr std::string_view SYNTH_GEN_KEY = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr std::string_view SYNTH_SEL_KEY = "filecoin.io|PoRep|1|Synthetic|1|Selection";
constexpr std::string_view NI_TAG = "filecoin.io|PoRep|1|NonInteractive|1";

bytes32_t keyed_blake2b_256(std::string_view key, const bytes32_t& a, const bytes32_t& b) {
  cuzk::hash::blake2b h(32, {reinterpret_cast<const uint8_t*>(key.data()), key.size()});
  h.update(a.data(), 32);
  h.update(b.data(), 32);
  bytes32_t out;
  h.finalize(out.data());
  return out;
}

void put_u32_le(uint8_t out[4], uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = uint8_t(v >> (8 * i));
}

}  // namespace

uint64_t challenge_from_digest(const uint8_t h[32], uint64_t nodes) {
  // Horner over the four 64-bit limbs, most significant first: r = (r·2^64 + limb) mod m.
  const uint64_t m = nodes - 1;
  unsigned __int128 r = 0;
  for (int limb = 3; limb >= 0; --limb) {
    uint64_t w = 0;
    for (int i = 7; i >= 0; --i) w = w << 8 | h[8 * limb + i];
    r = ((r << 64) | w) % m;
  }
  return uint64_t(r) + 1;
}

std::vector<uint64_t> interactive_challenges(const bytes32_t& replica_id, const bytes32_t& seed,
                                             uint64_t nodes, unsigned cpp, unsigned k) {
  std::vector<uint64_t> out(cpp);
  for (unsigned i = 0; i < cpp; ++i) {
    uint8_t j[4];
    put_u32_le(j, uint32_t(cpp * k + i));
    cuzk::hash::sha256_t h;
    h.update(replica_id.data(), 32);
    h.update(seed.data(), 32);
    h.update(j, 4);
    out[i] = challenge_from_digest(h.finalize().data(), nodes);
  }
  return out;
}

std::vector<uint64_t> ni_challenges(const bytes32_t& replica_id, const bytes32_t& comm_r,
                                    uint64_t nodes, unsigned cpp, unsigned k) {
  std::vector<uint64_t> out(cpp);
  for (unsigned i = 0; i < cpp; ++i) {
    uint8_t j[4];
    put_u32_le(j, uint32_t(cpp * k + i));
    cuzk::hash::sha256_t h;
    h.update(NI_TAG.data(), NI_TAG.size());
    h.update(replica_id.data(), 32);
    h.update(comm_r.data(), 32);
    h.update(j, 4);
    out[i] = challenge_from_digest(h.finalize().data(), nodes);
  }
  return out;
}

synth_challenges::synth_challenges(uint64_t nodes, const bytes32_t& replica_id,
                                   const bytes32_t& comm_r, uint64_t count)
    : nodes_(nodes),
      count_(count ? count : std::min(nodes, DEFAULT_COUNT)),
      replica_id_(replica_id),
      gen_key_(keyed_blake2b_256(SYNTH_GEN_KEY, replica_id, comm_r)) {}

uint64_t synth_challenges::challenge(uint64_t i) const {
  cuzk::hash::chacha20_ietf c(gen_key_, SYNTH_NONCE);
  c.seek(32 * i);
  uint8_t block[32];
  c.keystream(block, 32);
  return challenge_from_digest(block, nodes_);
}

std::vector<uint64_t> synth_challenges::all() const {
  cuzk::hash::chacha20_ietf c(gen_key_, SYNTH_NONCE);
  std::vector<uint64_t> out(count_);
  uint8_t block[32];
  for (auto& x : out) {
    c.keystream(block, 32);
    x = challenge_from_digest(block, nodes_);
  }
  return out;
}

std::vector<uint64_t> synth_challenges::partition_indexes(const bytes32_t& seed, unsigned cpp,
                                                          unsigned k) const {
  cuzk::hash::chacha20_ietf c(keyed_blake2b_256(SYNTH_SEL_KEY, replica_id_, seed), SYNTH_NONCE);
  c.seek(uint64_t(4) * cpp * k);
  std::vector<uint8_t> bytes(size_t(4) * cpp);
  c.keystream(bytes.data(), bytes.size());
  std::vector<uint64_t> out(cpp);
  for (unsigned i = 0; i < cpp; ++i) {
    uint32_t v;
    std::memcpy(&v, bytes.data() + 4 * i, 4);  // little-endian host (x86-64, aarch64)
    out[i] = v % count_;
  }
  return out;
}

std::vector<uint64_t> synth_challenges::partition_challenges(const bytes32_t& seed, unsigned cpp,
                                                             unsigned k) const {
  std::vector<uint64_t> out = partition_indexes(seed, cpp, k);
  for (auto& x : out) x = challenge(x);
  return out;
}

std::vector<uint64_t> porep_challenges(const porep_config_t& cfg, const bytes32_t& replica_id,
                                       const bytes32_t& seed, const bytes32_t& comm_r, unsigned k) {
  const unsigned cpp = cfg.challenges_per_partition();
  switch (cfg.feature) {
    case api_feature::synthetic_porep:
      return synth_challenges(cfg.nodes(), replica_id, comm_r).partition_challenges(seed, cpp, k);
    case api_feature::non_interactive_porep:
      return ni_challenges(replica_id, comm_r, cfg.nodes(), cpp, k);
    case api_feature::none:
      break;
  }
  return interactive_challenges(replica_id, seed, cfg.nodes(), cpp, k);
}

}  // namespace cuzk::filecoin::porep
