// SPDX-License-Identifier: Apache-2.0
// The engine's parameter cache (engine_impl.hpp): one srs_entry per (parameter file, prover
// worker), loaded on demand with mu_ released (the GPU plan chosen first from the device budget:
// resident, fewer lanes, smaller groups, or streamed from page-locked host memory), pinned by the
// jobs that use it, evicted least recently used when idle and memory is needed (make_room_locked,
// which frees recycled synthesis buffers first); a job's parameters loaded on every worker at
// once; a circuit's compiled plan readied on an entry; a GPU plan stepped down after running out
// of device memory; the preload and evict calls of the public API.
#include "engine/engine_impl.hpp"
#include "groth16/params_io.hpp"
#include "groth16/prover_cpu.hpp"

namespace cuzk::engine {

result<bool> engine_impl::preload(const std::string& circuit_id) {
  auto c = circuit_by_id(circuit_id);
  if (!c) return c.error();
  mutex_lock lk(mu_);
  std::vector<size_t> targets;
  for (size_t w = 0; w < workers_.size(); ++w)
    if (workers_[w]->healthy) targets.push_back(w);
  std::vector<cuzk::status> outcome(targets.size());
  std::vector<char> was_loaded(targets.size(), 1);
  on_workers_at_once_locked(targets.size(), [&](size_t i) CUZK_REQUIRES(mu_) {
    bool loaded = false;
    auto e = acquire_srs_locked(*c, targets[i], nullptr, &loaded);
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

result<uint64_t> engine_impl::evict(const std::string& circuit_id) {
  auto c = circuit_by_id(circuit_id);
  if (!c) return c.error();
  mutex_lock lk(mu_);
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

uint64_t engine_impl::largest_working_set_locked(size_t w) const {
  uint64_t largest = 0;
  for (const auto& [key, e] : srs_)
    if (e->worker == w) largest = std::max(largest, e->working_bytes);
  return largest;
}

bool engine_impl::make_room_locked(uint64_t host_need, std::optional<size_t> w,
                                   uint64_t device_need, bool express, uint64_t device_working) {
  const auto device_fits = [&]() CUZK_REQUIRES(mu_) {
    if (!w) return true;
    const prover_worker& wk = *workers_[*w];
    const uint64_t working = std::max(device_working, largest_working_set_locked(*w));
    return wk.device_used + device_need + working <= wk.device_budget;
  };
  const auto fits = [&]() CUZK_REQUIRES(mu_) {
    return host_used_ + host_need <= host_budget_ && device_fits();
  };
  while (!fits() && host_used_ + host_need > host_budget_ && !free_buffers_.empty()) {
    host_used_ -= free_buffers_.back()->charged;
    free_buffers_.pop_back();
  }
  while (!fits()) {
    const auto now = clock_type::now();
    auto victim = srs_.end();
    const bool device_short = !device_fits();
    for (auto it = srs_.begin(); it != srs_.end(); ++it) {
      const srs_entry& e = *it->second;
      if (e.refs > 0 || e.loading || (!express && now - e.last_used < cfg_.eviction_min_idle))
        continue;
      // On the device an entry helps by its charge or by its working set (the largest counts).
      const bool helps =
          (host_used_ + host_need > host_budget_ && e.host_charged > 0) ||
          (w && e.worker == *w && device_short && (e.device_charged > 0 || e.working_bytes > 0));
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

bool engine_impl::wait_for_room_locked(uint64_t host_need, std::optional<size_t> w,
                                       uint64_t device_need, const job* owner,
                                       uint64_t device_working) {
  const bool express = owner && express_job(*owner);
  bool counted = false;
  bool room = true;
  while (!make_room_locked(host_need, w, device_need, express, device_working)) {
    if (owner && owner->stopping()) {
      room = false;
      break;
    }
    if (express && !counted) {
      ++express_waiting_for_memory_;
      counted = true;
    }
    cv_.wait_for(mu_, std::chrono::seconds(1));
  }
  if (counted) {
    --express_waiting_for_memory_;
    cv_.notify_all();  // the PREPAREs held back may start
  }
  return room;
}

std::optional<groth16::gpu_plan> engine_impl::plan_beside_pinned_locked(
    size_t w, const groth16::gpu_plan_request& req, const groth16::gpu_plan& whole) const {
  // Pinned: in use by a job or loading. Idle parameters are no obstacle (an express job evicts
  // them at once, make_room_locked).
  uint64_t held = 0, peak = 0;
  bool pinned = false;
  for (const auto& [key, e] : srs_) {
    if (e->worker != w || (e->refs == 0 && !e->loading)) continue;
    pinned = true;
    held += e->device_charged;
    peak = std::max(peak, e->gpu.proof_peak + uint64_t(e->gpu.lanes - 1) * e->gpu.lane_bytes);
  }
  if (!pinned) return std::nullopt;
  auto plan = groth16::choose_gpu_plan_beside(req, whole, held, peak);
  // Nothing fits beside their lanes' working sets: planned beside their parameters only; the
  // regular lanes then pause at their partitions' end while the job has partitions left
  // (express_reserved_locked), instead of the job waiting for theirs to end and evicting them.
  if (!plan && peak > 0) plan = groth16::choose_gpu_plan_beside(req, whole, held, 0);
  if (!plan) return std::nullopt;
  const uint64_t host_need =
      plan->residency == groth16::gpu_residency::host ? groth16::query_bytes(req.q) : 0;
  if (host_used_ + host_need > host_budget_) return std::nullopt;
  return *plan;
}

engine_impl::srs_map::iterator engine_impl::erase_srs_locked(srs_map::iterator it) {
  srs_entry& e = *it->second;
  host_used_ -= e.host_charged;
  workers_[e.worker]->device_used -= e.device_charged;
  return srs_.erase(it);
}

cuzk::status engine_impl::ready_plan_locked(srs_entry& e, job& j) {
  const std::shared_ptr<const r1cs::abc_plan>& plan = j.plan->plan;
  for (;;) {
    if (e.plan == plan) return {};
    if (!e.plan_preparing) break;
    cv_.wait(mu_);
  }
  prover_worker& wk = *workers_[e.worker];
  const filecoin::proofs::prover_backend::plan_memory need = e.backend->plan_memory_of(*plan);
  // Beside its own parameters and one proof's working set (no other circuit can make that room).
  if (need.host > host_budget_ ||
      e.device_charged + need.device + e.working_bytes > wk.device_budget) {
    return cuzk::status(status_code::resource_exhausted,
                        "the a, b, c plan of " + j.prepared->circuit().id + " needs " +
                            gib(need.host) + " of host and " + gib(need.device) + " of " + wk.name +
                            " memory, beyond the budgets");
  }
  e.plan_preparing = true;
  if (!wait_for_room_locked(need.host, e.worker, need.device, &j)) {
    e.plan_preparing = false;
    cv_.notify_all();
    return cuzk::status(status_code::cancelled, "cancelled while waiting for memory");
  }
  mu_.unlock();
  cuzk::status st = guarded([&] { return e.backend->prepare_plan(plan); });
  mu_.lock();
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

void engine_impl::recharge_locked(srs_entry& e) {
  prover_worker& wk = *workers_[e.worker];
  host_used_ = host_used_ - e.host_charged + e.backend->host_bytes() + e.host_working;
  wk.device_used = wk.device_used - e.device_charged + e.backend->device_bytes();
  e.host_charged = e.backend->host_bytes() + e.host_working;
  e.device_charged = e.backend->device_bytes();
}

void engine_impl::release_srs_locked(srs_entry& e) {
  --e.refs;
  e.last_used = clock_type::now();
}

result<srs_entry*> engine_impl::acquire_srs_locked(const circuit_params& c, size_t w,
                                                   const job* owner, bool* was_loaded) {
  const auto key = std::make_pair(c.params_path, w);
  for (;;) {
    auto it = srs_.find(key);
    if (it != srs_.end() && it->second->loading) {
      cv_.wait(mu_);
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

  const auto fail = [&](cuzk::status s) CUZK_REQUIRES(mu_) -> result<srs_entry*> {
    erase_srs_locked(srs_.find(key));
    cv_.notify_all();
    return s;
  };
  mu_.unlock();
  auto file = groth16::params_file::open(c.params_path);
  mu_.lock();
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
    req.max_lanes = wk.regular_lanes();
    auto chosen = groth16::choose_gpu_plan(req);
    if (!chosen) {
      return fail(cuzk::status(chosen.error().code(),
                               c.id + " on " + wk.name + ": " + chosen.error().message()));
    }
    plan = *chosen;
    if (owner && express_job(*owner)) {
      if (auto beside = plan_beside_pinned_locked(w, req, plan)) {
        logf(cfg_.log, log_level::info,
             "engine: %s on %s: planned for the memory the parameters in use there leave "
             "(the plan for the whole budget would wait for their jobs to end)",
             c.id.c_str(), wk.name.c_str());
        plan = *beside;
      }
    }
  }
  const filecoin::proofs::srs_residency residency =
      wk.device < 0 || plan.residency == groth16::gpu_residency::host
          ? filecoin::proofs::srs_residency::host
          : filecoin::proofs::srs_residency::device;
  const bool on_host = residency == filecoin::proofs::srs_residency::host;
  // The CPU prover's own working set comes with its parameters: one partition's buffers and
  // transforms, the splits, an MSM's prepared terms and its threads' buckets.
  const uint64_t host_working =
      wk.device < 0 ? groth16::cpu_proof_bytes(file->sizes(), wk.pool->size()) : 0;
  const uint64_t host_need = (on_host ? bytes : 0) + host_working;
  // The device's copy: every query but ic, which stays on the host (gpu_parameter_bytes), or a
  // partially resident plan's queries beside the host copy.
  const uint64_t device_need = plan.parameter_bytes;
  if (host_need > host_budget_ || device_need > wk.device_budget) {
    return fail(cuzk::status(status_code::resource_exhausted,
                             c.id + " parameters need " + gib(bytes) +
                                 (host_working ? " and the CPU prover " + gib(host_working) : "") +
                                 " of " + (on_host ? "host" : wk.name) + " memory, the budget is " +
                                 gib(on_host ? host_budget_ : wk.device_budget)));
  }
  if (wk.device >= 0) {
    logf(cfg_.log, log_level::info, "engine: %s on %s (budget %s): plan %s", c.id.c_str(),
         wk.name.c_str(), gib(wk.device_budget).c_str(), plan.to_json().c_str());
  }
  // The room for the plan, not only the parameters: its program and one proof's working set
  // beside every circuit left on the device (an idle one is evicted for it, or the load waits);
  // a second lane's witness waits for room at each proof (prover_stage's admits).
  const uint64_t device_working = wk.device >= 0 ? plan.fixed_bytes + plan.proof_peak : 0;
  // A job waits for the room; a preload (no job) takes what is free now or evictable now and is
  // refused otherwise: it must not hold the daemon's preload thread for eviction_min_idle, nor
  // evict a circuit loaded before it.
  if (!owner && !make_room_locked(host_need, w, device_need, false, device_working)) {
    return fail(cuzk::status(
        status_code::resource_exhausted,
        c.id + " does not fit on " + wk.name + " beside the parameters resident there (" +
            gib(bytes) + " of parameters; it loads with its first job, or after an evict)"));
  }
  if (owner && !wait_for_room_locked(host_need, w, device_need, owner, device_working))
    return fail(cuzk::status(status_code::cancelled, "cancelled while waiting for memory"));
  e->in_host_memory = on_host;
  e->gpu = plan;
  e->backend_sizes = file->sizes();
  e->working_bytes =
      wk.device >= 0 ? plan.proof_peak + groth16::gpu_ntt_table_bytes(file->sizes()) : 0;
  e->host_charged = host_need;
  e->host_working = host_working;
  e->device_charged = device_need;
  host_used_ += host_need;
  wk.device_used += device_need;

  e->load_total_bytes = bytes;
  e->load_started = clock_type::now();
  mu_.unlock();
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
  mu_.lock();
  // The load on the worker's lane (the gap before its first prove), failed or not.
  timeline_event& ev = record_locked(
      wk.name, owner ? owner->id : std::string(), owner ? owner->tenant->name : std::string(),
      owner ? owner->kind : kind_of(c), -1, "load", t0, clock_type::now());
  ev.circuit_id = c.id;
  ev.bytes = bytes;
  if (!backend) {
    return fail(cuzk::status(backend.error().code(),
                             c.params_path + " on " + wk.name + ": " + backend.error().message()));
  }
  // Charge what the backend really holds.
  e->backend = std::move(*backend);
  if (wk.device >= 0) {
    // Parameters in host memory: a partially resident plan's queries go to the device here.
    const cuzk::status kept = e->backend->set_memory_knobs(plan.knobs);
    if (!kept.ok()) {
      return fail(
          cuzk::status(kept.code(), c.params_path + " on " + wk.name + ": " + kept.message()));
    }
  }
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

cuzk::status engine_impl::load_on_workers_locked(const std::shared_ptr<job>& j) {
  std::vector<size_t> targets;
  for (size_t w = 0; w < workers_.size(); ++w)
    if (workers_[w]->healthy) targets.push_back(w);
  if (targets.empty()) return cuzk::status(status_code::unavailable, "no healthy prover worker");
  std::vector<cuzk::status> outcome(targets.size());
  on_workers_at_once_locked(targets.size(), [&](size_t i) CUZK_REQUIRES(mu_) {
    auto e = acquire_srs_locked(j->prepared->circuit(), targets[i], j.get(), nullptr);
    if (!e) {
      outcome[i] = e.error();
      return;
    }
    j->pins.push_back(*e);
    if (j->plan) outcome[i] = ready_plan_locked(**e, *j);
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

bool engine_impl::step_down_plan_locked(srs_entry& e) {
  if (!e.backend) return false;
  groth16::gpu_plan_request req;
  req.q = e.backend_sizes;
  req.device_budget = workers_[e.worker]->device_budget;
  req.program_bytes = e.gpu.fixed_bytes - groth16::gpu_ntt_table_bytes(e.backend_sizes);
  req.max_lanes = e.gpu.lanes;
  for (const groth16::gpu_plan& p : groth16::gpu_plan_candidates(req)) {
    // The parameters and the readied plan stay as they are: the same residency, queries on the
    // device and a, b, c.
    if (p.residency != e.gpu.residency || p.knobs.abc_on_device != e.gpu.knobs.abc_on_device ||
        p.knobs.resident_queries != e.gpu.knobs.resident_queries ||
        p.device_peak_bytes >= e.gpu.device_peak_bytes)
      continue;
    logf(cfg_.log, log_level::warn,
         "engine: %s ran out of device memory on %s: proving with the smaller plan %s",
         e.circuit.id.c_str(), workers_[e.worker]->name.c_str(), p.to_json().c_str());
    e.gpu = p;
    e.working_bytes = p.proof_peak + groth16::gpu_ntt_table_bytes(e.backend_sizes);
    // The same queries on the device: nothing is copied, nothing can fail for want of memory.
    const cuzk::status st = e.backend->set_memory_knobs(p.knobs);
    if (!st.ok()) {
      logf(cfg_.log, log_level::warn, "engine: %s on %s: the smaller plan's knobs: %s",
           e.circuit.id.c_str(), workers_[e.worker]->name.c_str(), st.to_string().c_str());
      return false;
    }
    return true;
  }
  return false;
}

}  // namespace cuzk::engine
