// SPDX-License-Identifier: Apache-2.0
// The lotus-bench / cuzk c1.json wrapper (docs/spec/c1.md §3): Go encoding/json of
// {"SectorNum": N, "Phase1Out": base64 of the c1.md §1 serde JSON, "SectorSize": uint64}, and
// file-level helpers that read a C1 in any of the three forms (wrapper, raw serde JSON, bincode
// v1) and write the wrapper. docs/notes/c1-formats.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/status.hpp"
#include "filecoin/porep/vanilla_proof.hpp"

namespace cuzk::filecoin::porep {

struct c1_wrapper_t {
  /// A sector id: u64 over its full range, as filecoin-proofs' SectorId(u64) and Go's
  /// abi.SectorNumber. Written and read as an unsigned decimal (2^64 − 1 round-trips).
  uint64_t sector_num = 0;
  std::string phase1_out;  ///< decoded Phase1Out: the serde JSON bytes
  uint64_t sector_size = 0;
};

/// {"SectorNum":N,"Phase1Out":"<base64>","SectorSize":S} (Go's field order, compact).
std::string write_c1_wrapper(const c1_wrapper_t& w);
/// Parses the wrapper and decodes Phase1Out; bad_encoding naming the field on any error.
result<c1_wrapper_t> parse_c1_wrapper(std::string_view text);

/// Which form a C1 buffer is in: a JSON object whose first key is SectorNum/Phase1Out/SectorSize
/// is the wrapper, any other JSON object the raw serde form, anything else bincode.
enum class c1_format { wrapper, json, bincode };
c1_format detect_c1_format(std::span<const uint8_t> bytes);

/// A C1 from a buffer in any form. `registered_proof` is required for bincode (the v1 struct
/// lacks it) and ignored otherwise. For the wrapper, SectorSize must match registered_proof.
/// `sector_num` (optional) receives the wrapper's SectorNum; other forms leave it empty.
result<c1_output_t> parse_c1_any(std::span<const uint8_t> bytes,
                                 std::string_view registered_proof = {},
                                 std::optional<uint64_t>* sector_num = nullptr);
/// Reads a file (mmap; regular files only) and calls parse_c1_any; io_error when it cannot be read.
result<c1_output_t> read_c1_file(const std::string& path, std::string_view registered_proof = {},
                                 std::optional<uint64_t>* sector_num = nullptr);

/// The wrapper text for `c1` (SectorSize from its registered proof).
result<std::string> c1_to_wrapper_json(const c1_output_t& c1, uint64_t sector_num);
/// Writes c1_to_wrapper_json to `path` atomically (base/file_io.hpp); io_error on failure.
status write_c1_wrapper_file(const std::string& path, const c1_output_t& c1, uint64_t sector_num);

}  // namespace cuzk::filecoin::porep
