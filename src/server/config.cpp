// SPDX-License-Identifier: Apache-2.0
// cuzk.toml → daemon_config → engine_config (config.hpp has the key table). The file is walked
// key by key against a table of known keys, so every key is either read with its type checked,
// reported as deprecated, or reported as unknown: none is skipped without a word.
#include "server/config.hpp"

#include <arpa/inet.h>
#include <sys/stat.h>
#include <cstdint>

#include <toml++/toml.h>
#include <algorithm>
#include <cerrno>
#include <functional>
#include <limits>
#include <map>

#include "base/file_io.hpp"

namespace cuzk::server {
namespace {

/// Far above any real cuzk.toml; a larger file is a mistake, not a config.
constexpr uint64_t max_config_bytes = uint64_t(1) << 20;

status invalid(std::string_view key, const std::string& message) {
  return status(status_code::invalid_argument, std::string(key) + ": " + message);
}

std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  out.append(text);
  out.push_back('"');
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/// The leading decimal digits of `s` as a number; `digits` is how many there were. False on
/// overflow past uint64_t.
bool leading_number(std::string_view s, uint64_t& value, size_t& digits) {
  value = 0;
  digits = 0;
  while (digits < s.size() && is_digit(s[digits])) {
    const uint64_t d = uint64_t(s[digits] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
    value = value * 10 + d;
    ++digits;
  }
  return true;
}

/// The TOML type of a node as a message word ("a string").
std::string_view type_phrase(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date/time";
  }
}

status wrong_type(std::string_view key, std::string_view expected, const toml::node& n) {
  return invalid(key, "expected " + std::string(expected) + ", got " + std::string(type_phrase(n)));
}

// Typed readers: each checks the node's TOML type and range and stores the value.

status read_string(const std::string& key, const toml::node& n, std::string& out) {
  const auto* v = n.as_string();
  if (!v) return wrong_type(key, "a string", n);
  out = v->get();
  return {};
}

status read_bool(const std::string& key, const toml::node& n, bool& out) {
  const auto* v = n.as_boolean();
  if (!v) return wrong_type(key, "a boolean (true or false)", n);
  out = v->get();
  return {};
}

status read_unsigned(const std::string& key, const toml::node& n, uint64_t max,
                     std::string_view expected, uint64_t& out) {
  const auto* v = n.as_integer();
  if (!v) return wrong_type(key, expected, n);
  const int64_t x = v->get();
  if (x < 0 || uint64_t(x) > max)
    return invalid(key, std::to_string(x) + " is out of range: expected " + std::string(expected));
  out = uint64_t(x);
  return {};
}

status read_u32(const std::string& key, const toml::node& n, uint32_t& out) {
  uint64_t x = 0;
  status s = read_unsigned(key, n, std::numeric_limits<uint32_t>::max(),
                           "an integer from 0 to 4294967295", x);
  if (s.ok()) out = uint32_t(x);
  return s;
}

status read_u64(const std::string& key, const toml::node& n, uint64_t& out) {
  return read_unsigned(key, n, uint64_t(std::numeric_limits<int64_t>::max()),
                       "a non-negative integer", out);
}

/// A size: a string for parse_size (or "auto" when `out_auto` is given), or an integer of bytes.
status read_size(const std::string& key, const toml::node& n, uint64_t& out) {
  if (n.is_integer()) return read_u64(key, n, out);
  const auto* v = n.as_string();
  if (!v) return wrong_type(key, "a size (a string such as \"5GiB\", or bytes)", n);
  auto r = parse_size(key, v->get());
  if (!r) return r.error();
  out = *r;
  return {};
}

status read_size_or_auto(const std::string& key, const toml::node& n,
                         std::optional<uint64_t>& out) {
  if (n.is_integer()) {
    uint64_t bytes = 0;
    status s = read_u64(key, n, bytes);
    if (s.ok()) out = bytes;
    return s;
  }
  const auto* v = n.as_string();
  if (!v) return wrong_type(key, "\"auto\" or a size (a string such as \"256GiB\", or bytes)", n);
  auto r = parse_size_or_auto(key, v->get());
  if (!r) return r.error();
  out = *r;
  return {};
}

/// A duration: a string for parse_duration, or an integer of seconds.
status read_duration(const std::string& key, const toml::node& n, std::chrono::milliseconds& out) {
  if (n.is_integer()) {
    uint64_t seconds = 0;
    status s = read_u64(key, n, seconds);
    if (!s.ok()) return s;
    auto r = parse_duration(key, std::to_string(seconds));
    if (!r) return r.error();
    out = *r;
    return {};
  }
  const auto* v = n.as_string();
  if (!v) return wrong_type(key, "a duration (a string such as \"5m\", or seconds)", n);
  auto r = parse_duration(key, v->get());
  if (!r) return r.error();
  out = *r;
  return {};
}

status read_listen(const std::string& key, const toml::node& n, listen_address& out) {
  std::string text;
  status s = read_string(key, n, text);
  if (!s.ok()) return s;
  auto r = parse_listen_address(key, text);
  if (!r) return r.error();
  out = std::move(*r);
  return {};
}

/// The HTTP status listener: "" is off; otherwise TCP only (it is plain HTTP on a port).
status read_status_listen(const std::string& key, const toml::node& n,
                          std::optional<listen_address>& out) {
  std::string text;
  status s = read_string(key, n, text);
  if (!s.ok()) return s;
  if (text.empty()) {
    out.reset();
    return {};
  }
  auto r = parse_listen_address(key, text);
  if (!r) return r.error();
  if (r->kind != listen_address::transport::tcp)
    return invalid(key, quoted(text) + " is a unix socket; the status listener takes host:port");
  out = std::move(*r);
  return {};
}

/// srs.preload: an array of circuit ids (strings; the engine names the unknown ones at start),
/// each once.
status read_circuit_ids(const std::string& key, const toml::node& n,
                        std::vector<std::string>& out) {
  const auto* arr = n.as_array();
  if (!arr) return wrong_type(key, "an array of circuit ids", n);
  std::vector<std::string> ids;
  for (size_t i = 0; i < arr->size(); ++i) {
    std::string id;
    if (status s = read_string(key + "[" + std::to_string(i) + "]", *arr->get(i), id); !s.ok())
      return s;
    if (id.empty()) return invalid(key, "an empty circuit id");
    if (std::find(ids.begin(), ids.end(), id) != ids.end())
      return invalid(key, quoted(id) + " is listed twice");
    ids.push_back(std::move(id));
  }
  out = std::move(ids);
  return {};
}

status read_devices(const std::string& key, const toml::node& n, std::vector<int>& out) {
  const auto* arr = n.as_array();
  if (!arr) return wrong_type(key, "an array of GPU ordinals", n);
  std::vector<int> devices;
  for (size_t i = 0; i < arr->size(); ++i) {
    const std::string item_key = key + "[" + std::to_string(i) + "]";
    uint64_t ordinal = 0;
    status s = read_unsigned(item_key, *arr->get(i), uint64_t(std::numeric_limits<int>::max()),
                             "a GPU ordinal (a non-negative integer)", ordinal);
    if (!s.ok()) return s;
    if (std::find(devices.begin(), devices.end(), int(ordinal)) != devices.end())
      return invalid(key, "GPU " + std::to_string(ordinal) + " is listed twice");
    devices.push_back(int(ordinal));
  }
  out = std::move(devices);
  return {};
}

status read_log_level(const std::string& key, const toml::node& n, log_level& out) {
  std::string text;
  status s = read_string(key, n, text);
  if (!s.ok()) return s;
  auto r = parse_log_level(key, text);
  if (!r) return r.error();
  out = *r;
  return {};
}

/// gpus.cpu_fallback: "auto" (4 GiB of parameters at most), "on" (any) or "off" (none).
status read_cpu_fallback(const std::string& key, const toml::node& n, uint64_t& max_param_bytes) {
  std::string text;
  status s = read_string(key, n, text);
  if (!s.ok()) return s;
  if (text == "auto") {
    max_param_bytes = engine::engine_config{}.cpu_fallback_max_param_bytes;
  } else if (text == "on") {
    max_param_bytes = UINT64_MAX;
  } else if (text == "off") {
    max_param_bytes = 0;
  } else {
    return invalid(key, "\"" + text + "\"; expected \"auto\", \"on\" or \"off\"");
  }
  return {};
}

/// srs.param_checks: "on-curve", "batched" or "full".
status read_param_checks(const std::string& key, const toml::node& n,
                         engine::engine_config::param_checks& out) {
  std::string text;
  status s = read_string(key, n, text);
  if (!s.ok()) return s;
  if (text == "on-curve") {
    out = engine::engine_config::param_checks::on_curve;
  } else if (text == "batched") {
    out = engine::engine_config::param_checks::batched;
  } else if (text == "full") {
    out = engine::engine_config::param_checks::full;
  } else {
    return invalid(key, "\"" + text + "\"; expected \"on-curve\", \"batched\" or \"full\"");
  }
  return {};
}

/// The tokens file's rule for a tenant name (security.hpp token_table): 1 to 64 of A-Z a-z 0-9
/// . _ -, so a name is safe in a log line and as a metrics label.
bool is_tenant_name(std::string_view name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
           c == '_' || c == '-';
  });
}

/// [tenants.NAME] tables (ours): each a tenant's max_in_flight, max_queued_bytes and weight.
/// Unlike the Rust cuzk's tables, an unknown key here is an error: a misspelt limit would
/// silently leave a tenant unlimited.
status read_tenants(const toml::node& n, std::map<std::string, engine::tenant_policy>& out) {
  const toml::table* tenants = n.as_table();
  if (!tenants) return wrong_type("tenants", "a table of [tenants.NAME] tables", n);
  for (const auto& [name_key, node] : *tenants) {
    const std::string name(name_key.str());
    const std::string table = "tenants." + name;
    if (!is_tenant_name(name))
      return invalid(table, "a tenant name is 1 to 64 of the characters A-Z a-z 0-9 . _ -");
    const toml::table* keys = node.as_table();
    if (!keys) return wrong_type(table, "a table ([" + table + "])", node);
    engine::tenant_policy policy;
    for (const auto& [item_key, item] : *keys) {
      const std::string key(item_key.str());
      const std::string dotted = table + "." + key;
      status s;
      if (key == "max_in_flight") {
        uint32_t v = 0;
        s = read_u32(dotted, item, v);
        policy.max_in_flight = v;
      } else if (key == "max_queued_bytes") {
        s = read_size(dotted, item, policy.max_queued_bytes);
      } else if (key == "weight") {
        uint64_t v = 0;
        s = read_unsigned(dotted, item, 1000, "an integer from 1 to 1000", v);
        if (s.ok() && v == 0)
          s = invalid(dotted, "0 is out of range: expected an integer from 1 to 1000");
        policy.weight = unsigned(v);
      } else {
        s = invalid(dotted,
                    "unknown key; a tenant takes max_in_flight, max_queued_bytes and weight");
      }
      if (!s.ok()) return s;
    }
    out[name] = policy;
  }
  return {};
}

/// One known key: how to read it into the config.
struct known_key {
  std::string_view name;
  std::function<status(const std::string& key, const toml::node&)> read;
};

/// One [table] of the file.
struct known_table {
  std::string_view name;
  std::vector<known_key> keys;
  std::vector<std::string_view> deprecated;
};

std::vector<known_table> key_table(daemon_config& c) {
  auto u32 = [](uint32_t& field) {
    return [&field](const std::string& k, const toml::node& n) { return read_u32(k, n, field); };
  };
  auto boolean = [](bool& field) {
    return [&field](const std::string& k, const toml::node& n) { return read_bool(k, n, field); };
  };
  // A file path; "" means unset, as when the key is absent.
  auto path = [](std::string& field) {
    return [&field](const std::string& k, const toml::node& n) { return read_string(k, n, field); };
  };
  return {
      {"daemon",
       {{"listen", [&](auto& k, auto& n) { return read_listen(k, n, c.daemon.listen); }},
        {"status_listen",
         [&](auto& k, auto& n) { return read_status_listen(k, n, c.daemon.status_listen); }},
        {"drain_timeout",
         [&](auto& k, auto& n) { return read_duration(k, n, c.daemon.drain_timeout); }},
        {"allow_insecure_tcp", boolean(c.daemon.allow_insecure_tcp)},
        {"tls_cert_file", path(c.daemon.tls_cert_file)},
        {"tls_key_file", path(c.daemon.tls_key_file)},
        {"tls_client_ca_file", path(c.daemon.tls_client_ca_file)},
        {"auth_tokens_file", path(c.daemon.auth_tokens_file)}},
       {}},
      {"srs",
       {{"param_cache",
         [&](auto& k, auto& n) {
           status s = read_string(k, n, c.srs.param_cache);
           if (s.ok() && c.srs.param_cache.empty())
             return invalid(k, "the value is empty; expected the directory of the .params files");
           return s;
         }},
        {"param_checks",
         [&](auto& k, auto& n) { return read_param_checks(k, n, c.srs.param_checks); }},
        {"preload", [&](auto& k, auto& n) { return read_circuit_ids(k, n, c.srs.preload); }}},
       {}},
      {"memory",
       {{"total_budget",
         [&](auto& k, auto& n) {
           status s = read_size_or_auto(k, n, c.memory.total_budget);
           if (s.ok() && c.memory.total_budget == uint64_t(0))
             return invalid(k, "0 leaves the engine nothing; use \"auto\" or a size above 0");
           return s;
         }},
        {"safety_margin",
         [&](auto& k, auto& n) { return read_size(k, n, c.memory.safety_margin); }},
        {"eviction_min_idle",
         [&](auto& k, auto& n) { return read_duration(k, n, c.memory.eviction_min_idle); }}},
       {"pinned_budget", "working_memory_budget"}},
      {"gpus",
       {{"devices", [&](auto& k, auto& n) { return read_devices(k, n, c.gpus.devices); }},
        {"gpu_threads", u32(c.gpus.gpu_threads)},
        {"memory_budget",
         [&](auto& k, auto& n) {
           status s = read_size_or_auto(k, n, c.gpus.memory_budget);
           if (s.ok() && c.gpus.memory_budget == uint64_t(0))
             return invalid(k, "0 leaves the GPUs nothing; use \"auto\" or a size above 0");
           return s;
         }},
        {"gpu_workers_per_device", u32(c.gpus.gpu_workers_per_device)},
        {"cpu_fallback",
         [&](auto& k, auto& n) {
           return read_cpu_fallback(k, n, c.gpus.cpu_fallback_max_param_bytes);
         }},
        {"express_lane", boolean(c.gpus.express_lane)}},
       {}},
      {"scheduler",
       {{"max_batch_size", u32(c.scheduler.max_batch_size)},
        {"max_batch_wait_ms",
         [&](auto& k, auto& n) { return read_u64(k, n, c.scheduler.max_batch_wait_ms); }},
        {"sort_by_type", boolean(c.scheduler.sort_by_type)}},
       {}},
      {"synthesis", {{"threads", u32(c.synthesis.threads)}}, {"partition_workers"}},
      {"pipeline",
       {{"enabled", boolean(c.pipeline.enabled)},
        {"synthesis_lookahead", u32(c.pipeline.synthesis_lookahead)},
        {"synthesis_concurrency", u32(c.pipeline.synthesis_concurrency)},
        {"max_parallel_synthesis", u32(c.pipeline.max_parallel_synthesis)},
        {"slot_size", u32(c.pipeline.slot_size)},
        {"max_gpu_queue_depth", u32(c.pipeline.max_gpu_queue_depth)}},
       {}},
      {"logging",
       {{"level", [&](auto& k, auto& n) { return read_log_level(k, n, c.logging.level); }},
        {"format", [&](auto& k, auto& n) { return read_string(k, n, c.logging.format); }}},
       {}},
  };
}

void warn(std::vector<std::string>* warnings, std::string message) {
  if (warnings) warnings->push_back(std::move(message));
}

}  // namespace

result<uint64_t> parse_size(std::string_view key, std::string_view text) {
  const std::string_view s = trim(text);
  const std::string expected =
      "expected a size such as \"5GiB\", \"512MiB\", \"10GB\" or a number of bytes";
  if (s.empty()) return invalid(key, "the value is empty; " + expected);
  if (s.front() == '-') return invalid(key, quoted(text) + " is negative; " + expected);
  uint64_t number = 0;
  size_t digits = 0;
  if (!leading_number(s, number, digits))
    return invalid(key, quoted(text) + " is larger than 2^64 - 1 bytes");
  if (digits == 0) return invalid(key, quoted(text) + " is not a size; " + expected);
  if (digits < s.size() && (s[digits] == '.' || s[digits] == ','))
    return invalid(key, quoted(text) + " is not a whole number; " + expected);
  const std::string unit = lower(trim(s.substr(digits)));
  struct unit_scale {
    std::string_view name;
    uint64_t scale;
  };
  static constexpr unit_scale units[] = {
      {"", 1},
      {"b", 1},
      {"kib", uint64_t(1) << 10},
      {"mib", uint64_t(1) << 20},
      {"gib", uint64_t(1) << 30},
      {"tib", uint64_t(1) << 40},
      {"kb", 1000},
      {"mb", 1000 * 1000},
      {"gb", 1000 * 1000 * 1000},
      {"tb", uint64_t(1000) * 1000 * 1000 * 1000},
  };
  for (const auto& u : units) {
    if (unit != u.name) continue;
    if (number > std::numeric_limits<uint64_t>::max() / u.scale)
      return invalid(key, quoted(text) + " is larger than 2^64 - 1 bytes");
    return number * u.scale;
  }
  return invalid(key, quoted(text) + " has an unknown unit " + quoted(trim(s.substr(digits))) +
                          "; the units are B, KiB, MiB, GiB, TiB (1024) and KB, MB, GB, TB (1000)");
}

result<std::optional<uint64_t>> parse_size_or_auto(std::string_view key, std::string_view text) {
  if (lower(trim(text)) == "auto") return std::optional<uint64_t>();
  auto r = parse_size(key, text);
  if (!r) return r.error();
  return std::optional<uint64_t>(*r);
}

result<std::chrono::milliseconds> parse_duration(std::string_view key, std::string_view text) {
  const std::string_view s = trim(text);
  const std::string expected =
      "expected a duration such as \"5m\", \"30s\", \"2h\", \"1500ms\" "
      "or a number of seconds";
  if (s.empty()) return invalid(key, "the value is empty; " + expected);
  if (s.front() == '-') return invalid(key, quoted(text) + " is negative; " + expected);
  uint64_t number = 0;
  size_t digits = 0;
  const bool fits = leading_number(s, number, digits);
  if (digits == 0) return invalid(key, quoted(text) + " is not a duration; " + expected);
  if (digits < s.size() && (s[digits] == '.' || s[digits] == ','))
    return invalid(key, quoted(text) + " is not a whole number; " + expected);
  const std::string_view unit = trim(s.substr(digits));
  struct unit_scale {
    std::string_view name;
    uint64_t ms;
  };
  static constexpr unit_scale units[] = {
      {"", 1000}, {"ms", 1}, {"s", 1000}, {"m", 60 * 1000}, {"h", 3600 * 1000},
  };
  for (const auto& u : units) {
    if (unit != u.name) continue;
    const uint64_t max_ms = uint64_t(std::numeric_limits<std::chrono::milliseconds::rep>::max());
    if (!fits || number > max_ms / u.ms)
      return invalid(key, quoted(text) + " is too long a duration");
    return std::chrono::milliseconds(std::chrono::milliseconds::rep(number * u.ms));
  }
  return invalid(key, quoted(text) + " has an unknown unit " + quoted(unit) +
                          "; the units are ms, s, m and h (no unit: seconds)");
}

result<listen_address> parse_listen_address(std::string_view key, std::string_view text) {
  const std::string forms = "expected unix:///path, IP:port, [IPv6]:port or host:port";
  if (text.empty()) return invalid(key, "the value is empty; " + forms);
  listen_address out;
  out.text = std::string(text);
  constexpr std::string_view unix_scheme = "unix://";
  if (text.starts_with(unix_scheme)) {
    const std::string_view path = text.substr(unix_scheme.size());
    if (path.empty()) return invalid(key, quoted(text) + " names no socket path; " + forms);
    if (path.find('\0') != std::string_view::npos)
      return invalid(key, "the socket path contains a NUL byte");
    // sockaddr_un::sun_path holds 108 bytes with the terminating NUL.
    constexpr size_t max_path = 107;
    if (path.size() > max_path) {
      return invalid(key, "the socket path is " + std::to_string(path.size()) +
                              " bytes; a unix socket path may have at most " +
                              std::to_string(max_path));
    }
    out.kind = listen_address::transport::unix_socket;
    out.path = std::string(path);
    return out;
  }
  if (text.starts_with("unix:"))
    return invalid(key, quoted(text) + ": write a unix socket as unix:///absolute/path");
  if (text.find("://") != std::string_view::npos)
    return invalid(key, quoted(text) + " has an unknown scheme; " + forms);

  std::string_view host, port;
  if (text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string_view::npos)
      return invalid(key, quoted(text) + " has no closing ']'; " + forms);
    host = text.substr(1, close - 1);
    const std::string_view rest = text.substr(close + 1);
    if (rest.empty() || rest.front() != ':')
      return invalid(key, quoted(text) + " has no :port after the address; " + forms);
    port = rest.substr(1);
    in6_addr v6{};
    const std::string host_z(host);
    if (inet_pton(AF_INET6, host_z.c_str(), &v6) != 1)
      return invalid(key, quoted(host) + " is not an IPv6 address");
  } else {
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos)
      return invalid(key, quoted(text) + " has no :port; " + forms);
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos)
      return invalid(key, quoted(text) + ": write an IPv6 address in brackets, as [::1]:9820");
    if (host.empty())
      return invalid(key, quoted(text) + " has no host (0.0.0.0:port listens everywhere)");
    const bool dotted_digits =
        std::all_of(host.begin(), host.end(), [](char c) { return is_digit(c) || c == '.'; });
    if (dotted_digits) {
      in_addr v4{};
      const std::string host_z(host);
      if (inet_pton(AF_INET, host_z.c_str(), &v4) != 1)
        return invalid(key, quoted(host) + " is not an IPv4 address");
    } else {
      // A DNS name: labels of letters, digits and inner hyphens (RFC 1123), 253 bytes at most.
      bool valid = host.size() <= 253;
      size_t label_start = 0;
      for (size_t i = 0; valid && i <= host.size(); ++i) {
        if (i == host.size() || host[i] == '.') {
          const std::string_view label = host.substr(label_start, i - label_start);
          valid =
              !label.empty() && label.size() <= 63 && label.front() != '-' && label.back() != '-';
          label_start = i + 1;
          continue;
        }
        const char c = host[i];
        valid = is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
      }
      if (!valid) return invalid(key, quoted(host) + " is not an IP address or a host name");
    }
  }
  uint64_t port_number = 0;
  size_t digits = 0;
  const bool fits = leading_number(port, port_number, digits);
  if (port.empty() || digits != port.size() || !fits || port_number < 1 || port_number > 65535)
    return invalid(key, "port " + quoted(port) + " is not a number from 1 to 65535");
  out.kind = listen_address::transport::tcp;
  out.host = std::string(host);
  out.port = uint16_t(port_number);
  return out;
}

result<log_level> parse_log_level(std::string_view key, std::string_view text) {
  const std::string s = lower(trim(text));
  if (s == "trace") return log_level::trace;
  if (s == "debug") return log_level::debug;
  if (s == "info") return log_level::info;
  if (s == "warn" || s == "warning") return log_level::warn;
  if (s == "error") return log_level::error;
  return invalid(key,
                 quoted(text) + " is not a log level; expected trace, debug, info, warn or error");
}

result<daemon_config> parse_daemon_config(std::string_view toml_text,
                                          std::vector<std::string>* warnings) {
  toml::table root;
  try {
    root = toml::parse(toml_text);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return status(status_code::invalid_argument,
                  "TOML syntax error at line " + std::to_string(where.line) + ", column " +
                      std::to_string(where.column) + ": " + std::string(e.description()));
  }

  daemon_config cfg;
  const std::vector<known_table> tables = key_table(cfg);
  for (const auto& [table_key, table_node] : root) {
    const std::string table_name(table_key.str());
    if (table_name == "tenants") {
      if (status s = read_tenants(table_node, cfg.tenants); !s.ok()) return s;
      continue;
    }
    const auto known = std::find_if(tables.begin(), tables.end(),
                                    [&](const known_table& t) { return t.name == table_name; });
    if (known == tables.end()) {
      warn(warnings, "unknown " + std::string(table_node.is_table() ? "table [" : "key ") +
                         table_name + (table_node.is_table() ? "]" : "") + " (ignored)");
      continue;
    }
    const toml::table* table = table_node.as_table();
    if (!table) return wrong_type(table_name, "a table", table_node);
    for (const auto& [item_key, item_node] : *table) {
      const std::string name(item_key.str());
      const std::string dotted = table_name + "." + name;
      const auto key = std::find_if(known->keys.begin(), known->keys.end(),
                                    [&](const known_key& k) { return k.name == name; });
      if (key != known->keys.end()) {
        status s = key->read(dotted, item_node);
        if (!s.ok()) return s;
      } else if (std::find(known->deprecated.begin(), known->deprecated.end(), name) !=
                 known->deprecated.end()) {
        warn(warnings, "deprecated key " + dotted + " has no effect (ignored)");
      } else {
        warn(warnings, "unknown key " + dotted + " (ignored)");
      }
    }
  }
  if (cfg.daemon.tls_cert_file.empty() != cfg.daemon.tls_key_file.empty())
    return status(status_code::invalid_argument,
                  "daemon.tls_cert_file and daemon.tls_key_file go together: set both or neither");
  if (!cfg.daemon.tls_client_ca_file.empty() && cfg.daemon.tls_cert_file.empty())
    return status(status_code::invalid_argument,
                  "daemon.tls_client_ca_file needs daemon.tls_cert_file and daemon.tls_key_file "
                  "(mutual TLS is TLS first)");
  if (!cfg.pipeline.enabled)
    warn(warnings,
         "pipeline.enabled = false has no effect: cuzk always runs the partition pipeline");
  if (cfg.gpus.gpu_workers_per_device == 0)
    warn(warnings, "gpus.gpu_workers_per_device = 0: each GPU proves with one lane");
  return cfg;
}

result<daemon_config> load_daemon_config(const std::string& path,
                                         std::vector<std::string>* warnings) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) {
    warn(warnings, "config file " + path + " does not exist: using the built-in defaults");
    return daemon_config{};
  }
  auto text = read_text_file_bounded(path, max_config_bytes);
  if (!text)
    return status(text.error().code(), "reading the config file: " + text.error().message());
  std::vector<std::string> file_warnings;
  auto cfg = parse_daemon_config(*text, &file_warnings);
  for (auto& w : file_warnings) warn(warnings, path + ": " + w);
  if (!cfg) return status(cfg.error().code(), path + ": " + cfg.error().message());
  return cfg;
}

std::vector<std::string> preload_order(std::vector<std::string> ids) {
  const auto rank = [](const std::string& id) {
    return id.rfind("winning-", 0) == 0 ? 0 : id.rfind("wpost-", 0) == 0 ? 1 : 2;
  };
  std::stable_sort(ids.begin(), ids.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  return ids;
}

engine::engine_config to_engine_config(const daemon_config& cfg, log_sink sink) {
  engine::engine_config e;
  e.gpu_devices = cfg.gpus.devices;
  e.prover_threads = cfg.gpus.gpu_threads;
  e.gpu_lanes = std::max(1u, cfg.gpus.gpu_workers_per_device);
  e.synthesis_threads = cfg.synthesis.threads;
  e.max_synthesis_workers =
      cfg.pipeline.max_parallel_synthesis ? cfg.pipeline.max_parallel_synthesis : 18;
  e.host_memory_budget = cfg.memory.total_budget.value_or(0);
  e.device_memory_budget = cfg.gpus.memory_budget.value_or(0);
  e.cpu_fallback_max_param_bytes = cfg.gpus.cpu_fallback_max_param_bytes;
  e.express_lane = cfg.gpus.express_lane;
  e.host_safety_margin = cfg.memory.safety_margin;
  e.param_dir = cfg.srs.param_cache;
  e.params_checks = cfg.srs.param_checks;
  e.eviction_min_idle = cfg.memory.eviction_min_idle;
  e.tenants = cfg.tenants;
  if (sink) {
    e.log = [sink = std::move(sink), min = cfg.logging.level](log_level level,
                                                              std::string_view message) {
      if (level >= min) sink(level, message);
    };
  }
  return e;
}

}  // namespace cuzk::server
