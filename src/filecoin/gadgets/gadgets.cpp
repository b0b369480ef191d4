// SPDX-License-Identifier: Apache-2.0
// cuzk_gadgets' compiled part. The gadgets are templates over the constraint system; instantiating
// the SHA-256 and SHA256-trunc254 circuits here for every CS (proving, witness, shape, matrix with
// and without values) checks that one gadget source serves all of them.
#include "filecoin/gadgets/sha256.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::filecoin::gadgets {

#define CUZK_GADGETS_INSTANTIATE(CS)                                                          \
  template void sha256<CS>(CS&, std::span<const boolean_t>, boolean_t*);                      \
  template allocated_num_t sha256_trunc254_leaves<CS>(CS&, std::span<const allocated_num_t>); \
  template void pack_into_inputs<CS>(CS&, std::span<const boolean_t>);

CUZK_GADGETS_INSTANTIATE(r1cs::proving_cs)
CUZK_GADGETS_INSTANTIATE(r1cs::witness_cs)
CUZK_GADGETS_INSTANTIATE(r1cs::shape_cs)
CUZK_GADGETS_INSTANTIATE(r1cs::matrix_cs)
CUZK_GADGETS_INSTANTIATE(r1cs::matrix_witness_cs)

#undef CUZK_GADGETS_INSTANTIATE

}  // namespace cuzk::filecoin::gadgets
