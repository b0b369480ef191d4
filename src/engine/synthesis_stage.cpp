// SPDX-License-Identifier: Apache-2.0
// The engine's synthesis stage (engine_impl.hpp): the synthesis workers' loop over the synthesis
// queue; a job's prepare task (decode and check the input, compile or share the circuit's a, b, c
// plan, load the parameters on every worker, queue the partitions); each partition's synthesis
// (the full circuit, or the witness alone for a compiled plan) into a recycled buffer, page-locked
// for the GPU's upload, then queued for the provers.
#include "engine/engine_impl.hpp"

namespace cuzk::engine {

std::unique_ptr<synthesis_buffer> engine_impl::take_buffer_locked(const synthesis_shape& shape,
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

void engine_impl::synthesis_loop(unsigned index, bool express) {
  const std::string lane = express ? "synthesis express" : "synthesis " + std::to_string(index);
  thread_pool& pool = express ? *express_pool_ : *synth_pool_;
  mutex_lock lk(mu_);
  for (;;) {
    if (exit_) return;
    // While an express job waits for memory, a regular job does not start its PREPARE (which
    // would pin parameters on every worker, engine_impl::express_waiting_for_memory_).
    const bool hold_prepares = express_waiting_for_memory_ > 0;
    auto it = fair_pick_locked(
        synth_queue_, SYNTHESIS_STAGE, [](const auto& e) -> const job& { return *e->second; },
        [express, hold_prepares](const auto& e) {
          if (express_job(*e->second)) return true;
          return !express && !(hold_prepares && e->first.partition == PREPARE);
        });
    if (it == synth_queue_.end()) {
      cv_.wait(mu_);
      continue;
    }
    const task_key key = it->first;
    std::shared_ptr<job> j = it->second;
    if (key.partition == PREPARE) {
      take_locked(*j, SYNTHESIS_STAGE);
      synth_queue_.erase(it);
      run_prepare_locked(j, lane, pool);
      continue;
    }
    // Do not run far ahead of the provers, unless this task outranks what waits for them.
    if (prover_queue_.size() >= lookahead_ && key.prio <= prover_queue_.begin()->first.prio) {
      cv_.wait(mu_);
      continue;
    }
    auto buf = take_buffer_locked(j->prepared->shape(), j->plan != nullptr);
    if (!buf) {
      // Waits for a release (notified) or for idle parameters to become evictable.
      cv_.wait_for(mu_, std::chrono::seconds(1));
      continue;
    }
    take_locked(*j, SYNTHESIS_STAGE);
    synth_queue_.erase(it);
    run_synthesis_locked(j, unsigned(key.partition), std::move(buf), lane, pool);
  }
}

cuzk::status engine_impl::check_fits_locked(const job& j, uint64_t pinned_host) const {
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

void engine_impl::run_prepare_locked(const std::shared_ptr<job>& j, const std::string& lane,
                                     thread_pool& pool) {
  ++j->in_flight;
  prepare_stage_locked(j, lane, pool);
  --j->in_flight;
  if (j->stopping()) settle_locked(*j);
}

void engine_impl::prepare_stage_locked(const std::shared_ptr<job>& j, const std::string& lane,
                                       thread_pool& pool) {
  j->state = job_state::running;
  const auto t0 = clock_type::now();
  mu_.unlock();
  auto prepared = guarded([&] { return j->handler->prepare(*j->request, cfg_.param_dir, pool); });
  mu_.lock();
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
  if (cfg_.compiled_abc) j->plan = plan_of_locked(*j, lane);
  if (j->stopping()) return;  // cancelled while the plan compiled
  if (cuzk::status s = check_fits_locked(*j, 0); !s) {
    fail_locked(*j, s);
    return;
  }
  // Parameters (and the plan) on every healthy prover worker, pinned for the job's lifetime:
  // loaded before any of its partitions takes a buffer, so a load never waits on buffers that
  // wait on it.
  const auto t1 = clock_type::now();
  if (cuzk::status s = load_on_workers_locked(j); !s) {
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

std::shared_ptr<const compiled_plan> engine_impl::plan_of_locked(job& j, const std::string& lane) {
  // Per kind and parameter file: two kinds may prove with one file, not both with a plan.
  const std::string key = std::string(to_string(j.kind)) + ":" + j.prepared->circuit().params_path;
  for (;;) {
    plan_slot& slot = plans_[key];
    if (slot.compiled || slot.failed) return slot.compiled;
    if (!slot.compiling) break;
    cv_.wait(mu_);
  }
  plans_[key].compiling = true;
  const prepared_proof& pp = *j.prepared;
  const auto t0 = clock_type::now();
  mu_.unlock();
  std::shared_ptr<compiled_plan> made;
  cuzk::status st = guarded([&] {
    auto plan = pp.compile_plan();
    if (!plan) return plan.error();
    made = std::make_shared<compiled_plan>();
    made->densities = plan->densities();
    made->bytes = plan->size().bytes + made->densities.a_aux.capacity_bytes() +
                  made->densities.b_input.capacity_bytes() + made->densities.b_aux.capacity_bytes();
    made->plan = std::make_shared<const r1cs::abc_plan>(std::move(*plan));
    return cuzk::status();
  });
  mu_.lock();
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

void engine_impl::run_synthesis_locked(const std::shared_ptr<job>& j, unsigned k,
                                       std::unique_ptr<synthesis_buffer> buf,
                                       const std::string& lane, thread_pool& pool) {
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
  std::vector<filecoin::proofs::prover_backend*> pinners;
  for (srs_entry* e : j->pins)
    if (e->backend) pinners.push_back(e->backend.get());
  mu_.unlock();
  cuzk::status st = guarded([&] {
    cuzk::status s = synthesize_partition(pp, k, *buf, plan != nullptr, pool);
    if (s.ok() && plan) s = check_witness_fits(buf->wcs, *plan->plan);
    if (s.ok()) s = check_public_inputs(pp, k, plan ? buf->wcs.inputs() : buf->cs.inputs());
    if (s.ok() && plan) pin_witness(*buf, pinners);
    return s;
  });
  const uint64_t capacity = buf->capacity_bytes();
  mu_.lock();
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
    fail_locked(*j, cuzk::status(st.code(),
                                 "partition " + std::to_string(k) + " synthesis: " + st.message()));
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

cuzk::status engine_impl::synthesize_partition(const prepared_proof& pp, unsigned k,
                                               synthesis_buffer& buf, bool witness_only,
                                               thread_pool& pool) {
  const synthesis_shape shape = pp.shape();
  buf.witness_only = witness_only;
  if (witness_only) {
    buf.cs = r1cs::proving_cs();  // a buffer of the other kind gives its storage back
    buf.wcs.reset();
    // reserve() moves storage that is too small: unlocked first.
    if (buf.wcs.aux_storage().size() < shape.aux * sizeof(ff::fr_t)) buf.unpin();
    buf.wcs.reserve(shape.constraints, shape.aux, shape.inputs);
    return pp.synthesize_witness(k, buf.wcs, pool);
  }
  buf.unpin();
  buf.wcs = r1cs::witness_cs();
  buf.cs.reset();
  buf.cs.reserve(shape.constraints, shape.aux, shape.inputs);
  cuzk::status s = pp.synthesize(k, buf.cs, pool);
  if (s.ok()) buf.cs.finalize();
  return s;
}

cuzk::status engine_impl::check_public_inputs(const prepared_proof& pp, unsigned k,
                                              std::span<const ff::fr_t> inputs) {
  const std::string blame = pp.inconsistent_input();
  if (blame.empty()) return {};
  auto want = pp.public_inputs(k);
  if (!want) return want.error();
  if (inputs.size() == want->size() + 1 &&
      std::equal(want->begin(), want->end(), inputs.begin() + 1))
    return {};
  return cuzk::status(status_code::invalid_argument,
                      "the circuit's public inputs differ from the derived ones: " + blame);
}

void engine_impl::pin_witness(synthesis_buffer& buf,
                              const std::vector<filecoin::proofs::prover_backend*>& pinners) {
  if (buf.pin_is_current()) return;
  if (buf.aux_pin) {
    logf(cfg_.log, log_level::warn, "engine: a page-locked witness buffer moved; locking again");
    buf.unpin();
  }
  const std::span<const std::byte> storage = buf.wcs.aux_storage();
  for (filecoin::proofs::prover_backend* b : pinners) {
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

cuzk::status engine_impl::check_witness_fits(const r1cs::witness_cs& w,
                                             const r1cs::abc_plan& plan) {
  if (w.num_inputs() == plan.num_inputs() && w.num_aux() == plan.num_aux() &&
      w.num_constraints() == plan.num_constraints())
    return {};
  return cuzk::status(
      status_code::internal,
      "the witness (" + std::to_string(w.num_constraints()) + " constraints, " +
          std::to_string(w.num_aux()) + " aux, " + std::to_string(w.num_inputs()) +
          " inputs) is not the compiled plan's (" + std::to_string(plan.num_constraints()) + ", " +
          std::to_string(plan.num_aux()) + ", " + std::to_string(plan.num_inputs()) + ")");
}

}  // namespace cuzk::engine
