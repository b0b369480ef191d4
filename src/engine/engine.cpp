// SPDX-License-Identifier: Apache-2.0
// The proving engine (include/cuzk/engine.hpp; threads, queues and buffer lifetimes are drawn in
// docs/architecture.md "The engine").
//
// One mutex (mu_) guards all scheduling state and one condition variable (cv_) announces every
// change; a waiter re-checks its condition under mu_ before sleeping, so no wake-up is lost
// (the Rust engine's budget waits lose them, spec/CUZK.md §5.2 #6). Heavy work (decoding,
// synthesis, proving, verification, parameter loading) runs with mu_ released.
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
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "base/hex.hpp"
#include "base/os_random.hpp"
#include "engine/proof_kind.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "groth16/assignment.hpp"
#include "groth16/gpu_memory.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/prover_cpu.hpp"
#include "groth16/verifier.hpp"
#include "hash/blake2b.hpp"

namespace cuzk::engine {

std::string_view to_string(proof_kind k) {
  switch (k) {
    case proof_kind::porep_seal_commit:
      return "porep-c2";
    case proof_kind::snap_deals_update:
      return "snap-update";
    case proof_kind::window_post_partition:
      return "window-post";
    case proof_kind::winning_post:
      return "winning-post";
  }
  return "unknown";
}

std::string_view to_string(job_state s) {
  switch (s) {
    case job_state::queued:
      return "queued";
    case job_state::running:
      return "running";
    case job_state::completed:
      return "completed";
    case job_state::failed:
      return "failed";
    case job_state::cancelled:
      return "cancelled";
  }
  return "unknown";
}

namespace {

using clock_type = std::chrono::steady_clock;

double ms_between(clock_type::time_point a, clock_type::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string gib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(uint64_t(1) << 30));
  return buf;
}

// MemTotal of /proc/meminfo in bytes, 0 when unreadable.
uint64_t machine_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:") return kib * 1024;
  }
  return 0;
}

// A random RFC 4122 version-4 UUID, the Rust cuzk's id for a request without one.
std::string random_uuid() {
  std::array<uint8_t, 16> b{};
  if (!fill_os_random(b).ok()) {
    std::random_device rd;
    for (auto& x : b) x = uint8_t(rd());
  }
  b[6] = uint8_t((b[6] & 0x0f) | 0x40);
  b[8] = uint8_t((b[8] & 0x3f) | 0x80);
  const std::string h = to_hex(b);
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) +
         "-" + h.substr(20);
}

// BLAKE2b-256 of every field that determines the proof (not the priority, not the id): two
// submits with the same id are the same job only when this matches.
std::array<uint8_t, 32> request_digest(const proof_request& r) {
  blake2b h(32);
  const auto u64 = [&](uint64_t v) { h.update(&v, sizeof v); };
  const auto bytes = [&](const std::vector<uint8_t>& v) {
    u64(v.size());
    h.update(v);
  };
  u64(uint64_t(r.kind));
  u64(r.sector_size);
  u64(r.registered_proof);
  bytes(r.vanilla_proof);
  u64(r.vanilla_proofs.size());
  for (const auto& v : r.vanilla_proofs) bytes(v);
  u64(r.sector_number);
  u64(r.miner_id);
  bytes(r.randomness);
  u64(r.partition_index);
  bytes(r.comm_r_old);
  bytes(r.comm_r_new);
  bytes(r.comm_d_new);
  u64(r.check_identity ? 1 : 0);
  std::array<uint8_t, 32> out{};
  h.finalize(out.data());
  return out;
}

uint64_t request_bytes(const proof_request& r) {
  uint64_t n = r.vanilla_proof.size() + r.randomness.size() + r.comm_r_old.size() +
               r.comm_r_new.size() + r.comm_d_new.size();
  for (const auto& v : r.vanilla_proofs) n += v.size();
  return n;
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
  std::unique_ptr<proofs::host_pin> aux_pin;
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
  std::unique_ptr<proofs::prover_backend> backend;
  uint64_t host_charged = 0, device_charged = 0;
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
  std::string name;  // the timeline's lane
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
  // Busy: at least one lane proving. busy_ms sums the ended busy periods.
  unsigned proving = 0;
  clock_type::time_point busy_since;
  double busy_ms = 0;
};

// The prover's split into a timeline event or a partition's timings (the same field names).
template <class T>
void copy_prover_split(const groth16::prover_timings& p, T& out) {
  out.upload = p.upload;
  out.device_wait = p.device_wait;
  out.abc = p.abc;
  out.ntt = p.ntt_a + p.ntt_b + p.ntt_c;
  out.h = p.h_compute;
  out.msm_h = p.msm_h;
  out.msm_l = p.msm_l;
  out.msm_a = p.msm_a;
  out.msm_b_g1 = p.msm_b_g1;
  out.msm_b_g2 = p.msm_b_g2;
}

int numeric(priority p) {
  return int(p);
}

class engine_impl final : public proving_engine {
 public:
  engine_impl(const engine_config& cfg, engine_parts parts)
      : cfg_(cfg),
        handlers_(std::move(parts.handlers)),
        make_backend_(parts.make_backend),
        list_devices_(parts.list_devices) {
    if (!list_devices_) list_devices_ = proofs::list_gpus;
    if (!make_backend_) {
      make_backend_ = [](const groth16::params_file& file, groth16::point_checks checks, int device,
                         proofs::srs_residency residency, thread_pool& pool, const log_sink& log,
                         const progress_fn& progress) {
        return proofs::make_prover_backend(file, checks, device, pool, log, progress, residency);
      };
    }
  }

  cuzk::status start() {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    host_budget_ = cfg_.host_memory_budget;
    if (host_budget_ == 0) {
      const uint64_t total = machine_memory_bytes();
      if (total == 0)
        return cuzk::status(status_code::internal, "cannot read MemTotal from /proc/meminfo");
      if (total <= cfg_.host_safety_margin) {
        return cuzk::status(status_code::invalid_argument,
                            "the safety margin " + gib(cfg_.host_safety_margin) +
                                " leaves nothing of the machine's " + gib(total));
      }
      host_budget_ = total - cfg_.host_safety_margin;
    }

    const std::vector<proofs::gpu_device_t> gpus =
        cfg_.disable_gpus ? std::vector<proofs::gpu_device_t>{} : list_devices_();
    std::vector<proofs::gpu_device_t> chosen;
    if (cfg_.gpu_devices.empty() || cfg_.disable_gpus) {
      // Every device this binary can run on; another is left out, saying why (its sm_XY, the
      // rebuild), not discovered at the first proof.
      for (const proofs::gpu_device_t& g : gpus) {
        if (g.unsupported.empty()) {
          chosen.push_back(g);
        } else {
          logf(cfg_.log, log_level::error, "engine: GPU %d left out: %s", g.ordinal,
               g.unsupported.c_str());
        }
      }
    } else {
      for (size_t i = 0; i < cfg_.gpu_devices.size(); ++i) {
        const int ordinal = cfg_.gpu_devices[i];
        // Twice would mean two workers each loading its own copy of the parameters on one GPU.
        if (std::find(cfg_.gpu_devices.begin(), cfg_.gpu_devices.begin() + i, ordinal) !=
            cfg_.gpu_devices.begin() + i) {
          return cuzk::status(status_code::invalid_argument,
                              "GPU " + std::to_string(ordinal) + " is listed twice");
        }
        auto it = std::find_if(gpus.begin(), gpus.end(),
                               [&](const proofs::gpu_device_t& g) { return g.ordinal == ordinal; });
        if (it == gpus.end()) {
          return cuzk::status(status_code::invalid_argument,
                              "GPU " + std::to_string(ordinal) +
                                  " does not exist on this machine (" +
                                  std::to_string(gpus.size()) + " CUDA devices)");
        }
        // A GPU the configuration names must run: refused at start, saying why.
        if (!it->unsupported.empty())
          return cuzk::status(status_code::invalid_argument, it->unsupported);
        chosen.push_back(*it);
      }
    }
    const unsigned prover_threads = cfg_.prover_threads ? cfg_.prover_threads : cores;
    for (const auto& g : chosen) {
      auto w = std::make_unique<prover_worker>();
      w->name = "gpu " + std::to_string(g.ordinal);
      w->device = g.ordinal;
      w->device_name = g.name;
      w->device_total = g.total_bytes;
      const uint64_t reserve = uint64_t(1) << 30;
      w->device_budget = cfg_.device_memory_budget
                             ? cfg_.device_memory_budget
                             : (g.total_bytes > reserve ? g.total_bytes - reserve : g.total_bytes);
      // The GPU worker's pool stages host arrays into pinned memory; a few threads saturate it
      // (its lanes share it: thread_pool runs their loops at once).
      w->pool = std::make_unique<thread_pool>(std::min(prover_threads, 4u));
      w->lanes.resize(std::max(1u, cfg_.gpu_lanes));
      workers_.push_back(std::move(w));
    }
    if (chosen.empty() || cfg_.cpu_worker_with_gpus) add_cpu_worker(prover_threads);

    // Partitions in synthesis at once. Each spreads its independent parts (PoRep's and
    // SnapDeals' challenges, PoSt's sector slots) over the shared pool below, so a few workers
    // keep every core busy and the next partition ready, while each one in flight holds its
    // buffer (one worker per core held ten full ones, 109.5 GiB of RSS on the H200). A witness
    // (compiled_abc) is ≈ 0.3 s of 16 cores for a 32 GiB PoRep partition against ≈ 1.9 s of
    // H200, and 2 workers kept the GPU 90 % busy at 16.7 GiB of RSS
    // (bench/results/h200/2026-12-02-porep32g-witness.md): an eighth of the cores, at least 2;
    // a full synthesis (≈ 2.4 s) needs a quarter.
    const unsigned share = cfg_.compiled_abc ? 8 : 4;
    unsigned automatic = std::min(cores, std::max(2u, cores / share));
    if (cfg_.max_synthesis_workers != 0)
      automatic = std::min(automatic, cfg_.max_synthesis_workers);
    synthesis_workers_ = cfg_.synthesis_workers ? cfg_.synthesis_workers : automatic;
    // Every core by default: concurrent partitions share it (thread_pool serves several loops at
    // once); synthesis.threads may keep some cores for other work on the machine.
    synth_pool_ =
        std::make_unique<thread_pool>(cfg_.synthesis_threads ? cfg_.synthesis_threads : cores);
    // Partitions synthesized ahead of the provers: enough to keep every worker fed while the
    // next one is synthesized, not so many that a late high-priority job finds the budget full.
    lookahead_ = 2 * unsigned(workers_.size());
    started_at_ = clock_type::now();
    for (size_t i = 0; i < workers_.size(); ++i) start_prover(i);
    for (unsigned i = 0; i < synthesis_workers_; ++i)
      synth_threads_.emplace_back([this, i] { synthesis_loop(i); });
    logf(cfg_.log, log_level::info,
         "engine: %zu prover worker(s) (%u lane(s) per GPU), %u synthesis worker(s), host "
         "budget %s",
         workers_.size(), std::max(1u, cfg_.gpu_lanes), synthesis_workers_,
         gib(host_budget_).c_str());
    return cuzk::status();
  }

  ~engine_impl() override { shutdown(); }

  result<submit_result> submit(proof_request req) override {
    const proof_kind_handler* h = handler_of(req.kind);
    if (!h) {
      return cuzk::status(status_code::invalid_argument,
                          "invalid proof_kind: " + std::to_string(uint32_t(req.kind)) +
                              " (this engine proves " + kinds_text() + ")");
    }
    if (cuzk::status s = h->check(req); !s) return s;
    const auto digest = request_digest(req);
    const uint64_t bytes = request_bytes(req);

    std::unique_lock lk(mu_);
    if (draining_) return cuzk::status(status_code::unavailable, "the engine is shutting down");
    prune_locked();
    if (!req.request_id.empty()) {
      auto range = by_request_.equal_range(job_key{req.tenant, req.request_id});
      for (auto it = range.first; it != range.second; ++it) {
        auto jt = jobs_.find(job_key{req.tenant, it->second});
        if (jt == jobs_.end()) continue;
        const job& j = *jt->second;
        const bool usable = j.digest == digest && !j.stopping() && j.state != job_state::failed &&
                            j.state != job_state::cancelled;
        if (usable) return submit_result{j.id, true, queue_position_locked(j)};
      }
    }
    if (bytes > host_budget_) {
      return cuzk::status(
          status_code::resource_exhausted,
          "the request's " + gib(bytes) + " of input exceed the host budget " + gib(host_budget_));
    }
    tenant_state& tenant = tenant_locked(req.tenant);
    if (cuzk::status s = admit_for_tenant_locked(tenant, bytes); !s) {
      ++tenant.refused;
      return s;
    }
    auto j = std::make_shared<job>();
    j->seq = next_seq_++;
    j->tenant = &tenant;
    j->request_id = req.request_id;
    j->id = req.request_id.empty() ? random_uuid() : req.request_id;
    if (jobs_.count(job_key{tenant.name, j->id}))
      j->id = req.request_id + "#" + std::to_string(j->seq);
    ++tenant.in_flight;
    ++tenant.accepted;
    tenant.queued_bytes += bytes;
    j->digest = digest;
    j->kind = req.kind;
    j->handler = handler_ptr(req.kind);
    j->prio = numeric(req.prio == priority::unspecified ? h->default_priority() : req.prio);
    // Request bytes are charged at once, past the budget if need be: the client already sent
    // them, refusing would not free them. Buffers wait for the budget instead.
    j->request_charged = bytes;
    host_used_ += bytes;
    j->request = std::move(req);
    jobs_[key_of(*j)] = j;
    if (!j->request_id.empty()) by_request_.emplace(job_key{tenant.name, j->request_id}, j->id);
    active_.insert(j.get());
    synth_queue_.emplace(task_key{j->prio, j->seq, PREPARE}, j);
    cv_.notify_all();
    return submit_result{j->id, false, queue_position_locked(*j)};
  }

  using proving_engine::await;
  using proving_engine::cancel;

  result<job_result> await(std::string_view tenant, const std::string& job_id,
                           std::chrono::milliseconds timeout) override {
    std::unique_lock lk(mu_);
    auto it = jobs_.find(job_key{std::string(tenant), job_id});
    if (it == jobs_.end()) return cuzk::status(status_code::not_found, "job not found: " + job_id);
    std::shared_ptr<job> j = it->second;
    cv_.wait_for(lk, timeout, [&] { return j->terminal(); });
    return result_of_locked(*j);
  }

  result<bool> cancel(std::string_view tenant, const std::string& job_id,
                      const std::string& reason) override {
    std::unique_lock lk(mu_);
    auto it = jobs_.find(job_key{std::string(tenant), job_id});
    if (it == jobs_.end()) return cuzk::status(status_code::not_found, "job not found: " + job_id);
    job& j = *it->second;
    if (j.terminal() || j.stopping()) return false;
    j.cancel_requested = true;
    j.cancel_reason = reason;
    drop_queued_locked(j);
    settle_locked(j);
    cv_.notify_all();
    return true;
  }

  engine_status status() override {
    std::unique_lock lk(mu_);
    prune_locked();
    engine_status st;
    const auto now = clock_type::now();
    for (const auto& w : workers_) {
      worker_status ws;
      ws.name = w->name;
      ws.device = w->device;
      ws.healthy = w->healthy;
      for (const prover_lane& l : w->lanes) {
        ws.lanes.push_back({l.name, l.current_job, l.current_kind, l.partition, l.current_tenant});
        if (ws.current_job.empty() && !l.current_job.empty()) {
          ws.current_job = l.current_job;
          ws.current_kind = l.current_kind;
        }
      }
      ws.busy_seconds = (w->busy_ms + (w->proving > 0 ? ms_between(w->busy_since, now) : 0)) / 1000;
      ws.device_name = w->device_name;
      ws.device_total_bytes = w->device_total;
      ws.device_budget = w->device_budget;
      ws.device_used = w->device_used;
      st.workers.push_back(ws);
      st.device_budget += w->device_budget;
      st.device_used += w->device_used;
    }
    for (const auto& [key, e] : srs_) {
      st.srs.push_back({e->circuit.id, workers_[e->worker]->name, e->in_host_memory,
                        e->host_charged + e->device_charged, e->refs,
                        std::chrono::duration<double>(now - e->last_used).count(), e->loading,
                        e->loaded_bytes.load(), e->load_total_bytes,
                        ms_between(started_at_, e->load_started) / 1000});
    }
    for (const auto& h : handlers_) {
      kind_queue_status q{h->kind(), 0, 0};
      for (const job* j : active_) {
        if (j->kind != h->kind()) continue;
        if (j->state == job_state::queued)
          ++q.pending;
        else
          ++q.in_progress;
      }
      st.queues.push_back(q);
    }
    std::vector<const job*> live(active_.begin(), active_.end());
    std::sort(live.begin(), live.end(), [](const job* a, const job* b) {
      return task_key{a->prio, a->seq, 0} < task_key{b->prio, b->seq, 0};
    });
    for (const job* j : live) {
      st.jobs.push_back(
          {j->id, j->kind, priority(j->prio), j->state, j->partitions, j->done, j->cancel_requested,
           std::chrono::duration<double>(now - j->submitted).count(), j->tenant->name});
    }
    for (const auto& [name, t] : tenants_)
      st.tenants.push_back({name, t.in_flight, t.queued_bytes, t.accepted, t.refused});
    st.completed = completed_;
    st.failed = failed_;
    st.cancelled = cancelled_;
    st.host_budget = host_budget_;
    st.host_used = host_used_;
    st.peak_rss = proofs::peak_rss_bytes();
    st.uptime_seconds = std::chrono::duration<double>(now - started_at_).count();
    st.synthesis_workers = synthesis_workers_;
    st.synthesis_threads = unsigned(synth_pool_->size());
    return st;
  }

  std::vector<timeline_event> timeline(double since) override {
    std::unique_lock lk(mu_);
    std::vector<timeline_event> out;
    for (const timeline_event& e : events_)
      if (e.end >= since) out.push_back(e);
    return out;
  }

  result<bool> preload(const std::string& circuit_id) override {
    auto c = circuit_by_id(circuit_id);
    if (!c) return c.error();
    std::unique_lock lk(mu_);
    std::vector<size_t> targets;
    for (size_t w = 0; w < workers_.size(); ++w)
      if (workers_[w]->healthy) targets.push_back(w);
    std::vector<cuzk::status> outcome(targets.size());
    std::vector<char> was_loaded(targets.size(), 1);
    on_workers_at_once_locked(lk, targets.size(),
                              [&](std::unique_lock<std::mutex>& held, size_t i) {
                                bool loaded = false;
                                auto e = acquire_srs_locked(held, *c, targets[i], nullptr, &loaded);
                                if (!e) {
                                  outcome[i] = e.error();
                                  return;
                                }
                                release_srs_locked(**e);
                                was_loaded[i] = loaded;
                              });
    for (const cuzk::status& st : outcome)
      if (!st.ok()) return st;
    return std::find(was_loaded.begin(), was_loaded.end(), 0) != was_loaded.end();
  }

  result<uint64_t> evict(const std::string& circuit_id) override {
    auto c = circuit_by_id(circuit_id);
    if (!c) return c.error();
    std::unique_lock lk(mu_);
    uint64_t freed = 0;
    for (auto it = srs_.begin(); it != srs_.end();) {
      srs_entry& e = *it->second;
      if (e.circuit.params_path != c->params_path) {
        ++it;
        continue;
      }
      if (e.refs > 0 || e.loading) {
        return cuzk::status(status_code::invalid_argument,
                            circuit_id + " is in use by " + std::to_string(e.refs) + " job(s)");
      }
      freed += e.host_charged + e.device_charged;
      it = erase_srs_locked(it);
    }
    cv_.notify_all();
    return freed;
  }

  void shutdown() override {
    std::unique_lock lk(mu_);
    if (exit_) return;
    draining_ = true;
    cv_.wait(lk, [&] { return active_.empty(); });
    exit_ = true;
    cv_.notify_all();
    lk.unlock();
    for (auto& t : synth_threads_) t.join();
    for (auto& w : workers_)
      for (prover_lane& l : w->lanes)
        if (l.thread.joinable()) l.thread.join();
    lk.lock();
    // What the engine still holds: recycled buffers and parameters.
    free_buffers_.clear();
    srs_.clear();
  }

 private:
  // ---- lookups ----------------------------------------------------------------------------

  const proof_kind_handler* handler_of(proof_kind k) const {
    auto p = handler_ptr(k);
    return p.get();
  }
  std::shared_ptr<const proof_kind_handler> handler_ptr(proof_kind k) const {
    for (const auto& h : handlers_)
      if (h->kind() == k) return h;
    return nullptr;
  }
  std::string kinds_text() const {
    std::string s;
    for (const auto& h : handlers_) {
      if (!s.empty()) s += ", ";
      s += std::string(to_string(h->kind())) + " (" + std::to_string(uint32_t(h->kind())) + ")";
    }
    return s;
  }
  // The kind of the first handler that knows the circuit (what a preload is labelled with).
  proof_kind kind_of(const circuit_params& c) const {
    for (const auto& h : handlers_)
      if (h->circuit_by_id(c.id, cfg_.param_dir)) return h->kind();
    return proof_kind{};
  }

  result<circuit_params> circuit_by_id(const std::string& id) const {
    for (const auto& h : handlers_)
      if (auto c = h->circuit_by_id(id, cfg_.param_dir)) return *c;
    return cuzk::status(status_code::not_found, "unknown circuit id: " + id);
  }

  // ---- tenants ----------------------------------------------------------------------------

  static job_key key_of(const job& j) { return job_key{j.tenant->name, j.id}; }

  // The tenant's entry, made on its first request with its policy from the config.
  tenant_state& tenant_locked(const std::string& name) {
    auto [it, made] = tenants_.try_emplace(name);
    if (made) {
      it->second.name = name;
      if (auto p = cfg_.tenants.find(name); p != cfg_.tenants.end()) it->second.policy = p->second;
    }
    return it->second;
  }

  // The tenant's limits for one more job of `bytes` request bytes.
  static cuzk::status admit_for_tenant_locked(const tenant_state& t, uint64_t bytes) {
    const tenant_policy& p = t.policy;
    if (p.max_in_flight != 0 && t.in_flight >= p.max_in_flight) {
      return cuzk::status(status_code::resource_exhausted,
                          "tenant " + t.name + " has " + std::to_string(t.in_flight) +
                              " job(s) in flight, its max_in_flight: retry when one has ended");
    }
    if (p.max_queued_bytes != 0 && bytes > p.max_queued_bytes) {
      return cuzk::status(status_code::resource_exhausted,
                          "the request's " + std::to_string(bytes) + " bytes exceed tenant " +
                              t.name + "'s max_queued_bytes (" +
                              std::to_string(p.max_queued_bytes) + ")");
    }
    if (p.max_queued_bytes != 0 && t.queued_bytes + bytes > p.max_queued_bytes) {
      return cuzk::status(status_code::resource_exhausted,
                          "tenant " + t.name + " has " + std::to_string(t.queued_bytes) +
                              " request bytes queued; " + std::to_string(bytes) +
                              " more would pass its max_queued_bytes (" +
                              std::to_string(p.max_queued_bytes) +
                              "): retry when its queued jobs have started");
    }
    return {};
  }

  // Returns the request bytes a job holds until it is prepared (to the host budget and to its
  // tenant's queued bytes) and drops the request.
  void release_request_locked(job& j) {
    host_used_ -= j.request_charged;
    j.tenant->queued_bytes -= j.request_charged;
    j.request_charged = 0;
    j.request.reset();
  }

  // The task a stage takes next from `queue` (ordered by task_key) among the entries `eligible`
  // accepts, end() when none: of the highest priority present, the first task (queue order) of
  // the tenant whose pass, lifted to the stage's clock, is lowest; ties go to the earlier task.
  // Priority first, so a PoSt of any tenant goes before every PoRep; within it, stride
  // scheduling (take_locked charges the tenant STRIDE / weight per task), so over any stretch
  // where tenants keep work queued their tasks are taken in proportion to their weights and a
  // tenant that was idle starts level with the others instead of with a banked credit.
  template <class Queue, class Owner, class Eligible>
  typename Queue::iterator fair_pick_locked(Queue& queue, stage s, Owner owner_of,
                                            Eligible eligible) {
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
  void take_locked(const job& j, stage s) {
    tenant_state& t = *j.tenant;
    const uint64_t start = std::max(t.pass[s], stage_clock_[s]);
    stage_clock_[s] = start;
    t.pass[s] = start + t.stride();
  }

  unsigned queue_position_locked(const job& me) const {
    unsigned n = 0;
    for (const job* j : active_)
      if (j != &me && j->prio >= me.prio && j->seq < me.seq) ++n;
    return n;
  }

  job_result result_of_locked(const job& j) const {
    job_result r;
    r.job_id = j.id;
    r.tenant = j.tenant->name;
    r.state = j.state;
    r.timings = j.timings;
    if (j.state == job_state::completed) r.proof = j.proof_bytes;
    if (j.state == job_state::failed) r.error = j.error;
    if (j.state == job_state::cancelled)
      r.error = cuzk::status(status_code::cancelled, j.cancel_reason);
    return r;
  }

  // Drops finished jobs past the retention time or beyond the retained count (oldest first).
  void prune_locked() {
    const auto now = clock_type::now();
    while (!finished_.empty()) {
      auto it = jobs_.find(finished_.front());
      const bool gone = it == jobs_.end();
      const bool expired = !gone && now - it->second->finished > cfg_.result_retention;
      if (!gone && !expired && finished_.size() <= cfg_.max_retained_results) break;
      if (!gone) {
        const job& j = *it->second;
        auto range = by_request_.equal_range(job_key{j.tenant->name, j.request_id});
        for (auto r = range.first; r != range.second; ++r) {
          if (r->second == j.id) {
            by_request_.erase(r);
            break;
          }
        }
        jobs_.erase(it);
      }
      finished_.pop_front();
    }
  }

  // ---- timeline ---------------------------------------------------------------------------

  static constexpr size_t MAX_EVENTS = 20000;

  timeline_event& record_locked(const std::string& lane, const job& j, int partition,
                                const char* phase, clock_type::time_point t0,
                                clock_type::time_point t1) {
    return record_locked(lane, j.id, j.tenant->name, j.kind, partition, phase, t0, t1);
  }

  timeline_event& record_locked(const std::string& lane, const std::string& job_id,
                                const std::string& tenant, proof_kind kind, int partition,
                                const char* phase, clock_type::time_point t0,
                                clock_type::time_point t1) {
    if (events_.size() >= MAX_EVENTS) events_.pop_front();
    timeline_event e;
    e.lane = lane;
    e.job_id = job_id;
    e.tenant = tenant;
    e.kind = kind;
    e.partition = partition;
    e.phase = phase;
    e.start = ms_between(started_at_, t0) / 1000;
    e.end = ms_between(started_at_, t1) / 1000;
    events_.push_back(std::move(e));
    return events_.back();
  }

  // ---- budget -----------------------------------------------------------------------------

  // Frees idle memory until `host_need` host bytes (and `device_need` on worker `w`, if given)
  // fit: first recycled buffers, then parameters no job uses that have been idle for
  // eviction_min_idle, least recently used first. True when they fit.
  bool make_room_locked(uint64_t host_need, std::optional<size_t> w, uint64_t device_need) {
    const auto fits = [&] {
      return host_used_ + host_need <= host_budget_ &&
             (!w || workers_[*w]->device_used + device_need <= workers_[*w]->device_budget);
    };
    while (!fits() && host_used_ + host_need > host_budget_ && !free_buffers_.empty()) {
      host_used_ -= free_buffers_.back()->charged;
      free_buffers_.pop_back();
    }
    while (!fits()) {
      const auto now = clock_type::now();
      auto victim = srs_.end();
      for (auto it = srs_.begin(); it != srs_.end(); ++it) {
        const srs_entry& e = *it->second;
        if (e.refs > 0 || e.loading || now - e.last_used < cfg_.eviction_min_idle) continue;
        const bool helps = (host_used_ + host_need > host_budget_ && e.host_charged > 0) ||
                           (w && e.worker == *w && e.device_charged > 0);
        if (!helps) continue;
        if (victim == srs_.end() || e.last_used < victim->second->last_used) victim = it;
      }
      if (victim == srs_.end()) return false;
      logf(cfg_.log, log_level::info, "engine: evicting %s from %s (idle, memory needed)",
           victim->second->circuit.id.c_str(), workers_[victim->second->worker]->name.c_str());
      erase_srs_locked(victim);
    }
    return true;
  }

  // ---- parameters -------------------------------------------------------------------------

  using srs_map = std::map<std::pair<std::string, size_t>, std::unique_ptr<srs_entry>>;

  srs_map::iterator erase_srs_locked(srs_map::iterator it) {
    srs_entry& e = *it->second;
    host_used_ -= e.host_charged;
    workers_[e.worker]->device_used -= e.device_charged;
    return srs_.erase(it);
  }

  // The job's plan readied on pinned parameters `e` (prover_backend::prepare_plan: uploaded to
  // the GPU, or the CPU's a, b, c buffers), once per entry, after room is made for it like for
  // parameters. The entry is pinned, so it is not evicted meanwhile; no prover uses the plan on
  // it before this returns (only jobs past their prepare reach the provers, and a prover lane
  // readying it proves alone on its worker: lane_work). Called by PREPARE, or by a lane of a
  // worker that joined after the prepare; each holds `j` in flight while mu_ is released here.
  cuzk::status ready_plan_locked(std::unique_lock<std::mutex>& lk, srs_entry& e, job& j) {
    const std::shared_ptr<const r1cs::abc_plan>& plan = j.plan->plan;
    for (;;) {
      if (e.plan == plan) return {};
      if (!e.plan_preparing) break;
      cv_.wait(lk);
    }
    prover_worker& wk = *workers_[e.worker];
    const proofs::prover_backend::plan_memory need = e.backend->plan_memory_of(*plan);
    if (need.host > host_budget_ || need.device > wk.device_budget) {
      return cuzk::status(status_code::resource_exhausted,
                          "the a, b, c plan of " + j.prepared->circuit().id + " needs " +
                              gib(need.host) + " of host and " + gib(need.device) + " of " +
                              wk.name + " memory, beyond the budgets");
    }
    e.plan_preparing = true;
    while (!make_room_locked(need.host, e.worker, need.device)) {
      if (j.stopping()) {
        e.plan_preparing = false;
        cv_.notify_all();
        return cuzk::status(status_code::cancelled, "cancelled while waiting for memory");
      }
      cv_.wait_for(lk, std::chrono::seconds(1));
    }
    lk.unlock();
    cuzk::status st = guarded([&] { return e.backend->prepare_plan(plan); });
    lk.lock();
    e.plan_preparing = false;
    recharge_locked(e);
    if (st.ok()) e.plan = plan;
    cv_.notify_all();
    if (!st.ok()) {
      return cuzk::status(st.code(), "the a, b, c plan of " + j.prepared->circuit().id + " on " +
                                         wk.name + ": " + st.message());
    }
    return {};
  }

  // Charges what the backend holds now.
  void recharge_locked(srs_entry& e) {
    prover_worker& wk = *workers_[e.worker];
    host_used_ = host_used_ - e.host_charged + e.backend->host_bytes();
    wk.device_used = wk.device_used - e.device_charged + e.backend->device_bytes();
    e.host_charged = e.backend->host_bytes();
    e.device_charged = e.backend->device_bytes();
  }

  void release_srs_locked(srs_entry& e) {
    --e.refs;
    e.last_used = clock_type::now();
  }

  // The parameters of `c` on worker `w`, loaded if need be (mu_ released while loading) and
  // pinned (refs + 1). `owner` (may be null) is checked for cancellation while waiting for
  // memory. resource_exhausted when they can never fit.
  result<srs_entry*> acquire_srs_locked(std::unique_lock<std::mutex>& lk, const circuit_params& c,
                                        size_t w, const job* owner, bool* was_loaded) {
    const auto key = std::make_pair(c.params_path, w);
    for (;;) {
      auto it = srs_.find(key);
      if (it != srs_.end() && it->second->loading) {
        cv_.wait(lk);
        continue;
      }
      if (it != srs_.end()) {
        ++it->second->refs;
        it->second->last_used = clock_type::now();
        if (was_loaded) *was_loaded = true;
        return it->second.get();
      }
      break;
    }
    prover_worker& wk = *workers_[w];
    auto entry = std::make_unique<srs_entry>();
    entry->circuit = c;
    entry->worker = w;
    entry->loading = true;
    srs_entry* e = entry.get();
    srs_[key] = std::move(entry);

    const auto fail = [&](cuzk::status s) -> result<srs_entry*> {
      erase_srs_locked(srs_.find(key));
      cv_.notify_all();
      return s;
    };
    lk.unlock();
    auto file = groth16::params_file::open(c.params_path);
    lk.lock();
    if (!file)
      return fail(cuzk::status(file.error().code(), c.params_path + ": " + file.error().message()));
    const uint64_t bytes = groth16::query_bytes(file->sizes());
    // A GPU's plan from the exact device-memory formulas (groth16/gpu_memory.hpp): the fastest
    // that fits its budget — resident with every lane, fewer lanes, smaller MSM groups and
    // gathers, then the parameters in page-locked host memory streamed by every proof — or a
    // refusal naming the smallest card, before anything is loaded.
    groth16::gpu_plan plan;
    if (wk.device >= 0) {
      groth16::gpu_plan_request req;
      req.q = file->sizes();
      req.device_budget = wk.device_budget;
      req.program_bytes = owner && owner->plan ? owner->plan->plan->size().bytes : 0;
      req.max_lanes = unsigned(wk.lanes.size());
      auto chosen = groth16::choose_gpu_plan(req);
      if (!chosen) {
        return fail(cuzk::status(chosen.error().code(),
                                 c.id + " on " + wk.name + ": " + chosen.error().message()));
      }
      plan = *chosen;
    }
    const proofs::srs_residency residency =
        wk.device < 0 || plan.residency == groth16::gpu_residency::host
            ? proofs::srs_residency::host
            : proofs::srs_residency::device;
    const bool on_host = residency == proofs::srs_residency::host;
    const uint64_t host_need = on_host ? bytes : 0;
    const uint64_t device_need = on_host ? 0 : bytes;
    if (host_need > host_budget_ || device_need > wk.device_budget) {
      return fail(cuzk::status(status_code::resource_exhausted,
                               c.id + " parameters need " + gib(bytes) + " of " +
                                   (on_host ? "host" : wk.name) + " memory, the budget is " +
                                   gib(on_host ? host_budget_ : wk.device_budget)));
    }
    if (wk.device >= 0) {
      logf(cfg_.log, log_level::info, "engine: %s on %s (budget %s): plan %s", c.id.c_str(),
           wk.name.c_str(), gib(wk.device_budget).c_str(), plan.to_json().c_str());
    }
    while (!make_room_locked(host_need, w, device_need)) {
      if (owner && owner->stopping())
        return fail(cuzk::status(status_code::cancelled, "cancelled while waiting for memory"));
      cv_.wait_for(lk, std::chrono::seconds(1));
    }
    e->in_host_memory = on_host;
    e->gpu = plan;
    e->backend_sizes = file->sizes();
    e->working_bytes =
        wk.device >= 0 ? plan.proof_peak + groth16::gpu_ntt_table_bytes(file->sizes()) : 0;
    e->host_charged = host_need;
    e->device_charged = device_need;
    host_used_ += host_need;
    wk.device_used += device_need;

    e->load_total_bytes = bytes;
    e->load_started = clock_type::now();
    lk.unlock();
    const auto t0 = e->load_started;
    const auto checks = cfg_.params_checks == engine_config::param_checks::full
                            ? groth16::point_checks::full
                        : cfg_.params_checks == engine_config::param_checks::batched
                            ? groth16::point_checks::batched
                            : groth16::point_checks::on_curve_only;
    // The bytes loaded or uploaded; host residency's "page-lock" phase before its load is not
    // counted (the status page's bar would fill twice).
    const progress_fn progress = [e](const char* phase, size_t done, size_t) {
      if (std::string_view(phase) != "page-lock")
        e->loaded_bytes.store(done, std::memory_order_relaxed);
    };
    auto backend = guarded([&] {
      return make_backend_(*file, checks, wk.device, residency, *wk.pool, cfg_.log, progress);
    });
    lk.lock();
    // The load on the worker's lane (the gap before its first prove), failed or not.
    timeline_event& ev = record_locked(
        wk.name, owner ? owner->id : std::string(), owner ? owner->tenant->name : std::string(),
        owner ? owner->kind : kind_of(c), -1, "load", t0, clock_type::now());
    ev.circuit_id = c.id;
    ev.bytes = bytes;
    if (!backend) {
      return fail(cuzk::status(backend.error().code(), c.params_path + " on " + wk.name + ": " +
                                                           backend.error().message()));
    }
    // Charge what the backend really holds.
    e->backend = std::move(*backend);
    if (wk.device >= 0) e->backend->set_memory_knobs(plan.knobs);
    recharge_locked(*e);
    e->loaded_bytes = bytes;
    e->loading = false;
    e->refs = 1;
    e->last_used = clock_type::now();
    if (was_loaded) *was_loaded = false;
    logf(cfg_.log, log_level::info, "engine: %s loaded on %s in %.0f ms (%s)", c.id.c_str(),
         wk.name.c_str(), ms_between(t0, clock_type::now()), gib(bytes).c_str());
    cv_.notify_all();
    return e;
  }

  // ---- job lifecycle ----------------------------------------------------------------------

  void fail_locked(job& j, cuzk::status s) {
    // The first error is the job's; a later one (another partition failing while the first
    // one's failure waited for it) only settles the job.
    if (j.stopping()) {
      settle_locked(j);
      return;
    }
    j.error = std::move(s);
    drop_queued_locked(j);
    settle_locked(j);
  }

  // Removes the job's queued tasks and returns its synthesized buffers.
  void drop_queued_locked(job& j) {
    for (auto it = synth_queue_.begin(); it != synth_queue_.end();)
      it = it->second.get() == &j ? synth_queue_.erase(it) : std::next(it);
    for (auto it = prover_queue_.begin(); it != prover_queue_.end();) {
      if (it->second.owner.get() == &j) {
        recycle_locked(std::move(it->second.buf));
        it = prover_queue_.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Ends a cancelled or failed job once none of its work is running.
  void settle_locked(job& j) {
    if (!j.stopping() || j.in_flight > 0 || j.terminal()) return;
    finish_locked(j, j.cancel_requested ? job_state::cancelled : job_state::failed);
  }

  void finish_locked(job& j, job_state s) {
    j.state = s;
    j.finished = clock_type::now();
    j.timings.total = ms_between(j.submitted, j.finished);
    release_request_locked(j);
    host_used_ -= j.prepared_charged;
    j.prepared_charged = 0;
    --j.tenant->in_flight;
    j.request.reset();
    j.prepared.reset();
    for (srs_entry* e : j.pins) release_srs_locked(*e);
    j.pins.clear();
    if (s == job_state::completed) ++completed_;
    if (s == job_state::failed) ++failed_;
    if (s == job_state::cancelled) ++cancelled_;
    if (s == job_state::failed) {
      logf(cfg_.log, log_level::warn, "engine: job %s failed: %s", j.id.c_str(),
           j.error.to_string().c_str());
    }
    queued_at_.erase(&j);
    active_.erase(&j);
    finished_.push_back(key_of(j));
    if (cfg_.on_job_end) cfg_.on_job_end(j.kind, result_of_locked(j));
    cv_.notify_all();
  }

  void recycle_locked(std::unique_ptr<synthesis_buffer> buf) {
    if (buf) free_buffers_.push_back(std::move(buf));
    cv_.notify_all();
  }

  // A buffer able to hold `shape` without growing: a recycled one (the smallest that fits), or
  // a new one when the budget has room. Null when neither is possible now.
  std::unique_ptr<synthesis_buffer> take_buffer_locked(const synthesis_shape& shape,
                                                       bool witness_only) {
    const uint64_t need = witness_only ? shape.witness_bytes() : shape.bytes();
    auto best = free_buffers_.end();
    for (auto it = free_buffers_.begin(); it != free_buffers_.end(); ++it) {
      if ((*it)->charged >= need &&
          (best == free_buffers_.end() || (*it)->charged < (*best)->charged))
        best = it;
    }
    if (best != free_buffers_.end()) {
      auto b = std::move(*best);
      free_buffers_.erase(best);
      return b;
    }
    if (!make_room_locked(need, std::nullopt, 0)) return nullptr;
    auto b = std::make_unique<synthesis_buffer>();
    b->charged = need;
    host_used_ += need;
    return b;
  }

  // ---- synthesis workers ------------------------------------------------------------------

  void synthesis_loop(unsigned index) {
    const std::string lane = "synthesis " + std::to_string(index);
    std::unique_lock lk(mu_);
    for (;;) {
      if (exit_) return;
      if (synth_queue_.empty()) {
        cv_.wait(lk);
        continue;
      }
      auto it = fair_pick_locked(
          synth_queue_, SYNTHESIS_STAGE, [](const auto& e) -> const job& { return *e->second; },
          [](const auto&) { return true; });
      const task_key key = it->first;
      std::shared_ptr<job> j = it->second;
      if (key.partition == PREPARE) {
        take_locked(*j, SYNTHESIS_STAGE);
        synth_queue_.erase(it);
        run_prepare_locked(lk, j, lane);
        continue;
      }
      // Do not run far ahead of the provers, unless this task outranks what waits for them.
      if (prover_queue_.size() >= lookahead_ && key.prio <= prover_queue_.begin()->first.prio) {
        cv_.wait(lk);
        continue;
      }
      auto buf = take_buffer_locked(j->prepared->shape(), j->plan != nullptr);
      if (!buf) {
        // Waits for a release (notified) or for idle parameters to become evictable.
        cv_.wait_for(lk, std::chrono::seconds(1));
        continue;
      }
      take_locked(*j, SYNTHESIS_STAGE);
      synth_queue_.erase(it);
      run_synthesis_locked(lk, j, unsigned(key.partition), std::move(buf), lane);
    }
  }

  // The job's minimum working set (one partition's buffer, its decoded input and its parameters
  // held in host memory) must fit the host budget, or it could wait forever.
  cuzk::status check_fits_locked(const job& j, uint64_t pinned_host) const {
    const synthesis_shape shape = j.prepared->shape();
    // The plan counts: it is never evicted, so a buffer could otherwise wait for it forever.
    const uint64_t need = (j.plan ? shape.witness_bytes() + j.plan->bytes : shape.bytes()) +
                          j.prepared_charged + pinned_host;
    if (need <= host_budget_) return {};
    return cuzk::status(status_code::resource_exhausted,
                        "one partition of " + j.prepared->circuit().id + " needs " + gib(need) +
                            " of host memory (buffers, input, parameters), the budget is " +
                            gib(host_budget_));
  }

  // PREPARE of one job. The stage holds the job in flight from start to end: it releases mu_ at
  // several points (decoding, compiling or waiting for the plan, loading parameters, readying the
  // plan), and a cancel meanwhile must only mark the job, never settle it (which drops its
  // prepared input and its pins) under the stage's feet; the job settles here, once.
  void run_prepare_locked(std::unique_lock<std::mutex>& lk, const std::shared_ptr<job>& j,
                          const std::string& lane) {
    ++j->in_flight;
    prepare_stage_locked(lk, j, lane);
    --j->in_flight;
    if (j->stopping()) settle_locked(*j);
  }

  void prepare_stage_locked(std::unique_lock<std::mutex>& lk, const std::shared_ptr<job>& j,
                            const std::string& lane) {
    j->state = job_state::running;
    const auto t0 = clock_type::now();
    lk.unlock();
    auto prepared =
        guarded([&] { return j->handler->prepare(*j->request, cfg_.param_dir, *synth_pool_); });
    lk.lock();
    j->timings.prepare = ms_between(t0, clock_type::now());
    record_locked(lane, *j, -1, "prepare", t0, clock_type::now());
    release_request_locked(*j);
    if (!prepared) {
      fail_locked(*j, prepared.error());
      return;
    }
    if (j->stopping()) return;  // cancelled while decoding
    j->prepared = std::move(*prepared);
    j->prepared_charged = j->prepared->host_bytes();
    host_used_ += j->prepared_charged;
    if (cfg_.compiled_abc) j->plan = plan_of_locked(lk, *j, lane);
    if (j->stopping()) return;  // cancelled while the plan compiled
    if (cuzk::status s = check_fits_locked(*j, 0); !s) {
      fail_locked(*j, s);
      return;
    }
    // Parameters (and the plan) on every healthy prover worker, pinned for the job's lifetime:
    // loaded before any of its partitions takes a buffer, so a load never waits on buffers that
    // wait on it.
    const auto t1 = clock_type::now();
    if (cuzk::status s = load_on_workers_locked(lk, j); !s) {
      j->timings.srs_load = ms_between(t1, clock_type::now());
      fail_locked(*j, s);
      return;
    }
    j->timings.srs_load = ms_between(t1, clock_type::now());
    if (j->stopping()) return;  // cancelled while the parameters loaded
    uint64_t pinned_host = 0;
    for (const srs_entry* e : j->pins) pinned_host += e->host_charged;
    if (cuzk::status s = check_fits_locked(*j, pinned_host); !s) {
      fail_locked(*j, s);
      return;
    }
    if (j->stopping()) return;
    j->partitions = j->prepared->partitions();
    j->proofs.assign(j->partitions, std::nullopt);
    j->attempts.assign(j->partitions, 0);
    j->timings.partitions.resize(j->partitions);
    for (unsigned k = 0; k < j->partitions; ++k) {
      j->timings.partitions[k].partition = k;
      synth_queue_.emplace(task_key{j->prio, j->seq, int(k)}, j);
    }
    queued_at_[j.get()] = clock_type::now();
    cv_.notify_all();
  }

  // per_worker(held, i) for i < count at once: a thread each, taking mu_ itself (the parameter
  // loads in it release mu_ while they work), this thread's lock released until all are done;
  // inline for one.
  template <class Fn>
  void on_workers_at_once_locked(std::unique_lock<std::mutex>& lk, size_t count, Fn per_worker) {
    if (count == 1) {
      per_worker(lk, 0);
      return;
    }
    lk.unlock();
    std::vector<std::thread> threads;
    for (size_t i = 0; i < count; ++i) {
      threads.emplace_back([&, i] {
        std::unique_lock held(mu_);
        per_worker(held, i);
      });
    }
    for (std::thread& t : threads) t.join();
    lk.lock();
  }

  // The job's parameters (and its plan) loaded and pinned on every healthy prover worker, the
  // workers at once: a thread each, since every load is bound by its own device's upload and the
  // file's pages are read from disk once for all of them (the page cache); one after the other,
  // eight GPUs would wait eight loads of 47 GB before a 32 GiB PoRep's first proof. A worker
  // whose load fails while another's succeeds is left out of the job (excluded_workers) and, for
  // a device fault, counts as a failure of its device (two in a row take it out of rotation); when
  // every worker fails the input is blamed (the file, the budget), no device, and the job fails
  // with the first error. Called by PREPARE, which holds `j` in flight.
  cuzk::status load_on_workers_locked(std::unique_lock<std::mutex>& lk,
                                      const std::shared_ptr<job>& j) {
    std::vector<size_t> targets;
    for (size_t w = 0; w < workers_.size(); ++w)
      if (workers_[w]->healthy) targets.push_back(w);
    if (targets.empty()) return cuzk::status(status_code::unavailable, "no healthy prover worker");
    std::vector<cuzk::status> outcome(targets.size());
    on_workers_at_once_locked(
        lk, targets.size(), [&](std::unique_lock<std::mutex>& held, size_t i) {
          auto e = acquire_srs_locked(held, j->prepared->circuit(), targets[i], j.get(), nullptr);
          if (!e) {
            outcome[i] = e.error();
            return;
          }
          j->pins.push_back(*e);
          if (j->plan) outcome[i] = ready_plan_locked(held, **e, *j);
        });
    size_t loaded = 0;
    for (const cuzk::status& st : outcome) loaded += st.ok() ? 1 : 0;
    if (loaded == 0) return outcome.front();
    for (size_t i = 0; i < targets.size(); ++i) {
      if (outcome[i].ok()) continue;
      const size_t w = targets[i];
      prover_worker& wk = *workers_[w];
      j->excluded_workers.insert(w);
      const status_code code = outcome[i].code();
      if (code == status_code::cancelled) continue;
      logf(cfg_.log, log_level::warn,
           "engine: job %s: the parameters failed on %s (%s): its partitions go to the other "
           "workers",
           j->id.c_str(), wk.name.c_str(), outcome[i].to_string().c_str());
      // Memory that cannot hold them is the worker's size, not a fault of its device.
      const bool device_fault = wk.device >= 0 && code != status_code::resource_exhausted;
      if (device_fault && ++wk.consecutive_failures >= 2 && wk.healthy)
        take_out_of_rotation_locked(w);
    }
    for (const srs_entry* e : j->pins) {
      if (j->excluded_workers.count(e->worker) > 0) continue;
      j->pvk = std::make_shared<const groth16::prepared_verifying_key>(
          groth16::prepare_verifying_key(e->backend->vk()));
      break;
    }
    return {};
  }

  // The compiled plan of the job's circuit: compiled on this thread by the first job of the
  // circuit (mu_ released; a second job waits for it), then shared. Null when the kind has none
  // or it failed to compile (logged once): the circuit is then synthesized in full. Called by
  // PREPARE, which holds `j` in flight while mu_ is released here.
  std::shared_ptr<const compiled_plan> plan_of_locked(std::unique_lock<std::mutex>& lk, job& j,
                                                      const std::string& lane) {
    // Per kind and parameter file: two kinds may prove with one file, not both with a plan.
    const std::string key =
        std::string(to_string(j.kind)) + ":" + j.prepared->circuit().params_path;
    for (;;) {
      plan_slot& slot = plans_[key];
      if (slot.compiled || slot.failed) return slot.compiled;
      if (!slot.compiling) break;
      cv_.wait(lk);
    }
    plans_[key].compiling = true;
    const prepared_proof& pp = *j.prepared;
    const auto t0 = clock_type::now();
    lk.unlock();
    std::shared_ptr<compiled_plan> made;
    cuzk::status st = guarded([&] {
      auto plan = pp.compile_plan();
      if (!plan) return plan.error();
      made = std::make_shared<compiled_plan>();
      made->densities = plan->densities();
      made->bytes = plan->size().bytes + made->densities.a_aux.capacity_bytes() +
                    made->densities.b_input.capacity_bytes() +
                    made->densities.b_aux.capacity_bytes();
      made->plan = std::make_shared<const r1cs::abc_plan>(std::move(*plan));
      return cuzk::status();
    });
    lk.lock();
    plan_slot& slot = plans_[key];
    slot.compiling = false;
    const double ms = ms_between(t0, clock_type::now());
    if (st.ok()) {
      slot.compiled = made;
      host_used_ += made->bytes;
      record_locked(lane, j, -1, "compile", t0, clock_type::now());
      logf(cfg_.log, log_level::info,
           "engine: compiled the a, b, c plan of %s in %.0f ms (%s): partitions hold the witness "
           "only",
           pp.circuit().id.c_str(), ms, made->plan->size().to_string().c_str());
    } else {
      slot.failed = true;
      logf(cfg_.log, st.code() == status_code::unavailable ? log_level::debug : log_level::warn,
           "engine: %s: no compiled a, b, c plan (%s): partitions are synthesized in full",
           pp.circuit().id.c_str(), st.to_string().c_str());
    }
    cv_.notify_all();
    return slot.compiled;
  }

  void run_synthesis_locked(std::unique_lock<std::mutex>& lk, const std::shared_ptr<job>& j,
                            unsigned k, std::unique_ptr<synthesis_buffer> buf,
                            const std::string& lane) {
    const auto t0 = clock_type::now();
    partition_timings& pt = j->timings.partitions[k];
    auto q = queued_at_.find(j.get());
    if (q != queued_at_.end()) pt.synthesis_wait = ms_between(q->second, t0);
    if (!j->first_synthesis_seen) {
      j->first_synthesis_seen = true;
      j->timings.queue_wait = ms_between(j->submitted, t0);
    }
    ++j->attempts[k];
    ++j->in_flight;
    const prepared_proof& pp = *j->prepared;
    const std::shared_ptr<const compiled_plan> plan = j->plan;
    // The job's backends (held by its pins while it is in flight) offer to page-lock the witness.
    std::vector<proofs::prover_backend*> pinners;
    for (srs_entry* e : j->pins)
      if (e->backend) pinners.push_back(e->backend.get());
    lk.unlock();
    const synthesis_shape shape = pp.shape();
    buf->witness_only = plan != nullptr;
    cuzk::status st = guarded([&] {
      if (plan) {
        buf->cs = r1cs::proving_cs();  // a buffer of the other kind gives its storage back
        buf->wcs.reset();
        // reserve() moves storage that is too small: unlocked first.
        if (buf->wcs.aux_storage().size() < shape.aux * sizeof(ff::fr_t)) buf->unpin();
        buf->wcs.reserve(shape.constraints, shape.aux, shape.inputs);
        cuzk::status s = pp.synthesize_witness(k, buf->wcs, *synth_pool_);
        if (s.ok()) s = check_witness_fits(buf->wcs, *plan->plan);
        if (s.ok()) pin_witness(*buf, pinners);
        return s;
      }
      buf->unpin();
      buf->wcs = r1cs::witness_cs();
      buf->cs.reset();
      buf->cs.reserve(shape.constraints, shape.aux, shape.inputs);
      cuzk::status s = pp.synthesize(k, buf->cs, *synth_pool_);
      if (s.ok()) buf->cs.finalize();
      return s;
    });
    const uint64_t capacity = buf->capacity_bytes();
    lk.lock();
    --j->in_flight;
    // The budget follows the buffer's real size (a circuit that outgrew its shape).
    host_used_ = host_used_ - buf->charged + capacity;
    buf->charged = capacity;
    const double ms = ms_between(t0, clock_type::now());
    record_locked(lane, *j, int(k), "synthesis", t0, clock_type::now());
    pt.synthesis += ms;
    j->timings.synthesis += ms;
    if (!st.ok()) {
      recycle_locked(std::move(buf));
      fail_locked(*j, cuzk::status(st.code(), "partition " + std::to_string(k) +
                                                  " synthesis: " + st.message()));
      return;
    }
    if (j->stopping()) {
      recycle_locked(std::move(buf));
      settle_locked(*j);
      return;
    }
    prover_queue_.emplace(task_key{j->prio, j->seq, int(k)},
                          ready_partition{j, std::move(buf), clock_type::now()});
    cv_.notify_all();
  }

  // Page-locks the buffer's aux storage through the first backend that wants it (a GPU), once
  // per buffer: a recycled buffer keeps its storage, and so its lock, from partition to partition.
  // A failure costs upload speed only, so it is logged, not returned.
  void pin_witness(synthesis_buffer& buf, const std::vector<proofs::prover_backend*>& pinners) {
    if (buf.pin_is_current()) return;
    if (buf.aux_pin) {
      logf(cfg_.log, log_level::warn, "engine: a page-locked witness buffer moved; locking again");
      buf.unpin();
    }
    const std::span<const std::byte> storage = buf.wcs.aux_storage();
    for (proofs::prover_backend* b : pinners) {
      const auto t0 = clock_type::now();
      auto pin = b->pin_host(storage.data(), storage.size());
      if (!pin) {
        logf(cfg_.log, log_level::warn, "engine: witness buffer not page-locked (%s): %s",
             b->name().c_str(), pin.error().to_string().c_str());
        return;
      }
      if (*pin) {
        buf.aux_pin = std::move(*pin);
        buf.pinned = storage;
        logf(cfg_.log, log_level::info,
             "engine: page-locked a %.2f GB witness buffer for %s in %.0f ms",
             double(storage.size()) / 1e9, b->name().c_str(), ms_between(t0, clock_type::now()));
        return;
      }
    }
  }

  // A witness the plan cannot evaluate would be a wrong a, b, c: never proved.
  static cuzk::status check_witness_fits(const r1cs::witness_cs& w, const r1cs::abc_plan& plan) {
    if (w.num_inputs() == plan.num_inputs() && w.num_aux() == plan.num_aux() &&
        w.num_constraints() == plan.num_constraints())
      return {};
    return cuzk::status(
        status_code::internal,
        "the witness (" + std::to_string(w.num_constraints()) + " constraints, " +
            std::to_string(w.num_aux()) + " aux, " + std::to_string(w.num_inputs()) +
            " inputs) is not the compiled plan's (" + std::to_string(plan.num_constraints()) +
            ", " + std::to_string(plan.num_aux()) + ", " + std::to_string(plan.num_inputs()) + ")");
  }

  // ---- prover workers ---------------------------------------------------------------------

  void add_cpu_worker(unsigned threads) {
    auto w = std::make_unique<prover_worker>();
    w->name = "cpu";
    w->device = -1;
    w->pool = std::make_unique<thread_pool>(threads);
    w->lanes.resize(1);  // its pool is every core: a second partition would only share them
    workers_.push_back(std::move(w));
  }

  // Starts the worker's lanes: the first is named as the worker, the others "gpu 0.1", ...
  void start_prover(size_t w) {
    prover_worker& wk = *workers_[w];
    for (size_t l = 0; l < wk.lanes.size(); ++l) {
      wk.lanes[l].name = l == 0 ? wk.name : wk.name + "." + std::to_string(l);
      wk.lanes[l].thread = std::thread([this, w, l] { prover_loop(w, l); });
    }
  }

  // The parameters job `j` pinned on worker `w` (null: the worker joined after its prepare).
  static srs_entry* pinned_on(const job& j, size_t w) {
    for (srs_entry* p : j.pins)
      if (p->worker == w) return p;
    return nullptr;
  }

  // What `rp` would hold on worker `w`'s device while a lane proves it.
  lane_work work_of_locked(size_t w, const ready_partition& rp) const {
    lane_work lw;
    const job& j = *rp.owner;
    const srs_entry* e = pinned_on(j, w);
    if (workers_[w]->device < 0 || !e || e->in_host_memory || e->gpu.lanes < 2 ||
        !rp.buf->witness_only || !j.plan || e->plan != j.plan->plan)
      return lw;
    lw.shares_device = true;
    lw.working = e->working_bytes;
    lw.waiting = (rp.buf->wcs.inputs().size() + rp.buf->wcs.aux().size()) * sizeof(ff::fr_t);
    return lw;
  }

  // Whether a lane of `wk` may start proving `next` now: always when no other lane proves; beside
  // others only when every one of them shares the device and the device's peak fits its budget
  // beside what is charged there. The lane whose kernels run holds its working set and each
  // other one its witness: peak = max_i (working_i + Σ_{j≠i} waiting_j).
  static bool admits(const prover_worker& wk, const lane_work& next) {
    bool alone = true;
    uint64_t waiting = next.waiting;
    for (const prover_lane& l : wk.lanes) {
      if (!l.work) continue;
      if (!l.work->shares_device) return false;
      alone = false;
      waiting += l.work->waiting;
    }
    if (alone) return true;
    if (!next.shares_device) return false;
    uint64_t peak = next.working + waiting - next.waiting;
    for (const prover_lane& l : wk.lanes)
      if (l.work) peak = std::max(peak, l.work->working + waiting - l.work->waiting);
    return wk.device_used + peak <= wk.device_budget;
  }

  // Lane `l` of worker `w`: takes the first ready partition the worker may prove (priority order,
  // admitted beside its other lanes), proves it, finalizes it.
  void prover_loop(size_t w, size_t l) {
    std::unique_lock lk(mu_);
    for (;;) {
      prover_worker& wk = *workers_[w];
      prover_lane& lane = wk.lanes[l];
      if (exit_ || !wk.healthy) return;
      // The next ready partition (fair_pick_locked) of a job this worker is not excluded from.
      auto next = fair_pick_locked(
          prover_queue_, PROVER_STAGE, [](const auto& e) -> const job& { return *e->second.owner; },
          [w](const auto& e) { return e->second.owner->excluded_workers.count(w) == 0; });
      if (next == prover_queue_.end()) {
        cv_.wait(lk);
        continue;
      }
      // Not beside the other lanes: it waits for them (a lower priority one does not jump it).
      const lane_work work = work_of_locked(w, next->second);
      if (!admits(wk, work)) {
        cv_.wait(lk);
        continue;
      }
      take_locked(*next->second.owner, PROVER_STAGE);
      auto node = prover_queue_.extract(next);
      const unsigned k = unsigned(node.key().partition);
      ready_partition rp = std::move(node.mapped());
      cv_.notify_all();  // the lookahead has room again
      job& j = *rp.owner;
      if (j.stopping()) {
        recycle_locked(std::move(rp.buf));
        settle_locked(j);
        continue;
      }
      if (wk.fallback) {
        if (cuzk::status st = cpu_fallback_allows_locked(j); !st.ok()) {
          recycle_locked(std::move(rp.buf));
          fail_locked(j, st);
          continue;
        }
      }
      const std::shared_ptr<const compiled_plan> plan =
          rp.buf->witness_only ? j.plan : std::shared_ptr<const compiled_plan>();
      // Held before mu_ is first released below, so the other lanes admit against it.
      lane.work = work;
      const auto lane_done = [&] {
        lane.work.reset();
        cv_.notify_all();  // another lane's partition may fit now
      };
      // The job pinned the parameters on every worker healthy at its prepare; a worker added
      // later (the CPU fallback) loads them now, and readies the plan on them.
      srs_entry* e = pinned_on(j, w);
      ++j.in_flight;
      if (!e) {
        auto got = acquire_srs_locked(lk, j.prepared->circuit(), w, &j, nullptr);
        if (!got) {
          --j.in_flight;
          lane_done();
          recycle_locked(std::move(rp.buf));
          fail_locked(j, got.error());
          continue;
        }
        e = *got;
        j.pins.push_back(e);
      }
      if (plan && e->plan != plan->plan) {
        if (cuzk::status st = ready_plan_locked(lk, *e, j); !st.ok()) {
          --j.in_flight;
          lane_done();
          recycle_locked(std::move(rp.buf));
          fail_locked(j, st);
          continue;
        }
      }
      partition_timings& pt = j.timings.partitions[k];
      const auto t0 = clock_type::now();
      pt.prover_wait = ms_between(rp.ready_at, t0);
      pt.worker = wk.name;
      pt.attempts = j.attempts[k];
      lane.current_job = j.id;
      lane.current_tenant = j.tenant->name;
      lane.current_kind = j.kind;
      lane.partition = int(k);
      if (wk.proving++ == 0) wk.busy_since = t0;
      proofs::prover_backend& backend = *e->backend;
      lk.unlock();

      groth16::prover_timings ptm;
      auto r = groth16::os_random_fr();
      auto s = groth16::os_random_fr();
      result<groth16::proof_parts> parts =
          r && s ? guarded([&] {
            if (!plan) return backend.start(groth16::make_assignment(rp.buf->cs), *wk.pool, &ptm);
            const r1cs::witness_cs& w = rp.buf->wcs;
            const groth16::assignment witness{{},
                                              {},
                                              {},
                                              w.inputs(),
                                              w.aux(),
                                              plan->densities.a_aux.view(),
                                              plan->densities.b_input.view(),
                                              plan->densities.b_aux.view()};
            return backend.start_witness(witness, plan->plan, *wk.pool, &ptm);
          })
                 : result<groth16::proof_parts>(!r ? r.error() : s.error());
      const auto t1 = clock_type::now();
      {
        // The witness is no longer needed: the buffer goes back before the epilogue, and the
        // device is free for the worker's other lanes.
        std::lock_guard relock(mu_);
        recharge_locked(*e);
        recycle_locked(std::move(rp.buf));
        if (--wk.proving == 0) wk.busy_ms += ms_between(wk.busy_since, t1);
        lane_done();
      }
      result<groth16::proof> pf =
          parts ? groth16::finalize(backend.vk(), *parts, *r, *s, &ptm) : parts.error();
      const auto t2 = clock_type::now();

      lk.lock();
      --j.in_flight;
      lane.current_job.clear();
      lane.partition = -1;
      pt.prove = ms_between(t0, t1);
      pt.finalize = ms_between(t1, t2);
      {
        timeline_event& ev = record_locked(lane.name, j, int(k), "prove", t0, t1);
        copy_prover_split(ptm, ev);
        ev.stream_copy = ptm.stream_copy;
        ev.bytes = ptm.streamed_bytes;
        ev.device_peak_bytes = ptm.device_peak_bytes;
        record_locked(lane.name, j, int(k), "finalize", t1, t2);
      }
      copy_prover_split(ptm, pt);
      j.timings.prove += pt.prove;
      j.timings.finalize += pt.finalize;
      if (!pf) {
        on_prover_error_locked(w, j, k, pf.error());
        continue;
      }
      wk.consecutive_failures = 0;
      if (j.stopping()) {
        settle_locked(j);
        continue;
      }
      j.proofs[k] = *pf;
      if (++j.done == j.partitions) complete_locked(lk, rp.owner, lane.name);
    }
  }

  // A GPU out of device memory is a plan that was too large, not a fault of the device: the
  // parameters' entry steps down to the next smaller plan of the same residency (one lane,
  // smaller MSM groups, gathers and ring) and the partition is proved again on the same GPU; with
  // no smaller plan left the job fails, saying so. Any other GPU failure retries the partition
  // once (re-synthesized); two failures in a row take the GPU out of rotation and the partition
  // moves to the workers left. A CPU failure, or a second GPU failure of the partition on a GPU
  // still in rotation, fails the job.
  void on_prover_error_locked(size_t w, job& j, unsigned k, const cuzk::status& err) {
    prover_worker& wk = *workers_[w];
    const cuzk::status named(
        err.code(), "partition " + std::to_string(k) + " on " + wk.name + ": " + err.message());
    logf(cfg_.log, log_level::warn, "engine: job %s: %s", j.id.c_str(), named.to_string().c_str());
    if (wk.device >= 0 && err.code() == status_code::resource_exhausted) {
      srs_entry* e = pinned_on(j, w);
      if (e != nullptr && step_down_plan_locked(*e) && !j.stopping()) {
        synth_queue_.emplace(task_key{j.prio, j.seq, int(k)}, find_shared_locked(j));
        cv_.notify_all();
        return;
      }
      fail_locked(j,
                  cuzk::status(status_code::resource_exhausted,
                               named.message() + " (no smaller plan is left for " + wk.name + ")"));
      return;
    }
    // A device that failed twice in a row is blamed, not the input: it leaves the rotation and the
    // partition goes to the workers left (the CPU when no GPU is), whatever its attempts.
    const bool blamed_device = wk.device >= 0 && ++wk.consecutive_failures >= 2;
    // Its other lanes may fail too before they see it out: the device leaves once.
    if (blamed_device && wk.healthy) take_out_of_rotation_locked(w);
    if (wk.device >= 0 && (blamed_device || j.attempts[k] < 2) && !j.stopping()) {
      synth_queue_.emplace(task_key{j.prio, j.seq, int(k)}, find_shared_locked(j));
      cv_.notify_all();
      return;
    }
    fail_locked(j, named);
  }

  // Whether the CPU fallback may prove j's partitions
  // (engine_config::cpu_fallback_max_param_bytes), from the size of its parameters' queries (any
  // worker's entry, else the file's header).
  cuzk::status cpu_fallback_allows_locked(const job& j) const {
    uint64_t bytes = 0;
    if (!j.pins.empty()) {
      bytes = groth16::query_bytes(j.pins.front()->backend_sizes);
    } else if (auto f = groth16::params_file::open(j.prepared->circuit().params_path)) {
      bytes = groth16::query_bytes(f->sizes());
    }
    if (bytes <= cfg_.cpu_fallback_max_param_bytes) return {};
    return cuzk::status(status_code::unavailable,
                        "no GPU is left in rotation, and the CPU fallback does not prove " +
                            j.prepared->circuit().id + " (parameters " + gib(bytes) + ", above " +
                            gib(cfg_.cpu_fallback_max_param_bytes) +
                            " (gpus.cpu_fallback): on the CPU it would miss its deadline)");
  }

  // The next plan after e's with a smaller device peak, the same residency and the same place for
  // a, b, c (what is loaded and readied stays), applied to its backend; false when there is none.
  bool step_down_plan_locked(srs_entry& e) {
    if (!e.backend) return false;
    groth16::gpu_plan_request req;
    req.q = e.backend_sizes;
    req.device_budget = workers_[e.worker]->device_budget;
    req.program_bytes = e.gpu.fixed_bytes - groth16::gpu_ntt_table_bytes(e.backend_sizes);
    req.max_lanes = e.gpu.lanes;
    for (const groth16::gpu_plan& p : groth16::gpu_plan_candidates(req)) {
      // The parameters and the readied plan stay as they are: the same residency and a, b, c.
      if (p.residency != e.gpu.residency || p.knobs.abc_on_device != e.gpu.knobs.abc_on_device ||
          p.device_peak_bytes >= e.gpu.device_peak_bytes)
        continue;
      logf(cfg_.log, log_level::warn,
           "engine: %s ran out of device memory on %s: proving with the smaller plan %s",
           e.circuit.id.c_str(), workers_[e.worker]->name.c_str(), p.to_json().c_str());
      e.gpu = p;
      e.working_bytes = p.proof_peak + groth16::gpu_ntt_table_bytes(e.backend_sizes);
      e.backend->set_memory_knobs(p.knobs);
      return true;
    }
    return false;
  }

  void take_out_of_rotation_locked(size_t w) {
    prover_worker& wk = *workers_[w];
    wk.healthy = false;
    logf(cfg_.log, log_level::error, "engine: %s taken out of rotation after repeated failures",
         wk.name.c_str());
    const unsigned healthy = unsigned(
        std::count_if(workers_.begin(), workers_.end(), [](const auto& x) { return x->healthy; }));
    lookahead_ = 2 * std::max(1u, healthy);
    // A job whose every worker left in rotation is excluded from it would wait forever: those
    // workers try it after all (loading its parameters when they take a partition; a failure
    // then fails the job with its reason).
    for (job* j : active_) {
      bool served = false;
      for (size_t v = 0; v < workers_.size() && !served; ++v)
        served = workers_[v]->healthy && j->excluded_workers.count(v) == 0;
      if (!served) j->excluded_workers.clear();
    }
    if (healthy == 0) {
      logf(cfg_.log, log_level::warn, "engine: no healthy GPU left: proving on the CPU");
      const unsigned threads = cfg_.prover_threads
                                   ? cfg_.prover_threads
                                   : std::max(1u, std::thread::hardware_concurrency());
      add_cpu_worker(threads);
      workers_.back()->fallback = true;
      start_prover(workers_.size() - 1);
    }
    cv_.notify_all();
  }

  std::shared_ptr<job> find_shared_locked(const job& j) {
    auto it = jobs_.find(key_of(j));
    return it->second;
  }

  // Every partition proved: verify them all in one batch (mu_ released). A failing batch is
  // checked partition by partition; each bad one is re-proved once, a second failure fails the
  // job naming the partition.
  void complete_locked(std::unique_lock<std::mutex>& lk, const std::shared_ptr<job>& jp,
                       const std::string& verify_lane) {
    job& j = *jp;
    std::vector<groth16::proof> proofs;
    for (const auto& p : j.proofs) proofs.push_back(*p);
    ++j.in_flight;
    const prepared_proof& pp = *j.prepared;
    const auto pvk = j.pvk;
    lk.unlock();
    const auto t0 = clock_type::now();
    std::vector<std::vector<ff::fr_t>> inputs;
    cuzk::status st;
    for (unsigned k = 0; k < proofs.size() && st.ok(); ++k) {
      auto in = pp.public_inputs(k);
      if (!in) {
        st = cuzk::status(in.error().code(), "partition " + std::to_string(k) +
                                                 " public inputs: " + in.error().message());
      } else {
        inputs.push_back(std::move(*in));
      }
    }
    std::vector<unsigned> bad;
    if (st.ok()) {
      auto ok = groth16::verify_batch(*pvk, proofs, inputs);
      if (!ok) {
        st = ok.error();
      } else if (!*ok) {
        for (unsigned k = 0; k < proofs.size(); ++k) {
          auto one = groth16::verify(*pvk, proofs[k], inputs[k]);
          if (!one || !*one) bad.push_back(k);
        }
        if (bad.empty()) st = cuzk::status(status_code::internal, "batch verification failed");
      }
    }
    std::vector<uint8_t> bytes;
    if (st.ok() && bad.empty()) bytes = groth16::encode_proofs(proofs);
    lk.lock();
    --j.in_flight;
    j.timings.verify += ms_between(t0, clock_type::now());
    record_locked(verify_lane, j, -1, "verify", t0, clock_type::now());
    if (!st.ok()) {
      fail_locked(j, st);
      return;
    }
    if (j.stopping()) {
      settle_locked(j);
      return;
    }
    if (!bad.empty()) {
      std::string list;
      for (unsigned k : bad) list += (list.empty() ? "" : ", ") + std::to_string(k);
      const bool retry =
          std::all_of(bad.begin(), bad.end(), [&](unsigned k) { return j.attempts[k] < 2; });
      if (!retry) {
        fail_locked(j, cuzk::status(status_code::invalid_argument,
                                    "proof self-verification failed for partition " + list +
                                        " twice: the input is inconsistent"));
        return;
      }
      logf(cfg_.log, log_level::warn,
           "engine: job %s: partition %s failed self-verification, proving it again", j.id.c_str(),
           list.c_str());
      for (unsigned k : bad) {
        j.proofs[k].reset();
        --j.done;
        synth_queue_.emplace(task_key{j.prio, j.seq, int(k)}, jp);
      }
      cv_.notify_all();
      return;
    }
    j.proof_bytes = std::move(bytes);
    finish_locked(j, job_state::completed);
  }

  // ---- state ------------------------------------------------------------------------------

  const engine_config cfg_;
  const handler_list handlers_;
  backend_factory make_backend_;
  device_lister list_devices_;
  uint64_t host_budget_ = 0;
  unsigned synthesis_workers_ = 0;
  unsigned lookahead_ = 2;
  clock_type::time_point started_at_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool draining_ = false, exit_ = false;
  uint64_t next_seq_ = 0;
  uint64_t host_used_ = 0;
  uint64_t completed_ = 0, failed_ = 0, cancelled_ = 0;

  std::map<job_key, std::shared_ptr<job>> jobs_;
  // (tenant, request id) → the ids of the tenant's jobs submitted with it.
  std::multimap<job_key, std::string> by_request_;
  std::map<std::string, tenant_state> tenants_;  // by name; entries are never erased
  // Per stage: the virtual time of the last task taken (fair_pick_locked).
  std::array<uint64_t, STAGES> stage_clock_{};
  std::set<job*> active_;
  std::deque<job_key> finished_;
  std::map<const job*, clock_type::time_point> queued_at_;
  std::map<task_key, std::shared_ptr<job>> synth_queue_;
  std::map<task_key, ready_partition> prover_queue_;
  std::vector<std::unique_ptr<synthesis_buffer>> free_buffers_;
  srs_map srs_;
  std::map<std::string, plan_slot> plans_;  // by "kind:parameter file"
  std::deque<timeline_event> events_;

  std::vector<std::unique_ptr<prover_worker>> workers_;
  std::vector<std::thread> synth_threads_;
  std::unique_ptr<thread_pool> synth_pool_;
};

}  // namespace

result<std::unique_ptr<proving_engine>> create_engine(const engine_config& cfg,
                                                      engine_parts parts) {
  auto e = std::make_unique<engine_impl>(cfg, std::move(parts));
  if (cuzk::status s = e->start(); !s) return s;
  return std::unique_ptr<proving_engine>(std::move(e));
}

result<std::unique_ptr<proving_engine>> proving_engine::create(const engine_config& cfg) {
  return create_engine(cfg, engine_parts{});
}

}  // namespace cuzk::engine
