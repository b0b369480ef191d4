// SPDX-License-Identifier: Apache-2.0
// Test-only: an independent minimal bincode v1 writer of the C1 (docs/spec/c1.md §2), written from
// the format's description and not from c1_bincode.cpp, so that the reader test has an oracle.
// Also writes the bincode seeds of the c1_bincode fuzz target (fuzz/seed_corpus.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "filecoin/porep/vanilla_proof.hpp"

namespace cuzk::filecoin::porep::test {

/// Independent minimal bincode v1 writer (docs/spec/c1.md §2), for the reader test.
struct bin_writer {
  std::vector<uint8_t> out;
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
  }
  void d(const domain_t& x) { out.insert(out.end(), x.begin(), x.end()); }
  void path(const merkle_proof_t& m, size_t first, size_t n, size_t& h) {
    u64(n);
    for (size_t l = first; l < first + n; ++l) {
      u64(m.path[l].num_hashes);
      for (uint32_t j = 0; j < m.path[l].num_hashes; ++j) d(m.hashes[h++]);
      u64(m.path[l].index);
    }
  }
  void merkle(const merkle_proof_t& m) {
    u32(uint32_t(m.kind));
    size_t h = 0;
    if (m.kind == merkle_proof_kind::single) {
      d(m.root);
      d(m.leaf);
      path(m, 0, m.base_len, h);
      return;
    }
    path(m, 0, m.base_len, h);
    path(m, m.base_len, m.sub_len, h);
    if (m.kind == merkle_proof_kind::top) path(m, m.base_len + m.sub_len, m.top_len, h);
    d(m.root);
    d(m.leaf);
  }
  void column(const column_proof_t& c) {
    u32(c.column.index);
    u64(c.column.rows.size());
    for (const auto& r : c.column.rows) d(r);
    merkle(c.inclusion_proof);
  }
  void labeling(const labeling_proof_t& l) {
    u64(l.parents.size());
    for (const auto& p : l.parents) d(p);
    u32(l.layer_index);
    u64(l.node);
  }
  void c1(const c1_output_t& c) {
    u64(c.vanilla_proofs.size());
    for (const auto& part : c.vanilla_proofs) {
      u64(part.size());
      for (const auto& p : part) {
        merkle(p.comm_d_proofs);
        merkle(p.comm_r_last_proof);
        column(p.replica_column_proofs.c_x);
        u64(6);
        for (const auto& x : p.replica_column_proofs.drg_parents) column(x);
        u64(8);
        for (const auto& x : p.replica_column_proofs.exp_parents) column(x);
        u64(p.labeling_proofs.size());
        for (const auto& l : p.labeling_proofs) labeling(l);
        labeling(p.encoding_proof);
      }
    }
    d(c.comm_r);
    d(c.comm_d);
    d(c.replica_id);
    d(c.seed);
    d(c.ticket);
  }
};

}  // namespace cuzk::filecoin::porep::test
