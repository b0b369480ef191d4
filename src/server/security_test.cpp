// SPDX-License-Identifier: Apache-2.0
// Who may call the daemon (security.hpp), on synthetic gRPC peer strings and metadata: loopback
// and unix peers are local (v4, v6, v4-mapped, percent-encoded), others are not; the tokens file
// parses and refuses bad lines without echoing a token; protected mode and the admission rules.
#include "server/security.hpp"

#include <gtest/gtest.h>

namespace {

using namespace cuzk::server;

TEST(is_local_peer, loopback_and_unix_peers_are_local) {
  EXPECT_TRUE(is_local_peer("ipv4:127.0.0.1:5"));
  EXPECT_TRUE(is_local_peer("ipv4:127.8.9.10:65535"));
  EXPECT_TRUE(is_local_peer("ipv6:[::1]:5"));
  EXPECT_TRUE(is_local_peer("ipv6:%5B::1%5D:5"));
  EXPECT_TRUE(is_local_peer("ipv6:[::ffff:127.0.0.1]:5"));
  EXPECT_TRUE(is_local_peer("ipv6:%5B%3A%3Affff%3A127.0.0.1%5D:5"));
  EXPECT_TRUE(is_local_peer("unix:/run/curio/cuzk.sock"));
  EXPECT_TRUE(is_local_peer("unix:"));
  EXPECT_TRUE(is_local_peer("unix-abstract:cuzk"));
}

TEST(is_local_peer, other_peers_are_not) {
  EXPECT_FALSE(is_local_peer("ipv4:192.0.2.2:5"));
  EXPECT_FALSE(is_local_peer("ipv4:10.0.0.1:9820"));
  EXPECT_FALSE(is_local_peer("ipv4:128.0.0.1:5"));
  EXPECT_FALSE(is_local_peer("ipv6:[fd00::2]:5"));
  EXPECT_FALSE(is_local_peer("ipv6:[::ffff:192.0.2.2]:5"));
  EXPECT_FALSE(is_local_peer("ipv6:[::]:5"));
  EXPECT_FALSE(is_local_peer("ipv6:[fe80::1%25eth0]:5"));
  // Malformed or unknown: never local.
  EXPECT_FALSE(is_local_peer(""));
  EXPECT_FALSE(is_local_peer("ipv4:127.0.0.1"));
  EXPECT_FALSE(is_local_peer("ipv4:localhost:5"));
  EXPECT_FALSE(is_local_peer("ipv6:::1:5"));
  EXPECT_FALSE(is_local_peer("ipv6:[::1:5"));
  EXPECT_FALSE(is_local_peer("127.0.0.1:5"));
  EXPECT_FALSE(is_local_peer("ipv4:127.0.0.1.5:5"));
  EXPECT_FALSE(is_local_peer("vsock:3:5"));
}

TEST(is_loopback_host, listen_hosts) {
  EXPECT_TRUE(is_loopback_host("127.0.0.1"));
  EXPECT_TRUE(is_loopback_host("::1"));
  EXPECT_TRUE(is_loopback_host("[::1]"));
  EXPECT_TRUE(is_loopback_host("localhost"));
  EXPECT_FALSE(is_loopback_host("0.0.0.0"));
  EXPECT_FALSE(is_loopback_host("::"));
  EXPECT_FALSE(is_loopback_host("192.0.2.2"));
  EXPECT_FALSE(is_loopback_host("gpu-prover.internal"));
}

constexpr std::string_view TOKENS = R"(# tenants of this box
alice  0123456789abcdef0123
alice  rotated-token-for-alice-2
bob    bob-token-bob-token readonly   # Prometheus

)";

TEST(token_table, parses_tenants_tokens_and_readonly) {
  auto t = token_table::parse(TOKENS);
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->size(), 3u);
  const token_entry* a = t->find("0123456789abcdef0123");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->tenant, "alice");
  EXPECT_FALSE(a->read_only);
  ASSERT_NE(t->find("rotated-token-for-alice-2"), nullptr);
  const token_entry* b = t->find("bob-token-bob-token");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->tenant, "bob");
  EXPECT_TRUE(b->read_only);
  EXPECT_EQ(t->find("0123456789abcdef012"), nullptr);
  EXPECT_EQ(t->find(""), nullptr);
  EXPECT_EQ(t->find("alice"), nullptr);
  auto empty = token_table::parse("");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
}

TEST(token_table, operator_tokens_see_every_tenant) {
  auto t = token_table::parse(
      "ops   operator-token-000001 operator\n"
      "graf  grafana-token-0000001 operator readonly\n"
      "alice alice-token-000000001 readonly\n");
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  const token_entry* ops = t->find("operator-token-000001");
  ASSERT_NE(ops, nullptr);
  EXPECT_TRUE(ops->all_tenants);
  EXPECT_FALSE(ops->read_only);
  const token_entry* graf = t->find("grafana-token-0000001");
  ASSERT_NE(graf, nullptr);
  EXPECT_TRUE(graf->all_tenants);
  EXPECT_TRUE(graf->read_only);
  const token_entry* alice = t->find("alice-token-000000001");
  ASSERT_NE(alice, nullptr);
  EXPECT_FALSE(alice->all_tenants);
  for (const char* flags : {" operator operator", " readonly readonly", " admin", " operator x"}) {
    auto bad = token_table::parse(std::string("ops operator-token-000001") + flags + "\n");
    ASSERT_FALSE(bad.ok()) << flags;
    EXPECT_NE(bad.error().message().find("line 1"), std::string::npos);
  }
}

TEST(token_table, bad_lines_name_the_line_never_the_token) {
  const std::string secret = "s3cret-s3cret-s3cret";
  for (const std::string& text : std::vector<std::string>{
           "alice\n", "alice " + secret + " admin\n", "al/ice " + secret + "\n", "alice short\n",
           "# ok\nalice " + secret + "\nbob " + secret + "\n",
           "alice " + secret + " readonly extra\n", std::string(65, 'a') + " " + secret + "\n"}) {
    auto t = token_table::parse(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.error().code(), cuzk::status_code::invalid_argument);
    EXPECT_NE(t.error().message().find("line "), std::string::npos) << t.error().message();
    EXPECT_EQ(t.error().message().find(secret), std::string::npos) << t.error().message();
  }
  auto dup = token_table::parse("# x\nalice " + secret + "\nbob " + secret + "\n");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().message().find("line 3"), std::string::npos);
}

TEST(token_table, a_missing_file_is_an_error) {
  auto t = token_table::load("/nonexistent/cuzk-tokens", nullptr);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message().find("/nonexistent/cuzk-tokens"), std::string::npos);
}

TEST(bearer_token, scheme_and_token) {
  EXPECT_EQ(bearer_token("Bearer abc"), "abc");
  EXPECT_EQ(bearer_token("bearer  abc "), "abc");
  EXPECT_EQ(bearer_token("BEARER abc"), "abc");
  EXPECT_FALSE(bearer_token("Basic abc"));
  EXPECT_FALSE(bearer_token("Bearer "));
  EXPECT_FALSE(bearer_token("Bearer"));
  EXPECT_FALSE(bearer_token(""));
}

access_policy plaintext_on(bool loopback_listen) {
  access_policy p;
  p.tcp = true;
  p.loopback_listen = loopback_listen;
  return p;
}

TEST(protected_mode, only_a_reachable_listener_without_tls_and_authentication) {
  EXPECT_FALSE(protected_mode(access_policy{}));  // unix socket
  EXPECT_FALSE(protected_mode(plaintext_on(true)));
  access_policy p = plaintext_on(false);
  EXPECT_TRUE(protected_mode(p));
  p.tokens = true;  // tokens in plaintext are readable on the wire
  EXPECT_TRUE(protected_mode(p));
  p.tls = true;
  EXPECT_FALSE(protected_mode(p));
  p.tokens = false;  // TLS alone authenticates nobody
  EXPECT_TRUE(protected_mode(p));
  p.client_certificates = true;
  EXPECT_FALSE(protected_mode(p));
  access_policy open = plaintext_on(false);
  open.allow_insecure_tcp = true;
  EXPECT_FALSE(protected_mode(open));
  EXPECT_NE(access_summary(plaintext_on(false)).find("allow_insecure_tcp"), std::string::npos);
  EXPECT_NE(access_summary(plaintext_on(false)).find("PROTECTED MODE"), std::string::npos);
}

TEST(admit, protected_mode_serves_loopback_and_refuses_others_naming_the_fix) {
  const access_policy p = plaintext_on(false);
  for (const char* peer : {"ipv4:127.0.0.1:5", "ipv6:[::1]:5", "ipv6:[::ffff:127.0.0.1]:5"}) {
    const admission a = admit(p, nullptr, {peer, std::nullopt, ""}, true);
    EXPECT_EQ(a.refused, refusal::none) << peer;
    EXPECT_EQ(a.who.tenant, "local");
  }
  for (const char* peer : {"ipv4:192.0.2.2:5", "ipv6:[fd00::2]:5"}) {
    const admission a = admit(p, nullptr, {peer, std::nullopt, ""}, false);
    EXPECT_EQ(a.refused, refusal::permission_denied) << peer;
    EXPECT_NE(a.message.find("allow_insecure_tcp"), std::string::npos);
    EXPECT_NE(a.message.find("tls_cert_file"), std::string::npos);
  }
  access_policy open = p;
  open.allow_insecure_tcp = true;
  EXPECT_EQ(admit(open, nullptr, {"ipv4:192.0.2.2:5", std::nullopt, ""}, true).refused,
            refusal::none);
}

TEST(admit, tokens) {
  auto t = token_table::parse(TOKENS);
  ASSERT_TRUE(t.ok());
  access_policy p = plaintext_on(false);
  p.tls = true;
  p.tokens = true;
  const char* remote = "ipv4:192.0.2.2:5";
  EXPECT_EQ(admit(p, &*t, {remote, std::nullopt, ""}, false).refused, refusal::unauthenticated);
  EXPECT_EQ(admit(p, &*t, {"ipv4:127.0.0.1:5", std::nullopt, ""}, false).refused,
            refusal::unauthenticated);
  const admission wrong = admit(p, &*t, {remote, "Bearer not-a-token-at-all", ""}, false);
  EXPECT_EQ(wrong.refused, refusal::unauthenticated);
  EXPECT_EQ(wrong.message.find("not-a-token"), std::string::npos);
  EXPECT_EQ(admit(p, &*t, {remote, "Basic 0123456789abcdef0123", ""}, false).refused,
            refusal::unauthenticated);
  const admission alice = admit(p, &*t, {remote, "Bearer 0123456789abcdef0123", ""}, true);
  EXPECT_EQ(alice.refused, refusal::none);
  EXPECT_EQ(alice.who.tenant, "alice");
  const admission bob_reads = admit(p, &*t, {remote, "Bearer bob-token-bob-token", ""}, false);
  EXPECT_EQ(bob_reads.refused, refusal::none);
  EXPECT_TRUE(bob_reads.who.read_only);
  EXPECT_EQ(admit(p, &*t, {remote, "Bearer bob-token-bob-token", ""}, true).refused,
            refusal::permission_denied);
  // A unix socket peer without a token is the local tenant; with a wrong one it is refused.
  access_policy unix_socket;
  unix_socket.tokens = true;
  EXPECT_EQ(admit(unix_socket, &*t, {"unix:/run/x.sock", std::nullopt, ""}, true).who.tenant,
            "local");
  EXPECT_EQ(
      admit(unix_socket, &*t, {"unix:/run/x.sock", "Bearer nope-nope-nope-nope", ""}, true).refused,
      refusal::unauthenticated);
}

TEST(admit, a_client_certificate_names_the_tenant) {
  access_policy p = plaintext_on(false);
  p.tls = true;
  p.client_certificates = true;
  const admission a = admit(p, nullptr, {"ipv4:192.0.2.2:5", std::nullopt, "curio-node-1"}, true);
  EXPECT_EQ(a.refused, refusal::none);
  EXPECT_EQ(a.who.tenant, "curio-node-1");
}

}  // namespace
