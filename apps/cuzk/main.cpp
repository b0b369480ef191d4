// SPDX-License-Identifier: Apache-2.0
// The `cuzk` binary. Subcommands are the offline tools; the daemon comes with the engine issue.
// Every command line is parsed by CLI11: each *_cmd.cpp adds its subcommands to the root app and
// names the body to run (cli_args.hpp); main runs it after parsing and configuring logging.
// Exit codes: 0 success, 1 the operation failed, 2 usage error or bad input. `cuzk <command>
// help` is `cuzk <command> --help`.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/cpu_features.hpp"
#include "base/version.hpp"
#include "cli_args.hpp"
#include "logging.hpp"
#include "porep_cmds.hpp"
#if defined(CUZK_WITH_CUDA)
#include "gpu/runtime.hpp"
#endif

namespace cuzk::app {
void add_demo_command(CLI::App& root, command_runner& chosen);
void add_groth16_commands(CLI::App& root, command_runner& chosen);
void add_hash_commands(CLI::App& root, command_runner& chosen);
void add_piece_commands(CLI::App& root, command_runner& chosen);
void add_circuit_commands(CLI::App& root, command_runner& chosen);
void add_plan_command(CLI::App& root, command_runner& chosen);
void add_params_commands(CLI::App& root, command_runner& chosen);
void add_prove_commands(CLI::App& root, command_runner& chosen);
void add_post_commands(CLI::App& root, command_runner& chosen);
void add_snap_commands(CLI::App& root, command_runner& chosen);
}  // namespace cuzk::app

namespace {

using cuzk::app::EXIT_BAD;
using cuzk::app::EXIT_OK;

#if defined(CUZK_WITH_CUDA)
/// How device `d` runs this binary's kernels, for `cuzk version`.
std::string gpu_support_line(const cuzk::gpu::device_info& d) {
  using cuzk::gpu::code_path;
  const cuzk::gpu::device_support s = cuzk::gpu::query_device_support(d.ordinal);
  const std::string arch = std::to_string(s.code.arch);
  if (s.loads && s.code.path == code_path::native) {
    const bool exact = s.code.arch == d.sm_major * 10 + d.sm_minor;
    return "native code (sm_" + arch + (exact ? ")" : " SASS, binary compatible)");
  }
  if (s.loads && s.code.path == code_path::ptx) {
    return "PTX compute_" + arch +
           ", JIT-compiled by the driver at first use (minutes, then cached; native code for "
           "this card needs a rebuild)";
  }
  if (s.loads) return "runs (sm_" + std::to_string(s.binary_version) + " code)";
  const cuzk::status st = cuzk::gpu::check_device_supported(d.ordinal);
  return "CANNOT RUN this binary: " + (st.ok() ? s.error : st.message());
}
#endif

int cmd_version() {
#if defined(CUZK_WITH_CUDA)
  std::printf("cuzk %s (commit %s, cuda yes, runtime %s, driver %s)\n", cuzk::VERSION,
              cuzk::GIT_COMMIT, cuzk::gpu::runtime_version().c_str(),
              cuzk::gpu::driver_version().c_str());
  const std::string archs = cuzk::gpu::built_cuda_architectures();
  std::printf("  device code: %s (CUDA_ARCHITECTURES \"%s\")\n",
              cuzk::gpu::describe_cuda_architectures(archs).c_str(), archs.c_str());
  const auto devices = cuzk::gpu::list_devices();
  if (devices.empty()) std::printf("  no CUDA device visible\n");
  for (const auto& d : devices) {
    std::printf("  gpu %d: %s, sm_%d%d, %d SMs, %.1f GiB: %s\n", d.ordinal, d.name.c_str(),
                d.sm_major, d.sm_minor, d.multiprocessors,
                double(d.total_memory_bytes) / (1ull << 30), gpu_support_line(d).c_str());
  }
#else
  std::printf("cuzk %s (commit %s, cuda no: a CPU-only build, proving on the CPU)\n", cuzk::VERSION,
              cuzk::GIT_COMMIT);
#endif
  return EXIT_OK;
}

/// The word `help` where a subcommand name may stand (`cuzk help`, `cuzk porep help`, `cuzk prove
/// porep help`) becomes `--help`; anywhere else (an option's value, a file name) it is left alone.
void rewrite_help_word(const CLI::App& root, std::vector<std::string>& args) {
  const CLI::App* app = &root;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "help") {
      args[i] = "--help";
      return;
    }
    if (args[i] == "--log-level") {
      ++i;
      continue;
    }
    if (args[i].rfind("--log-level=", 0) == 0) continue;
    const auto subs =
        app->get_subcommands([&](const CLI::App* s) { return s->check_name(args[i]); });
    if (subs.empty()) return;
    app = subs.front();
  }
}

/// "cuzk porep seal": the names of the innermost subcommand the parse entered.
std::string command_path(const CLI::App& root) {
  std::string path = root.get_name();
  const CLI::App* app = &root;
  for (;;) {
    const auto subs = app->get_subcommands();
    if (subs.empty()) return path;
    app = subs.front();
    path += " " + app->get_name();
  }
}

/// Help goes to stdout with exit 0; every other parse error is one line on stderr, exit 2.
int report_parse_error(const CLI::App& root, const CLI::ParseError& e) {
  const std::string name = e.get_name();
  if (name == "CallForHelp" || name == "CallForAllHelp") {
    root.exit(e);
    return EXIT_OK;
  }
  const std::string path = command_path(root);
  // "A subcommand is required" would hide the word that is not one ("cuzk hash frobnicate").
  std::string unexpected;
  if (name == "RequiredError" &&
      std::string_view(e.what()).find("subcommand") != std::string_view::npos) {
    for (const std::string& arg : root.remaining(true)) unexpected += " '" + arg + "'";
    if (!unexpected.empty()) unexpected = ", got" + unexpected;
  }
  std::fprintf(stderr, "%s: %s%s (see '%s --help')\n", path.c_str(), e.what(), unexpected.c_str(),
               path.c_str());
  return EXIT_BAD;
}

/// `cuzk daemon ARGS…` runs cuzk-daemon ARGS… (the daemon is its own binary): the one installed
/// beside this one, or the build tree's apps/cuzk-daemon/cuzk-daemon. Returns only on failure.
int exec_daemon(int argc, char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::vector<std::filesystem::path> candidates;
  if (!ec) {
    candidates.push_back(self.parent_path() / "cuzk-daemon");
    candidates.push_back(self.parent_path().parent_path() / "cuzk-daemon" / "cuzk-daemon");
  }
  for (const auto& c : candidates) {
    if (::access(c.c_str(), X_OK) != 0) continue;
    std::vector<char*> args;
    std::string path = c.string();
    args.push_back(path.data());
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv(path.c_str(), args.data());
    std::fprintf(stderr, "cuzk daemon: cannot run %s: %s\n", path.c_str(), std::strerror(errno));
    return EXIT_BAD;
  }
  std::fprintf(stderr, "cuzk daemon: cuzk-daemon not found beside %s\n", self.c_str());
  return EXIT_BAD;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "daemon") return exec_daemon(argc, argv);
  if (std::string err = cuzk::check_cpu_features(); !err.empty()) {
    std::fprintf(stderr, "cuzk: %s\n", err.c_str());
    return EXIT_BAD;
  }
  CLI::App app{"cuzk: Groth16 proving for Filecoin (BLS12-381) and its offline tools", "cuzk"};
  app.fallthrough();  // global flags (--log-level) may follow the subcommand
  std::string log_level = "info";
  cuzk::app::add_log_level_option(app, log_level);
  bool version_flag = false;
  app.add_flag("--version", version_flag, "same as `cuzk version`");

  cuzk::app::command_runner chosen;
  auto* version = app.add_subcommand("version", "print the version, git commit and CUDA support");
  cuzk::app::on_selected(version, chosen, cmd_version);
  cuzk::app::add_demo_command(app, chosen);
  cuzk::app::add_groth16_commands(app, chosen);
  cuzk::app::add_hash_commands(app, chosen);
  cuzk::app::add_porep_commands(app, chosen);
  cuzk::app::add_piece_commands(app, chosen);
  cuzk::app::add_circuit_commands(app, chosen);
  cuzk::app::add_plan_command(app, chosen);
  cuzk::app::add_params_commands(app, chosen);
  cuzk::app::add_prove_commands(app, chosen);
  cuzk::app::add_post_commands(app, chosen);
  cuzk::app::add_snap_commands(app, chosen);
  // Listed for --help; main() hands `cuzk daemon …` to cuzk-daemon before parsing.
  app.add_subcommand("daemon", "run the cuzk.v1 proving daemon (cuzk-daemon, same flags)");
  app.require_subcommand(0, 1);
  app.footer("exit status: 0 ok, 1 the operation failed, 2 usage error or bad input");

  std::vector<std::string> args(argv + 1, argv + argc);
  rewrite_help_word(app, args);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return report_parse_error(app, e);
  }
  cuzk::app::configure_logging(log_level);
  if (!chosen && version_flag) return cmd_version();
  if (!chosen) {
    std::fputs(app.help().c_str(), stderr);
    return EXIT_BAD;
  }
  // The last line of defence (issue 13): whatever a command lets escape ends in one message and a
  // usage/bad-input exit, never std::terminate's abort. Commands return statuses; this catches
  // only what a library threw (allocation failure, a runtime error of a dependency).
  try {
    return chosen();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "cuzk: unknown exception\n");
  }
  return EXIT_BAD;
}
