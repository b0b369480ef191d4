// SPDX-License-Identifier: Apache-2.0
// Test-only native checker of a C1 output, written from docs/spec/porep.md §2–§6 and c1.md §1 with
// OpenSSL's SHA-256 as the hash (independent of cuzk's SHA and of the generators): replica_id,
// interactive challenges, every Merkle path (tree_d recomputed with OpenSSL, Poseidon trees with
// hash::verify_path), common roots, comm_r, column hashes, labels = SHA of their recorded
// parents, parents = the graph's, labeling parents = the parent columns' rows, encoding.
// Returns "" when everything holds, else the first failure.
#pragma once

#include <openssl/sha.h>

#include <string>

#include "filecoin/hash/merkle.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/porep/graph.hpp"
#include "filecoin/porep/vanilla_proof.hpp"

namespace cuzk::filecoin::porep::test {

inline domain_t ossl_sha_trunc(const std::vector<uint8_t>& m) {
  domain_t d;
  SHA256(m.data(), m.size(), d.data());
  d[31] &= 0x3f;
  return d;
}

/// 256-bit LE integer mod n (n < 2^63), by Horner over the bytes from the top.
inline uint64_t mod_le256(const uint8_t h[32], uint64_t n) {
  unsigned __int128 r = 0;
  for (int i = 31; i >= 0; --i) r = ((r << 8) | h[i]) % n;
  return uint64_t(r);
}

inline bool ossl_verify_sha_path(const merkle_proof_t& p) {
  domain_t cur = p.leaf;
  size_t off = 0;
  for (const auto& e : p.path) {
    if (e.num_hashes != 1 || e.index > 1) return false;
    std::vector<uint8_t> m;
    const domain_t& sib = p.hashes[off++];
    const domain_t& l = e.index ? sib : cur;
    const domain_t& r = e.index ? cur : sib;
    m.insert(m.end(), l.begin(), l.end());
    m.insert(m.end(), r.begin(), r.end());
    cur = ossl_sha_trunc(m);
  }
  return cur == p.root;
}

/// Expected (kind, number of levels, arity per level) of a tree_r / tree_c proof.
inline bool shape_matches(const merkle_proof_t& p, const hash::tree_shape& s) {
  const auto kind = s.top_arity   ? merkle_proof_kind::top
                    : s.sub_arity ? merkle_proof_kind::sub
                                  : merkle_proof_kind::single;
  if (p.kind != kind || p.path.size() != s.height() || !p.well_formed()) return false;
  if (p.base_len != s.base_height()) return false;
  for (unsigned l = 0; l < s.height(); ++l)
    if (p.path[l].num_hashes + 1 != s.arity_at(l)) return false;
  return true;
}

inline bool poseidon_path_ok(const merkle_proof_t& p) {
  hash::merkle_path<ff::fr_t> fp;
  return to_poseidon_path(p, fp) && hash::verify_path<hash::poseidon_hasher>(fp);
}

/// Full check. `prover_id`/`sector_id` are the public inputs C2 gets separately.
inline std::string check_c1(const c1_output_t& c1, const bytes32_t& prover_id, uint64_t sector_id,
                            bool check_challenges = true) {
  auto rp = parse_registered_seal_proof(c1.registered_proof);
  if (!rp.ok()) return "unknown registered proof";
  auto cfg_r = porep_config(*rp);
  if (!cfg_r.ok()) return "no config";
  const porep_config_t& cfg = *cfg_r;
  const unsigned L = cfg.layers();
  const uint64_t nodes = cfg.nodes();

  // replica_id (docs/spec/porep.md §2), sector id big-endian.
  {
    std::vector<uint8_t> m(prover_id.begin(), prover_id.end());
    for (int i = 7; i >= 0; --i) m.push_back(uint8_t(sector_id >> (8 * i)));
    m.insert(m.end(), c1.ticket.begin(), c1.ticket.end());
    m.insert(m.end(), c1.comm_d.begin(), c1.comm_d.end());
    m.insert(m.end(), cfg.porep_id.begin(), cfg.porep_id.end());
    if (ossl_sha_trunc(m) != c1.replica_id) return "replica_id mismatch";
  }
  if (c1.vanilla_proofs.size() != cfg.partitions()) return "partition count";
  const sdr_graph graph(cfg);

  // Common roots.
  const domain_t comm_r_last = c1.vanilla_proofs[0][0].comm_r_last_proof.root;
  const domain_t comm_c = c1.vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof.root;
  {
    ff::fr_t in[2];
    if (!hash::bytes_to_fr(comm_c, in[0]) || !hash::bytes_to_fr(comm_r_last, in[1]))
      return "non-canonical root";
    if (hash::fr_to_bytes(hash::poseidon_hash(std::span<const ff::fr_t>(in, 2))) != c1.comm_r)
      return "comm_r != Poseidon_2(comm_c, comm_r_last)";
  }

  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    const auto& part = c1.vanilla_proofs[k];
    if (part.size() != cfg.challenges_per_partition()) return "challenge count";
    for (size_t i = 0; i < part.size(); ++i) {
      std::string where = "[";
      where.append(std::to_string(k)).append("][").append(std::to_string(i)).append("] ");
      const challenge_proof_t& p = part[i];
      if (p.labeling_proofs.size() != L) return where + "labeling proof count";
      const uint64_t c = p.challenge();
      if (check_challenges) {
        std::vector<uint8_t> m(c1.replica_id.begin(), c1.replica_id.end());
        m.insert(m.end(), c1.seed.begin(), c1.seed.end());
        const uint32_t j = uint32_t(cfg.challenges_per_partition() * k + i);
        for (int b = 0; b < 4; ++b) m.push_back(uint8_t(j >> (8 * b)));
        domain_t h;
        SHA256(m.data(), m.size(), h.data());
        if (mod_le256(h.data(), nodes - 1) + 1 != c) return where + "challenge derivation";
      }
      // tree_d
      const auto& d = p.comm_d_proofs;
      if (d.kind != merkle_proof_kind::single || d.path.size() != cfg.sector.tree_d_depth())
        return where + "tree_d shape";
      if (d.root != c1.comm_d || d.leaf_index() != c || !ossl_verify_sha_path(d))
        return where + "tree_d path";
      // tree_r_last
      const auto& r = p.comm_r_last_proof;
      if (!shape_matches(r, cfg.sector.tree_r) || r.root != comm_r_last || r.leaf_index() != c ||
          !poseidon_path_ok(r))
        return where + "tree_r_last path";
      // encoding: replica = label_L + data (Fr)
      {
        ff::fr_t lab, dat, rep;
        if (!hash::bytes_to_fr(p.replica_column_proofs.c_x.column.rows.at(L - 1), lab) ||
            !hash::bytes_to_fr(d.leaf, dat) || !hash::bytes_to_fr(r.leaf, rep) ||
            !(lab + dat == rep))
          return where + "encoding";
      }
      // columns
      const auto parents = graph.parents(c);
      auto col_ok = [&](const column_proof_t& cp, uint64_t v) {
        if (cp.column.index != v || cp.column.rows.size() != L) return false;
        const auto& ip = cp.inclusion_proof;
        if (!shape_matches(ip, cfg.sector.tree_r) || ip.root != comm_c || ip.leaf_index() != v ||
            !poseidon_path_ok(ip))
          return false;
        std::vector<ff::fr_t> col(L);
        for (unsigned l = 0; l < L; ++l)
          if (!hash::bytes_to_fr(cp.column.rows[l], col[l])) return false;
        return hash::fr_to_bytes(hash::poseidon_hash(col)) == ip.leaf;
      };
      const auto& rc = p.replica_column_proofs;
      if (!col_ok(rc.c_x, c)) return where + "c_x column";
      for (unsigned j = 0; j < DRG_DEGREE; ++j)
        if (!col_ok(rc.drg_parents[j], parents[j])) return where + "drg column";
      for (unsigned j = 0; j < EXP_DEGREE; ++j)
        if (!col_ok(rc.exp_parents[j], parents[DRG_DEGREE + j])) return where + "exp column";
      // labels
      for (unsigned l = 1; l <= L; ++l) {
        const auto& lp = p.labeling_proofs[l - 1];
        if (lp.layer_index != l || lp.node != c) return where + "labeling header";
        const unsigned nb = l == 1 ? DRG_DEGREE : DRG_DEGREE + EXP_DEGREE;
        for (unsigned s = 0; s < TOTAL_PARENTS; ++s) {
          const unsigned j = s % nb;
          const domain_t& want = j < DRG_DEGREE ? rc.drg_parents[j].column.rows[l - 1]
                                                : rc.exp_parents[j - DRG_DEGREE].column.rows[l - 2];
          if (lp.parents[s] != want) return where + "labeling parents vs columns";
        }
        std::vector<uint8_t> m(c1.replica_id.begin(), c1.replica_id.end());
        for (int b = 3; b >= 0; --b) m.push_back(uint8_t(l >> (8 * b)));
        for (int b = 7; b >= 0; --b) m.push_back(uint8_t(c >> (8 * b)));
        m.resize(m.size() + 20, 0);
        for (const auto& x : lp.parents) m.insert(m.end(), x.begin(), x.end());
        if (ossl_sha_trunc(m) != rc.c_x.column.rows[l - 1]) return where + "label hash";
      }
      if (!(p.encoding_proof == p.labeling_proofs[L - 1])) return where + "encoding proof";
    }
  }
  return "";
}

}  // namespace cuzk::filecoin::porep::test
