// SPDX-License-Identifier: Apache-2.0
// The daemon's life (daemon.hpp).
#include "server/daemon.hpp"

#include <grpcpp/ext/health_check_service_server_builder_option.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <httplib.h>
#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "pipeline_page_html.hpp"
#include "server/metrics.hpp"
#include "server/service.hpp"
#include "server/status_json.hpp"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

constexpr int MAX_MESSAGE_BYTES = 320 << 20;  // Curio sends up to 256 MiB

// Splits "host:port" / "[v6]:port" for the HTTP listener.
result<std::pair<std::string, int>> host_port(const std::string& s) {
  const size_t colon = s.rfind(':');
  if (colon == std::string::npos || colon + 1 == s.size())
    return status(status_code::invalid_argument, "status_listen '" + s + "': expected HOST:PORT");
  std::string host = s.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  int port = 0;
  for (char c : s.substr(colon + 1)) {
    if (c < '0' || c > '9' || port > 65535)
      return status(status_code::invalid_argument, "status_listen '" + s + "': bad port");
    port = port * 10 + (c - '0');
  }
  if (port < 1 || port > 65535)
    return status(status_code::invalid_argument, "status_listen '" + s + "': bad port");
  return std::make_pair(host, port);
}

// The socket file of a unix listen address: its directory created, a stale socket removed; a
// path that holds anything but a socket is refused (never deleted).
status prepare_socket_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::filesystem::create_directories(p.parent_path(), ec);
    if (ec) {
      return status(status_code::io_error,
                    "cannot create " + p.parent_path().string() + ": " + ec.message());
    }
  }
  struct stat sb {};
  if (::lstat(path.c_str(), &sb) == 0) {
    if (!S_ISSOCK(sb.st_mode)) {
      return status(status_code::invalid_argument,
                    path + " exists and is not a socket: refusing to replace it");
    }
    if (::unlink(path.c_str()) != 0)
      return status(status_code::io_error, "cannot remove the stale socket " + path);
  }
  return status();
}

}  // namespace

result<std::string> grpc_address(const std::string& listen) {
  if (listen.rfind("unix://", 0) == 0) {
    const std::string path = listen.substr(7);
    if (path.empty() || path.front() != '/')
      return status(status_code::invalid_argument,
                    "listen '" + listen + "': a unix socket needs an absolute path (unix:///...)");
    return "unix:" + path;
  }
  if (listen.find("://") != std::string::npos)
    return status(status_code::invalid_argument,
                  "listen '" + listen + "': expected unix:///path or HOST:PORT");
  auto hp = host_port(listen);
  if (!hp) return status(status_code::invalid_argument, "listen '" + listen + "': bad address");
  return listen;
}

status run_daemon(const daemon_options& opt) {
  // Signals go to the signal thread only: block them before any thread starts.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto address = grpc_address(opt.listen);
  if (!address) return address.error();
  std::string socket_path;
  if (opt.listen.rfind("unix://", 0) == 0) {
    socket_path = opt.listen.substr(7);
    if (status s = prepare_socket_path(socket_path); !s) return s;
  }

  metrics m;
  engine::engine_config ec = opt.engine;
  if (!ec.log) ec.log = opt.log;
  ec.on_job_end = [&m](engine::proof_kind k, const engine::job_result& r) { m.record(k, r); };
  auto eng = engine::proving_engine::create(ec);
  if (!eng) return eng.error();

  proving_service service(**eng, m);
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int bound_port = 0;
  builder.AddListeningPort(*address, grpc::InsecureServerCredentials(), &bound_port);
  builder.SetMaxReceiveMessageSize(MAX_MESSAGE_BYTES);
  builder.SetMaxSendMessageSize(MAX_MESSAGE_BYTES);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || (socket_path.empty() && bound_port == 0)) {
    (*eng)->shutdown();
    return status(status_code::io_error, "cannot listen on " + opt.listen);
  }
  if (!socket_path.empty() && ::chmod(socket_path.c_str(), 0660) != 0) {
    logf(opt.log, log_level::warn, "cannot set mode 0660 on %s", socket_path.c_str());
  }
  grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService();
  if (health) health->SetServingStatus(true);
  logf(opt.log, log_level::info, "cuzk.v1 serving on %s", opt.listen.c_str());

  // Parameters named by srs.preload, loaded in the background while the daemon already serves.
  std::thread preload_thread;
  if (!opt.preload.empty()) {
    engine::proving_engine* e = eng->get();
    preload_thread = std::thread([e, ids = opt.preload, log = opt.log] {
      for (const std::string& id : ids) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = e->preload(id);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
          logf(log, log_level::error, "srs.preload %s: %s", id.c_str(),
               r.error().to_string().c_str());
        } else {
          logf(log, log_level::info, "srs.preload %s: ready in %.1f s", id.c_str(), s);
        }
      }
    });
  }

  std::atomic<bool> serving{true};
  std::unique_ptr<httplib::Server> http;
  std::thread http_thread;
  if (!opt.status_listen.empty()) {
    auto hp = host_port(opt.status_listen);
    if (!hp) {
      server->Shutdown();
      (*eng)->shutdown();
      return hp.error();
    }
    http = std::make_unique<httplib::Server>();
    engine::proving_engine* e = eng->get();
    http->Get("/status", [e, &serving](const httplib::Request&, httplib::Response& res) {
      res.set_content(status_json(e->status(), serving, current_rss_bytes()), "application/json");
    });
    http->Get("/timeline.json", [e, &serving](const httplib::Request& req, httplib::Response& res) {
      const engine::engine_status st = e->status();
      auto since = parse_since(req.get_param_value("since"), st.uptime_seconds);
      if (!since) {
        res.status = 400;
        res.set_content(since.error().message() + "\n", "text/plain; charset=utf-8");
        return;
      }
      res.set_header("Cache-Control", "no-store");
      res.set_content(timeline_json(e->timeline(*since), st, serving, current_rss_bytes(), *since),
                      "application/json");
    });
    http->Get("/", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(reinterpret_cast<const char*>(pipeline_page_html), sizeof pipeline_page_html,
                      "text/html; charset=utf-8");
    });
    http->Get("/metrics", [e, &m](const httplib::Request&, httplib::Response& res) {
      res.set_content(m.prometheus_text(e->status()), "text/plain; version=0.0.4");
    });
    if (!http->bind_to_port(hp->first.c_str(), hp->second)) {
      server->Shutdown();
      (*eng)->shutdown();
      return status(status_code::io_error, "cannot listen on " + opt.status_listen);
    }
    http_thread = std::thread([&] { http->listen_after_bind(); });
    logf(opt.log, log_level::info,
         "HTTP status on %s (/ the pipeline page, /timeline.json, /status, /metrics)",
         opt.status_listen.c_str());
  }

  int sig = 0;
  sigwait(&stop_signals, &sig);
  logf(opt.log, log_level::info, "%s: draining (up to %lld s for accepted jobs)",
       sig == SIGTERM ? "SIGTERM" : "SIGINT",
       static_cast<long long>(
           std::chrono::duration_cast<std::chrono::seconds>(opt.drain_timeout).count()));
  service.stop_accepting();
  serving = false;
  if (health) health->SetServingStatus(false);

  const auto deadline = std::chrono::steady_clock::now() + opt.drain_timeout;
  while ((*eng)->status().jobs.size() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(100ms);
  const auto left = (*eng)->status().jobs;
  for (const auto& j : left) {
    (void)(*eng)->cancel(j.job_id, "the daemon stopped before the job finished (drain timeout)");
  }
  if (!left.empty()) {
    logf(opt.log, log_level::warn, "drain timeout: cancelled %zu unfinished job(s)", left.size());
  }
  // The engine finishes (cancelled jobs end at their next phase boundary), so every waiting
  // Prove/AwaitProof gets its answer before the server closes.
  (*eng)->shutdown();
  if (preload_thread.joinable()) preload_thread.join();
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (http) {
    http->stop();
    http_thread.join();
  }
  if (!socket_path.empty()) ::unlink(socket_path.c_str());
  logf(opt.log, log_level::info, "stopped");
  return status();
}

}  // namespace cuzk::server
