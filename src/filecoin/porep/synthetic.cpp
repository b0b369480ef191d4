// SPDX-License-Identifier: Apache-2.0
// Synthetic C1 generation. Cost for 32 GiB (180 challenges): ~2,700 distinct columns (challenges
// and their 14 parents) → 2,700 Poseidon-11 column hashes + ~2,700 × 10 sparse tree_c nodes
// (Poseidon-8, shrinking near the root), 180 × 10 tree_r_last nodes, 1,980 label hashes (20 SHA
// compressions each) and ~30k pseudo-random labels; everything else is a per-level default.
#include "filecoin/porep/synthetic.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "filecoin/hash/poseidon.hpp"
#include "filecoin/hash/sha256_trunc254.hpp"
#include "filecoin/hash/synthetic_trees.hpp"
#include "filecoin/porep/challenges.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/labels.hpp"
#include "filecoin/porep/replica_id.hpp"

namespace cuzk::filecoin::porep {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bytes32_t tagged_label(std::string_view tag, const bytes32_t& replica_id, const uint8_t* extra,
                       size_t extra_len) {
  cuzk::hash::sha256_t h;
  h.update(tag.data(), tag.size());
  h.update(replica_id.data(), 32);
  if (extra_len) h.update(extra, extra_len);
  auto d = h.finalize();
  hash::trim_to_fr32(d);
  return d;
}

ff::fr_t to_fr(const bytes32_t& b) {
  ff::fr_t x;
  // Labels are SHA256-trunc254 outputs (< 2^254 < r), so this never fails.
  (void)hash::bytes_to_fr(b, x);
  return x;
}

}  // namespace

bytes32_t synthetic_label(const bytes32_t& replica_id, unsigned layer, uint64_t node) {
  uint8_t extra[12];
  for (int i = 0; i < 4; ++i) extra[i] = uint8_t(layer >> (8 * i));
  for (int i = 0; i < 8; ++i) extra[4 + i] = uint8_t(node >> (8 * i));
  return tagged_label("cuzk/synthetic/label", replica_id, extra, sizeof extra);
}

bytes32_t synthetic_default_label(const bytes32_t& replica_id) {
  return tagged_label("cuzk/synthetic/default", replica_id, nullptr, 0);
}

result<c1_output_t> generate_synthetic_c1(const synthetic_request_t& req, thread_pool& pool,
                                          synthetic_stats_t* stats) {
  const porep_config_t& cfg = req.config;
  if (cfg.feature != api_feature::none)
    return status(status_code::invalid_argument,
                  "synthetic C1: only interactive PoRep (V1 / V1_1) is supported; the "
                  "SyntheticPoRep and NonInteractivePoRep challenges depend on comm_r");
  const uint64_t nodes = cfg.nodes();
  const unsigned L = cfg.layers();
  const unsigned parts = cfg.partitions(), cpp = cfg.challenges_per_partition();
  if (nodes < 2 || L < 1 || nodes > (uint64_t(1) << 32))
    return status(status_code::invalid_argument, "synthetic C1: bad sector config");
  synthetic_stats_t st;
  auto t0 = std::chrono::steady_clock::now();

  // CC sector: every tree_d leaf is zero, comm_d is the all-zero root (docs/spec/porep.md §5).
  size_t hash_count = 0;
  hash::sparse_tree<hash::sha256_hasher> tree_d(cfg.sector.tree_d, {}, hash::bytes32_t{}, pool,
                                                hash_count);
  const bytes32_t comm_d = tree_d.root();
  const bytes32_t replica_id =
      compute_replica_id(req.prover_id, req.sector_id, req.ticket, comm_d, cfg.porep_id);

  std::vector<std::vector<uint64_t>> challenges(parts);
  for (unsigned k = 0; k < parts; ++k)
    challenges[k] = interactive_challenges(replica_id, req.seed, nodes, cpp, k);

  // Parents of every challenged node, and the set of nodes that need labels.
  const sdr_graph graph(cfg);
  std::vector<uint64_t> chal_nodes;
  for (const auto& part : challenges) chal_nodes.insert(chal_nodes.end(), part.begin(), part.end());
  std::sort(chal_nodes.begin(), chal_nodes.end());
  chal_nodes.erase(std::unique(chal_nodes.begin(), chal_nodes.end()), chal_nodes.end());
  std::vector<std::array<uint32_t, PARENT_COUNT>> chal_parents(chal_nodes.size());
  pool.parallel_for(chal_nodes.size(),
                    [&](size_t i) { graph.parents(chal_nodes[i], chal_parents[i].data()); });
  std::vector<uint64_t> label_nodes = chal_nodes;
  for (const auto& ps : chal_parents) label_nodes.insert(label_nodes.end(), ps.begin(), ps.end());
  std::sort(label_nodes.begin(), label_nodes.end());
  label_nodes.erase(std::unique(label_nodes.begin(), label_nodes.end()), label_nodes.end());
  auto pos_of = [&](uint64_t v) {
    return size_t(std::lower_bound(label_nodes.begin(), label_nodes.end(), v) -
                  label_nodes.begin());
  };
  st.challenges = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();

  // Labels, node-major: labels[pos·L + (l − 1)]. Non-challenged nodes first (pseudo-random, node
  // 0 gets its true parentless label), then challenged nodes layer by layer in increasing node
  // order, so a DRG parent (always < v) that is itself challenged is final before it is used.
  std::vector<bytes32_t> labels(label_nodes.size() * L);
  std::vector<uint8_t> is_chal(label_nodes.size(), 0);
  for (uint64_t c : chal_nodes) is_chal[pos_of(c)] = 1;
  pool.parallel_for(label_nodes.size(), [&](size_t i) {
    if (is_chal[i]) return;
    for (unsigned l = 1; l <= L; ++l)
      labels[i * L + l - 1] = label_nodes[i] == 0 ? label_node_zero(replica_id, l)
                                                  : synthetic_label(replica_id, l, label_nodes[i]);
  });
  // slots[c][l − 1]: the 37 parent slots of label(l, c) (kept for the labeling proofs).
  std::vector<std::array<bytes32_t, TOTAL_PARENTS>> slots(chal_nodes.size() * L);
  for (unsigned l = 1; l <= L; ++l) {
    for (size_t ci = 0; ci < chal_nodes.size(); ++ci) {
      const auto& ps = chal_parents[ci];
      bytes32_t base[PARENT_COUNT];
      const unsigned n_base = l == 1 ? DRG_DEGREE : PARENT_COUNT;
      for (unsigned j = 0; j < n_base; ++j) {
        const unsigned layer = j < DRG_DEGREE ? l : l - 1;  // expander parents: previous layer
        base[j] = labels[pos_of(ps[j]) * L + layer - 1];
      }
      auto& s = slots[ci * L + l - 1];
      for (size_t k = 0; k < TOTAL_PARENTS; ++k) s[k] = base[k % n_base];
      labels[pos_of(chal_nodes[ci]) * L + l - 1] =
          label_from_slots(replica_id, l, chal_nodes[ci], s);
    }
  }
  st.labels = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();

  // tree_c over column hashes, tree_r_last over replica = label_L + 0.
  const bytes32_t default_label = synthetic_default_label(replica_id);
  auto column_hash_of = [&](const bytes32_t* rows) {
    std::vector<ff::fr_t> col(L);
    for (unsigned l = 0; l < L; ++l) col[l] = to_fr(rows[l]);
    return hash::poseidon_hash(col);
  };
  std::vector<bytes32_t> default_rows(L, default_label);
  std::vector<std::pair<uint64_t, ff::fr_t>> c_leaves(label_nodes.size());
  pool.parallel_for(label_nodes.size(), [&](size_t i) {
    c_leaves[i] = {label_nodes[i], column_hash_of(&labels[i * L])};
  });
  hash_count += label_nodes.size();
  hash::sparse_tree<hash::poseidon_hasher> tree_c(
      cfg.sector.tree_r, c_leaves, column_hash_of(default_rows.data()), pool, hash_count);
  std::vector<std::pair<uint64_t, ff::fr_t>> r_leaves;
  for (uint64_t c : chal_nodes) r_leaves.push_back({c, to_fr(labels[pos_of(c) * L + L - 1])});
  hash::sparse_tree<hash::poseidon_hasher> tree_r(cfg.sector.tree_r, r_leaves, to_fr(default_label),
                                                  pool, hash_count);
  const ff::fr_t comm_c = tree_c.root(), comm_r_last = tree_r.root();
  const ff::fr_t roots[2] = {comm_c, comm_r_last};
  const ff::fr_t comm_r = hash::poseidon_hash(std::span<const ff::fr_t>(roots, 2));
  st.trees = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();

  c1_output_t out;
  if (cfg.proof) out.registered_proof = std::string(name_of(*cfg.proof));
  out.comm_r = hash::fr_to_bytes(comm_r);
  out.comm_d = comm_d;
  out.replica_id = replica_id;
  out.seed = req.seed;
  out.ticket = req.ticket;
  out.vanilla_proofs.resize(parts);
  for (auto& p : out.vanilla_proofs) p.resize(cpp);

  auto column_proof = [&](uint64_t v, column_proof_t& cp) {
    const size_t pos = pos_of(v);
    cp.column.index = uint32_t(v);
    cp.column.rows.assign(labels.begin() + ptrdiff_t(pos * L),
                          labels.begin() + ptrdiff_t(pos * L + L));
    cp.inclusion_proof = make_merkle_proof(cfg.sector.tree_r, tree_c.path(v));
  };
  pool.parallel_for(size_t(parts) * cpp, [&](size_t t) {
    const unsigned k = unsigned(t / cpp), i = unsigned(t % cpp);
    const uint64_t c = challenges[k][i];
    const size_t ci =
        size_t(std::lower_bound(chal_nodes.begin(), chal_nodes.end(), c) - chal_nodes.begin());
    const auto& ps = chal_parents[ci];
    challenge_proof_t& p = out.vanilla_proofs[k][i];
    p.comm_d_proofs = make_merkle_proof(cfg.sector.tree_d, tree_d.path(c));
    p.comm_r_last_proof = make_merkle_proof(cfg.sector.tree_r, tree_r.path(c));
    column_proof(c, p.replica_column_proofs.c_x);
    for (unsigned j = 0; j < DRG_DEGREE; ++j)
      column_proof(ps[j], p.replica_column_proofs.drg_parents[j]);
    for (unsigned j = 0; j < EXP_DEGREE; ++j)
      column_proof(ps[DRG_DEGREE + j], p.replica_column_proofs.exp_parents[j]);
    p.labeling_proofs.resize(L);
    for (unsigned l = 1; l <= L; ++l) {
      auto& lp = p.labeling_proofs[l - 1];
      lp.parents = slots[ci * L + l - 1];
      lp.layer_index = l;
      lp.node = c;
    }
    p.encoding_proof = p.labeling_proofs[L - 1];
  });
  st.proofs = seconds_since(t0);
  st.real_columns = label_nodes.size();
  st.poseidon_hashes = hash_count;
  if (stats) *stats = st;
  return out;
}

}  // namespace cuzk::filecoin::porep
