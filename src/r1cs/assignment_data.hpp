// SPDX-License-Identifier: Apache-2.0
// From a recorded circuit (r1cs::matrices: matrix_cs, an iden3 .r1cs, a precompiled circuit) and a
// witness (witness_cs, a .wtns) to what the prover consumes: per-row a, b, c with bellperson's
// x_j·0 = 0 input rows appended, and the a_aux / b_input / b_aux densities, equal to what
// proving_cs computes while synthesising the same circuit (a variable is dense when its merged
// coefficient in some A / B row is nonzero).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "base/bitmap.hpp"
#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

struct density_bitmaps {
  bitmap a_aux;    ///< num_aux bits
  bitmap b_input;  ///< num_inputs bits
  bitmap b_aux;    ///< num_aux bits
};

/// The prover's input built from matrices + witness. Owns a, b, c (num_rows() each); the input and
/// aux assignments stay with the caller.
struct assignment_data {
  std::vector<ff::fr_t> a, b, c;
  density_bitmaps density;
  size_t num_rows() const { return a.size(); }
};

/// Structural checks for matrices from untrusted sources: num_inputs >= 1, three matrices with the
/// same row count, monotone row offsets ending at nnz, equal column/coefficient counts, and every
/// column < num_inputs + num_aux.
status validate(const matrices& m);

/// Densities of a (validated) circuit. Entries with a zero coefficient do not count; repeated
/// columns in one row are merged first (a circuit from a file need not be merged).
density_bitmaps compute_densities(const matrices& m);

/// The first circuit row i with <A_i,w>·<B_i,w> != <C_i,w>, or nullopt when all hold. The input
/// rows x_j·0 = 0 always hold and are not checked. Precondition: validate(m) and sizes match.
std::optional<size_t> is_satisfied(const matrices& m, std::span<const ff::fr_t> inputs,
                                   std::span<const ff::fr_t> aux);

/// a, b, c for every row (circuit rows in parallel on `pool`, then one row a = x_j, b = c = 0 per
/// input) and the densities. Fails with size_mismatch when the assignment does not fit the
/// matrices or inputs[0] is not ONE, and with validate()'s error for malformed matrices.
result<assignment_data> build_assignment_data(const matrices& m, std::span<const ff::fr_t> inputs,
                                              std::span<const ff::fr_t> aux, thread_pool& pool);

}  // namespace cuzk::r1cs
