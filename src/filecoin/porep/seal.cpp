// SPDX-License-Identifier: Apache-2.0
// Sealing small sectors in memory; phases timed. Parallel where the work is independent: parent
// generation, tree levels, column hashes and encoding run over the pool; labeling is a sequential
// hash chain (labels.hpp).
#include "filecoin/porep/seal.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "base/file_io.hpp"
#include "filecoin/common/fr32.hpp"
#include "filecoin/hash/poseidon.hpp"
#include "filecoin/porep/replica_id.hpp"

namespace cuzk::filecoin::porep {

using common::fr32_pad;
using common::fr32_padded_size;
using common::fr32_unpadded_size;
using ff::fr_t;
using hash::bytes32_t;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

fr_t fr_of(const bytes32_t& b) {
  fr_t x;
  hash::bytes_to_fr(b, x);  // labels and padded leaves are < 2^254 < r
  return x;
}

status write_file(const std::filesystem::path& path, const void* data, size_t n) {
  return write_file_atomic(path.string(), std::span(static_cast<const uint8_t*>(data), n));
}

template <class Tree, class Conv>
status write_tree(const std::filesystem::path& path, const Tree& t, Conv&& to_bytes) {
  std::vector<uint8_t> out;
  for (unsigned l = 0; l <= t.height(); ++l)
    for (const auto& v : t.level(l)) {
      const bytes32_t b = to_bytes(v);
      out.insert(out.end(), b.begin(), b.end());
    }
  return write_file(path, out.data(), out.size());
}

}  // namespace

fr_t column_hash(const sdr_labels_t& labels, uint64_t v) {
  fr_t rows[16];
  for (unsigned l = 1; l <= labels.layers; ++l) rows[l - 1] = fr_of(labels.at(l, v));
  return hash::poseidon_hash(std::span<const fr_t>(rows, labels.layers));
}

bool column_hash(std::span<const bytes32_t> rows, fr_t& out) {
  if (rows.empty() || rows.size() > 16 || !hash::poseidon_arity_supported(rows.size()))
    return false;
  fr_t v[16];
  for (size_t i = 0; i < rows.size(); ++i)
    if (!hash::bytes_to_fr(rows[i], v[i])) return false;
  out = hash::poseidon_hash(std::span<const fr_t>(v, rows.size()));
  return true;
}

result<sealed_sector_t> seal_sector(const seal_request_t& req, std::span<const uint8_t> payload,
                                    thread_pool& pool) {
  const uint64_t sector = req.config.sector.sector_bytes;
  if (sector == 0 || sector > MAX_SEAL_SECTOR_BYTES)
    return {status_code::invalid_argument,
            "sealing holds the sector in memory: sizes up to 512 MiB only, got " +
                std::to_string(sector)};
  if (payload.size() > fr32_unpadded_size(sector))
    return {status_code::invalid_argument,
            "payload of " + std::to_string(payload.size()) + " bytes exceeds the sector's " +
                std::to_string(fr32_unpadded_size(sector)) + " unpadded bytes"};
  std::vector<bytes32_t> leaves(sector / 32);  // zero-initialized: the zero-data tail
  fr32_pad(payload, {leaves.front().data(), size_t(fr32_padded_size(payload.size()))});
  return seal_padded_sector(req, std::move(leaves), pool);
}

result<sealed_sector_t> seal_padded_sector(const seal_request_t& req, std::vector<bytes32_t> leaves,
                                           thread_pool& pool) {
  const porep_config_t& cfg = req.config;
  const uint64_t nodes = cfg.nodes();
  if (cfg.sector.sector_bytes > MAX_SEAL_SECTOR_BYTES)
    return {status_code::invalid_argument, "sealing supports sectors up to 512 MiB"};
  if (leaves.size() != nodes)
    return {status_code::size_mismatch, "sector data has " + std::to_string(leaves.size()) +
                                            " nodes, the sector " + std::to_string(nodes)};
  for (uint64_t v = 0; v < nodes; ++v) {
    fr_t x;
    if (!hash::bytes_to_fr(leaves[v], x))
      return {status_code::non_canonical, "sector data node " + std::to_string(v) + " is >= r"};
  }

  sealed_sector_t s;
  s.request = req;
  auto t0 = std::chrono::steady_clock::now();
  s.parents = parent_cache::generate(sdr_graph(cfg), pool);
  s.timings.parents = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  auto td = hash::sha256_tree::build(cfg.sector.tree_d, std::move(leaves), pool);
  if (!td) return td.error();
  s.tree_d = std::move(*td);
  s.comm_d = s.tree_d.root();
  s.timings.tree_d = seconds_since(t0);

  s.replica_id =
      compute_replica_id(req.prover_id, req.sector_id, req.ticket, s.comm_d, cfg.porep_id);
  t0 = std::chrono::steady_clock::now();
  s.labels = compute_labels(s.replica_id, s.parents, cfg.layers());
  s.timings.labels = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  std::vector<fr_t> columns(nodes);
  pool.parallel_range(
      nodes,
      [&](size_t b, size_t e) {
        for (size_t v = b; v < e; ++v) columns[v] = column_hash(s.labels, v);
      },
      256);
  auto tc = hash::poseidon_tree::build(cfg.sector.tree_r, std::move(columns), pool);
  if (!tc) return tc.error();
  s.tree_c = std::move(*tc);
  s.timings.tree_c = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  std::vector<fr_t> replica(nodes);
  const auto last = s.labels.layer(cfg.layers());
  const auto data = s.tree_d.leaves();
  pool.parallel_range(
      nodes,
      [&](size_t b, size_t e) {
        for (size_t v = b; v < e; ++v) replica[v] = fr_of(last[v]) + fr_of(data[v]);
      },
      4096);
  auto tr = hash::poseidon_tree::build(cfg.sector.tree_r, std::move(replica), pool);
  if (!tr) return tr.error();
  s.tree_r_last = std::move(*tr);
  s.timings.tree_r_last = seconds_since(t0);

  s.comm_c = hash::fr_to_bytes(s.tree_c.root());
  s.comm_r_last = hash::fr_to_bytes(s.tree_r_last.root());
  const fr_t pair[2] = {s.tree_c.root(), s.tree_r_last.root()};
  s.comm_r = hash::fr_to_bytes(hash::poseidon_hash(std::span<const fr_t>(pair, 2)));
  return s;
}

status write_sealed_sector(const sealed_sector_t& s, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return {status_code::io_error, "cannot create " + dir + ": " + ec.message()};
  const fs::path d(dir);
  const auto leaves = s.tree_d.leaves();
  if (auto st = write_file(d / "unsealed", leaves.data(), leaves.size() * 32); !st) return st;
  std::vector<uint8_t> rep;
  rep.reserve(s.replica().size() * 32);
  for (const auto& x : s.replica()) {
    const bytes32_t b = hash::fr_to_bytes(x);
    rep.insert(rep.end(), b.begin(), b.end());
  }
  if (auto st = write_file(d / "sealed", rep.data(), rep.size()); !st) return st;
  if (auto st =
          write_tree(d / "sc-02-data-tree-d.dat", s.tree_d, [](const bytes32_t& b) { return b; });
      !st)
    return st;
  const auto fr_bytes = [](const fr_t& x) { return hash::fr_to_bytes(x); };
  if (auto st = write_tree(d / "sc-02-data-tree-c.dat", s.tree_c, fr_bytes); !st) return st;
  if (auto st = write_tree(d / "sc-02-data-tree-r-last.dat", s.tree_r_last, fr_bytes); !st)
    return st;
  for (unsigned l = 1; l <= s.labels.layers; ++l) {
    const auto layer = s.labels.layer(l);
    if (auto st = write_file(d / ("sc-02-data-layer-" + std::to_string(l) + ".dat"), layer.data(),
                             layer.size() * 32);
        !st)
      return st;
  }
  uint8_t p_aux[64];
  std::memcpy(p_aux, s.comm_c.data(), 32);
  std::memcpy(p_aux + 32, s.comm_r_last.data(), 32);
  return write_file(d / "p_aux", p_aux, 64);
}

}  // namespace cuzk::filecoin::porep
