// SPDX-License-Identifier: Apache-2.0
// A Merkle proof against a tree shape (see merkle_proof.hpp).
#include "filecoin/common/merkle_proof.hpp"

namespace cuzk::filecoin::common {

merkle_proof_kind merkle_proof_kind_for(const hash::tree_shape& t) {
  return t.top_arity   ? merkle_proof_kind::top
         : t.sub_arity ? merkle_proof_kind::sub
                       : merkle_proof_kind::single;
}

status check_merkle_shape(const hash::tree_shape& t, const merkle_proof_t& m,
                          const std::string& what) {
  if (m.kind != merkle_proof_kind_for(t))
    return {status_code::size_mismatch, what + ": Merkle proof variant " +
                                            std::to_string(unsigned(m.kind)) +
                                            " does not fit tree " + t.name()};
  if (m.path.size() != t.height() || m.base_len != t.base_height() ||
      m.sub_len != (t.sub_arity ? 1u : 0u) || m.top_len != (t.top_arity ? 1u : 0u) ||
      !m.well_formed())
    return {status_code::size_mismatch, what + ": " + std::to_string(m.path.size()) +
                                            " path levels, tree " + t.name() + " has " +
                                            std::to_string(t.height())};
  for (unsigned l = 0; l < t.height(); ++l) {
    const unsigned a = t.arity_at(l);
    if (m.path[l].num_hashes + 1 != a || m.path[l].index >= a)
      return {status_code::size_mismatch,
              what + ": level " + std::to_string(l) + " is not of arity " + std::to_string(a)};
  }
  return {};
}

}  // namespace cuzk::filecoin::common
