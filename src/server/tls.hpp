// SPDX-License-Identifier: Apache-2.0
// The daemon's TLS (docs/security.md): daemon.tls_cert_file / tls_key_file / tls_client_ca_file
// read and checked with OpenSSL, then handed to the gRPC listener and the HTTP status listener
// in a form SIGHUP can replace without closing either listener or touching a job:
// - gRPC (Debian grpc++ 1.51): its experimental TLS credentials read the certificate through a
//   FileWatcherCertificateProvider. It watches copies kept in a private directory (mode 0700),
//   which grpc_tls_stage replaces when the checked files are staged again, so an edited file
//   takes effect on SIGHUP (within the watcher's 1 s poll) and never half-written.
// - HTTP (cpp-httplib's SSLServer): every handshake takes the certificate, key and client CA
//   store current at that moment (http_tls_context).
#pragma once

#include <grpcpp/security/server_credentials.h>
#include <openssl/ssl.h>

#include <memory>
#include <mutex>
#include <string>

#include "cuzk/status.hpp"

namespace cuzk::server {

/// The PEM text of the configured files.
struct tls_files {
  std::string cert_chain_pem;
  std::string key_pem;
  std::string client_ca_pem;  ///< empty: no client certificates asked for
};

/// Reads the files and checks them: the chain's first certificate matches the private key, the
/// CA file (when named) holds at least one certificate. Errors (invalid_argument, io_error) name
/// the file and never quote key material.
result<tls_files> load_tls_files(const std::string& cert_file, const std::string& key_file,
                                 const std::string& client_ca_file);

class grpc_tls_stage {
 public:
  /// A private directory under $TMPDIR holding the files, removed by the destructor.
  static result<std::unique_ptr<grpc_tls_stage>> create(const tls_files& files);
  ~grpc_tls_stage();
  grpc_tls_stage(const grpc_tls_stage&) = delete;
  grpc_tls_stage& operator=(const grpc_tls_stage&) = delete;

  /// Replaces the staged files (each by an atomic rename); the watcher picks them up within 1 s.
  /// Mutual TLS cannot be switched on or off here (that needs a restart): invalid_argument.
  status stage(const tls_files& files);

  /// The listener's credentials: TLS, and with a client CA a verified client certificate
  /// required (GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY).
  std::shared_ptr<grpc::ServerCredentials> credentials() const;

 private:
  grpc_tls_stage(std::string dir, bool mutual) : dir_(std::move(dir)), mutual_(mutual) {}
  status write(const std::string& name, const std::string& text);
  std::string dir_;
  bool mutual_;
};

class http_tls_context {
 public:
  static result<std::shared_ptr<http_tls_context>> create(const tls_files& files);
  ~http_tls_context();

  /// Takes effect at the next handshake; a connection already open keeps its session.
  /// Mutual TLS cannot be switched on or off here: invalid_argument.
  status reload(const tls_files& files);

  /// For httplib::SSLServer's set-up callback: TLS 1.2 at least, the certificate chosen per
  /// handshake, and with a client CA a verified client certificate required.
  bool setup(SSL_CTX& ctx);

  struct material;

 private:
  http_tls_context() = default;
  static int select_certificate(SSL* ssl, void* self);
  std::mutex mu_;
  std::shared_ptr<const material> current_;
  bool mutual_ = false;
};

}  // namespace cuzk::server
