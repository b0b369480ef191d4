// SPDX-License-Identifier: Apache-2.0
// The daemon's configuration: cuzk.toml (docs/spec/wire.md §7, docs/spec/wire.md §7) read into a
// daemon_config, and the engine_config it means. Every key of the Rust cuzk's file is accepted
// with the Rust code defaults, so an operator's existing file works unchanged; unlike the Rust
// parser, nothing is dropped silently: deprecated and unknown keys produce a warning that names
// the full dotted key, and a malformed value (a size, a duration, an address, a wrong TOML type)
// is an error that names the key instead of quietly becoming a default.
//
// How each key reaches our engine (include/cuzk/engine.hpp engine_config):
//
// | key                         | default                     | engine_config field            |
// |-----------------------------|-----------------------------|--------------------------------|
// | daemon.listen               | unix:///run/curio/cuzk.sock | (daemon) the gRPC listener     |
// | daemon.status_listen        | "" (off)                    | (daemon) HTTP status, TCP only |
// | daemon.drain_timeout (ours) | 10m                         | (daemon) SIGTERM waits this    |
// |                             |                             | long for accepted jobs, then   |
// |                             |                             | cancels the rest               |
// | daemon.allow_insecure_tcp   | false                       | (daemon) true: a plaintext TCP |
// |   (ours)                    |                             | listener on a non-loopback     |
// |                             |                             | address serves every peer;     |
// |                             |                             | false: protected mode, only    |
// |                             |                             | loopback peers (security.md)   |
// | daemon.tls_cert_file (ours) | "" (plaintext)              | (daemon) PEM certificate chain |
// | daemon.tls_key_file (ours)  | ""                          | (daemon) its PEM private key;  |
// |                             |                             | both set: gRPC and the status  |
// |                             |                             | listener speak TLS             |
// | daemon.tls_client_ca_file   | "" (no client certificate)  | (daemon) PEM CA bundle: mutual |
// |   (ours)                    |                             | TLS, a client certificate it   |
// |                             |                             | signed is required             |
// | daemon.auth_tokens_file     | "" (no tokens)              | (daemon) `TENANT TOKEN         |
// |   (ours)                    |                             | [readonly]` lines: callers     |
// |                             |                             | send `authorization: Bearer    |
// |                             |                             | TOKEN` (docs/security.md)      |
// | srs.param_cache             | /data/zk/params             | param_dir                      |
// | srs.param_checks (ours)     | "on-curve"                  | params_checks: "on-curve",     |
// |                             |                             | "batched" or "full" (subgroup  |
// |                             |                             | checks of every point on load) |
// | memory.total_budget         | auto                        | host_memory_budget; auto: 0,   |
// |                             |                             | machine memory minus margin    |
// | memory.safety_margin        | 5GiB                        | host_safety_margin (auto only) |
// | memory.eviction_min_idle    | 5m                          | eviction_min_idle              |
// | gpus.devices                | [] (every device)           | gpu_devices                    |
// | gpus.gpu_threads            | 0 (every core)              | prover_threads (1)             |
// | gpus.gpu_workers_per_device | 2                           | gpu_lanes (3); 0 acts as 1     |
// | gpus.memory_budget (ours)   | auto                        | device_memory_budget; auto: 0, |
// |                             |                             | each device's memory - 1 GiB;  |
// |                             |                             | parameters that do not fit it  |
// |                             |                             | with the prover's working set  |
// |                             |                             | stay in host memory, streamed  |
// | gpus.cpu_fallback (ours)    | "auto"                      | cpu_fallback_max_param_bytes:  |
// |                             |                             | auto 4 GiB, "on" all, "off" 0  |
// | gpus.express_lane (ours)    | true                        | express_lane: PoSt's own       |
// |                             |                             | synthesis worker and GPU lane  |
// | synthesis.threads           | 0 (every core)              | synthesis_threads (2)          |
// | pipeline.                   | 18 (0 -> 18)                | max_synthesis_workers (2)      |
// |   max_parallel_synthesis    |                             |                                |
// | logging.level               | info                        | log: the sink to_engine_config |
// |                             |                             | builds drops what is below it  |
// | tenants.NAME.max_in_flight  | 0 (no limit)                | tenants[NAME].max_in_flight:   |
// |   (ours)                    |                             | jobs accepted, not ended; more |
// |                             |                             | → RESOURCE_EXHAUSTED           |
// | tenants.NAME.               | 0 (no limit)                | tenants[NAME].max_queued_bytes |
// |   max_queued_bytes (ours)   |                             | (a size): request bytes of     |
// |                             |                             | jobs not yet started           |
// | tenants.NAME.weight (ours)  | 1 (1 to 1000)               | tenants[NAME].weight: share of |
// |                             |                             | each stage within a priority   |
// |                             |                             | (docs/security.md "Tenants")   |
//
// (1) The Rust key sizes the C++ pool of preprocessing, b_g2_msm and SRS decoding; ours is that
//     pool (the CPU prover's threads and the parameter decoding).
// (2) As in Rust, synthesis.threads sizes the synthesis thread pool (Rust: the global rayon
//     pool), which every partition in synthesis shares, spreading its challenges (PoSt: sector
//     slots) over it. Partitions synthesized at once: an eighth of the cores (a quarter with
//     CUZK_DISABLE_PCE=1, full synthesis), at least 2, capped
//     by pipeline.max_parallel_synthesis (Rust caps its synthesis workers with it too; its own
//     count is budget / 14 GiB, ours is admitted against the memory budget partition by partition).
// (3) As in Rust, N provers per GPU sharing the device: Rust's workers share one CUDA mutex;
//     ours (lanes) share the parameters and the device's compute lock, and a lane proves beside
//     another only when the device budget holds its witness too (engine_config::gpu_lanes).
//
// Keys read, checked and kept, with no effect on our engine, and why:
// - scheduler.max_batch_size (1), scheduler.max_batch_wait_ms (10000): cross-sector batching; our
//   engine proves partition by partition and has no batch collector.
// - scheduler.sort_by_type (true): never read by Rust either.
// - pipeline.enabled (true): false selects Rust's monolithic mode; ours always pipelines (a
//   warning says so when it is false).
// - pipeline.synthesis_lookahead (1): only logged by Rust.
// - pipeline.synthesis_concurrency (1), pipeline.max_gpu_queue_depth (0): Rust's batch
//   concurrency and pacer; ours runs the synthesis workers of (2), admits each partition against
//   the memory budget and stops
//   running ahead once 2 x (prover workers) partitions wait (docs/architecture.md "The engine").
// - pipeline.slot_size (0): a dead branch in Rust.
// - logging.format (none): never wired in Rust; kept for the daemon.
// engine_config fields no key sets keep their defaults: disable_gpus, cpu_worker_with_gpus,
// result_retention, max_retained_results.
// Deprecated keys, ignored with a warning as in Rust: memory.pinned_budget,
// memory.working_memory_budget, synthesis.partition_workers. srs.preload, deprecated and ignored
// by Rust, is ours again: circuit ids ("winning-32g", "wpost-32g", "porep-32g", ...) loaded at
// start, PoSt first (daemon_options::preload).
// [tenants.NAME] is ours and strict: NAME follows the tokens file's rule (1 to 64 of A-Z a-z 0-9
// . _ -) and an unknown key in the table is an error, not a warning (a misspelt limit would leave
// the tenant unlimited). A tenant without a table has no limits and weight 1.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/engine.hpp"
#include "cuzk/log.hpp"
#include "cuzk/status.hpp"

namespace cuzk::server {

/// The default listen address (the Rust daemon's).
inline constexpr std::string_view default_listen = "unix:///run/curio/cuzk.sock";
/// The config file read when the command line names none.
inline constexpr std::string_view default_config_path = "/data/zk/cuzk.toml";

/// A listener: a unix socket path or a TCP host and port.
struct listen_address {
  enum class transport { unix_socket, tcp };
  transport kind = transport::unix_socket;
  std::string path;  ///< unix_socket: the socket file ("unix:///run/x.sock" → "/run/x.sock")
  std::string host;  ///< tcp: an IPv4 address, an IPv6 address without brackets, or a host name
  uint16_t port = 0;
  std::string text;  ///< as configured
  bool operator==(const listen_address&) const = default;
};

struct daemon_config {
  struct daemon_section {
    listen_address listen{listen_address::transport::unix_socket, "/run/curio/cuzk.sock", "", 0,
                          std::string(default_listen)};
    std::optional<listen_address> status_listen;  ///< nullopt: off ("")
    std::chrono::milliseconds drain_timeout = std::chrono::minutes(10);
    /// Serve non-loopback peers on a plaintext TCP listener (protected mode off).
    bool allow_insecure_tcp = false;
    /// TLS: both set or both empty (checked by parse_daemon_config).
    std::string tls_cert_file, tls_key_file;
    /// Mutual TLS: clients need a certificate this CA bundle signed (needs tls_cert_file).
    std::string tls_client_ca_file;
    /// Bearer tokens (security.hpp parse_token_table); empty: none.
    std::string auth_tokens_file;
  } daemon;
  struct srs_section {
    std::string param_cache = "/data/zk/params";
    engine::engine_config::param_checks param_checks =
        engine::engine_config::param_checks::on_curve;
    /// Circuit ids loaded when the daemon starts, PoSt first (ours; the Rust cuzk ignores the
    /// key): a restarted daemon proves a WinningPoSt without waiting for its parameters.
    std::vector<std::string> preload;
  } srs;
  struct memory_section {
    std::optional<uint64_t> total_budget;  ///< nullopt: auto
    uint64_t safety_margin = uint64_t(5) << 30;
    std::chrono::milliseconds eviction_min_idle = std::chrono::minutes(5);
  } memory;
  struct gpus_section {
    std::vector<int> devices;  ///< empty: every device
    uint32_t gpu_threads = 0;
    uint32_t gpu_workers_per_device = 2;
    std::optional<uint64_t> memory_budget;  ///< per GPU; nullopt: auto
    /// With no GPU left in rotation, the CPU proves circuits whose parameters are at most this
    /// many bytes ("auto": 4 GiB, "on": all, "off": none).
    uint64_t cpu_fallback_max_param_bytes = engine::engine_config{}.cpu_fallback_max_param_bytes;
    bool express_lane = engine::engine_config{}.express_lane;
  } gpus;
  struct scheduler_section {
    uint32_t max_batch_size = 1;
    uint64_t max_batch_wait_ms = 10000;
    bool sort_by_type = true;
  } scheduler;
  struct synthesis_section {
    uint32_t threads = 0;
  } synthesis;
  struct pipeline_section {
    bool enabled = true;
    uint32_t synthesis_lookahead = 1;
    uint32_t synthesis_concurrency = 1;
    uint32_t max_parallel_synthesis = 18;
    uint32_t slot_size = 0;
    uint32_t max_gpu_queue_depth = 0;
  } pipeline;
  struct logging_section {
    log_level level = log_level::info;
    std::string format;  ///< "" when unset
  } logging;
  /// [tenants.NAME] (ours): each tenant's limits and weight, by the tenant's name (a tokens
  /// file tenant, a client certificate's common name, or "local").
  std::map<std::string, engine::tenant_policy> tenants;
};

/// Parses cuzk.toml text. Errors (invalid_argument): TOML syntax (with line and column), a value
/// of the wrong type or out of range, naming the dotted key and what it expects. Deprecated and
/// unknown keys are appended to `warnings` (may be null) and otherwise ignored.
result<daemon_config> parse_daemon_config(std::string_view toml_text,
                                          std::vector<std::string>* warnings);

/// Reads and parses the file at `path`. A path that does not exist gives the defaults and a
/// warning saying so (the Rust daemon's behaviour, but said aloud); a directory, an unreadable
/// or oversized file is io_error; parse errors are prefixed with the path.
result<daemon_config> load_daemon_config(const std::string& path,
                                         std::vector<std::string>* warnings);

/// The engine configuration the daemon config means (table above). Messages below
/// logging.level are dropped before they reach `sink`.
engine::engine_config to_engine_config(const daemon_config& cfg, log_sink sink = {});

/// The order srs.preload runs in: WinningPoSt ("winning-…"), then WindowPoSt ("wpost-…"), then
/// the rest, each as listed (a restarted daemon is ready for the deadline-bound proofs first).
std::vector<std::string> preload_order(std::vector<std::string> ids);

// Strict value parsers; `key` only names the setting in error messages.

/// "5GiB", "512MiB", "10GB", "1024" (bytes), optionally with spaces before the unit. Units: B,
/// KiB, MiB, GiB, TiB (powers of 1024) and KB, MB, GB, TB (powers of 1000). A whole number of at
/// least 0; negative, fractional, empty, unknown units and values past 2^64 - 1 are errors.
result<uint64_t> parse_size(std::string_view key, std::string_view text);
/// parse_size, or "auto" (nullopt).
result<std::optional<uint64_t>> parse_size_or_auto(std::string_view key, std::string_view text);
/// "5m", "30s", "2h", "1500ms", "300" (seconds). A whole number of units; negative, empty,
/// unknown units and values that overflow are errors.
result<std::chrono::milliseconds> parse_duration(std::string_view key, std::string_view text);
/// "unix:///path" (any non-empty path that fits a socket address), "IP:port", "[v6]:port" or
/// "host:port" with a port from 1 to 65535.
result<listen_address> parse_listen_address(std::string_view key, std::string_view text);
/// trace, debug, info, warn (or warning), error; any case.
result<log_level> parse_log_level(std::string_view key, std::string_view text);

}  // namespace cuzk::server
