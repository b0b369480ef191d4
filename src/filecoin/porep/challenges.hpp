// SPDX-License-Identifier: Apache-2.0
// PoRep challenge derivation (docs/spec/porep.md §6, stacked/vanilla/challenges.rs). Every
// challenge is a 256-bit LE integer reduced mod (nodes − 1), plus 1, so node 0 is never challenged:
//  * interactive: SHA256(replica_id ‖ seed ‖ j u32 LE), j = cpp·k + i;
//  * non-interactive: SHA256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ j);
//  * synthetic: min(nodes, 2^18) challenges from a ChaCha20 keystream keyed by keyed-Blake2b-256
//    (replica_id ‖ comm_r), 32 bytes each; partition k picks cpp of them with u32 indices from a
//    second keystream keyed by Blake2b-256(replica_id ‖ seed), from byte 4·cpp·k.
#pragma once

#include <cstdint>
#include <vector>

#include "filecoin/porep/config.hpp"

namespace cuzk::filecoin::porep {

/// (LE integer of h mod (nodes − 1)) + 1. nodes ≥ 2.
uint64_t challenge_from_digest(const uint8_t h[32], uint64_t nodes);

/// Interactive challenges of partition k (cpp of them).
std::vector<uint64_t> interactive_challenges(const bytes32_t& replica_id, const bytes32_t& seed,
                                             uint64_t nodes, unsigned cpp, unsigned k);
/// Non-interactive challenges of partition k.
std::vector<uint64_t> ni_challenges(const bytes32_t& replica_id, const bytes32_t& comm_r,
                                    uint64_t nodes, unsigned cpp, unsigned k);

/// SynthChallengeGenerator: the synthetic challenge set of a replica.
class synth_challenges {
 public:
  /// DEFAULT_SYNTH_CHALLENGE_COUNT
  static constexpr uint64_t DEFAULT_COUNT = uint64_t(1) << 18;
  /// count = 0 means the default min(nodes, 2^18).
  synth_challenges(uint64_t nodes, const bytes32_t& replica_id, const bytes32_t& comm_r,
                   uint64_t count = 0);

  uint64_t count() const { return count_; }
  /// Synthetic challenge i < count() (keystream bytes [32i, 32i + 32)).
  uint64_t challenge(uint64_t i) const;
  /// All count() synthetic challenges, in order.
  std::vector<uint64_t> all() const;
  /// The synthetic indices (each < count()) that partition k's cpp PoRep challenges select.
  std::vector<uint64_t> partition_indexes(const bytes32_t& seed, unsigned cpp, unsigned k) const;
  /// The PoRep challenges of partition k: challenge(i) for each selected index.
  std::vector<uint64_t> partition_challenges(const bytes32_t& seed, unsigned cpp, unsigned k) const;

 private:
  uint64_t nodes_;
  uint64_t count_;
  bytes32_t replica_id_;
  bytes32_t gen_key_;
};

/// The challenges of partition k for a config: interactive for no feature, synthetic selection
/// for SyntheticPoRep (needs comm_r and seed), NI for NonInteractivePoRep (needs comm_r; the seed
/// is ignored).
std::vector<uint64_t> porep_challenges(const porep_config_t& cfg, const bytes32_t& replica_id,
                                       const bytes32_t& seed, const bytes32_t& comm_r, unsigned k);

}  // namespace cuzk::filecoin::porep
