// SPDX-License-Identifier: Apache-2.0
// r1cs::matrices: an R1CS as three sparse matrices A, B, C over Fr (CSR by constraint row). What a
// Groth16 setup needs (QAP evaluation at tau), what an iden3 .r1cs file holds, and what a recording
// constraint system produces. Holds the circuit's own constraints only: the x_j·0 = 0 row per
// input that bellperson appends is added by the consumers (setup, assignment building), so every
// consumer agrees on it in one place (see input_constraint_rows()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/fields.hpp"

namespace cuzk::r1cs {

/// Column index space shared by all three matrices: [0, num_inputs) are inputs (0 = ONE), then
/// [num_inputs, num_inputs + num_aux) are aux variables in allocation order.
struct sparse_matrix {
  std::vector<uint64_t> row_offsets{0};  ///< rows + 1 entries; row i is [row_offsets[i], [i+1])
  std::vector<uint32_t> columns;         ///< variable index, see above
  std::vector<ff::fr_t> coeffs;          ///< merged coefficients (duplicates summed)

  size_t num_rows() const { return row_offsets.size() - 1; }
  size_t nnz() const { return columns.size(); }
};

struct matrices {
  size_t num_inputs = 1;  ///< including ONE
  size_t num_aux = 0;
  sparse_matrix a, b, c;

  size_t num_constraints() const { return a.num_rows(); }
  /// Rows of the Groth16 QAP: the circuit's constraints plus one x_j·0 = 0 row per input.
  size_t input_constraint_rows() const { return num_inputs; }
  size_t num_rows() const { return num_constraints() + input_constraint_rows(); }
  size_t num_variables() const { return num_inputs + num_aux; }
};

}  // namespace cuzk::r1cs
