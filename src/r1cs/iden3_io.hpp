// SPDX-License-Identifier: Apache-2.0
// iden3's binary circuit and witness files (circom, snarkjs; docs/notes/interop.md): `.r1cs`
// (iden3/r1csfile format v1) to and from r1cs::matrices, and `.wtns` (version 2) to and from Fr
// vectors. Only the BLS12-381 scalar field is accepted. Files are untrusted: every count, size and
// value is checked and failures come back as status naming the section and field, never a crash.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

/// The header section of a .r1cs file. Wire 0 is ONE, then nPubOut public outputs, nPubIn public
/// inputs, nPrvIn private inputs, then internal wires (circom's order).
struct iden3_header {
  uint32_t num_wires = 1;
  uint32_t num_pub_out = 0;
  uint32_t num_pub_in = 0;
  uint32_t num_prv_in = 0;
  uint64_t num_labels = 1;
  uint32_t num_constraints = 0;

  /// Groth16 inputs: ONE, the public outputs, the public inputs.
  uint64_t num_public() const { return uint64_t(num_pub_out) + num_pub_in; }
};

/// A parsed .r1cs. The wire → variable mapping is the identity: wires [0, 1 + nPubOut + nPubIn)
/// are cs's inputs (num_inputs), the rest its aux in wire order.
struct iden3_r1cs {
  iden3_header header;
  matrices cs;
  /// Section 3 (wire → label id), one entry per wire. Required on read: it is what ties nWires
  /// to the file's size (a missing map is bad_encoding, a map of the wrong size bad_length).
  std::vector<uint64_t> wire_to_label;
};

/// Parses a whole .r1cs held in memory. Sections may come in any order; unknown section types are
/// skipped, the PLONK custom-gate sections (4, 5) are refused (Groth16 cannot use them), a repeated
/// header/constraint/map section is refused. Errors: bad_encoding (magic, version, prime
/// "unsupported prime …", duplicate wire in one linear combination), bad_length (truncated header,
/// section or term; size overflow; trailing bytes in a section), invalid_argument (wire id ≥
/// nWires, counts inconsistent), non_canonical (coefficient ≥ r). Messages start with the section
/// ("constraints: constraint 12 B term 3: wire 99 >= nWires 40").
result<iden3_r1cs> parse_r1cs(std::span<const uint8_t> bytes);
/// Maps the file and parses it (io_error when it cannot be read); the message starts with the path.
result<iden3_r1cs> read_r1cs(const std::string& path);

struct r1cs_write_options {
  /// How many of cs's public inputs (cs.num_inputs − 1) are outputs; the rest are public inputs.
  uint32_t num_pub_out = 0;
  /// Informational count of private inputs among the aux wires.
  uint32_t num_prv_in = 0;
  /// Section 3; empty = identity (label i for wire i).
  std::vector<uint64_t> wire_to_label;
};

/// The .r1cs bytes of a circuit (sections header, constraints, wire map, in that order; every term
/// as written in cs, coefficients canonical little-endian). invalid_argument when the circuit does
/// not fit the format (more than 2^32 − 1 wires, constraints or terms per combination), the options
/// disagree with it, or validate(cs) fails.
result<std::vector<uint8_t>> r1cs_to_bytes(const matrices& cs, const r1cs_write_options& opt = {});
/// Writes path.tmp and renames it over path.
status write_r1cs(const std::string& path, const matrices& cs, const r1cs_write_options& opt = {});

/// Parses a .wtns (version 2): section 1 = n8, prime, nWitness; section 2 = nWitness canonical
/// little-endian values. Same error classes as parse_r1cs.
result<std::vector<ff::fr_t>> parse_wtns(std::span<const uint8_t> bytes);
result<std::vector<ff::fr_t>> read_wtns(const std::string& path);
std::vector<uint8_t> wtns_to_bytes(std::span<const ff::fr_t> witness);
status write_wtns(const std::string& path, std::span<const ff::fr_t> witness);

/// A full witness (one value per wire) split into Groth16 inputs (ONE first) and aux for `cs`.
struct split_witness_t {
  std::vector<ff::fr_t> inputs, aux;
};
/// size_mismatch when |witness| ≠ num_inputs + num_aux; invalid_argument when witness[0] ≠ 1.
result<split_witness_t> split_witness(const matrices& cs, std::span<const ff::fr_t> witness);

}  // namespace cuzk::r1cs
