// SPDX-License-Identifier: Apache-2.0
// SnapDeals randomness and challenges (see challenges.hpp).
#include "filecoin/snap/challenges.hpp"

#include <array>
#include <span>

#include "filecoin/hash/poseidon.hpp"

namespace cuzk::filecoin::snap {
namespace {

// Bits [start, start + len) of an LE limb vector, len ≤ 64.
uint64_t bit_slice(const ff::limbs<4>& l, unsigned start, unsigned len) {
  uint64_t v = 0;
  for (unsigned i = 0; i < len; ++i) {
    const unsigned b = start + i;
    v |= ((l[b / 64] >> (b % 64)) & 1) << i;
  }
  return v;
}

}  // namespace

fr_t hash_randomness(const fr_t& a, const fr_t& b) {
  static const fr_t tag = hash::poseidon_gen_randomness_tag();
  const std::array<fr_t, 2> pre = {a, b};
  return hash::poseidon_hash(std::span<const fr_t>(pre), tag, hash::poseidon_constants(2));
}

fr_t phi(const fr_t& comm_d_new, const fr_t& comm_r_old) {
  return hash_randomness(comm_d_new, comm_r_old);
}

fr_t rho(const fr_t& phi, uint64_t high) {
  return hash_randomness(phi, fr_t::from_uint(high));
}

std::vector<uint64_t> partition_challenges(const update_config_t& c, const fr_t& comm_r_new,
                                           unsigned k) {
  std::vector<uint64_t> out;
  out.reserve(c.challenges);
  const uint64_t partition_high = uint64_t(k) << c.challenge_bits;
  for (uint64_t digest_index = uint64_t(k) * c.digests; out.size() < c.challenges; ++digest_index) {
    const ff::limbs<4> d =
        hash_randomness(comm_r_new, fr_t::from_uint(digest_index)).to_canonical();
    for (unsigned i = 0; i < c.challenges_per_digest && out.size() < c.challenges; ++i)
      out.push_back(bit_slice(d, i * c.challenge_bits, c.challenge_bits) | partition_high);
  }
  return out;
}

}  // namespace cuzk::filecoin::snap
