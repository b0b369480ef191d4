// SPDX-License-Identifier: Apache-2.0
// serde JSON of SealCommitPhase1Output: a hand-written emitter (a byte-table for the 0..255
// integers that make up ~95% of the output) and a schema-driven reader on json::reader
// (simdjson On-Demand).
#include "filecoin/porep/c1_json.hpp"

#include <cstring>

#include "base/json_reader.hpp"
#include "filecoin/porep/config.hpp"

namespace cuzk::filecoin::porep {

result<std::string> vanilla_proof_variant(std::string_view registered_proof) {
  auto p = parse_registered_seal_proof(registered_proof);
  if (!p.ok() || registered_proof.empty() ||
      (registered_proof[0] >= '0' && registered_proof[0] <= '9'))
    return {status_code::invalid_argument,
            "unknown registered proof \"" + std::string(registered_proof) + "\""};
  const uint64_t size = sector_size_of(*p);
  return "StackedDrg" + sector_size_name(size) + "V1";
}

// ---- writer -------------------------------------------------------------------------------------

namespace {

/// "0," … "255," with lengths: one table lookup and one 4-byte store per byte value.
struct byte_text_t {
  std::array<std::array<char, 4>, 256> text{};
  std::array<uint8_t, 256> len{};
  byte_text_t() {
    for (unsigned v = 0; v < 256; ++v) {
      const std::string s = std::to_string(v) + ",";
      std::memcpy(text[v].data(), s.data(), s.size());
      len[v] = uint8_t(s.size());
    }
  }
};
const byte_text_t BYTE_TEXT;

class emitter {
 public:
  explicit emitter(size_t reserve) { buf_.resize(reserve); }

  void raw(std::string_view s) {
    ensure(s.size());
    std::memcpy(buf_.data() + n_, s.data(), s.size());
    n_ += s.size();
  }
  void ch(char c) {
    ensure(1);
    buf_[n_++] = c;
  }
  void u64(uint64_t v) {
    char tmp[24];
    int i = 24;
    do tmp[--i] = char('0' + v % 10), v /= 10;
    while (v);
    raw(std::string_view(tmp + i, size_t(24 - i)));
  }
  /// [b0,…,b31]
  void bytes32(const domain_t& d) {
    ensure(32 * 4 + 2);
    char* o = buf_.data() + n_;
    *o++ = '[';
    for (uint8_t b : d) {
      std::memcpy(o, BYTE_TEXT.text[b].data(), 4);
      o += BYTE_TEXT.len[b];
    }
    o[-1] = ']';  // replaces the last ','
    n_ = size_t(o - buf_.data());
  }
  template <class It>
  void bytes32_array(It first, It last) {
    ch('[');
    for (It it = first; it != last; ++it) {
      if (it != first) ch(',');
      bytes32(*it);
    }
    ch(']');
  }
  std::string take() {
    buf_.resize(n_);
    return std::move(buf_);
  }

 private:
  void ensure(size_t k) {
    if (n_ + k > buf_.size()) buf_.resize(std::max(buf_.size() * 2, n_ + k + 4096));
  }
  std::string buf_;
  size_t n_ = 0;
};

void write_path(emitter& e, const merkle_proof_t& p, size_t first, size_t count, size_t hash_off) {
  e.raw("{\"path\":[");
  for (size_t l = first; l < first + count; ++l) {
    if (l != first) e.ch(',');
    const auto& el = p.path[l];
    e.raw("{\"hashes\":");
    e.bytes32_array(p.hashes.begin() + ptrdiff_t(hash_off),
                    p.hashes.begin() + ptrdiff_t(hash_off + el.num_hashes));
    hash_off += el.num_hashes;
    e.raw(",\"index\":");
    e.u64(el.index);
    e.ch('}');
  }
  e.raw("]}");
}

void write_merkle(emitter& e, const merkle_proof_t& p) {
  size_t base_hashes = 0, sub_hashes = 0;
  for (size_t l = 0; l < p.base_len; ++l) base_hashes += p.path[l].num_hashes;
  for (size_t l = p.base_len; l < size_t(p.base_len) + p.sub_len; ++l)
    sub_hashes += p.path[l].num_hashes;
  e.raw("{\"data\":{");
  switch (p.kind) {
    case merkle_proof_kind::single:
      e.raw("\"Single\":{\"root\":");
      e.bytes32(p.root);
      e.raw(",\"leaf\":");
      e.bytes32(p.leaf);
      e.raw(",\"path\":");
      write_path(e, p, 0, p.base_len, 0);
      break;
    case merkle_proof_kind::sub:
    case merkle_proof_kind::top:
      e.raw(p.kind == merkle_proof_kind::sub ? "\"Sub\":{\"base_proof\":"
                                             : "\"Top\":{\"base_proof\":");
      write_path(e, p, 0, p.base_len, 0);
      e.raw(",\"sub_proof\":");
      write_path(e, p, p.base_len, p.sub_len, base_hashes);
      if (p.kind == merkle_proof_kind::top) {
        e.raw(",\"top_proof\":");
        write_path(e, p, size_t(p.base_len) + p.sub_len, p.top_len, base_hashes + sub_hashes);
      }
      e.raw(",\"root\":");
      e.bytes32(p.root);
      e.raw(",\"leaf\":");
      e.bytes32(p.leaf);
      break;
  }
  e.raw("}}}");  // closes the variant, "data" and the MerkleProof
}

void write_column_proof(emitter& e, const column_proof_t& c) {
  e.raw("{\"column\":{\"index\":");
  e.u64(c.column.index);
  e.raw(",\"rows\":");
  e.bytes32_array(c.column.rows.begin(), c.column.rows.end());
  e.raw(",\"_h\":null},\"inclusion_proof\":");
  write_merkle(e, c.inclusion_proof);
  e.ch('}');
}

void write_labeling(emitter& e, const labeling_proof_t& l) {
  e.raw("{\"parents\":");
  e.bytes32_array(l.parents.begin(), l.parents.end());
  e.raw(",\"layer_index\":");
  e.u64(l.layer_index);
  e.raw(",\"node\":");
  e.u64(l.node);
  e.ch('}');
}

void write_proof(emitter& e, const challenge_proof_t& p) {
  e.raw("{\"comm_d_proofs\":");
  write_merkle(e, p.comm_d_proofs);
  e.raw(",\"comm_r_last_proof\":");
  write_merkle(e, p.comm_r_last_proof);
  e.raw(",\"replica_column_proofs\":{\"c_x\":");
  write_column_proof(e, p.replica_column_proofs.c_x);
  e.raw(",\"drg_parents\":[");
  for (size_t i = 0; i < DRG_DEGREE; ++i) {
    if (i) e.ch(',');
    write_column_proof(e, p.replica_column_proofs.drg_parents[i]);
  }
  e.raw("],\"exp_parents\":[");
  for (size_t i = 0; i < EXP_DEGREE; ++i) {
    if (i) e.ch(',');
    write_column_proof(e, p.replica_column_proofs.exp_parents[i]);
  }
  e.raw("]},\"labeling_proofs\":[");
  for (size_t i = 0; i < p.labeling_proofs.size(); ++i) {
    if (i) e.ch(',');
    write_labeling(e, p.labeling_proofs[i]);
  }
  e.raw("],\"encoding_proof\":");
  write_labeling(e, p.encoding_proof);
  e.ch('}');
}

bool proof_well_formed(const challenge_proof_t& p) {
  if (!p.comm_d_proofs.well_formed() || !p.comm_r_last_proof.well_formed()) return false;
  const auto& r = p.replica_column_proofs;
  if (!r.c_x.inclusion_proof.well_formed()) return false;
  for (const auto& c : r.drg_parents)
    if (!c.inclusion_proof.well_formed()) return false;
  for (const auto& c : r.exp_parents)
    if (!c.inclusion_proof.well_formed()) return false;
  return true;
}

}  // namespace

result<std::string> write_c1_json(const c1_output_t& c1) {
  auto variant = vanilla_proof_variant(c1.registered_proof);
  if (!variant.ok()) return variant.error();
  size_t n_proofs = 0;
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k)
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      if (!proof_well_formed(c1.vanilla_proofs[k][i]))
        return {status_code::invalid_argument, "vanilla_proofs[" + std::to_string(k) + "][" +
                                                   std::to_string(i) +
                                                   "]: malformed Merkle proof (levels/hashes)"};
      ++n_proofs;
    }
  // ~280 KB per 32 GiB challenge proof; the emitter grows if this is short.
  emitter e(4096 + n_proofs * 300000);
  e.raw("{\"registered_proof\":\"");
  e.raw(c1.registered_proof);
  e.raw("\",\"vanilla_proofs\":{\"");
  e.raw(*variant);
  e.raw("\":[");
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    if (k) e.ch(',');
    e.ch('[');
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      if (i) e.ch(',');
      write_proof(e, c1.vanilla_proofs[k][i]);
    }
    e.ch(']');
  }
  e.raw("]},\"comm_r\":");
  e.bytes32(c1.comm_r);
  e.raw(",\"comm_d\":");
  e.bytes32(c1.comm_d);
  e.raw(",\"replica_id\":");
  e.bytes32(c1.replica_id);
  e.raw(",\"seed\":");
  e.bytes32(c1.seed);
  e.raw(",\"ticket\":");
  e.bytes32(c1.ticket);
  e.ch('}');
  return e.take();
}

// ---- reader -------------------------------------------------------------------------------------

namespace {

using json::path_t;

class c1_parser {
 public:
  explicit c1_parser(std::string_view text) : r_(text) {}

  json::reader& r() { return r_; }

  bool u32(const path_t* p, uint32_t& out) {
    uint64_t v = 0;
    if (!r_.read_uint(p, v, UINT32_MAX)) return false;
    out = uint32_t(v);
    return true;
  }

  /// An InclusionPath {"path": [{hashes, index}…]} appended to `m` as part `part`.
  bool inclusion_path(const path_t* p, merkle_proof_t& m, unsigned part) {
    uint32_t seen = 0;
    bool ok = r_.object(p, [&](std::string_view key, const path_t* kp) {
      if (key != "path") return r_.skip_value(kp);
      if (!r_.mark(kp, seen, 0)) return false;
      return r_.array(kp, [&](size_t, const path_t* ep) {
        path_element_t el;
        uint32_t eseen = 0;
        bool eok = r_.object(ep, [&](std::string_view k, const path_t* fp) {
          if (k == "hashes") {
            if (!r_.mark(fp, eseen, 0)) return false;
            const size_t before = m.hashes.size();
            bool hok = r_.array(fp, [&](size_t, const path_t* hp) {
              m.hashes.emplace_back();
              return r_.read_bytes32(hp, m.hashes.back());
            });
            el.num_hashes = uint32_t(m.hashes.size() - before);
            return hok;
          }
          if (k == "index") return r_.mark(fp, eseen, 1) && u32(fp, el.index);
          return r_.skip_value(fp);
        });
        if (!eok || !r_.require(ep, eseen, std::array{"hashes", "index"})) return false;
        m.path.push_back(el);
        (part == 0 ? m.base_len : part == 1 ? m.sub_len : m.top_len)++;
        return true;
      });
    });
    return ok && r_.require(p, seen, std::array{"path"});
  }

  bool merkle(const path_t* p, merkle_proof_t& m) {
    m.path.clear();
    m.hashes.clear();
    m.base_len = m.sub_len = m.top_len = 0;
    uint32_t seen = 0;
    bool ok = r_.object(p, [&](std::string_view key, const path_t* kp) {
      if (key != "data") return r_.skip_value(kp);
      if (!r_.mark(kp, seen, 0)) return false;
      unsigned variants = 0;
      bool dok = r_.object(kp, [&](std::string_view var, const path_t* vp) {
        if (variants++)
          return r_.fail(kp, "expected exactly one of \"Single\", \"Sub\", \"Top\"", false);
        if (var == "Single") return single(vp, m);
        if (var == "Sub") return compound(vp, m, merkle_proof_kind::sub);
        if (var == "Top") return compound(vp, m, merkle_proof_kind::top);
        return r_.fail(vp,
                       "unknown variant \"" + std::string(var) +
                           "\", expected one of \"Single\", \"Sub\", \"Top\"",
                       false);
      });
      if (dok && variants == 0)
        return r_.fail(kp, "expected one of \"Single\", \"Sub\", \"Top\"", false);
      return dok;
    });
    return ok && r_.require(p, seen, std::array{"data"});
  }

  bool single(const path_t* p, merkle_proof_t& m) {
    m.kind = merkle_proof_kind::single;
    uint32_t seen = 0;
    bool ok = r_.object(p, [&](std::string_view key, const path_t* kp) {
      if (key == "root") return r_.mark(kp, seen, 0) && r_.read_bytes32(kp, m.root);
      if (key == "leaf") return r_.mark(kp, seen, 1) && r_.read_bytes32(kp, m.leaf);
      if (key == "path") return r_.mark(kp, seen, 2) && inclusion_path(kp, m, 0);
      return r_.skip_value(kp);
    });
    return ok && r_.require(p, seen, std::array{"root", "leaf", "path"});
  }

  /// Sub {base_proof, sub_proof, root, leaf} / Top {…, top_proof, …}. Parts are appended as they
  /// come; if a producer wrote them out of order they are put back in base/sub/top order.
  bool compound(const path_t* p, merkle_proof_t& m, merkle_proof_kind kind) {
    m.kind = kind;
    struct seg_t {
      size_t level = 0, levels = 0, hash = 0, hashes = 0;
    };
    std::array<seg_t, 3> seg{};
    std::array<unsigned, 3> order{};
    unsigned n_parts = 0;
    uint32_t seen = 0;
    auto part = [&](unsigned which, const path_t* kp) {
      seg[which] = {m.path.size(), 0, m.hashes.size(), 0};
      order[n_parts++] = which;
      if (!inclusion_path(kp, m, which)) return false;
      seg[which].levels = m.path.size() - seg[which].level;
      seg[which].hashes = m.hashes.size() - seg[which].hash;
      return true;
    };
    const bool top = kind == merkle_proof_kind::top;
    bool ok = r_.object(p, [&](std::string_view key, const path_t* kp) {
      if (key == "base_proof") return r_.mark(kp, seen, 0) && part(0, kp);
      if (key == "sub_proof") return r_.mark(kp, seen, 1) && part(1, kp);
      if (key == "root") return r_.mark(kp, seen, 2) && r_.read_bytes32(kp, m.root);
      if (key == "leaf") return r_.mark(kp, seen, 3) && r_.read_bytes32(kp, m.leaf);
      if (top && key == "top_proof") return r_.mark(kp, seen, 4) && part(2, kp);
      return r_.skip_value(kp);
    });
    if (!ok) return false;
    if (top ? !r_.require(p, seen,
                          std::array{"base_proof", "sub_proof", "root", "leaf", "top_proof"})
            : !r_.require(p, seen, std::array{"base_proof", "sub_proof", "root", "leaf"}))
      return false;
    bool in_order = true;
    for (unsigned i = 0; i < n_parts; ++i) in_order &= order[i] == i;
    if (!in_order) {
      std::vector<path_element_t> path;
      std::vector<domain_t> hashes;
      for (unsigned w = 0; w < n_parts; ++w) {
        const seg_t& s = seg[w];
        path.insert(path.end(), m.path.begin() + ptrdiff_t(s.level),
                    m.path.begin() + ptrdiff_t(s.level + s.levels));
        hashes.insert(hashes.end(), m.hashes.begin() + ptrdiff_t(s.hash),
                      m.hashes.begin() + ptrdiff_t(s.hash + s.hashes));
      }
      m.path = std::move(path);
      m.hashes = std::move(hashes);
    }
    return true;
  }

  bool column_proof(const path_t* p, column_proof_t& c) {
    uint32_t seen = 0;
    bool ok = r_.object(p, [&](std::string_view key, const path_t* kp) {
      if (key == "column") {
        if (!r_.mark(kp, seen, 0)) return false;
        uint32_t cseen = 0;
        c.column.rows.clear();
        bool cok = r_.object(kp, [&](std::string_view k, const path_t* fp) {
          if (k == "index") return r_.mark(fp, cseen, 0) && u32(fp, c.column.index);
          if (k == "rows")
            return r_.mark(fp, cseen, 1) && r_.array(fp, [&](size_t, const path_t* ep) {
              c.column.rows.emplace_back();
              return r_.read_bytes32(ep, c.column.rows.back());
            });
          if (k == "_h") return r_.mark(fp, cseen, 2) && r_.read_null(fp);
          return r_.skip_value(fp);
        });
        // "_h" (PhantomData) is accepted when absent.
        return cok && r_.require(kp, cseen, std::array{"index", "rows", "_h"}, 1u << 2);
      }
      if (key == "inclusion_proof") return r_.mark(kp, seen, 1) && merkle(kp, c.inclusion_proof);
      return r_.skip_value(kp);
    });
    return ok && r_.require(p, seen, std::array{"column", "inclusion_proof"});
  }

  template <size_t N>
  bool column_array(const path_t* p, std::array<column_proof_t, N>& out) {
    size_t n = 0;
    bool ok = r_.array(p, [&](size_t i, const path_t* ep) {
      if (i >= N) return r_.fail(p, "expected " + std::to_string(N) + " elements, got more", false);
      ++n;
      return column_proof(ep, out[i]);
    });
    if (ok && n != N)
      return r_.fail(p, "expected " + std::to_string(N) + " elements, got " + std::to_string(n),
                     false);
    return ok;
  }

  bool labeling(const path_t* p, labeling_proof_t& l) {
    uint32_t seen = 0;
    bool ok = r_.object(p, [&](std::string_view key, const path_t* kp) {
      if (key == "parents") {
        if (!r_.mark(kp, seen, 0)) return false;
        size_t n = 0;
        bool aok = r_.array(kp, [&](size_t i, const path_t* ep) {
          if (i >= TOTAL_PARENTS)
            return r_.fail(kp, "expected " + std::to_string(TOTAL_PARENTS) + " parents, got more",
                           false);
          ++n;
          return r_.read_bytes32(ep, l.parents[i]);
        });
        if (aok && n != TOTAL_PARENTS)
          return r_.fail(
              kp,
              "expected " + std::to_string(TOTAL_PARENTS) + " parents, got " + std::to_string(n),
              false);
        return aok;
      }
      if (key == "layer_index") return r_.mark(kp, seen, 1) && u32(kp, l.layer_index);
      if (key == "node") return r_.mark(kp, seen, 2) && r_.read_uint(kp, l.node, UINT64_MAX);
      return r_.skip_value(kp);
    });
    return ok && r_.require(p, seen, std::array{"parents", "layer_index", "node"});
  }

  bool proof(const path_t* p, challenge_proof_t& out) {
    uint32_t seen = 0;
    bool ok = r_.object(p, [&](std::string_view key, const path_t* kp) {
      if (key == "comm_d_proofs") return r_.mark(kp, seen, 0) && merkle(kp, out.comm_d_proofs);
      if (key == "comm_r_last_proof")
        return r_.mark(kp, seen, 1) && merkle(kp, out.comm_r_last_proof);
      if (key == "replica_column_proofs") {
        if (!r_.mark(kp, seen, 2)) return false;
        auto& rc = out.replica_column_proofs;
        uint32_t rseen = 0;
        bool rok = r_.object(kp, [&](std::string_view k, const path_t* fp) {
          if (k == "c_x") return r_.mark(fp, rseen, 0) && column_proof(fp, rc.c_x);
          if (k == "drg_parents") return r_.mark(fp, rseen, 1) && column_array(fp, rc.drg_parents);
          if (k == "exp_parents") return r_.mark(fp, rseen, 2) && column_array(fp, rc.exp_parents);
          return r_.skip_value(fp);
        });
        return rok && r_.require(kp, rseen, std::array{"c_x", "drg_parents", "exp_parents"});
      }
      if (key == "labeling_proofs") {
        if (!r_.mark(kp, seen, 3)) return false;
        out.labeling_proofs.clear();
        return r_.array(kp, [&](size_t, const path_t* ep) {
          out.labeling_proofs.emplace_back();
          return labeling(ep, out.labeling_proofs.back());
        });
      }
      if (key == "encoding_proof") return r_.mark(kp, seen, 4) && labeling(kp, out.encoding_proof);
      return r_.skip_value(kp);
    });
    return ok &&
           r_.require(p, seen,
                      std::array{"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                 "labeling_proofs", "encoding_proof"});
  }

  bool c1(c1_output_t& out, std::string& variant) {
    const path_t root{};
    uint32_t seen = 0;
    bool ok = r_.object(&root, [&](std::string_view key, const path_t* kp) {
      if (key == "registered_proof") {
        std::string_view s;
        if (!r_.mark(kp, seen, 0) || !r_.read_string(kp, s)) return false;
        out.registered_proof.assign(s);
        if (!vanilla_proof_variant(out.registered_proof).ok())
          return r_.fail(kp, "unknown variant \"" + out.registered_proof + "\"", false);
        return true;
      }
      if (key == "vanilla_proofs") {
        if (!r_.mark(kp, seen, 1)) return false;
        unsigned variants = 0;
        bool vok = r_.object(kp, [&](std::string_view var, const path_t* vp) {
          if (variants++) return r_.fail(kp, "expected exactly one variant", false);
          static constexpr std::array<std::string_view, 5> NAMES = {
              "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1",
              "StackedDrg64GiBV1"};
          bool known = false;
          for (auto n : NAMES) known |= var == n;
          if (!known)
            return r_.fail(vp,
                           "unknown variant \"" + std::string(var) +
                               "\", expected one of StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1",
                           false);
          variant.assign(var);
          return r_.array(vp, [&](size_t, const path_t* pp) {
            out.vanilla_proofs.emplace_back();
            auto& part = out.vanilla_proofs.back();
            return r_.array(pp, [&](size_t, const path_t* cp) {
              part.emplace_back();
              return proof(cp, part.back());
            });
          });
        });
        if (vok && variants == 0) return r_.fail(kp, "expected one variant", false);
        return vok;
      }
      if (key == "comm_r") return r_.mark(kp, seen, 2) && r_.read_bytes32(kp, out.comm_r);
      if (key == "comm_d") return r_.mark(kp, seen, 3) && r_.read_bytes32(kp, out.comm_d);
      if (key == "replica_id") return r_.mark(kp, seen, 4) && r_.read_bytes32(kp, out.replica_id);
      if (key == "seed") return r_.mark(kp, seen, 5) && r_.read_bytes32(kp, out.seed);
      if (key == "ticket") return r_.mark(kp, seen, 6) && r_.read_bytes32(kp, out.ticket);
      return r_.skip_value(kp);
    });
    if (!ok || !r_.require(&root, seen,
                           std::array{"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                      "replica_id", "seed", "ticket"}))
      return false;
    if (!r_.at_end()) return r_.fail(&root, "trailing characters after the object");
    auto want = vanilla_proof_variant(out.registered_proof);
    if (*want != variant) {
      const path_t vp{&root, "vanilla_proofs", -1};
      return r_.fail(&vp,
                     "variant \"" + variant + "\" does not match registered_proof \"" +
                         out.registered_proof + "\" (expected \"" + *want + "\")",
                     false);
    }
    return true;
  }

 private:
  json::reader r_;
};

}  // namespace

result<c1_output_t> parse_c1_json(std::string_view text) {
  c1_parser p(text);
  c1_output_t out;
  std::string variant;
  if (!p.c1(out, variant)) return p.r().error();
  return out;
}

}  // namespace cuzk::filecoin::porep
