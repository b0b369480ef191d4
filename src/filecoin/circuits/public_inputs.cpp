// SPDX-License-Identifier: Apache-2.0
// StackedCompound::generate_public_inputs: every PoR index input is the packed LE index bits,
// i.e. the node index itself as an Fr (indices < 2^32 ≪ 2^254, one input each).
#include "filecoin/circuits/public_inputs.hpp"

#include <string>

#include "filecoin/hash/merkle.hpp"
#include "filecoin/porep/challenges.hpp"

namespace cuzk::synth {

void append_challenge_inputs(const porep::sdr_graph& g, uint64_t challenge,
                             std::vector<ff::fr_t>& out) {
  uint32_t parents[porep::PARENT_COUNT];
  g.parents(challenge, parents);
  const ff::fr_t c = ff::fr_t::from_uint(challenge);
  out.push_back(c);  // tree_d inclusion of the data leaf
  for (uint32_t p : parents) out.push_back(ff::fr_t::from_uint(p));  // 6 DRG, 8 expander
  out.push_back(c);                                                  // the challenge UInt64
  out.push_back(c);  // tree_r_last inclusion of the encoded node
  out.push_back(c);  // tree_c inclusion of the challenge's column
}

result<std::vector<ff::fr_t>> porep_public_inputs(const porep::porep_config_t& cfg,
                                                  const porep::sdr_graph& g,
                                                  const porep_publics_t& pub, unsigned k) {
  if (k >= cfg.partitions()) {
    return {status_code::invalid_argument, "partition " + std::to_string(k) + " out of range (" +
                                               std::to_string(cfg.partitions()) + " partitions)"};
  }
  std::vector<ff::fr_t> out;
  out.reserve(3 + 18 * size_t(cfg.challenges_per_partition()));
  const std::pair<const porep::bytes32_t*, const char*> commitments[] = {
      {&pub.replica_id, "replica_id"}, {&pub.comm_d, "comm_d"}, {&pub.comm_r, "comm_r"}};
  for (const auto& [bytes, name] : commitments) {
    ff::fr_t x;
    if (!hash::bytes_to_fr(*bytes, x))
      return {status_code::non_canonical, std::string(name) + " is not < r"};
    out.push_back(x);
  }
  for (uint64_t c : porep::porep_challenges(cfg, pub.replica_id, pub.seed, pub.comm_r, k))
    append_challenge_inputs(g, c, out);
  return out;
}

result<std::vector<ff::fr_t>> porep_public_inputs(const porep::porep_config_t& cfg,
                                                  const porep_publics_t& pub, unsigned k) {
  const porep::sdr_graph g(cfg);
  return porep_public_inputs(cfg, g, pub, k);
}

}  // namespace cuzk::synth
