// SPDX-License-Identifier: Apache-2.0
// A synthetic SnapDeals update (see synthetic.hpp).
#include "filecoin/snap/synthetic.hpp"

#include <algorithm>
#include <string_view>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/synthetic_trees.hpp"
#include "filecoin/snap/challenges.hpp"

namespace cuzk::filecoin::snap {
namespace {

bytes32_t synthetic_value(std::string_view what, uint64_t seed, uint64_t block) {
  return hash::synthetic_digest(what, {seed, block});
}

fr_t fr_of(const bytes32_t& b) {
  fr_t x;
  (void)hash::bytes_to_fr(b, x);  // every value here is canonical
  return x;
}

}  // namespace

result<synthetic_update_t> generate_synthetic_update(const update_config_t& c, uint64_t seed,
                                                     thread_pool& pool) {
  if (c.nodes == 0 || c.node_bits < c.h || (uint64_t(1) << c.node_bits) != c.nodes)
    return status(status_code::invalid_argument, "synthetic update: bad config");
  synthetic_update_t out;
  out.block_bits = std::min(c.node_bits - c.h, c.node_bits > SYNTHETIC_MAX_BLOCK_COUNT_BITS
                                                   ? c.node_bits - SYNTHETIC_MAX_BLOCK_COUNT_BITS
                                                   : 0u);
  const size_t blocks = size_t(c.nodes >> out.block_bits);

  std::vector<fr_t> key(blocks);
  std::vector<bytes32_t> data(blocks);
  pool.parallel_for(blocks, [&](size_t b) {
    key[b] = fr_of(synthetic_value("cuzk/synthetic/snap/key", seed, b));
    data[b] = synthetic_value("cuzk/synthetic/snap/data", seed, b);
  });
  const fr_t comm_c = fr_of(synthetic_value("cuzk/synthetic/snap/comm_c", seed, 0));
  auto comm_r_of = [&](const fr_t& root) {
    const fr_t pair[2] = {comm_c, root};
    return hash::poseidon_hash(std::span<const fr_t>(pair, 2));
  };

  hash::block_tree<hash::poseidon_hasher> tree_r_old(c.tree_r, key, out.block_bits, pool,
                                                     out.poseidon_hashes);
  hash::block_tree<hash::sha256_hasher> tree_d_new(c.tree_d, data, out.block_bits, pool,
                                                   out.sha256_hashes);
  const fr_t comm_r_old = comm_r_of(tree_r_old.root());
  const bytes32_t comm_d_new = tree_d_new.root();

  // replica_new = key + data·rho(node >> (L − h)); a block's nodes share their top h bits.
  const fr_t phi_value = phi(fr_of(comm_d_new), comm_r_old);
  std::vector<fr_t> rhos(size_t(1) << c.h);
  pool.parallel_for(rhos.size(), [&](size_t high) { rhos[high] = rho(phi_value, high); });
  std::vector<fr_t> replica(blocks);
  pool.parallel_for(blocks, [&](size_t b) {
    replica[b] = key[b] + fr_of(data[b]) * rhos[rho_high(c, uint64_t(b) << out.block_bits)];
  });
  hash::block_tree<hash::poseidon_hasher> tree_r_new(c.tree_r, std::move(replica), out.block_bits,
                                                     pool, out.poseidon_hashes);
  const fr_t comm_r_new = comm_r_of(tree_r_new.root());
  out.poseidon_hashes += 3 + rhos.size();

  out.commitments = {hash::fr_to_bytes(comm_r_old), hash::fr_to_bytes(comm_r_new), comm_d_new};
  out.partition_proofs.resize(c.partitions);
  const bytes32_t comm_c_bytes = hash::fr_to_bytes(comm_c);
  pool.parallel_for(c.partitions, [&](size_t k) {
    out.partition_proofs[k] = serialize_partition_proof(build_partition_proof(
        c, comm_c_bytes, comm_r_new, tree_r_old, tree_d_new, tree_r_new,
        [&](unsigned level, uint64_t i) { return tree_d_new.get(level, i); }, unsigned(k)));
  });
  return out;
}

}  // namespace cuzk::filecoin::snap
