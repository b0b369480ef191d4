// SPDX-License-Identifier: Apache-2.0
// WindowPoSt and WinningPoSt on the CPU or GPU prover (rust-filecoin-proofs
// generate_single_window_post_with_vanilla / generate_winning_post_with_vanilla and their
// verify_*): Groth16 parameters for the FallbackPoSt circuit under the official file names, proving
// one partition from the vanilla proofs Curio sends (every one validated first, the proof
// self-verified before it is returned), and verification against the public sectors.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"
#include "cuzk/status.hpp"
#include "filecoin/post/config.hpp"
#include "filecoin/post/partition.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/proofs/porep_prover.hpp"

namespace cuzk::filecoin::proofs {

/// The .params / .vk paths of a PoSt config inside `dir` (filecoin::circuits::post_param_id names;
/// Window V1 and V1_1 of one size share them).
std::string post_params_path(const filecoin::post::post_config_t& cfg, const std::string& dir);
std::string post_vk_path(const filecoin::post::post_config_t& cfg, const std::string& dir);

/// Single-party Groth16 setup of the registered proof's FallbackPoSt circuit (matrix_cs of the
/// blank circuit → generate_parameters), written as <dir>/<official name>.params and .vk; the
/// toxic waste as generate_porep_parameters. 2 KiB: 21,889 rows (Window), 90,883 (Winning),
/// seconds.
result<generated_params_t> generate_post_parameters(
    filecoin::post::registered_post_proof proof, const std::string& out_dir, thread_pool& pool,
    const groth16::progress_fn& progress = {},
    const std::optional<std::vector<uint8_t>>& seed = std::nullopt, int gpu_device = -1);

/// One PoSt partition as Curio asks for it (docs/spec/wire.md §3).
struct post_inputs_t {
  filecoin::post::registered_post_proof proof =
      filecoin::post::registered_post_proof::window_2kib_v1;
  /// Window: the partition's 1..sector_count sectors in ascending id order; Winning: exactly one.
  std::vector<filecoin::post::fallback_sector_proof_t> vanilla;
  filecoin::post::bytes32_t
      randomness{};  ///< a canonical Fr encoding (Curio masks byte 31 with 0x3f)
  /// Does not enter the circuit or its public inputs (WinningPoSt uses it only to choose the
  /// sectors, which Curio has done); carried for the caller's records.
  uint64_t miner_id = 0;
  unsigned partition = 0;  ///< Window: the partition index; Winning: 0
};

/// The public sectors (sector id, comm_r) of vanilla proofs, in their order.
std::vector<filecoin::post::public_sector_t> public_sectors_of(
    std::span<const filecoin::post::fallback_sector_proof_t> vanilla);

/// Proves the partition with the parameters in `params_dir` and returns its 192-byte proof.
/// Errors (never an invalid proof): invalid_argument for vanilla proofs that do not validate
/// (naming the sector and challenge), the wrong number of them, a winning partition other than 0;
/// non_canonical for randomness ≥ r; io_error / size_mismatch for missing or mismatched parameter
/// files; bad_encoding for a digest mismatch (opt.check_digests). opt.check_vanilla = false skips
/// the vanilla validation (self-verification still refuses an unsatisfied circuit).
result<std::vector<uint8_t>> prove_post(const post_inputs_t& in, const std::string& params_dir,
                                        thread_pool& pool, prove_timings_t* timings = nullptr,
                                        const prove_options_t& opt = {});

/// Verifies a 192-byte PoSt proof of partition `partition` over `sectors` (window: the
/// partition's sectors as proven; winning: the one sector) under `randomness`, with the .vk in
/// `params_dir`. false for a wrong proof; an error for undecodable proof bytes, a sector list or
/// randomness the partition cannot have, or a missing/bad .vk.
result<bool> verify_post(filecoin::post::registered_post_proof proof,
                         std::span<const filecoin::post::public_sector_t> sectors,
                         const filecoin::post::bytes32_t& randomness, unsigned partition,
                         std::span<const uint8_t> proof_bytes, const std::string& params_dir);

}  // namespace cuzk::filecoin::proofs
