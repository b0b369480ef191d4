// SPDX-License-Identifier: Apache-2.0
// The engine's prover stage (engine_impl.hpp): the prover workers (one per GPU, or the CPU) and
// their lanes; which ready partition a lane takes and whether it is admitted beside the worker's
// other lanes (device memory); proving and finalizing; prover errors (a smaller GPU plan, a retry,
// a GPU out of rotation, the CPU fallback and its limit); the batch self-verification of a
// finished job, and the diagnosis of a partition that fails it twice (its input or the
// parameters).
#include "engine/engine_impl.hpp"
#include "filecoin/proofs/prove_steps.hpp"
#include "groth16/assignment.hpp"
#include "groth16/prover_cpu.hpp"

namespace cuzk::engine {

namespace {

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

}  // namespace

void engine_impl::add_cpu_worker_locked(unsigned threads) {
  auto w = std::make_unique<prover_worker>();
  w->name = "cpu";
  w->device = -1;
  w->pool = std::make_unique<thread_pool>(threads);
  w->lanes.resize(1);  // its pool is every core: a second partition would only share them
  workers_.push_back(std::move(w));
}

void engine_impl::start_prover_locked(size_t w) {
  prover_worker& wk = *workers_[w];
  for (size_t l = 0; l < wk.lanes.size(); ++l) {
    wk.lanes[l].name = l == 0                ? wk.name
                       : wk.lanes[l].express ? wk.name + ".express"
                                             : wk.name + "." + std::to_string(l);
    wk.lanes[l].thread = std::thread([this, w, l] { prover_loop(w, l); });
  }
}

srs_entry* engine_impl::pinned_on(const job& j, size_t w) {
  for (srs_entry* p : j.pins)
    if (p->worker == w) return p;
  return nullptr;
}

lane_work engine_impl::work_of_locked(size_t w, const ready_partition& rp) const {
  lane_work lw;
  const job& j = *rp.owner;
  const srs_entry* e = pinned_on(j, w);
  if (workers_[w]->device < 0 || !e) return lw;
  // Its working set counts beside an express proof (and an express proof's beside the lanes).
  lw.working = e->working_bytes;
  if (e->in_host_memory || e->gpu.lanes < 2 || !rp.buf->witness_only || !j.plan ||
      e->plan != j.plan->plan)
    return lw;
  lw.shares_device = true;
  lw.waiting = (rp.buf->wcs.inputs().size() + rp.buf->wcs.aux().size()) * sizeof(ff::fr_t);
  return lw;
}

uint64_t engine_impl::regular_peak(const prover_worker& wk, const lane_work* next) {
  uint64_t waiting = next ? next->waiting : 0;
  for (const prover_lane& l : wk.lanes)
    if (l.work && !l.express) waiting += l.work->waiting;
  uint64_t peak = next ? next->working + waiting - next->waiting : 0;
  for (const prover_lane& l : wk.lanes)
    if (l.work && !l.express) peak = std::max(peak, l.work->working + waiting - l.work->waiting);
  return peak;
}

uint64_t engine_impl::express_working(const prover_worker& wk) {
  uint64_t bytes = 0;
  for (const prover_lane& l : wk.lanes)
    if (l.work && l.express) bytes += l.work->working;
  return bytes;
}

uint64_t engine_impl::express_reserved_locked(size_t w) const {
  const prover_worker& wk = *workers_[w];
  if (wk.lanes.empty() || !wk.lanes.back().express) return 0;
  uint64_t reserved = 0;
  for (const job* j : active_) {  // the jobs not ended (an ended one pins nothing)
    if (!express_job(*j)) continue;
    if (const srs_entry* e = pinned_on(*j, w)) reserved = std::max(reserved, e->working_bytes);
  }
  return reserved;
}

bool engine_impl::admits(const prover_worker& wk, const lane_work& next,
                         uint64_t express_reserved) {
  bool alone = true;
  for (const prover_lane& l : wk.lanes) {
    if (!l.work || l.express) continue;
    if (!l.work->shares_device) return false;
    alone = false;
  }
  const uint64_t express = std::max(express_working(wk), express_reserved);
  if (alone && express == 0) return true;
  if (!alone && !next.shares_device) return false;
  return wk.device_used + regular_peak(wk, &next) + express <= wk.device_budget;
}

bool engine_impl::admits_express(const prover_worker& wk, const lane_work& next) {
  // Known bytes only: a partition whose parameters this worker has not loaded waits for a
  // regular lane (which loads them).
  if (next.working == 0) return false;
  return wk.device_used + regular_peak(wk, nullptr) + express_working(wk) + next.working <=
         wk.device_budget;
}

void engine_impl::prover_loop(size_t w, size_t l) {
  mutex_lock lk(mu_);
  const bool express_lane = workers_[w]->lanes[l].express;
  // The express lane's proofs run ahead of the regular lanes' on the device.
  std::optional<groth16::express_scope> express;
  if (express_lane) express.emplace();
  for (;;) {
    prover_worker& wk = *workers_[w];
    prover_lane& lane = wk.lanes[l];
    if (exit_ || !wk.healthy) return;
    // The next ready partition (fair_pick_locked) of a job this worker is not excluded from
    // (and for the express lane, of an express job).
    auto next = fair_pick_locked(
        prover_queue_, PROVER_STAGE, [](const auto& e) -> const job& { return *e->second.owner; },
        [w, express_lane](const auto& e) {
          const job& j = *e->second.owner;
          return j.excluded_workers.count(w) == 0 && (!express_lane || express_job(j));
        });
    if (next == prover_queue_.end()) {
      cv_.wait(mu_);
      continue;
    }
    // Not beside the other lanes: it waits for them (a lower priority one does not jump it).
    const lane_work work = work_of_locked(w, next->second);
    if (express_lane ? !admits_express(wk, work) : !admits(wk, work, express_reserved_locked(w))) {
      cv_.wait(mu_);
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
      auto got = acquire_srs_locked(j.prepared->circuit(), w, &j, nullptr);
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
      if (cuzk::status st = ready_plan_locked(*e, j); !st.ok()) {
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
    filecoin::proofs::prover_backend& backend = *e->backend;
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
      mutex_lock relock(mu_);
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
      ev.stream_wait = ptm.stream_wait;
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
    if (++j.done == j.partitions) complete_locked(rp.owner, lane.name);
  }
}

void engine_impl::on_prover_error_locked(size_t w, job& j, unsigned k, const cuzk::status& err) {
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

cuzk::status engine_impl::cpu_fallback_allows_locked(const job& j) const {
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

void engine_impl::take_out_of_rotation_locked(size_t w) {
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
    add_cpu_worker_locked(threads);
    workers_.back()->fallback = true;
    start_prover_locked(workers_.size() - 1);
  }
  cv_.notify_all();
}

void engine_impl::complete_locked(const std::shared_ptr<job>& jp, const std::string& verify_lane) {
  job& j = *jp;
  std::vector<groth16::proof> proofs;
  for (const auto& p : j.proofs) proofs.push_back(*p);
  ++j.in_flight;
  const prepared_proof& pp = *j.prepared;
  const auto pvk = j.pvk;
  mu_.unlock();
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
  mu_.lock();
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
      fail_locked(j, self_check_failure_locked(j, bad));
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

cuzk::status engine_impl::self_check_failure_locked(job& j, const std::vector<unsigned>& bad) {
  std::string list;
  for (unsigned k : bad) list += (list.empty() ? "" : ", ") + std::to_string(k);
  const prepared_proof& pp = *j.prepared;
  const std::string blame = pp.inconsistent_input();
  if (blame.empty()) {
    return cuzk::status(status_code::invalid_argument,
                        "proof self-verification failed for partition " + list +
                            " twice: the input is inconsistent");
  }
  const unsigned k = bad.front();
  const std::string part = "partition " + std::to_string(k) + " (failed twice): ";
  const std::string& params_path = pp.circuit().params_path;
  const std::shared_ptr<const compiled_plan> plan = j.plan;
  std::unique_ptr<synthesis_buffer> buf = take_buffer_locked(pp.shape(), plan != nullptr);
  if (!buf) {
    return cuzk::status(status_code::invalid_argument,
                        part + "proof self-verification failed: " + blame + ", or the parameters " +
                            params_path + " are suspect (no memory left to tell which)");
  }
  ++j.in_flight;
  mu_.unlock();
  std::optional<uint64_t> row;
  const cuzk::status st = guarded([&] {
    cuzk::status s = synthesize_partition(pp, k, *buf, plan != nullptr, *synth_pool_);
    if (!s.ok()) return s;
    if (!plan) {
      row = filecoin::proofs::steps::first_unsatisfied_row(buf->cs.a(), buf->cs.b(), buf->cs.c(),
                                                           *synth_pool_);
      return s;
    }
    // a, b, c from the plan a chunk of rows at a time: the diagnosis holds the witness only.
    const r1cs::abc_plan& p = *plan->plan;
    constexpr size_t CHUNK = size_t(1) << 16;
    std::vector<ff::fr_t> a(CHUNK), b(CHUNK), c(CHUNK);
    for (size_t first = 0; first < p.num_rows() && !row; first += CHUNK) {
      const size_t n = std::min(CHUNK, p.num_rows() - first);
      const std::span<ff::fr_t> sa(a.data(), n), sb(b.data(), n), sc(c.data(), n);
      s = p.evaluate_rows(first, buf->wcs.inputs(), buf->wcs.aux(), sa, sb, sc, *synth_pool_);
      if (!s.ok()) return s;
      row = filecoin::proofs::steps::first_unsatisfied_row(sa, sb, sc, *synth_pool_, first);
    }
    return s;
  });
  mu_.lock();
  --j.in_flight;
  recycle_locked(std::move(buf));
  if (!st.ok()) {
    return cuzk::status(st.code(), part +
                                       "proof self-verification failed, and synthesizing it "
                                       "again to tell why failed: " +
                                       st.message());
  }
  // The load checked the subgroup too, or the curve equation only (srs.param_checks).
  const bool subgroup_checked = cfg_.params_checks != engine_config::param_checks::on_curve;
  return filecoin::proofs::steps::self_check_blame(
      part, row, blame, params_path,
      subgroup_checked ? filecoin::proofs::steps::POINTS_VALID_BUT_FOREIGN
                       : " (a point not of this circuit's setup, or outside the subgroup, which "
                         "the load did not check: compare their digests with `cuzk params check`, "
                         "or load them with the subgroup check, srs.param_checks = \"batched\")");
}

}  // namespace cuzk::engine
