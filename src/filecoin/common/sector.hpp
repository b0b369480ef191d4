// SPDX-License-Identifier: Apache-2.0
// What the three proof kinds (PoRep, PoSt, SnapDeals) share about sectors and registered proofs:
// the 32-byte values (commitments, ids, randomness: little-endian Fr reprs, docs/spec/primitives.md
// §1), the size units and the spelling of a size inside registered-proof names ("2KiB", "32GiB"),
// and rust-filecoin-proofs-api's ApiVersion, which PoRep, PoSt and SnapDeals proofs all carry.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/status.hpp"

namespace cuzk::filecoin::common {

using bytes32_t = std::array<uint8_t, 32>;

inline constexpr uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

/// rust-filecoin-proofs-api ApiVersion.
enum class api_version : uint8_t { v1_0_0, v1_1_0, v1_2_0 };

/// "V1_0_0", "V1_1_0", "V1_2_0" (the serde names in porep_config.api_version).
std::string_view to_string(api_version v);
result<api_version> parse_api_version(std::string_view s);

/// "2KiB", "8MiB", "32GiB" … (the spelling used inside registered-proof names).
std::string sector_size_name(uint64_t sector_bytes);

}  // namespace cuzk::filecoin::common
