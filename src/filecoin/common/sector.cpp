// SPDX-License-Identifier: Apache-2.0
// Size names and api versions (see sector.hpp).
#include "filecoin/common/sector.hpp"

namespace cuzk::filecoin::common {

std::string_view to_string(api_version v) {
  switch (v) {
    case api_version::v1_0_0:
      return "V1_0_0";
    case api_version::v1_1_0:
      return "V1_1_0";
    case api_version::v1_2_0:
      return "V1_2_0";
  }
  return "?";
}

result<api_version> parse_api_version(std::string_view s) {
  for (auto v : {api_version::v1_0_0, api_version::v1_1_0, api_version::v1_2_0})
    if (s == to_string(v)) return v;
  return {status_code::invalid_argument, "unknown api version '" + std::string(s) + "'"};
}

std::string sector_size_name(uint64_t b) {
  if (b >= GiB && b % GiB == 0) return std::to_string(b / GiB) + "GiB";
  if (b >= MiB && b % MiB == 0) return std::to_string(b / MiB) + "MiB";
  if (b >= KiB && b % KiB == 0) return std::to_string(b / KiB) + "KiB";
  return std::to_string(b) + "B";
}

}  // namespace cuzk::filecoin::common
