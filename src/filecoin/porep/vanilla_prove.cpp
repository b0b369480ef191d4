// SPDX-License-Identifier: Apache-2.0
// Opening challenges on a sealed sector, and the native vanilla verifier.
#include "filecoin/porep/vanilla_prove.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "base/first_failure.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/porep/challenges.hpp"
#include "filecoin/porep/labels.hpp"

namespace cuzk::filecoin::porep {

using ff::fr_t;

namespace {

column_proof_t column_proof(const sealed_sector_t& s, uint64_t node) {
  column_proof_t cp;
  cp.column.index = uint32_t(node);
  cp.column.rows.reserve(s.labels.layers);
  for (unsigned l = 1; l <= s.labels.layers; ++l) cp.column.rows.push_back(s.labels.at(l, node));
  cp.inclusion_proof = make_merkle_proof(s.config().sector.tree_r, s.tree_c.path(node));
  return cp;
}

std::string at(uint64_t challenge) {
  return " (challenge " + std::to_string(challenge) + ")";
}

status check_sha(const merkle_proof_t& p, uint64_t index, const bytes32_t& root, const char* what,
                 uint64_t c) {
  if (!p.well_formed())
    return {status_code::bad_encoding, std::string(what) + " malformed" + at(c)};
  if (p.leaf_index() != index)
    return {status_code::invalid_argument, std::string(what) + " opens leaf " +
                                               std::to_string(p.leaf_index()) + ", expected " +
                                               std::to_string(index) + at(c)};
  if (p.root != root)
    return {status_code::invalid_argument, std::string(what) + " root differs" + at(c)};
  if (!hash::verify_path<hash::sha256_hasher>(to_sha_path(p)))
    return {status_code::invalid_argument, std::string(what) + " path does not verify" + at(c)};
  return {};
}

status check_poseidon(const merkle_proof_t& p, const hash::tree_shape& shape, uint64_t index,
                      const bytes32_t& root, const char* what, uint64_t c) {
  if (!p.well_formed())
    return {status_code::bad_encoding, std::string(what) + " malformed" + at(c)};
  if (p.path.size() != shape.height())
    return {status_code::invalid_argument,
            std::string(what) + " has " + std::to_string(p.path.size()) + " levels, the " +
                shape.name() + " tree " + std::to_string(shape.height()) + at(c)};
  const merkle_proof_kind kind = shape.top_arity   ? merkle_proof_kind::top
                                 : shape.sub_arity ? merkle_proof_kind::sub
                                                   : merkle_proof_kind::single;
  if (p.kind != kind)
    return {status_code::invalid_argument, std::string(what) + " has the wrong proof kind" + at(c)};
  for (size_t l = 0; l < p.path.size(); ++l)
    if (p.path[l].num_hashes + 1 != shape.arity_at(unsigned(l)))
      return {status_code::invalid_argument,
              std::string(what) + " level " + std::to_string(l) + " has the wrong arity" + at(c)};
  if (p.leaf_index() != index)
    return {status_code::invalid_argument, std::string(what) + " opens leaf " +
                                               std::to_string(p.leaf_index()) + ", expected " +
                                               std::to_string(index) + at(c)};
  if (p.root != root)
    return {status_code::invalid_argument, std::string(what) + " root differs" + at(c)};
  hash::merkle_path<fr_t> path;
  if (!to_poseidon_path(p, path))
    return {status_code::non_canonical, std::string(what) + " holds a value >= r" + at(c)};
  if (!hash::verify_path<hash::poseidon_hasher>(path))
    return {status_code::invalid_argument, std::string(what) + " path does not verify" + at(c)};
  return {};
}

status check_column(const column_proof_t& cp, const hash::tree_shape& shape, unsigned layers,
                    uint64_t node, const bytes32_t& comm_c, const char* what, uint64_t c) {
  if (cp.column.index != node)
    return {status_code::invalid_argument, std::string(what) + " column is node " +
                                               std::to_string(cp.column.index) + ", expected " +
                                               std::to_string(node) + at(c)};
  if (cp.column.rows.size() != layers)
    return {status_code::invalid_argument, std::string(what) + " column has " +
                                               std::to_string(cp.column.rows.size()) + " rows" +
                                               at(c)};
  fr_t h;
  if (!column_hash(cp.column.rows, h) || hash::fr_to_bytes(h) != cp.inclusion_proof.leaf)
    return {status_code::invalid_argument,
            std::string(what) + " tree_c leaf is not the column hash" + at(c)};
  return check_poseidon(cp.inclusion_proof, shape, node, comm_c, what, c);
}

}  // namespace

challenge_proof_t prove_challenge(const sealed_sector_t& s, uint64_t challenge) {
  const porep_config_t& cfg = s.config();
  const uint32_t* parents = s.parents.parents(challenge);
  challenge_proof_t p;
  p.comm_d_proofs = make_merkle_proof(cfg.sector.tree_d, s.tree_d.path(challenge));
  p.comm_r_last_proof = make_merkle_proof(cfg.sector.tree_r, s.tree_r_last.path(challenge));
  p.replica_column_proofs.c_x = column_proof(s, challenge);
  for (unsigned i = 0; i < DRG_DEGREE; ++i)
    p.replica_column_proofs.drg_parents[i] = column_proof(s, parents[i]);
  for (unsigned i = 0; i < EXP_DEGREE; ++i)
    p.replica_column_proofs.exp_parents[i] = column_proof(s, parents[DRG_DEGREE + i]);
  for (unsigned l = 1; l <= cfg.layers(); ++l) {
    labeling_proof_t lp;
    const auto slots = label_parent_slots(s.labels, l, parents);
    std::copy(slots.begin(), slots.end(), lp.parents.begin());
    lp.layer_index = l;
    lp.node = challenge;
    p.labeling_proofs.push_back(lp);
  }
  p.encoding_proof = p.labeling_proofs.back();
  return p;
}

std::vector<std::vector<challenge_proof_t>> prove_partitions(const sealed_sector_t& s,
                                                             const bytes32_t& seed,
                                                             thread_pool& pool) {
  const porep_config_t& cfg = s.config();
  std::vector<std::vector<challenge_proof_t>> out(cfg.partitions());
  std::vector<std::pair<unsigned, uint64_t>> jobs;  // (partition, challenge)
  for (unsigned k = 0; k < cfg.partitions(); ++k) {
    const auto ch = porep_challenges(cfg, s.replica_id, seed, s.comm_r, k);
    out[k].resize(ch.size());
    for (uint64_t c : ch) jobs.emplace_back(k, c);
  }
  pool.parallel_for(jobs.size(), [&](size_t j) {
    const unsigned cpp = cfg.challenges_per_partition();
    out[jobs[j].first][j % cpp] = prove_challenge(s, jobs[j].second);
  });
  return out;
}

result<c1_output_t> seal_commit_phase1(const sealed_sector_t& s, const bytes32_t& seed,
                                       thread_pool& pool) {
  if (!s.config().proof)
    return {status_code::invalid_argument, "a C1 output needs a registered seal proof"};
  c1_output_t c1;
  c1.registered_proof = std::string(name_of(*s.config().proof));
  c1.vanilla_proofs = prove_partitions(s, seed, pool);
  c1.comm_r = s.comm_r;
  c1.comm_d = s.comm_d;
  c1.replica_id = s.replica_id;
  c1.seed = seed;
  c1.ticket = s.request.ticket;
  return c1;
}

status verify_challenge_proof(const challenge_proof_t& p, const sdr_graph& g, unsigned layers,
                              const hash::tree_shape& tree_r_shape,
                              const challenge_publics_t& pub) {
  const uint64_t c = pub.challenge;
  if (c == 0 || c >= g.nodes())
    return {status_code::invalid_argument, "challenge out of range" + at(c)};
  if (auto st = check_sha(p.comm_d_proofs, c, pub.comm_d, "comm_d_proofs", c); !st) return st;
  if (p.comm_d_proofs.kind != merkle_proof_kind::single ||
      p.comm_d_proofs.path.size() != unsigned(std::countr_zero(g.nodes())))
    return {status_code::invalid_argument, "comm_d_proofs is not a full binary path" + at(c)};
  for (const auto& e : p.comm_d_proofs.path)
    if (e.num_hashes != 1)
      return {status_code::invalid_argument, "comm_d_proofs is not binary" + at(c)};
  if (auto st = check_poseidon(p.comm_r_last_proof, tree_r_shape, c, pub.comm_r_last,
                               "comm_r_last_proof", c);
      !st)
    return st;

  const auto& rcp = p.replica_column_proofs;
  const auto parents = g.parents(c);
  if (auto st = check_column(rcp.c_x, tree_r_shape, layers, c, pub.comm_c, "c_x", c); !st)
    return st;
  for (unsigned i = 0; i < DRG_DEGREE; ++i)
    if (auto st = check_column(rcp.drg_parents[i], tree_r_shape, layers, parents[i], pub.comm_c,
                               "drg_parents", c);
        !st)
      return st;
  for (unsigned i = 0; i < EXP_DEGREE; ++i)
    if (auto st = check_column(rcp.exp_parents[i], tree_r_shape, layers, parents[DRG_DEGREE + i],
                               pub.comm_c, "exp_parents", c);
        !st)
      return st;

  if (p.labeling_proofs.size() != layers)
    return {status_code::invalid_argument, "expected one labeling proof per layer" + at(c)};
  for (unsigned l = 1; l <= layers; ++l) {
    const labeling_proof_t& lp = p.labeling_proofs[l - 1];
    if (lp.layer_index != l || lp.node != c)
      return {status_code::invalid_argument,
              "labeling proof " + std::to_string(l) + " names the wrong layer or node" + at(c)};
    const unsigned base = l == 1 ? DRG_DEGREE : PARENT_COUNT;
    for (size_t slot = 0; slot < LABEL_PARENT_SLOTS; ++slot) {
      const unsigned q = unsigned(slot % base);
      const bytes32_t& want = q < DRG_DEGREE ? rcp.drg_parents[q].column.rows[l - 1]
                                             : rcp.exp_parents[q - DRG_DEGREE].column.rows[l - 2];
      if (lp.parents[slot] != want)
        return {status_code::invalid_argument, "labeling proof " + std::to_string(l) + " slot " +
                                                   std::to_string(slot) +
                                                   " is not the parent's label" + at(c)};
    }
    if (label_from_slots(pub.replica_id, l, c, lp.parents) != rcp.c_x.column.rows[l - 1])
      return {status_code::invalid_argument,
              "label of layer " + std::to_string(l) + " does not hash from its parents" + at(c)};
  }
  if (!(p.encoding_proof == p.labeling_proofs.back()))
    return {status_code::invalid_argument, "encoding proof differs from the last label" + at(c)};
  fr_t label, data, replica;
  if (!hash::bytes_to_fr(rcp.c_x.column.rows[layers - 1], label) ||
      !hash::bytes_to_fr(p.comm_d_proofs.leaf, data) ||
      !hash::bytes_to_fr(p.comm_r_last_proof.leaf, replica) || label + data != replica)
    return {status_code::invalid_argument, "replica leaf != label + data" + at(c)};
  return {};
}

status verify_c1_output(const c1_output_t& c1, const porep_config_t& cfg, thread_pool& pool) {
  if (c1.vanilla_proofs.size() != cfg.partitions())
    return {status_code::size_mismatch, "C1 has " + std::to_string(c1.vanilla_proofs.size()) +
                                            " partitions, the config " +
                                            std::to_string(cfg.partitions())};
  if (c1.vanilla_proofs.empty() || c1.vanilla_proofs[0].empty())
    return {status_code::size_mismatch, "C1 has no proofs"};
  challenge_publics_t pub;
  pub.replica_id = c1.replica_id;
  pub.comm_d = c1.comm_d;
  pub.comm_c = c1.vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof.root;
  pub.comm_r_last = c1.vanilla_proofs[0][0].comm_r_last_proof.root;
  fr_t pair[2];
  if (!hash::bytes_to_fr(pub.comm_c, pair[0]) || !hash::bytes_to_fr(pub.comm_r_last, pair[1]) ||
      hash::fr_to_bytes(hash::poseidon_hash(std::span<const fr_t>(pair, 2))) != c1.comm_r)
    return {status_code::invalid_argument, "comm_r != Poseidon_2(comm_c, comm_r_last)"};
  const sdr_graph g(cfg);
  // The shapes first, then every challenge proof in parallel (the first failure in partition
  // order is reported).
  std::vector<std::vector<uint64_t>> challenges(cfg.partitions());
  std::vector<std::pair<unsigned, size_t>> proofs;
  for (unsigned k = 0; k < cfg.partitions(); ++k) {
    challenges[k] = porep_challenges(cfg, c1.replica_id, c1.seed, c1.comm_r, k);
    const auto& part = c1.vanilla_proofs[k];
    if (part.size() != challenges[k].size())
      return {status_code::size_mismatch, "partition " + std::to_string(k) + " has " +
                                              std::to_string(part.size()) + " proofs, expected " +
                                              std::to_string(challenges[k].size())};
    for (size_t i = 0; i < part.size(); ++i) proofs.push_back({k, i});
  }
  return first_failure(proofs.size(), pool, [&](size_t t) -> status {
    const auto [k, i] = proofs[t];
    const challenge_proof_t& p = c1.vanilla_proofs[k][i];
    const uint64_t c = challenges[k][i];
    if (p.challenge() != c)
      return {status_code::invalid_argument, "partition " + std::to_string(k) + " proof " +
                                                 std::to_string(i) + " opens node " +
                                                 std::to_string(p.challenge()) +
                                                 ", the derived challenge is " + std::to_string(c)};
    challenge_publics_t mine = pub;
    mine.challenge = c;
    if (auto st = verify_challenge_proof(p, g, cfg.layers(), cfg.sector.tree_r, mine); !st)
      return {st.code(), "partition " + std::to_string(k) + ": " + st.message()};
    return {};
  });
}

}  // namespace cuzk::filecoin::porep
