// SPDX-License-Identifier: Apache-2.0
// Parameter-file digests as Filecoin publishes them (parameters.json: official file name →
// {cid, digest, sector_size}, digest = the first 32 hex chars of BLAKE2b-512 of the whole file):
// hashing a file in 1 MiB chunks, reading parameters.json, the PoRep and PoSt facts built in, and
// checking the files of a parameter directory against them (issue 7 item 3; docs/spec/params.md
// §1–§2).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/status.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/post/config.hpp"

namespace cuzk::filecoin::proofs {

/// One parameters.json entry.
struct param_fact_t {
  std::string name;    ///< official file name (no directory)
  std::string digest;  ///< 32 lowercase hex chars: BLAKE2b-512 of the file, truncated
  uint64_t sector_size = 0;
};

/// The PoRep (stacked-proof-of-replication) .params/.vk entries of the official parameters.json
/// (v28; 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB), copied from
/// shared/fixtures/filecoin/parameters.json; a unit test checks they equal the fixture.
std::span<const param_fact_t> builtin_porep_facts();
/// The PoSt (proof-of-spacetime-fallback) entries of the same file: WindowPoSt and WinningPoSt of
/// every size; a unit test checks they equal the fixture.
std::span<const param_fact_t> builtin_post_facts();
/// Both tables (what `cuzk params check` checks against by default).
std::vector<param_fact_t> builtin_param_facts();

/// Parses a parameters.json text: an object of name → {"cid", "digest", "sector_size"} (other
/// fields ignored). bad_encoding on malformed JSON or a digest that is not 32 hex chars.
result<std::vector<param_fact_t>> parse_parameters_json(std::string_view text);
result<std::vector<param_fact_t>> read_parameters_json(const std::string& path);

/// Lowercase hex of BLAKE2b-512 of the file at `path`, read in 1 MiB chunks (constant memory;
/// ~1 GB/s/core, so a 32 GiB .params takes ~half a minute). io_error if unreadable.
result<std::string> blake2b512_file_hex(const std::string& path);

enum class digest_verdict { ok, mismatch, unknown };
const char* name_of(digest_verdict v);

struct digest_check_t {
  std::string path, name;
  std::string expected;  ///< empty when unknown
  std::string actual;    ///< the first 32 hex chars of the file's BLAKE2b-512
  digest_verdict verdict = digest_verdict::unknown;
};

/// Hashes `path` and compares with the fact of its file name (`unknown` when `facts` has none).
result<digest_check_t> check_param_file(const std::string& path,
                                        std::span<const param_fact_t> facts);

/// Checks every present official-named file of `dir`: the .params/.vk of `proof` when given,
/// else every file of `dir` whose name is in `facts` or ends in .params/.vk. Missing files are
/// skipped (not an error); io_error if `dir` cannot be listed.
result<std::vector<digest_check_t>> check_params_dir(
    const std::string& dir, std::span<const param_fact_t> facts,
    std::optional<porep::registered_seal_proof> proof = std::nullopt);
/// The same for the .params/.vk of a registered PoSt proof.
result<std::vector<digest_check_t>> check_params_dir(const std::string& dir,
                                                     std::span<const param_fact_t> facts,
                                                     post::registered_post_proof proof);

}  // namespace cuzk::filecoin::proofs
