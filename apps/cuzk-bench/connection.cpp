// SPDX-License-Identifier: Apache-2.0
// How cuzk-bench reaches the daemon (connection.hpp).
#include "connection.hpp"

#include <grpcpp/support/client_interceptor.h>

#include <stdexcept>
#include <vector>

#include "base/file_io.hpp"

namespace cuzk::bench {
namespace {

connection_options options;

// Adds the bearer token to every call's metadata; an interceptor (not call credentials) so the
// token also goes over a unix socket or a plaintext channel, where gRPC drops call credentials.
class bearer_interceptor final : public grpc::experimental::Interceptor {
 public:
  explicit bearer_interceptor(std::string value) : value_(std::move(value)) {}
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      methods->GetSendInitialMetadata()->insert({"authorization", value_});
    }
    methods->Proceed();
  }

 private:
  std::string value_;
};

class bearer_factory final : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit bearer_factory(std::string token) : value_("Bearer " + std::move(token)) {}
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo*) override {
    return new bearer_interceptor(value_);
  }

 private:
  std::string value_;
};

std::string read_pem(const std::string& flag, const std::string& path) {
  auto text = read_text_file_bounded(path, 1 << 20);
  if (!text) throw std::runtime_error(flag + " " + path + ": " + text.error().message());
  return *text;
}

}  // namespace

void set_connection_options(connection_options o) {
  options = std::move(o);
}

std::shared_ptr<grpc::Channel> open_channel(const std::string& addr) {
  std::string target = addr;
  bool tls = !options.tls_ca.empty() || !options.tls_cert.empty();
  if (target.rfind("http://", 0) == 0) target = target.substr(7);
  if (target.rfind("https://", 0) == 0) {
    target = target.substr(8);
    tls = true;
  }
  std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
  if (tls) {
    grpc::SslCredentialsOptions o;  // an empty root bundle: the system's trust store
    if (!options.tls_ca.empty()) o.pem_root_certs = read_pem("--tls-ca", options.tls_ca);
    if (!options.tls_cert.empty()) {
      o.pem_cert_chain = read_pem("--tls-cert", options.tls_cert);
      o.pem_private_key = read_pem("--tls-key", options.tls_key);
    }
    creds = grpc::SslCredentials(o);
  }
  grpc::ChannelArguments ca;
  ca.SetMaxReceiveMessageSize(512 << 20);
  ca.SetMaxSendMessageSize(512 << 20);
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> factories;
  if (!options.token.empty()) factories.push_back(std::make_unique<bearer_factory>(options.token));
  return grpc::experimental::CreateCustomChannelWithInterceptors(target, creds, ca,
                                                                 std::move(factories));
}

}  // namespace cuzk::bench
