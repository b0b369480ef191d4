// SPDX-License-Identifier: Apache-2.0
// Poseidon constants as neptune derives them for BLS12-381 Fr (docs/spec/poseidon.md §1–§4, neptune
// spec/poseidon_spec.md): Grain-LFSR round constants for (t, R_F, R_P), the Cauchy MDS matrix, and
// the "static optimized" set (compressed round constants, pre-sparse matrix, R_P sparse matrices).
// Computed once per arity on first use and cached for the life of the process (thread-safe).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fields.hpp"

namespace cuzk::filecoin::hash {

using ff::fr_t;

/// Arities Filecoin instantiates (docs/spec/poseidon.md §1); width t = arity + 1.
inline constexpr size_t POSEIDON_ARITIES[] = {2, 4, 8, 11, 16, 24, 36};
inline constexpr size_t POSEIDON_MAX_ARITY = 36;
inline constexpr size_t POSEIDON_MAX_WIDTH = POSEIDON_MAX_ARITY + 1;
inline constexpr size_t POSEIDON_FULL_ROUNDS = 8;  ///< R_F, every arity (Strength::Standard)

/// True for the arities in POSEIDON_ARITIES.
bool poseidon_arity_supported(size_t arity);
/// R_P for a supported arity (neptune round_numbers.rs, Standard strength), 0 otherwise.
size_t poseidon_partial_rounds(size_t arity);

/// A t×t matrix, row-major: m[i*t + j] = M[i][j].
struct square_matrix_t {
  size_t n = 0;
  std::vector<fr_t> m;
  const fr_t& at(size_t i, size_t j) const { return m[i * n + j]; }
  fr_t& at(size_t i, size_t j) { return m[i * n + j]; }
};

/// neptune's SparseMatrix (the M'' factor): identity except a dense first column (w_hat, t values)
/// and a dense first row (v_rest, the t - 1 values after [0][0]).
struct sparse_matrix_t {
  std::vector<fr_t> w_hat;   ///< M''[i][0], i = 0..t-1
  std::vector<fr_t> v_rest;  ///< M''[0][j], j = 1..t-1
};

struct poseidon_constants_t {
  size_t arity = 0;
  size_t width = 0;           ///< t = arity + 1
  size_t full_rounds = 0;     ///< R_F = 8
  size_t partial_rounds = 0;  ///< R_P
  /// Plain Grain constants, (R_F + R_P)·t values; round r adds [r·t, (r+1)·t).
  std::vector<fr_t> round_constants;
  square_matrix_t mds;      ///< M[i][j] = 1 / (i + (t + j)), symmetric
  square_matrix_t mds_inv;  ///< M^-1
  /// t·R_F + R_P values: t pre-keys for round 0, then one post-S-box key per S-box, except the
  /// terminal full round which has none (neptune preprocessing.rs compress_round_constants).
  std::vector<fr_t> compressed_round_constants;
  square_matrix_t pre_sparse;           ///< replaces M after full round R_F/2 - 1
  std::vector<sparse_matrix_t> sparse;  ///< R_P factors, one per partial round, in round order

  size_t half_full_rounds() const { return full_rounds / 2; }
  size_t total_rounds() const { return full_rounds + partial_rounds; }
  /// Number of Fr in the supra_seal constants blob layout (docs/spec/poseidon.md §4):
  /// compressed RCs + MDS + pre-sparse + R_P·(2t - 1).
  size_t blob_fr_count() const {
    return compressed_round_constants.size() + 2 * width * width + partial_rounds * (2 * width - 1);
  }
};

/// The cached constants for `arity` (must be supported; aborts otherwise). The first call per
/// arity computes them (a few ms for arity 36); later calls are a load.
const poseidon_constants_t& poseidon_constants(size_t arity);

/// Builds the constants from scratch (what the cache calls). For tests and tools.
poseidon_constants_t make_poseidon_constants(size_t arity);

/// The Grain LFSR round constants for a prime field of `field_bits` bits (here 255) and the given
/// instance (docs/spec/poseidon.md §2). Returns (r_f + r_p)·t values.
std::vector<fr_t> grain_round_constants(unsigned field_bits, unsigned t, unsigned r_f,
                                        unsigned r_p);

/// Inverse of a square matrix by Gauss-Jordan elimination; false when singular.
bool invert_matrix(const square_matrix_t& a, square_matrix_t& out);

}  // namespace cuzk::filecoin::hash
