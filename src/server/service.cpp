// SPDX-License-Identifier: Apache-2.0
// cuzk.v1.ProvingEngine on the engine (service.hpp).
#include "server/service.hpp"

#include <algorithm>

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;
using v1_status = cuzk::v1::AwaitProofResponse;

uint64_t ms(double v) {
  return v > 0 ? uint64_t(v + 0.5) : 0;
}

// The wire's checks on fixed-size fields (docs/spec/wire.md §3): empty or exactly 32 bytes.
status check_32(const std::string& bytes, const char* field) {
  if (bytes.empty() || bytes.size() == 32) return status();
  return status(status_code::invalid_argument,
                std::string(field) + " must be 32 bytes, got " + std::to_string(bytes.size()));
}

void fill(const engine::job_result& r, cuzk::v1::AwaitProofResponse* resp) {
  resp->set_job_id(r.job_id);
  switch (r.state) {
    case engine::job_state::completed:
      resp->set_status(v1_status::COMPLETED);
      resp->set_proof(std::string(r.proof.begin(), r.proof.end()));
      break;
    case engine::job_state::failed:
      resp->set_status(v1_status::FAILED);
      resp->set_error_message(r.error.to_string());
      break;
    case engine::job_state::cancelled:
      resp->set_status(v1_status::CANCELLED);
      resp->set_error_message(r.error.to_string());
      break;
    case engine::job_state::queued:
    case engine::job_state::running:
      resp->set_status(v1_status::TIMEOUT);
      resp->set_error_message("job " + r.job_id + " is " + std::string(engine::to_string(r.state)) +
                              "; await it again");
      break;
  }
  const auto& t = r.timings;
  resp->set_queue_wait_ms(ms(t.queue_wait));
  resp->set_srs_load_ms(ms(t.srs_load));
  resp->set_synthesis_ms(ms(t.synthesis));
  resp->set_gpu_compute_ms(ms(t.prove + t.finalize));
  resp->set_total_ms(ms(t.total));
}

// The tenant on the job's log line (the engine keys the job by it too).
void log_submission(const log_sink& log, const caller& who, const std::string& peer,
                    const cuzk::v1::SubmitProofRequest& r) {
  logf(log, log_level::info, "request %s (kind %d) from tenant %s (%s)", r.request_id().c_str(),
       int(r.proof_kind()), who.tenant.c_str(), peer.c_str());
}

}  // namespace

grpc::Status to_grpc(const status& s) {
  switch (s.code()) {
    case status_code::ok:
      return grpc::Status::OK;
    case status_code::not_found:
      return {grpc::StatusCode::NOT_FOUND, s.message()};
    case status_code::resource_exhausted:
      return {grpc::StatusCode::RESOURCE_EXHAUSTED, s.message()};
    case status_code::unavailable:
      return {grpc::StatusCode::UNAVAILABLE, s.message()};
    case status_code::cancelled:
      return {grpc::StatusCode::CANCELLED, s.message()};
    case status_code::io_error:
    case status_code::internal:
      return {grpc::StatusCode::INTERNAL, s.message()};
    default:
      return {grpc::StatusCode::INVALID_ARGUMENT, s.to_string()};
  }
}

result<engine::proof_request> from_wire(const cuzk::v1::SubmitProofRequest& r) {
  const int kind = r.proof_kind();
  if (kind < 1 || kind > 4)
    return status(status_code::invalid_argument, "invalid proof_kind: " + std::to_string(kind));
  for (const auto& [bytes, field] :
       {std::pair{&r.randomness(), "randomness"}, std::pair{&r.comm_r_old(), "comm_r_old"},
        std::pair{&r.comm_r_new(), "comm_r_new"}, std::pair{&r.comm_d_new(), "comm_d_new"}}) {
    if (status s = check_32(*bytes, field); !s) return s;
  }
  const int prio = r.priority();
  if (prio < 0 || prio > 4)
    return status(status_code::invalid_argument, "invalid priority: " + std::to_string(prio));
  engine::proof_request out;
  out.request_id = r.request_id();
  out.kind = engine::proof_kind(kind);
  out.sector_size = r.sector_size();
  out.registered_proof = r.registered_proof();
  out.prio = engine::priority(prio);
  out.vanilla_proof.assign(r.vanilla_proof().begin(), r.vanilla_proof().end());
  out.vanilla_proofs.reserve(size_t(r.vanilla_proofs_size()));
  for (const auto& v : r.vanilla_proofs()) out.vanilla_proofs.emplace_back(v.begin(), v.end());
  out.sector_number = r.sector_number();
  out.miner_id = r.miner_id();
  out.randomness.assign(r.randomness().begin(), r.randomness().end());
  out.partition_index = r.partition_index();
  out.comm_r_old.assign(r.comm_r_old().begin(), r.comm_r_old().end());
  out.comm_r_new.assign(r.comm_r_new().begin(), r.comm_r_new().end());
  out.comm_d_new.assign(r.comm_d_new().begin(), r.comm_d_new().end());
  return out;
}

admission proving_service::caller_of(const grpc::ServerContext& ctx, bool writes) const {
  call_credentials c;
  const std::string peer = ctx.peer();
  c.peer = peer;
  const auto& md = ctx.client_metadata();
  std::string authorization;
  if (auto it = md.find("authorization"); it != md.end()) {
    authorization.assign(it->second.data(), it->second.size());
    c.authorization = authorization;
  }
  std::string certificate_name;
  if (policy_.client_certificates) {
    if (const auto auth = ctx.auth_context(); auth && auth->IsPeerAuthenticated()) {
      const auto names = auth->FindPropertyValues("x509_common_name");
      if (!names.empty()) certificate_name.assign(names.front().data(), names.front().size());
      // A verified certificate without a common name still authenticates its holder.
      if (certificate_name.empty()) certificate_name = "client-certificate";
    }
  }
  c.client_certificate_name = certificate_name;
  const std::shared_ptr<const token_table> tokens = tokens_ ? tokens_->get() : nullptr;
  return admit(policy_, tokens.get(), c, writes);
}

grpc::Status proving_service::admit_call(const grpc::ServerContext* ctx, bool writes,
                                         const char* rpc, caller* who) const {
  admission a = caller_of(*ctx, writes);
  if (a.refused == refusal::none) {
    if (who) *who = std::move(a.who);
    return grpc::Status::OK;
  }
  logf(log_, log_level::info, "%s from %s refused: %s", rpc, ctx->peer().c_str(),
       a.message.c_str());
  return {a.refused == refusal::unauthenticated ? grpc::StatusCode::UNAUTHENTICATED
                                                : grpc::StatusCode::PERMISSION_DENIED,
          a.message};
}

grpc::Status proving_service::submit(const cuzk::v1::SubmitProofRequest& req, const caller& who,
                                     engine::submit_result* out) {
  if (!accepting_) return {grpc::StatusCode::UNAVAILABLE, "the daemon is draining: no new proofs"};
  auto r = from_wire(req);
  if (!r) return to_grpc(r.error());
  r->tenant = who.tenant;
  auto sub = engine_.submit(std::move(*r));
  if (!sub) return to_grpc(sub.error());
  *out = *sub;
  return grpc::Status::OK;
}

grpc::Status proving_service::wait_for(grpc::ServerContext* ctx, const std::string& tenant,
                                       const std::string& job_id, std::chrono::milliseconds timeout,
                                       cuzk::v1::AwaitProofResponse* resp) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    // Short slices: a client that disconnects (or whose deadline fires) frees this thread
    // within a second; the job goes on either way.
    auto slice = 1000ms;
    if (timeout.count() > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      slice = std::clamp(left, 0ms, slice);
    }
    auto r = engine_.await(tenant, job_id, slice);
    if (!r) return to_grpc(r.error());
    const bool ended =
        r->state != engine::job_state::queued && r->state != engine::job_state::running;
    if (ended || (timeout.count() > 0 && std::chrono::steady_clock::now() >= deadline)) {
      fill(*r, resp);
      return grpc::Status::OK;
    }
    if (ctx->IsCancelled())
      return {grpc::StatusCode::CANCELLED, "the client went away; job " + job_id + " goes on"};
  }
}

grpc::Status proving_service::SubmitProof(grpc::ServerContext* ctx,
                                          const cuzk::v1::SubmitProofRequest* req,
                                          cuzk::v1::SubmitProofResponse* resp) {
  caller who;
  if (auto s = admit_call(ctx, true, "SubmitProof", &who); !s.ok()) return s;
  log_submission(log_, who, ctx->peer(), *req);
  engine::submit_result sub;
  if (auto s = submit(*req, who, &sub); !s.ok()) return s;
  resp->set_job_id(sub.job_id);
  resp->set_queue_position(sub.queue_position);
  return grpc::Status::OK;
}

grpc::Status proving_service::AwaitProof(grpc::ServerContext* ctx,
                                         const cuzk::v1::AwaitProofRequest* req,
                                         cuzk::v1::AwaitProofResponse* resp) {
  caller who;
  if (auto s = admit_call(ctx, false, "AwaitProof", &who); !s.ok()) return s;
  return wait_for(ctx, who.tenant, req->job_id(), std::chrono::milliseconds(req->timeout_ms()),
                  resp);
}

grpc::Status proving_service::Prove(grpc::ServerContext* ctx, const cuzk::v1::ProveRequest* req,
                                    cuzk::v1::ProveResponse* resp) {
  caller who;
  if (auto s = admit_call(ctx, true, "Prove", &who); !s.ok()) return s;
  if (!req->has_submit()) return {grpc::StatusCode::INVALID_ARGUMENT, "missing submit field"};
  log_submission(log_, who, ctx->peer(), req->submit());
  engine::submit_result sub;
  if (auto s = submit(req->submit(), who, &sub); !s.ok()) return s;
  return wait_for(ctx, who.tenant, sub.job_id, 0ms, resp->mutable_result());
}

grpc::Status proving_service::CancelProof(grpc::ServerContext* ctx,
                                          const cuzk::v1::CancelProofRequest* req,
                                          cuzk::v1::CancelProofResponse* resp) {
  caller who;
  if (auto s = admit_call(ctx, true, "CancelProof", &who); !s.ok()) return s;
  auto r = engine_.cancel(who.tenant, req->job_id(), "cancelled by request");
  if (!r) return to_grpc(r.error());
  resp->set_was_running(*r);
  return grpc::Status::OK;
}

grpc::Status proving_service::GetStatus(grpc::ServerContext* ctx, const cuzk::v1::GetStatusRequest*,
                                        cuzk::v1::GetStatusResponse* resp) {
  caller who;
  if (auto s = admit_call(ctx, false, "GetStatus", &who); !s.ok()) return s;
  const engine::engine_status st = engine_.status();
  // One entry per prover lane, as Rust has one per GPU worker (a device listed once per lane).
  for (const auto& w : st.workers) {
    if (w.device < 0) continue;
    for (const auto& lane : w.lanes) {
      auto* g = resp->add_gpus();
      g->set_ordinal(uint32_t(w.device));
      g->set_name(w.device_name);
      g->set_vram_total_bytes(w.device_total_bytes);
      // What the engine has not committed of its budget on the device.
      g->set_vram_free_bytes(w.device_budget > w.device_used ? w.device_budget - w.device_used : 0);
      // Another tenant's job shows as an idle lane: its id and kind are that tenant's business.
      if (!lane.current_job.empty() && lane.current_tenant == who.tenant) {
        g->set_current_job_id(lane.current_job);
        g->set_current_proof_kind(std::string(engine::to_string(lane.current_kind)));
      }
    }
  }
  for (const auto& s : st.srs) {
    auto* e = resp->add_loaded_srs();
    e->set_circuit_id(s.circuit_id);
    e->set_tier(cuzk::v1::SRSStatus::HOT);
    e->set_size_bytes(s.bytes);
    e->set_ref_count(s.ref_count);
    e->set_loading(s.loading);
    e->set_loaded_bytes(s.loaded_bytes);
    if (s.loading) {
      e->set_load_elapsed_ms(uint64_t(std::max(0.0, st.uptime_seconds - s.load_started) * 1e3));
    }
  }
  for (const auto& q : st.queues) {
    auto* e = resp->add_queues();
    e->set_proof_kind(std::string(engine::to_string(q.kind)));
    e->set_pending(q.pending);
    e->set_in_progress(q.in_progress);
  }
  resp->set_total_proofs_completed(st.completed);
  resp->set_total_proofs_failed(st.failed);
  resp->set_uptime_seconds(uint64_t(st.uptime_seconds));
  // No separate pinned pool: the engine's host budget is the closest truthful figure.
  resp->set_pinned_memory_bytes(st.host_used);
  resp->set_pinned_memory_limit_bytes(st.host_budget);
  return grpc::Status::OK;
}

grpc::Status proving_service::GetMetrics(grpc::ServerContext* ctx,
                                         const cuzk::v1::GetMetricsRequest*,
                                         cuzk::v1::GetMetricsResponse* resp) {
  if (auto s = admit_call(ctx, false, "GetMetrics"); !s.ok()) return s;
  resp->set_prometheus_text(metrics_.prometheus_text(engine_.status()));
  return grpc::Status::OK;
}

grpc::Status proving_service::PreloadSRS(grpc::ServerContext* ctx,
                                         const cuzk::v1::PreloadSrsRequest* req,
                                         cuzk::v1::PreloadSrsResponse* resp) {
  if (auto s = admit_call(ctx, true, "PreloadSRS"); !s.ok()) return s;
  const auto t0 = std::chrono::steady_clock::now();
  auto r = engine_.preload(req->circuit_id());
  if (!r) return to_grpc(r.error());
  resp->set_already_loaded(!*r);
  resp->set_load_time_ms(uint64_t(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count()));
  return grpc::Status::OK;
}

grpc::Status proving_service::EvictSRS(grpc::ServerContext* ctx,
                                       const cuzk::v1::EvictSrsRequest* req,
                                       cuzk::v1::EvictSrsResponse* resp) {
  if (auto s = admit_call(ctx, true, "EvictSRS"); !s.ok()) return s;
  auto r = engine_.evict(req->circuit_id());
  if (!r) return to_grpc(r.error());
  resp->set_was_loaded(*r > 0);
  resp->set_freed_bytes(*r);
  return grpc::Status::OK;
}

}  // namespace cuzk::server
