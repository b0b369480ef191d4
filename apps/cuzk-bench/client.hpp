// SPDX-License-Identifier: Apache-2.0
// cuzk-bench's gRPC client subcommands (client.cpp). Each returns the process exit code: 0 done,
// 1 the daemon answered an error or a failed proof, 2 bad usage or input.
#pragma once

#include <cstdint>
#include <string>

namespace cuzk::bench {

/// `single`: one Prove. PoRep sends the C1 file (`c1`); Snap (type snap, snap-deals or update)
/// sends the vanilla file's elements (`vanilla`, Curio's snap-vproof.json) with the commitments of
/// `commitments` (gen-vanilla snap-prove's file) or of the three hex flags, and checks the answer:
/// registered_proof's partitions × 192 bytes, and with `param_dir` verify_update against its .vk.
/// PoRep answers, with `param_dir`, verify_porep for the C1 and the miner's prover id.
/// WindowPoSt / WinningPoSt (type window-post / winning-post) send the vanilla file's elements
/// (gen-vanilla window-post|winning-post) with `randomness_hex` and `partition`; the answer is
/// 192 bytes and, with `param_dir`, verify_post for the vanilla proofs' sectors.
struct single_args {
  std::string type = "porep";
  std::string c1;
  std::string vanilla;
  std::string commitments;
  std::string comm_r_old_hex, comm_r_new_hex, comm_d_new_hex;
  std::string randomness_hex = std::string(64, '0');  ///< PoSt
  unsigned partition = 0;                             ///< PoSt: the partition index
  std::string registered_proof;  ///< empty: StackedDrg32GiBV1_1 for porep, 13 / 3 for window /
                                 ///< winning; snap needs one
  uint64_t sector_num = 1;
  uint64_t miner_id = 1000;
  std::string request_id;  ///< empty: a random one
  std::string proof_out;   ///< where the proof bytes go (atomically); empty: not written
  std::string param_dir;   ///< verify each returned proof with the .vk here
};

struct stress_args {
  std::string registered_proof = "StackedDrg2KiBV1_1";
  unsigned count = 50;          ///< submissions
  unsigned unique = 5;          ///< sectors sealed for them
  unsigned concurrency = 8;     ///< client threads
  double retry_rate = 0.3;      ///< byte-identical retries of an earlier submission
  double reuse_rate = 0.1;      ///< an earlier id with other bytes
  double cancel_rate = 0.2;     ///< cancelled after a random delay (< 3 s)
  unsigned max_seconds = 1800;  ///< the whole run's bound
  uint64_t seed = 1;
  std::string param_dir;  ///< when set, every COMPLETED proof is verified with its .vk
};

/// `batch`: `count` Prove calls of one request (each its own request id), `concurrency` at a time;
/// an answer that fails single's checks counts as failed. With `retry_unavailable_seconds`, a call
/// answered UNAVAILABLE (a daemon draining or gone behind a balancer) is sent again, same id and
/// bytes, as Curio's task retry does, until that many seconds after its first send.
struct batch_args {
  single_args single;
  unsigned count = 3;
  unsigned concurrency = 1;
  double retry_unavailable_seconds = 0;
};

int run_single(const std::string& addr, const single_args& a);
int run_batch(const std::string& addr, const batch_args& b);
/// stress.cpp: exit 0 only when no submission was lost or answered with another's proof.
int run_stress(const std::string& addr, const stress_args& a);
struct status_args {
  bool watch = false;             ///< refresh until interrupted (or `count` refreshes)
  double interval_seconds = 1.0;  ///< between refreshes
  unsigned count = 0;             ///< refreshes before exiting; 0: until interrupted
};

int run_status(const std::string& addr, const status_args& a);
int run_preload(const std::string& addr, const std::string& circuit_id);
int run_metrics(const std::string& addr);

}  // namespace cuzk::bench
