// SPDX-License-Identifier: Apache-2.0
// SnapDeals vanilla PartitionProofs (see vanilla_prove.hpp).
#include "filecoin/snap/vanilla_prove.hpp"

#include <array>
#include <string>
#include <tuple>

#include "base/first_failure.hpp"
#include "base/hex.hpp"
#include "base/json_reader.hpp"
#include "filecoin/common/merkle_proof.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/snap/challenges.hpp"

namespace cuzk::filecoin::snap {
namespace {

std::string challenge_name(unsigned k, size_t i) {
  return "partition " + std::to_string(k) + " challenge " + std::to_string(i);
}

bool fr_of(const bytes32_t& b, fr_t& out) {
  return hash::bytes_to_fr(b, out);
}

// The running hash of a binary SHA path after `levels` levels (the node at that height).
bytes32_t sha_node_at(const merkle_proof_t& m, unsigned levels) {
  bytes32_t cur = m.leaf;
  for (unsigned l = 0; l < levels; ++l) {
    std::array<bytes32_t, 2> children;
    children[m.path[l].index] = cur;
    children[1 - m.path[l].index] = m.hashes[l];
    cur = hash::hash_node<hash::sha256_hasher>(2, children.data());
  }
  return cur;
}

// Poseidon path check of an r proof against `root` (bytes); the message says why it fails.
status check_r_path(const merkle_proof_t& m, const bytes32_t& root, uint64_t challenge,
                    const std::string& what) {
  if (m.leaf_index() != challenge)
    return {status_code::invalid_argument,
            what + ": proves node " + std::to_string(m.leaf_index()) + ", the challenge is node " +
                std::to_string(challenge)};
  if (m.root != root) return {status_code::invalid_argument, what + ": root differs"};
  hash::merkle_path<fr_t> path;
  if (!common::to_poseidon_path(m, path))
    return {status_code::non_canonical, what + ": a path value is not < r"};
  if (!hash::verify_path<hash::poseidon_hasher>(path))
    return {status_code::invalid_argument, what + ": path does not hash to its root"};
  return {};
}

}  // namespace

result<partition_proof_t> prove_partition(const updated_sector_t& s, unsigned k) {
  const update_config_t& c = s.config;
  if (k >= c.partitions)
    return {status_code::invalid_argument,
            "partition " + std::to_string(k) + " of " + std::to_string(c.partitions)};
  fr_t comm_r_new;
  fr_of(s.comm_r_new, comm_r_new);
  return build_partition_proof(
      c, s.comm_c, comm_r_new, s.tree_r_old, s.tree_d_new, s.tree_r_new,
      [&](unsigned level, uint64_t i) { return s.tree_d_new.level(level)[size_t(i)]; }, k);
}

std::vector<std::vector<uint8_t>> prove_all_partitions(const updated_sector_t& s) {
  std::vector<std::vector<uint8_t>> out;
  for (unsigned k = 0; k < s.config.partitions; ++k)
    out.push_back(serialize_partition_proof(*prove_partition(s, k)));
  return out;
}

status check_partition_proof_shape(const update_config_t& c, const partition_proof_t& p) {
  if (p.apex_leafs.size() != c.apex_leaves)
    return {status_code::size_mismatch, std::to_string(p.apex_leafs.size()) +
                                            " apex leaves, expected " +
                                            std::to_string(c.apex_leaves)};
  if (p.challenge_proofs.size() != c.challenges)
    return {status_code::size_mismatch, std::to_string(p.challenge_proofs.size()) +
                                            " challenge proofs, expected " +
                                            std::to_string(c.challenges)};
  for (size_t i = 0; i < p.challenge_proofs.size(); ++i) {
    const challenge_proof_t& cp = p.challenge_proofs[i];
    const std::string what = "challenge " + std::to_string(i);
    if (status s = common::check_merkle_shape(c.tree_r, cp.proof_r_old, what + " proof_r_old"); !s)
      return s;
    if (status s = common::check_merkle_shape(c.tree_d, cp.proof_d_new, what + " proof_d_new"); !s)
      return s;
    if (status s = common::check_merkle_shape(c.tree_r, cp.proof_r_new, what + " proof_r_new"); !s)
      return s;
  }
  return {};
}

status validate_partition_proof(const update_config_t& c, const update_commitments_t& comms,
                                unsigned k, const partition_proof_t& p) {
  if (k >= c.partitions)
    return {status_code::invalid_argument,
            "partition " + std::to_string(k) + " of " + std::to_string(c.partitions)};
  if (status s = check_partition_proof_shape(c, p); !s)
    return status(s.code(), "partition " + std::to_string(k) + ": " + s.message());
  fr_t comm_c, comm_r_old, comm_r_new, comm_d_new;
  if (!fr_of(p.comm_c, comm_c) || !fr_of(comms.comm_r_old, comm_r_old) ||
      !fr_of(comms.comm_r_new, comm_r_new) || !fr_of(comms.comm_d_new, comm_d_new))
    return {status_code::non_canonical, "comm_c, comm_r_old, comm_r_new or comm_d_new is not < r"};
  for (const domain_t& leaf : p.apex_leafs) {
    fr_t x;
    if (!fr_of(leaf, x)) return {status_code::non_canonical, "an apex leaf is not < r"};
  }

  // Roots: challenge 0's, checked against the public comm_r's here and shared by all challenges.
  const bytes32_t root_r_old = p.challenge_proofs[0].proof_r_old.root;
  const bytes32_t root_r_new = p.challenge_proofs[0].proof_r_new.root;
  for (const auto& [root, comm, name] : {std::tuple{root_r_old, comm_r_old, "comm_r_old"},
                                         std::tuple{root_r_new, comm_r_new, "comm_r_new"}}) {
    fr_t pair[2] = {comm_c, fr_t::zero()};
    if (!fr_of(root, pair[1]))
      return {status_code::non_canonical, std::string(name) + ": root is not < r"};
    if (hash::poseidon_hash(std::span<const fr_t>(pair, 2)) != comm)
      return {status_code::invalid_argument,
              "partition " + std::to_string(k) + ": " + name + " is not Poseidon(comm_c, root)"};
  }

  const std::vector<uint64_t> challenges = partition_challenges(c, comm_r_new, k);
  const fr_t phi_value = phi(comm_d_new, comm_r_old);
  const unsigned below_apex = c.tree_d_levels_below_apex();
  const merkle_proof_t& first_d = p.challenge_proofs[0].proof_d_new;
  for (size_t i = 0; i < challenges.size(); ++i) {
    const challenge_proof_t& cp = p.challenge_proofs[i];
    const std::string what = challenge_name(k, i);
    const uint64_t node = challenges[i];
    if (status s = check_r_path(cp.proof_r_old, root_r_old, node, what + " proof_r_old"); !s)
      return s;
    if (status s = check_r_path(cp.proof_r_new, root_r_new, node, what + " proof_r_new"); !s)
      return s;
    const merkle_proof_t& d = cp.proof_d_new;
    if (d.leaf_index() != node)
      return {status_code::invalid_argument,
              what + " proof_d_new: proves node " + std::to_string(d.leaf_index())};
    if (d.root != comms.comm_d_new)
      return {status_code::invalid_argument, what + " proof_d_new: root is not comm_d_new"};
    if (!hash::verify_path<hash::sha256_hasher>(common::to_sha_path(d)))
      return {status_code::invalid_argument, what + " proof_d_new: path does not hash to its root"};

    fr_t leaf_r_old, leaf_d_new, leaf_r_new;
    if (!fr_of(cp.proof_r_old.leaf, leaf_r_old) || !fr_of(d.leaf, leaf_d_new) ||
        !fr_of(cp.proof_r_new.leaf, leaf_r_new))
      return {status_code::non_canonical, what + ": a leaf is not < r"};
    if (leaf_r_old + leaf_d_new * rho(phi_value, rho_high(c, node)) != leaf_r_new)
      return {status_code::invalid_argument,
              what + ": leaf_r_new is not leaf_r_old + leaf_d_new·rho"};

    const size_t apex_index = (node >> below_apex) & (c.apex_leaves - 1);
    if (sha_node_at(d, below_apex) != p.apex_leafs[apex_index])
      return {status_code::invalid_argument,
              what + ": the path does not pass through apex leaf " + std::to_string(apex_index)};
    for (unsigned l = c.node_bits - c.partition_bits; l < c.node_bits; ++l)
      if (d.hashes[l] != first_d.hashes[l])
        return {status_code::invalid_argument,
                what + ": partition path differs from challenge 0's"};
  }

  // The apex tree over the leaves, then the partition path (challenge 0's top p siblings).
  std::vector<bytes32_t> row(p.apex_leafs.begin(), p.apex_leafs.end());
  std::vector<bytes32_t> next;
  while (row.size() > 1) {
    next.resize(row.size() / 2);
    hash::sha256_hasher::hash_level(2, row.data(), next.data(), next.size());
    row.swap(next);
  }
  bytes32_t cur = row[0];
  for (unsigned i = 0; i < c.partition_bits; ++i) {
    const unsigned bit = (k >> i) & 1;
    std::array<bytes32_t, 2> children;
    children[bit] = cur;
    children[1 - bit] = first_d.hashes[c.node_bits - c.partition_bits + i];
    cur = hash::hash_node<hash::sha256_hasher>(2, children.data());
  }
  if (cur != comms.comm_d_new)
    return {status_code::invalid_argument,
            "partition " + std::to_string(k) + ": the apex leaves do not hash to comm_d_new"};
  return {};
}

status validate_partition_proofs(const update_config_t& c, const update_commitments_t& comms,
                                 std::span<const partition_proof_t> proofs, thread_pool& pool) {
  if (proofs.size() != c.partitions)
    return {status_code::size_mismatch, std::to_string(proofs.size()) +
                                            " partition proofs, expected " +
                                            std::to_string(c.partitions)};
  return first_failure(proofs.size(), pool, [&](size_t k) {
    return validate_partition_proof(c, comms, unsigned(k), proofs[k]);
  });
}

std::string commitments_json(const update_commitments_t& c) {
  return "{\"comm_r_old\":\"" + to_hex(c.comm_r_old) + "\",\"comm_r_new\":\"" +
         to_hex(c.comm_r_new) + "\",\"comm_d_new\":\"" + to_hex(c.comm_d_new) + "\"}";
}

result<update_commitments_t> parse_commitments_json(std::string_view json) {
  using json::path_t;
  static constexpr std::array<const char*, 3> NAMES = {"comm_r_old", "comm_r_new", "comm_d_new"};
  json::reader r(json);
  update_commitments_t c;
  std::array<bytes32_t*, 3> outs = {&c.comm_r_old, &c.comm_r_new, &c.comm_d_new};
  uint32_t seen = 0;
  const path_t root{};
  const bool ok = r.object(&root, [&](std::string_view key, const path_t* kp) {
    for (unsigned i = 0; i < NAMES.size(); ++i) {
      if (key != NAMES[i]) continue;
      std::string_view hex;
      if (!r.mark(kp, seen, i) || !r.read_string(kp, hex)) return false;
      auto v = parse_hex32(hex);
      if (!v) return r.fail(kp, v.error().message(), false);
      *outs[i] = *v;
      return true;
    }
    return r.fail(kp, "unknown field", false);
  });
  if (ok && r.require(&root, seen, NAMES) && !r.at_end())
    r.fail(&root, "trailing characters after the object");
  if (r.failed()) return r.error();
  return c;
}

}  // namespace cuzk::filecoin::snap
