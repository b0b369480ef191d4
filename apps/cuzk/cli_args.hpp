// SPDX-License-Identifier: Apache-2.0
// Argument helpers shared by the `cuzk` subcommands.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "base/status.hpp"
#include "filecoin/porep/commp.hpp"  // parse_hex32
#include "filecoin/porep/replica_id.hpp"

namespace cuzk::app {

/// Strict decimal u64: digits only, no sign or space, no overflow.
inline bool parse_u64(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  for (char ch : s)
    if (ch < '0' || ch > '9') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}

/// The prover identity flags of the PoRep commands: --miner-id N | --prover-id HEX and
/// --sector-id N (which defaults to the C1 wrapper's SectorNum).
struct identity_args {
  uint64_t miner_id = 0, sector_id = 0;
  std::string prover_hex;
  bool have_miner = false, have_sector = false;

  /// Consumes `flag v` if it is one of the three flags: true when consumed; a bad value sets err.
  bool take(const std::string& flag, const std::string& v, std::string& err) {
    if (flag == "--prover-id") {
      prover_hex = v;
    } else if (flag == "--miner-id") {
      if (!parse_u64(v, miner_id)) err = "--miner-id must be a decimal u64, got '" + v + "'";
      have_miner = true;
    } else if (flag == "--sector-id") {
      if (!parse_u64(v, sector_id)) err = "--sector-id must be a decimal u64, got '" + v + "'";
      have_sector = true;
    } else {
      return false;
    }
    return true;
  }

  /// A message when both --miner-id and --prover-id were given, else empty.
  std::string conflict() const {
    return have_miner && !prover_hex.empty() ? "give --prover-id or --miner-id, not both" : "";
  }

  /// (prover_id, sector_id), or nullopt when neither --miner-id nor --prover-id was given (use
  /// the C1's replica_id). `sector_num` is the wrapper's SectorNum, −1 when it has none.
  result<std::optional<std::pair<porep::bytes32_t, uint64_t>>> resolve(int64_t sector_num) const {
    if (!have_miner && prover_hex.empty())
      return std::optional<std::pair<porep::bytes32_t, uint64_t>>();
    porep::bytes32_t prover_id = porep::prover_id_from_actor(miner_id);
    if (!prover_hex.empty()) {
      auto p = porep::parse_hex32(prover_hex);
      if (!p) return status(status_code::invalid_argument, "--prover-id: " + p.error().message());
      prover_id = *p;
    }
    uint64_t sector = sector_id;
    if (!have_sector) {
      if (sector_num < 0)
        return status(status_code::invalid_argument,
                      "--sector-id is required (the C1 has no SectorNum)");
      sector = uint64_t(sector_num);
    }
    return std::optional(std::make_pair(prover_id, sector));
  }
};

}  // namespace cuzk::app
