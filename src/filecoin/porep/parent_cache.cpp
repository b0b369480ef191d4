// SPDX-License-Identifier: Apache-2.0
// Parent-cache generation (chunks of nodes spread over the pool), streaming digest and file
// output, mapping of an existing file, and the parent_cache.json facts it is checked against.
#include "filecoin/porep/parent_cache.hpp"

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/file_io.hpp"
#include "base/hex.hpp"

namespace cuzk::filecoin::porep {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the cache is 14 × u32 LE per node, stored as the host's uint32_t");

// Nodes per streaming chunk: 2^20 nodes = 56 MiB, enough work to keep every thread busy.
constexpr uint64_t STREAM_CHUNK_NODES = uint64_t(1) << 20;

// Generates [first, first + count) in chunks over the pool and calls sink(bytes) in order.
template <class Sink>
void stream_cache(const sdr_graph& g, thread_pool& pool, Sink&& sink,
                  uint64_t chunk = STREAM_CHUNK_NODES) {
  std::vector<uint32_t> buf(size_t(std::min(g.nodes(), chunk) * PARENT_COUNT));
  for (uint64_t first = 0; first < g.nodes(); first += chunk) {
    const uint64_t count = std::min(chunk, g.nodes() - first);
    generate_parents(g, first, count, buf.data(), pool);
    sink(reinterpret_cast<const uint8_t*>(buf.data()), size_t(count * PARENT_CACHE_NODE_BYTES));
  }
}

/// parent-cache facts JSON: a few hundred bytes per sector size; anything near this is not one.
constexpr uint64_t MAX_FACTS_JSON_BYTES = uint64_t(16) << 20;

}  // namespace

void generate_parents(const sdr_graph& g, uint64_t first, uint64_t count, uint32_t* out,
                      thread_pool& pool) {
  pool.parallel_range(
      size_t(count),
      [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) g.parents(first + i, out + i * PARENT_COUNT);
      },
      256);
}

parent_cache parent_cache::generate(const sdr_graph& g, thread_pool& pool) {
  parent_cache c;
  c.nodes_ = g.nodes();
  c.owned_.resize(size_t(g.nodes() * PARENT_COUNT));
  generate_parents(g, 0, g.nodes(), c.owned_.data(), pool);
  c.data_ = c.owned_.data();
  return c;
}

result<parent_cache> parent_cache::open(const std::string& path, uint64_t nodes) {
  mmap_options opt;
  opt.hint = access_hint::random;
  auto m = mmap_file::open(path, opt);
  if (!m) return m.error();
  if (m->size() != nodes * PARENT_CACHE_NODE_BYTES)
    return {status_code::size_mismatch, "parent cache " + path + " has " +
                                            std::to_string(m->size()) + " bytes, expected " +
                                            std::to_string(nodes * PARENT_CACHE_NODE_BYTES)};
  parent_cache c;
  c.nodes_ = nodes;
  c.mapped_ = std::move(*m);
  c.data_ = reinterpret_cast<const uint32_t*>(c.mapped_.data());
  return c;
}

cuzk::hash::sha256_digest_t parent_cache::digest() const {
  return cuzk::hash::sha256_digest(bytes());
}

status parent_cache::write(const std::string& path) const {
  const auto b = bytes();
  return write_file_atomic(path, std::span(reinterpret_cast<const uint8_t*>(b.data()), b.size()));
}

cuzk::hash::sha256_digest_t parent_cache_digest(const sdr_graph& g, thread_pool& pool,
                                                uint64_t chunk_nodes) {
  cuzk::hash::sha256_t h;
  stream_cache(
      g, pool, [&](const uint8_t* p, size_t n) { h.update(p, n); },
      chunk_nodes ? chunk_nodes : STREAM_CHUNK_NODES);
  return h.finalize();
}

status write_parent_cache_file(const sdr_graph& g, const std::string& path, thread_pool& pool,
                               cuzk::hash::sha256_digest_t* digest) {
  // Written through a temporary sibling, so a crash never leaves a truncated official file.
  auto w = atomic_file_writer::create(path);
  if (!w) return w.error();
  status written;
  cuzk::hash::sha256_t h;
  stream_cache(g, pool, [&](const uint8_t* p, size_t n) {
    if (written.ok()) written = w->write({p, n});
    if (digest) h.update(p, n);
  });
  if (digest) *digest = h.finalize();
  if (!written) return written;
  return w->commit();
}

result<std::string> write_parent_cache(const sdr_graph& g, const std::string& dir,
                                       thread_pool& pool) {
  std::string path = dir;
  if (!path.empty() && path.back() != '/') path += '/';
  path += g.parent_cache_file_name();
  if (status s = write_parent_cache_file(g, path, pool); !s) return s;
  return path;
}

// ---- parent_cache.json -----------------------------------------------------------------------

namespace {

// A tiny reader for the flat two-level JSON object of parent_cache.json: strings without
// escapes, unsigned integers, objects. Anything else is bad_encoding.
class json_reader {
 public:
  explicit json_reader(std::string_view s) : s_(s) {}

  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t'))
      ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool string(std::string& out) {
    if (!eat('"')) return false;
    const size_t end = s_.find('"', i_);
    if (end == std::string_view::npos) return false;
    out.assign(s_.substr(i_, end - i_));
    if (out.find('\\') != std::string::npos) return false;
    i_ = end + 1;
    return true;
  }
  bool number(uint64_t& out) {
    ws();
    const size_t start = i_;
    out = 0;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      const uint64_t d = uint64_t(s_[i_] - '0');
      if (out > (UINT64_MAX - d) / 10) return false;
      out = out * 10 + d;
      ++i_;
    }
    return i_ > start;
  }
  bool at_end() {
    ws();
    return i_ == s_.size();
  }
  size_t pos() const { return i_; }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

status json_error(const json_reader& r, const std::string& what) {
  return {status_code::bad_encoding,
          "parent_cache.json: " + what + " at byte " + std::to_string(r.pos())};
}

}  // namespace

result<std::vector<parent_cache_fact_t>> parse_parent_cache_json(std::string_view json) {
  json_reader r(json);
  std::vector<parent_cache_fact_t> facts;
  if (!r.eat('{')) return json_error(r, "expected '{'");
  if (r.eat('}')) return facts;
  do {
    parent_cache_fact_t f;
    if (!r.string(f.id)) return json_error(r, "expected an entry name");
    if (!r.eat(':') || !r.eat('{')) return json_error(r, "expected an object for " + f.id);
    bool have_size = false, have_digest = false;
    do {
      std::string key;
      if (!r.string(key) || !r.eat(':')) return json_error(r, "expected a field name");
      if (key == "sector_size") {
        if (!r.number(f.sector_size)) return json_error(r, "bad sector_size");
        have_size = true;
      } else if (key == "digest") {
        if (!r.string(f.digest_hex)) return json_error(r, "bad digest");
        have_digest = true;
      } else {
        return json_error(r, "unknown field '" + key + "'");
      }
    } while (r.eat(','));
    if (!r.eat('}')) return json_error(r, "expected '}'");
    if (!have_size || !have_digest) return json_error(r, f.id + " lacks sector_size or digest");
    facts.push_back(std::move(f));
  } while (r.eat(','));
  if (!r.eat('}') || !r.at_end()) return json_error(r, "expected the closing '}'");
  return facts;
}

result<std::vector<parent_cache_fact_t>> read_parent_cache_json(const std::string& path) {
  auto text = read_text_file_bounded(path, MAX_FACTS_JSON_BYTES);
  if (!text) return text.error();
  return parse_parent_cache_json(*text);
}

status verify_parent_cache(const parent_cache& cache, const sdr_graph& g,
                           std::span<const parent_cache_fact_t> facts) {
  if (cache.nodes() != g.nodes())
    return {status_code::size_mismatch, "parent cache node count differs from the graph"};
  const std::string id = g.parent_cache_id();
  for (const auto& f : facts) {
    if (f.id != id) continue;
    if (f.sector_size != g.nodes() * 32)
      return {status_code::size_mismatch, id + ": sector_size " + std::to_string(f.sector_size) +
                                              " in the facts, graph has " +
                                              std::to_string(g.nodes() * 32)};
    const std::string got = to_hex(cache.digest());
    if (got != f.digest_hex)
      return {status_code::bad_encoding,
              id + ": digest " + got + " differs from the expected " + f.digest_hex};
    return {};
  }
  return {status_code::invalid_argument, "no parent_cache.json entry named " + id};
}

}  // namespace cuzk::filecoin::porep
