// SPDX-License-Identifier: Apache-2.0
// cuzk.v1.ProvingEngine on the engine (proto/cuzk/v1/proving.proto, docs/spec/wire.md §2 and §1,
// docs/spec/wire.md): every RPC real. Proof failures travel in-band (AwaitProofResponse status
// FAILED with the reason); gRPC errors are for requests that cannot be served (a bad kind or
// payload: INVALID_ARGUMENT; an unknown id: NOT_FOUND; shutting down: UNAVAILABLE; a budget that
// can never hold it: RESOURCE_EXHAUSTED). A client that goes away leaves its job running; an
// identical retry attaches to it (the engine's idempotency). Every RPC first admits its caller
// (security.hpp admit: UNAUTHENTICATED, PERMISSION_DENIED) and names the tenant in the log.
// Jobs are the caller's tenant's (engine.hpp "Tenants"): AwaitProof and CancelProof of another
// tenant's id answer NOT_FOUND, exactly as for an id never submitted, and GetStatus names only
// the caller's own jobs on the GPUs; a tenant past its max_in_flight or max_queued_bytes gets
// RESOURCE_EXHAUSTED saying which.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>

#include "cuzk/engine.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "server/metrics.hpp"
#include "server/security.hpp"

namespace cuzk::server {

/// The gRPC status for an engine error.
grpc::Status to_grpc(const status& s);

/// The engine request for a wire request (the kind's number checked; bytes copied as sent).
result<engine::proof_request> from_wire(const cuzk::v1::SubmitProofRequest& r);

class proving_service final : public cuzk::v1::ProvingEngine::Service {
 public:
  proving_service(engine::proving_engine& engine, metrics& m, access_policy policy = {},
                  const token_store* tokens = nullptr, log_sink log = {})
      : engine_(engine), metrics_(m), policy_(policy), tokens_(tokens), log_(std::move(log)) {}

  /// Who makes this call, or why it is refused: the peer, the `authorization` metadata and, with
  /// mutual TLS, the verified client certificate's common name. `writes`: the call changes
  /// state (submit, cancel, preload, evict), which read-only tokens may not.
  admission caller_of(const grpc::ServerContext& ctx, bool writes) const;

  /// New Submit/Prove calls answer UNAVAILABLE from now on (draining); waits already running
  /// go on.
  void stop_accepting() { accepting_ = false; }
  bool accepting() const { return accepting_; }

  grpc::Status SubmitProof(grpc::ServerContext* ctx, const cuzk::v1::SubmitProofRequest* req,
                           cuzk::v1::SubmitProofResponse* resp) override;
  grpc::Status AwaitProof(grpc::ServerContext* ctx, const cuzk::v1::AwaitProofRequest* req,
                          cuzk::v1::AwaitProofResponse* resp) override;
  grpc::Status Prove(grpc::ServerContext* ctx, const cuzk::v1::ProveRequest* req,
                     cuzk::v1::ProveResponse* resp) override;
  grpc::Status CancelProof(grpc::ServerContext* ctx, const cuzk::v1::CancelProofRequest* req,
                           cuzk::v1::CancelProofResponse* resp) override;
  grpc::Status GetStatus(grpc::ServerContext* ctx, const cuzk::v1::GetStatusRequest* req,
                         cuzk::v1::GetStatusResponse* resp) override;
  grpc::Status GetMetrics(grpc::ServerContext* ctx, const cuzk::v1::GetMetricsRequest* req,
                          cuzk::v1::GetMetricsResponse* resp) override;
  grpc::Status PreloadSRS(grpc::ServerContext* ctx, const cuzk::v1::PreloadSrsRequest* req,
                          cuzk::v1::PreloadSrsResponse* resp) override;
  grpc::Status EvictSRS(grpc::ServerContext* ctx, const cuzk::v1::EvictSrsRequest* req,
                        cuzk::v1::EvictSrsResponse* resp) override;

 private:
  // Waits for a job until it ends, `timeout` passes (zero: no limit) or the client goes away;
  // fills `resp` (TIMEOUT when it did not end in time). CANCELLED when the client went away.
  grpc::Status wait_for(grpc::ServerContext* ctx, const std::string& tenant,
                        const std::string& job_id, std::chrono::milliseconds timeout,
                        cuzk::v1::AwaitProofResponse* resp);
  grpc::Status submit(const cuzk::v1::SubmitProofRequest& req, const caller& who,
                      engine::submit_result* out);

  // caller_of as a gRPC status: OK, or the refusal (logged with the peer, never the token).
  grpc::Status admit_call(const grpc::ServerContext* ctx, bool writes, const char* rpc,
                          caller* who = nullptr) const;

  engine::proving_engine& engine_;
  metrics& metrics_;
  access_policy policy_;
  const token_store* tokens_;
  log_sink log_;
  std::atomic<bool> accepting_{true};
};

}  // namespace cuzk::server
