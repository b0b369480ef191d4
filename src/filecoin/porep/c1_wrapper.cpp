// SPDX-License-Identifier: Apache-2.0
// c1.json wrapper: Go-style JSON around base64(serde JSON); format detection and file helpers.
#include "filecoin/porep/c1_wrapper.hpp"

#include <cstdio>

#include "base/base64.hpp"
#include "base/file_io.hpp"
#include "base/json_reader.hpp"
#include "base/mmap_file.hpp"
#include "filecoin/porep/c1_bincode.hpp"
#include "filecoin/porep/c1_json.hpp"
#include "filecoin/porep/config.hpp"

namespace cuzk::filecoin::porep {

std::string write_c1_wrapper(const c1_wrapper_t& w) {
  const std::string b64 = base64_encode(std::span<const uint8_t>(
      reinterpret_cast<const uint8_t*>(w.phase1_out.data()), w.phase1_out.size()));
  std::string out;
  out.reserve(b64.size() + 96);
  out += "{\"SectorNum\":";
  out += std::to_string(w.sector_num);
  out += ",\"Phase1Out\":\"";
  out += b64;
  out += "\",\"SectorSize\":";
  out += std::to_string(w.sector_size);
  out += "}";
  return out;
}

result<c1_wrapper_t> parse_c1_wrapper(std::string_view text) {
  json::reader r(text);
  const json::path_t root{};
  c1_wrapper_t w;
  uint32_t seen = 0;
  bool ok = r.object(&root, [&](std::string_view key, const json::path_t* kp) {
    if (key == "SectorNum") return r.mark(kp, seen, 0) && r.read_uint(kp, w.sector_num, UINT64_MAX);
    if (key == "Phase1Out") {
      std::string_view s;
      if (!r.mark(kp, seen, 1) || !r.read_string(kp, s)) return false;
      w.phase1_out.clear();
      status st = base64_decode_into(s, w.phase1_out);
      if (!st.ok()) return r.fail(kp, st.message(), false);
      return true;
    }
    if (key == "SectorSize")
      return r.mark(kp, seen, 2) && r.read_uint(kp, w.sector_size, UINT64_MAX);
    return r.skip_value(kp);
  });
  if (!ok || !r.require(&root, seen, std::array{"SectorNum", "Phase1Out", "SectorSize"}))
    return r.error();
  if (!r.at_end()) {
    r.fail(&root, "trailing characters after the object");
    return r.error();
  }
  return w;
}

c1_format detect_c1_format(std::span<const uint8_t> bytes) {
  size_t i = 0;
  auto ws = [&] {
    while (i < bytes.size() &&
           (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t'))
      ++i;
  };
  ws();
  if (i >= bytes.size() || bytes[i] != '{') return c1_format::bincode;
  ++i;
  ws();
  if (i >= bytes.size() || bytes[i] != '"') return c1_format::json;
  const std::string_view rest(reinterpret_cast<const char*>(bytes.data()) + i + 1,
                              std::min<size_t>(bytes.size() - i - 1, 16));
  for (std::string_view k : {"SectorNum\"", "Phase1Out\"", "SectorSize\""})
    if (rest.substr(0, k.size()) == k) return c1_format::wrapper;
  return c1_format::json;
}

result<c1_output_t> parse_c1_any(std::span<const uint8_t> bytes, std::string_view registered_proof,
                                 std::optional<uint64_t>* sector_num) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  switch (detect_c1_format(bytes)) {
    case c1_format::wrapper: {
      auto w = parse_c1_wrapper(text);
      if (!w.ok()) return status(w.error().code(), "c1.json wrapper: " + w.error().message());
      auto c1 = parse_c1_json(w->phase1_out);
      if (!c1.ok()) return status(c1.error().code(), "Phase1Out: " + c1.error().message());
      auto p = parse_registered_seal_proof(c1->registered_proof);
      if (p.ok() && sector_size_of(*p) != w->sector_size)
        return status(status_code::bad_encoding,
                      "c1.json wrapper: SectorSize " + std::to_string(w->sector_size) +
                          " does not match registered_proof " + c1->registered_proof);
      if (sector_num) *sector_num = w->sector_num;
      return c1;
    }
    case c1_format::json:
      return parse_c1_json(text);
    case c1_format::bincode:
      if (registered_proof.empty())
        return status(status_code::invalid_argument,
                      "bincode C1 has no registered_proof: pass one (e.g. StackedDrg32GiBV1_1)");
      return parse_c1_bincode(bytes, registered_proof);
  }
  return status(status_code::internal, "unreachable");
}

result<c1_output_t> read_c1_file(const std::string& path, std::string_view registered_proof,
                                 std::optional<uint64_t>* sector_num) {
  auto f = mmap_file::open(path);
  if (!f.ok()) return f.error();
  auto c1 =
      parse_c1_any(std::span<const uint8_t>(f->data(), f->size()), registered_proof, sector_num);
  if (!c1.ok()) return status(c1.error().code(), path + ": " + c1.error().message());
  return c1;
}

result<std::string> c1_to_wrapper_json(const c1_output_t& c1, uint64_t sector_num) {
  auto p = parse_registered_seal_proof(c1.registered_proof);
  if (!p.ok()) return p.error();
  auto j = write_c1_json(c1);
  if (!j.ok()) return j.error();
  c1_wrapper_t w;
  w.sector_num = sector_num;
  w.sector_size = sector_size_of(*p);
  w.phase1_out = std::move(*j);
  return write_c1_wrapper(w);
}

status write_c1_wrapper_file(const std::string& path, const c1_output_t& c1, uint64_t sector_num) {
  auto text = c1_to_wrapper_json(c1, sector_num);
  if (!text.ok()) return text.error();
  return write_file_atomic(path, *text);
}

}  // namespace cuzk::filecoin::porep
