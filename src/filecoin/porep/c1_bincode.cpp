// SPDX-License-Identifier: Apache-2.0
// bincode v1 C1 reader on bincode::reader (every Vec length is checked against the bytes left,
// times the element's minimum encoded size, before anything is allocated).
#include "filecoin/porep/c1_bincode.hpp"

#include "filecoin/common/bincode.hpp"
#include "filecoin/porep/c1_json.hpp"

namespace cuzk::filecoin::porep {
namespace {

namespace bincode = common::bincode;
using bincode::path_t;
using bin_reader = bincode::reader;

class c1_bin_parser {
 public:
  explicit c1_bin_parser(std::span<const uint8_t> b) : r_(b) {}
  bin_reader& r() { return r_; }

  bool merkle(const path_t* p, merkle_proof_t& m) { return bincode::read_merkle_proof(r_, p, m); }

  bool column_proof(const path_t* p, column_proof_t& c) {
    const path_t cp{p, "column", -1};
    const path_t ip{&cp, "index", -1}, rp{&cp, "rows", -1};
    uint64_t n = 0;
    if (!r_.le(&ip, c.column.index) || !r_.length(&rp, n, 32)) return false;
    c.column.rows.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
      const path_t ep{&rp, {}, int64_t(i)};
      if (!r_.bytes32(&ep, c.column.rows[i])) return false;
    }
    const path_t mp{p, "inclusion_proof", -1};
    return merkle(&mp, c.inclusion_proof);
  }

  template <size_t N>
  bool column_array(const path_t* p, std::array<column_proof_t, N>& out) {
    uint64_t n = 0;
    if (!r_.length(p, n, 0)) return false;
    if (n != N)
      return r_.fail(p, "expected " + std::to_string(N) + " elements, got " + std::to_string(n));
    for (size_t i = 0; i < N; ++i) {
      const path_t ep{p, {}, int64_t(i)};
      if (!column_proof(&ep, out[i])) return false;
    }
    return true;
  }

  bool labeling(const path_t* p, labeling_proof_t& l) {
    const path_t pp{p, "parents", -1};
    uint64_t n = 0;
    if (!r_.length(&pp, n, 32)) return false;
    if (n != TOTAL_PARENTS)
      return r_.fail(
          &pp, "expected " + std::to_string(TOTAL_PARENTS) + " parents, got " + std::to_string(n));
    for (size_t i = 0; i < TOTAL_PARENTS; ++i) {
      const path_t ep{&pp, {}, int64_t(i)};
      if (!r_.bytes32(&ep, l.parents[i])) return false;
    }
    const path_t lp{p, "layer_index", -1}, np{p, "node", -1};
    return r_.le(&lp, l.layer_index) && r_.le(&np, l.node);
  }

  bool proof(const path_t* p, challenge_proof_t& out) {
    const path_t d{p, "comm_d_proofs", -1}, rl{p, "comm_r_last_proof", -1};
    if (!merkle(&d, out.comm_d_proofs) || !merkle(&rl, out.comm_r_last_proof)) return false;
    const path_t rc{p, "replica_column_proofs", -1};
    const path_t cx{&rc, "c_x", -1}, dp{&rc, "drg_parents", -1}, xp{&rc, "exp_parents", -1};
    auto& r = out.replica_column_proofs;
    if (!column_proof(&cx, r.c_x) || !column_array(&dp, r.drg_parents) ||
        !column_array(&xp, r.exp_parents))
      return false;
    const path_t lp{p, "labeling_proofs", -1};
    uint64_t n = 0;
    if (!r_.length(&lp, n, TOTAL_PARENTS * 32 + 20)) return false;
    out.labeling_proofs.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
      const path_t ep{&lp, {}, int64_t(i)};
      if (!labeling(&ep, out.labeling_proofs[i])) return false;
    }
    const path_t ep{p, "encoding_proof", -1};
    return labeling(&ep, out.encoding_proof);
  }

  bool c1(c1_output_t& out) {
    const path_t root{};
    const path_t vp{&root, "vanilla_proofs", -1};
    uint64_t parts = 0;
    // The smallest Proof is well over 1 KB (37 parents alone are 1,184 bytes).
    if (!r_.length(&vp, parts, 8)) return false;
    out.vanilla_proofs.resize(parts);
    for (uint64_t k = 0; k < parts; ++k) {
      const path_t kp{&vp, {}, int64_t(k)};
      uint64_t n = 0;
      if (!r_.length(&kp, n, 1024)) return false;
      out.vanilla_proofs[k].resize(n);
      for (uint64_t i = 0; i < n; ++i) {
        const path_t ip{&kp, {}, int64_t(i)};
        if (!proof(&ip, out.vanilla_proofs[k][i])) return false;
      }
    }
    const path_t cr{&root, "comm_r", -1}, cd{&root, "comm_d", -1}, ri{&root, "replica_id", -1},
        sd{&root, "seed", -1}, tk{&root, "ticket", -1};
    if (!r_.bytes32(&cr, out.comm_r) || !r_.bytes32(&cd, out.comm_d) ||
        !r_.bytes32(&ri, out.replica_id) || !r_.bytes32(&sd, out.seed) ||
        !r_.bytes32(&tk, out.ticket))
      return false;
    if (r_.left() != 0)
      return r_.fail(&root, std::to_string(r_.left()) + " trailing bytes after the C1 output");
    return true;
  }

 private:
  bin_reader r_;
};

}  // namespace

result<c1_output_t> parse_c1_bincode(std::span<const uint8_t> bytes,
                                     std::string_view registered_proof) {
  if (auto v = vanilla_proof_variant(registered_proof); !v.ok()) return v.error();
  c1_bin_parser p(bytes);
  c1_output_t out;
  out.registered_proof.assign(registered_proof);
  if (!p.c1(out)) return p.r().error();
  return out;
}

}  // namespace cuzk::filecoin::porep
