// SPDX-License-Identifier: Apache-2.0
// The proving engine's public API: what the daemon (src/server) and cuzk-bench use, and nothing
// else. One long-lived engine per machine takes a stream of mixed proof requests and returns
// self-verified proofs; how it schedules them is docs/architecture.md "The engine".
//
// A request carries what the cuzk.v1 wire carries (docs/spec/wire.md §1): the proof kind, the
// registered proof, the vanilla input bytes exactly as sent, identity fields, a priority and the
// client's request id, and the tenant it is proved for. Every call is thread-safe.
//
// Tenants: a job belongs to the tenant named in its request. Request ids live per tenant (the
// same id from two tenants is two jobs, never an attach), await() and cancel() find only the
// tenant's own jobs, and each tenant has its own limits and a weight for its share of every stage
// (engine_config::tenants). The engine knows tenants by name only: who a caller is (a token, a
// certificate) is the daemon's business.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/log.hpp"
#include "cuzk/status.hpp"

namespace cuzk::engine {

/// The wire's ProofKind numbers.
enum class proof_kind : uint32_t {
  porep_seal_commit = 1,
  snap_deals_update = 2,
  window_post_partition = 3,
  winning_post = 4,
};
/// "porep-c2", "snap-update", "window-post", "winning-post" (the Rust cuzk's strings).
std::string_view to_string(proof_kind k);

/// The tenant of a request that names none: a single-user engine's only tenant (the daemon's
/// callers on its own machine, unauthenticated, are this tenant too).
inline constexpr std::string_view default_tenant = "local";

/// The wire's Priority numbers; unspecified means the kind's default (WinningPoSt critical,
/// WindowPoSt high, SnapDeals and PoRep normal). Higher runs first at every stage.
enum class priority : uint32_t { unspecified = 0, low = 1, normal = 2, high = 3, critical = 4 };

struct proof_request {
  /// The client's id, unique within its tenant; empty: the engine makes one up.
  std::string request_id;
  std::string tenant{default_tenant};  ///< whose job it is (ids, limits, fair share)
  proof_kind kind = proof_kind::porep_seal_commit;
  uint64_t sector_size = 0;
  uint64_t registered_proof = 0;
  priority prio = priority::unspecified;
  std::vector<uint8_t> vanilla_proof;                ///< PoRep: the C1 (any of its formats)
  std::vector<std::vector<uint8_t>> vanilla_proofs;  ///< PoSt, SnapDeals
  uint64_t sector_number = 0;
  uint64_t miner_id = 0;
  std::vector<uint8_t> randomness;
  uint32_t partition_index = 0;
  std::vector<uint8_t> comm_r_old, comm_r_new, comm_d_new;
  /// PoRep only: when true, replica_id is re-derived from miner_id and sector_number and must
  /// equal the C1's (a C1 sent for another sector fails); false trusts the C1's replica_id.
  bool check_identity = true;
  /// PoRep only: the 32-byte prover id the replica_id is re-derived from, in place of miner_id's
  /// (`cuzk prove porep --prover-id`); empty (the wire's case): derived from miner_id.
  std::vector<uint8_t> prover_id;
};

/// Where a job is. Clients see the terminal states; queued/running are for status().
enum class job_state { queued, running, completed, failed, cancelled };
std::string_view to_string(job_state s);

/// Milliseconds per phase of one partition.
struct partition_timings {
  unsigned partition = 0;
  std::string worker;  ///< "cpu", "gpu 0"
  double synthesis_wait = 0, synthesis = 0, prover_wait = 0;
  double upload = 0;  ///< the witness uploaded to the GPU (compiled plan only; 0 elsewhere)
  /// Waiting for the GPU while another lane's kernels ran (engine_config::gpu_lanes); in prove.
  double device_wait = 0;
  double abc = 0;  ///< a, b, c evaluated from the compiled plan on the prover (0: synthesized)
  double ntt = 0, h = 0, msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0, msm_b_g2 = 0;
  double prove = 0;     ///< the prover's whole start (upload, NTTs, MSMs)
  double finalize = 0;  ///< the r/s epilogue
  unsigned attempts = 1;
};

/// Milliseconds per phase of one job. Sums are over partitions; the *_wall figures are elapsed.
struct job_timings {
  double queue_wait = 0;  ///< submit → the first partition's synthesis starts
  double prepare = 0;     ///< input decoding and checks (vanilla proofs)
  double srs_load = 0;    ///< waiting for / loading the parameters (0 when resident)
  double synthesis = 0, prove = 0, finalize = 0;
  double verify = 0;  ///< the batch self-verification of every partition
  double total = 0;   ///< submit → result
  std::vector<partition_timings> partitions;
};

struct job_result {
  std::string job_id;
  std::string tenant;  ///< the request's tenant
  job_state state = job_state::queued;
  std::vector<uint8_t> proof;  ///< COMPLETED: the concatenated 192-byte partition proofs
  status error;                ///< FAILED / CANCELLED: why
  job_timings timings;
};

/// What submit() answers.
struct submit_result {
  std::string job_id;
  bool attached = false;  ///< an identical request was in flight or recently completed
  /// Jobs ahead of it (higher or equal priority, submitted earlier, not finished), whatever their
  /// tenant: an upper bound where fair share lets it pass another tenant's.
  unsigned queue_position = 0;
};

/// What the engine allows one tenant (engine_config::tenants).
struct tenant_policy {
  /// Jobs accepted and not yet ended (attaching to one of them is not another); a submit past it
  /// is refused with resource_exhausted. 0: no limit.
  unsigned max_in_flight = 0;
  /// Request bytes (the vanilla proofs and the other byte fields, as sent) held for the tenant's
  /// jobs that are not yet prepared; a submit that would pass it is refused with
  /// resource_exhausted. 0: no limit.
  uint64_t max_queued_bytes = 0;
  /// The tenant's share of each stage against the other tenants with work of the same priority:
  /// at every partition boundary (a synthesis worker or a prover lane taking its next task) the
  /// tenant furthest behind its share goes next, by stride scheduling, so a tenant with 100 jobs
  /// queued takes turns with a tenant with one. Priority comes first: a WinningPoSt of any tenant
  /// goes before every PoRep. 0 acts as 1.
  unsigned weight = 1;
};

struct engine_config {
  /// CUDA ordinals to prove on; empty: every device found. No device (or a build without
  /// CUDA): the CPU prover.
  std::vector<int> gpu_devices;
  /// Prove on the CPU even where GPUs are present (gpu_devices is then ignored).
  bool disable_gpus = false;
  /// Also run a CPU prover worker when GPUs are present (and always when none is).
  bool cpu_worker_with_gpus = false;
  /// Prover lanes per GPU (gpus.gpu_workers_per_device): threads that each prove one partition
  /// with the GPU's one copy of the parameters. A second lane uploads its witness while the
  /// first one's kernels run and starts its own kernels the moment they end (the device's
  /// compute lock orders them): 1,510 → 1,389 ms per 32 GiB PoRep partition on an H200. Lanes
  /// prove side by side only from a compiled plan with the parameters resident on the device,
  /// and only while the device budget holds the parameters, the largest working set and every
  /// other lane's witness; otherwise they take turns. The CPU worker has one lane. 0 acts as 1.
  unsigned gpu_lanes = 2;
  /// The express path for PoSt (gpus.express_lane): a job of priority high or above (WindowPoSt
  /// and WinningPoSt by default) has a synthesis worker of its own, with a pool of its own, and
  /// one more prover lane per GPU (named "gpu 0.express") that takes only such jobs. The express
  /// lane proves beside the other lanes whenever the device budget holds its working set beside
  /// theirs at their peak (a 32 GiB WinningPoSt, 0.55 GB, fits beside two 32 GiB PoRep lanes on
  /// an 80 GB card), on the device's greatest-priority stream and without waiting for the
  /// compute lock (groth16::express_scope); otherwise it waits for memory as any lane does. A
  /// WinningPoSt then never waits for the PoRep partitions in flight (1.7–2.5 s on a saturated
  /// H200 without it).
  bool express_lane = true;
  /// Threads of the CPU prover and the parameter decoding; 0: every core.
  unsigned prover_threads = 0;
  /// Partitions synthesized at once (each spreads its challenges over the synthesis pool); 0: an
  /// eighth of the cores with compiled_abc (a quarter without), at least 2, at most
  /// max_synthesis_workers.
  unsigned synthesis_workers = 0;
  /// The cap on the automatic synthesis_workers (pipeline.max_parallel_synthesis); 0: none.
  unsigned max_synthesis_workers = 0;
  /// Threads of the synthesis pool every synthesis worker shares; 0: every core.
  unsigned synthesis_threads = 0;
  /// Host bytes the engine may hold in parameters, synthesis buffers and request bytes; 0: the
  /// machine's memory minus host_safety_margin.
  uint64_t host_memory_budget = 0;
  uint64_t host_safety_margin = uint64_t(5) << 30;
  /// Device bytes per GPU for parameters and prover scratch; 0: the device's memory minus 1 GiB.
  uint64_t device_memory_budget = 0;
  /// When no GPU is left in rotation, the CPU proves the partitions of circuits whose parameters
  /// are at most this many bytes (gpus.cpu_fallback: "auto" 4 GiB — WinningPoSt and small
  /// sectors, whose CPU proof still meets its deadline; "on" every circuit; "off" none); the
  /// others fail in-band, saying why (a 32 GiB PoRep, WindowPoSt or SnapDeals proof on the CPU
  /// takes hours and a second host copy of its parameters).
  uint64_t cpu_fallback_max_param_bytes = uint64_t(4) << 30;
  /// The directory of the .params / .vk files (srs.param_cache).
  std::string param_dir;
  /// Parameters unused this long may be evicted under memory pressure.
  std::chrono::milliseconds eviction_min_idle = std::chrono::minutes(5);
  /// Finished jobs are kept (for await and idempotent re-submits) this long, at most this many.
  std::chrono::milliseconds result_retention = std::chrono::minutes(30);
  size_t max_retained_results = 4096;
  /// How the points of a parameter file are checked when it is loaded (srs.param_checks, ours).
  /// The curve equation always; `batched` adds the order-r subgroup for ranges of points at once
  /// (a bad point passes with probability ≤ 2^-64), `full` point by point. The default is the
  /// curve equation only: the daemon proves from the official files (digest-verified when they
  /// are fetched), every proof is verified before it is returned, so a point of the wrong group
  /// fails jobs, never returns a wrong proof; and a subgroup check of 32 GiB parameters costs about
  /// 6 core-hours, minutes before the first proof on every load (docs/notes/params-format.md).
  enum class param_checks { on_curve, batched, full };
  param_checks params_checks = param_checks::on_curve;
  /// Synthesize the witness only and evaluate a, b, c from the circuit's compiled plan on the
  /// prover (the GPU, or the CPU prover's own buffers), for kinds that have one: a 32 GiB PoRep
  /// partition then holds 4.2 GB of host memory instead of 16.7 GB. false: a, b, c synthesized
  /// on the host (the daemon sets it from CUZK_DISABLE_PCE=1, the Rust cuzk's switch).
  bool compiled_abc = true;
  /// The tenants' limits and weights, by tenant name; a tenant not listed has tenant_policy{}
  /// (no limits, weight 1).
  std::map<std::string, tenant_policy> tenants;
  /// Where the engine logs; empty: silent.
  log_sink log;
  /// Called once for every job that ends (completed, failed or cancelled), with its kind: where a
  /// daemon feeds its metrics. Runs on an engine thread under the engine's lock: it must be
  /// quick and must not call the engine.
  std::function<void(proof_kind, const job_result&)> on_job_end;
};

/// One parameter set the engine holds.
struct srs_status {
  std::string circuit_id;  ///< "porep-32g", "porep-2k", ...
  std::string worker;      ///< "cpu" or "gpu N"
  /// In host memory: the CPU's, or a GPU's kept in page-locked host memory and streamed to the
  /// device by every proof (its budget could not hold them with the prover's working set).
  bool in_host_memory = false;
  uint64_t bytes = 0;  ///< host and device bytes together
  /// Of `bytes`, those on the device: every query resident, or (in_host_memory) the queries a
  /// partially resident plan keeps there beside the host copy; 0 when streamed whole.
  uint64_t device_bytes = 0;
  unsigned ref_count = 0;  ///< jobs using it now
  double idle_seconds = 0;
  bool loading = false;
  /// The load's progress in parameter bytes (loaded_bytes == load_total_bytes once loaded) and
  /// when it began, in seconds since the engine started (the timeline's time base): what the
  /// pipeline page and `cuzk-bench status` draw as a loading bar with an ETA.
  uint64_t loaded_bytes = 0, load_total_bytes = 0;
  double load_started = 0;
};

/// One prover lane of a worker (engine_config::gpu_lanes).
struct lane_status {
  std::string name;         ///< the timeline's lane: the worker's name, then "gpu 0.1", ...
  std::string current_job;  ///< empty when idle
  proof_kind current_kind = proof_kind::porep_seal_commit;
  int partition = -1;          ///< the partition it proves; -1 when idle
  std::string current_tenant;  ///< the tenant of current_job
};

struct worker_status {
  std::string name;  ///< "cpu", "gpu 0"
  int device = -1;
  std::string device_name;  ///< the GPU's name ("NVIDIA H200"); empty for the CPU
  uint64_t device_total_bytes = 0;
  uint64_t device_budget = 0, device_used = 0;
  bool healthy = true;
  std::string current_job;  ///< the first busy lane's job; empty when every lane is idle
  proof_kind current_kind = proof_kind::porep_seal_commit;
  double busy_seconds = 0;  ///< time since start during which at least one lane was proving
  std::vector<lane_status> lanes;
};

struct kind_queue_status {
  proof_kind kind;
  unsigned pending = 0;      ///< jobs of this kind not yet running
  unsigned in_progress = 0;  ///< jobs of this kind with work under way
};

/// A job not yet ended.
struct job_summary {
  std::string job_id;
  proof_kind kind{};
  priority prio = priority::unspecified;  ///< the effective priority
  job_state state = job_state::queued;
  unsigned partitions = 0;  ///< 0 until its input is decoded
  unsigned partitions_done = 0;
  bool cancel_requested = false;
  double age_seconds = 0;
  std::string tenant;
};

/// One tenant the engine has seen since it started (its entry stays while the engine lives).
struct tenant_status {
  std::string name;
  unsigned in_flight = 0;     ///< jobs accepted and not yet ended
  uint64_t queued_bytes = 0;  ///< request bytes of its jobs not yet prepared
  uint64_t accepted = 0;      ///< jobs accepted (attaches not counted)
  uint64_t refused = 0;       ///< submits refused for its max_in_flight or max_queued_bytes
};

struct engine_status {
  std::vector<worker_status> workers;
  std::vector<tenant_status> tenants;  ///< by name
  std::vector<job_summary> jobs;       ///< every job not yet ended, in priority order
  std::vector<srs_status> srs;
  std::vector<kind_queue_status> queues;
  uint64_t completed = 0, failed = 0, cancelled = 0;
  uint64_t host_budget = 0, host_used = 0;
  uint64_t device_budget = 0, device_used = 0;  ///< summed over the GPUs
  uint64_t peak_rss = 0;
  double uptime_seconds = 0;
  unsigned synthesis_workers = 0;
  unsigned synthesis_threads = 0;  ///< of the synthesis pool the workers share
};

/// One phase of one job on one lane (a synthesis worker or a prover worker), for the pipeline
/// page: times are seconds since the engine started. A parameter load is a "load" event on the
/// prover worker's lane, for the job that needed it (for preload(): job_id empty, the kind of the
/// first proof kind that uses the circuit).
struct timeline_event {
  std::string lane;  ///< "synthesis 0", "gpu 0", "gpu 0.1" (a GPU's second lane), "cpu"
  std::string job_id;
  std::string tenant;  ///< the job's tenant; empty for a preload's load
  proof_kind kind{};
  int partition = -1;  ///< -1 for job-wide phases (prepare, verify)
  /// "prepare", "compile" (a circuit's a, b, c plan), "load", "synthesis", "prove",
  /// "finalize", "verify"
  std::string phase;
  double start = 0, end = 0;
  /// load: the circuit ("porep-2k") and the parameter bytes loaded; prove: the parameter bytes
  /// streamed from host memory (a GPU whose budget could not hold them); empty and 0 elsewhere.
  std::string circuit_id;
  uint64_t bytes = 0;
  /// prove: the prover's own split in milliseconds (the witness upload, the wait for the GPU
  /// while another lane's kernels ran, a, b, c from the plan, NTT, H, and each MSM; stream_copy:
  /// the copy engine's time moving the streamed parameters, overlapping the MSMs; stream_wait:
  /// of the MSMs' time, what they waited for those copies); 0 elsewhere.
  double upload = 0, device_wait = 0, abc = 0, ntt = 0, h = 0, msm_h = 0, msm_l = 0, msm_a = 0,
         msm_b_g1 = 0, msm_b_g2 = 0, stream_copy = 0, stream_wait = 0;
  /// prove on a GPU: the most device bytes its memory pool held during the proof beside the
  /// parameters, plan and tables (every lane of the device counts); what the plan's proof peak
  /// bounds (groth16/gpu_memory.hpp). 0 elsewhere.
  uint64_t device_peak_bytes = 0;
};

class proving_engine {
 public:
  /// Starts the workers. Errors: a GPU listed that does not exist, a budget too small to be
  /// meaningful.
  static result<std::unique_ptr<proving_engine>> create(const engine_config& cfg);
  virtual ~proving_engine() = default;

  /// Queues a request (or attaches to an identical one of the same tenant, see
  /// submit_result::attached). Errors before queueing: invalid_argument for a request that
  /// cannot be proved at all (no input, unknown kind); resource_exhausted past the tenant's
  /// max_in_flight or max_queued_bytes, or for input beyond the host budget; unavailable after
  /// shutdown() began.
  virtual result<submit_result> submit(proof_request req) = 0;
  /// Waits until the tenant's job `job_id` ends or `timeout` passes; a job still running after
  /// the timeout is returned in its current state (queued/running) and goes on. not_found for an
  /// id the tenant does not have (never submitted, another tenant's, or its result dropped after
  /// the retention time): another tenant's job is indistinguishable from none.
  virtual result<job_result> await(std::string_view tenant, const std::string& job_id,
                                   std::chrono::milliseconds timeout) = 0;
  /// await() for the default tenant.
  result<job_result> await(const std::string& job_id, std::chrono::milliseconds timeout) {
    return await(default_tenant, job_id, timeout);
  }
  /// Cancels the tenant's job `job_id` at its next phase boundary: true when it was queued or
  /// running (it will end CANCELLED with `reason` as its error message), false when it had
  /// already ended; not_found as for await().
  virtual result<bool> cancel(std::string_view tenant, const std::string& job_id,
                              const std::string& reason) = 0;
  /// cancel() for the default tenant.
  result<bool> cancel(const std::string& job_id,
                      const std::string& reason = "cancelled by request") {
    return cancel(default_tenant, job_id, reason);
  }
  virtual engine_status status() = 0;
  /// The phases that ended at or after `since` (seconds since start), oldest first; the engine
  /// keeps the last 20,000.
  virtual std::vector<timeline_event> timeline(double since) = 0;
  /// Loads a circuit's parameters on every prover worker; returns when loaded (true) or already
  /// resident (false). not_found for an unknown circuit id, resource_exhausted when they can
  /// never fit, the load error otherwise.
  virtual result<bool> preload(const std::string& circuit_id) = 0;
  /// Frees a circuit's parameters now (the bytes freed); invalid_argument when a job is using
  /// them, 0 when they were not loaded.
  virtual result<uint64_t> evict(const std::string& circuit_id) = 0;
  /// Stops taking requests, lets every accepted job finish, stops the workers.
  virtual void shutdown() = 0;
};

}  // namespace cuzk::engine
