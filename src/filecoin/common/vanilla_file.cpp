// SPDX-License-Identifier: Apache-2.0
// Vanilla files (see vanilla_file.hpp).
#include "filecoin/common/vanilla_file.hpp"

#include "base/base64.hpp"
#include "base/json_reader.hpp"

namespace cuzk::filecoin::common {

using json::path_t;

result<std::vector<std::vector<uint8_t>>> parse_vanilla_file(std::string_view json) {
  json::reader r(json);
  std::vector<std::vector<uint8_t>> out;
  const path_t root{};
  const bool ok = r.array(&root, [&](size_t, const path_t* p) {
    std::string_view text;
    if (!r.read_string(p, text)) return false;
    auto bytes = base64_decode(text);
    if (!bytes) return r.fail(p, bytes.error().message(), false);
    out.push_back(std::move(*bytes));
    return true;
  });
  if (ok && !r.at_end()) r.fail(&root, "trailing characters after the array");
  if (r.failed()) return r.error();
  return out;
}

std::string vanilla_file_json(std::span<const std::vector<uint8_t>> elements) {
  std::string out(1, '[');
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i) out.push_back(',');
    out.push_back('"');
    out.append(base64_encode(elements[i]));
    out.push_back('"');
  }
  out.push_back(']');
  return out;
}

}  // namespace cuzk::filecoin::common
