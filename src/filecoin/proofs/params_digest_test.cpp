// SPDX-License-Identifier: Apache-2.0
// Parameter digests: chunked BLAKE2b-512 of files against constants from Python's hashlib (an
// independent implementation), a corrupted file reported as MISMATCH, unknown names, directory
// checks, parameters.json parsing, the built-in PoRep table equal to the fixture; and that a GPU
// request is refused cleanly by a build without CUDA.
#include "filecoin/proofs/params_digest.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <random>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "filecoin/circuits/params_name.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "filecoin/proofs/prover_backend.hpp"
#include "fixtures.hpp"
#include "groth16/params_io.hpp"
#include "groth16/prover_cpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/test_circuits.hpp"
#include "groth16/verifier.hpp"
#include "temp_dir.hpp"

namespace cuzk::filecoin::proofs {
namespace {

namespace fs = std::filesystem;

struct temp_dir {
  fs::path path;
  temp_dir() {
    path =
        fs::temp_directory_path() / ("cuzk_digest_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// 3 MiB + 12345 bytes (spans several 1 MiB chunks and a partial block), byte i = 7i + 3 mod 256.
std::vector<uint8_t> pattern() {
  std::vector<uint8_t> v(3 * (size_t(1) << 20) + 12345);
  for (size_t i = 0; i < v.size(); ++i) v[i] = uint8_t(i * 7 + 3);
  return v;
}

void write_file(const fs::path& p, const std::vector<uint8_t>& v) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size()));
}

// python3: hashlib.blake2b(bytes((i*7+3)&0xff for i in range(3*2**20+12345))).hexdigest()[:32]
constexpr const char* PATTERN_DIGEST = "7c631f4d761180ef147c3520c69751b9";
// python3: hashlib.blake2b(b'').hexdigest()[:32]
constexpr const char* EMPTY_DIGEST = "786a02f742015903c6c6fd852552d272";

TEST(params_digest, file_digest_matches_hashlib) {
  temp_dir d;
  write_file(d.path / "a.bin", pattern());
  write_file(d.path / "e.bin", {});
  auto h = blake2b512_file_hex((d.path / "a.bin").string());
  ASSERT_TRUE(h.ok()) << h.error().to_string();
  EXPECT_EQ(h->size(), 128u);
  EXPECT_EQ(h->substr(0, 32), PATTERN_DIGEST);
  auto e = blake2b512_file_hex((d.path / "e.bin").string());
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->substr(0, 32), EMPTY_DIGEST);
  EXPECT_EQ(blake2b512_file_hex((d.path / "missing").string()).error().code(),
            status_code::io_error);
}

TEST(params_digest, ok_mismatch_unknown) {
  temp_dir d;
  auto cfg = porep::porep_config(porep::registered_seal_proof::stacked_drg_2kib_v1_1);
  ASSERT_TRUE(cfg.ok());
  const std::string params_name = circuits::porep_params_file_name(*cfg);
  const std::string vk_name = circuits::porep_vk_file_name(*cfg);
  const std::vector<param_fact_t> facts = {{params_name, PATTERN_DIGEST, 2048},
                                           {vk_name, PATTERN_DIGEST, 2048}};
  auto v = pattern();
  write_file(d.path / params_name, v);
  v[v.size() / 2] ^= 1;  // one bit flipped in the middle chunk
  write_file(d.path / vk_name, v);
  write_file(d.path / "other.params", {});

  auto a = check_param_file((d.path / params_name).string(), facts);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->verdict, digest_verdict::ok);
  auto b = check_param_file((d.path / vk_name).string(), facts);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->verdict, digest_verdict::mismatch);
  EXPECT_NE(b->actual, b->expected);

  auto all = check_params_dir(d.path.string(), facts);
  ASSERT_TRUE(all.ok()) << all.error().to_string();
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].name, "other.params");  // sorted
  EXPECT_EQ((*all)[0].verdict, digest_verdict::unknown);
  EXPECT_EQ((*all)[0].actual, EMPTY_DIGEST);
  auto two =
      check_params_dir(d.path.string(), facts, porep::registered_seal_proof::stacked_drg_2kib_v1);
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->size(), 2u);  // V1 and V1_1 share the files
  EXPECT_EQ((*two)[0].verdict, digest_verdict::ok);
  EXPECT_EQ((*two)[1].verdict, digest_verdict::mismatch);
  // Against the official facts our pattern file is a MISMATCH (the name is known).
  auto off = check_param_file((d.path / params_name).string(), builtin_porep_facts());
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(off->verdict, digest_verdict::mismatch);
  EXPECT_EQ(off->expected, "434fb1338ecfaf0f59256f30dde4968f");
  EXPECT_EQ(check_params_dir((d.path / "nope").string(), facts).error().code(),
            status_code::io_error);
}

TEST(params_digest, parse_parameters_json) {
  auto f = parse_parameters_json(
      R"({"a.vk": {"cid": "Qm", "digest": "0123456789abcdef0123456789abcdef", "sector_size": 2048,
           "extra": [1, {"x": null}]}, "b.params": {"digest": "ffffffffffffffffffffffffffffffff",
           "sector_size": 34359738368}})");
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  ASSERT_EQ(f->size(), 2u);
  EXPECT_EQ((*f)[0].name, "a.vk");
  EXPECT_EQ((*f)[1].sector_size, 34359738368ull);
  EXPECT_FALSE(parse_parameters_json(R"({"a": {"digest": "0123", "sector_size": 1}})").ok());
  EXPECT_FALSE(parse_parameters_json(R"({"a": {"sector_size": 1}})").ok());
  EXPECT_FALSE(parse_parameters_json(R"({"a": {"digest": "x", )").ok());
  EXPECT_FALSE(parse_parameters_json("{} x").ok());
}

// Issue #13: /dev/zero, a directory or a FIFO where a file is expected is an io_error at once,
// never an endless read (the Blake2b digest streams whole files) or a blocked open.
TEST(params_digest, special_files_are_refused) {
  const fs::path dir = fs::path(testing::TempDir()) / "cuzk_params_digest_special";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string fifo = (dir / "fifo.params").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& p : {std::string("/dev/zero"), dir.string(), fifo}) {
    auto j = read_parameters_json(p);
    ASSERT_FALSE(j.ok()) << p;
    EXPECT_EQ(j.error().code(), status_code::io_error) << j.error().to_string();
    auto h = blake2b512_file_hex(p);
    ASSERT_FALSE(h.ok()) << p;
    EXPECT_EQ(h.error().code(), status_code::io_error) << h.error().to_string();
  }
  // A directory listing skips the FIFO (not a regular file) instead of hashing it.
  auto listed = check_params_dir(dir.string(), builtin_porep_facts(), std::nullopt);
  ASSERT_TRUE(listed.ok()) << listed.error().to_string();
  EXPECT_TRUE(listed->empty());
  fs::remove_all(dir);
}

TEST(params_digest, builtin_table_equals_fixture) {
  const std::string path = cuzk::test::fixture_path("parameters.json");
  ASSERT_TRUE(fs::exists(path)) << "missing fixture " << path;
  auto facts = read_parameters_json(path);
  ASSERT_TRUE(facts.ok()) << facts.error().to_string();
  size_t porep = 0;
  for (const auto& f : *facts) {
    if (f.name.find("stacked-proof-of-replication") == std::string::npos) continue;
    ++porep;
    bool found = false;
    for (const auto& b : builtin_porep_facts()) {
      if (b.name != f.name) continue;
      found = true;
      EXPECT_EQ(b.digest, f.digest) << f.name;
      EXPECT_EQ(b.sector_size, f.sector_size) << f.name;
    }
    EXPECT_TRUE(found) << f.name;
  }
  EXPECT_EQ(porep, builtin_porep_facts().size());
  // Our file names (filecoin/circuits/params_name.hpp) are the table's names.
  for (auto p : {porep::registered_seal_proof::stacked_drg_2kib_v1_1,
                 porep::registered_seal_proof::stacked_drg_32gib_v1_1}) {
    auto cfg = porep::porep_config(p);
    ASSERT_TRUE(cfg.ok());
    bool found = false;
    for (const auto& b : builtin_porep_facts())
      found |= b.name == circuits::porep_params_file_name(*cfg);
    EXPECT_TRUE(found) << porep::name_of(p);
  }
}

TEST(params_digest, builtin_post_table_equals_fixture) {
  auto facts = read_parameters_json(cuzk::test::fixture_path("parameters.json"));
  ASSERT_TRUE(facts.ok()) << facts.error().to_string();
  size_t post_entries = 0;
  for (const auto& f : *facts) {
    if (f.name.find("proof-of-spacetime-fallback") == std::string::npos) continue;
    ++post_entries;
    bool found = false;
    for (const auto& b : builtin_post_facts()) {
      if (b.name != f.name) continue;
      found = true;
      EXPECT_EQ(b.digest, f.digest) << f.name;
      EXPECT_EQ(b.sector_size, f.sector_size) << f.name;
    }
    EXPECT_TRUE(found) << f.name;
  }
  EXPECT_EQ(post_entries, builtin_post_facts().size());
  EXPECT_EQ(builtin_param_facts().size(),
            builtin_porep_facts().size() + builtin_post_facts().size());
  // Our file names (circuits::post_param_id) are the table's, for every registered PoSt
  // proof.
  for (uint32_t n = 0; n < post::NUM_REGISTERED_POST_PROOFS; ++n) {
    const auto cfg = post::post_config(*post::registered_post_proof_from_id(n));
    ASSERT_TRUE(cfg.ok());
    for (const std::string& path : {post_params_path(*cfg, "d"), post_vk_path(*cfg, "d")}) {
      const std::string name = fs::path(path).filename().string();
      bool found = false;
      for (const auto& b : builtin_post_facts()) found |= b.name == name;
      EXPECT_TRUE(found) << n << " " << name;
    }
  }
}

// check_params_dir for a PoSt proof looks at that proof's pair only: a file under the official
// Window 2 KiB name with foreign bytes is a MISMATCH; Winning's absent pair gives nothing.
TEST(params_digest, post_proof_files_in_a_dir) {
  const cuzk::test::temp_dir dir("cuzk_post_digest");
  const auto window = post::registered_post_proof::window_2kib_v1_1;
  const std::string path = post_params_path(*post::post_config(window), dir.string());
  std::ofstream(path) << "not parameters";
  auto c = check_params_dir(dir.string(), builtin_post_facts(), window);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].verdict, digest_verdict::mismatch);
  EXPECT_EQ((*c)[0].expected, "7610b9f82bfc88405b7a832b651ce2f6");
  auto w = check_params_dir(dir.string(), builtin_post_facts(),
                            post::registered_post_proof::winning_2kib_v1);
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE(w->empty());
}

// A GPU request is refused by a build without CUDA before anything is looked at, and the message
// says so: the check `cuzk prove --gpu N` makes before it starts its engine. (The empty C1 is
// refused by the PoRep kind's check, src/engine/porep_kind_test.cpp.)
#if !defined(CUZK_WITH_CUDA)
TEST(backend_request, gpu_request_without_cuda_is_refused) {
  const status r = check_backend_request(0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.code(), status_code::invalid_argument);
  EXPECT_NE(r.message().find("this build has no CUDA support"), std::string::npos) << r.message();
}
#endif

// The run-time backend choice over one small parameters file (the cubic example): the CPU when
// no GPU is asked for; with a GPU request, a build without CUDA refuses it, a CUDA build proves on
// that GPU when the machine has one and otherwise on the CPU after a warn line naming the
// fallback. Whichever backend runs, start + the shared finalize give a proof that verifies.
TEST(prover_backend, run_time_choice_and_cpu_fallback) {
  const auto ci = groth16::testing::cubic_circuit();
  auto asg =
      groth16::testing::make_assignment(ci.cs, ci.inputs, ci.aux, thread_pool::default_pool());
  ASSERT_TRUE(asg.ok());
  const uint8_t seed[] = {7};
  auto params = groth16::generate_parameters(ci.cs, groth16::toxic_waste::from_seed(seed),
                                             thread_pool::default_pool());
  ASSERT_TRUE(params.ok());
  auto bytes = groth16::params_to_bytes(*params, thread_pool::default_pool());
  ASSERT_TRUE(bytes.ok());
  auto file = groth16::params_file::from_bytes(*bytes);
  ASSERT_TRUE(file.ok());
  const groth16::prepared_verifying_key pvk = groth16::prepare_verifying_key(params->vk);
  const std::vector<ff::fr_t> publics(ci.inputs.begin() + 1, ci.inputs.end());

  std::vector<std::pair<log_level, std::string>> logged;
  const log_sink sink = [&](log_level l, std::string_view m) { logged.emplace_back(l, m); };
  auto prove_with = [&](prover_backend& backend) {
    groth16::prover_timings tm;
    auto parts = backend.start(asg->view(), thread_pool::default_pool(), &tm);
    ASSERT_TRUE(parts.ok()) << backend.name() << ": " << parts.error().to_string();
    auto pf = groth16::finalize(backend.vk(), *parts, ff::fr_t::from_uint(3),
                                ff::fr_t::from_uint(5), &tm);
    ASSERT_TRUE(pf.ok());
    auto ok = groth16::verify(pvk, *pf, publics);
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok) << backend.name();
  };

  auto cpu = make_prover_backend(*file, groth16::point_checks::full, -1,
                                 thread_pool::default_pool(), sink);
  ASSERT_TRUE(cpu.ok()) << cpu.error().to_string();
  EXPECT_EQ((*cpu)->name(), "cpu");
  prove_with(**cpu);

  logged.clear();
  auto gpu =
      make_prover_backend(*file, groth16::point_checks::full, 0, thread_pool::default_pool(), sink);
  if (!gpu.ok()) {  // a build without CUDA
    EXPECT_EQ(gpu.error().code(), status_code::invalid_argument);
    EXPECT_NE(gpu.error().message().find("no CUDA support"), std::string::npos);
    return;
  }
  if ((*gpu)->name() == "cpu") {  // a CUDA build on a machine without a device
    bool warned = false;
    for (const auto& [level, msg] : logged)
      warned |= level == log_level::warn && msg.find("no CUDA device") != std::string::npos;
    EXPECT_TRUE(warned) << "the CPU fallback must be logged";
  } else {
    EXPECT_EQ((*gpu)->name(), "gpu 0");
  }
  prove_with(**gpu);
}

}  // namespace
}  // namespace cuzk::filecoin::proofs
