// SPDX-License-Identifier: Apache-2.0
// cuzk-daemon: the proving daemon Curio talks to (cuzk.v1 gRPC), flags as the Rust daemon's:
//   cuzk-daemon [-c/--config FILE] [-l/--listen ADDR] [--status-listen ADDR] [--log-level L]
//   cuzk-daemon --version
//   cuzk-daemon [-c FILE] [flags] --check-config
// The config file (default /data/zk/cuzk.toml; missing: defaults, said in the log) is cuzk.toml
// (src/server/config.hpp); flags override it. Exit codes: 0 after a graceful stop (SIGTERM or
// SIGINT), 1 when it cannot start or serve, 2 for a usage or configuration error.
// --check-config reads the file and the flags as a start would, prints any warning, and exits
// without serving: 0 valid with no warning, 1 valid with warnings (an unknown or deprecated key,
// a missing file), 2 invalid.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "base/printable.hpp"
#include "base/version.hpp"
#include "server/config.hpp"
#include "server/daemon.hpp"

namespace {

spdlog::level::level_enum to_spdlog(cuzk::log_level l) {
  switch (l) {
    case cuzk::log_level::trace:
      return spdlog::level::trace;
    case cuzk::log_level::debug:
      return spdlog::level::debug;
    case cuzk::log_level::info:
      return spdlog::level::info;
    case cuzk::log_level::warn:
      return spdlog::level::warn;
    case cuzk::log_level::error:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

int run(int argc, char** argv) {
  CLI::App app{"cuzk-daemon: the cuzk.v1 proving daemon"};
  std::string config_path(cuzk::server::default_config_path);
  std::string listen, status_listen, level;
  bool version = false;
  bool check_config = false;
  app.add_option("-c,--config", config_path, "cuzk.toml (missing: the defaults)")
      ->capture_default_str();
  app.add_option("-l,--listen", listen,
                 "gRPC address: unix:///path or HOST:PORT (overrides daemon.listen)");
  app.add_option("--status-listen", status_listen,
                 "HTTP status address HOST:PORT (overrides daemon.status_listen)");
  app.add_option("--log-level", level, "trace|debug|info|warn|error (overrides logging.level)");
  app.add_flag("--version", version, "print the version and exit");
  app.add_flag("--check-config", check_config,
               "read the config and flags, print warnings, exit: 0 valid, 1 warnings, 2 invalid");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (version) {
    std::printf("cuzk-daemon %s (commit %s)\n", cuzk::VERSION, cuzk::GIT_COMMIT);
    return 0;
  }

  auto logger = spdlog::stderr_color_mt("cuzk-daemon");
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);

  std::vector<std::string> warnings;
  auto cfg = cuzk::server::load_daemon_config(config_path, &warnings);
  if (!cfg) {
    spdlog::error("{}", cfg.error().to_string());
    return 2;
  }
  if (!listen.empty()) {
    auto a = cuzk::server::parse_listen_address("--listen", listen);
    if (!a) {
      spdlog::error("{}", a.error().to_string());
      return 2;
    }
    cfg->daemon.listen = *a;
  }
  if (!status_listen.empty()) {
    auto a = cuzk::server::parse_listen_address("--status-listen", status_listen);
    if (!a) {
      spdlog::error("{}", a.error().to_string());
      return 2;
    }
    cfg->daemon.status_listen = *a;
  }
  if (!level.empty()) {
    auto l = cuzk::server::parse_log_level("--log-level", level);
    if (!l) {
      spdlog::error("{}", l.error().to_string());
      return 2;
    }
    cfg->logging.level = *l;
  }
  logger->set_level(to_spdlog(cfg->logging.level));
  for (const auto& w : warnings) spdlog::warn("{}", w);
  if (check_config) {
    std::printf("%s: %s\n", config_path.c_str(),
                warnings.empty() ? "valid" : "valid, with the warnings above");
    return warnings.empty() ? 0 : 1;
  }

  // Messages carry text clients chose (request ids): control bytes are escaped, so one message
  // stays one log line.
  const cuzk::log_sink sink = [](cuzk::log_level l, std::string_view msg) {
    spdlog::log(to_spdlog(l), "{}", cuzk::printable(msg));
  };
  cuzk::server::daemon_options opt;
  opt.listen = cfg->daemon.listen.text;
  if (cfg->daemon.status_listen) opt.status_listen = cfg->daemon.status_listen->text;
  opt.drain_timeout = cfg->daemon.drain_timeout;
  opt.allow_insecure_tcp = cfg->daemon.allow_insecure_tcp;
  opt.tls_cert_file = cfg->daemon.tls_cert_file;
  opt.tls_key_file = cfg->daemon.tls_key_file;
  opt.tls_client_ca_file = cfg->daemon.tls_client_ca_file;
  opt.auth_tokens_file = cfg->daemon.auth_tokens_file;
  opt.engine = cuzk::server::to_engine_config(*cfg, sink);
  opt.preload = cuzk::server::preload_order(cfg->srs.preload);
  // The Rust cuzk's switch for its pre-compiled constraint evaluator (docs/spec/wire.md §8): here,
  // a, b, c synthesized on the host instead of evaluated from the compiled plan on the prover.
  if (const char* v = std::getenv("CUZK_DISABLE_PCE"); v && std::string_view(v) == "1") {
    opt.engine.compiled_abc = false;
    spdlog::info("CUZK_DISABLE_PCE=1: a, b, c are synthesized on the host");
  }
  opt.log = sink;
  spdlog::info("cuzk-daemon {} (commit {}), config {}", cuzk::VERSION, cuzk::GIT_COMMIT,
               config_path);
  if (cuzk::status s = cuzk::server::run_daemon(opt); !s) {
    spdlog::error("{}", s.to_string());
    return s.code() == cuzk::status_code::invalid_argument ? 2 : 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-daemon: fatal: %s\n", e.what());
    return 1;
  }
}
