// SPDX-License-Identifier: Apache-2.0
// The daemon's life (daemon.hpp).
#include "server/daemon.hpp"

#include <grpcpp/ext/health_check_service_server_builder_option.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <httplib.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "pipeline_page_html.hpp"
#include "server/metrics.hpp"
#include "server/security.hpp"
#include "server/service.hpp"
#include "server/status_json.hpp"
#include "server/tls.hpp"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

constexpr int MAX_MESSAGE_BYTES = 320 << 20;  // Curio sends up to 256 MiB
// Curio sends no metadata; a token is well under 1 KiB. Larger headers are refused by gRPC.
constexpr int MAX_METADATA_BYTES = 16 << 10;

// The status listener against slow or idle clients: a request's bytes must keep coming (each
// read waits at most this long), an idle keep-alive connection closes after the same time, and
// every connection has a thread of its own up to the cap.
constexpr auto HTTP_READ_TIMEOUT = std::chrono::seconds(2);
constexpr auto HTTP_WRITE_TIMEOUT = std::chrono::seconds(10);
constexpr size_t HTTP_KEEP_ALIVE_REQUESTS = 100;
constexpr size_t HTTP_MAX_THREADS = 512;
constexpr size_t HTTP_MAX_BODY_BYTES = 64 << 10;  // every route is a GET

// cpp-httplib's default pool has max(8, cores - 1) threads and queues the rest, so 200 idle,
// half-sent requests kept GET /status waiting for minutes. Here a connection gets its own thread
// while fewer than `max_threads` run (a thread idle for 10 s ends), so idle connections cost
// threads but never delay the others; past the cap, connections wait for a thread.
class connection_threads final : public httplib::TaskQueue {
 public:
  explicit connection_threads(size_t max_threads) : max_threads_(max_threads) {}

  void enqueue(std::function<void()> fn) override {
    std::lock_guard lock(mu_);
    pending_.push_back(std::move(fn));
    // Every waiting connection has an idle thread on its way to it, or gets a new one.
    if (pending_.size() > idle_ && live_ < max_threads_) {
      ++live_;
      std::thread([this] { run(); }).detach();
    } else {
      work_.notify_one();
    }
  }

  void shutdown() override {
    std::unique_lock lock(mu_);
    stopping_ = true;
    work_.notify_all();
    ended_.wait(lock, [&] { return live_ == 0; });
  }

 private:
  void run() {
    std::unique_lock lock(mu_);
    for (;;) {
      if (pending_.empty()) {
        if (stopping_) break;
        ++idle_;
        const bool woken = work_.wait_for(lock, std::chrono::seconds(10),
                                          [&] { return stopping_ || !pending_.empty(); });
        --idle_;
        if (!woken) break;  // idle for 10 s
        continue;
      }
      std::function<void()> fn = std::move(pending_.front());
      pending_.pop_front();
      lock.unlock();
      fn();
      lock.lock();
    }
    // The last touch of this object, under the lock: shutdown() returns only after it.
    --live_;
    ended_.notify_all();
  }

  const size_t max_threads_;
  std::mutex mu_;
  std::condition_variable work_, ended_;
  std::deque<std::function<void()>> pending_;
  size_t live_ = 0, idle_ = 0;
  bool stopping_ = false;
};

// SIGHUP: the tokens and the TLS files read again; a file that does not load leaves what is in
// force and says why in the log.
void reload(const daemon_options& opt, token_store& tokens, grpc_tls_stage* grpc_tls,
            http_tls_context* http_tls) {
  if (!opt.auth_tokens_file.empty()) {
    std::string warning;
    auto t = token_table::load(opt.auth_tokens_file, &warning);
    if (!t) {
      logf(opt.log, log_level::error, "SIGHUP: %s; the previous tokens stay in force",
           t.error().to_string().c_str());
    } else {
      const size_t n = t->size();
      tokens.set(std::make_shared<const token_table>(std::move(*t)));
      logf(opt.log, log_level::info, "SIGHUP: %zu token(s) loaded from %s", n,
           opt.auth_tokens_file.c_str());
      if (!warning.empty()) logf(opt.log, log_level::warn, "%s", warning.c_str());
    }
  }
  if (!opt.tls_cert_file.empty()) {
    auto files = load_tls_files(opt.tls_cert_file, opt.tls_key_file, opt.tls_client_ca_file);
    status s = files ? status() : files.error();
    if (s && grpc_tls) s = grpc_tls->stage(*files);
    if (s && http_tls) s = http_tls->reload(*files);
    if (!s) {
      logf(opt.log, log_level::error, "SIGHUP: %s; the previous certificates stay in force",
           s.to_string().c_str());
    } else {
      logf(opt.log, log_level::info, "SIGHUP: TLS certificate and key reloaded from %s",
           opt.tls_cert_file.c_str());
    }
  }
}

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
  sigaddset(&stop_signals, SIGHUP);  // a reload, taken by the same thread
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  // A peer that closes its connection while the daemon writes to it (a client refused in a TLS
  // handshake, a scraper gone mid-response) must cost one EPIPE, never the process: OpenSSL's
  // writes do not pass MSG_NOSIGNAL.
  ::signal(SIGPIPE, SIG_IGN);
  // Every connection, idle or not, holds a descriptor. At the usual soft limit of 1024 (systemd's
  // and most shells' default) a thousand idle connections would make accept() fail for every
  // other client; the hard limit (systemd: 524288) is the process's to take, as systemd.exec(5)
  // advises a service that needs many. Issue #37, daemon_security_e2e_test.
  if (rlimit files{}; ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    const rlim_t soft = files.rlim_cur;
    files.rlim_cur = files.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &files) == 0) {
      logf(opt.log, log_level::debug, "open files limit raised from %llu to %llu",
           static_cast<unsigned long long>(soft), static_cast<unsigned long long>(files.rlim_max));
    } else {
      logf(opt.log, log_level::warn, "open files limit stays at %llu (setrlimit refused)",
           static_cast<unsigned long long>(soft));
    }
  }

  auto address = grpc_address(opt.listen);
  if (!address) return address.error();
  std::string socket_path;
  if (opt.listen.rfind("unix://", 0) == 0) {
    socket_path = opt.listen.substr(7);
    if (status s = prepare_socket_path(socket_path); !s) return s;
  }

  access_policy policy;
  policy.tcp = socket_path.empty();
  if (policy.tcp) {
    auto hp = host_port(opt.listen);
    policy.loopback_listen = hp && is_loopback_host(hp->first);
  }
  policy.tls = !opt.tls_cert_file.empty();
  policy.client_certificates = !opt.tls_client_ca_file.empty();
  policy.tokens = !opt.auth_tokens_file.empty();
  policy.allow_insecure_tcp = opt.allow_insecure_tcp;
  if (opt.tls_cert_file.empty() != opt.tls_key_file.empty() ||
      (policy.client_certificates && !policy.tls)) {
    return status(status_code::invalid_argument,
                  "tls_cert_file and tls_key_file go together, and tls_client_ca_file needs them");
  }
  token_store tokens;
  if (policy.tokens) {
    std::string warning;
    auto t = token_table::load(opt.auth_tokens_file, &warning);
    if (!t) return status(status_code::invalid_argument, t.error().message());
    if (!warning.empty()) logf(opt.log, log_level::warn, "%s", warning.c_str());
    logf(opt.log, log_level::info, "%zu token(s) loaded from %s", t->size(),
         opt.auth_tokens_file.c_str());
    tokens.set(std::make_shared<const token_table>(std::move(*t)));
  }
  std::unique_ptr<grpc_tls_stage> grpc_tls;
  std::shared_ptr<http_tls_context> http_tls;
  if (policy.tls) {
    auto files = load_tls_files(opt.tls_cert_file, opt.tls_key_file, opt.tls_client_ca_file);
    if (!files) return files.error();
    auto stage = grpc_tls_stage::create(*files);
    if (!stage) return stage.error();
    grpc_tls = std::move(*stage);
    auto ctx = http_tls_context::create(*files);
    if (!ctx) return ctx.error();
    http_tls = std::move(*ctx);
  }

  metrics m;
  // Tenant label values: the names of [tenants.NAME] and of the tokens file in force.
  const auto name_tenants_in_metrics = [&] {
    std::set<std::string> names;
    for (const auto& [name, policy] : opt.engine.tenants) names.insert(name);
    if (const std::shared_ptr<const token_table> t = tokens.get()) names.merge(t->tenants());
    m.set_tenant_names(std::move(names));
  };
  name_tenants_in_metrics();
  engine::engine_config ec = opt.engine;
  if (!ec.log) ec.log = opt.log;
  ec.on_job_end = [&m](engine::proof_kind k, const engine::job_result& r) { m.record(k, r); };
  auto eng = engine::proving_engine::create(ec);
  if (!eng) return eng.error();

  proving_service service(**eng, m, policy, &tokens, opt.log);
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  int bound_port = 0;
  builder.AddListeningPort(*address,
                           grpc_tls ? grpc_tls->credentials() : grpc::InsecureServerCredentials(),
                           &bound_port);
  builder.AddChannelArgument(GRPC_ARG_MAX_METADATA_SIZE, MAX_METADATA_BYTES);
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
  logf(opt.log, log_level::info, "cuzk.v1 serving on %s: %s", opt.listen.c_str(),
       access_summary(policy).c_str());

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
  int http_socket = -1;
  std::thread http_thread;
  if (!opt.status_listen.empty()) {
    auto hp = host_port(opt.status_listen);
    if (!hp) {
      server->Shutdown();
      (*eng)->shutdown();
      return hp.error();
    }
    if (http_tls) {
      http = std::make_unique<httplib::SSLServer>(
          [ctx = http_tls](SSL_CTX& ssl) { return ctx->setup(ssl); });
    } else {
      http = std::make_unique<httplib::Server>();
    }
    if (!http->is_valid()) {
      server->Shutdown();
      (*eng)->shutdown();
      return status(status_code::internal, "cannot set up TLS for the status listener");
    }
    http->set_read_timeout(HTTP_READ_TIMEOUT);
    http->set_write_timeout(HTTP_WRITE_TIMEOUT);
    http->set_keep_alive_timeout(HTTP_READ_TIMEOUT.count());
    http->set_keep_alive_max_count(HTTP_KEEP_ALIVE_REQUESTS);
    http->set_payload_max_length(HTTP_MAX_BODY_BYTES);
    http->new_task_queue = [] { return new connection_threads(HTTP_MAX_THREADS); };
    // The entry of the request's `Authorization: Bearer TOKEN` in t, or null.
    const auto token_entry_of = [](const httplib::Request& req,
                                   const token_table& t) -> const token_entry* {
      const std::string authorization = req.get_header_value("Authorization");
      const auto token = bearer_token(authorization);  // a view into `authorization`
      return token ? t.find(*token) : nullptr;
    };
    // With tokens, every route but the health check and the page's static HTML needs one (any
    // tenant's, read-only included): 401 otherwise, never saying which tokens exist.
    http->set_pre_routing_handler(
        [&tokens, &opt, token_entry_of](const httplib::Request& req, httplib::Response& res) {
          const std::shared_ptr<const token_table> t = tokens.get();
          if (!t || req.path == "/healthz" || req.path == "/")
            return httplib::Server::HandlerResponse::Unhandled;
          if (token_entry_of(req, *t) != nullptr)
            return httplib::Server::HandlerResponse::Unhandled;
          logf(opt.log, log_level::info, "HTTP %s from %s refused: no valid bearer token",
               req.path.c_str(), req.remote_addr.c_str());
          res.status = 401;
          res.set_header("WWW-Authenticate", "Bearer");
          res.set_content("this daemon requires the header Authorization: Bearer TOKEN\n",
                          "text/plain; charset=utf-8");
          return httplib::Server::HandlerResponse::Handled;
        });
    engine::proving_engine* e = eng->get();
    // Whose jobs a status request may see: every tenant's without tokens or with an operator's
    // token, else its own tenant's (null: all). A token gone by a reload between the check
    // above and here sees no tenant's.
    const auto viewer =
        [&tokens, token_entry_of](const httplib::Request& req) -> std::optional<std::string> {
      const std::shared_ptr<const token_table> t = tokens.get();
      if (!t) return std::nullopt;
      const token_entry* entry = token_entry_of(req, *t);
      if (entry == nullptr) return std::string("\n");  // no tenant is named so
      if (entry->all_tenants) return std::nullopt;
      return entry->tenant;
    };
    // For load balancers: 200 while serving, 503 once draining (as grpc.health.v1 says).
    http->Get("/healthz", [&serving](const httplib::Request&, httplib::Response& res) {
      res.status = serving ? 200 : 503;
      res.set_header("Cache-Control", "no-store");
      res.set_content(serving ? "serving\n" : "draining\n", "text/plain; charset=utf-8");
    });
    http->Get("/status",
              [e, &serving, viewer](const httplib::Request& req, httplib::Response& res) {
                const auto who = viewer(req);
                engine::engine_status st = e->status();
                if (who) st = visible_to(std::move(st), *who);
                res.set_content(status_json(st, serving, current_rss_bytes()), "application/json");
              });
    http->Get("/timeline.json",
              [e, &serving, viewer](const httplib::Request& req, httplib::Response& res) {
                const auto who = viewer(req);
                engine::engine_status st = e->status();
                if (who) st = visible_to(std::move(st), *who);
                auto since = parse_since(req.get_param_value("since"), st.uptime_seconds);
                if (!since) {
                  res.status = 400;
                  res.set_content(since.error().message() + "\n", "text/plain; charset=utf-8");
                  return;
                }
                res.set_header("Cache-Control", "no-store");
                std::vector<engine::timeline_event> events = e->timeline(*since);
                if (who) events = visible_to(std::move(events), *who);
                res.set_content(timeline_json(events, st, serving, current_rss_bytes(), *since),
                                "application/json");
              });
    http->Get("/", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(reinterpret_cast<const char*>(pipeline_page_html), sizeof pipeline_page_html,
                      "text/html; charset=utf-8");
    });
    http->Get("/metrics", [e, &m](const httplib::Request&, httplib::Response& res) {
      res.set_content(m.prometheus_text(e->status()), "text/plain; version=0.0.4");
    });
    // cpp-httplib 0.11 listens with a backlog of 5: a burst of connections (a slow-loris, many
    // scrapers) overflows it and every further connect waits for a SYN retry (1 s, then 3 s).
    // The socket is kept here and listen() called again with the system's maximum. SO_REUSEADDR
    // only: httplib's default SO_REUSEPORT would let another process on the port take its
    // connections.
    http->set_socket_options([&http_socket](int fd) {
      const int yes = 1;
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
      http_socket = fd;
    });
    if (!http->bind_to_port(hp->first.c_str(), hp->second)) {
      server->Shutdown();
      (*eng)->shutdown();
      return status(status_code::io_error, "cannot listen on " + opt.status_listen);
    }
    if (http_socket >= 0 && ::listen(http_socket, SOMAXCONN) != 0)
      logf(opt.log, log_level::warn, "status listener: cannot raise the listen backlog");
    http_thread = std::thread([&] { http->listen_after_bind(); });
    logf(opt.log, log_level::info,
         "HTTP%s status on %s (/ the pipeline page, /timeline.json, /status, /metrics, "
         "/healthz)%s",
         http_tls ? "S" : "", opt.status_listen.c_str(),
         policy.tokens ? "; a bearer token needed but for / and /healthz" : "");
  }

  int sig = 0;
  for (;;) {
    sigwait(&stop_signals, &sig);
    if (sig != SIGHUP) break;
    reload(opt, tokens, grpc_tls.get(), http_tls.get());
    name_tenants_in_metrics();
  }
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
    (void)(*eng)->cancel(j.tenant, j.job_id,
                         "the daemon stopped before the job finished (drain timeout)");
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
