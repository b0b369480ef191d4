// SPDX-License-Identifier: Apache-2.0
// Encoding new data into a sector key replica (see encode.hpp).
#include "filecoin/snap/encode.hpp"

#include <array>
#include <string>

#include "filecoin/common/fr32.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/snap/challenges.hpp"

namespace cuzk::filecoin::snap {
namespace {

namespace common = filecoin::common;

fr_t fr_of(const bytes32_t& b) {
  fr_t x;
  hash::bytes_to_fr(b, x);  // callers pass tree roots and checked leaves, all < r
  return x;
}

bytes32_t comm_r_of(const bytes32_t& comm_c, const fr_t& comm_r_last) {
  const std::array<fr_t, 2> pair = {fr_of(comm_c), comm_r_last};
  return hash::fr_to_bytes(hash::poseidon_hash(std::span<const fr_t>(pair)));
}

// The rho of every distinct high value: 2^h of them (h ≤ 12).
std::vector<fr_t> rho_table(const update_config_t& c, const fr_t& phi_value) {
  std::vector<fr_t> rhos(size_t(1) << c.h);
  for (uint64_t high = 0; high < rhos.size(); ++high) rhos[high] = rho(phi_value, high);
  return rhos;
}

// The payload zero-extended and Fr32-padded to the sector's nodes.
result<std::vector<hash::bytes32_t>> padded_payload(const update_config_t& c,
                                                    std::span<const uint8_t> payload) {
  if (payload.size() > common::fr32_unpadded_size(c.sector_bytes))
    return {status_code::invalid_argument,
            "payload of " + std::to_string(payload.size()) + " bytes exceeds the sector's " +
                std::to_string(common::fr32_unpadded_size(c.sector_bytes)) + " unpadded bytes"};
  std::vector<hash::bytes32_t> data(c.nodes);  // zero-initialized: the zero-data tail
  common::fr32_pad(payload,
                   {data.front().data(), size_t(common::fr32_padded_size(payload.size()))});
  return data;
}

}  // namespace

result<updated_sector_t> encode_update(const update_config_t& config, const bytes32_t& comm_c,
                                       hash::poseidon_tree sector_key,
                                       std::vector<hash::bytes32_t> data, thread_pool& pool) {
  if (config.sector_bytes > common::MAX_IN_MEMORY_SECTOR_BYTES)
    return {status_code::invalid_argument, "updates are encoded in memory up to 512 MiB, not " +
                                               common::sector_size_name(config.sector_bytes)};
  const hash::tree_shape& key_shape = sector_key.shape();
  if (key_shape.num_leaves != config.nodes || key_shape.base_arity != config.tree_r.base_arity ||
      key_shape.sub_arity != config.tree_r.sub_arity ||
      key_shape.top_arity != config.tree_r.top_arity)
    return {status_code::size_mismatch,
            "sector key tree " + key_shape.name() + " does not fit tree_r " + config.tree_r.name()};
  if (data.size() != config.nodes)
    return {status_code::size_mismatch, "new data has " + std::to_string(data.size()) +
                                            " nodes, expected " + std::to_string(config.nodes)};
  std::vector<fr_t> data_fr(config.nodes);
  for (uint64_t i = 0; i < config.nodes; ++i)
    if (!hash::bytes_to_fr(data[i], data_fr[i]))
      return {status_code::non_canonical, "new data node " + std::to_string(i) + " is not < r"};
  ff::fr_t comm_c_fr;
  if (!hash::bytes_to_fr(comm_c, comm_c_fr))
    return {status_code::non_canonical, "comm_c is not < r"};

  updated_sector_t s;
  s.config = config;
  s.comm_c = comm_c;
  s.comm_r_last_old = hash::fr_to_bytes(sector_key.root());
  s.comm_r_old = comm_r_of(comm_c, sector_key.root());
  auto tree_d = hash::sha256_tree::build(config.tree_d, std::move(data), pool);
  if (!tree_d) return tree_d.error();
  s.tree_d_new = std::move(*tree_d);
  s.comm_d_new = s.tree_d_new.root();

  const std::vector<fr_t> rhos = rho_table(config, phi(fr_of(s.comm_d_new), fr_of(s.comm_r_old)));
  const auto key = sector_key.leaves();
  std::vector<fr_t> replica(config.nodes);
  for (uint64_t i = 0; i < config.nodes; ++i)
    replica[i] = key[i] + data_fr[i] * rhos[rho_high(config, i)];
  auto tree_r = hash::poseidon_tree::build(config.tree_r, std::move(replica), pool);
  if (!tree_r) return tree_r.error();
  s.tree_r_new = std::move(*tree_r);
  s.tree_r_old = std::move(sector_key);
  s.comm_r_last_new = hash::fr_to_bytes(s.tree_r_new.root());
  s.comm_r_new = comm_r_of(comm_c, s.tree_r_new.root());
  return s;
}

result<updated_sector_t> encode_update(const update_config_t& config,
                                       const common::replica_view_t& key,
                                       std::span<const uint8_t> payload, thread_pool& pool) {
  auto data = padded_payload(config, payload);
  if (!data) return data.error();
  return encode_update(config, key.comm_c, key.tree_r_last, std::move(*data), pool);
}

result<updated_sector_t> encode_update_dir(const update_config_t& config, const std::string& dir,
                                           std::span<const uint8_t> payload, thread_pool& pool) {
  auto key = common::open_replica(config.tree_r, dir, 0);
  if (!key) return status(key.error().code(), dir + ": " + key.error().message());
  auto data = padded_payload(config, payload);
  if (!data) return data.error();
  return encode_update(config, key->comm_c, std::move(key->tree_r_last), std::move(*data), pool);
}

std::vector<hash::bytes32_t> decode_update(const updated_sector_t& s) {
  const update_config_t& c = s.config;
  std::vector<fr_t> inverse = rho_table(c, phi(fr_of(s.comm_d_new), fr_of(s.comm_r_old)));
  for (fr_t& r : inverse) r = r.inverse();
  const auto key = s.tree_r_old.leaves();
  const auto replica = s.tree_r_new.leaves();
  std::vector<hash::bytes32_t> out(c.nodes);
  for (uint64_t i = 0; i < c.nodes; ++i)
    out[i] = hash::fr_to_bytes((replica[i] - key[i]) * inverse[rho_high(c, i)]);
  return out;
}

}  // namespace cuzk::filecoin::snap
