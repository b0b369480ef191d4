// SPDX-License-Identifier: Apache-2.0
// abc_plan: the coefficient table, the recorder's phases (prologue, block template, block check),
// the plan of explicit matrices, the CPU evaluation of a row range and the densities.
#include "r1cs/abc_plan.hpp"

#include <algorithm>
#include <cstdio>

#include "ff/fr_accumulate.hpp"

namespace cuzk::r1cs {
namespace {

using ref_t = plan_matrix::ref_t;
using coeff_id_t = plan_matrix::coeff_id_t;
using term_t = std::pair<ref_t, coeff_id_t>;

std::array<uint64_t, 4> key_of(const ff::fr_t& c) {
  return {c.limb[0], c.limb[1], c.limb[2], c.limb[3]};
}

/// Appends one row; false when the matrix would pass 2^32 nonzeros (its offsets are 32-bit).
bool append_row(plan_matrix& m, const std::vector<term_t>& row) {
  if (m.refs.size() + row.size() > UINT32_MAX) return false;
  for (const term_t& t : row) {
    m.refs.push_back(t.first);
    m.coeff_ids.push_back(t.second);
  }
  m.row_offsets.push_back(uint32_t(m.refs.size()));
  return true;
}

bool is_absolute(ref_t r) {
  return abc_plan::kind_of(r) == abc_plan::input || abc_plan::kind_of(r) == abc_plan::aux;
}

/// LCs longer than this are summed with one Montgomery reduction (as proving_cs does).
constexpr size_t LAZY_EVAL_MIN_TERMS = 4;

/// <row r of m, w>: base[kind] is where the variables of each ref kind start for this block.
inline ff::fr_t eval_row(const plan_matrix& m, size_t r,
                         const ff::fr_t* const base[abc_plan::NUM_KINDS], const ff::fr_t* coeffs) {
  const size_t begin = m.row_offsets[r], end = m.row_offsets[r + 1];
  const ref_t* refs = m.refs.data();
  const coeff_id_t* ids = m.coeff_ids.data();
  ff::fr_t acc = ff::fr_t::zero();
  const auto value = [&](size_t i) -> const ff::fr_t& {
    return base[abc_plan::kind_of(refs[i])][abc_plan::index_of(refs[i])];
  };
  if (end - begin <= LAZY_EVAL_MIN_TERMS) {
    for (size_t i = begin; i < end; ++i) {
      const ff::fr_t& x = value(i);
      if (ids[i] == abc_plan::ONE_ID) {
        acc += x;
      } else if (ids[i] == abc_plan::MINUS_ONE_ID) {
        acc -= x;
      } else {
        acc += x * coeffs[ids[i]];
      }
    }
    return acc;
  }
  ff::fr_accumulator_t wide;
  for (size_t i = begin; i < end; ++i) {
    const ff::fr_t& x = value(i);
    if (ids[i] == abc_plan::ONE_ID) {
      wide.add(x);
    } else if (ids[i] == abc_plan::MINUS_ONE_ID) {
      acc -= x;
    } else {
      wide.mac(x, coeffs[ids[i]]);
    }
  }
  return wide.reduce() + acc;
}

}  // namespace

// ---- coefficients ----------------------------------------------------------------------------

plan_coefficients::plan_coefficients() {
  add(ff::fr_t::one());
  add(-ff::fr_t::one());
}

coeff_id_t plan_coefficients::add(const ff::fr_t& c) {
  coeff_id_t id = 0;
  if (find(c, id)) return id;
  const auto [it, inserted] = ids_.try_emplace(key_of(c), coeff_id_t(values_.size()));
  if (inserted) values_.push_back(c);
  return it->second;
}

bool plan_coefficients::find(const ff::fr_t& c, coeff_id_t& id) const {
  // ±1 are most coefficients: no tree lookup for them.
  for (coeff_id_t k : {abc_plan::ONE_ID, abc_plan::MINUS_ONE_ID}) {
    if (k < values_.size() && values_[k] == c) {
      id = k;
      return true;
    }
  }
  const auto it = ids_.find(key_of(c));
  if (it == ids_.end()) return false;
  id = it->second;
  return true;
}

// ---- recorder ----------------------------------------------------------------------------------

abc_plan_recorder::abc_plan_recorder() {
  alloc_input([] { return ff::fr_t::one(); });
}

void abc_plan_recorder::fail(const std::string& why) {
  if (status_.ok()) status_ = status(status_code::internal, "abc plan: " + why);
}

void abc_plan_recorder::add_row_lc(int matrix) {
  merge_terms(lc_.terms(), merged_);
  std::vector<term_t>& row = row_[matrix];
  row.clear();
  const abc_plan::layout_t& lay = plan_.layout_;
  for (const lc_term& t : merged_) {
    const variable v = t.var;
    const size_t idx = v.index();
    abc_plan::ref_kind kind = v.is_input() ? abc_plan::input : abc_plan::aux;
    size_t rel = idx;
    if (phase_ != phase::prologue) {
      const size_t shared_end = v.is_input() ? lay.block_input0 : lay.block_aux0;
      const size_t window = v.is_input() ? window_input0_ : window_aux0_;
      if (idx >= window) {
        kind = v.is_input() ? abc_plan::block_input : abc_plan::block_aux;
        rel = idx - window;
      } else if (idx >= shared_end) {
        fail("block " + std::to_string(block_index_) + " row " + std::to_string(block_row_) +
             " reads a variable of another block");
        return;
      }
    }
    if (rel > abc_plan::MAX_REF_INDEX) {
      fail("a variable index does not fit the 30-bit reference");
      return;
    }
    coeff_id_t id = 0;
    if (phase_ == phase::block_check) {
      if (!plan_.coeffs_.find(t.coeff, id)) {
        fail("block " + std::to_string(block_index_) + " row " + std::to_string(block_row_) +
             " has a coefficient block 0 does not have");
        return;
      }
    } else {
      id = plan_.coeffs_.add(t.coeff);
    }
    row.emplace_back(abc_plan::make_ref(kind, uint32_t(rel)), id);
  }
}

void abc_plan_recorder::end_row() {
  if (!status_.ok()) return;
  if (phase_ == phase::block_check) {
    const plan_section& t = plan_.block_;
    const plan_matrix* m[3] = {&t.a, &t.b, &t.c};
    if (block_row_ >= t.num_rows()) {
      fail("block " + std::to_string(block_index_) + " has more rows than block 0 (" +
           std::to_string(t.num_rows()) + ")");
      return;
    }
    for (int k = 0; k < 3 && status_.ok(); ++k) {
      const size_t begin = m[k]->row_offsets[block_row_], end = m[k]->row_offsets[block_row_ + 1];
      bool same = end - begin == row_[k].size();
      for (size_t i = 0; same && i < row_[k].size(); ++i) {
        const ref_t want = m[k]->refs[begin + i], got = row_[k][i].first;
        same = m[k]->coeff_ids[begin + i] == row_[k][i].second &&
               (want == got || (is_absolute(want) && is_absolute(got)));
        if (same && is_absolute(want)) map_shared(want, got);
      }
      if (!same) {
        fail("block " + std::to_string(block_index_) + " row " + std::to_string(block_row_) +
             " differs from block 0's in " + "ABC"[k]);
      }
    }
    if (!status_.ok()) return;
  } else {
    plan_section& s = phase_ == phase::prologue ? plan_.prologue_ : plan_.block_;
    if (!append_row(s.a, row_[0]) || !append_row(s.b, row_[1]) || !append_row(s.c, row_[2])) {
      fail("a matrix has more than 2^32 nonzeros");
      return;
    }
  }
  if (phase_ != phase::prologue) ++block_row_;
}

void abc_plan_recorder::map_shared(ref_t from, ref_t to) {
  const auto [it, inserted] = shared_maps_[block_index_].try_emplace(from, to);
  if (!inserted && it->second != to) {
    fail("block " + std::to_string(block_index_) + " row " + std::to_string(block_row_) +
         " reads two prologue variables where block 0 reads one");
  }
  if (from != to) varying_shared_ = true;
}

void abc_plan_recorder::begin_blocks(size_t count) {
  abc_plan::layout_t& lay = plan_.layout_;
  shared_maps_.assign(count, {});
  checked_.assign(count, false);
  lay.block_count = count;
  lay.block_input0 = next_input_;
  lay.block_aux0 = next_aux_;
}

void abc_plan_recorder::begin_block(size_t i) {
  const abc_plan::layout_t& lay = plan_.layout_;
  phase_ = i == 0 ? phase::block_record : phase::block_check;
  block_index_ = i;
  block_row_ = 0;
  window_input0_ = lay.block_input0 + i * lay.block.inputs;
  window_aux0_ = lay.block_aux0 + i * lay.block.aux;
  next_input_ = window_input0_;
  next_aux_ = window_aux0_;
}

status abc_plan_recorder::end_block() {
  if (!status_.ok()) return status_;
  abc_plan::layout_t& lay = plan_.layout_;
  const proving_cs::block_shape filled{block_row_, next_aux_ - window_aux0_,
                                       next_input_ - window_input0_};
  checked_[block_index_] = true;
  if (phase_ == phase::block_record) {
    lay.block = filled;
  } else if (!(filled == lay.block)) {
    fail("block " + std::to_string(block_index_) + " has " + std::to_string(filled.constraints) +
         " rows, " + std::to_string(filled.aux) + " aux, " + std::to_string(filled.inputs) +
         " inputs; block 0 has " + std::to_string(lay.block.constraints) + ", " +
         std::to_string(lay.block.aux) + ", " + std::to_string(lay.block.inputs));
  }
  return status_;
}

result<abc_plan> abc_plan_recorder::take_plan() {
  if (!status_.ok()) return status_;
  abc_plan::layout_t& lay = plan_.layout_;
  if (lay.block_count == 0 && phase_ == phase::prologue) {
    lay.block_input0 = next_input_;
    lay.block_aux0 = next_aux_;
  }
  if (varying_shared_) {
    // The prologue refs some block reads in place of block 0's become table slots.
    std::map<ref_t, uint32_t> slot_of;
    for (size_t k = 1; k < lay.block_count; ++k) {
      if (!checked_[k]) return status(status_code::internal, "abc plan: a block was not checked");
      for (const auto& [from, to] : shared_maps_[k])
        if (from != to) slot_of.try_emplace(from, 0);
    }
    uint32_t next = 0;
    for (auto& [from, slot] : slot_of) slot = next++;
    lay.shared_slots = slot_of.size();
    plan_.block_shared_refs_.resize(lay.block_count * lay.shared_slots);
    for (const auto& [from, slot] : slot_of) {
      plan_.block_shared_refs_[slot] = from;
      for (size_t k = 1; k < lay.block_count; ++k) {
        const auto it = shared_maps_[k].find(from);
        if (it == shared_maps_[k].end())
          return status(status_code::internal, "abc plan: a block does not read a shared slot");
        plan_.block_shared_refs_[k * lay.shared_slots + slot] = it->second;
      }
    }
    for (plan_matrix* m : {&plan_.block_.a, &plan_.block_.b, &plan_.block_.c}) {
      for (ref_t& r : m->refs) {
        if (!is_absolute(r)) continue;
        if (const auto it = slot_of.find(r); it != slot_of.end())
          r = abc_plan::make_ref(abc_plan::block_shared, it->second);
      }
    }
  }
  lay.num_inputs = lay.block_input0 + lay.block_count * lay.block.inputs;
  lay.num_aux = lay.block_aux0 + lay.block_count * lay.block.aux;
  if (lay.num_inputs > variable::MAX_INDEX || lay.num_aux > variable::MAX_INDEX)
    return status(status_code::internal, "abc plan: too many variables");
  return std::move(plan_);
}

// ---- explicit matrices -----------------------------------------------------------------------

result<abc_plan> abc_plan::from_matrices(const matrices& m) {
  if (status s = validate(m); !s) return s;
  if (m.num_inputs > MAX_REF_INDEX + size_t(1) || m.num_aux > MAX_REF_INDEX + size_t(1))
    return status(status_code::invalid_argument, "abc plan: more than 2^30 variables of a kind");
  abc_plan plan;
  plan.layout_.num_inputs = plan.layout_.block_input0 = m.num_inputs;
  plan.layout_.num_aux = plan.layout_.block_aux0 = m.num_aux;
  std::vector<lc_term> terms, merged;
  std::vector<term_t> row;
  const std::pair<const sparse_matrix*, plan_matrix*> pairs[3] = {
      {&m.a, &plan.prologue_.a}, {&m.b, &plan.prologue_.b}, {&m.c, &plan.prologue_.c}};
  for (const auto& [in, out] : pairs) {
    out->row_offsets.reserve(in->num_rows() + 1);
    out->refs.reserve(in->nnz());
    out->coeff_ids.reserve(in->nnz());
    for (size_t r = 0; r < in->num_rows(); ++r) {
      // A file's rows need not be merged; the densities count merged nonzeros only.
      terms.clear();
      for (uint64_t i = in->row_offsets[r]; i < in->row_offsets[r + 1]; ++i) {
        const uint32_t col = in->columns[i];
        const variable v =
            col < m.num_inputs ? variable::input(col) : variable::aux(uint32_t(col - m.num_inputs));
        terms.push_back({in->coeffs[i], v});
      }
      merge_terms(terms, merged);
      row.clear();
      for (const lc_term& t : merged) {
        row.emplace_back(make_ref(t.var.is_input() ? input : aux, t.var.index()),
                         plan.coeffs_.add(t.coeff));
      }
      if (!append_row(*out, row))
        return status(status_code::invalid_argument, "abc plan: more than 2^32 nonzeros");
    }
  }
  return plan;
}

// ---- evaluation --------------------------------------------------------------------------------

status abc_plan::evaluate_rows(size_t first_row, std::span<const ff::fr_t> inputs,
                               std::span<const ff::fr_t> aux, std::span<ff::fr_t> a,
                               std::span<ff::fr_t> b, std::span<ff::fr_t> c,
                               thread_pool& pool) const {
  const layout_t& lay = layout_;
  if (inputs.size() != lay.num_inputs || aux.size() != lay.num_aux) {
    return status(status_code::size_mismatch,
                  "abc plan: witness has " + std::to_string(inputs.size()) + " inputs / " +
                      std::to_string(aux.size()) + " aux, circuit " +
                      std::to_string(lay.num_inputs) + " / " + std::to_string(lay.num_aux));
  }
  if (!inputs[0].is_one()) return status(status_code::size_mismatch, "inputs[0] is not ONE");
  const size_t count = a.size();
  if (b.size() != count || c.size() != count)
    return status(status_code::size_mismatch, "abc plan: a, b, c spans differ in size");
  if (first_row > num_rows() || count > num_rows() - first_row) {
    return status(status_code::size_mismatch, "abc plan: rows " + std::to_string(first_row) +
                                                  " + " + std::to_string(count) + " run past " +
                                                  std::to_string(num_rows()));
  }

  const size_t prologue_rows = prologue_.num_rows();
  const size_t block_rows = lay.block.constraints;
  const size_t constraints = num_constraints();
  const ff::fr_t* coeffs = coeffs_.values().data();
  const auto fill = [&](size_t begin, size_t end) {
    std::vector<ff::fr_t> shared(lay.shared_slots);
    for (size_t i = begin; i < end;) {
      const size_t row = first_row + i;
      if (row < prologue_rows) {
        const ff::fr_t* const base[NUM_KINDS] = {inputs.data(), aux.data(), inputs.data(),
                                                 aux.data(), inputs.data()};
        const size_t stop = std::min(end, prologue_rows - first_row);
        for (; i < stop; ++i) {
          const size_t r = first_row + i;
          a[i] = eval_row(prologue_.a, r, base, coeffs);
          b[i] = eval_row(prologue_.b, r, base, coeffs);
          c[i] = eval_row(prologue_.c, r, base, coeffs);
        }
      } else if (row < constraints) {
        const size_t k = (row - prologue_rows) / block_rows;
        const size_t r0 = (row - prologue_rows) % block_rows;
        // This block's table slots, gathered once per run of its rows.
        for (size_t j = 0; j < lay.shared_slots; ++j) {
          const ref_t ref = block_shared_refs_[k * lay.shared_slots + j];
          shared[j] = kind_of(ref) == input ? inputs[index_of(ref)] : aux[index_of(ref)];
        }
        const ff::fr_t* const base[NUM_KINDS] = {
            inputs.data(), aux.data(), inputs.data() + lay.block_input0 + k * lay.block.inputs,
            aux.data() + lay.block_aux0 + k * lay.block.aux, shared.data()};
        const size_t stop = std::min(end, i + (block_rows - r0));
        for (size_t r = r0; i < stop; ++i, ++r) {
          a[i] = eval_row(block_.a, r, base, coeffs);
          b[i] = eval_row(block_.b, r, base, coeffs);
          c[i] = eval_row(block_.c, r, base, coeffs);
        }
      } else {
        // bellperson's x_j · 0 = 0 row per input.
        a[i] = inputs[row - constraints];
        b[i] = ff::fr_t::zero();
        c[i] = ff::fr_t::zero();
        ++i;
      }
    }
  };
  pool.parallel_range(count, fill, /*min_chunk=*/4096);
  return {};
}

// ---- densities and sizes ---------------------------------------------------------------------

density_bitmaps abc_plan::densities() const {
  const layout_t& lay = layout_;
  density_bitmaps d{bitmap(lay.num_aux), bitmap(lay.num_inputs), bitmap(lay.num_aux)};
  // The block template's relative marks, then repeated for every block.
  bitmap block_a_aux(lay.block.aux), block_b_input(lay.block.inputs), block_b_aux(lay.block.aux);
  const auto mark = [&](const plan_matrix& m, bitmap* input, bitmap* aux, bitmap* block_input,
                        bitmap* block_aux) {
    for (const ref_t ref : m.refs) {
      const uint32_t idx = index_of(ref);
      switch (kind_of(ref)) {
        case abc_plan::block_shared:
          for (size_t k = 0; k < lay.block_count; ++k) {
            const ref_t r = block_shared_refs_[k * lay.shared_slots + idx];
            if (kind_of(r) == abc_plan::input) {
              if (input) input->set(index_of(r));
            } else {
              aux->set(index_of(r));
            }
          }
          break;
        case abc_plan::input:
          if (input) input->set(idx);
          break;
        case abc_plan::aux:
          aux->set(idx);
          break;
        case abc_plan::block_input:
          if (block_input) block_input->set(idx);
          break;
        case abc_plan::block_aux:
          block_aux->set(idx);
          break;
      }
    }
  };
  // Inputs are always dense in A (the input rows), so A does not track them.
  mark(prologue_.a, nullptr, &d.a_aux, nullptr, &block_a_aux);
  mark(prologue_.b, &d.b_input, &d.b_aux, &block_b_input, &block_b_aux);
  mark(block_.a, nullptr, &d.a_aux, nullptr, &block_a_aux);
  mark(block_.b, &d.b_input, &d.b_aux, &block_b_input, &block_b_aux);
  const auto repeat = [&](const bitmap& rel, bitmap& out, size_t first, size_t stride) {
    for (size_t i = 0; i < rel.size(); ++i) {
      if (!rel.test(i)) continue;
      for (size_t k = 0; k < lay.block_count; ++k) out.set(first + k * stride + i);
    }
  };
  repeat(block_a_aux, d.a_aux, lay.block_aux0, lay.block.aux);
  repeat(block_b_input, d.b_input, lay.block_input0, lay.block.inputs);
  repeat(block_b_aux, d.b_aux, lay.block_aux0, lay.block.aux);
  return d;
}

abc_plan_size abc_plan::size() const {
  abc_plan_size s;
  s.prologue_rows = prologue_.num_rows();
  s.block_rows = block_.num_rows();
  s.block_count = layout_.block_count;
  s.input_rows = layout_.num_inputs;
  s.prologue_nnz = {prologue_.a.nnz(), prologue_.b.nnz(), prologue_.c.nnz()};
  s.block_nnz = {block_.a.nnz(), block_.b.nnz(), block_.c.nnz()};
  s.distinct_coefficients = coeffs_.values().size();
  for (const plan_matrix* m : {&block_.a, &block_.b, &block_.c})
    for (coeff_id_t id : m->coeff_ids) s.block_general_terms += id != ONE_ID && id != MINUS_ONE_ID;
  const size_t rows = block_.num_rows();
  for (size_t w = 0; w < rows; w += 32) {
    size_t longest = 0;
    for (size_t r = w; r < std::min(rows, w + 32); ++r) {
      size_t len = 0;
      for (const plan_matrix* m : {&block_.a, &block_.b, &block_.c})
        len += m->row_offsets[r + 1] - m->row_offsets[r];
      longest = std::max(longest, len);
    }
    s.block_warp_steps += longest;
  }
  for (const plan_section* sec : {&prologue_, &block_})
    for (const plan_matrix* m : {&sec->a, &sec->b, &sec->c}) s.bytes += m->bytes();
  s.bytes += coeffs_.values().size() * sizeof(ff::fr_t) + block_shared_refs_.size() * sizeof(ref_t);
  return s;
}

std::string abc_plan_size::to_string() const {
  char buf[512];
  std::snprintf(buf, sizeof(buf),
                "prologue %zu rows (nnz A %zu, B %zu, C %zu); %zu blocks of %zu rows (nnz A %zu, "
                "B %zu, C %zu; %zu not ±1; %zu warp steps, %.2fx nnz / 32); %zu input rows; %zu "
                "distinct coefficients; %.1f MiB",
                prologue_rows, prologue_nnz[0], prologue_nnz[1], prologue_nnz[2], block_count,
                block_rows, block_nnz[0], block_nnz[1], block_nnz[2], block_general_terms,
                block_warp_steps,
                double(block_warp_steps) * 32 /
                    double(std::max<size_t>(1, block_nnz[0] + block_nnz[1] + block_nnz[2])),
                input_rows, distinct_coefficients, double(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace cuzk::r1cs
