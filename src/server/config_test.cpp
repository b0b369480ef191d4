// SPDX-License-Identifier: Apache-2.0
// cuzk.toml: the Rust daemon's file (docs/spec/wire.md §7) parses with the Rust code defaults;
// deprecated and unknown keys warn by their dotted names; malformed sizes, durations, addresses
// and TOML types fail naming the key; a missing file gives the defaults and says so; the engine
// configuration follows the key table of config.hpp.
#include "server/config.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "base/file_io.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::server;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr uint64_t GiB = uint64_t(1) << 30;
constexpr uint64_t MiB = uint64_t(1) << 20;

// The Rust daemon's cuzk.toml with every key at its code default (docs/spec/wire.md §7).
constexpr std::string_view curio_wire_example = R"(
[daemon]
listen = "unix:///run/curio/cuzk.sock"   # example file and user doc use "0.0.0.0:9820"
status_listen = ""                        # "" = off; e.g. "0.0.0.0:9821" serves GET /status JSON
[srs]
param_cache = "/data/zk/params"           # .params/.vk dir; also where pce-*.bin are written
# preload = [...]                         # deprecated, ignored (warning)
[memory]
total_budget = "auto"                     # "auto" = MemTotal - safety_margin, or "256GiB", "512GB", bytes
safety_margin = "5GiB"
eviction_min_idle = "5m"                  # "Nm" | "Ns" | seconds
# pinned_budget, working_memory_budget    # deprecated, ignored (warning)
[gpus]
devices = []                              # [] = nvidia-smi --query-gpu=index (fallback [0])
gpu_threads = 0                           # example: 32; >0 exports CUZK_GPU_THREADS
gpu_workers_per_device = 2
[scheduler]
max_batch_size = 1
max_batch_wait_ms = 10000
sort_by_type = true                       # parsed, never read
[synthesis]
threads = 0                               # rayon pool; 0 = all CPUs
# partition_workers                       # deprecated, ignored (warning); still the user doc's main knob
[pipeline]
enabled = true
synthesis_lookahead = 1                   # logged only
synthesis_concurrency = 1
max_parallel_synthesis = 18               # 0 -> 18
slot_size = 0                             # dead branch
max_gpu_queue_depth = 0                   # 0 = pacer off
[logging]
level = "info"                            # RUST_LOG overrides
# format = "json"                         # never wired
)";

void expect_defaults(const daemon_config& c) {
  EXPECT_EQ(c.daemon.listen.kind, listen_address::transport::unix_socket);
  EXPECT_EQ(c.daemon.listen.path, "/run/curio/cuzk.sock");
  EXPECT_EQ(c.daemon.listen.text, "unix:///run/curio/cuzk.sock");
  EXPECT_FALSE(c.daemon.status_listen.has_value());
  EXPECT_EQ(c.daemon.drain_timeout, 10min);
  EXPECT_EQ(c.srs.param_cache, "/data/zk/params");
  EXPECT_FALSE(c.memory.total_budget.has_value());
  EXPECT_EQ(c.memory.safety_margin, 5 * GiB);
  EXPECT_EQ(c.memory.eviction_min_idle, 5min);
  EXPECT_TRUE(c.gpus.devices.empty());
  EXPECT_EQ(c.gpus.gpu_threads, 0u);
  EXPECT_EQ(c.gpus.gpu_workers_per_device, 2u);
  EXPECT_EQ(c.scheduler.max_batch_size, 1u);
  EXPECT_EQ(c.scheduler.max_batch_wait_ms, 10000u);
  EXPECT_TRUE(c.scheduler.sort_by_type);
  EXPECT_EQ(c.synthesis.threads, 0u);
  EXPECT_TRUE(c.pipeline.enabled);
  EXPECT_EQ(c.pipeline.synthesis_lookahead, 1u);
  EXPECT_EQ(c.pipeline.synthesis_concurrency, 1u);
  EXPECT_EQ(c.pipeline.max_parallel_synthesis, 18u);
  EXPECT_EQ(c.pipeline.slot_size, 0u);
  EXPECT_EQ(c.pipeline.max_gpu_queue_depth, 0u);
  EXPECT_EQ(c.logging.level, log_level::info);
  EXPECT_EQ(c.logging.format, "");
}

/// Parses text that must fail; returns the error message.
std::string parse_error(std::string_view text) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config(text, &warnings);
  EXPECT_FALSE(r.ok()) << text;
  if (r.ok()) return {};
  EXPECT_EQ(r.error().code(), status_code::invalid_argument);
  return r.error().message();
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

bool any_contains(const std::vector<std::string>& lines, std::string_view needle) {
  for (const auto& l : lines)
    if (contains(l, needle)) return true;
  return false;
}

/// A fresh empty directory under the test temp dir, removed on destruction.
struct temp_dir {
  fs::path path;
  explicit temp_dir(const std::string& name)
      : path(fs::path(testing::TempDir()) /
             ("cuzk_config_" + std::to_string(::getpid()) + "_" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

TEST(daemon_config, defaults_are_the_rust_code_defaults) {
  expect_defaults(daemon_config{});
}

TEST(daemon_config, empty_text_gives_the_defaults_without_warnings) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config("", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  expect_defaults(*r);
  EXPECT_TRUE(warnings.empty());
}

TEST(daemon_config, the_curio_wire_example_parses_to_the_defaults) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config(curio_wire_example, &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  expect_defaults(*r);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

TEST(daemon_config, every_key_is_read) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config(R"(
[daemon]
listen = "0.0.0.0:9820"
status_listen = "127.0.0.1:9821"
drain_timeout = "90s"
[srs]
param_cache = "/var/tmp/filecoin-proof-parameters"
[memory]
total_budget = "256GiB"
safety_margin = "8GiB"
eviction_min_idle = "30s"
[gpus]
devices = [0, 2]
gpu_threads = 32
gpu_workers_per_device = 1
[scheduler]
max_batch_size = 4
max_batch_wait_ms = 500
sort_by_type = false
[synthesis]
threads = 24
[pipeline]
enabled = true
synthesis_lookahead = 2
synthesis_concurrency = 3
max_parallel_synthesis = 0
slot_size = 5
max_gpu_queue_depth = 6
[logging]
level = "debug"
format = "json"
)",
                               &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(warnings.empty());
  const daemon_config& c = *r;
  EXPECT_EQ(c.daemon.listen.kind, listen_address::transport::tcp);
  EXPECT_EQ(c.daemon.listen.host, "0.0.0.0");
  EXPECT_EQ(c.daemon.listen.port, 9820);
  ASSERT_TRUE(c.daemon.status_listen.has_value());
  EXPECT_EQ(c.daemon.status_listen->host, "127.0.0.1");
  EXPECT_EQ(c.daemon.status_listen->port, 9821);
  EXPECT_EQ(c.daemon.drain_timeout, 90s);
  EXPECT_EQ(c.srs.param_cache, "/var/tmp/filecoin-proof-parameters");
  EXPECT_EQ(c.memory.total_budget, 256 * GiB);
  EXPECT_EQ(c.memory.safety_margin, 8 * GiB);
  EXPECT_EQ(c.memory.eviction_min_idle, 30s);
  EXPECT_EQ(c.gpus.devices, (std::vector<int>{0, 2}));
  EXPECT_EQ(c.gpus.gpu_threads, 32u);
  EXPECT_EQ(c.gpus.gpu_workers_per_device, 1u);
  EXPECT_EQ(c.scheduler.max_batch_size, 4u);
  EXPECT_EQ(c.scheduler.max_batch_wait_ms, 500u);
  EXPECT_FALSE(c.scheduler.sort_by_type);
  EXPECT_EQ(c.synthesis.threads, 24u);
  EXPECT_EQ(c.pipeline.synthesis_lookahead, 2u);
  EXPECT_EQ(c.pipeline.synthesis_concurrency, 3u);
  EXPECT_EQ(c.pipeline.max_parallel_synthesis, 0u);
  EXPECT_EQ(c.pipeline.slot_size, 5u);
  EXPECT_EQ(c.pipeline.max_gpu_queue_depth, 6u);
  EXPECT_EQ(c.logging.level, log_level::debug);
  EXPECT_EQ(c.logging.format, "json");
}

// gpus.memory_budget (ours): a size per GPU or "auto"; parameters that do not fit it with the
// prover's working set are streamed from host memory (engine). 0 is refused, naming the key.
TEST(daemon_config, gpu_memory_budget) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config("[gpus]\nmemory_budget = \"24GiB\"\n", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(r->gpus.memory_budget, 24 * GiB);
  EXPECT_EQ(to_engine_config(*r, {}).device_memory_budget, 24 * GiB);
  r = parse_daemon_config("[gpus]\nmemory_budget = \"auto\"\n", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_FALSE(r->gpus.memory_budget.has_value());
  EXPECT_EQ(to_engine_config(*r, {}).device_memory_budget, 0u);
  // Zero, garbage, a negative, an overflowing size and the wrong type: refused, naming the key.
  for (const char* bad : {"0", "\"lots\"", "-5", "\"99999999999EiB\"", "true", "[1]"}) {
    r = parse_daemon_config(std::string("[gpus]\nmemory_budget = ") + bad + "\n", &warnings);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(contains(r.error().message(), "gpus.memory_budget")) << r.error().to_string();
  }
}

// gpus.gpu_workers_per_device: the engine's prover lanes per GPU (2 by default, as Rust); 0 proves
// with one lane and says so.
TEST(daemon_config, gpu_workers_per_device_are_the_engine_lanes) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config("", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_engine_config(*r, {}).gpu_lanes, 2u);
  r = parse_daemon_config("[gpus]\ngpu_workers_per_device = 3\n", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(to_engine_config(*r, {}).gpu_lanes, 3u);
  r = parse_daemon_config("[gpus]\ngpu_workers_per_device = 0\n", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_engine_config(*r, {}).gpu_lanes, 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("gpu_workers_per_device = 0"), std::string::npos) << warnings[0];
}

// srs.preload (deprecated and ignored by Rust; ours): circuit ids loaded at start, each once, in
// the order preload_order gives (WinningPoSt, WindowPoSt, the rest); not an array of strings, an
// empty id or an id listed twice is refused, naming the key.
TEST(daemon_config, srs_preload) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config("", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(r->srs.preload.empty());
  r = parse_daemon_config(
      "[srs]\npreload = [\"porep-32g\", \"wpost-32g\", \"snap-32g\", \"winning-32g\"]\n",
      &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(r->srs.preload,
            (std::vector<std::string>{"porep-32g", "wpost-32g", "snap-32g", "winning-32g"}));
  EXPECT_EQ(preload_order(r->srs.preload),
            (std::vector<std::string>{"winning-32g", "wpost-32g", "porep-32g", "snap-32g"}));
  for (const char* bad : {"\"porep-32g\"", "[1]", "[\"\"]", "[\"porep-32g\", \"porep-32g\"]"}) {
    r = parse_daemon_config(std::string("[srs]\npreload = ") + bad + "\n", &warnings);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(contains(r.error().message(), "srs.preload")) << r.error().to_string();
  }
}

// gpus.express_lane (ours): PoSt's own synthesis worker and GPU lane, on unless turned off; a
// value that is not a boolean is refused, naming the key.
TEST(daemon_config, express_lane) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config("", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(to_engine_config(*r, {}).express_lane);
  r = parse_daemon_config("[gpus]\nexpress_lane = false\n", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_FALSE(to_engine_config(*r, {}).express_lane);
  r = parse_daemon_config("[gpus]\nexpress_lane = \"no\"\n", &warnings);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.error().message(), "gpus.express_lane")) << r.error().to_string();
}

// gpus.cpu_fallback (ours): which circuits the CPU proves when no GPU is left in rotation; "auto"
// (the default) those with at most 4 GiB of parameters, "on" all, "off" none; anything else
// refused, naming the key.
TEST(daemon_config, cpu_fallback) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config("", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_engine_config(*r, {}).cpu_fallback_max_param_bytes, 4 * GiB);
  const std::pair<const char*, uint64_t> good[] = {
      {"auto", 4 * GiB}, {"on", UINT64_MAX}, {"off", 0}};
  for (const auto& [text, want] : good) {
    r = parse_daemon_config(std::string("[gpus]\ncpu_fallback = \"") + text + "\"\n", &warnings);
    ASSERT_TRUE(r.ok()) << text << ": " << r.error().to_string();
    EXPECT_TRUE(warnings.empty()) << text;
    EXPECT_EQ(to_engine_config(*r, {}).cpu_fallback_max_param_bytes, want) << text;
  }
  for (const char* bad : {"\"yes\"", "\"\"", "true", "1"}) {
    r = parse_daemon_config(std::string("[gpus]\ncpu_fallback = ") + bad + "\n", &warnings);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(contains(r.error().message(), "gpus.cpu_fallback")) << r.error().to_string();
  }
}

// srs.param_checks (ours): how parameter points are checked on load; the curve equation only by
// default, "batched" or "full" subgroup checks on request; anything else refused, naming the key.
TEST(daemon_config, param_checks) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config("", &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_engine_config(*r, {}).params_checks, engine::engine_config::param_checks::on_curve);
  const std::pair<const char*, engine::engine_config::param_checks> good[] = {
      {"on-curve", engine::engine_config::param_checks::on_curve},
      {"batched", engine::engine_config::param_checks::batched},
      {"full", engine::engine_config::param_checks::full}};
  for (const auto& [text, want] : good) {
    r = parse_daemon_config(std::string("[srs]\nparam_checks = \"") + text + "\"\n", &warnings);
    ASSERT_TRUE(r.ok()) << text << ": " << r.error().to_string();
    EXPECT_TRUE(warnings.empty()) << text;
    EXPECT_EQ(r->srs.param_checks, want) << text;
    EXPECT_EQ(to_engine_config(*r, {}).params_checks, want) << text;
  }
  for (const char* bad : {"\"subgroup\"", "\"\"", "\"Full\"", "true", "1", "[\"full\"]"}) {
    r = parse_daemon_config(std::string("[srs]\nparam_checks = ") + bad + "\n", &warnings);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(contains(r.error().message(), "srs.param_checks")) << r.error().to_string();
  }
}

TEST(daemon_config, each_deprecated_key_warns_by_name) {
  struct deprecated_case {
    std::string_view text, key;
  };
  const deprecated_case cases[] = {
      {"[memory]\npinned_budget = \"10GiB\"\n", "memory.pinned_budget"},
      {"[memory]\nworking_memory_budget = \"10GiB\"\n", "memory.working_memory_budget"},
      {"[synthesis]\npartition_workers = 4\n", "synthesis.partition_workers"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> warnings;
    auto r = parse_daemon_config(c.text, &warnings);
    ASSERT_TRUE(r.ok()) << c.key << ": " << r.error().to_string();
    expect_defaults(*r);
    ASSERT_EQ(warnings.size(), 1u) << c.key;
    EXPECT_TRUE(contains(warnings[0], std::string("deprecated key ").append(c.key))) << warnings[0];
  }
}

TEST(daemon_config, unknown_keys_and_tables_warn_with_their_dotted_names) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config(R"(
top_level = 1
[daemon]
listen_addr = "0.0.0.0:9820"
[daemon.tls]
cert = "x"
[memory]
total_budgt = "10GiB"
[cache]
size = 3
)",
                               &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  expect_defaults(*r);
  EXPECT_EQ(warnings.size(), 5u);
  EXPECT_TRUE(any_contains(warnings, "unknown key top_level")) << warnings.front();
  EXPECT_TRUE(any_contains(warnings, "unknown key daemon.listen_addr"));
  EXPECT_TRUE(any_contains(warnings, "unknown key daemon.tls"));
  EXPECT_TRUE(any_contains(warnings, "unknown key memory.total_budgt"));
  EXPECT_TRUE(any_contains(warnings, "unknown table [cache]"));
}

TEST(daemon_config, a_null_warning_list_is_allowed) {
  auto r = parse_daemon_config("[x]\ny = 1\n[srs]\npreload = []\n", nullptr);
  EXPECT_TRUE(r.ok());
}

TEST(daemon_config, pipeline_disabled_warns_that_it_has_no_effect) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config("[pipeline]\nenabled = false\n", &warnings);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(any_contains(warnings, "pipeline.enabled"));
}

TEST(daemon_config, security_keys) {
  auto def = parse_daemon_config("", nullptr);
  ASSERT_TRUE(def.ok());
  EXPECT_FALSE(def->daemon.allow_insecure_tcp);
  EXPECT_TRUE(def->daemon.tls_cert_file.empty());
  EXPECT_TRUE(def->daemon.auth_tokens_file.empty());
  std::vector<std::string> warnings;
  auto r = parse_daemon_config(
      "[daemon]\nallow_insecure_tcp = true\ntls_cert_file = \"/etc/cuzk/cert.pem\"\n"
      "tls_key_file = \"/etc/cuzk/key.pem\"\ntls_client_ca_file = \"/etc/cuzk/ca.pem\"\n"
      "auth_tokens_file = \"/etc/cuzk/tokens\"\n",
      &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(warnings.empty());
  EXPECT_TRUE(r->daemon.allow_insecure_tcp);
  EXPECT_EQ(r->daemon.tls_cert_file, "/etc/cuzk/cert.pem");
  EXPECT_EQ(r->daemon.tls_key_file, "/etc/cuzk/key.pem");
  EXPECT_EQ(r->daemon.tls_client_ca_file, "/etc/cuzk/ca.pem");
  EXPECT_EQ(r->daemon.auth_tokens_file, "/etc/cuzk/tokens");
}

TEST(daemon_config, tls_keys_must_come_together) {
  auto no_key = parse_daemon_config("[daemon]\ntls_cert_file = \"/c.pem\"\n", nullptr);
  ASSERT_FALSE(no_key.ok());
  EXPECT_NE(no_key.error().message().find("tls_key_file"), std::string::npos);
  auto no_cert = parse_daemon_config("[daemon]\ntls_key_file = \"/k.pem\"\n", nullptr);
  ASSERT_FALSE(no_cert.ok());
  auto ca_alone = parse_daemon_config("[daemon]\ntls_client_ca_file = \"/ca.pem\"\n", nullptr);
  ASSERT_FALSE(ca_alone.ok());
  EXPECT_NE(ca_alone.error().message().find("tls_client_ca_file"), std::string::npos);
  auto wrong_type = parse_daemon_config("[daemon]\nallow_insecure_tcp = \"yes\"\n", nullptr);
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_NE(wrong_type.error().message().find("daemon.allow_insecure_tcp"), std::string::npos);
}

TEST(daemon_config, wrong_types_name_the_key_and_the_expected_type) {
  struct bad_case {
    std::string_view text, key, expected;
  };
  const bad_case cases[] = {
      {"[daemon]\nlisten = 9820\n", "daemon.listen", "expected a string, got an integer"},
      {"[srs]\nparam_cache = true\n", "srs.param_cache", "expected a string, got a boolean"},
      {"[memory]\nsafety_margin = 1.5\n", "memory.safety_margin", "got a float"},
      {"[memory]\ntotal_budget = [1]\n", "memory.total_budget", "got an array"},
      {"[memory]\neviction_min_idle = true\n", "memory.eviction_min_idle", "a duration"},
      {"[gpus]\ndevices = 0\n", "gpus.devices", "expected an array of GPU ordinals"},
      {"[gpus]\ndevices = [0, \"1\"]\n", "gpus.devices[1]", "a GPU ordinal"},
      {"[gpus]\ndevices = [-1]\n", "gpus.devices[0]", "out of range"},
      {"[gpus]\ngpu_threads = \"32\"\n", "gpus.gpu_threads", "an integer from 0 to 4294967295"},
      {"[gpus]\ngpu_threads = -1\n", "gpus.gpu_threads", "out of range"},
      {"[gpus]\ngpu_threads = 4294967296\n", "gpus.gpu_threads", "out of range"},
      {"[scheduler]\nsort_by_type = \"yes\"\n", "scheduler.sort_by_type", "a boolean"},
      {"[scheduler]\nmax_batch_wait_ms = -5\n", "scheduler.max_batch_wait_ms", "out of range"},
      {"[pipeline]\nenabled = 1\n", "pipeline.enabled", "a boolean"},
      {"[logging]\nlevel = 3\n", "logging.level", "expected a string"},
      {"daemon = \"x\"\n", "daemon", "expected a table, got a string"},
  };
  for (const auto& c : cases) {
    const std::string m = parse_error(c.text);
    EXPECT_TRUE(m.starts_with(std::string(c.key) + ": ")) << m;
    EXPECT_TRUE(contains(m, c.expected)) << m;
  }
}

TEST(daemon_config, bad_values_in_the_file_name_the_key) {
  struct bad_case {
    std::string_view text, key;
  };
  const bad_case cases[] = {
      {"[memory]\ntotal_budget = \"lots\"\n", "memory.total_budget"},
      {"[memory]\ntotal_budget = \"0\"\n", "memory.total_budget"},
      {"[memory]\nsafety_margin = \"auto\"\n", "memory.safety_margin"},
      {"[memory]\nsafety_margin = \"-5GiB\"\n", "memory.safety_margin"},
      {"[memory]\neviction_min_idle = \"5 minutes\"\n", "memory.eviction_min_idle"},
      {"[daemon]\ndrain_timeout = \"\"\n", "daemon.drain_timeout"},
      {"[daemon]\nlisten = \"localhost\"\n", "daemon.listen"},
      {"[daemon]\nstatus_listen = \"0.0.0.0:0\"\n", "daemon.status_listen"},
      {"[daemon]\nstatus_listen = \"unix:///run/s.sock\"\n", "daemon.status_listen"},
      {"[srs]\nparam_cache = \"\"\n", "srs.param_cache"},
      {"[gpus]\ndevices = [1, 1]\n", "gpus.devices"},
      {"[logging]\nlevel = \"verbose\"\n", "logging.level"},
  };
  for (const auto& c : cases) {
    const std::string m = parse_error(c.text);
    EXPECT_TRUE(m.starts_with(std::string(c.key) + ": ")) << m;
  }
}

TEST(daemon_config, sizes_and_durations_may_be_integers) {
  auto r = parse_daemon_config(
      "[memory]\ntotal_budget = 1073741824\nsafety_margin = 0\neviction_min_idle = 300\n"
      "[daemon]\ndrain_timeout = 60\n",
      nullptr);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->memory.total_budget, GiB);
  EXPECT_EQ(r->memory.safety_margin, 0u);
  EXPECT_EQ(r->memory.eviction_min_idle, 300s);
  EXPECT_EQ(r->daemon.drain_timeout, 60s);
}

TEST(daemon_config, a_toml_syntax_error_gives_its_line) {
  const std::string m = parse_error("[daemon]\nlisten = \n");
  EXPECT_TRUE(contains(m, "TOML syntax error at line 2")) << m;
  parse_error("[daemon\n");
  parse_error("[daemon]\nlisten = \"a\"\nlisten = \"b\"\n");
}

TEST(parse_size, accepts_the_documented_forms) {
  EXPECT_EQ(*parse_size("k", "5GiB"), 5 * GiB);
  EXPECT_EQ(*parse_size("k", "512MiB"), 512 * MiB);
  EXPECT_EQ(*parse_size("k", "10GB"), 10'000'000'000u);
  EXPECT_EQ(*parse_size("k", "700MB"), 700'000'000u);
  EXPECT_EQ(*parse_size("k", "2TiB"), 2048 * GiB);
  EXPECT_EQ(*parse_size("k", "4KiB"), 4096u);
  EXPECT_EQ(*parse_size("k", "1024"), 1024u);
  EXPECT_EQ(*parse_size("k", "1024B"), 1024u);
  EXPECT_EQ(*parse_size("k", "0"), 0u);
  EXPECT_EQ(*parse_size("k", " 5 GiB "), 5 * GiB);
  EXPECT_EQ(*parse_size("k", "5gib"), 5 * GiB);
  EXPECT_EQ(*parse_size("k", "18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(*parse_size("k", "16777215TiB"), uint64_t(16777215) << 40);
}

TEST(parse_size, rejects_negative_garbage_overflow_and_empty_naming_the_key) {
  for (std::string_view bad :
       {"", "  ", "-1", "-5GiB", "GiB", "five", "5XB", "5 G", "1.5GiB", "5GiB extra", "0x10",
        "18446744073709551616", "16777216TiB", "99999999999999999999999GiB", "auto"}) {
    auto r = parse_size("memory.safety_margin", bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code(), status_code::invalid_argument);
    EXPECT_TRUE(r.error().message().starts_with("memory.safety_margin: ")) << r.error().message();
  }
  EXPECT_TRUE(contains(parse_size("k", "-1").error().message(), "negative"));
  EXPECT_TRUE(contains(parse_size("k", "5XB").error().message(), "unknown unit \"XB\""));
  EXPECT_TRUE(contains(parse_size("k", "20000000TiB").error().message(), "larger than"));
  EXPECT_TRUE(contains(parse_size("k", "").error().message(), "empty"));
}

TEST(parse_size, auto_only_where_allowed) {
  auto a = parse_size_or_auto("k", "auto");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->has_value());
  EXPECT_FALSE(parse_size_or_auto("k", "Auto")->has_value());
  EXPECT_EQ(parse_size_or_auto("k", "256GiB")->value(), 256 * GiB);
  EXPECT_FALSE(parse_size_or_auto("k", "automatic").ok());
  EXPECT_FALSE(parse_size("k", "auto").ok());
}

TEST(parse_duration, accepts_the_documented_forms) {
  EXPECT_EQ(*parse_duration("k", "5m"), 5min);
  EXPECT_EQ(*parse_duration("k", "30s"), 30s);
  EXPECT_EQ(*parse_duration("k", "2h"), 2h);
  EXPECT_EQ(*parse_duration("k", "1500ms"), 1500ms);
  EXPECT_EQ(*parse_duration("k", "300"), 300s);
  EXPECT_EQ(*parse_duration("k", "0"), 0ms);
  EXPECT_EQ(*parse_duration("k", " 10 m "), 10min);
}

TEST(parse_duration, rejects_negative_garbage_overflow_and_empty_naming_the_key) {
  for (std::string_view bad : {"", "-5m", "m", "5 minutes", "5M", "1.5h", "5d", "5m30s", "abc",
                               "99999999999999999999", "9999999999999999h"}) {
    auto r = parse_duration("daemon.drain_timeout", bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code(), status_code::invalid_argument);
    EXPECT_TRUE(r.error().message().starts_with("daemon.drain_timeout: ")) << r.error().message();
  }
  EXPECT_TRUE(contains(parse_duration("k", "5d").error().message(), "unknown unit \"d\""));
  EXPECT_TRUE(contains(parse_duration("k", "-5m").error().message(), "negative"));
}

TEST(parse_listen_address, unix_sockets) {
  auto r = parse_listen_address("k", "unix:///run/curio/cuzk.sock");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->kind, listen_address::transport::unix_socket);
  EXPECT_EQ(r->path, "/run/curio/cuzk.sock");
  EXPECT_EQ(parse_listen_address("k", "unix://cuzk.sock")->path, "cuzk.sock");
  EXPECT_TRUE(parse_listen_address("k", "unix:///" + std::string(106, 'a')).ok());
  EXPECT_FALSE(parse_listen_address("k", "unix:///" + std::string(107, 'a')).ok());
  EXPECT_FALSE(parse_listen_address("k", "unix://").ok());
  EXPECT_FALSE(parse_listen_address("k", "unix:/run/cuzk.sock").ok());
  EXPECT_FALSE(parse_listen_address("k", "/run/cuzk.sock").ok());
}

TEST(parse_listen_address, tcp_addresses) {
  auto v4 = parse_listen_address("k", "0.0.0.0:9820");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(v4->kind, listen_address::transport::tcp);
  EXPECT_EQ(v4->host, "0.0.0.0");
  EXPECT_EQ(v4->port, 9820);
  EXPECT_EQ(v4->text, "0.0.0.0:9820");
  auto v6 = parse_listen_address("k", "[::1]:65535");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 65535);
  auto name = parse_listen_address("k", "prover-01.example.com:1");
  ASSERT_TRUE(name.ok());
  EXPECT_EQ(name->host, "prover-01.example.com");
  EXPECT_EQ(name->port, 1);
  EXPECT_TRUE(parse_listen_address("k", "localhost:9820").ok());
}

TEST(parse_listen_address, rejects_bad_addresses_naming_the_key) {
  for (std::string_view bad : {"",
                               "9820",
                               ":9820",
                               "0.0.0.0",
                               "0.0.0.0:",
                               "0.0.0.0:0",
                               "0.0.0.0:65536",
                               "0.0.0.0:-1",
                               "0.0.0.0:98x",
                               "0.0.0.0:99999999999999999999999",
                               "256.0.0.1:9820",
                               "1.2.3:9820",
                               "::1:9820",
                               "[::1]9820",
                               "[::1",
                               "[not-v6]:9820",
                               "http://127.0.0.1:9820",
                               "bad_host:9820",
                               "-host:9820",
                               "host-.x:9820",
                               "a..b:9820",
                               "host name:9820"}) {
    auto r = parse_listen_address("daemon.listen", bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code(), status_code::invalid_argument);
    EXPECT_TRUE(r.error().message().starts_with("daemon.listen: ")) << r.error().message();
  }
  EXPECT_TRUE(contains(parse_listen_address("k", "1.2.3.4:0").error().message(), "1 to 65535"));
}

TEST(parse_log_level, names_and_errors) {
  EXPECT_EQ(*parse_log_level("k", "trace"), log_level::trace);
  EXPECT_EQ(*parse_log_level("k", "DEBUG"), log_level::debug);
  EXPECT_EQ(*parse_log_level("k", "info"), log_level::info);
  EXPECT_EQ(*parse_log_level("k", "warn"), log_level::warn);
  EXPECT_EQ(*parse_log_level("k", "warning"), log_level::warn);
  EXPECT_EQ(*parse_log_level("k", "error"), log_level::error);
  auto bad = parse_log_level("logging.level", "loud");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.error().message().starts_with("logging.level: ")) << bad.error().message();
}

TEST(parse_daemon_config, tenants_limits_and_weights) {
  std::vector<std::string> warnings;
  auto r = parse_daemon_config(R"(
[tenants.curio-a]
max_in_flight = 8
max_queued_bytes = "2GiB"
weight = 3
[tenants."node.b_2"]
max_queued_bytes = 1048576
[tenants.local]
weight = 10
)",
                               &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(warnings.empty());
  ASSERT_EQ(r->tenants.size(), 3u);
  const engine::tenant_policy& a = r->tenants.at("curio-a");
  EXPECT_EQ(a.max_in_flight, 8u);
  EXPECT_EQ(a.max_queued_bytes, 2 * GiB);
  EXPECT_EQ(a.weight, 3u);
  const engine::tenant_policy& b = r->tenants.at("node.b_2");
  EXPECT_EQ(b.max_in_flight, 0u);
  EXPECT_EQ(b.max_queued_bytes, MiB);
  EXPECT_EQ(b.weight, 1u);
  EXPECT_EQ(r->tenants.at("local").weight, 10u);
  const engine::engine_config e = to_engine_config(*r);
  EXPECT_EQ(e.tenants.size(), 3u);
  EXPECT_EQ(e.tenants.at("curio-a").max_queued_bytes, 2 * GiB);
  EXPECT_TRUE(parse_daemon_config("", nullptr)->tenants.empty());
}

TEST(parse_daemon_config, bad_tenant_tables_are_errors_naming_the_key) {
  const std::pair<const char*, const char*> cases[] = {
      {"[tenants.a]\nmax_inflight = 3", "tenants.a.max_inflight: unknown key"},
      {"[tenants.a]\nweight = 0", "tenants.a.weight: 0 is out of range"},
      {"[tenants.a]\nweight = 1001", "tenants.a.weight: 1001 is out of range"},
      {"[tenants.a]\nweight = 1.5", "tenants.a.weight: expected an integer from 1 to 1000"},
      {"[tenants.a]\nmax_in_flight = -1", "tenants.a.max_in_flight: -1 is out of range"},
      {"[tenants.a]\nmax_in_flight = \"8\"", "tenants.a.max_in_flight: expected an integer"},
      {"[tenants.a]\nmax_queued_bytes = \"2 parsecs\"", "tenants.a.max_queued_bytes: "},
      {"[tenants.\"a b\"]\nweight = 2", "tenants.a b: a tenant name is 1 to 64"},
      {"[tenants.\"\"]\nweight = 2", "tenants.: a tenant name is 1 to 64"},
      {"tenants = 3", "tenants: expected a table"},
      {"[tenants]\na = 3", "tenants.a: expected a table"},
  };
  for (const auto& [text, message] : cases) {
    auto r = parse_daemon_config(text, nullptr);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().code(), status_code::invalid_argument);
    EXPECT_TRUE(r.error().message().starts_with(message)) << text << " → " << r.error().message();
  }
  const std::string long_name = "[tenants." + std::string(65, 'x') + "]\nweight = 2";
  EXPECT_FALSE(parse_daemon_config(long_name, nullptr).ok());
}

TEST(load_daemon_config, a_missing_file_gives_the_defaults_and_a_warning) {
  temp_dir d("missing");
  const std::string path = (d.path / "cuzk.toml").string();
  std::vector<std::string> warnings;
  auto r = load_daemon_config(path, &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  expect_defaults(*r);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(contains(warnings[0], path)) << warnings[0];
  EXPECT_TRUE(contains(warnings[0], "does not exist")) << warnings[0];
}

TEST(load_daemon_config, a_directory_is_an_error) {
  temp_dir d("dir");
  std::vector<std::string> warnings;
  auto r = load_daemon_config(d.path.string(), &warnings);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::io_error);
  EXPECT_TRUE(contains(r.error().message(), d.path.string())) << r.error().message();
}

TEST(load_daemon_config, an_oversized_file_is_an_error) {
  temp_dir d("big");
  const std::string path = (d.path / "cuzk.toml").string();
  const std::string text = "# " + std::string(size_t(2) << 20, 'x') + "\n";
  ASSERT_TRUE(write_file_atomic(path, std::string_view(text)).ok());
  auto r = load_daemon_config(path, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::bad_length);
}

TEST(load_daemon_config, reads_a_file_and_prefixes_warnings_and_errors_with_its_path) {
  temp_dir d("file");
  const std::string path = (d.path / "cuzk.toml").string();
  ASSERT_TRUE(write_file_atomic(path, std::string_view("[gpus]\ndevices = [3]\nextra = 1\n")).ok());
  std::vector<std::string> warnings;
  auto r = load_daemon_config(path, &warnings);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->gpus.devices, (std::vector<int>{3}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(warnings[0].starts_with(path + ": ")) << warnings[0];
  EXPECT_TRUE(contains(warnings[0], "gpus.extra")) << warnings[0];

  ASSERT_TRUE(write_file_atomic(path, std::string_view("[memory]\nsafety_margin = \"x\"\n")).ok());
  auto bad = load_daemon_config(path, nullptr);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.error().message().starts_with(path + ": memory.safety_margin: "))
      << bad.error().message();
}

TEST(to_engine_config, maps_each_key_of_the_table) {
  daemon_config c;
  engine::engine_config e = to_engine_config(c);
  EXPECT_EQ(e.host_memory_budget, 0u);  // auto
  EXPECT_EQ(e.host_safety_margin, 5 * GiB);
  EXPECT_EQ(e.param_dir, "/data/zk/params");
  EXPECT_EQ(e.eviction_min_idle, 5min);
  EXPECT_TRUE(e.gpu_devices.empty());
  EXPECT_EQ(e.prover_threads, 0u);
  EXPECT_EQ(e.synthesis_workers, 0u);  // automatic
  EXPECT_EQ(e.synthesis_threads, 0u);  // every core
  EXPECT_EQ(e.max_synthesis_workers, 18u);
  EXPECT_FALSE(e.log);

  c.memory.total_budget = 100 * GiB;
  c.memory.safety_margin = GiB;
  c.memory.eviction_min_idle = 30s;
  c.srs.param_cache = "/p";
  c.gpus.devices = {1, 0};
  c.gpus.gpu_threads = 16;
  c.synthesis.threads = 12;
  c.pipeline.max_parallel_synthesis = 3;
  e = to_engine_config(c);
  EXPECT_EQ(e.host_memory_budget, 100 * GiB);
  EXPECT_EQ(e.host_safety_margin, GiB);
  EXPECT_EQ(e.eviction_min_idle, 30s);
  EXPECT_EQ(e.param_dir, "/p");
  EXPECT_EQ(e.gpu_devices, (std::vector<int>{1, 0}));
  EXPECT_EQ(e.prover_threads, 16u);
  EXPECT_EQ(e.synthesis_threads, 12u);
  EXPECT_EQ(e.max_synthesis_workers, 3u);
  EXPECT_EQ(e.synthesis_workers, 0u);
  c.pipeline.max_parallel_synthesis = 0;  // Rust: 0 means 18
  EXPECT_EQ(to_engine_config(c).max_synthesis_workers, 18u);
}

TEST(to_engine_config, the_log_sink_drops_messages_below_the_level) {
  daemon_config c;
  c.logging.level = log_level::warn;
  std::vector<std::string> seen;
  engine::engine_config e =
      to_engine_config(c, [&](log_level, std::string_view m) { seen.emplace_back(m); });
  ASSERT_TRUE(e.log);
  e.log(log_level::debug, "d");
  e.log(log_level::info, "i");
  e.log(log_level::warn, "w");
  e.log(log_level::error, "e");
  EXPECT_EQ(seen, (std::vector<std::string>{"w", "e"}));
}

}  // namespace
