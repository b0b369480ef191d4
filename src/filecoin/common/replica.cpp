// SPDX-License-Identifier: Apache-2.0
// Opening a sealed sector's replica (see replica.hpp).
#include "filecoin/common/replica.hpp"

#include <algorithm>
#include <span>
#include <vector>

#include "base/file_io.hpp"
#include "filecoin/hash/poseidon.hpp"

namespace cuzk::filecoin::common {

result<replica_t> open_replica(const hash::tree_shape& tree_r_last, const std::string& dir,
                               uint64_t sector_id) {
  const uint64_t nodes = tree_r_last.num_leaves, sector_bytes = nodes * 32;
  if (sector_bytes > MAX_IN_MEMORY_SECTOR_BYTES)
    return {status_code::invalid_argument,
            "replicas are opened in memory up to 512 MiB, not " + sector_size_name(sector_bytes)};
  auto aux = read_file_bounded(dir + "/p_aux", 64);
  if (!aux) return aux.error();
  if (aux->size() != 64)
    return {status_code::bad_length,
            dir + "/p_aux: " + std::to_string(aux->size()) + " bytes, expected 64"};
  auto sealed = read_file_bounded(dir + "/sealed", sector_bytes);
  if (!sealed) return sealed.error();
  if (sealed->size() != sector_bytes)
    return {status_code::bad_length, dir + "/sealed: " + std::to_string(sealed->size()) +
                                         " bytes, expected " + std::to_string(sector_bytes)};
  replica_t r;
  r.sector_id = sector_id;
  std::copy(aux->begin(), aux->begin() + 32, r.comm_c.begin());
  std::copy(aux->begin() + 32, aux->end(), r.comm_r_last.begin());
  ff::fr_t pair[2];
  if (!hash::bytes_to_fr(r.comm_c, pair[0]) || !hash::bytes_to_fr(r.comm_r_last, pair[1]))
    return {status_code::non_canonical, dir + "/p_aux: comm_c or comm_r_last is not < r"};
  r.comm_r = hash::fr_to_bytes(hash::poseidon_hash(std::span<const ff::fr_t>(pair, 2)));

  std::vector<ff::fr_t> leaves(nodes);
  for (uint64_t i = 0; i < nodes; ++i)
    if (!ff::fr_t::from_bytes_le(sealed->data() + 32 * i, leaves[i]))
      return {status_code::non_canonical,
              dir + "/sealed: node " + std::to_string(i) + " is not < r"};
  sealed->clear();
  sealed->shrink_to_fit();
  auto tree = hash::poseidon_tree::build(tree_r_last, std::move(leaves));
  if (!tree) return tree.error();
  if (tree->root() != pair[1])
    return {status_code::invalid_argument,
            dir + ": the replica's tree_r_last root is not p_aux's comm_r_last"};
  r.tree_r_last = std::move(*tree);
  return r;
}

}  // namespace cuzk::filecoin::common
