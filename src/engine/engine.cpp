// SPDX-License-Identifier: Apache-2.0
// The proving engine's public side (engine_impl.hpp says which file holds which part): its
// construction and start (workers, budgets), submit, await, cancel, status, timeline and
// shutdown; the kind handlers' lookups; tenants and their fair shares of each stage; the
// timeline's events; a job's lifecycle (fail, settle, finish) and the recycled buffers.
#include <fstream>
#include <random>

#include "base/hex.hpp"
#include "base/os_random.hpp"
#include "engine/engine_impl.hpp"
#include "filecoin/proofs/porep_prover.hpp"
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
  cuzk::hash::blake2b h(32);
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
  bytes(r.prover_id);
  std::array<uint8_t, 32> out{};
  h.finalize(out.data());
  return out;
}

uint64_t request_bytes(const proof_request& r) {
  uint64_t n = r.vanilla_proof.size() + r.randomness.size() + r.comm_r_old.size() +
               r.comm_r_new.size() + r.comm_d_new.size() + r.prover_id.size();
  for (const auto& v : r.vanilla_proofs) n += v.size();
  return n;
}

int numeric(priority p) {
  return int(p);
}

}  // namespace

engine_impl::engine_impl(const engine_config& cfg, engine_parts parts)
    : cfg_(cfg),
      handlers_(std::move(parts.handlers)),
      make_backend_(parts.make_backend),
      list_devices_(parts.list_devices) {
  if (!list_devices_) list_devices_ = filecoin::proofs::list_gpus;
  if (!make_backend_) {
    make_backend_ = [](const groth16::params_file& file, groth16::point_checks checks, int device,
                       filecoin::proofs::srs_residency residency, thread_pool& pool,
                       const log_sink& log, const progress_fn& progress) {
      return filecoin::proofs::make_prover_backend(file, checks, device, pool, log, progress,
                                                   residency);
    };
  }
}

cuzk::status engine_impl::start() {
  // Held while the workers are set up: the threads started below wait for it.
  mutex_lock lk(mu_);
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

  const std::vector<filecoin::proofs::gpu_device_t> gpus =
      cfg_.disable_gpus ? std::vector<filecoin::proofs::gpu_device_t>{} : list_devices_();
  std::vector<filecoin::proofs::gpu_device_t> chosen;
  if (cfg_.gpu_devices.empty() || cfg_.disable_gpus) {
    // Every device this binary can run on; another is left out, saying why (its sm_XY, the
    // rebuild), not discovered at the first proof.
    for (const filecoin::proofs::gpu_device_t& g : gpus) {
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
      auto it = std::find_if(
          gpus.begin(), gpus.end(),
          [&](const filecoin::proofs::gpu_device_t& g) { return g.ordinal == ordinal; });
      if (it == gpus.end()) {
        return cuzk::status(status_code::invalid_argument,
                            "GPU " + std::to_string(ordinal) + " does not exist on this machine (" +
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
    w->lanes.resize(std::max(1u, cfg_.gpu_lanes) + (cfg_.express_lane ? 1 : 0));
    w->lanes.back().express = cfg_.express_lane;
    workers_.push_back(std::move(w));
  }
  if (chosen.empty() || cfg_.cpu_worker_with_gpus) add_cpu_worker_locked(prover_threads);

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
  if (cfg_.max_synthesis_workers != 0) automatic = std::min(automatic, cfg_.max_synthesis_workers);
  synthesis_workers_ = cfg_.synthesis_workers ? cfg_.synthesis_workers : automatic;
  // Every core by default: concurrent partitions share it (thread_pool serves several loops at
  // once); synthesis.threads may keep some cores for other work on the machine.
  synth_pool_ =
      std::make_unique<thread_pool>(cfg_.synthesis_threads ? cfg_.synthesis_threads : cores);
  // Partitions synthesized ahead of the provers: enough to keep every worker fed while the
  // next one is synthesized, not so many that a late high-priority job finds the budget full.
  lookahead_ = 2 * unsigned(workers_.size());
  started_at_ = clock_type::now();
  for (size_t i = 0; i < workers_.size(); ++i) start_prover_locked(i);
  for (unsigned i = 0; i < synthesis_workers_; ++i)
    synth_threads_.emplace_back([this, i] { synthesis_loop(i, false); });
  if (cfg_.express_lane) {
    express_pool_ = std::make_unique<thread_pool>(synth_pool_->size());
    synth_threads_.emplace_back([this, i = synthesis_workers_] { synthesis_loop(i, true); });
  }
  logf(cfg_.log, log_level::info,
       "engine: %zu prover worker(s) (%u lane(s) per GPU%s), %u synthesis worker(s)%s, host "
       "budget %s",
       workers_.size(), std::max(1u, cfg_.gpu_lanes), cfg_.express_lane ? " + express" : "",
       synthesis_workers_, cfg_.express_lane ? " + express" : "", gib(host_budget_).c_str());
  return cuzk::status();
}

result<submit_result> engine_impl::submit(proof_request req) {
  const proof_kind_handler* h = handler_of(req.kind);
  if (!h) {
    return cuzk::status(status_code::invalid_argument,
                        "invalid proof_kind: " + std::to_string(uint32_t(req.kind)) +
                            " (this engine proves " + kinds_text() + ")");
  }
  if (cuzk::status s = h->check(req); !s) return s;
  const auto digest = request_digest(req);
  const uint64_t bytes = request_bytes(req);

  mutex_lock lk(mu_);
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

result<job_result> engine_impl::await(std::string_view tenant, const std::string& job_id,
                                      std::chrono::milliseconds timeout) {
  mutex_lock lk(mu_);
  auto it = jobs_.find(job_key{std::string(tenant), job_id});
  if (it == jobs_.end()) return cuzk::status(status_code::not_found, "job not found: " + job_id);
  std::shared_ptr<job> j = it->second;
  cv_.wait_for(mu_, timeout, [&] { return j->terminal(); });
  return result_of_locked(*j);
}

result<bool> engine_impl::cancel(std::string_view tenant, const std::string& job_id,
                                 const std::string& reason) {
  mutex_lock lk(mu_);
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

engine_status engine_impl::status() {
  mutex_lock lk(mu_);
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
                      e->host_charged + e->device_charged, e->device_charged, e->refs,
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
    st.jobs.push_back({j->id, j->kind, priority(j->prio), j->state, j->partitions, j->done,
                       j->cancel_requested,
                       std::chrono::duration<double>(now - j->submitted).count(), j->tenant->name});
  }
  for (const auto& [name, t] : tenants_)
    st.tenants.push_back({name, t.in_flight, t.queued_bytes, t.accepted, t.refused});
  st.completed = completed_;
  st.failed = failed_;
  st.cancelled = cancelled_;
  st.host_budget = host_budget_;
  st.host_used = host_used_;
  st.peak_rss = filecoin::proofs::peak_rss_bytes();
  st.uptime_seconds = std::chrono::duration<double>(now - started_at_).count();
  st.synthesis_workers = synthesis_workers_;
  st.synthesis_threads = unsigned(synth_pool_->size());
  return st;
}

std::vector<timeline_event> engine_impl::timeline(double since) {
  mutex_lock lk(mu_);
  std::vector<timeline_event> out;
  for (const timeline_event& e : events_)
    if (e.end >= since) out.push_back(e);
  return out;
}

void engine_impl::shutdown() {
  mutex_lock lk(mu_);
  if (exit_) return;
  draining_ = true;
  while (!active_.empty()) cv_.wait(mu_);
  exit_ = true;
  cv_.notify_all();
  // The lanes' threads, taken under mu_: with no job left, no lane adds a worker now.
  std::vector<std::thread*> lanes;
  for (auto& w : workers_)
    for (prover_lane& l : w->lanes) lanes.push_back(&l.thread);
  lk.unlock();
  for (auto& t : synth_threads_) t.join();
  for (std::thread* t : lanes)
    if (t->joinable()) t->join();
  lk.lock();
  // What the engine still holds: recycled buffers and parameters.
  free_buffers_.clear();
  srs_.clear();
}

const proof_kind_handler* engine_impl::handler_of(proof_kind k) const {
  auto p = handler_ptr(k);
  return p.get();
}

std::shared_ptr<const proof_kind_handler> engine_impl::handler_ptr(proof_kind k) const {
  for (const auto& h : handlers_)
    if (h->kind() == k) return h;
  return nullptr;
}

std::string engine_impl::kinds_text() const {
  std::string s;
  for (const auto& h : handlers_) {
    if (!s.empty()) s += ", ";
    s += std::string(to_string(h->kind())) + " (" + std::to_string(uint32_t(h->kind())) + ")";
  }
  return s;
}

proof_kind engine_impl::kind_of(const circuit_params& c) const {
  for (const auto& h : handlers_)
    if (h->circuit_by_id(c.id, cfg_.param_dir)) return h->kind();
  return proof_kind{};
}

result<circuit_params> engine_impl::circuit_by_id(const std::string& id) const {
  for (const auto& h : handlers_)
    if (auto c = h->circuit_by_id(id, cfg_.param_dir)) return *c;
  return cuzk::status(status_code::not_found, "unknown circuit id: " + id);
}

tenant_state& engine_impl::tenant_locked(const std::string& name) {
  auto [it, made] = tenants_.try_emplace(name);
  if (made) {
    it->second.name = name;
    if (auto p = cfg_.tenants.find(name); p != cfg_.tenants.end()) it->second.policy = p->second;
  }
  return it->second;
}

cuzk::status engine_impl::admit_for_tenant_locked(const tenant_state& t, uint64_t bytes) const {
  const tenant_policy& p = t.policy;
  if (p.max_in_flight != 0 && t.in_flight >= p.max_in_flight) {
    return cuzk::status(status_code::resource_exhausted,
                        "tenant " + t.name + " has " + std::to_string(t.in_flight) +
                            " job(s) in flight, its max_in_flight: retry when one has ended");
  }
  if (p.max_queued_bytes != 0 && bytes > p.max_queued_bytes) {
    return cuzk::status(status_code::resource_exhausted,
                        "the request's " + std::to_string(bytes) + " bytes exceed tenant " +
                            t.name + "'s max_queued_bytes (" + std::to_string(p.max_queued_bytes) +
                            ")");
  }
  if (p.max_queued_bytes != 0 && t.queued_bytes + bytes > p.max_queued_bytes) {
    return cuzk::status(
        status_code::resource_exhausted,
        "tenant " + t.name + " has " + std::to_string(t.queued_bytes) + " request bytes queued; " +
            std::to_string(bytes) + " more would pass its max_queued_bytes (" +
            std::to_string(p.max_queued_bytes) + "): retry when its queued jobs have started");
  }
  return {};
}

void engine_impl::release_request_locked(job& j) {
  host_used_ -= j.request_charged;
  j.tenant->queued_bytes -= j.request_charged;
  j.request_charged = 0;
  j.request.reset();
}

void engine_impl::take_locked(const job& j, stage s) {
  tenant_state& t = *j.tenant;
  const uint64_t start = std::max(t.pass[s], stage_clock_[s]);
  stage_clock_[s] = start;
  t.pass[s] = start + t.stride();
}

unsigned engine_impl::queue_position_locked(const job& me) const {
  unsigned n = 0;
  for (const job* j : active_)
    if (j != &me && j->prio >= me.prio && j->seq < me.seq) ++n;
  return n;
}

job_result engine_impl::result_of_locked(const job& j) const {
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

void engine_impl::prune_locked() {
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

timeline_event& engine_impl::record_locked(const std::string& lane, const job& j, int partition,
                                           const char* phase, clock_type::time_point t0,
                                           clock_type::time_point t1) {
  return record_locked(lane, j.id, j.tenant->name, j.kind, partition, phase, t0, t1);
}

timeline_event& engine_impl::record_locked(const std::string& lane, const std::string& job_id,
                                           const std::string& tenant, proof_kind kind,
                                           int partition, const char* phase,
                                           clock_type::time_point t0, clock_type::time_point t1) {
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

void engine_impl::fail_locked(job& j, cuzk::status s) {
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

void engine_impl::drop_queued_locked(job& j) {
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

void engine_impl::settle_locked(job& j) {
  if (!j.stopping() || j.in_flight > 0 || j.terminal()) return;
  finish_locked(j, j.cancel_requested ? job_state::cancelled : job_state::failed);
}

void engine_impl::finish_locked(job& j, job_state s) {
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

void engine_impl::recycle_locked(std::unique_ptr<synthesis_buffer> buf) {
  if (buf) free_buffers_.push_back(std::move(buf));
  cv_.notify_all();
}

std::shared_ptr<job> engine_impl::find_shared_locked(const job& j) {
  auto it = jobs_.find(key_of(j));
  return it->second;
}

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
