// SPDX-License-Identifier: Apache-2.0
// r1cs::abc_plan: a circuit's constraint matrices compiled once per circuit shape, so that a, b, c
// (a_i = <A_i,w>, b_i, c_i per row, bellperson's x_j·0 = 0 input rows appended) are computed from a
// witness alone (witness_cs) instead of during synthesis (proving_cs), and the host keeps only the
// witness. The blocked circuits (PoRep's challenges, PoSt's sector slots, SnapDeals' challenges)
// are a prologue followed by K identically shaped blocks (proving_cs::open_blocks), so the plan
// holds the prologue rows explicitly and ONE block's rows as a template whose column references
// are either absolute (inputs, aux allocated before the blocks) or relative to the block's own
// input / aux window: a 32 GiB PoRep partition needs its prologue and one of its 18 challenges in
// memory, not 722 M nonzeros. Coefficients are indices into a table of the distinct values (ids 0
// and 1 are +1 and −1, which cost an add or a subtraction). A block may also read prologue
// variables that differ from block to block in a way no stride describes (SnapDeals' challenge k
// reads its own slice of the random bits, which straddle Poseidon digests): such a reference is a
// slot of a small per-block table of absolute references (block_shared).
//
// Built by compile_abc_plan (a recording constraint system running the circuit's own synthesis
// code: the prologue, block 0 as the template, and block K−1 checked against it row by row; when
// K−1 reads other prologue variables than block 0 at the same places, every block is checked and
// its table row recorded), or from explicit matrices (abc_plan::from_matrices, no blocks).
// Evaluated on the CPU by evaluate_rows over any row range (parallel over a thread_pool); the GPU
// evaluation uploads the same arrays.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::r1cs {

/// One matrix (A, B or C) of one section (the prologue or the block template), CSR by row.
struct plan_matrix {
  /// A term's column: kind in the top 3 bits, index in the low 29 (see abc_plan::ref_kind).
  using ref_t = uint32_t;
  /// Index into abc_plan::coefficients().
  using coeff_id_t = uint32_t;

  std::vector<uint32_t> row_offsets{0};  ///< rows + 1 entries; row i is [row_offsets[i], [i+1])
  std::vector<ref_t> refs;
  std::vector<coeff_id_t> coeff_ids;

  size_t num_rows() const { return row_offsets.size() - 1; }
  size_t nnz() const { return refs.size(); }
  size_t bytes() const {
    return row_offsets.size() * sizeof(uint32_t) + refs.size() * sizeof(ref_t) +
           coeff_ids.size() * sizeof(coeff_id_t);
  }
};

/// A, B and C of one section.
struct plan_section {
  plan_matrix a, b, c;
  size_t num_rows() const { return a.num_rows(); }
};

/// What a plan holds (for logs and bench/results).
struct abc_plan_size {
  size_t prologue_rows = 0, block_rows = 0, block_count = 0, input_rows = 0;
  std::array<size_t, 3> prologue_nnz{}, block_nnz{};  ///< A, B, C
  size_t distinct_coefficients = 0;
  /// Terms of the block template whose coefficient is not ±1 (a full multiplication each).
  size_t block_general_terms = 0;
  /// The GPU evaluator's warp steps for one block: Σ over groups of 32 consecutive template rows
  /// (a warp) of the group's longest row (A + B + C terms). Against Σ nnz / 32 it is the cost of
  /// the rows' uneven lengths.
  size_t block_warp_steps = 0;
  size_t bytes = 0;  ///< row offsets, refs, coefficient ids and the coefficient table
  std::string to_string() const;
};

/// The distinct coefficients of a plan and their ids: [0] = 1, [1] = −1, then first seen first.
class plan_coefficients {
 public:
  plan_coefficients();
  /// The id of c, added when new.
  plan_matrix::coeff_id_t add(const ff::fr_t& c);
  /// The id of c; false when c is not in the table.
  bool find(const ff::fr_t& c, plan_matrix::coeff_id_t& id) const;
  const std::vector<ff::fr_t>& values() const { return values_; }

 private:
  std::vector<ff::fr_t> values_;
  std::map<std::array<uint64_t, 4>, plan_matrix::coeff_id_t> ids_;
};

class abc_plan {
 public:
  /// Where a term's variable lives when row r of block k is evaluated.
  enum ref_kind : uint32_t {
    input = 0,        ///< inputs[index]
    aux = 1,          ///< aux[index] (allocated before the blocks)
    block_input = 2,  ///< inputs[block_input0 + k·shape.inputs + index]
    block_aux = 3,    ///< aux[block_aux0 + k·shape.aux + index]
    /// The variable block_shared_refs()[k·shared_slots + index] names (an input or aux ref).
    block_shared = 4,
  };
  static constexpr unsigned NUM_KINDS = 5;
  static constexpr unsigned KIND_SHIFT = 29;
  static constexpr uint32_t MAX_REF_INDEX = (uint32_t(1) << KIND_SHIFT) - 1;
  static constexpr plan_matrix::ref_t make_ref(ref_kind kind, uint32_t index) {
    return (uint32_t(kind) << KIND_SHIFT) | index;
  }
  static constexpr ref_kind kind_of(plan_matrix::ref_t r) { return ref_kind(r >> KIND_SHIFT); }
  static constexpr uint32_t index_of(plan_matrix::ref_t r) { return r & MAX_REF_INDEX; }
  /// Coefficient ids of +1 and −1 (always present in the table).
  static constexpr plan_matrix::coeff_id_t ONE_ID = 0, MINUS_ONE_ID = 1;

  /// Rows 0..P are the prologue; rows P + k·R + r (k < block_count, r < R = shape.constraints) are
  /// block k's; then one row per input. The witness has num_inputs inputs and num_aux aux.
  struct layout_t {
    size_t num_inputs = 1;  ///< ONE included
    size_t num_aux = 0;
    size_t block_count = 0;
    proving_cs::block_shape block;            ///< what each block adds
    size_t block_input0 = 0, block_aux0 = 0;  ///< where block 0's inputs / aux start
    size_t shared_slots = 0;  ///< block_shared references per block (0 for most circuits)
  };

  /// The plan of explicit matrices (every row in the prologue, no blocks), e.g. a recorded
  /// circuit without blocks. Errors: validate(m)'s, and limits of the compact form (more than
  /// 2^30 variables of a kind, 2^32 nonzeros in a matrix).
  static result<abc_plan> from_matrices(const matrices& m);

  const layout_t& layout() const { return layout_; }
  const plan_section& prologue() const { return prologue_; }
  /// Block 0's rows; empty when block_count is 0.
  const plan_section& block_template() const { return block_; }
  /// block_count × shared_slots absolute refs (kind input or aux): slot j of block k is entry
  /// k·shared_slots + j.
  std::span<const plan_matrix::ref_t> block_shared_refs() const { return block_shared_refs_; }
  /// The distinct coefficients: [0] = 1, [1] = −1.
  std::span<const ff::fr_t> coefficients() const { return coeffs_.values(); }

  size_t num_inputs() const { return layout_.num_inputs; }
  size_t num_aux() const { return layout_.num_aux; }
  /// Circuit constraints (without the input rows).
  size_t num_constraints() const {
    return prologue_.num_rows() + layout_.block_count * layout_.block.constraints;
  }
  /// Rows of a, b, c: constraints, then one x_j·0 = 0 row per input (what proving_cs::finalize
  /// leaves; the prover pads to the domain).
  size_t num_rows() const { return num_constraints() + layout_.num_inputs; }

  /// a, b, c of rows [first_row, first_row + a.size()) into a, b, c (equal sizes), computed on
  /// `pool` from the witness (inputs[0] = ONE). Errors (size_mismatch): the witness does not have
  /// num_inputs / num_aux entries, inputs[0] is not ONE, the spans differ in size or run past
  /// num_rows(). The row range lets a caller fill staging buffers chunk by chunk.
  status evaluate_rows(size_t first_row, std::span<const ff::fr_t> inputs,
                       std::span<const ff::fr_t> aux, std::span<ff::fr_t> a, std::span<ff::fr_t> b,
                       std::span<ff::fr_t> c, thread_pool& pool) const;
  /// Every row (a, b, c of num_rows() entries each).
  status evaluate(std::span<const ff::fr_t> inputs, std::span<const ff::fr_t> aux,
                  std::span<ff::fr_t> a, std::span<ff::fr_t> b, std::span<ff::fr_t> c,
                  thread_pool& pool) const {
    return evaluate_rows(0, inputs, aux, a, b, c, pool);
  }

  /// The densities proving_cs tracks (aux / inputs with a nonzero coefficient in some A / B row),
  /// which depend on the circuit only: compute once per plan.
  density_bitmaps densities() const;

  abc_plan_size size() const;

 private:
  friend class abc_plan_recorder;

  layout_t layout_;
  plan_section prologue_, block_;
  std::vector<plan_matrix::ref_t> block_shared_refs_;
  plan_coefficients coeffs_;
};

/// The constraint system compile_abc_plan runs the circuit's synthesis in (no values). Not for
/// other uses: its phases are driven by compile_abc_plan.
class abc_plan_recorder {
 public:
  static constexpr bool has_values = false;
  static constexpr bool records_constraints = true;
  static constexpr bool is_witness_generator = false;

  abc_plan_recorder();

  template <class ValueFn>
  variable alloc(ValueFn&&) {
    return variable::aux(uint32_t(next_aux_++));
  }
  template <class ValueFn>
  variable alloc_input(ValueFn&&) {
    return variable::input(uint32_t(next_input_++));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    if (!status_.ok()) return;
    lc_.clear();
    build_lc(std::forward<FA>(fa), lc_);
    add_row_lc(0);
    lc_.clear();
    build_lc(std::forward<FB>(fb), lc_);
    add_row_lc(1);
    lc_.clear();
    build_lc(std::forward<FC>(fc), lc_);
    add_row_lc(2);
    end_row();
  }
  void push_namespace(const char*) {}
  void pop_namespace() {}

  size_t num_inputs() const { return next_input_; }
  size_t num_aux() const { return next_aux_; }

  /// Ends the prologue; the blocks follow.
  void begin_blocks(size_t count);
  /// Block 0 is recorded as the template; block i > 0 is numbered as a sequential synthesis
  /// numbers it and compared with the template row by row: the same rows, except that a prologue
  /// variable may be another one (consistently: one template variable, one variable of block i).
  void begin_block(size_t i);
  /// True when a checked block read other prologue variables than block 0: then every block
  /// must be checked (take_plan needs each one's table row).
  bool blocks_read_other_shared() const { return varying_shared_; }
  /// The first difference (shape, a row, a variable outside the block's window) as an internal
  /// error naming the block and row.
  status end_block();
  /// The plan (after the blocks, or after the prologue for a circuit without blocks).
  result<abc_plan> take_plan();

 private:
  enum class phase { prologue, block_record, block_check };

  void add_row_lc(int matrix);
  void end_row();
  void fail(const std::string& why);

  // Records that template ref `from` (an absolute prologue ref) is `to` in the current block.
  void map_shared(plan_matrix::ref_t from, plan_matrix::ref_t to);

  abc_plan plan_;
  phase phase_ = phase::prologue;
  size_t block_index_ = 0;
  size_t next_input_ = 0, next_aux_ = 0;
  size_t window_input0_ = 0, window_aux0_ = 0;  ///< the current block's first input / aux
  size_t block_row_ = 0;                        ///< rows of the current block so far
  status status_;
  linear_combination lc_;
  std::vector<lc_term> merged_;
  std::array<std::vector<std::pair<plan_matrix::ref_t, plan_matrix::coeff_id_t>>, 3> row_;
  /// Per checked block: template prologue ref → that block's ref (empty for unchecked blocks).
  std::vector<std::map<plan_matrix::ref_t, plan_matrix::ref_t>> shared_maps_;
  std::vector<bool> checked_;
  bool varying_shared_ = false;
};

static_assert(constraint_system<abc_plan_recorder>);

/// Compiles a blocked circuit: `shared = prologue(cs)`, then block(cs, shared, i) for block 0 (the
/// template) and block count − 1 (checked against it; when it reads other prologue variables,
/// every other block too), in an abc_plan_recorder. Use a blank
/// circuit of the shape: the rows do not depend on the witness. An internal error when block
/// count − 1 does not have block 0's rows or shape, or a block reads a variable that is neither
/// its own nor allocated before the blocks (never a plan that computes a wrong a, b, c).
template <class Prologue, class Block>
result<abc_plan> compile_abc_plan(size_t block_count, const Prologue& prologue,
                                  const Block& block) {
  abc_plan_recorder cs;
  const auto shared = prologue(cs);
  cs.begin_blocks(block_count);
  const auto run_block = [&](size_t i) {
    cs.begin_block(i);
    block(cs, shared, i);
    return cs.end_block();
  };
  if (block_count > 0) {
    if (status s = run_block(0); !s) return s;
  }
  if (block_count > 1) {
    if (status s = run_block(block_count - 1); !s) return s;
  }
  if (cs.blocks_read_other_shared()) {
    for (size_t i = 1; i + 1 < block_count; ++i)
      if (status s = run_block(i); !s) return s;
  }
  return cs.take_plan();
}

}  // namespace cuzk::r1cs
