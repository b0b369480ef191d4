// SPDX-License-Identifier: Apache-2.0
// Synthetic PoSt vanilla proofs (see synthetic.hpp). Cost of a 32 GiB WindowPoSt partition: 2,349
// sectors × ≤ 10 challenged leaves × 10 levels ≈ 235k Poseidon-8 nodes.
#include "filecoin/post/synthetic.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <string_view>

#include "filecoin/common/merkle_proof.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/synthetic_trees.hpp"
#include "filecoin/post/challenges.hpp"

namespace cuzk::filecoin::post {
namespace {

ff::fr_t synthetic_fr(std::string_view what, uint64_t seed, uint64_t sector_id, uint64_t index) {
  ff::fr_t x;
  (void)hash::bytes_to_fr(hash::synthetic_digest(what, {seed, sector_id, index}), x);  // < r
  return x;
}

}  // namespace

result<std::vector<fallback_sector_proof_t>> generate_synthetic_post(
    const synthetic_post_request_t& req, thread_pool& pool, size_t* poseidon_hashes) {
  const post_config_t& cfg = req.config;
  if (status s = check_safe_commitment(req.randomness, "randomness"); !s) return s;
  const unsigned most = cfg.kind == post_kind::window ? cfg.sector_count : 1;
  const unsigned n = req.sectors == 0 ? most : req.sectors;
  if (n > most)
    return status(status_code::invalid_argument,
                  std::to_string(n) + " sectors: a " + std::string(name_of(cfg.proof)) +
                      " partition holds at most " + std::to_string(most));
  if (cfg.kind == post_kind::winning && req.partition != 0)
    return status(status_code::invalid_argument, "WinningPoSt has only partition 0");
  if (req.first_sector_id > UINT64_MAX - n)
    return status(status_code::invalid_argument, "sector ids overflow u64");

  std::vector<fallback_sector_proof_t> out(n);
  std::atomic<size_t> hashes{0};
  pool.parallel_for(n, [&](size_t i) {
    const uint64_t id = req.first_sector_id + i;
    std::vector<uint64_t> leaves =
        sector_leaf_challenges(cfg, req.randomness, id, req.partition, unsigned(i));
    std::vector<uint64_t> distinct = leaves;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::vector<std::pair<uint64_t, ff::fr_t>> given;
    for (uint64_t leaf : distinct)
      given.push_back({leaf, synthetic_fr("cuzk/synthetic/post/leaf", req.seed, id, leaf)});
    thread_pool serial(1);  // this loop already spreads the sectors over the pool
    size_t h = 0;
    hash::sparse_tree<hash::poseidon_hasher> tree(
        cfg.tree, given, synthetic_fr("cuzk/synthetic/post/default", req.seed, id, 0), serial, h);
    const ff::fr_t comm_c = synthetic_fr("cuzk/synthetic/post/comm_c", req.seed, id, 0);
    const ff::fr_t roots[2] = {comm_c, tree.root()};
    fallback_sector_proof_t& p = out[i];
    p.sector_id = id;
    p.comm_r = hash::fr_to_bytes(hash::poseidon_hash(std::span<const ff::fr_t>(roots, 2)));
    sector_proof_t& sp = p.sectors.emplace_back();
    sp.comm_c = hash::fr_to_bytes(comm_c);
    sp.comm_r_last = hash::fr_to_bytes(tree.root());
    for (uint64_t leaf : leaves)
      sp.inclusion_proofs.push_back(common::make_merkle_proof(cfg.tree, tree.path(leaf)));
    hashes += h + 1;
  });
  if (poseidon_hashes) *poseidon_hashes = hashes;
  return out;
}

}  // namespace cuzk::filecoin::post
