// SPDX-License-Identifier: Apache-2.0
// Who may call the daemon (docs/security.md): protected mode (a plaintext TCP listener on a
// non-loopback address serves loopback peers only, as Redis does), bearer tokens from
// daemon.auth_tokens_file, and the tenant a call is made for. Pure functions on the strings gRPC
// hands the service (ServerContext::peer(), the `authorization` metadata, the verified client
// certificate's name), so every rule is unit-tested without sockets (security_test.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/status.hpp"

namespace cuzk::server {

/// True for a peer on this machine: a unix socket (`unix:…`, `unix-abstract:…`), IPv4
/// 127.0.0.0/8, IPv6 ::1 or an IPv4-mapped 127.x address. Takes gRPC's peer strings
/// (`ipv4:127.0.0.1:5`, `ipv6:[::1]:5`, percent-encoded or not); anything it cannot parse is
/// not local.
bool is_local_peer(std::string_view grpc_peer);

/// True when a TCP listen host accepts loopback connections only (127.0.0.0/8, ::1,
/// "localhost"); 0.0.0.0, ::, other addresses and other host names are not.
bool is_loopback_host(std::string_view host);

/// One line of the tokens file.
struct token_entry {
  std::string tenant;
  std::array<uint8_t, 32> token_sha256{};  ///< only the digest is kept in memory
  bool read_only = false;
  /// An `operator` token: the status listener shows it every tenant's jobs (any other token sees
  /// its own tenant's; the others' show as busy lanes without ids).
  bool all_tenants = false;
};

/// daemon.auth_tokens_file: lines `TENANT TOKEN`, then optionally the words `readonly` and
/// `operator` (each once, either order); `#` starts a comment, blank lines are skipped. A tenant is
/// 1 to 64 of [A-Za-z0-9._-] and may hold several tokens (rotation); a token is 16 to 512 printable
/// ASCII characters without spaces and appears once. Errors name the line number, never the token.
class token_table {
 public:
  static result<token_table> parse(std::string_view text);
  /// Reads the file (at most 1 MiB); parse errors are prefixed with the path. `warning` (may be
  /// null) is set when the file is readable by its group or others.
  static result<token_table> load(const std::string& path, std::string* warning);

  /// The entry whose token is `token`. Digests of equal length are compared with
  /// CRYPTO_memcmp against every entry, so the time taken says nothing about the tokens.
  const token_entry* find(std::string_view token) const;
  size_t size() const { return entries_.size(); }
  /// The tenants the file names, each once.
  std::set<std::string> tenants() const {
    std::set<std::string> out;
    for (const auto& e : entries_) out.insert(e.tenant);
    return out;
  }

 private:
  std::vector<token_entry> entries_;
};

/// The tokens in force, swapped whole by a reload (SIGHUP) while calls read them.
class token_store {
 public:
  /// Null when no tokens file is configured.
  std::shared_ptr<const token_table> get() const {
    std::lock_guard lock(mu_);
    return table_;
  }
  void set(std::shared_ptr<const token_table> t) {
    std::lock_guard lock(mu_);
    table_ = std::move(t);
  }

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const token_table> table_;
};

/// The token of an `authorization` metadata value `Bearer TOKEN` (scheme in any case);
/// nullopt for another scheme or an empty token.
std::optional<std::string_view> bearer_token(std::string_view authorization);

/// How the gRPC listener is set up, as far as admission goes.
struct access_policy {
  bool tcp = false;             ///< false: a unix socket (its file mode is the gate)
  bool loopback_listen = true;  ///< TCP bound to a loopback address only
  bool tls = false;
  bool client_certificates = false;  ///< mutual TLS: every TLS peer showed a verified certificate
  bool tokens = false;               ///< auth_tokens_file is set
  bool allow_insecure_tcp = false;
};

/// Protected mode: a TCP listener others can reach, neither opened with allow_insecure_tcp nor
/// guarded by TLS with authentication (tokens or client certificates). Non-loopback peers are
/// refused with PERMISSION_DENIED.
bool protected_mode(const access_policy& p);

/// The start-up log line that says who the gRPC listener serves and, in protected mode, the fix.
std::string access_summary(const access_policy& p);

/// What a call brings.
struct call_credentials {
  std::string_view peer;                          ///< ServerContext::peer()
  std::optional<std::string_view> authorization;  ///< the `authorization` metadata, if sent
  std::string_view client_certificate_name;       ///< verified client certificate's CN, or ""
};

/// The caller a call is made for; the service submits, awaits and cancels jobs as `tenant`.
struct caller {
  std::string tenant;      ///< a tokens file tenant, a client certificate's name, or "local"
  bool read_only = false;  ///< a `readonly` token: status and metrics only
};

/// The tenant of unauthenticated peers on this machine (unix socket, loopback).
inline constexpr std::string_view local_tenant = "local";

enum class refusal { none, unauthenticated, permission_denied };

struct admission {
  refusal refused = refusal::none;
  std::string message;  ///< why, and what fixes it; never the token
  caller who;
};

/// Whether a call is served, and for whom:
/// - a token that is sent is always checked: unknown → UNAUTHENTICATED;
/// - with tokens or client certificates on TCP, a call needs a token or a verified certificate
///   (UNAUTHENTICATED without);
/// - in protected mode (protected_mode()), a peer not on this machine gets PERMISSION_DENIED
///   with a message naming the fix;
/// - `writes` (submit, cancel, preload, evict) with a read-only token: PERMISSION_DENIED.
admission admit(const access_policy& p, const token_table* tokens, const call_credentials& c,
                bool writes);

}  // namespace cuzk::server
