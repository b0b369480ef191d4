// SPDX-License-Identifier: Apache-2.0
// Command-line helpers shared by the `cuzk` subcommands: the exit codes, how a CLI11 subcommand
// hands its body to main, strict decimal numbers, and the PoRep prover identity flags.
#pragma once

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "cuzk/engine.hpp"  // the daemon's defaults (engine_config; header only)
#include "cuzk/status.hpp"
#include "filecoin/porep/replica_id.hpp"
#include "groth16/params_io.hpp"

namespace cuzk::app {

/// 0 success (or a valid proof), 1 the operation failed (or an invalid proof), 2 usage error or
/// bad input.
constexpr int EXIT_OK = 0, EXIT_FAIL = 1, EXIT_BAD = 2;

/// A proof file is at most a few 192-byte partition proofs (PoRep: 10); anything near this bound
/// is not one, and is refused before it is read.
constexpr uint64_t MAX_PROOF_FILE_BYTES = uint64_t(1) << 20;

/// A file named on the command line must be an existing regular file: a missing path, a directory,
/// a FIFO or a device is bad input (exit 2), refused before any work and before a byte is read.
/// The status is invalid_argument naming the flag; the reader's own io_error is then left for real
/// I/O failures (exit 1).
inline status check_input_file(std::string_view flag, const std::string& path) {
  if (status s = require_regular_file(path); !s) {
    return status(status_code::invalid_argument, std::string(flag) + ": " + s.message());
  }
  return status();
}

/// The body of the selected command. Parsing only chooses it; main runs it once parsing is done
/// and logging is configured, so no command does work while the command line may still be bad.
using command_runner = std::function<int()>;

/// Makes `cmd` a leaf command: when the command line selects it, `chosen` becomes `run`.
inline void on_selected(CLI::App* cmd, command_runner& chosen, command_runner run) {
  cmd->callback([&chosen, run = std::move(run)] { chosen = run; });
}

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

/// A CLI11 transform that accepts only a decimal u64 in [lo, hi] (parse_u64: "12x", "-1", "0x10"
/// and overflow are usage errors naming the flag). It rewrites the accepted text in canonical
/// decimal because CLI11's own integer conversion would otherwise read "010" as octal.
inline CLI::Validator decimal_u64(uint64_t lo = 0, uint64_t hi = UINT64_MAX) {
  const bool bounded = lo != 0 || hi != UINT64_MAX;
  const std::string desc =
      bounded ? "[" + std::to_string(lo) + ".." + std::to_string(hi) + "]" : "";
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        uint64_t v = 0;
        if (!parse_u64(text, v)) return "must be a decimal u64, got '" + text + "'";
        if (v < lo || v > hi)
          return "must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got '" + text +
                 "'";
        text = std::to_string(v);
        return "";
      },
      desc, "decimal_u64");
}

/// The prover identity flags of the PoRep commands: --miner-id N | --prover-id HEX and
/// --sector-id N (which defaults to the C1 wrapper's SectorNum).
struct identity_args {
  uint64_t miner_id = 0, sector_id = 0;
  std::string prover_hex;
  CLI::Option* miner_option = nullptr;
  CLI::Option* sector_option = nullptr;

  /// Adds the three flags to `cmd` (--miner-id and --prover-id exclude each other). The object
  /// must outlive the parse.
  void add_to(CLI::App& cmd) {
    miner_option = cmd.add_option("--miner-id", miner_id,
                                  "miner actor id; prover_id = its LEB128 bytes, zero-padded")
                       ->transform(decimal_u64());
    cmd.add_option("--prover-id", prover_hex, "prover id as 64 hex digits")
        ->type_name("HEX")
        ->excludes(miner_option);
    sector_option =
        cmd.add_option("--sector-id", sector_id, "sector number (default: the C1's SectorNum)")
            ->transform(decimal_u64());
  }

  /// (prover_id, sector_id), or nullopt when neither --miner-id nor --prover-id was given (use
  /// the C1's replica_id). `sector_num` is the wrapper's SectorNum (u64), empty when it has none.
  result<std::optional<std::pair<filecoin::porep::bytes32_t, uint64_t>>> resolve(
      const std::optional<uint64_t>& sector_num) const {
    const bool have_miner = miner_option && miner_option->count() > 0;
    const bool have_sector = sector_option && sector_option->count() > 0;
    if (!have_miner && prover_hex.empty())
      return std::optional<std::pair<filecoin::porep::bytes32_t, uint64_t>>();
    filecoin::porep::bytes32_t prover_id = filecoin::porep::prover_id_from_actor(miner_id);
    if (!prover_hex.empty()) {
      auto p = parse_hex32(prover_hex);
      if (!p) return status(status_code::invalid_argument, "--prover-id: " + p.error().message());
      prover_id = *p;
    }
    uint64_t sector = sector_id;
    if (!have_sector) {
      if (!sector_num)
        return status(status_code::invalid_argument,
                      "--sector-id is required (the C1 has no SectorNum)");
      sector = *sector_num;
    }
    return std::optional(std::make_pair(prover_id, sector));
  }
};

/// The registered seal proof names, for help footers.
inline constexpr const char* REGISTERED_PROOFS_HELP =
    "registered proofs: StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}{V1,V1_1,"
    "V1_1_Feat_SyntheticPoRep,\n  V1_2_Feat_NonInteractivePoRep} or their ids 0..19";
inline constexpr const char* REGISTERED_POST_PROOFS_HELP =
    "registered PoSt proofs: StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1 (0..4),\n"
    "  StackedDrgWindow{…}V1 (5..9), StackedDrgWindow{…}V1_2 = Go V1_1 (10..14)";

inline constexpr const char* REGISTERED_UPDATE_PROOFS_HELP =
    "registered update proofs (snap): StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1 (0..4), also\n"
    "  as the Go constant RegisteredUpdateProof_StackedDrg2KiBV1";

/// The words of `--param-checks` and of the daemon's srs.param_checks.
inline const char* param_checks_word(engine::engine_config::param_checks c) {
  using enum engine::engine_config::param_checks;
  return c == full ? "full" : c == batched ? "batched" : "on-curve";
}

/// The prove commands' `--param-checks` default: the daemon's (engine_config::params_checks,
/// srs.param_checks), so the CLI loads parameters as the daemon does.
inline std::string default_param_checks() {
  return param_checks_word(engine::engine_config{}.params_checks);
}

/// `--param-checks on-curve|batched|full` on the prove commands: how the parameter points are
/// checked while they load (groth16::point_checks). on-curve (the default, as the daemon's): the
/// curve equation only — a point outside the subgroup fails the proof's self-verification, never
/// yields a wrong proof; batched adds the order-r subgroup by random subset sums (about 10x the
/// on-curve decode: minutes for 32 GiB parameters on many cores), full point by point.
/// --check-digests implies on-curve for files matching parameters.json. `mode` holds the word.
inline void add_param_checks_option(CLI::App& cmd, std::string& mode) {
  cmd.add_option("--param-checks", mode,
                 "parameter point checks: on-curve (the daemon's default), batched or full (also "
                 "the subgroup: by random subset sums, or point by point)")
      ->check(CLI::IsMember({"on-curve", "batched", "full"}))
      ->capture_default_str();
}
inline groth16::point_checks param_checks_of(const std::string& mode) {
  using enum groth16::point_checks;
  return mode == "full" ? full : mode == "batched" ? batched : on_curve_only;
}

}  // namespace cuzk::app
