// SPDX-License-Identifier: Apache-2.0
// PoSt partition checks and slot layout (see partition.hpp).
#include "filecoin/post/partition.hpp"

#include <algorithm>
#include <string>

#include "base/first_failure.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/post/challenges.hpp"

namespace cuzk::filecoin::post {
namespace {

using common::check_merkle_shape;

std::string sector_name(const fallback_sector_proof_t& p) {
  return "sector " + std::to_string(p.sector_id);
}

}  // namespace

status check_sector_proof_shape(const post_config_t& cfg, const fallback_sector_proof_t& p) {
  if (p.sectors.size() != 1)
    return {status_code::size_mismatch, sector_name(p) + ": " + std::to_string(p.sectors.size()) +
                                            " sector proofs, expected 1"};
  const sector_proof_t& s = p.sectors[0];
  if (s.inclusion_proofs.size() != cfg.challenge_count)
    return {status_code::size_mismatch,
            sector_name(p) + ": " + std::to_string(s.inclusion_proofs.size()) +
                " inclusion proofs, expected " + std::to_string(cfg.challenge_count)};
  for (size_t n = 0; n < s.inclusion_proofs.size(); ++n) {
    const std::string what = sector_name(p) + " challenge " + std::to_string(n);
    if (status st = check_merkle_shape(cfg.tree, s.inclusion_proofs[n], what); !st) return st;
  }
  return {};
}

status validate_sector_proof(const post_config_t& cfg, const fallback_sector_proof_t& p,
                             const bytes32_t& randomness, unsigned partition,
                             unsigned sector_index) {
  if (status st = check_sector_proof_shape(cfg, p); !st) return st;
  const sector_proof_t& s = p.sectors[0];
  ff::fr_t comm_r, comm_c, comm_r_last;
  if (!hash::bytes_to_fr(p.comm_r, comm_r) || !hash::bytes_to_fr(s.comm_c, comm_c) ||
      !hash::bytes_to_fr(s.comm_r_last, comm_r_last))
    return {status_code::non_canonical,
            sector_name(p) + ": comm_r, comm_c or comm_r_last is not < r"};
  const ff::fr_t pair[2] = {comm_c, comm_r_last};
  if (hash::poseidon_hash(std::span<const ff::fr_t>(pair, 2)) != comm_r)
    return {status_code::invalid_argument,
            sector_name(p) + ": comm_r is not Poseidon(comm_c, comm_r_last)"};

  const std::vector<uint64_t> leaves =
      sector_leaf_challenges(cfg, randomness, p.sector_id, partition, sector_index);
  hash::merkle_path<ff::fr_t> path;
  for (size_t n = 0; n < s.inclusion_proofs.size(); ++n) {
    const merkle_proof_t& m = s.inclusion_proofs[n];
    const std::string what = sector_name(p) + " challenge " + std::to_string(n);
    if (m.leaf_index() != leaves[n])
      return {status_code::invalid_argument,
              what + ": proves leaf " + std::to_string(m.leaf_index()) +
                  ", the challenge is leaf " + std::to_string(leaves[n])};
    if (m.root != s.comm_r_last)
      return {status_code::invalid_argument, what + ": path root is not comm_r_last"};
    if (!common::to_poseidon_path(m, path))
      return {status_code::non_canonical, what + ": a path value is not < r"};
    if (!hash::verify_path<hash::poseidon_hasher>(path))
      return {status_code::invalid_argument, what + ": path does not hash to comm_r_last"};
  }
  return {};
}

status validate_partition(const post_config_t& cfg, std::span<const fallback_sector_proof_t> proofs,
                          const bytes32_t& randomness, unsigned partition, thread_pool& pool) {
  if (status st = check_safe_commitment(randomness, "randomness"); !st) return st;
  if (auto slots = circuit_slots(cfg, proofs.size()); !slots) return slots.error();
  if (cfg.kind == post_kind::winning && partition != 0)
    return {status_code::invalid_argument, "WinningPoSt has only partition 0"};
  for (size_t i = 0; i < proofs.size(); ++i) {
    if (i > 0 && proofs[i].sector_id <= proofs[i - 1].sector_id)
      return {status_code::invalid_argument,
              "sector " + std::to_string(proofs[i].sector_id) +
                  ": sectors must be in strictly ascending order (after sector " +
                  std::to_string(proofs[i - 1].sector_id) + ")"};
  }
  return first_failure(proofs.size(), pool, [&](size_t i) {
    return validate_sector_proof(cfg, proofs[i], randomness, partition, unsigned(i));
  });
}

result<std::vector<slot_source_t>> circuit_slots(const post_config_t& cfg, size_t num_proofs) {
  if (cfg.kind == post_kind::winning ? num_proofs != 1
                                     : num_proofs == 0 || num_proofs > cfg.sector_count)
    return {status_code::size_mismatch,
            std::string(to_string(cfg.kind)) + " partition of " + std::to_string(num_proofs) +
                " vanilla proofs, expected " +
                (cfg.kind == post_kind::winning ? std::string("1")
                                                : "1.." + std::to_string(cfg.sector_count))};
  std::vector<slot_source_t> slots(cfg.circuit_sector_count);
  for (unsigned s = 0; s < cfg.circuit_sector_count; ++s) {
    if (cfg.kind == post_kind::winning) {
      slots[s] = {0, s * cfg.circuit_challenge_count};
    } else {
      slots[s] = {std::min<size_t>(s, num_proofs - 1), 0};
    }
  }
  return slots;
}

std::vector<public_sector_t> circuit_public_sectors(const post_config_t& cfg,
                                                    std::span<const public_sector_t> sectors) {
  if (cfg.kind == post_kind::window || sectors.empty()) return {sectors.begin(), sectors.end()};
  return std::vector<public_sector_t>(cfg.circuit_sector_count, sectors[0]);
}

}  // namespace cuzk::filecoin::post
