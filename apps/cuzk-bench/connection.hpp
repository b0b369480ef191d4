// SPDX-License-Identifier: Apache-2.0
// How cuzk-bench reaches the daemon (docs/security.md): plaintext, TLS trusting --tls-ca (mutual
// with --tls-cert/--tls-key), and --token sent as `authorization: Bearer TOKEN` on every call.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

namespace cuzk::bench {

struct connection_options {
  std::string tls_ca;    ///< PEM CA bundle; set (or https:// in the address): TLS
  std::string tls_cert;  ///< client certificate chain (mutual TLS), with tls_key
  std::string tls_key;
  std::string token;  ///< bearer token; empty: none sent
};

/// Set once by main before any channel opens; unreadable files are reported by open_channel.
void set_connection_options(connection_options o);

/// A channel to `addr` (unix:///path, [http://]host:port or https://host:port) with the options
/// above and 512 MiB messages. Throws std::runtime_error naming a file that cannot be read.
std::shared_ptr<grpc::Channel> open_channel(const std::string& addr);

}  // namespace cuzk::bench
