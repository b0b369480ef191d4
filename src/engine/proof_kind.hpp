// SPDX-License-Identifier: Apache-2.0
// The one circuit interface every proof kind goes through: a handler decodes a request into a
// prepared_proof (partitions, parameters, synthesis of partition k into a recycled buffer, public
// inputs); the engine does everything else (queues, budget, provers, verification) the same way
// for all kinds. Each kind is one handler in builtin_handlers() and nothing in engine.cpp knows
// it: PoRep C2 (porep_kind.cpp), WindowPoSt and WinningPoSt (post_kind.cpp), SnapDeals
// (snap_kind.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/progress.hpp"
#include "base/thread_pool.hpp"
#include "cuzk/engine.hpp"
#include "cuzk/log.hpp"
#include "cuzk/status.hpp"
#include "ff/fields.hpp"
#include "filecoin/proofs/prover_backend.hpp"
#include "groth16/params_io.hpp"
#include "r1cs/abc_plan.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::engine {

/// The parameter set a circuit proves with: a short id for people ("porep-32g") and the .params
/// file (the key under which the engine keeps it).
struct circuit_params {
  std::string id;
  std::string params_path;
};

/// The sizes one partition's synthesis fills (proving_cs::reserve's arguments): the engine sizes
/// and charges a recycled buffer from them before synthesizing.
struct synthesis_shape {
  size_t constraints = 0, aux = 0, inputs = 0;
  /// A full synthesis (proving_cs: a, b, c, the witness and the densities).
  uint64_t bytes() const { return r1cs::proving_cs::reserve_bytes(constraints, aux, inputs); }
  /// A witness synthesis (witness_cs: inputs and aux only).
  uint64_t witness_bytes() const { return r1cs::witness_cs::reserve_bytes(aux, inputs); }
};

/// A request decoded and checked, ready to be proved partition by partition. Immutable after
/// prepare(): synthesize() and public_inputs() are called from several threads at once.
class prepared_proof {
 public:
  virtual ~prepared_proof() = default;
  virtual unsigned partitions() const = 0;
  virtual const circuit_params& circuit() const = 0;
  virtual synthesis_shape shape() const = 0;
  /// Synthesizes partition k into `cs`, which the engine has reset() and reserved to shape();
  /// the engine finalizes it. An error names what in the input is wrong. `pool` is the engine's
  /// synthesis pool, shared by every synthesis worker (a circuit's independent parts, PoRep's and
  /// SnapDeals' challenges and PoSt's sector slots, are synthesized in parallel on it; the pool
  /// interleaves concurrent partitions).
  virtual status synthesize(unsigned k, r1cs::proving_cs& cs, thread_pool& pool) const = 0;
  /// The circuit's constraint matrices compiled for computing a, b, c from a witness on the
  /// prover (r1cs::abc_plan: seconds and ≈ 0.4 GB for 32 GiB PoRep). The engine compiles it once
  /// per circuit and shares it with every job of the circuit; it then synthesizes the witness
  /// only (synthesize_witness), and a partition holds 4.2 GB instead of 16.7 GB for 32 GiB PoRep.
  /// A kind without a plan (this default), or a plan that fails to compile, is synthesized in
  /// full (synthesize) instead.
  virtual result<r1cs::abc_plan> compile_plan() const {
    return status(status_code::unavailable, "this proof kind has no compiled a, b, c plan");
  }
  /// Partition k's witness into `cs` (reset and reserved to shape() by the engine), for a circuit
  /// whose plan compiled: the same assignment synthesize() produces. Errors as synthesize's.
  virtual status synthesize_witness(unsigned k, r1cs::witness_cs& cs, thread_pool& pool) const {
    (void)k, (void)cs, (void)pool;
    return status(status_code::unavailable, "this proof kind has no witness-only synthesis");
  }
  /// The verifier's public inputs of partition k (without ONE).
  virtual result<std::vector<ff::fr_t>> public_inputs(unsigned k) const = 0;
  /// What a partition whose circuit cannot verify says about the input: "the C1 is
  /// inconsistent". Non-empty (every built-in kind): the engine compares each synthesized
  /// partition's public inputs with public_inputs(k) before proving it, naming the input at once
  /// rather than after a proof and a failed verification, and a partition that fails
  /// self-verification twice is diagnosed (engine_impl::self_check_failure_locked) with these
  /// words. Empty (this default): the mismatch is left to self-verification.
  virtual std::string inconsistent_input() const { return {}; }
  /// Host bytes this object holds (decoded inputs), charged to the budget while the job lives.
  virtual uint64_t host_bytes() const = 0;
};

class proof_kind_handler {
 public:
  virtual ~proof_kind_handler() = default;
  virtual proof_kind kind() const = 0;
  virtual priority default_priority() const = 0;
  /// Checks at submit, before the request is queued or charged: invalid_argument naming what is
  /// wrong for input that can never be proved (empty, undecodable, the wrong partition count).
  /// May decode the input (PoRep: the C1, tens of milliseconds for 32 GiB); the costly checks
  /// (vanilla proofs) belong in prepare().
  virtual status check(const proof_request& req) const = 0;
  /// Decodes and checks the request (e.g. the vanilla proofs) on a synthesis worker; the checks
  /// may spread over `pool` (the engine's synthesis pool: a 32 GiB WindowPoSt's 2,349 sectors
  /// took 11 s on one core).
  virtual result<std::unique_ptr<prepared_proof>> prepare(const proof_request& req,
                                                          const std::string& param_dir,
                                                          thread_pool& pool) const = 0;
  /// The parameters behind a circuit id of this kind (for preload/evict), or nullopt.
  virtual std::optional<circuit_params> circuit_by_id(const std::string& id,
                                                      const std::string& param_dir) const = 0;
};

/// How a built-in kind's handler checks its input.
struct kind_options {
  /// Check the vanilla proofs natively in prepare() (the costly checks, naming the bad part of
  /// the input). Only tests turn it off: to show that self-verification still refuses an
  /// unsatisfied circuit.
  bool check_vanilla = true;
};

/// The recipe every built-in kind follows, written once: check() at submit is decode()
/// succeeding (malformed input refused before it is queued or charged); prepare() on a synthesis
/// worker decodes again, checks the vanilla proofs (check_vanilla, unless kind_options say not
/// to), and makes the prepared proof (make_prepared: the circuits' witnesses, the compiled plan,
/// the public inputs).
template <class Decoded>
class decoding_handler : public proof_kind_handler {
 public:
  explicit decoding_handler(kind_options opt) : opt_(opt) {}
  /// The request decoded and checked as far as it can be without the vanilla proofs' contents:
  /// invalid_argument naming what is wrong.
  virtual result<Decoded> decode(const proof_request& req) const = 0;
  /// The vanilla proofs checked natively, spread over `pool`: invalid_argument naming the bad
  /// one (a 32 GiB WindowPoSt's 2,349 sectors took 11 s on one core).
  virtual status check_vanilla(const Decoded& d, thread_pool& pool) const = 0;
  /// The decoded (and checked) input, ready to be proved.
  virtual result<std::unique_ptr<prepared_proof>> make_prepared(
      Decoded d, const proof_request& req, const std::string& param_dir) const = 0;

  status check(const proof_request& req) const final {
    auto d = decode(req);
    return d ? status() : d.error();
  }
  result<std::unique_ptr<prepared_proof>> prepare(const proof_request& req,
                                                  const std::string& param_dir,
                                                  thread_pool& pool) const final {
    auto d = decode(req);
    if (!d) return d.error();
    if (opt_.check_vanilla) {
      if (status s = check_vanilla(*d, pool); !s) return s;
    }
    return make_prepared(std::move(*d), req, param_dir);
  }

 private:
  kind_options opt_;
};

/// The circuit named `id` among the registered proofs 0..count-1 of a kind: `circuit_of(n)` is
/// proof n's circuit (nullopt for a number the kind does not have). What circuit_by_id() of every
/// built-in kind does.
std::optional<circuit_params> find_circuit(
    const std::string& id, uint32_t count,
    const std::function<std::optional<circuit_params>(uint32_t)>& circuit_of);

using handler_list = std::vector<std::shared_ptr<const proof_kind_handler>>;

/// Every kind this build proves: PoRep C2, WindowPoSt partitions, WinningPoSt and SnapDeals
/// updates (all sector sizes).
handler_list builtin_handlers();
/// POREP_SEAL_COMMIT (default priority normal), porep_kind.cpp.
std::shared_ptr<const proof_kind_handler> porep_handler(kind_options opt = {});
/// WINDOW_POST_PARTITION (default priority high) and WINNING_POST (critical), post_kind.cpp.
std::shared_ptr<const proof_kind_handler> window_post_handler(kind_options opt = {});
std::shared_ptr<const proof_kind_handler> winning_post_handler(kind_options opt = {});
/// SNAP_DEALS_UPDATE (default priority normal), snap_kind.cpp.
std::shared_ptr<const proof_kind_handler> snap_update_handler(kind_options opt = {});

/// The size part of a circuit id: "2k", "8m", "512m", "32g", "64g" ("porep-32g", "wpost-2k").
std::string circuit_size_tag(uint64_t sector_bytes);

/// A request field that must be exactly 32 bytes (PoSt randomness, the SnapDeals commitments):
/// invalid_argument "<kind>: <field> has N bytes, not 32" otherwise.
result<std::array<uint8_t, 32>> request_bytes32(std::span<const uint8_t> bytes,
                                                std::string_view kind, std::string_view field);

/// Makes the prover backend of a worker (device < 0: the CPU) for a parameter file, with the
/// query points where `residency` says (GPUs only); filecoin::proofs::make_prover_backend unless a
/// test injects faults. `progress` gets the load's bytes (make_prover_backend's "load" or "upload"
/// reports).
using backend_factory = std::function<result<std::unique_ptr<filecoin::proofs::prover_backend>>(
    const groth16::params_file& file, groth16::point_checks checks, int device,
    filecoin::proofs::srs_residency residency, thread_pool& pool, const log_sink& log,
    const progress_fn& progress)>;

/// The CUDA devices the engine may prove on (engine_config::gpu_devices picks among them).
using device_lister = std::function<std::vector<filecoin::proofs::gpu_device_t>()>;

/// What create() fixes and a test may replace.
struct engine_parts {
  handler_list handlers = builtin_handlers();
  backend_factory make_backend;  ///< empty: filecoin::proofs::make_prover_backend
  /// Empty: filecoin::proofs::list_gpus. Tests list simulated devices (several GPU workers on a
  /// machine with one GPU, or none) and map them to real backends in make_backend.
  device_lister list_devices;
};

/// proving_engine::create with explicit parts (tests: extra kinds, fault-injecting backends).
result<std::unique_ptr<proving_engine>> create_engine(const engine_config& cfg, engine_parts parts);

}  // namespace cuzk::engine
