// SPDX-License-Identifier: Apache-2.0
// SealCommitPhase1Output in rust-filecoin-proofs-api's serde JSON (docs/spec/c1.md §1): what lotus,
// curio and filecoin-ffi hand to C2. Writing reproduces serde_json's compact output byte for byte
// (field order as declared, [u8;32] as arrays of 32 integers, "_h": null on columns,
// vanilla_proofs keyed by the size-only variant name). Reading is a single-pass schema-driven
// parse (~50 MB for 32 GiB in a fraction of a second); malformed input gives a bad_encoding
// status naming the JSON path of the offending value. docs/notes/c1-formats.md.
#pragma once

#include <string>
#include <string_view>

#include "cuzk/status.hpp"
#include "filecoin/porep/vanilla_proof.hpp"

namespace cuzk::filecoin::porep {

/// The VanillaSealProof variant of a registered proof name: "StackedDrg<size>V1" (only the 5
/// production sizes have one); invalid_argument for unknown names or sizes.
result<std::string> vanilla_proof_variant(std::string_view registered_proof);

/// Compact serde_json of `c1`; invalid_argument when registered_proof is unknown or a Merkle
/// proof is not well formed.
result<std::string> write_c1_json(const c1_output_t& c1);

/// Parses the serde JSON form. Keys may come in any order (serde does not care), unknown keys are
/// skipped; missing or duplicate fields, wrong types, wrong array lengths (32 bytes, 6 DRG and
/// 8 expander columns, 37 label parents), an unknown registered_proof or vanilla_proofs variant
/// and a variant that does not match registered_proof's size are errors.
result<c1_output_t> parse_c1_json(std::string_view text);

}  // namespace cuzk::filecoin::porep
