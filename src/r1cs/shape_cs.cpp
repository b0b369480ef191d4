// SPDX-License-Identifier: Apache-2.0
// shape_accumulator: merging, counting and the fingerprint byte stream of docs/notes/r1cs.md.
#include "r1cs/shape_cs.hpp"

#include <cstring>

namespace cuzk::r1cs {
namespace {

constexpr char DOMAIN_TAG[] = "cuzk.r1cs.shape.v1";  // 18 bytes hashed, without the NUL

void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}
void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
}

// Canonical bytes of 1 and -1, the most common coefficients (to_bytes_le costs a multiplication).
struct common_coeffs {
  ff::fr_t one = ff::fr_t::one(), minus_one = -ff::fr_t::one();
  uint8_t one_bytes[32], minus_one_bytes[32];
  common_coeffs() {
    one.to_bytes_le(one_bytes);
    minus_one.to_bytes_le(minus_one_bytes);
  }
};
const common_coeffs& coeff_cache() {
  static const common_coeffs c;
  return c;
}

constexpr size_t TERM_BYTES = 4 + 32;  // u32 variable word, 32-byte coefficient

}  // namespace

shape_accumulator::shape_accumulator() {
  row_buf_.reserve(3 * (4 + 16 * TERM_BYTES));
}

size_t shape_accumulator::encode_lc(std::span<const lc_term> terms, bitmap* input_density,
                                    bitmap* aux_density) {
  merge_terms(terms, scratch_);
  const common_coeffs& cc = coeff_cache();
  const size_t start = row_buf_.size();
  row_buf_.resize(start + 4 + scratch_.size() * TERM_BYTES);
  uint8_t* p = row_buf_.data() + start;
  put_u32(p, uint32_t(scratch_.size()));
  p += 4;
  for (const lc_term& t : scratch_) {
    put_u32(p, t.var.raw());
    if (t.coeff == cc.one) {
      std::memcpy(p + 4, cc.one_bytes, 32);
    } else if (t.coeff == cc.minus_one) {
      std::memcpy(p + 4, cc.minus_one_bytes, 32);
    } else {
      t.coeff.to_bytes_le(p + 4);
    }
    p += TERM_BYTES;
    if (t.var.is_input()) {
      if (input_density) input_density->set(t.var.index());
    } else if (aux_density) {
      aux_density->set(t.var.index());
    }
  }
  return scratch_.size();
}

void shape_accumulator::add_row(std::span<const lc_term> a, std::span<const lc_term> b,
                                std::span<const lc_term> c) {
  row_buf_.clear();
  nnz_a_ += encode_lc(a, nullptr, &a_aux_density_);
  nnz_b_ += encode_lc(b, &b_input_density_, &b_aux_density_);
  nnz_c_ += encode_lc(c, nullptr, nullptr);
  rows_hash_.update(row_buf_);
  ++num_constraints_;
}

shape_summary shape_accumulator::summary() const {
  shape_summary s;
  s.num_constraints = num_constraints_;
  s.num_inputs = num_inputs_;
  s.num_aux = num_aux_;
  s.nnz_a = nnz_a_;
  s.nnz_b = nnz_b_;
  s.nnz_c = nnz_c_;
  s.a_aux_density = a_aux_density_.popcount();
  s.b_input_density = b_input_density_.popcount();
  s.b_aux_density = b_aux_density_.popcount();

  cuzk::hash::blake2s rows = rows_hash_;  // copy: the accumulator stays usable
  uint8_t rows_digest[32];
  rows.finalize(rows_digest);

  // hash = BLAKE2s-256(tag ‖ u64 LE counts ‖ BLAKE2s-256(row stream))
  uint8_t header[sizeof(DOMAIN_TAG) - 1 + 6 * 8];
  std::memcpy(header, DOMAIN_TAG, sizeof(DOMAIN_TAG) - 1);
  uint8_t* p = header + sizeof(DOMAIN_TAG) - 1;
  for (size_t v : {s.num_constraints, s.num_inputs, s.num_aux, s.nnz_a, s.nnz_b, s.nnz_c}) {
    put_u64(p, v);
    p += 8;
  }
  cuzk::hash::blake2s outer(32);
  outer.update(header, sizeof(header));
  outer.update(rows_digest, 32);
  outer.finalize(s.hash.data());
  return s;
}

shape_summary summarize(const matrices& m) {
  shape_accumulator acc;
  for (size_t i = 0; i < m.num_inputs; ++i) acc.add_input();
  for (size_t i = 0; i < m.num_aux; ++i) acc.add_aux();
  const uint32_t n_in = uint32_t(m.num_inputs);
  std::vector<lc_term> rows[3];
  auto row_terms = [&](const sparse_matrix& sm, size_t r, std::vector<lc_term>& out) {
    out.clear();
    for (uint64_t k = sm.row_offsets[r]; k < sm.row_offsets[r + 1]; ++k) {
      const uint32_t col = sm.columns[k];
      out.push_back({sm.coeffs[k], col < n_in ? variable::input(col) : variable::aux(col - n_in)});
    }
  };
  for (size_t r = 0; r < m.num_constraints(); ++r) {
    row_terms(m.a, r, rows[0]);
    row_terms(m.b, r, rows[1]);
    row_terms(m.c, r, rows[2]);
    acc.add_row(rows[0], rows[1], rows[2]);
  }
  return acc.summary();
}

}  // namespace cuzk::r1cs
