// SPDX-License-Identifier: Apache-2.0
// cuzk-bench's offline subcommands (offline.cpp): gen-vanilla and synth-only. Each returns the
// exit code: 0 done, 1 the operation failed, 2 bad usage or input.
#pragma once

#include <cstdint>
#include <string>

namespace cuzk::bench {

struct gen_vanilla_args {
  std::string type;              ///< porep, window-post, winning-post, snap-prove
  std::string registered_proof;  ///< empty: 2KiB PoRep, window 13, winning 3, snap 0 (2 KiB)
  uint64_t sector_number = 1;
  uint64_t miner_id = 1000;
  std::string randomness_hex = std::string(64, '0');
  std::string cache;            ///< PoSt: the sector directory written by `cuzk porep seal`
  std::string out;              ///< default c1.json / wpost-vanilla.json / winning-vanilla.json /
                                ///< snap-vanilla.json
  std::string commitments_out;  ///< snap-prove: default snap-commitments.json beside `out`
  uint64_t seed = 1;            ///< porep, snap-prove, synthetic: the random sector's seed
  /// PoSt, snap-prove: never-sealed sectors of any size (post/synthetic.hpp, snap/synthetic.hpp)
  /// instead of sealed ones.
  bool synthetic = false;
  unsigned sectors = 0;    ///< window-post --synthetic: 0 = a full partition
  unsigned partition = 0;  ///< PoSt: the partition index
};

struct synth_only_args {
  std::string c1;
  unsigned iterations = 1;
  int partition = -1;    ///< -1: every partition
  unsigned threads = 0;  ///< 0: every core; 1: the sequential synthesis
  /// The witness only (witness_cs, what the engine synthesizes for a circuit with a compiled
  /// plan), then the plan compiled and a, b, c evaluated from it on the CPU, each timed.
  bool witness = false;
};

int run_gen_vanilla(const gen_vanilla_args& a);
int run_synth_only(const synth_only_args& a);

}  // namespace cuzk::bench
