// SPDX-License-Identifier: Apache-2.0
// What every proof kind shares (proof_kind.hpp): the list of built-in handlers, the size part of
// circuit ids, the search of a circuit id among a kind's registered proofs and the decoding of the
// request's fixed 32-byte fields.
#include <algorithm>
#include <cctype>

#include "engine/proof_kind.hpp"
#include "filecoin/porep/config.hpp"

namespace cuzk::engine {

handler_list builtin_handlers() {
  return {porep_handler(), window_post_handler(), winning_post_handler(), snap_update_handler()};
}

std::string circuit_size_tag(uint64_t sector_bytes) {
  std::string tag;
  for (char c : filecoin::porep::sector_size_name(sector_bytes)) {  // "32GiB" → "32g"
    if (c == 'i' || c == 'B') continue;
    tag += char(std::tolower(static_cast<unsigned char>(c)));
  }
  return tag;
}

std::optional<circuit_params> find_circuit(
    const std::string& id, uint32_t count,
    const std::function<std::optional<circuit_params>(uint32_t)>& circuit_of) {
  for (uint32_t n = 0; n < count; ++n) {
    auto c = circuit_of(n);
    if (c && c->id == id) return c;
  }
  return std::nullopt;
}

result<std::array<uint8_t, 32>> request_bytes32(std::span<const uint8_t> bytes,
                                                std::string_view kind, std::string_view field) {
  std::array<uint8_t, 32> out{};
  if (bytes.size() != out.size()) {
    return status(status_code::invalid_argument, std::string(kind) + ": " + std::string(field) +
                                                     " has " + std::to_string(bytes.size()) +
                                                     " bytes, not 32");
  }
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

}  // namespace cuzk::engine
