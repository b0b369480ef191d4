// SPDX-License-Identifier: Apache-2.0
// FallbackPoSt challenge derivation (see challenges.hpp).
#include "filecoin/post/challenges.hpp"

#include <string>

#include "filecoin/hash/merkle.hpp"
#include "hash/sha256.hpp"

namespace cuzk::filecoin::post {
namespace {

void put_u64_le(uint8_t* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = uint8_t(v >> (8 * i));
}

uint64_t u64_le(const uint8_t* in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(in[i]) << (8 * i);
  return v;
}

// u64 LE of the first 8 bytes of SHA256(a ‖ b ‖ c u64 LE).
uint64_t sha_prefix(const bytes32_t& a, const uint8_t* b, size_t b_len, uint64_t c) {
  uint8_t msg[32 + 32 + 8];
  std::copy(a.begin(), a.end(), msg);
  std::copy(b, b + b_len, msg + 32);
  put_u64_le(msg + 32 + b_len, c);
  const auto d = cuzk::hash::sha256_digest(std::span<const uint8_t>(msg, 32 + b_len + 8));
  return u64_le(d.data());
}

}  // namespace

uint64_t leaf_challenge(const bytes32_t& randomness, uint64_t sector_id, uint64_t challenge_index,
                        uint64_t nodes) {
  uint8_t id[8];
  put_u64_le(id, sector_id);
  return sha_prefix(randomness, id, 8, challenge_index) % nodes;
}

uint64_t challenge_index(api_version v, unsigned partition, unsigned sector_count,
                         unsigned sector_index, unsigned challenge_count, unsigned n) {
  if (v == api_version::v1_2_0) return n;
  return (uint64_t(partition) * sector_count + sector_index) * challenge_count + n;
}

std::vector<uint64_t> sector_leaf_challenges(const post_config_t& cfg, const bytes32_t& randomness,
                                             uint64_t sector_id, unsigned partition,
                                             unsigned sector_index) {
  std::vector<uint64_t> out(cfg.challenge_count);
  for (unsigned n = 0; n < cfg.challenge_count; ++n) {
    const uint64_t ci = challenge_index(cfg.version, partition, cfg.sector_count, sector_index,
                                        cfg.challenge_count, n);
    out[n] = leaf_challenge(randomness, sector_id, ci, cfg.nodes);
  }
  return out;
}

result<uint64_t> winning_sector_challenge(const bytes32_t& prover_id, const bytes32_t& randomness,
                                          uint64_t n, uint64_t sector_set_len) {
  if (sector_set_len == 0)
    return {status_code::invalid_argument, "WinningPoSt over an empty sector set"};
  return sha_prefix(prover_id, randomness.data(), 32, n) % sector_set_len;
}

status check_safe_commitment(const bytes32_t& value, const char* what) {
  ff::fr_t x;
  if (!hash::bytes_to_fr(value, x))
    return {status_code::non_canonical, std::string(what) + " is not a canonical field element"};
  return {};
}

}  // namespace cuzk::filecoin::post
