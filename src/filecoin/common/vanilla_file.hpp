// SPDX-License-Identifier: Apache-2.0
// The vanilla files of PoSt and SnapDeals (cuzk-bench's wpost-vanilla.json, winning-vanilla.json,
// snap-vanilla.json; `cuzk prove window-post|winning-post|snap`): a JSON array of padded standard
// base64 strings, one serialized vanilla proof each (Go [][]byte JSON). The elements are not
// parsed here: PoSt's are FallbackPoStSectorProofs, SnapDeals' PartitionProofs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/status.hpp"

namespace cuzk::filecoin::common {

/// The elements of a vanilla file, decoded from base64 (not parsed). Errors name the element
/// ("[3]: …").
result<std::vector<std::vector<uint8_t>>> parse_vanilla_file(std::string_view json);
/// The vanilla file of `elements` ("[\"<base64>\",…]").
std::string vanilla_file_json(std::span<const std::vector<uint8_t>> elements);

}  // namespace cuzk::filecoin::common
