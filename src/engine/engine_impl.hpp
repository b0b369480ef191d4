// SPDX-License-Identifier: Apache-2.0
// engine_impl, the proving engine behind include/cuzk/engine.hpp, and the types its stages share
// (internal to src/engine; threads, queues and buffer lifetimes are drawn in docs/architecture.md
// "The engine"). Its member functions live in one file per part:
//   engine.cpp           the public API (submit, await, cancel, status, timeline, shutdown),
//                        tenants and their fair shares, the timeline, a job's lifecycle;
//   parameter_cache.cpp  the parameters on each prover worker (srs entries: load, pin, evict,
//                        preload; the compiled plan readied on them; a GPU plan stepped down) and
//                        the room the memory budget makes for them;
//   synthesis_stage.cpp  the synthesis workers: a job's prepare (decode, compiled plan, parameters
//                        on every worker) and each partition's synthesis into a recycled buffer;
//   prover_stage.cpp     the prover workers and their lanes: admission beside the other lanes,
//                        proving, prover errors and the CPU fallback, the batch self-verification.
//
// One mutex (mu_) guards all scheduling state and one condition variable (cv_) announces every
// change; a waiter re-checks its condition under mu_ before sleeping, so no wake-up is lost
// (the Rust engine's budget waits lose them, docs/spec/wire.md §10). Heavy work (decoding,
// synthesis, proving, verification, parameter loading) runs with mu_ released. Clang checks the
// contract (scripts/check_thread_safety.sh): the state is CUZK_GUARDED_BY(mu_), every *_locked
// function CUZK_REQUIRES(mu_) (it may release mu_ inside, calling mu_.unlock() and mu_.lock()
// itself, and returns with it held), and the threads' loops and the public calls
// CUZK_EXCLUDES(mu_).
//
// A job moves through two priority queues ordered by (priority desc, submit order, partition):
//   synthesis queue: the job's "prepare" task (decode + check the input, pin the parameters on
//                    every prover worker), then one task per partition;
//   prover queue:    synthesized partitions (each in a recycled buffer) waiting for a worker.
// Every partition passes both queues, so a higher-priority job overtakes at the next partition
// boundary of either stage. Within the highest priority waiting, a stage takes the next task of
// the tenant furthest behind its weighted share (stride scheduling, fair_pick_locked), that
// tenant's tasks in queue order; jobs are keyed by (tenant, id). The host budget counts request
// bytes, decoded inputs, synthesis buffers and CPU-resident parameters; each GPU's budget counts
// its resident parameters.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/mutex.hpp"
#include "base/thread_annotations.hpp"
#include "cuzk/engine.hpp"
#include "engine/proof_kind.hpp"
#include "groth16/gpu_memory.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::engine {

using clock_type = std::chrono::steady_clock;

inline double ms_between(clock_type::time_point a, clock_type::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

inline std::string gib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(uint64_t(1) << 30));
  return buf;
}

// Runs fn, turning an escaping exception (out of memory, a library's throw) into an internal
// status: a worker thread must never die with a job in flight.
template <class Fn>
auto guarded(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return cuzk::status(status_code::resource_exhausted, "out of host memory");
  } catch (const std::exception& e) {
    return cuzk::status(status_code::internal, std::string("exception: ") + e.what());
  }
}

constexpr int PREPARE = -1;  // the partition index of a job's prepare task

struct job;
struct srs_entry;

// A job's key: (tenant, job id). Ids are unique within a tenant only.
using job_key = std::pair<std::string, std::string>;

// The stages a task passes, each with its own fair share between tenants.
enum stage : size_t { SYNTHESIS_STAGE = 0, PROVER_STAGE = 1, STAGES = 2 };

// A tenant's share of a stage costs STRIDE / weight per task taken (stride scheduling).
constexpr uint64_t STRIDE = uint64_t(1) << 40;

struct tenant_state {
  std::string name;
  tenant_policy policy;
  unsigned in_flight = 0;
  uint64_t queued_bytes = 0;
  uint64_t accepted = 0, refused = 0;
  // Per stage: the virtual time at which the tenant's next task would start. Lifted to the
  // stage's clock when compared, so a tenant that was idle banks no credit.
  std::array<uint64_t, STAGES> pass{};
  uint64_t stride() const { return STRIDE / std::max(1u, policy.weight); }
};

// One partition's synthesized circuit, recycled across partitions and jobs: the full circuit
// (cs: a, b, c, witness, densities) or, for a circuit with a compiled plan, the witness alone
// (wcs). A buffer taken for the other kind gives the storage of the first back.
struct synthesis_buffer {
  r1cs::proving_cs cs;
  r1cs::witness_cs wcs;
  bool witness_only = false;
  uint64_t charged = 0;  // host bytes charged for it (its capacity)
  uint64_t capacity_bytes() const { return cs.capacity_bytes() + wcs.capacity_bytes(); }

  // wcs's aux storage page-locked for the GPU's upload (prover_backend::pin_host), over exactly
  // `pinned` while set; unpinned before that storage may be freed or moved. Declared last, so
  // destroyed before the storage.
  std::unique_ptr<filecoin::proofs::host_pin> aux_pin;
  std::span<const std::byte> pinned;
  void unpin() {
    aux_pin.reset();
    pinned = {};
  }
  bool pin_is_current() const {
    const std::span<const std::byte> s = wcs.aux_storage();
    return aux_pin && s.data() == pinned.data() && s.size() == pinned.size();
  }
};

// A circuit's compiled a, b, c plan and the densities it implies, shared by every job of the
// circuit for the engine's lifetime (prepared_proof::compile_plan).
struct compiled_plan {
  std::shared_ptr<const r1cs::abc_plan> plan;
  r1cs::density_bitmaps densities;
  uint64_t bytes = 0;  // host bytes charged: the plan and the density bitmaps
};

struct plan_slot {
  std::shared_ptr<const compiled_plan> compiled;  // null: compiling, or failed
  bool compiling = false;
  bool failed = false;  // the circuit is synthesized in full
};

// A queue entry: ordered by priority (higher first), then submit order, then partition.
struct task_key {
  int prio = 0;
  uint64_t seq = 0;
  int partition = 0;
  bool operator<(const task_key& o) const {
    if (prio != o.prio) return prio > o.prio;
    if (seq != o.seq) return seq < o.seq;
    return partition < o.partition;
  }
};

struct ready_partition {
  std::shared_ptr<job> owner;
  std::unique_ptr<synthesis_buffer> buf;
  clock_type::time_point ready_at;
};

struct srs_entry {
  circuit_params circuit;
  size_t worker = 0;
  bool in_host_memory = false;  // the CPU's, or a GPU's streamed from page-locked host memory
  uint64_t working_bytes = 0;   // a GPU's proof peak and NTT tables beside them (gpu_plan)
  groth16::gpu_plan gpu;        // a GPU's plan for them (groth16::choose_gpu_plan)
  groth16::query_sizes backend_sizes{};  // the parameters' query sizes
  std::unique_ptr<filecoin::proofs::prover_backend> backend;
  uint64_t host_charged = 0, device_charged = 0;
  // The CPU prover's working set beside its parameters (groth16::cpu_proof_bytes for its pool;
  // its worker proves one partition at a time), charged with them; 0 on a GPU.
  uint64_t host_working = 0;
  unsigned refs = 0;
  bool loading = false;
  clock_type::time_point last_used = clock_type::now();
  // Written by the loading thread's progress reports (mu_ released), read by status().
  std::atomic<uint64_t> loaded_bytes{0};
  // The compiled plan the backend is ready for (ready_plan_locked), and whether it is readying.
  std::shared_ptr<const r1cs::abc_plan> plan;
  bool plan_preparing = false;
  uint64_t load_total_bytes = 0;
  clock_type::time_point load_started = clock_type::now();
};

struct job {
  std::string id, request_id;
  // Its tenant's entry of engine_impl::tenants_ (never erased while the engine lives).
  tenant_state* tenant = nullptr;
  std::array<uint8_t, 32> digest{};
  uint64_t seq = 0;
  int prio = 0;
  proof_kind kind{};
  std::shared_ptr<const proof_kind_handler> handler;
  std::optional<proof_request> request;  // dropped once prepared
  uint64_t request_charged = 0;
  std::unique_ptr<prepared_proof> prepared;
  uint64_t prepared_charged = 0;
  std::shared_ptr<const groth16::prepared_verifying_key> pvk;
  std::vector<srs_entry*> pins;
  // Workers whose parameters (or plan) failed to load for this job while others' loaded: they
  // never take its partitions (take_out_of_rotation_locked lifts this if they are all that is
  // left).
  std::set<size_t> excluded_workers;
  std::shared_ptr<const compiled_plan> plan;  // null: partitions are synthesized in full

  job_state state = job_state::queued;
  bool cancel_requested = false;
  std::string cancel_reason;
  status error;  // set once: the job will end FAILED when nothing is in flight
  unsigned in_flight = 0;
  unsigned partitions = 0, done = 0;
  std::vector<std::optional<groth16::proof>> proofs;
  std::vector<unsigned> attempts;
  std::vector<uint8_t> proof_bytes;
  clock_type::time_point submitted = clock_type::now(), finished;
  bool first_synthesis_seen = false;
  job_timings timings;

  bool terminal() const {
    return state == job_state::completed || state == job_state::failed ||
           state == job_state::cancelled;
  }
  bool stopping() const { return cancel_requested || !error.ok(); }
};

// What one partition a lane proves holds on its device, for admitting another lane's partition
// beside it (the GPU prover: witness uploaded, then the device's compute lock for the kernels).
struct lane_work {
  // From a compiled plan on parameters resident on the device with the plan ready: while it waits
  // for the device it holds its witness only. Otherwise it proves alone on the worker.
  bool shares_device = false;
  uint64_t working = 0;  // device bytes while its kernels run (groth16::gpu_plan)
  uint64_t waiting = 0;  // device bytes while it waits for the device (its witness)
};

struct prover_lane {
  std::string name;      // the timeline's lane
  bool express = false;  // engine_config::express_lane: takes express jobs only (express_job)
  std::thread thread;
  std::string current_job, current_tenant;
  proof_kind current_kind{};
  int partition = -1;
  std::optional<lane_work> work;  // set while it proves
};

struct prover_worker {
  std::string name;
  int device = -1;  // -1: the CPU prover
  std::string device_name;
  uint64_t device_total = 0;
  bool healthy = true;
  bool fallback = false;  // the CPU worker added when no GPU was left in rotation
  unsigned consecutive_failures = 0;
  uint64_t device_budget = 0, device_used = 0;
  std::unique_ptr<thread_pool> pool;
  std::vector<prover_lane> lanes;  // sized before the threads start, never resized
  // The lanes that take any job and share the parameters (engine_config::gpu_lanes): the express
  // lane, when there is one, is the last.
  unsigned regular_lanes() const {
    return unsigned(lanes.size()) - unsigned(!lanes.empty() && lanes.back().express);
  }
  // Busy: at least one lane proving. busy_ms sums the ended busy periods.
  unsigned proving = 0;
  clock_type::time_point busy_since;
  double busy_ms = 0;
};

class engine_impl final : public proving_engine {
 public:
  engine_impl(const engine_config& cfg, engine_parts parts);
  cuzk::status start() CUZK_EXCLUDES(mu_);
  ~engine_impl() override { shutdown(); }
  result<submit_result> submit(proof_request req) override CUZK_EXCLUDES(mu_);

  using proving_engine::await;
  using proving_engine::cancel;

  result<job_result> await(std::string_view tenant, const std::string& job_id,
                           std::chrono::milliseconds timeout) override CUZK_EXCLUDES(mu_);
  result<bool> cancel(std::string_view tenant, const std::string& job_id,
                      const std::string& reason) override CUZK_EXCLUDES(mu_);
  engine_status status() override CUZK_EXCLUDES(mu_);
  std::vector<timeline_event> timeline(double since) override CUZK_EXCLUDES(mu_);
  result<bool> preload(const std::string& circuit_id) override CUZK_EXCLUDES(mu_);
  result<uint64_t> evict(const std::string& circuit_id) override CUZK_EXCLUDES(mu_);
  void shutdown() override CUZK_EXCLUDES(mu_);

 private:
  // ---- lookups (engine.cpp) ------------------------------------------------------------------

  const proof_kind_handler* handler_of(proof_kind k) const;
  std::shared_ptr<const proof_kind_handler> handler_ptr(proof_kind k) const;
  std::string kinds_text() const;

  // The kind of the first handler that knows the circuit (what a preload is labelled with).
  proof_kind kind_of(const circuit_params& c) const;
  result<circuit_params> circuit_by_id(const std::string& id) const;

  // ---- tenants and fair shares (engine.cpp) --------------------------------------------------

  static job_key key_of(const job& j) { return job_key{j.tenant->name, j.id}; }

  // The tenant's entry, made on its first request with its policy from the config.
  tenant_state& tenant_locked(const std::string& name) CUZK_REQUIRES(mu_);

  // The tenant's limits for one more job of `bytes` request bytes.
  cuzk::status admit_for_tenant_locked(const tenant_state& t, uint64_t bytes) const
      CUZK_REQUIRES(mu_);

  // Returns the request bytes a job holds until it is prepared (to the host budget and to its
  // tenant's queued bytes) and drops the request.
  void release_request_locked(job& j) CUZK_REQUIRES(mu_);

  // The task a stage takes next from `queue` (ordered by task_key) among the entries `eligible`
  // accepts, end() when none: of the highest priority present, the first task (queue order) of
  // the tenant whose pass, lifted to the stage's clock, is lowest; ties go to the earlier task.
  // Priority first, so a PoSt of any tenant goes before every PoRep; within it, stride
  // scheduling (take_locked charges the tenant STRIDE / weight per task), so over any stretch
  // where tenants keep work queued their tasks are taken in proportion to their weights and a
  // tenant that was idle starts level with the others instead of with a banked credit.
  template <class Queue, class Owner, class Eligible>
  typename Queue::iterator fair_pick_locked(Queue& queue, stage s, Owner owner_of,
                                            Eligible eligible) CUZK_REQUIRES(mu_) {
    auto best = queue.end();
    uint64_t best_pass = 0;
    std::set<const tenant_state*> seen;
    for (auto it = queue.begin(); it != queue.end(); ++it) {
      if (best != queue.end() && it->first.prio != best->first.prio) break;
      if (!eligible(it)) continue;
      const tenant_state* t = owner_of(it).tenant;
      if (!seen.insert(t).second) continue;  // the tenant's first eligible task speaks for it
      const uint64_t pass = std::max(t->pass[s], stage_clock_[s]);
      if (best == queue.end() || pass < best_pass) {
        best = it;
        best_pass = pass;
      }
    }
    return best;
  }

  // The stage takes a task of `j`: its tenant's pass moves on by its stride.
  void take_locked(const job& j, stage s) CUZK_REQUIRES(mu_);
  unsigned queue_position_locked(const job& me) const CUZK_REQUIRES(mu_);
  job_result result_of_locked(const job& j) const CUZK_REQUIRES(mu_);

  // Drops finished jobs past the retention time or beyond the retained count (oldest first).
  void prune_locked() CUZK_REQUIRES(mu_);

  // ---- timeline (engine.cpp) -----------------------------------------------------------------

  static constexpr size_t MAX_EVENTS = 20000;

  timeline_event& record_locked(const std::string& lane, const job& j, int partition,
                                const char* phase, clock_type::time_point t0,
                                clock_type::time_point t1) CUZK_REQUIRES(mu_);
  timeline_event& record_locked(const std::string& lane, const std::string& job_id,
                                const std::string& tenant, proof_kind kind, int partition,
                                const char* phase, clock_type::time_point t0,
                                clock_type::time_point t1) CUZK_REQUIRES(mu_);

  // ---- job lifecycle (engine.cpp) ------------------------------------------------------------

  void fail_locked(job& j, cuzk::status s) CUZK_REQUIRES(mu_);

  // Removes the job's queued tasks and returns its synthesized buffers.
  void drop_queued_locked(job& j) CUZK_REQUIRES(mu_);

  // Ends a cancelled or failed job once none of its work is running.
  void settle_locked(job& j) CUZK_REQUIRES(mu_);
  void finish_locked(job& j, job_state s) CUZK_REQUIRES(mu_);
  void recycle_locked(std::unique_ptr<synthesis_buffer> buf) CUZK_REQUIRES(mu_);
  std::shared_ptr<job> find_shared_locked(const job& j) CUZK_REQUIRES(mu_);

  // ---- parameter cache and memory budget (parameter_cache.cpp) -------------------------------

  using srs_map = std::map<std::pair<std::string, size_t>, std::unique_ptr<srs_entry>>;

  // Frees idle memory until `host_need` host bytes (and `device_need` on worker `w`, if given)
  // fit: first recycled buffers, then parameters no job uses that have been idle for
  // eviction_min_idle, least recently used first. True when they fit. For an express job
  // (`express`: a PoSt with its deadline) parameters no job uses go at once, however recently
  // used: eviction_min_idle saves a reload of them, not worth a missed WindowPoSt deadline.
  // On a device the room is for the charges of every entry there plus the largest working set
  // among them and `device_working` (a new entry's program and working set): a proof alone on
  // the device (prover_stage's admits) then always fits beside every resident circuit:
  //   device_used + device_need + max(device_working, max_e working_bytes(e)) <= budget.
  bool make_room_locked(uint64_t host_need, std::optional<size_t> w, uint64_t device_need,
                        bool express = false, uint64_t device_working = 0) CUZK_REQUIRES(mu_);

  // make_room_locked until the room is there, waiting (cv_, polled each second: idle parameters
  // become evictable with time) while `owner` (may be null) is not stopping; counted in
  // express_waiting_for_memory_ while an express job waits. False when the owner stopped.
  bool wait_for_room_locked(uint64_t host_need, std::optional<size_t> w, uint64_t device_need,
                            const job* owner, uint64_t device_working = 0) CUZK_REQUIRES(mu_);

  // The largest working set (srs_entry::working_bytes: one proof's buffers and the NTT tables)
  // of the entries on worker `w`.
  uint64_t largest_working_set_locked(size_t w) const CUZK_REQUIRES(mu_);

  // The plan for an express job's parameters on worker `w` beside the circuits pinned there
  // (their parameters, and their lanes' working sets at their peak), when `whole` (the plan
  // against the whole budget) does not fit beside them: the fastest plan for the memory they
  // leave (groth16::choose_gpu_plan_beside; parameters in host memory only when the host budget
  // has room for them now) — a WindowPoSt with one lane and smaller MSM groups beside two PoRep
  // lanes on a 141 GB card now, instead of with two lanes after every PoRep job pinning the card
  // has ended. Failing that, the fastest plan beside their parameters only (streamed beside
  // PoRep's on an 80 GB card), the regular lanes pausing for it (express_reserved_locked).
  // nullopt: `whole` is the plan (it fits beside them, nothing is pinned, or nothing else fits
  // either, and the job waits for them).
  std::optional<groth16::gpu_plan> plan_beside_pinned_locked(size_t w,
                                                             const groth16::gpu_plan_request& req,
                                                             const groth16::gpu_plan& whole) const
      CUZK_REQUIRES(mu_);

  srs_map::iterator erase_srs_locked(srs_map::iterator it) CUZK_REQUIRES(mu_);

  // The job's plan readied on pinned parameters `e` (prover_backend::prepare_plan: uploaded to
  // the GPU, or the CPU's a, b, c buffers), once per entry, after room is made for it like for
  // parameters. The entry is pinned, so it is not evicted meanwhile; no prover uses the plan on
  // it before this returns (only jobs past their prepare reach the provers, and a prover lane
  // readying it proves alone on its worker: lane_work). Called by PREPARE, or by a lane of a
  // worker that joined after the prepare; each holds `j` in flight while mu_ is released here.
  cuzk::status ready_plan_locked(srs_entry& e, job& j) CUZK_REQUIRES(mu_);

  // Charges what the backend holds now.
  void recharge_locked(srs_entry& e) CUZK_REQUIRES(mu_);
  void release_srs_locked(srs_entry& e) CUZK_REQUIRES(mu_);

  // The parameters of `c` on worker `w`, loaded if need be (mu_ released while loading) and
  // pinned (refs + 1). `owner` (may be null) is checked for cancellation while waiting for
  // memory. resource_exhausted when they can never fit.
  result<srs_entry*> acquire_srs_locked(const circuit_params& c, size_t w, const job* owner,
                                        bool* was_loaded) CUZK_REQUIRES(mu_);

  // per_worker(i) for i < count at once: a thread each, taking mu_ itself (the parameter
  // loads in it release mu_ while they work), this thread's lock released until all are done;
  // inline for one.
  template <class Fn>
  void on_workers_at_once_locked(size_t count, Fn per_worker) CUZK_REQUIRES(mu_) {
    if (count == 1) {
      per_worker(0);
      return;
    }
    mu_.unlock();
    std::vector<std::thread> threads;
    for (size_t i = 0; i < count; ++i) {
      threads.emplace_back([&, i] {
        mutex_lock held(mu_);
        per_worker(i);
      });
    }
    for (std::thread& t : threads) t.join();
    mu_.lock();
  }

  // The job's parameters (and its plan) loaded and pinned on every healthy prover worker, the
  // workers at once: a thread each, since every load is bound by its own device's upload and the
  // file's pages are read from disk once for all of them (the page cache); one after the other,
  // eight GPUs would wait eight loads of 47 GB before a 32 GiB PoRep's first proof. A worker
  // whose load fails while another's succeeds is left out of the job (excluded_workers) and, for
  // a device fault, counts as a failure of its device (two in a row take it out of rotation); when
  // every worker fails the input is blamed (the file, the budget), no device, and the job fails
  // with the first error. Called by PREPARE, which holds `j` in flight.
  cuzk::status load_on_workers_locked(const std::shared_ptr<job>& j) CUZK_REQUIRES(mu_);

  // The next plan after e's with a smaller device peak, the same residency and the same place for
  // a, b, c (what is loaded and readied stays), applied to its backend; false when there is none.
  bool step_down_plan_locked(srs_entry& e) CUZK_REQUIRES(mu_);

  // ---- synthesis stage (synthesis_stage.cpp) -------------------------------------------------

  // A buffer able to hold `shape` without growing: a recycled one (the smallest that fits), or
  // a new one when the budget has room. Null when neither is possible now.
  std::unique_ptr<synthesis_buffer> take_buffer_locked(const synthesis_shape& shape,
                                                       bool witness_only) CUZK_REQUIRES(mu_);

  // Synthesis worker `index`: takes the next synthesis task (a PREPARE or a partition) in
  // priority order, fairly between tenants, and runs it on `pool`; an express worker
  // (engine_config::express_lane) takes express jobs' tasks only.
  void synthesis_loop(unsigned index, bool express) CUZK_EXCLUDES(mu_);

  // The job's minimum working set (one partition's buffer, its decoded input and its parameters
  // held in host memory) must fit the host budget, or it could wait forever.
  cuzk::status check_fits_locked(const job& j, uint64_t pinned_host) const CUZK_REQUIRES(mu_);

  // PREPARE of one job. The stage holds the job in flight from start to end: it releases mu_ at
  // several points (decoding, compiling or waiting for the plan, loading parameters, readying the
  // plan), and a cancel meanwhile must only mark the job, never settle it (which drops its
  // prepared input and its pins) under the stage's feet; the job settles here, once.
  void run_prepare_locked(const std::shared_ptr<job>& j, const std::string& lane, thread_pool& pool)
      CUZK_REQUIRES(mu_);

  void prepare_stage_locked(const std::shared_ptr<job>& j, const std::string& lane,
                            thread_pool& pool) CUZK_REQUIRES(mu_);

  // The compiled plan of the job's circuit: compiled on this thread by the first job of the
  // circuit (mu_ released; a second job waits for it), then shared. Null when the kind has none
  // or it failed to compile (logged once): the circuit is then synthesized in full. Called by
  // PREPARE, which holds `j` in flight while mu_ is released here.
  std::shared_ptr<const compiled_plan> plan_of_locked(job& j, const std::string& lane)
      CUZK_REQUIRES(mu_);

  void run_synthesis_locked(const std::shared_ptr<job>& j, unsigned k,
                            std::unique_ptr<synthesis_buffer> buf, const std::string& lane,
                            thread_pool& pool) CUZK_REQUIRES(mu_);

  // Page-locks the buffer's aux storage through the first backend that wants it (a GPU), once
  // per buffer: a recycled buffer keeps its storage, and so its lock, from partition to partition.
  // A failure costs upload speed only, so it is logged, not returned.
  void pin_witness(synthesis_buffer& buf,
                   const std::vector<filecoin::proofs::prover_backend*>& pinners);

  // A witness the plan cannot evaluate would be a wrong a, b, c: never proved.
  static cuzk::status check_witness_fits(const r1cs::witness_cs& w, const r1cs::abc_plan& plan);

  // Partition k of `pp` synthesized into `buf` (reset and reserved to the shape first): the
  // witness alone for a circuit with a compiled plan (`witness_only`), else the full circuit,
  // finalized. What a partition's synthesis and a failed self-check's diagnosis share.
  static cuzk::status synthesize_partition(const prepared_proof& pp, unsigned k,
                                           synthesis_buffer& buf, bool witness_only,
                                           thread_pool& pool);

  // The early public-input check (prepared_proof::inconsistent_input): the synthesized
  // partition's input values (ONE first) must be the verifier's, or the input is named now,
  // before a proof that could only fail self-verification.
  static cuzk::status check_public_inputs(const prepared_proof& pp, unsigned k,
                                          std::span<const ff::fr_t> inputs);

  // ---- prover stage (prover_stage.cpp) -------------------------------------------------------

  void add_cpu_worker_locked(unsigned threads) CUZK_REQUIRES(mu_);

  // Starts the worker's lanes: the first is named as the worker, the others "gpu 0.1", ...
  void start_prover_locked(size_t w) CUZK_REQUIRES(mu_);

  // The parameters job `j` pinned on worker `w` (null: the worker joined after its prepare).
  static srs_entry* pinned_on(const job& j, size_t w);

  // What `rp` would hold on worker `w`'s device while a lane proves it.
  lane_work work_of_locked(size_t w, const ready_partition& rp) const CUZK_REQUIRES(mu_);

  // Whether a regular lane of `wk` may start proving `next` now: always when no other lane
  // proves and no express job is reserved; beside other regular lanes only when every one of
  // them shares the device, and then, or beside an express proof or reserve, only when the
  // device's peak fits its budget beside what is charged there. Among the regular lanes the one
  // whose kernels run holds its working set and each other one its witness:
  // peak = max_i (working_i + Σ_{j≠i} waiting_j); an express proof runs beside them and adds its
  // working set, or the largest `express_reserved` (express_reserved_locked) when more.
  static bool admits(const prover_worker& wk, const lane_work& next, uint64_t express_reserved);
  // The largest working set of the express jobs that hold parameters on worker `w` and have
  // partitions left, when it has an express lane (0 otherwise). Regular lanes leave it room:
  // where it fits only beside the circuits' parameters, not beside the regular lanes' peak (a
  // 32 GiB WindowPoSt beside PoRep on an 80 GB card), they pause at their partitions' end until
  // the express job ends, so its partitions wait for one PoRep partition, not for whole jobs.
  uint64_t express_reserved_locked(size_t w) const CUZK_REQUIRES(mu_);
  // Whether the express lane of `wk` may start proving `next` now: its working set fits the
  // budget beside what is charged and the regular lanes' peak (it never waits for their kernels).
  static bool admits_express(const prover_worker& wk, const lane_work& next);
  // The regular lanes' device peak (the formula of admits), with `next` among them when given.
  static uint64_t regular_peak(const prover_worker& wk, const lane_work* next);
  // The express lane's working set while it proves (0 when it is idle or absent).
  static uint64_t express_working(const prover_worker& wk);
  // A job the express path takes (engine_config::express_lane): priority high or above.
  static bool express_job(const job& j) { return j.prio >= int(priority::high); }

  // Lane `l` of worker `w`: takes the first ready partition the worker may prove (priority order,
  // admitted beside its other lanes), proves it, finalizes it.
  void prover_loop(size_t w, size_t l) CUZK_EXCLUDES(mu_);

  // A GPU out of device memory is a plan that was too large, not a fault of the device: the
  // parameters' entry steps down to the next smaller plan of the same residency (one lane,
  // smaller MSM groups, gathers and ring) and the partition is proved again on the same GPU; with
  // no smaller plan left the job fails, saying so. Any other GPU failure retries the partition
  // once (re-synthesized); two failures in a row take the GPU out of rotation and the partition
  // moves to the workers left. A CPU failure, or a second GPU failure of the partition on a GPU
  // still in rotation, fails the job.
  void on_prover_error_locked(size_t w, job& j, unsigned k, const cuzk::status& err)
      CUZK_REQUIRES(mu_);

  // Whether the CPU fallback may prove j's partitions
  // (engine_config::cpu_fallback_max_param_bytes), from the size of its parameters' queries (any
  // worker's entry, else the file's header).
  cuzk::status cpu_fallback_allows_locked(const job& j) const CUZK_REQUIRES(mu_);

  void take_out_of_rotation_locked(size_t w) CUZK_REQUIRES(mu_);

  // Every partition proved: verify them all in one batch (mu_ released). A failing batch is
  // checked partition by partition; each bad one is re-proved once, a second failure fails the
  // job naming the partition.
  void complete_locked(const std::shared_ptr<job>& jp, const std::string& verify_lane)
      CUZK_REQUIRES(mu_);

  // Why the partitions `bad` failed self-verification twice, as the job's error. For a kind that
  // names its input (prepared_proof::inconsistent_input) the first one is synthesized again (mu_
  // released, in a buffer of the budget) and its a, b, c checked row by row: a row with
  // a·b ≠ c blames the input, none the parameters (Groth16 completeness), as
  // filecoin::proofs::steps::self_check_blame words it. The points are not re-checked here: a
  // subgroup check of 32 GiB parameters would hold a prover lane for hours.
  cuzk::status self_check_failure_locked(job& j, const std::vector<unsigned>& bad)
      CUZK_REQUIRES(mu_);

  // ---- state ---------------------------------------------------------------------------------

  // Set by the constructor, then read-only.
  const engine_config cfg_;
  const handler_list handlers_;
  backend_factory make_backend_;
  device_lister list_devices_;

  // mu_ guards everything below it but the threads and the synthesis pool; cv_ announces every
  // change of it.
  cuzk::mutex mu_;
  cuzk::condition_variable cv_;
  uint64_t host_budget_ CUZK_GUARDED_BY(mu_) = 0;
  unsigned synthesis_workers_ CUZK_GUARDED_BY(mu_) = 0;
  unsigned lookahead_ CUZK_GUARDED_BY(mu_) = 2;
  clock_type::time_point started_at_ CUZK_GUARDED_BY(mu_);
  bool draining_ CUZK_GUARDED_BY(mu_) = false;
  bool exit_ CUZK_GUARDED_BY(mu_) = false;
  uint64_t next_seq_ CUZK_GUARDED_BY(mu_) = 0;
  uint64_t host_used_ CUZK_GUARDED_BY(mu_) = 0;
  uint64_t completed_ CUZK_GUARDED_BY(mu_) = 0;
  uint64_t failed_ CUZK_GUARDED_BY(mu_) = 0;
  uint64_t cancelled_ CUZK_GUARDED_BY(mu_) = 0;
  // Express jobs (PoSt) waiting for memory to load their parameters or ready their plan
  // (wait_for_room_locked). While one waits, no regular job starts its PREPARE (synthesis_loop),
  // so none pins more parameters: the memory it waits for is held by the jobs already pinned, and
  // is freed when they end, not when a stream of PoRep jobs behind them has drained.
  unsigned express_waiting_for_memory_ CUZK_GUARDED_BY(mu_) = 0;

  std::map<job_key, std::shared_ptr<job>> jobs_ CUZK_GUARDED_BY(mu_);
  // (tenant, request id) → the ids of the tenant's jobs submitted with it.
  std::multimap<job_key, std::string> by_request_ CUZK_GUARDED_BY(mu_);
  // By name; entries are never erased.
  std::map<std::string, tenant_state> tenants_ CUZK_GUARDED_BY(mu_);
  // Per stage: the virtual time of the last task taken (fair_pick_locked).
  std::array<uint64_t, STAGES> stage_clock_ CUZK_GUARDED_BY(mu_){};
  std::set<job*> active_ CUZK_GUARDED_BY(mu_);
  std::deque<job_key> finished_ CUZK_GUARDED_BY(mu_);
  std::map<const job*, clock_type::time_point> queued_at_ CUZK_GUARDED_BY(mu_);
  std::map<task_key, std::shared_ptr<job>> synth_queue_ CUZK_GUARDED_BY(mu_);
  std::map<task_key, ready_partition> prover_queue_ CUZK_GUARDED_BY(mu_);
  std::vector<std::unique_ptr<synthesis_buffer>> free_buffers_ CUZK_GUARDED_BY(mu_);
  srs_map srs_ CUZK_GUARDED_BY(mu_);
  // By "kind:parameter file".
  std::map<std::string, plan_slot> plans_ CUZK_GUARDED_BY(mu_);
  std::deque<timeline_event> events_ CUZK_GUARDED_BY(mu_);
  // Grows when the CPU fallback joins (take_out_of_rotation_locked).
  std::vector<std::unique_ptr<prover_worker>> workers_ CUZK_GUARDED_BY(mu_);

  // Set by start() (the synthesis threads, then only joined by shutdown()), then read-only.
  std::vector<std::thread> synth_threads_;
  std::unique_ptr<thread_pool> synth_pool_;
  // The express synthesis worker's pool (engine_config::express_lane; null without): express
  // jobs never queue behind a PoRep partition's loops on synth_pool_ (whose threads serve the
  // oldest loop first). Its threads sleep while no express job runs.
  std::unique_ptr<thread_pool> express_pool_;
};

}  // namespace cuzk::engine
