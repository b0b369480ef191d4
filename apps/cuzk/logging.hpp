// SPDX-License-Identifier: Apache-2.0
// The apps' logging: spdlog's default logger writes to stderr at the level of the global
// --log-level flag, and log_sink() binds the libraries' hook (cuzk/log.hpp) to it, so library
// code reports through whatever the app chose without owning a logger.
#pragma once

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

#include "cuzk/log.hpp"

namespace cuzk::app {

/// The names --log-level accepts, most verbose first.
inline const std::vector<std::string> LOG_LEVEL_NAMES = {"trace", "debug", "info",
                                                         "warn",  "error", "off"};

/// Adds the global `--log-level` flag (default info) bound to `level_name`.
inline CLI::Option* add_log_level_option(CLI::App& app, std::string& level_name) {
  return app
      .add_option("--log-level", level_name,
                  "diagnostics on stderr at this level and above (trace|debug|info|warn|error|off)")
      ->check(CLI::IsMember(LOG_LEVEL_NAMES))
      ->capture_default_str();
}

/// Makes spdlog's default logger a stderr logger at `level_name` (one of LOG_LEVEL_NAMES).
inline void configure_logging(const std::string& level_name) {
  auto logger = spdlog::stderr_color_mt("cuzk");
  logger->set_pattern("%^[%l]%$ %v");
  logger->set_level(spdlog::level::from_str(level_name));
  logger->flush_on(spdlog::level::trace);
  spdlog::set_default_logger(logger);
}

/// The library hook bound to spdlog's default logger.
inline log_sink spdlog_log_sink() {
  return [](log_level level, std::string_view message) {
    switch (level) {
      case log_level::trace:
        spdlog::trace("{}", message);
        break;
      case log_level::debug:
        spdlog::debug("{}", message);
        break;
      case log_level::info:
        spdlog::info("{}", message);
        break;
      case log_level::warn:
        spdlog::warn("{}", message);
        break;
      case log_level::error:
        spdlog::error("{}", message);
        break;
    }
  };
}

}  // namespace cuzk::app
