// SPDX-License-Identifier: Apache-2.0
// StackedCompound::generate_public_inputs: every PoR index input is the packed LE index bits,
// i.e. the node index itself as an Fr (indices < 2^32 ≪ 2^254, one input each).
#include "filecoin/circuits/public_inputs.hpp"

#include <string>

#include "filecoin/hash/merkle.hpp"
#include "filecoin/porep/challenges.hpp"
#include "filecoin/post/challenges.hpp"

namespace cuzk::filecoin::circuits {

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

result<std::vector<ff::fr_t>> fallback_post_public_inputs(
    const post::post_config_t& cfg, std::span<const post::public_sector_t> sectors,
    const porep::bytes32_t& randomness, unsigned k) {
  if (status s = post::check_safe_commitment(randomness, "randomness"); !s) return s;
  if (auto slots = post::circuit_slots(cfg, sectors.size()); !slots) return slots.error();
  if (cfg.kind == post::post_kind::winning && k != 0)
    return {status_code::invalid_argument, "WinningPoSt has only partition 0"};
  const std::vector<post::public_sector_t> view = post::circuit_public_sectors(cfg, sectors);
  const unsigned S = cfg.circuit_sector_count, C = cfg.circuit_challenge_count;
  const size_t block = 1 + size_t(C);
  std::vector<ff::fr_t> out;
  out.reserve(S * block);
  for (unsigned i = 0; i < view.size(); ++i) {
    ff::fr_t comm_r;
    if (!hash::bytes_to_fr(view[i].comm_r, comm_r))
      return {status_code::non_canonical,
              "sector " + std::to_string(view[i].sector_id) + ": comm_r is not < r"};
    out.push_back(comm_r);
    for (unsigned n = 0; n < C; ++n) {
      const uint64_t ci = post::challenge_index(cfg.version, k, S, i, C, n);
      out.push_back(
          ff::fr_t::from_uint(post::leaf_challenge(randomness, view[i].sector_id, ci, cfg.nodes)));
    }
  }
  const size_t last = out.size() - block;  // padding repeats the last real block
  while (out.size() < S * block)
    for (size_t j = 0; j < block; ++j) out.push_back(out[last + j]);
  return out;
}

}  // namespace cuzk::filecoin::circuits
