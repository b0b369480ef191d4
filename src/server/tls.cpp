// SPDX-License-Identifier: Apache-2.0
// The daemon's TLS (tls.hpp).
#include "server/tls.hpp"

#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_credentials_options.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <vector>

#include "base/file_io.hpp"

namespace cuzk::server {
namespace {

constexpr uint64_t MAX_PEM_FILE_BYTES = 1 << 20;
constexpr unsigned WATCH_INTERVAL_SECONDS = 1;

struct bio_free {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct x509_free {
  void operator()(X509* x) const { X509_free(x); }
};
struct pkey_free {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using x509_ptr = std::unique_ptr<X509, x509_free>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;

// Encrypted keys are refused instead of OpenSSL asking for a passphrase on the terminal.
int no_passphrase(char*, int, int, void*) {
  return 0;
}

std::vector<x509_ptr> certificates_of(const std::string& pem) {
  std::vector<x509_ptr> out;
  std::unique_ptr<BIO, bio_free> bio(BIO_new_mem_buf(pem.data(), int(pem.size())));
  if (!bio) return out;
  while (X509* x = PEM_read_bio_X509(bio.get(), nullptr, no_passphrase, nullptr))
    out.emplace_back(x);
  ERR_clear_error();  // the read that ends the loop leaves "no start line"
  return out;
}

pkey_ptr private_key_of(const std::string& pem) {
  std::unique_ptr<BIO, bio_free> bio(BIO_new_mem_buf(pem.data(), int(pem.size())));
  if (!bio) return nullptr;
  pkey_ptr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr));
  ERR_clear_error();
  return key;
}

status bad_file(const std::string& key, const std::string& path, const std::string& why) {
  return status(status_code::invalid_argument, "daemon." + key + " " + path + ": " + why);
}

}  // namespace

result<tls_files> load_tls_files(const std::string& cert_file, const std::string& key_file,
                                 const std::string& client_ca_file) {
  tls_files out;
  auto cert = read_text_file_bounded(cert_file, MAX_PEM_FILE_BYTES);
  if (!cert) return bad_file("tls_cert_file", cert_file, cert.error().message());
  auto key = read_text_file_bounded(key_file, MAX_PEM_FILE_BYTES);
  if (!key) return bad_file("tls_key_file", key_file, key.error().message());
  const auto chain = certificates_of(*cert);
  if (chain.empty())
    return bad_file("tls_cert_file", cert_file, "no PEM certificate (BEGIN CERTIFICATE) in it");
  const pkey_ptr pkey = private_key_of(*key);
  if (!pkey) {
    return bad_file("tls_key_file", key_file,
                    "no unencrypted PEM private key in it (encrypted keys are not supported)");
  }
  if (X509_check_private_key(chain.front().get(), pkey.get()) != 1) {
    ERR_clear_error();
    return bad_file("tls_key_file", key_file,
                    "this key does not belong to the certificate of " + cert_file);
  }
  out.cert_chain_pem = std::move(*cert);
  out.key_pem = std::move(*key);
  if (!client_ca_file.empty()) {
    auto ca = read_text_file_bounded(client_ca_file, MAX_PEM_FILE_BYTES);
    if (!ca) return bad_file("tls_client_ca_file", client_ca_file, ca.error().message());
    if (certificates_of(*ca).empty())
      return bad_file("tls_client_ca_file", client_ca_file, "no PEM certificate in it");
    out.client_ca_pem = std::move(*ca);
  }
  return out;
}

result<std::unique_ptr<grpc_tls_stage>> grpc_tls_stage::create(const tls_files& files) {
  const std::string pattern = (std::filesystem::temp_directory_path() / "cuzk-tls-XXXXXX").string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data()))
    return status(status_code::io_error, "cannot create a private directory for the TLS files");
  std::unique_ptr<grpc_tls_stage> s(new grpc_tls_stage(buf.data(), !files.client_ca_pem.empty()));
  if (status st = s->stage(files); !st) return st;
  return s;
}

grpc_tls_stage::~grpc_tls_stage() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

status grpc_tls_stage::write(const std::string& name, const std::string& text) {
  const std::string path = dir_ + "/" + name;
  auto w = atomic_file_writer::create(path);
  if (!w) return w.error();
  if (status s = w->write(std::string_view(text)); !s) return s;
  return w->commit();
}

status grpc_tls_stage::stage(const tls_files& files) {
  if (files.client_ca_pem.empty() == mutual_)
    return status(status_code::invalid_argument,
                  "tls_client_ca_file cannot be added or removed by a reload: restart the daemon");
  // The watcher checks the files' times around its reads, so it takes a pair, not a half.
  if (status s = write("key.pem", files.key_pem); !s) return s;
  if (status s = write("cert.pem", files.cert_chain_pem); !s) return s;
  if (mutual_) return write("client_ca.pem", files.client_ca_pem);
  return status();
}

std::shared_ptr<grpc::ServerCredentials> grpc_tls_stage::credentials() const {
  auto provider = mutual_ ? std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
                                dir_ + "/key.pem", dir_ + "/cert.pem", dir_ + "/client_ca.pem",
                                WATCH_INTERVAL_SECONDS)
                          : std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
                                dir_ + "/key.pem", dir_ + "/cert.pem", WATCH_INTERVAL_SECONDS);
  grpc::experimental::TlsServerCredentialsOptions options(provider);
  options.watch_identity_key_cert_pairs();
  if (mutual_) {
    options.watch_root_certs();
    options.set_cert_request_type(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  } else {
    options.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  }
  return grpc::experimental::TlsServerCredentials(options);
}

struct http_tls_context::material {
  x509_ptr leaf;
  std::vector<x509_ptr> chain;  ///< intermediates after the leaf
  pkey_ptr key;
  X509_STORE* client_ca = nullptr;  ///< null without mutual TLS
  ~material() {
    if (client_ca) X509_STORE_free(client_ca);
  }
};

namespace {

result<std::shared_ptr<const http_tls_context::material>> material_of(const tls_files& files) {
  auto m = std::make_shared<http_tls_context::material>();
  auto chain = certificates_of(files.cert_chain_pem);
  m->key = private_key_of(files.key_pem);
  if (chain.empty() || !m->key)
    return status(status_code::invalid_argument, "the TLS certificate or key does not parse");
  m->leaf = std::move(chain.front());
  for (size_t i = 1; i < chain.size(); ++i) m->chain.push_back(std::move(chain[i]));
  if (!files.client_ca_pem.empty()) {
    m->client_ca = X509_STORE_new();
    if (!m->client_ca) return status(status_code::internal, "X509_STORE_new failed");
    for (auto& ca : certificates_of(files.client_ca_pem)) {
      if (X509_STORE_add_cert(m->client_ca, ca.get()) != 1) ERR_clear_error();
    }
  }
  return std::shared_ptr<const http_tls_context::material>(std::move(m));
}

}  // namespace

result<std::shared_ptr<http_tls_context>> http_tls_context::create(const tls_files& files) {
  auto m = material_of(files);
  if (!m) return m.error();
  std::shared_ptr<http_tls_context> c(new http_tls_context());
  c->current_ = std::move(*m);
  c->mutual_ = !files.client_ca_pem.empty();
  return c;
}

http_tls_context::~http_tls_context() = default;

status http_tls_context::reload(const tls_files& files) {
  if (files.client_ca_pem.empty() == mutual_)
    return status(status_code::invalid_argument,
                  "tls_client_ca_file cannot be added or removed by a reload: restart the daemon");
  auto m = material_of(files);
  if (!m) return m.error();
  std::lock_guard lock(mu_);
  current_ = std::move(*m);
  return status();
}

bool http_tls_context::setup(SSL_CTX& ctx) {
  SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
  SSL_CTX_set_cert_cb(&ctx, &http_tls_context::select_certificate, this);
  if (mutual_) SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  // Every connection a full handshake: OpenSSL answers a resumption on a peer-verifying server
  // without a session id context with an internal-error alert, so HAProxy's TLS health checks
  // (which resume) failed every other time and took the daemon out of rotation (issue #37,
  // fleet_haproxy_e2e). A resumed session would also skip the check against a reloaded client CA;
  // status requests are few and small, so resumption saves nothing that matters here.
  SSL_CTX_set_session_cache_mode(&ctx, SSL_SESS_CACHE_OFF);
  SSL_CTX_set_options(&ctx, SSL_OP_NO_TICKET);
  return true;
}

int http_tls_context::select_certificate(SSL* ssl, void* self) {
  auto* c = static_cast<http_tls_context*>(self);
  std::shared_ptr<const material> m;
  {
    std::lock_guard lock(c->mu_);
    m = c->current_;
  }
  if (SSL_use_certificate(ssl, m->leaf.get()) != 1 || SSL_use_PrivateKey(ssl, m->key.get()) != 1)
    return 0;
  for (const auto& x : m->chain) {
    if (SSL_add1_chain_cert(ssl, x.get()) != 1) return 0;
  }
  if (m->client_ca && SSL_set1_verify_cert_store(ssl, m->client_ca) != 1) return 0;
  return 1;
}

}  // namespace cuzk::server
