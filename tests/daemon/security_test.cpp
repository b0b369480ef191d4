// SPDX-License-Identifier: Apache-2.0
// Hostile clients against the real cuzk-daemon process, black-box (label e2e, docs/security.md):
// protected mode from the machine's own non-loopback address, TLS with bearer tokens, mutual TLS
// against a certificate from another CA, 64 KiB of metadata, a slow-loris on the status listener,
// 2,000 idle connections to the gRPC port, a 400 MB message, SIGHUP reloading tokens and
// certificates, no token in the log or the metrics, and tenants (by token, and by client
// certificate over mutual TLS) that see only their own jobs. Every call but the tenants cases' is
// GetStatus or a refused Prove on an empty parameter directory; the tenants cases submit 2 KiB
// PoRep jobs and cancel them, so the suite takes seconds. Certificates are made at test time with
// the openssl CLI in a temp dir.
#include <gtest/gtest.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdlib>
#include <fstream>

#include "daemon_test_util.hpp"
#include "temp_dir.hpp"

namespace cuzk::test {
namespace {

// Bearer tokens of the tokens file; none may appear in the daemon's log or metrics.
const std::string ALICE_TOKEN = "alice-token-0123456789abcdef";
const std::string PROM_TOKEN = "prometheus-token-fedcba9876543210";
const std::string ALICE_NEW_TOKEN = "alice-rotated-token-00112233";
const std::string WRONG_TOKEN = "not-a-token-of-this-daemon-42";
const std::string BOB_TOKEN = "bob-token-00112233445566778899";
const std::string MALLORY_TOKEN = "mallory-token-99887766554433";
const std::string OPERATOR_TOKEN = "operator-token-0011223344556677";

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// Two CAs, a server certificate for 127.0.0.1/localhost from each and a client certificate from
// each (CN curio-node-ca1, curio-node-ca2), and a second client certificate from CA 1 (CN
// curio-node-b, file client-b-ca1), EC P-256 (fast), made with the openssl CLI.
class certificates {
 public:
  certificates() : dir_("security_certs") {
    const std::string d = dir_.string();
    std::string script = "set -e; cd '" + d + "'\n" +
                         "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > server.ext\n";
    for (const char* ca : {"ca1", "ca2"}) {
      const std::string c = ca;
      script += key("" + c) + "openssl req -x509 -new -key " + c + ".key -days 2 -subj /CN=cuzk-" +
                c + " -out " + c + ".pem 2>/dev/null\n";
      script += signed_by(c, "server-" + c, "localhost", "-extfile server.ext");
      script += signed_by(c, "client-" + c, "curio-node-" + c, "");
    }
    script += signed_by("ca1", "client-b-ca1", "curio-node-b", "");
    ok_ = std::system(("bash -c \"" + escaped(script) + "\"").c_str()) == 0;
  }
  bool ok() const { return ok_; }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }
  std::string pem(const std::string& name) const { return read_text(dir_.path() / name); }
  /// The [daemon] keys of mutual TLS: ca1's server certificate, clients of ca1 only.
  std::string mutual_tls_config() const {
    return "tls_cert_file = \"" + path("server-ca1.pem") + "\"\ntls_key_file = \"" +
           path("server-ca1.key") + "\"\ntls_client_ca_file = \"" + path("ca1.pem") + "\"";
  }

 private:
  static std::string key(const std::string& name) {
    return "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out " + name +
           ".key 2>/dev/null\n";
  }
  static std::string signed_by(const std::string& ca, const std::string& name,
                               const std::string& cn, const std::string& ext) {
    return key(name) + "openssl req -new -key " + name + ".key -subj /CN=" + cn + " -out " + name +
           ".csr 2>/dev/null\nopenssl x509 -req -in " + name + ".csr -CA " + ca + ".pem -CAkey " +
           ca + ".key -CAcreateserial -days 2 " + ext + " -out " + name + ".pem 2>/dev/null\n";
  }
  static std::string escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
      if (c == '"' || c == '\\' || c == '$' || c == '`') out.push_back('\\');
      out.push_back(c);
    }
    return out;
  }
  temp_dir dir_;
  bool ok_ = false;
};

// A GetStatus with the given credentials and metadata.
grpc::Status get_status(const std::string& target,
                        const std::shared_ptr<grpc::ChannelCredentials>& creds,
                        const std::string& authorization = "",
                        const std::string& junk_metadata = "") {
  grpc::ChannelArguments ca;
  ca.SetSslTargetNameOverride("localhost");
  auto stub = cuzk::v1::ProvingEngine::NewStub(grpc::CreateCustomChannel(target, creds, ca));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 5s);
  if (!authorization.empty()) ctx.AddMetadata("authorization", authorization);
  if (!junk_metadata.empty()) ctx.AddMetadata("x-junk", junk_metadata);
  cuzk::v1::GetStatusResponse resp;
  return stub->GetStatus(&ctx, {}, &resp);
}

std::shared_ptr<grpc::ChannelCredentials> tls_trusting(const certificates& c, const std::string& ca,
                                                       const std::string& client = "") {
  grpc::SslCredentialsOptions o;
  o.pem_root_certs = c.pem(ca + ".pem");
  if (!client.empty()) {
    o.pem_private_key = c.pem(client + ".key");
    o.pem_cert_chain = c.pem(client + ".pem");
  }
  return grpc::SslCredentials(o);
}

// The first IPv4 address of an interface that is up and not loopback ("" when there is none).
std::string non_loopback_ipv4() {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return "";
  std::string out;
  for (ifaddrs* i = list; i && out.empty(); i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
    if ((i->ifa_flags & IFF_UP) == 0 || (i->ifa_flags & IFF_LOOPBACK) != 0) continue;
    char buf[INET_ADDRSTRLEN] = {};
    const auto* a = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
    if (::inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf)) out = buf;
  }
  ::freeifaddrs(list);
  return out;
}

class security_test : public ::testing::Test {
 protected:
  // A client refused in a TLS 1.3 handshake learns it only when it writes its request to the
  // socket the daemon has closed: EPIPE, and without this SIGPIPE ends the whole test binary
  // (seen on the 2-core machine in mutual_tls_refuses_a_certificate_from_another_ca).
  static void SetUpTestSuite() { std::signal(SIGPIPE, SIG_IGN); }
  void SetUp() override { params_ = std::make_unique<temp_dir>("security_params"); }
  std::string empty_params() const { return params_->string(); }
  std::unique_ptr<temp_dir> params_;
};

TEST_F(security_test, protected_mode_serves_loopback_and_refuses_the_network) {
  const int port = free_tcp_port();
  daemon_process d("", empty_params(), "", "0.0.0.0:" + std::to_string(port));
  EXPECT_NE(d.log_text().find("PROTECTED MODE"), std::string::npos) << d.log_text();
  // Curio on the same machine, as it dials today: plaintext, no metadata.
  EXPECT_TRUE(
      get_status("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()).ok());
  const std::string ip = non_loopback_ipv4();
  if (ip.empty()) {
    GTEST_SKIP() << "this machine has no non-loopback IPv4 address; security_test (unit) checks "
                    "the peer rule on synthetic peers";
  }
  const grpc::Status remote =
      get_status(ip + ":" + std::to_string(port), grpc::InsecureChannelCredentials());
  EXPECT_EQ(remote.error_code(), grpc::StatusCode::PERMISSION_DENIED) << remote.error_message();
  EXPECT_NE(remote.error_message().find("allow_insecure_tcp"), std::string::npos);
  EXPECT_NE(remote.error_message().find("tls_cert_file"), std::string::npos);

  const int open_port = free_tcp_port();
  daemon_process open("allow_insecure_tcp = true", empty_params(), "",
                      "0.0.0.0:" + std::to_string(open_port));
  EXPECT_EQ(open.log_text().find("PROTECTED MODE"), std::string::npos);
  const grpc::Status opened =
      get_status(ip + ":" + std::to_string(open_port), grpc::InsecureChannelCredentials());
  EXPECT_TRUE(opened.ok()) << opened.error_message();
}

TEST_F(security_test, tls_and_tokens) {
  certificates c;
  ASSERT_TRUE(c.ok()) << "openssl failed";
  temp_dir conf("security_conf");
  const auto tokens = conf.path() / "tokens";
  write_text(tokens,
             "# tenants\nalice " + ALICE_TOKEN + "\nprometheus " + PROM_TOKEN + " readonly\n");
  std::filesystem::permissions(
      tokens, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const int port = free_tcp_port();
  const std::string target = "127.0.0.1:" + std::to_string(port);
  daemon_process d("tls_cert_file = \"" + c.path("server-ca1.pem") + "\"\ntls_key_file = \"" +
                       c.path("server-ca1.key") + "\"\nauth_tokens_file = \"" + tokens.string() +
                       "\"",
                   empty_params(), "", "0.0.0.0:" + std::to_string(port));
  EXPECT_EQ(d.log_text().find("PROTECTED MODE"), std::string::npos) << d.log_text();
  const auto tls = tls_trusting(c, "ca1");

  EXPECT_EQ(get_status(target, tls).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(get_status(target, tls, "Bearer " + WRONG_TOKEN).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(get_status(target, tls, "Basic " + ALICE_TOKEN).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  const grpc::Status served = get_status(target, tls, "Bearer " + ALICE_TOKEN);
  EXPECT_TRUE(served.ok()) << served.error_message();
  EXPECT_TRUE(get_status(target, tls, "Bearer " + PROM_TOKEN).ok());
  // Plaintext to the TLS port, and TLS trusting another CA: no call gets through.
  EXPECT_EQ(
      get_status(target, grpc::InsecureChannelCredentials(), "Bearer " + ALICE_TOKEN).error_code(),
      grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(get_status(target, tls_trusting(c, "ca2"), "Bearer " + ALICE_TOKEN).error_code(),
            grpc::StatusCode::UNAVAILABLE);

  // A read-only token may look, not act.
  {
    auto stub = cuzk::v1::ProvingEngine::NewStub(grpc::CreateChannel(target, tls));
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + PROM_TOKEN);
    cuzk::v1::CancelProofRequest req;
    req.set_job_id("someone-elses-job");
    cuzk::v1::CancelProofResponse resp;
    EXPECT_EQ(stub->CancelProof(&ctx, req, &resp).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
  }

  // 64 KiB of metadata is refused; the daemon goes on serving the others.
  const grpc::Status junk =
      get_status(target, tls, "Bearer " + ALICE_TOKEN, std::string(64 << 10, 'j'));
  EXPECT_FALSE(junk.ok());
  EXPECT_TRUE(junk.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED ||
              junk.error_code() == grpc::StatusCode::INTERNAL)
      << junk.error_code() << " " << junk.error_message();
  EXPECT_TRUE(get_status(target, tls, "Bearer " + ALICE_TOKEN).ok());

  // The status listener speaks HTTPS and wants a token, except for /healthz.
  httplib::SSLClient https("127.0.0.1", d.http_port());
  https.set_ca_cert_path(c.path("ca1.pem").c_str());
  https.enable_server_certificate_verification(true);
  https.set_connection_timeout(5s);
  auto health = https.Get("/healthz");
  ASSERT_TRUE(health) << httplib::to_string(health.error());
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(health->body, "serving\n");
  auto no_token = https.Get("/status");
  ASSERT_TRUE(no_token);
  EXPECT_EQ(no_token->status, 401);
  auto metrics = https.Get("/metrics", {{"Authorization", "Bearer " + PROM_TOKEN}});
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  EXPECT_EQ(https.Get("/status", {{"Authorization", "Bearer " + WRONG_TOKEN}})->status, 401);
  EXPECT_EQ(https.Get("/status", {{"Authorization", "Bearer " + ALICE_TOKEN}})->status, 200);

  // SIGHUP: alice's token rotated, the server certificate replaced by one from CA 2; a channel
  // opened before the reload goes on working.
  auto old_channel = grpc::CreateChannel(target, tls);
  auto old_stub = cuzk::v1::ProvingEngine::NewStub(old_channel);
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + ALICE_TOKEN);
    cuzk::v1::GetStatusResponse resp;
    ASSERT_TRUE(old_stub->GetStatus(&ctx, {}, &resp).ok());
  }
  write_text(tokens, "alice " + ALICE_NEW_TOKEN + "\n");
  std::filesystem::copy_file(c.path("server-ca2.pem"), c.path("server-ca1.pem"),
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(c.path("server-ca2.key"), c.path("server-ca1.key"),
                             std::filesystem::copy_options::overwrite_existing);
  ASSERT_EQ(::kill(d.pid(), SIGHUP), 0);
  for (int i = 0; i < 100 && d.log_text().find("certificate and key reloaded") == std::string::npos;
       ++i)
    std::this_thread::sleep_for(50ms);
  EXPECT_NE(d.log_text().find("SIGHUP: 1 token(s)"), std::string::npos) << d.log_tail();
  const auto tls2 = tls_trusting(c, "ca2");
  bool new_certificate = false;
  for (int i = 0; i < 50 && !new_certificate; ++i) {  // the watcher polls every second
    new_certificate = get_status(target, tls2, "Bearer " + ALICE_NEW_TOKEN).ok();
    if (!new_certificate) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(new_certificate) << d.log_tail();
  EXPECT_EQ(get_status(target, tls2, "Bearer " + ALICE_TOKEN).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + ALICE_NEW_TOKEN);
    cuzk::v1::GetStatusResponse resp;
    const grpc::Status s = old_stub->GetStatus(&ctx, {}, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
  }

  // No secret in the log or the metrics.
  const std::string log = d.log_text();
  const std::string metrics_text = metrics->body;
  for (const std::string& t : {ALICE_TOKEN, PROM_TOKEN, ALICE_NEW_TOKEN, WRONG_TOKEN}) {
    EXPECT_EQ(log.find(t), std::string::npos) << "a token in the log";
    EXPECT_EQ(metrics_text.find(t), std::string::npos) << "a token in the metrics";
  }
  EXPECT_NE(log.find("refused"), std::string::npos);  // the refusals are logged, tokenless
  EXPECT_EQ(d.terminate(), 0) << d.log_tail();
}

TEST_F(security_test, mutual_tls_refuses_a_certificate_from_another_ca) {
  certificates c;
  ASSERT_TRUE(c.ok()) << "openssl failed";
  const int port = free_tcp_port();
  const std::string target = "127.0.0.1:" + std::to_string(port);
  daemon_process d(c.mutual_tls_config(), empty_params(), "", "0.0.0.0:" + std::to_string(port));
  EXPECT_EQ(d.log_text().find("PROTECTED MODE"), std::string::npos) << d.log_text();
  const grpc::Status own = get_status(target, tls_trusting(c, "ca1", "client-ca1"));
  EXPECT_TRUE(own.ok()) << own.error_message();
  EXPECT_EQ(get_status(target, tls_trusting(c, "ca1", "client-ca2")).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(get_status(target, tls_trusting(c, "ca1")).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_TRUE(get_status(target, tls_trusting(c, "ca1", "client-ca1")).ok());

  // The status listener asks for the same client certificates.
  httplib::SSLClient https("127.0.0.1", d.http_port(), c.path("client-ca1.pem"),
                           c.path("client-ca1.key"));
  https.set_ca_cert_path(c.path("ca1.pem").c_str());
  https.enable_server_certificate_verification(true);
  auto ok = https.Get("/status");
  ASSERT_TRUE(ok) << httplib::to_string(ok.error());
  EXPECT_EQ(ok->status, 200);
  httplib::SSLClient stranger("127.0.0.1", d.http_port(), c.path("client-ca2.pem"),
                              c.path("client-ca2.key"));
  stranger.set_ca_cert_path(c.path("ca1.pem").c_str());
  stranger.enable_server_certificate_verification(true);
  EXPECT_FALSE(stranger.Get("/status"));
  // The refused handshakes (gRPC and HTTPS) cost the daemon nothing: it still serves.
  EXPECT_TRUE(get_status(target, tls_trusting(c, "ca1", "client-ca1")).ok());
  auto again = https.Get("/status");
  ASSERT_TRUE(again) << httplib::to_string(again.error());
  EXPECT_EQ(again->status, 200);
}

// One call's context as the holder of `token` ("": none, so the unix socket's local tenant).
std::unique_ptr<grpc::ClientContext> as(const std::string& token) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + 10s);
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  return ctx;
}

grpc::Status await_as(daemon_process& d, const std::string& token, const std::string& id,
                      uint64_t timeout_ms, cuzk::v1::AwaitProofResponse* out) {
  cuzk::v1::AwaitProofRequest a;
  a.set_job_id(id);
  a.set_timeout_ms(timeout_ms);
  return d.stub().AwaitProof(as(token).get(), a, out);
}

grpc::Status cancel_as(daemon_process& d, const std::string& token, const std::string& id,
                       bool* was_running = nullptr) {
  cuzk::v1::CancelProofRequest c;
  c.set_job_id(id);
  cuzk::v1::CancelProofResponse r;
  grpc::Status s = d.stub().CancelProof(as(token).get(), c, &r);
  if (was_running) *was_running = r.was_running();
  return s;
}

// Tenants (docs/security.md "Tenants"): two tenants sending the same request id with the same
// C1 get two jobs (not an attach); a third tenant, and the local one, get NOT_FOUND for that id
// from AwaitProof and CancelProof, exactly as for an id never sent; a cancel touches only the
// caller's own job; max_in_flight refuses with RESOURCE_EXHAUSTED; the per-tenant metrics carry
// only configured names. The jobs are cancelled, never proved: seconds, on the 2 KiB parameters.
TEST_F(security_test, tenants_see_only_their_own_jobs) {
  ASSERT_FALSE(params_dir().empty()) << "CUZK_TEST_PARAMS_DIR is not set (ctest sets it)";
  temp_dir conf("tenants_conf");
  const auto tokens = conf.path() / "tokens";
  write_text(tokens, "alice " + ALICE_TOKEN + "\nbob " + BOB_TOKEN + "\nmallory " + MALLORY_TOKEN +
                         "\nprometheus " + PROM_TOKEN + " readonly\nops " + OPERATOR_TOKEN +
                         " readonly operator\n");
  std::filesystem::permissions(
      tokens, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  daemon_process d("auth_tokens_file = \"" + tokens.string() +
                   "\"\n[tenants.alice]\nmax_in_flight = 1\n[tenants.bob]\nweight = 2\n");
  const sector& s = sectors()[0];
  const std::string id = "porep-" + std::to_string(s.miner) + "-" + std::to_string(s.sector);

  cuzk::v1::SubmitProofResponse sa, sb;
  ASSERT_TRUE(d.stub().SubmitProof(as(ALICE_TOKEN).get(), porep_request(s, id), &sa).ok())
      << d.log_tail();
  ASSERT_TRUE(d.stub().SubmitProof(as(BOB_TOKEN).get(), porep_request(s, id), &sb).ok());
  EXPECT_EQ(sa.job_id(), id);
  EXPECT_EQ(sb.job_id(), id);
  cuzk::v1::GetStatusResponse st;
  ASSERT_TRUE(d.stub().GetStatus(as(ALICE_TOKEN).get(), {}, &st).ok());
  unsigned porep_jobs = 0;
  for (const auto& q : st.queues())
    if (q.proof_kind() == "porep-c2") porep_jobs += q.pending() + q.in_progress();
  EXPECT_EQ(porep_jobs, 2u) << "bob's request joined alice's job";

  // The status listener while both jobs are in flight: the id in alice's view (her job) and the
  // operator's, never in mallory's or the read-only prometheus tenant's.
  {
    httplib::Client status_http("127.0.0.1", d.http_port());
    status_http.set_connection_timeout(5s);
    const auto body = [&](const char* path, const std::string& token) {
      auto r = status_http.Get(path, {{"Authorization", "Bearer " + token}});
      EXPECT_TRUE(r && r->status == 200) << path;
      return r ? r->body : std::string();
    };
    for (const std::string& t : {ALICE_TOKEN, OPERATOR_TOKEN}) {
      const std::string seen = body("/status", t);
      EXPECT_NE(seen.find(id), std::string::npos) << seen;
    }
    for (const std::string& t : {MALLORY_TOKEN, PROM_TOKEN})
      EXPECT_EQ(body("/status", t).find(id), std::string::npos) << "another tenant sees " << id;
  }

  // Another tenant, and the local tenant on the unix socket: NOT_FOUND, with the message of an
  // id never sent.
  cuzk::v1::AwaitProofResponse r;
  for (const std::string& stranger : {MALLORY_TOKEN, std::string()}) {
    const grpc::Status await = await_as(d, stranger, id, 1, &r);
    EXPECT_EQ(await.error_code(), grpc::StatusCode::NOT_FOUND) << await.error_message();
    const grpc::Status never = await_as(d, stranger, "never-sent", 1, &r);
    EXPECT_EQ(never.error_code(), grpc::StatusCode::NOT_FOUND);
    EXPECT_EQ(await.error_message(), "job not found: " + id);
    EXPECT_EQ(never.error_message(), "job not found: never-sent");
    EXPECT_EQ(cancel_as(d, stranger, id).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  // The read-only token still may not cancel, even an id it does not have.
  EXPECT_EQ(cancel_as(d, PROM_TOKEN, id).error_code(), grpc::StatusCode::PERMISSION_DENIED);

  // alice is at her max_in_flight = 1; bob is not limited.
  cuzk::v1::SubmitProofResponse refused;
  const grpc::Status over =
      d.stub().SubmitProof(as(ALICE_TOKEN).get(), porep_request(s, "porep-next"), &refused);
  EXPECT_EQ(over.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(over.error_message().find("max_in_flight"), std::string::npos) << over.error_message();

  // bob cancels his job: alice's goes on; then alice cancels hers.
  bool was_running = false;
  ASSERT_TRUE(cancel_as(d, BOB_TOKEN, id, &was_running).ok());
  EXPECT_TRUE(was_running);
  ASSERT_TRUE(await_as(d, BOB_TOKEN, id, 0, &r).ok());
  EXPECT_EQ(r.status(), cuzk::v1::AwaitProofResponse::CANCELLED);
  ASSERT_TRUE(await_as(d, ALICE_TOKEN, id, 1, &r).ok());
  EXPECT_TRUE(r.status() == cuzk::v1::AwaitProofResponse::TIMEOUT ||
              r.status() == cuzk::v1::AwaitProofResponse::COMPLETED)
      << "bob's cancel reached alice's job: " << r.error_message();
  ASSERT_TRUE(cancel_as(d, ALICE_TOKEN, id).ok());
  ASSERT_TRUE(await_as(d, ALICE_TOKEN, id, 0, &r).ok());
  EXPECT_NE(r.status(), cuzk::v1::AwaitProofResponse::TIMEOUT);

  httplib::Client http("127.0.0.1", d.http_port());
  http.set_connection_timeout(5s);
  auto metrics = http.Get("/metrics", {{"Authorization", "Bearer " + PROM_TOKEN}});
  ASSERT_TRUE(metrics);
  ASSERT_EQ(metrics->status, 200);
  const std::string& m = metrics->body;
  EXPECT_NE(m.find("cuzk_tenant_jobs_total{tenant=\"bob\",outcome=\"cancelled\"} 1"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("cuzk_tenant_refused_total{tenant=\"alice\"} 1"), std::string::npos) << m;
  EXPECT_NE(m.find("cuzk_tenant_in_flight_jobs{tenant=\"alice\"}"), std::string::npos) << m;
  for (const std::string& t : {ALICE_TOKEN, BOB_TOKEN, MALLORY_TOKEN, PROM_TOKEN})
    EXPECT_EQ(m.find(t), std::string::npos) << "a token in the metrics";
  EXPECT_EQ(d.terminate(), 0) << d.log_tail();
}

// 200 idle connections holding half-sent requests do not delay GET /status or /healthz.
TEST_F(security_test, slow_loris_on_the_status_listener) {
  daemon_process d("", empty_params());
  std::vector<int> sockets;
  for (int i = 0; i < 200; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(uint16_t(d.http_port()));
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << i;
    const std::string half = "GET /status HTTP/1.1\r\nHost: cuzk\r\n";
    ASSERT_EQ(::send(fd, half.data(), half.size(), MSG_NOSIGNAL), ssize_t(half.size()));
    sockets.push_back(fd);
  }
  std::this_thread::sleep_for(200ms);  // all accepted and waiting for the rest of their headers
  httplib::Client http("127.0.0.1", d.http_port());
  http.set_connection_timeout(5s);
  http.set_read_timeout(5s);
  for (const char* path : {"/status", "/healthz", "/metrics"}) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = http.Get(path);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(r) << path << ": " << httplib::to_string(r.error());
    EXPECT_EQ(r->status, 200) << path;
    EXPECT_LT(s, 1.0) << path << " took " << s << " s behind 200 idle connections";
  }
  for (int fd : sockets) ::close(fd);
  EXPECT_EQ(d.terminate(), 0) << d.log_tail();
}

// Tenants named by client certificates (mutual TLS, no tokens; docs/security.md "Tenants"): two
// Curio nodes with certificates from the same CA (CN curio-node-ca1 and curio-node-b). Node b gets
// NOT_FOUND for node a's job id from AwaitProof and CancelProof, exactly as for an id never sent;
// the same id and bytes from node b make a job of its own, and b's cancel ends only that one.
TEST_F(security_test, client_certificates_name_tenants_that_see_only_their_own_jobs) {
  ASSERT_FALSE(params_dir().empty()) << "CUZK_TEST_PARAMS_DIR is not set (ctest sets it)";
  certificates c;
  ASSERT_TRUE(c.ok()) << "openssl failed";
  const int port = free_tcp_port();
  const std::string target = "127.0.0.1:" + std::to_string(port);
  daemon_process d(c.mutual_tls_config(), "", "", "127.0.0.1:" + std::to_string(port));
  const auto stub_as = [&](const std::string& client) {
    grpc::ChannelArguments ca;
    ca.SetSslTargetNameOverride("localhost");
    return cuzk::v1::ProvingEngine::NewStub(
        grpc::CreateCustomChannel(target, tls_trusting(c, "ca1", client), ca));
  };
  auto node_a = stub_as("client-ca1");
  auto node_b = stub_as("client-b-ca1");
  const sector& s = sectors()[0];
  const std::string id = "porep-" + std::to_string(s.miner) + "-" + std::to_string(s.sector);
  cuzk::v1::SubmitProofResponse submitted;
  const grpc::Status a_submit = node_a->SubmitProof(as("").get(), porep_request(s, id), &submitted);
  ASSERT_TRUE(a_submit.ok()) << a_submit.error_message() << d.log_tail();

  const auto await = [](cuzk::v1::ProvingEngine::Stub& stub, const std::string& job,
                        uint64_t timeout_ms, cuzk::v1::AwaitProofResponse* out) {
    cuzk::v1::AwaitProofRequest a;
    a.set_job_id(job);
    a.set_timeout_ms(timeout_ms);
    return stub.AwaitProof(as("").get(), a, out);
  };
  const auto cancel = [](cuzk::v1::ProvingEngine::Stub& stub, const std::string& job,
                         bool* was_running) {
    cuzk::v1::CancelProofRequest r;
    r.set_job_id(job);
    cuzk::v1::CancelProofResponse resp;
    grpc::Status st = stub.CancelProof(as("").get(), r, &resp);
    *was_running = resp.was_running();
    return st;
  };
  cuzk::v1::AwaitProofResponse r;
  bool was_running = false;
  const grpc::Status b_await = await(*node_b, id, 1, &r);
  EXPECT_EQ(b_await.error_code(), grpc::StatusCode::NOT_FOUND) << b_await.error_message();
  EXPECT_EQ(b_await.error_message(), "job not found: " + id);
  EXPECT_EQ(cancel(*node_b, id, &was_running).error_code(), grpc::StatusCode::NOT_FOUND);

  // The same request from node b: a job of its own, which b's cancel ends; a's goes on.
  ASSERT_TRUE(node_b->SubmitProof(as("").get(), porep_request(s, id), &submitted).ok());
  ASSERT_TRUE(cancel(*node_b, id, &was_running).ok());
  EXPECT_TRUE(was_running);
  ASSERT_TRUE(await(*node_b, id, 0, &r).ok());
  EXPECT_EQ(r.status(), cuzk::v1::AwaitProofResponse::CANCELLED);
  ASSERT_TRUE(await(*node_a, id, 1, &r).ok());
  EXPECT_TRUE(r.status() == cuzk::v1::AwaitProofResponse::TIMEOUT ||
              r.status() == cuzk::v1::AwaitProofResponse::COMPLETED)
      << "node b's cancel reached node a's job: " << r.error_message();
  ASSERT_TRUE(cancel(*node_a, id, &was_running).ok());
  ASSERT_TRUE(await(*node_a, id, 0, &r).ok());
  EXPECT_NE(r.status(), cuzk::v1::AwaitProofResponse::TIMEOUT);

  const std::string log = d.log_text();
  EXPECT_NE(log.find("request " + id + " (kind 1) from tenant curio-node-ca1 "), std::string::npos)
      << log;
  EXPECT_NE(log.find("request " + id + " (kind 1) from tenant curio-node-b "), std::string::npos)
      << log;
  EXPECT_EQ(d.terminate(), 0) << d.log_tail();
}

// 2,000 idle TCP connections to the gRPC port (connected, nothing sent, as a port scanner or a
// crowd of stalled clients leaves them) neither stop another client from being served nor end
// the daemon. The daemon starts with a soft open-files limit of 1,024, as systemd gives a service
// and below the 2,000: it must raise its own to the hard limit. This test needs a hard limit above
// its own 2,000 sockets; a lower one is a failure that says so.
TEST_F(security_test, idle_connections_on_the_grpc_port) {
  constexpr int IDLE = 2000;
  rlimit files{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &files), 0);
  ASSERT_GE(files.rlim_max, rlim_t(IDLE + 256))
      << "the hard open-files limit (ulimit -Hn) is too low for " << IDLE << " connections";
  const rlimit for_daemon{std::min<rlim_t>(1024, files.rlim_max), files.rlim_max};
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &for_daemon), 0);
  const int port = free_tcp_port();
  daemon_process d("", empty_params(), "", "127.0.0.1:" + std::to_string(port));
  const rlimit for_test{files.rlim_max, files.rlim_max};
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &for_test), 0);

  std::vector<int> sockets;
  for (int i = 0; i < IDLE; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0) << i;
    sockets.push_back(fd);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(uint16_t(port));
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << i;
  }
  std::this_thread::sleep_for(500ms);  // accepted, waiting for an HTTP/2 preface that never comes
  // A new client on a new connection, and the daemon's own stub: served at once.
  const std::string target = "127.0.0.1:" + std::to_string(port);
  for (int i = 0; i < 3; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const grpc::Status st = get_status(target, grpc::InsecureChannelCredentials());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_TRUE(st.ok()) << st.error_message() << "\n" << d.log_tail();
    EXPECT_LT(s, 2.0) << "GetStatus took " << s << " s behind " << IDLE << " idle connections";
  }
  httplib::Client http("127.0.0.1", d.http_port());
  http.set_connection_timeout(5s);
  auto health = http.Get("/healthz");
  ASSERT_TRUE(health) << httplib::to_string(health.error());
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(d.ended(), "");
  for (int fd : sockets) ::close(fd);
  EXPECT_TRUE(get_status(target, grpc::InsecureChannelCredentials()).ok());
  EXPECT_NE(d.log_text().find("open files limit raised from 1024 to"), std::string::npos)
      << d.log_tail();
  EXPECT_EQ(d.terminate(), 0) << d.log_tail();
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &files), 0);
}

// A 400 MB Prove (the daemon takes at most 320 MiB; Curio sends at most 256 MiB) is refused with
// RESOURCE_EXHAUSTED, and the daemon goes on serving.
TEST_F(security_test, a_400_mb_message_is_refused) {
  daemon_process d("", empty_params());
  cuzk::v1::ProveRequest big;
  auto* submit = big.mutable_submit();
  submit->set_request_id("porep-1000-400mb");
  submit->set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
  submit->set_registered_proof(
      uint64_t(filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1));
  submit->set_sector_size(2048);
  submit->set_vanilla_proof(std::string(400'000'000, 'x'));
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 60s);
    cuzk::v1::ProveResponse resp;
    const grpc::Status st = d.stub().Prove(&ctx, big, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
  }
  big.Clear();
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 5s);
  cuzk::v1::GetStatusResponse st;
  const grpc::Status served = d.stub().GetStatus(&ctx, {}, &st);
  EXPECT_TRUE(served.ok()) << served.error_message();
  EXPECT_EQ(st.total_proofs_completed() + st.total_proofs_failed(), 0u);
  EXPECT_EQ(d.ended(), "");
  EXPECT_EQ(d.terminate(), 0) << d.log_tail();
}

// A request id with a newline and a terminal escape: the daemon logs it on one line, the control
// bytes as \xNN, so no client can forge a log line (or colour a reader's terminal).
TEST_F(security_test, a_request_id_cannot_forge_a_log_line) {
  daemon_process d("", empty_params());
  cuzk::v1::ProveRequest req;
  auto* submit = req.mutable_submit();
  submit->set_request_id("porep-1\n[info] forged line\x1b[2J");
  submit->set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
  submit->set_registered_proof(
      uint64_t(filecoin::porep::registered_seal_proof::stacked_drg_2kib_v1_1));
  submit->set_sector_size(2048);
  submit->set_vanilla_proof("not a C1");
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 30s);
  cuzk::v1::ProveResponse resp;
  const grpc::Status st = d.stub().Prove(&ctx, req, &resp);
  EXPECT_TRUE(st.ok() || st.error_code() == grpc::StatusCode::INVALID_ARGUMENT)
      << st.error_message();
  EXPECT_EQ(d.terminate(), 0) << d.log_tail();
  const std::string log = d.log_text();
  EXPECT_NE(log.find("porep-1\\x0a[info] forged line\\x1b[2J"), std::string::npos) << log;
  EXPECT_EQ(log.find("\n[info] forged line"), std::string::npos) << log;
  EXPECT_EQ(log.find('\x1b'), std::string::npos) << "a raw escape byte in the log";
}

}  // namespace
}  // namespace cuzk::test
