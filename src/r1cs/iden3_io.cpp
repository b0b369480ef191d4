// SPDX-License-Identifier: Apache-2.0
// iden3 .r1cs / .wtns readers and writers. Both files share iden3's "binfile" container:
//   magic (4 ASCII bytes) ‖ version u32 ‖ nSections u32 ‖ nSections × (type u32 ‖ size u64 ‖ data)
// all integers little-endian. Field elements are n8-byte canonical little-endian integers (not
// Montgomery: r1csfile's reader converts with F.fromRprLE, i.e. into Montgomery after reading).
#include "r1cs/iden3_io.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <optional>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "base/mmap_file.hpp"
#include "r1cs/assignment_data.hpp"

namespace cuzk::r1cs {
namespace {

using ff::fr_t;
constexpr size_t FR_BYTES = 32;
constexpr uint32_t R1CS_VERSION = 1;
constexpr uint32_t WTNS_VERSION = 2;
constexpr size_t TERM_BYTES = 4 + FR_BYTES;

uint32_t load_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t load_u64(const uint8_t* p) {
  return uint64_t(load_u32(p)) | uint64_t(load_u32(p + 4)) << 32;
}
void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void put_fr(std::vector<uint8_t>& out, const fr_t& v) {
  uint8_t b[FR_BYTES];
  v.to_bytes_le(b);
  for (uint8_t x : b) out.push_back(x);
}
void put_prime(std::vector<uint8_t>& out) {
  const auto& m = fr_t::MODULUS;
  for (size_t i = 0; i < FR_BYTES; ++i) out.push_back(uint8_t(m[i / 8] >> (8 * (i % 8))));
}

status err(status_code c, std::string msg) {
  return {c, std::move(msg)};
}

/// One section of the container: its type and its bytes.
struct section_t {
  uint32_t type = 0;
  std::span<const uint8_t> data;
};

/// Splits the container into its sections. `what` = "r1cs" or "wtns".
result<std::vector<section_t>> parse_container(std::span<const uint8_t> b, const char* magic,
                                               uint32_t version) {
  if (b.size() < 12) {
    return err(status_code::bad_length, "file header: " + std::to_string(b.size()) +
                                            " bytes, need 12 (magic, version, nSections)");
  }
  if (std::memcmp(b.data(), magic, 4) != 0) {
    return err(status_code::bad_encoding,
               std::string("file header: wrong magic, not a .") + magic + " file");
  }
  const uint32_t v = load_u32(b.data() + 4);
  if (v != version) {
    return err(status_code::bad_encoding, "file header: version " + std::to_string(v) +
                                              " unsupported (expected " + std::to_string(version) +
                                              ")");
  }
  const uint32_t n = load_u32(b.data() + 8);
  std::vector<section_t> out;
  size_t pos = 12;
  for (uint32_t i = 0; i < n; ++i) {
    if (b.size() - pos < 12) {
      return err(status_code::bad_length, "section table: truncated at section " +
                                              std::to_string(i) + " of " + std::to_string(n));
    }
    const uint32_t type = load_u32(b.data() + pos);
    const uint64_t size = load_u64(b.data() + pos + 4);
    pos += 12;
    if (size > b.size() - pos) {
      return err(status_code::bad_length, "section " + std::to_string(i) + " (type " +
                                              std::to_string(type) + "): size " +
                                              std::to_string(size) + " exceeds the " +
                                              std::to_string(b.size() - pos) + " bytes left");
    }
    out.push_back({type, b.subspan(pos, size_t(size))});
    pos += size_t(size);
  }
  if (pos != b.size()) {
    return err(status_code::bad_length, "file: " + std::to_string(b.size() - pos) +
                                            " trailing bytes after the last section");
  }
  return out;
}

/// The unique section of a type: nullopt when absent, an error when repeated.
result<std::optional<std::span<const uint8_t>>> unique_section(const std::vector<section_t>& s,
                                                               uint32_t type, const char* name) {
  std::optional<std::span<const uint8_t>> found;
  for (const auto& x : s) {
    if (x.type != type) continue;
    if (found) {
      return err(status_code::bad_encoding, std::string(name) + ": section duplicated");
    }
    found = x.data;
  }
  return found;
}

std::string hex_le(std::span<const uint8_t> le) {
  const std::vector<uint8_t> be(le.rbegin(), le.rend());
  std::string s = to_hex(be);
  const size_t nz = s.find_first_not_of('0');
  s = nz == std::string::npos ? "0" : s.substr(nz);
  return "0x" + s;
}

/// Reads "n8 ‖ prime" at the start of a header section; checks the prime is BLS12-381's r.
status check_field(std::span<const uint8_t> h, const char* section) {
  if (h.size() < 4)
    return err(status_code::bad_length, std::string(section) + ": truncated before n8");
  const uint32_t n8 = load_u32(h.data());
  if (n8 == 0 || n8 > h.size() - 4) {
    return err(status_code::bad_length, std::string(section) + ": field size n8 = " +
                                            std::to_string(n8) + " does not fit the section");
  }
  std::array<uint8_t, FR_BYTES> r{};
  for (size_t i = 0; i < FR_BYTES; ++i) r[i] = uint8_t(fr_t::MODULUS[i / 8] >> (8 * (i % 8)));
  const auto prime = h.subspan(4, n8);
  if (n8 != FR_BYTES || !std::equal(r.begin(), r.end(), prime.begin())) {
    return err(status_code::bad_encoding,
               std::string(section) + ": unsupported prime " + hex_le(prime) +
                   " (n8 = " + std::to_string(n8) +
                   "); only the BLS12-381 scalar field r = " + hex_le(r) + " is supported");
  }
  return {};
}

template <class T>
result<T> prefix_error(result<T> r, const std::string& prefix) {
  if (r) return r;
  const status s = r.error();
  return status(s.code(), prefix + ": " + s.message());
}

constexpr const char* LC_NAMES[3] = {"A", "B", "C"};

}  // namespace

// ---- .r1cs
// ----------------------------------------------------------------------------------------

result<iden3_r1cs> parse_r1cs(std::span<const uint8_t> bytes) {
  auto secs = parse_container(bytes, "r1cs", R1CS_VERSION);
  if (!secs) return secs.error();
  for (const auto& s : *secs) {
    if (s.type == 4 || s.type == 5) {
      return err(status_code::bad_encoding,
                 "custom gates sections (PLONK, circom --O2 custom templates) are not supported by "
                 "Groth16");
    }
  }
  auto hs = unique_section(*secs, 1, "header");
  if (!hs) return hs.error();
  if (!*hs) return err(status_code::bad_encoding, "header: section 1 missing");
  const auto h = **hs;
  if (status s = check_field(h, "header"); !s) return s;
  constexpr size_t COUNTS = 4 * 4 + 8 + 4;
  if (h.size() != 4 + FR_BYTES + COUNTS) {
    return err(status_code::bad_length, "header: " + std::to_string(h.size()) +
                                            " bytes, expected " +
                                            std::to_string(4 + FR_BYTES + COUNTS));
  }
  iden3_r1cs out;
  iden3_header& hd = out.header;
  const uint8_t* p = h.data() + 4 + FR_BYTES;
  hd.num_wires = load_u32(p);
  hd.num_pub_out = load_u32(p + 4);
  hd.num_pub_in = load_u32(p + 8);
  hd.num_prv_in = load_u32(p + 12);
  hd.num_labels = load_u64(p + 16);
  hd.num_constraints = load_u32(p + 24);
  if (uint64_t(hd.num_wires) < 1 + hd.num_public() + hd.num_prv_in) {
    return err(status_code::invalid_argument,
               "header: nWires = " + std::to_string(hd.num_wires) +
                   " is less than 1 + nPubOut + nPubIn + nPrvIn = " +
                   std::to_string(1 + hd.num_public() + hd.num_prv_in));
  }

  // nWires drives every per-wire allocation downstream (Groth16 setup, witness checks), so it must
  // be backed by bytes of the file: the wire → label map holds 8 bytes per wire. circom and
  // snarkjs always write it; a file without it could claim 2^32 wires in a few bytes.
  auto ms = unique_section(*secs, 3, "wire2label");
  if (!ms) return ms.error();
  if (!*ms) {
    return err(status_code::bad_encoding,
               "wire2label: section 3 missing (needed to check nWires = " +
                   std::to_string(hd.num_wires) + " against the file)");
  }
  const auto w = **ms;
  if (w.size() != uint64_t(hd.num_wires) * 8) {
    return err(status_code::bad_length,
               "wire2label: " + std::to_string(w.size()) + " bytes, expected 8 × nWires = " +
                   std::to_string(uint64_t(hd.num_wires) * 8) + " (nWires exceeds the file?)");
  }

  auto cs_sec = unique_section(*secs, 2, "constraints");
  if (!cs_sec) return cs_sec.error();
  if (!*cs_sec && hd.num_constraints != 0) {
    return err(status_code::bad_encoding, "constraints: section 2 missing");
  }
  const std::span<const uint8_t> c = *cs_sec ? **cs_sec : std::span<const uint8_t>{};
  // Each constraint holds at least three 4-byte term counts: bounds the reservation below.
  if (uint64_t(hd.num_constraints) * 12 > c.size()) {
    return err(status_code::bad_length,
               "constraints: nConstraints = " + std::to_string(hd.num_constraints) +
                   " needs at least " + std::to_string(uint64_t(hd.num_constraints) * 12) +
                   " bytes, the section has " + std::to_string(c.size()));
  }
  // Pass 1: structure only (term counts and lengths), to size the three CSR arrays exactly.
  std::array<uint64_t, 3> nnz{};
  size_t pos = 0;
  for (uint32_t i = 0; i < hd.num_constraints; ++i) {
    for (int k = 0; k < 3; ++k) {
      if (c.size() - pos < 4) {
        return err(status_code::bad_length, "constraints: constraint " + std::to_string(i) + " " +
                                                LC_NAMES[k] + ": truncated term count");
      }
      const uint32_t n = load_u32(c.data() + pos);
      pos += 4;
      if (uint64_t(n) * TERM_BYTES > c.size() - pos) {
        return err(status_code::bad_length, "constraints: constraint " + std::to_string(i) + " " +
                                                LC_NAMES[k] + ": " + std::to_string(n) +
                                                " terms overrun the section");
      }
      pos += size_t(n) * TERM_BYTES;
      nnz[k] += n;
    }
  }
  if (pos != c.size()) {
    return err(status_code::bad_length, "constraints: " + std::to_string(c.size() - pos) +
                                            " trailing bytes after constraint " +
                                            std::to_string(hd.num_constraints));
  }

  matrices& m = out.cs;
  m.num_inputs = size_t(1 + hd.num_public());
  m.num_aux = size_t(hd.num_wires) - m.num_inputs;
  std::array<sparse_matrix*, 3> mats = {&m.a, &m.b, &m.c};
  for (int k = 0; k < 3; ++k) {
    mats[k]->row_offsets.reserve(size_t(hd.num_constraints) + 1);
    mats[k]->columns.reserve(size_t(nnz[k]));
    mats[k]->coeffs.reserve(size_t(nnz[k]));
  }
  // Pass 2: decode. Circom writes each combination sorted by wire with no repeats; a repeat is
  // refused because readers disagree on it (r1csfile keeps the last term, bellperson-style merging
  // would sum them).
  std::vector<uint32_t> scratch;
  pos = 0;
  for (uint32_t i = 0; i < hd.num_constraints; ++i) {
    for (int k = 0; k < 3; ++k) {
      sparse_matrix& sm = *mats[k];
      const uint32_t n = load_u32(c.data() + pos);
      pos += 4;
      bool sorted = true;
      for (uint32_t t = 0; t < n; ++t, pos += TERM_BYTES) {
        const uint32_t wire = load_u32(c.data() + pos);
        if (wire >= hd.num_wires) {
          return err(status_code::invalid_argument,
                     "constraints: constraint " + std::to_string(i) + " " + LC_NAMES[k] + " term " +
                         std::to_string(t) + ": wire " + std::to_string(wire) + " >= nWires " +
                         std::to_string(hd.num_wires));
        }
        fr_t v;
        if (!fr_t::from_bytes_le(c.data() + pos + 4, v)) {
          return err(status_code::non_canonical, "constraints: constraint " + std::to_string(i) +
                                                     " " + LC_NAMES[k] + " term " +
                                                     std::to_string(t) + ": coefficient >= r");
        }
        if (t > 0 && wire <= sm.columns.back()) sorted = false;
        sm.columns.push_back(wire);
        sm.coeffs.push_back(v);
      }
      if (!sorted) {
        scratch.assign(sm.columns.end() - n, sm.columns.end());
        std::sort(scratch.begin(), scratch.end());
        const auto dup = std::adjacent_find(scratch.begin(), scratch.end());
        if (dup != scratch.end()) {
          return err(status_code::bad_encoding, "constraints: constraint " + std::to_string(i) +
                                                    " " + LC_NAMES[k] + ": wire " +
                                                    std::to_string(*dup) + " appears twice");
        }
      }
      sm.row_offsets.push_back(sm.columns.size());
    }
  }

  out.wire_to_label.resize(hd.num_wires);
  for (size_t i = 0; i < hd.num_wires; ++i) out.wire_to_label[i] = load_u64(w.data() + 8 * i);
  return out;
}

result<iden3_r1cs> read_r1cs(const std::string& path) {
  auto m = mmap_file::open(path);
  if (!m) return prefix_error<iden3_r1cs>(m.error(), path);
  return prefix_error(parse_r1cs(m->bytes()), path);
}

result<std::vector<uint8_t>> r1cs_to_bytes(const matrices& cs, const r1cs_write_options& opt) {
  if (status s = validate(cs); !s) return s;
  const uint64_t wires = cs.num_variables(), rows = cs.num_constraints();
  if (wires > UINT32_MAX || rows > UINT32_MAX) {
    return err(status_code::invalid_argument, "r1cs: more than 2^32 - 1 wires or constraints");
  }
  if (opt.num_pub_out > cs.num_inputs - 1) {
    return err(status_code::invalid_argument, "r1cs: num_pub_out exceeds the public inputs");
  }
  if (opt.num_prv_in > cs.num_aux) {
    return err(status_code::invalid_argument, "r1cs: num_prv_in exceeds the aux variables");
  }
  if (!opt.wire_to_label.empty() && opt.wire_to_label.size() != wires) {
    return err(status_code::invalid_argument, "r1cs: wire_to_label needs one entry per wire");
  }
  uint64_t num_labels = wires;
  if (!opt.wire_to_label.empty()) {
    num_labels = *std::max_element(opt.wire_to_label.begin(), opt.wire_to_label.end()) + 1;
  }
  const std::array<const sparse_matrix*, 3> mats = {&cs.a, &cs.b, &cs.c};
  uint64_t cons_bytes = 0;
  for (const auto* sm : mats) {
    for (size_t i = 0; i < rows; ++i) {
      if (sm->row_offsets[i + 1] - sm->row_offsets[i] > UINT32_MAX) {
        return err(status_code::invalid_argument, "r1cs: more than 2^32 - 1 terms in one row");
      }
    }
    cons_bytes += 4 * rows + TERM_BYTES * sm->nnz();
  }
  std::vector<uint8_t> out;
  out.reserve(size_t(12 + 3 * 12 + 4 + FR_BYTES + 28 + cons_bytes + 8 * wires));
  for (char ch : {'r', '1', 'c', 's'}) out.push_back(uint8_t(ch));
  put_u32(out, R1CS_VERSION);
  put_u32(out, 3);
  // header
  put_u32(out, 1);
  put_u64(out, 4 + FR_BYTES + 28);
  put_u32(out, uint32_t(FR_BYTES));
  put_prime(out);
  put_u32(out, uint32_t(wires));
  put_u32(out, opt.num_pub_out);
  put_u32(out, uint32_t(cs.num_inputs - 1 - opt.num_pub_out));
  put_u32(out, opt.num_prv_in);
  put_u64(out, num_labels);
  put_u32(out, uint32_t(rows));
  // constraints: per row the A, B, C combinations
  put_u32(out, 2);
  put_u64(out, cons_bytes);
  for (size_t i = 0; i < rows; ++i) {
    for (const auto* sm : mats) {
      const uint64_t b = sm->row_offsets[i], e = sm->row_offsets[i + 1];
      put_u32(out, uint32_t(e - b));
      for (uint64_t t = b; t < e; ++t) {
        put_u32(out, sm->columns[t]);
        put_fr(out, sm->coeffs[t]);
      }
    }
  }
  // wire → label map
  put_u32(out, 3);
  put_u64(out, 8 * wires);
  for (uint64_t w = 0; w < wires; ++w) {
    put_u64(out, opt.wire_to_label.empty() ? w : opt.wire_to_label[w]);
  }
  return out;
}

status write_r1cs(const std::string& path, const matrices& cs, const r1cs_write_options& opt) {
  auto b = r1cs_to_bytes(cs, opt);
  if (!b) return b.error();
  return write_file_atomic(path, *b);
}

// ---- .wtns
// ----------------------------------------------------------------------------------------

result<std::vector<fr_t>> parse_wtns(std::span<const uint8_t> bytes) {
  auto secs = parse_container(bytes, "wtns", WTNS_VERSION);
  if (!secs) return secs.error();
  auto hs = unique_section(*secs, 1, "header");
  if (!hs) return hs.error();
  if (!*hs) return err(status_code::bad_encoding, "header: section 1 missing");
  const auto h = **hs;
  if (status s = check_field(h, "header"); !s) return s;
  if (h.size() != 4 + FR_BYTES + 4) {
    return err(status_code::bad_length, "header: " + std::to_string(h.size()) +
                                            " bytes, expected " + std::to_string(4 + FR_BYTES + 4));
  }
  const uint32_t n = load_u32(h.data() + 4 + FR_BYTES);
  auto ws = unique_section(*secs, 2, "witness");
  if (!ws) return ws.error();
  if (!*ws) return err(status_code::bad_encoding, "witness: section 2 missing");
  const auto w = **ws;
  if (w.size() != uint64_t(n) * FR_BYTES) {
    return err(status_code::bad_length,
               "witness: " + std::to_string(w.size()) +
                   " bytes, expected nWitness × 32 = " + std::to_string(uint64_t(n) * FR_BYTES));
  }
  std::vector<fr_t> out(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!fr_t::from_bytes_le(w.data() + size_t(i) * FR_BYTES, out[i])) {
      return err(status_code::non_canonical, "witness: value " + std::to_string(i) + " >= r");
    }
  }
  return out;
}

result<std::vector<fr_t>> read_wtns(const std::string& path) {
  auto m = mmap_file::open(path);
  if (!m) return prefix_error<std::vector<fr_t>>(m.error(), path);
  return prefix_error(parse_wtns(m->bytes()), path);
}

std::vector<uint8_t> wtns_to_bytes(std::span<const fr_t> witness) {
  std::vector<uint8_t> out;
  out.reserve(12 + 2 * 12 + 4 + FR_BYTES + 4 + FR_BYTES * witness.size());
  for (char ch : {'w', 't', 'n', 's'}) out.push_back(uint8_t(ch));
  put_u32(out, WTNS_VERSION);
  put_u32(out, 2);
  put_u32(out, 1);
  put_u64(out, 4 + FR_BYTES + 4);
  put_u32(out, uint32_t(FR_BYTES));
  put_prime(out);
  put_u32(out, uint32_t(witness.size()));
  put_u32(out, 2);
  put_u64(out, FR_BYTES * witness.size());
  for (const auto& v : witness) put_fr(out, v);
  return out;
}

status write_wtns(const std::string& path, std::span<const fr_t> witness) {
  if (witness.size() > UINT32_MAX) {
    return err(status_code::invalid_argument, "wtns: more than 2^32 - 1 values");
  }
  return write_file_atomic(path, wtns_to_bytes(witness));
}

result<split_witness_t> split_witness(const matrices& cs, std::span<const fr_t> witness) {
  if (witness.size() != cs.num_variables()) {
    return err(status_code::size_mismatch, "witness has " + std::to_string(witness.size()) +
                                               " values, the circuit " +
                                               std::to_string(cs.num_variables()) + " wires");
  }
  if (witness.empty() || !witness[0].is_one()) {
    return err(status_code::invalid_argument, "witness[0] (the ONE wire) is not 1");
  }
  split_witness_t s;
  s.inputs.assign(witness.begin(), witness.begin() + ptrdiff_t(cs.num_inputs));
  s.aux.assign(witness.begin() + ptrdiff_t(cs.num_inputs), witness.end());
  return s;
}

}  // namespace cuzk::r1cs
