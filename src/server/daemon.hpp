// SPDX-License-Identifier: Apache-2.0
// The daemon's life: the engine, cuzk.v1 and grpc.health.v1 on one gRPC listener (a unix socket
// or TCP, h2c), the HTTP status listener (GET /status JSON, GET /metrics Prometheus text), and the
// graceful stop: on SIGTERM/SIGINT stop accepting, report NOT_SERVING, let accepted jobs finish
// for up to drain_timeout, cancel what is left with a status that says why, exit 0. Who may call
// (docs/security.md): protected mode, TLS and mutual TLS, bearer tokens on both listeners; SIGHUP
// reloads the certificates and the tokens while jobs go on. GET /healthz on the status listener
// answers 200 while serving and 503 while draining (for load balancers).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "cuzk/engine.hpp"
#include "cuzk/log.hpp"
#include "cuzk/status.hpp"

namespace cuzk::server {

struct daemon_options {
  /// `unix:///run/curio/cuzk.sock` (parent directory created, a stale socket removed, mode 0660)
  /// or `IP:port` / `[IPv6]:port`.
  std::string listen = "unix:///run/curio/cuzk.sock";
  /// HTTP status listener `IP:port`; empty: off.
  std::string status_listen;
  /// How long a stop waits for accepted jobs before cancelling them.
  std::chrono::milliseconds drain_timeout = std::chrono::minutes(10);
  engine::engine_config engine;
  /// Circuit ids loaded, in this order, once the daemon serves (srs.preload through
  /// preload_order: PoSt first); an id the engine does not know, or parameters that fail to
  /// load, are logged as errors.
  std::vector<std::string> preload;
  /// Serve non-loopback peers on a plaintext TCP listener (security.hpp protected_mode).
  bool allow_insecure_tcp = false;
  /// PEM files (tls.hpp); cert and key both or neither; a client CA: mutual TLS.
  std::string tls_cert_file, tls_key_file, tls_client_ca_file;
  /// Bearer tokens (security.hpp token_table); empty: none.
  std::string auth_tokens_file;
  log_sink log;
};

/// The gRPC target address for a listen string (`unix:///p` → `unix:/p`), or invalid_argument.
result<std::string> grpc_address(const std::string& listen);

/// Runs the daemon until SIGTERM or SIGINT (blocked in every thread and taken by a signal
/// thread; SIGHUP there reloads the TLS files and the tokens, a bad file keeping the old ones and
/// saying so), then drains and returns ok. Errors before serving (a bad address, a socket path that
/// is not a socket, a port in use, an engine that cannot start) are returned.
status run_daemon(const daemon_options& opt);

}  // namespace cuzk::server
