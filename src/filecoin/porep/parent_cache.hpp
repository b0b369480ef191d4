// SPDX-License-Identifier: Apache-2.0
// The SDR parent cache (docs/spec/porep.md §3, stacked/vanilla/cache.rs): for every node its 14
// parents as u32 LE, nodes in order (56 bytes per node; 60 GB for 32 GiB). Generated
// multi-threaded, written under the official name v28-sdr-parent-<hex>.cache, or mapped from disk;
// its SHA-256 is the consistency digest listed in parent_cache.json. docs/notes/porep-graph.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/mmap_file.hpp"
#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/porep/graph.hpp"
#include "hash/sha256.hpp"

namespace cuzk::filecoin::porep {

inline constexpr size_t PARENT_CACHE_NODE_BYTES = PARENT_COUNT * sizeof(uint32_t);  // 56

/// Fills out[(v − first)·14 …] with parents(v) for v in [first, first + count), over the pool.
void generate_parents(const sdr_graph& g, uint64_t first, uint64_t count, uint32_t* out,
                      thread_pool& pool = thread_pool::default_pool());

/// A whole parent cache, held in memory or memory-mapped from a file. Move-only.
class parent_cache {
 public:
  /// Generates all nodes of g in memory (nodes · 56 bytes).
  static parent_cache generate(const sdr_graph& g, thread_pool& pool = thread_pool::default_pool());
  /// Maps an existing cache file. size_mismatch when its length is not nodes · 56.
  static result<parent_cache> open(const std::string& path, uint64_t nodes);

  parent_cache() = default;
  parent_cache(parent_cache&&) noexcept = default;
  parent_cache& operator=(parent_cache&&) noexcept = default;

  uint64_t nodes() const { return nodes_; }
  /// The 14 parents of v (DRG then expander). Precondition: v < nodes().
  const uint32_t* parents(uint64_t v) const { return data_ + v * PARENT_COUNT; }
  std::span<const uint8_t> bytes() const {
    return {reinterpret_cast<const uint8_t*>(data_), size_t(nodes_ * PARENT_CACHE_NODE_BYTES)};
  }
  /// SHA-256 of bytes().
  cuzk::hash::sha256_digest_t digest() const;
  /// Writes bytes() to `path` (io_error on failure).
  status write(const std::string& path) const;

 private:
  uint64_t nodes_ = 0;
  const uint32_t* data_ = nullptr;
  std::vector<uint32_t> owned_;
  mmap_file mapped_;
};

/// SHA-256 of the cache of g computed streaming (chunks generated over the pool, hashed in order)
/// without ever holding the whole cache: the way to check 32/64 GiB digests. chunk_nodes = 0
/// picks the default chunk (2^20 nodes, 56 MiB).
cuzk::hash::sha256_digest_t parent_cache_digest(const sdr_graph& g,
                                                thread_pool& pool = thread_pool::default_pool(),
                                                uint64_t chunk_nodes = 0);

/// Generates the cache of g and writes it to `dir`/<parent_cache_file_name()> streaming (bounded
/// memory). Returns the path written.
result<std::string> write_parent_cache(const sdr_graph& g, const std::string& dir,
                                       thread_pool& pool = thread_pool::default_pool());
/// The same to an explicit file path (written as path.tmp, then renamed). When `digest` is given
/// it receives the SHA-256 of the bytes written.
status write_parent_cache_file(const sdr_graph& g, const std::string& path,
                               thread_pool& pool = thread_pool::default_pool(),
                               cuzk::hash::sha256_digest_t* digest = nullptr);

/// One entry of parent_cache.json: key "v28-sdr-parent-<hex>", sector_size, digest (hex).
struct parent_cache_fact_t {
  std::string id;
  uint64_t sector_size = 0;
  std::string digest_hex;
};
/// Parses the parent_cache.json format (a flat object of {sector_size, digest} objects).
result<std::vector<parent_cache_fact_t>> parse_parent_cache_json(std::string_view json);
result<std::vector<parent_cache_fact_t>> read_parent_cache_json(const std::string& path);

/// Checks a cache (mapped or generated) for graph g against the facts: the entry named
/// g.parent_cache_id() must exist with g's sector size, and the digest must match.
status verify_parent_cache(const parent_cache& cache, const sdr_graph& g,
                           std::span<const parent_cache_fact_t> facts);

}  // namespace cuzk::filecoin::porep
