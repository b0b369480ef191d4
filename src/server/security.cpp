// SPDX-License-Identifier: Apache-2.0
// Who may call the daemon (security.hpp).
#include "server/security.hpp"

#include <arpa/inet.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>

#include "base/file_io.hpp"
#include "base/hex.hpp"

namespace cuzk::server {
namespace {

constexpr uint64_t MAX_TOKENS_FILE_BYTES = 1 << 20;
constexpr size_t MIN_TOKEN_CHARS = 16;
constexpr size_t MAX_TOKEN_CHARS = 512;
constexpr size_t MAX_TENANT_CHARS = 64;

std::array<uint8_t, 32> sha256_of(std::string_view s) {
  std::array<uint8_t, 32> out{};
  SHA256(reinterpret_cast<const unsigned char*>(s.data()), s.size(), out.data());
  return out;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

// gRPC percent-encodes the brackets of IPv6 peers in some versions ("ipv6:%5B::1%5D:5").
std::string percent_decoded(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hex_digit_value(s[i + 1]), lo = hex_digit_value(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(char(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

bool is_loopback_v4(const in_addr& a) {
  return (ntohl(a.s_addr) >> 24) == 127;
}

bool is_loopback_v6(const in6_addr& a) {
  if (IN6_IS_ADDR_LOOPBACK(&a)) return true;
  if (!IN6_IS_ADDR_V4MAPPED(&a)) return false;
  return a.s6_addr[12] == 127;
}

// An address without port or brackets: IPv4 or IPv6 on loopback.
bool is_loopback_address(const std::string& host) {
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return is_loopback_v4(v4);
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) == 1) return is_loopback_v6(v6);
  return false;
}

bool is_tenant_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
}

std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

}  // namespace

bool is_local_peer(std::string_view grpc_peer) {
  const std::string peer = percent_decoded(grpc_peer);
  if (peer.rfind("unix:", 0) == 0 || peer.rfind("unix-abstract:", 0) == 0) return true;
  std::string_view rest;
  if (peer.rfind("ipv4:", 0) == 0) {
    rest = std::string_view(peer).substr(5);
    const size_t colon = rest.rfind(':');
    if (colon == std::string_view::npos) return false;
    return is_loopback_address(std::string(rest.substr(0, colon)));
  }
  if (peer.rfind("ipv6:", 0) == 0) {
    rest = std::string_view(peer).substr(5);
    if (rest.empty() || rest.front() != '[') return false;
    const size_t close = rest.find(']');
    if (close == std::string_view::npos) return false;
    std::string host(rest.substr(1, close - 1));
    // A zone ("fe80::1%eth0") never names loopback; inet_pton refuses it anyway.
    return is_loopback_address(host);
  }
  return false;
}

bool is_loopback_host(std::string_view host) {
  if (host == "localhost") return true;
  std::string h(host);
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  return is_loopback_address(h);
}

result<token_table> token_table::parse(std::string_view text) {
  token_table t;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const auto words = words_of(line);
    if (words.empty()) continue;
    const std::string where = "tokens file line " + std::to_string(line_no) + ": ";
    if (words.size() < 2 || words.size() > 4)
      return status(status_code::invalid_argument,
                    where + "expected TENANT TOKEN [readonly] [operator]");
    const std::string_view tenant = words[0], token = words[1];
    if (tenant.size() > MAX_TENANT_CHARS ||
        !std::all_of(tenant.begin(), tenant.end(), is_tenant_char))
      return status(status_code::invalid_argument,
                    where + "a tenant is 1 to 64 of the characters A-Z a-z 0-9 . _ -");
    if (token.size() < MIN_TOKEN_CHARS || token.size() > MAX_TOKEN_CHARS)
      return status(status_code::invalid_argument,
                    where + "a token is 16 to 512 characters (e.g. openssl rand -hex 32)");
    if (!std::all_of(token.begin(), token.end(), [](char c) { return c > ' ' && c < 127; }))
      return status(status_code::invalid_argument,
                    where + "a token is printable ASCII without spaces");
    token_entry e;
    for (size_t w = 2; w < words.size(); ++w) {
      bool& flag = words[w] == "readonly" ? e.read_only : e.all_tenants;
      if ((words[w] != "readonly" && words[w] != "operator") || flag)
        return status(status_code::invalid_argument,
                      where + "after the token only the words readonly and operator, each once");
      flag = true;
    }
    e.tenant = std::string(tenant);
    e.token_sha256 = sha256_of(token);
    for (const auto& other : t.entries_) {
      if (other.token_sha256 == e.token_sha256)
        return status(status_code::invalid_argument,
                      where + "this token is already listed (tenant " + other.tenant +
                          "); each token names one tenant");
    }
    t.entries_.push_back(std::move(e));
    if (end == text.size()) break;
  }
  return t;
}

result<token_table> token_table::load(const std::string& path, std::string* warning) {
  auto text = read_text_file_bounded(path, MAX_TOKENS_FILE_BYTES);
  if (!text)
    return status(text.error().code(), "auth_tokens_file " + path + ": " + text.error().message());
  auto t = parse(*text);
  if (!t) return status(t.error().code(), "auth_tokens_file " + path + ": " + t.error().message());
  struct stat st {};
  if (warning && ::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0)
    *warning = "auth_tokens_file " + path + " is readable by others than its owner (chmod 600)";
  return t;
}

const token_entry* token_table::find(std::string_view token) const {
  const auto digest = sha256_of(token);
  const token_entry* found = nullptr;
  for (const auto& e : entries_) {
    // Every entry is compared, so the time is the same wherever (or whether) the token is.
    if (CRYPTO_memcmp(e.token_sha256.data(), digest.data(), digest.size()) == 0) found = &e;
  }
  return found;
}

std::optional<std::string_view> bearer_token(std::string_view authorization) {
  if (!starts_with_ci(authorization, "bearer ")) return std::nullopt;
  std::string_view token = authorization.substr(7);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  if (token.empty()) return std::nullopt;
  return token;
}

bool protected_mode(const access_policy& p) {
  if (!p.tcp || p.loopback_listen || p.allow_insecure_tcp) return false;
  return !(p.tls && (p.tokens || p.client_certificates));
}

std::string access_summary(const access_policy& p) {
  if (!p.tcp) return "a unix socket: its file mode (0660) decides who may call";
  std::string how = p.tls ? (p.client_certificates ? "mutual TLS" : "TLS") : "plaintext";
  if (p.tokens) how += ", bearer tokens required";
  if (p.loopback_listen) return how + " on a loopback address";
  if (protected_mode(p)) {
    return "PROTECTED MODE: " + how +
           " on a non-loopback address, so only peers on this machine are served; others get "
           "PERMISSION_DENIED. To serve the network set daemon.tls_cert_file, tls_key_file and "
           "auth_tokens_file (or tls_client_ca_file), or daemon.allow_insecure_tcp = true on a "
           "trusted network (docs/security.md)";
  }
  if (!p.tls) return how + " open to the network (daemon.allow_insecure_tcp = true)";
  return how + " open to the network";
}

admission admit(const access_policy& p, const token_table* tokens, const call_credentials& c,
                bool writes) {
  admission a;
  const bool local = is_local_peer(c.peer);
  if (c.authorization) {
    const auto token = bearer_token(*c.authorization);
    const token_entry* e = token && tokens ? tokens->find(*token) : nullptr;
    if (!e) {
      a.refused = refusal::unauthenticated;
      a.message = tokens ? "the authorization token is not valid (expected Bearer TOKEN of "
                           "daemon.auth_tokens_file)"
                         : "this daemon has no auth_tokens_file: it takes no authorization token";
      return a;
    }
    a.who.tenant = e->tenant;
    a.who.read_only = e->read_only;
  } else if (!c.client_certificate_name.empty()) {
    a.who.tenant = std::string(c.client_certificate_name);
  } else if (p.tcp && (p.tokens || p.client_certificates)) {
    a.refused = refusal::unauthenticated;
    a.message =
        "this daemon requires authentication: send the metadata authorization: Bearer "
        "TOKEN (or a client certificate)";
    return a;
  } else {
    a.who.tenant = std::string(local_tenant);
  }
  if (protected_mode(p) && !local) {
    a.refused = refusal::permission_denied;
    a.message =
        "protected mode: this daemon listens in plaintext on a non-loopback address and serves "
        "only peers on its own machine. Fix: set daemon.tls_cert_file, daemon.tls_key_file and "
        "daemon.auth_tokens_file, or daemon.allow_insecure_tcp = true on a trusted network";
    return a;
  }
  if (writes && a.who.read_only) {
    a.refused = refusal::permission_denied;
    a.message = "tenant " + a.who.tenant + " has a read-only token: status and metrics only";
    return a;
  }
  return a;
}

}  // namespace cuzk::server
