// SPDX-License-Identifier: Apache-2.0
// Base64 against the RFC 4648 §10 test vectors, random round trips of every length 0..300 plus
// OpenSSL's EVP_EncodeBlock as an independent encoder, and rejection of malformed input.
#include "base/base64.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <string>
#include <vector>

#include "test_rng.hpp"

namespace cuzk {
namespace {

std::span<const uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(base64, rfc4648_vectors) {
  const std::pair<const char*, const char*> v[] = {{"", ""},
                                                   {"f", "Zg=="},
                                                   {"fo", "Zm8="},
                                                   {"foo", "Zm9v"},
                                                   {"foob", "Zm9vYg=="},
                                                   {"fooba", "Zm9vYmE="},
                                                   {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, enc] : v) {
    EXPECT_EQ(base64_encode(bytes_of(plain)), enc);
    auto d = base64_decode(enc);
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    EXPECT_EQ(std::string(d->begin(), d->end()), plain);
  }
}

TEST(base64, random_round_trip_vs_openssl) {
  auto rng = test::test_rng::from_env("base64.random_round_trip_vs_openssl");
  for (size_t len = 0; len <= 300; ++len) {
    std::vector<uint8_t> d(len);
    for (auto& b : d) b = uint8_t(rng());
    const std::string enc = base64_encode(d);
    std::string ossl((len + 2) / 3 * 4 + 1, '\0');
    const int n =
        EVP_EncodeBlock(reinterpret_cast<unsigned char*>(ossl.data()), d.data(), int(len));
    ossl.resize(size_t(n));
    ASSERT_EQ(enc, ossl) << "len " << len;
    auto back = base64_decode(enc);
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(*back, d);
    std::string into = "x";
    ASSERT_TRUE(base64_decode_into(enc, into).ok());
    ASSERT_EQ(into.substr(1), std::string(d.begin(), d.end()));
  }
}

TEST(base64, rejects_malformed) {
  const char* bad[] = {"Zg=",  "Zg",   "Z===", "Zm9v!A==",  "Zm 9v",   "=Zm9",
                       "Zh==", "Zm9=", "Zm=v", "Zm9vY\n==", "Zm9vYg=A"};
  for (const char* b : bad) {
    auto d = base64_decode(b);
    EXPECT_FALSE(d.ok()) << b;
    if (!d.ok()) {
      EXPECT_EQ(d.error().code(), status_code::bad_encoding);
      EXPECT_NE(d.error().message().find("base64"), std::string::npos);
    }
  }
  auto d = base64_decode("Zm9v!A==");
  EXPECT_NE(d.error().message().find("'!' at offset 4"), std::string::npos) << d.error().message();
}

}  // namespace
}  // namespace cuzk
