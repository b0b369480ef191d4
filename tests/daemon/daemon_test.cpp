// SPDX-License-Identifier: Apache-2.0
// The daemon, black-box (label e2e): the real cuzk-daemon process is started on a unix socket in a
// temp dir with the shared 2 KiB parameters (ctest fixture porep_2k_params) and spoken to only
// over gRPC (cuzk.v1 and grpc.health.v1) and its HTTP status listener. Proofs are checked with
// filecoin::proofs::verify_porep / verify_update against the .vk file, not by the daemon. The
// fixture's daemon also proves SnapDeals: its parameter directory links the 2 KiB PoRep and
// SnapDeals sets (ctest fixtures porep_2k_params and snap_2k_params).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "daemon_test_util.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/post/vanilla_prove.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "filecoin/proofs/snap_prover.hpp"
#include "filecoin/snap/encode.hpp"
#include "filecoin/snap/vanilla_prove.hpp"
#include "temp_dir.hpp"

namespace cuzk::test {
namespace {

using v1_status = cuzk::v1::AwaitProofResponse;

bool verifies(const sector& s, const std::string& proof) {
  const filecoin::proofs::prover_identity_t who{filecoin::porep::prover_id_from_actor(s.miner),
                                                s.sector};
  auto ok = filecoin::proofs::verify_porep(
      s.c1, who, std::span(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()),
      params_dir());
  return ok.ok() && *ok;
}

std::string snap_params_dir() {
  const char* d = std::getenv("CUZK_TEST_SNAP_PARAMS_DIR");
  return d ? d : "";
}

constexpr auto SNAP_2KIB = filecoin::snap::registered_update_proof::stacked_drg_2kib_v1;  // wire 0

// A 2 KiB sector key (test::seal_2kib(sector_id), miner 1000) with new data encoded into it.
filecoin::snap::updated_sector_t snap_update(uint64_t sector_id) {
  std::vector<uint8_t> payload(2032);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = uint8_t(i * 7 + sector_id);
  auto s = filecoin::snap::encode_update(*filecoin::snap::update_config(SNAP_2KIB),
                                         seal_2kib(sector_id), payload);
  EXPECT_TRUE(s.ok()) << s.error().to_string();
  return std::move(*s);
}

// SNAP_DEALS_UPDATE as Curio's UpdateProve sends it: one bincode PartitionProof per partition,
// the raw 32-byte commitments, the RegisteredUpdateProof number, sector number and miner.
cuzk::v1::SubmitProofRequest snap_request(const filecoin::snap::updated_sector_t& s,
                                          uint64_t sector_id) {
  cuzk::v1::SubmitProofRequest r;
  r.set_request_id("snap-1000-" + std::to_string(sector_id));
  r.set_proof_kind(cuzk::v1::SNAP_DEALS_UPDATE);
  r.set_sector_size(s.config.sector_bytes);
  r.set_registered_proof(filecoin::snap::id_of(SNAP_2KIB));
  r.set_priority(cuzk::v1::NORMAL);
  for (const auto& e : filecoin::snap::prove_all_partitions(s))
    r.add_vanilla_proofs(e.data(), e.size());
  r.set_comm_r_old(s.comm_r_old.data(), s.comm_r_old.size());
  r.set_comm_r_new(s.comm_r_new.data(), s.comm_r_new.size());
  r.set_comm_d_new(s.comm_d_new.data(), s.comm_d_new.size());
  r.set_sector_number(sector_id);
  r.set_miner_id(1000);
  return r;
}

bool snap_verifies(const filecoin::snap::updated_sector_t& s, const std::string& proof) {
  auto ok = filecoin::proofs::verify_update(
      SNAP_2KIB, filecoin::snap::commitments_of(s),
      std::span(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()), snap_params_dir());
  EXPECT_TRUE(ok.ok()) << ok.error().to_string();
  return ok.ok() && *ok;
}

class daemon_test : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_FALSE(params_dir().empty())
        << "CUZK_TEST_PARAMS_DIR is not set (run through ctest: fixture porep_2k_params)";
    ASSERT_FALSE(snap_params_dir().empty())
        << "CUZK_TEST_SNAP_PARAMS_DIR is not set (run through ctest: fixture snap_2k_params)";
    sectors();
    // One daemon for both circuits: its param_cache links every file of the two shared sets.
    params_ = new temp_dir("daemon_params");
    for (const std::string& dir : {params_dir(), snap_params_dir()}) {
      for (const auto& f : std::filesystem::directory_iterator(dir)) {
        std::error_code ec;
        std::filesystem::create_symlink(std::filesystem::absolute(f.path()),
                                        params_->path() / f.path().filename(), ec);
        ASSERT_FALSE(ec) << f.path() << ": " << ec.message();
      }
    }
    d_ = new daemon_process("", params_->string());
  }
  static void TearDownTestSuite() {
    delete d_;
    d_ = nullptr;
    delete params_;
    params_ = nullptr;
  }
  static daemon_process* d_;
  static temp_dir* params_;

  static cuzk::v1::AwaitProofResponse prove(const cuzk::v1::SubmitProofRequest& r,
                                            grpc::Status* st = nullptr) {
    grpc::ClientContext ctx;
    cuzk::v1::ProveRequest req;
    *req.mutable_submit() = r;
    cuzk::v1::ProveResponse resp;
    grpc::Status s = d_->stub().Prove(&ctx, req, &resp);
    if (st) *st = s;
    EXPECT_TRUE(st || s.ok()) << s.error_message();
    return resp.result();
  }
};
daemon_process* daemon_test::d_ = nullptr;
temp_dir* daemon_test::params_ = nullptr;

// The same daemon set-up for the cases that prove several 2 KiB sectors one after another and
// whose property the CI-sized stress run also checks (await timeouts, retries that attach, reused
// ids): label slow (ctest daemon_slow_test), run by hand, so the CI run stays within its time.
class daemon_slow : public daemon_test {};

TEST_F(daemon_test, prove_returns_a_proof_that_verifies) {
  const sector& s = sectors()[0];
  auto r =
      prove(porep_request(s, "porep-" + std::to_string(s.miner) + "-" + std::to_string(s.sector)));
  ASSERT_EQ(r.status(), v1_status::COMPLETED) << r.error_message();
  EXPECT_EQ(r.proof().size(), 192u);
  EXPECT_TRUE(verifies(s, r.proof()));
  EXPECT_GT(r.total_ms(), 0u);
  EXPECT_GT(r.synthesis_ms(), 0u);
}

TEST_F(daemon_slow, await_with_a_short_timeout_answers_timeout_then_the_proof) {
  const sector& s = sectors()[1];
  grpc::ClientContext c1;
  cuzk::v1::SubmitProofResponse sub;
  ASSERT_TRUE(d_->stub().SubmitProof(&c1, porep_request(s, "await-timeout"), &sub).ok());
  EXPECT_EQ(sub.job_id(), "await-timeout");
  cuzk::v1::AwaitProofRequest a;
  a.set_job_id(sub.job_id());
  a.set_timeout_ms(1);
  grpc::ClientContext c2;
  cuzk::v1::AwaitProofResponse r;
  ASSERT_TRUE(d_->stub().AwaitProof(&c2, a, &r).ok());
  EXPECT_EQ(r.status(), v1_status::TIMEOUT);
  a.set_timeout_ms(0);  // no limit
  grpc::ClientContext c3;
  ASSERT_TRUE(d_->stub().AwaitProof(&c3, a, &r).ok());
  ASSERT_EQ(r.status(), v1_status::COMPLETED) << r.error_message();
  EXPECT_TRUE(verifies(s, r.proof()));
}

TEST_F(daemon_test, cancel_really_cancels) {
  const sector& s = sectors()[0];
  grpc::ClientContext c1;
  cuzk::v1::SubmitProofResponse sub;
  ASSERT_TRUE(d_->stub().SubmitProof(&c1, porep_request(s, "to-cancel"), &sub).ok());
  grpc::ClientContext c2;
  cuzk::v1::CancelProofRequest c;
  c.set_job_id(sub.job_id());
  cuzk::v1::CancelProofResponse cr;
  ASSERT_TRUE(d_->stub().CancelProof(&c2, c, &cr).ok());
  EXPECT_TRUE(cr.was_running());
  grpc::ClientContext c3;
  cuzk::v1::AwaitProofRequest a;
  a.set_job_id(sub.job_id());
  cuzk::v1::AwaitProofResponse r;
  ASSERT_TRUE(d_->stub().AwaitProof(&c3, a, &r).ok());
  EXPECT_EQ(r.status(), v1_status::CANCELLED);
  EXPECT_TRUE(r.proof().empty());
}

// Curio retries with the same deterministic id: an identical request attaches to the running
// job (one proof, the same bytes); the same id with another sector's C1 gets its own proof.
TEST_F(daemon_slow, identical_retry_attaches_and_a_reused_id_gets_its_own_proof) {
  const sector& a = sectors()[0];
  const sector& b = sectors()[1];
  const std::string id = "porep-retry";
  grpc::ClientContext sc;
  cuzk::v1::GetStatusResponse before;
  ASSERT_TRUE(d_->stub().GetStatus(&sc, {}, &before).ok());
  auto first = std::async(std::launch::async, [&] { return prove(porep_request(a, id)); });
  std::this_thread::sleep_for(200ms);
  auto retry = std::async(std::launch::async, [&] { return prove(porep_request(a, id)); });
  auto other = std::async(std::launch::async, [&] { return prove(porep_request(b, id)); });
  const auto r1 = first.get(), r2 = retry.get(), r3 = other.get();
  ASSERT_EQ(r1.status(), v1_status::COMPLETED) << r1.error_message();
  ASSERT_EQ(r2.status(), v1_status::COMPLETED) << r2.error_message();
  ASSERT_EQ(r3.status(), v1_status::COMPLETED) << r3.error_message();
  EXPECT_EQ(r1.proof(), r2.proof());
  EXPECT_EQ(r1.job_id(), r2.job_id());
  EXPECT_NE(r3.job_id(), r1.job_id());
  EXPECT_TRUE(verifies(a, r1.proof()));
  EXPECT_TRUE(verifies(b, r3.proof()));
  EXPECT_FALSE(verifies(a, r3.proof()));
  grpc::ClientContext sc2;
  cuzk::v1::GetStatusResponse after;
  ASSERT_TRUE(d_->stub().GetStatus(&sc2, {}, &after).ok());
  EXPECT_EQ(after.total_proofs_completed() - before.total_proofs_completed(), 2u);
}

TEST_F(daemon_test, malformed_requests_get_clear_codes_and_the_daemon_stays_up) {
  const sector& s = sectors()[0];
  const auto expect_code = [&](cuzk::v1::SubmitProofRequest r, grpc::StatusCode code,
                               const std::string& words) {
    grpc::ClientContext ctx;
    cuzk::v1::SubmitProofResponse resp;
    const grpc::Status st = d_->stub().SubmitProof(&ctx, r, &resp);
    EXPECT_EQ(st.error_code(), code) << st.error_message();
    EXPECT_NE(st.error_message().find(words), std::string::npos) << st.error_message();
  };
  auto r = porep_request(s, "bad");
  r.clear_vanilla_proof();
  expect_code(r, grpc::StatusCode::INVALID_ARGUMENT, "empty");
  r.set_vanilla_proof(std::string(5000, '\x17'));
  expect_code(r, grpc::StatusCode::INVALID_ARGUMENT, "C1");
  r.set_vanilla_proof("{\"SectorNum\":1,\"Phase1Out\":\"!!!\",\"SectorSize\":2048}");
  expect_code(r, grpc::StatusCode::INVALID_ARGUMENT, "Phase1Out");
  r = porep_request(s, "bad-kind");
  r.set_proof_kind(cuzk::v1::ProofKind(7));
  expect_code(r, grpc::StatusCode::INVALID_ARGUMENT, "invalid proof_kind: 7");
  r = porep_request(s, "bad-randomness");
  r.set_randomness("12345");
  expect_code(r, grpc::StatusCode::INVALID_ARGUMENT, "randomness must be 32 bytes");
  {
    grpc::ClientContext ctx;
    cuzk::v1::ProveRequest empty;
    cuzk::v1::ProveResponse resp;
    EXPECT_EQ(d_->stub().Prove(&ctx, empty, &resp).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  {
    grpc::ClientContext ctx;
    cuzk::v1::AwaitProofRequest a;
    a.set_job_id("never-submitted");
    cuzk::v1::AwaitProofResponse resp;
    EXPECT_EQ(d_->stub().AwaitProof(&ctx, a, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  {
    grpc::ClientContext ctx;
    cuzk::v1::PreloadSrsRequest p;
    p.set_circuit_id("porep-99g");
    cuzk::v1::PreloadSrsResponse resp;
    EXPECT_EQ(d_->stub().PreloadSRS(&ctx, p, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  // Past the daemon's message limit (320 MiB; Curio sends up to 256 MiB): refused by the
  // transport, and the daemon stays up.
  {
    grpc::ClientContext ctx;
    auto big = porep_request(s, "oversized");
    big.set_vanilla_proof(std::string(size_t(330) << 20, '{'));
    cuzk::v1::SubmitProofResponse resp;
    EXPECT_EQ(d_->stub().SubmitProof(&ctx, big, &resp).error_code(),
              grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  EXPECT_EQ(d_->health(), 1);
}

TEST_F(daemon_test, preload_evict_status_and_metrics) {
  grpc::ClientContext c1;
  cuzk::v1::PreloadSrsRequest p;
  p.set_circuit_id("porep-2k");
  cuzk::v1::PreloadSrsResponse pr;
  ASSERT_TRUE(d_->stub().PreloadSRS(&c1, p, &pr).ok());
  grpc::ClientContext c2;
  cuzk::v1::GetStatusResponse st;
  ASSERT_TRUE(d_->stub().GetStatus(&c2, {}, &st).ok());
  ASSERT_EQ(st.loaded_srs_size(), 1);
  EXPECT_EQ(st.loaded_srs(0).circuit_id(), "porep-2k");
  EXPECT_GT(st.loaded_srs(0).size_bytes(), 0u);
  grpc::ClientContext c3;
  cuzk::v1::EvictSrsRequest e;
  e.set_circuit_id("porep-2k");
  cuzk::v1::EvictSrsResponse er;
  ASSERT_TRUE(d_->stub().EvictSRS(&c3, e, &er).ok());
  EXPECT_TRUE(er.was_loaded());
  EXPECT_GT(er.freed_bytes(), 0u);

  grpc::ClientContext c4;
  cuzk::v1::GetMetricsResponse m;
  ASSERT_TRUE(d_->stub().GetMetrics(&c4, {}, &m).ok());
  httplib::Client http("127.0.0.1", d_->http_port());
  auto hm = http.Get("/metrics");
  ASSERT_TRUE(hm);
  EXPECT_EQ(hm->status, 200);
  auto hs = http.Get("/status");
  ASSERT_TRUE(hs);
  EXPECT_NE(hs->body.find("\"serving\":true"), std::string::npos) << hs->body;
  // Prometheus text exposition: comments, or `name{labels} value`.
  const std::regex sample(
      R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? [-+0-9.eEInfa]+$)");
  const std::string& http_text = hm->body;
  for (const std::string* text : {&m.prometheus_text(), &http_text}) {
    std::istringstream in(*text);
    std::string line;
    int samples = 0;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      EXPECT_TRUE(std::regex_match(line, sample)) << line;
      ++samples;
    }
    EXPECT_GT(samples, 5);
    EXPECT_NE(text->find("cuzk_jobs_total{kind=\"porep-c2\",outcome=\"completed\"}"),
              std::string::npos);
  }
}

// SIGTERM with proofs in flight: health turns NOT_SERVING (/healthz 503), new work is refused,
// every accepted job still completes, and the daemon exits 0.
TEST(daemon_drain, sigterm_under_load_loses_no_accepted_job) {
  ASSERT_FALSE(params_dir().empty());
  daemon_process d;
  std::vector<std::future<cuzk::v1::ProveResponse>> calls;
  for (int i = 0; i < 2; ++i) {
    calls.push_back(std::async(std::launch::async, [&d, i] {
      grpc::ClientContext ctx;
      cuzk::v1::ProveRequest req;
      *req.mutable_submit() = porep_request(sectors()[size_t(i)], "drain-" + std::to_string(i));
      cuzk::v1::ProveResponse resp;
      EXPECT_TRUE(d.stub().Prove(&ctx, req, &resp).ok());
      return resp;
    }));
  }
  std::this_thread::sleep_for(1s);  // both accepted
  EXPECT_EQ(d.health(), 1);
  // GET /healthz (for load balancers) follows the same state.
  const auto healthz = [&d] {
    httplib::Client http("127.0.0.1", d.http_port());
    auto r = http.Get("/healthz");
    return r ? r->status : -1;
  };
  EXPECT_EQ(healthz(), 200);
  // The drain waits for both proofs; on a loaded 2-core CI machine they took over the default
  // 120 s wait once, so wait as long as the daemon's drain timeout allows.
  auto exit_code = std::async(std::launch::async, [&d] { return d.terminate(600s); });
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(d.health(), 2);  // NOT_SERVING while draining
  EXPECT_EQ(healthz(), 503);
  {
    grpc::ClientContext ctx;
    cuzk::v1::SubmitProofResponse resp;
    EXPECT_EQ(d.stub().SubmitProof(&ctx, porep_request(sectors()[0], "late"), &resp).error_code(),
              grpc::StatusCode::UNAVAILABLE);
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    auto r = calls[i].get().result();
    EXPECT_EQ(r.status(), v1_status::COMPLETED) << r.error_message();
    EXPECT_TRUE(verifies(sectors()[i], r.proof()));
  }
  EXPECT_EQ(exit_code.get(), 0) << d.log_text();
  EXPECT_FALSE(std::filesystem::exists(d.socket()));
}

// A drain that runs out of time cancels what is left and says why.
TEST(daemon_drain, drain_timeout_cancels_with_a_reason) {
  ASSERT_FALSE(params_dir().empty());
  daemon_process d("drain_timeout = \"1s\"");
  auto call = std::async(std::launch::async, [&d] {
    grpc::ClientContext ctx;
    cuzk::v1::ProveRequest req;
    *req.mutable_submit() = porep_request(sectors()[0], "drain-timeout");
    cuzk::v1::ProveResponse resp;
    EXPECT_TRUE(d.stub().Prove(&ctx, req, &resp).ok());
    return resp;
  });
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(d.terminate(), 0) << d.log_text();
  auto r = call.get().result();
  EXPECT_EQ(r.status(), v1_status::CANCELLED);
  EXPECT_NE(r.error_message().find("drain timeout"), std::string::npos) << r.error_message();
}

// cuzk-bench batch: two proofs of one C1 (each its own request id), both in flight at once;
// the per-proof lines and the summary, exit 0.
TEST_F(daemon_slow, cuzk_bench_batch) {
  const sector& s = sectors()[0];
  temp_dir dir("daemon_batch");
  const std::string c1 = dir.string() + "/c1.json";
  std::ofstream(c1) << s.wrapper;
  const std::string cmd = std::string(CUZK_BENCH_PATH) + " -a unix://" + d_->socket() +
                          " batch --c1 " + c1 + " --registered-proof StackedDrg2KiBV1_1" +
                          " --sector-num " + std::to_string(s.sector) + " --miner-id " +
                          std::to_string(s.miner) + " -c 2 -j 2 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  EXPECT_EQ(::pclose(p), 0) << out;
  EXPECT_NE(out.find("COMPLETED"), std::string::npos) << out;
  EXPECT_NE(out.find("2 completed, 0 failed"), std::string::npos) << out;
  EXPECT_NE(out.find("proofs/min"), std::string::npos) << out;
}

// Hostile SnapDeals requests through Prove (Curio's call): the wrong number of partition proofs
// and a truncated PartitionProof are refused at submit with INVALID_ARGUMENT naming what is
// wrong, and the daemon keeps serving (the Snap cases below prove on the same daemon).
TEST_F(daemon_test, snap_hostile_requests_get_clear_errors_and_the_daemon_keeps_serving) {
  const filecoin::snap::updated_sector_t u = snap_update(21);
  const auto expect_refused = [&](const cuzk::v1::SubmitProofRequest& r, const std::string& words) {
    grpc::Status st;
    prove(r, &st);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
    EXPECT_NE(st.error_message().find(words), std::string::npos) << st.error_message();
  };
  auto two = snap_request(u, 21);
  two.add_vanilla_proofs(two.vanilla_proofs(0));
  expect_refused(two, "2 vanilla proofs, StackedDrg2KiBV1 has 1 partitions");
  auto truncated = snap_request(u, 21);
  const size_t full = truncated.vanilla_proofs(0).size();
  truncated.mutable_vanilla_proofs(0)->resize(full - 100);
  expect_refused(truncated, "vanilla_proofs[0] has " + std::to_string(full - 100) + " bytes");
  auto no_comm = snap_request(u, 21);
  no_comm.clear_comm_d_new();
  expect_refused(no_comm, "comm_d_new");
  EXPECT_EQ(d_->health(), 1);
}

// Two SnapDeals requests for different sectors in flight at once (issue 15's batching check):
// each answer is its own sector's proof (it verifies for its commitments, not for the other's).
TEST_F(daemon_test, snap_two_sectors_at_once_each_get_their_own_proof) {
  const std::vector<filecoin::snap::updated_sector_t> updates = [] {
    std::vector<filecoin::snap::updated_sector_t> u;
    u.push_back(snap_update(31));
    u.push_back(snap_update(32));
    return u;
  }();
  std::vector<std::future<cuzk::v1::AwaitProofResponse>> answers;
  for (uint64_t i = 0; i < 2; ++i) {
    answers.push_back(
        std::async(std::launch::async, [&, i] { return prove(snap_request(updates[i], 31 + i)); }));
  }
  std::vector<std::string> proofs;
  for (uint64_t i = 0; i < 2; ++i) {
    const cuzk::v1::AwaitProofResponse r = answers[i].get();
    ASSERT_EQ(r.status(), v1_status::COMPLETED) << r.error_message();
    EXPECT_EQ(r.job_id(), "snap-1000-" + std::to_string(31 + i));
    EXPECT_EQ(r.proof().size(), 192u);  // 2 KiB: one partition
    EXPECT_TRUE(snap_verifies(updates[i], r.proof())) << "sector " << 31 + i;
    proofs.push_back(r.proof());
  }
  EXPECT_NE(proofs[0], proofs[1]);
  EXPECT_FALSE(snap_verifies(updates[0], proofs[1]));
  EXPECT_FALSE(snap_verifies(updates[1], proofs[0]));
}

// Runs a shell command; its exit code (-1 when it did not exit), its stdout and stderr appended
// to `out`.
int run(const std::string& cmd, std::string& out) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int st = ::pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// The Snap path of cuzk-bench: gen-vanilla snap-prove writes the vanilla file and commitments,
// `single -t snap` submits them over gRPC and verifies the returned proof with the .vk.
TEST_F(daemon_test, cuzk_bench_single_snap) {
  temp_dir dir("daemon_snap_bench");
  const std::string vanilla = dir.string() + "/snap-vanilla.json";
  std::string out;
  ASSERT_EQ(run(std::string(CUZK_BENCH_PATH) + " gen-vanilla snap-prove --registered-proof 0" +
                    " --sector-number 44 --seed 9 -o " + vanilla,
                out),
            0)
      << out;
  out.clear();
  const std::string single = std::string(CUZK_BENCH_PATH) + " -a unix://" + d_->socket() +
                             " single -t snap --registered-proof StackedDrg2KiBV1 --vanilla " +
                             vanilla + " --commitments " + dir.string() +
                             "/snap-commitments.json --sector-num 44 --param-dir " +
                             snap_params_dir() + " -o " + dir.string() + "/proof.bin";
  EXPECT_EQ(run(single, out), 0) << out;
  EXPECT_NE(out.find("COMPLETED"), std::string::npos) << out;
  EXPECT_NE(out.find("snap proof checked: verified with the .vk"), std::string::npos) << out;
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "proof.bin"), 192u);
}

// WindowPoSt (two sectors, one partition) and WinningPoSt through the daemon, as Curio sends them
// (vanilla_proofs = bincode FallbackPoStSectorProof per sector, 32-byte randomness, miner id,
// registered proof by wire number); the proofs verify with verify_post and the .vk.
TEST(daemon_post, window_and_winning_post_prove_over_grpc) {
  using filecoin::post::registered_post_proof;
  temp_dir dir("daemon_post");
  const std::vector<uint8_t> seed = {'d', 'a', 'e', 'm', 'o', 'n'};
  for (auto p : {registered_post_proof::window_2kib_v1_1, registered_post_proof::winning_2kib_v1}) {
    auto gen = filecoin::proofs::generate_post_parameters(p, dir.string(),
                                                          thread_pool::default_pool(), {}, seed);
    ASSERT_TRUE(gen.ok()) << gen.error().to_string();
  }
  std::vector<filecoin::porep::sealed_sector_t> sealed;
  sealed.push_back(seal_2kib(3));
  sealed.push_back(seal_2kib(8));
  filecoin::porep::bytes32_t rand{};
  for (size_t i = 0; i < 32; ++i) rand[i] = uint8_t(17 * i + 5);
  rand[31] &= 0x3f;
  daemon_process d("", dir.string());
  for (auto p : {registered_post_proof::window_2kib_v1_1, registered_post_proof::winning_2kib_v1}) {
    const auto cfg = *filecoin::post::post_config(p);
    const bool window = cfg.kind == filecoin::post::post_kind::window;
    cuzk::v1::SubmitProofRequest r;
    r.set_request_id(window ? "wdpost-1000-0-[1 2 3]" : "winpost-1000-0102030405060708");
    r.set_proof_kind(window ? cuzk::v1::WINDOW_POST_PARTITION : cuzk::v1::WINNING_POST);
    r.set_priority(window ? cuzk::v1::HIGH : cuzk::v1::CRITICAL);
    r.set_registered_proof(filecoin::post::id_of(p));
    r.set_miner_id(1000);
    r.set_randomness(std::string(rand.begin(), rand.end()));
    std::vector<filecoin::post::fallback_sector_proof_t> vanilla;
    for (unsigned i = 0; i < (window ? 2u : 1u); ++i) {
      auto v = filecoin::post::prove_sector(cfg, sealed[i], rand, 0, i);
      ASSERT_TRUE(v.ok()) << v.error().to_string();
      const auto bytes = filecoin::post::serialize_fallback_sector_proof(*v);
      r.add_vanilla_proofs(std::string(bytes.begin(), bytes.end()));
      vanilla.push_back(*v);
    }
    grpc::ClientContext ctx;
    cuzk::v1::ProveRequest req;
    *req.mutable_submit() = r;
    cuzk::v1::ProveResponse resp;
    ASSERT_TRUE(d.stub().Prove(&ctx, req, &resp).ok());
    ASSERT_EQ(resp.result().status(), v1_status::COMPLETED) << resp.result().error_message();
    const std::string& proof = resp.result().proof();
    auto ok = filecoin::proofs::verify_post(
        p, filecoin::proofs::public_sectors_of(vanilla), rand, 0,
        std::span(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()), dir.string());
    ASSERT_TRUE(ok.ok()) << ok.error().to_string();
    EXPECT_TRUE(*ok) << (window ? "window" : "winning");
  }

  // cuzk-bench's PoSt path, with the synthetic vanilla proofs of the 32 GiB benchmark: gen-vanilla
  // --synthetic writes them, `single` sends them as Curio does and verifies the answer with the
  // .vk; under other randomness the daemon refuses the vanilla proofs (exit 1).
  const std::string bench = std::string(CUZK_BENCH_PATH);
  const std::string rand_hex = to_hex(rand);
  for (const std::string type : {"window-post", "winning-post"}) {
    const std::string proof = type == "window-post" ? "10" : "StackedDrgWinning2KiBV1";
    const std::string vanilla = dir.string() + "/" + type + ".json";
    std::string out;
    ASSERT_EQ(run(bench + " gen-vanilla " + type + " --synthetic --registered-proof " + proof +
                      " --sector-number 70 --seed 3 --randomness " + rand_hex + " -o " + vanilla,
                  out),
              0)
        << out;
    EXPECT_NE(out.find("synthetic (seed 3)"), std::string::npos) << out;
    // WinningPoSt's one element also as a raw bincode file, under the Rust tool's type name (it
    // reads a file that is not a JSON array as one element).
    std::string sent = vanilla, type_name = type;
    if (type == "winning-post") {
      auto text = read_text_file_bounded(vanilla, 1 << 20);
      ASSERT_TRUE(text.ok());
      auto elements = filecoin::post::parse_vanilla_file(*text);
      ASSERT_TRUE(elements.ok() && elements->size() == 1);
      sent = dir.string() + "/winning.bin";
      ASSERT_TRUE(
          write_file_atomic(sent, std::string(elements->front().begin(), elements->front().end()))
              .ok());
      type_name = "winningpost";
    }
    const std::string single = bench + " -a unix://" + d.socket() + " single -t " + type_name +
                               " --registered-proof " + proof + " --vanilla " + sent +
                               " --param-dir " + dir.string() + " --randomness ";
    out.clear();
    EXPECT_EQ(run(single + rand_hex, out), 0) << out;
    EXPECT_NE(out.find("post proof checked: verified with the .vk"), std::string::npos) << out;
    out.clear();
    EXPECT_EQ(run(single + std::string(64, '1'), out), 1) << out;
    EXPECT_NE(out.find("challenge"), std::string::npos) << out;
  }
  EXPECT_EQ(d.terminate(), 0);
}

// cuzk-bench stress against the daemon: `n` submissions over `unique` sectors with byte-identical
// retries, reused ids and random cancels; no answer may be lost or belong to another request,
// and every proof verifies.
void run_stress(int n, int unique, int concurrency) {
  ASSERT_FALSE(params_dir().empty());
  daemon_process d;
  const std::string cmd = std::string(CUZK_BENCH_PATH) + " -a unix://" + d.socket() +
                          " stress -n " + std::to_string(n) + " --unique " +
                          std::to_string(unique) + " -j " + std::to_string(concurrency) +
                          " --retry-rate 0.4 --reuse-rate 0.15 --cancel-rate 0.2"
                          " --max-seconds 1200 --param-dir " +
                          params_dir() + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int rc = ::pclose(p);
  std::fprintf(stderr, "%s", out.c_str());
  // A lost answer is usually a daemon that died: say how, with the end of its log.
  const std::string ended = d.ended();
  EXPECT_EQ(ended, "") << "the daemon " << ended << "; its log ends:\n" << d.log_tail();
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("lost 0, duplicated 0, wrong 0"), std::string::npos) << out;
  EXPECT_NE(out.find(std::to_string(n) + " submitted"), std::string::npos) << out;
}

// The CI size (label e2e): 12 submissions over 2 sectors. With seed 1 and these rates the plan
// holds 5 byte-identical retries, 1 reused id and 1 cancel, while the 2-core runner proves only a
// handful of 2 KiB sectors (20 over 3 took 8 of a 64-minute CI run); the full mix is below.
TEST(daemon_stress, twelve_mixed_submissions_lose_nothing) {
  run_stress(12, 2, 6);
}

// The full size (label slow, by hand): 50 over 4 sectors, 8 at a time.
TEST(daemon_stress_full, fifty_mixed_submissions_lose_nothing) {
  run_stress(50, 4, 8);
}

// A config naming an unknown parameter check (srs.param_checks, ours) stops the daemon before it
// listens: exit 2, the key and the accepted values named, no socket created.
// srs.preload: the listed circuits load once the daemon serves, with no request; an id no kind
// knows is named in the log as an error and the daemon keeps serving.
TEST(daemon_preload, srs_preload_loads_at_start_and_names_unknown_ids) {
  ASSERT_FALSE(params_dir().empty());
  daemon_process d("", "", "preload = [\"porep-2k\", \"no-such-circuit\"]");
  bool loaded = false;
  for (int i = 0; i < 1200 && !loaded; ++i) {
    grpc::ClientContext ctx;
    cuzk::v1::GetStatusResponse st;
    ASSERT_TRUE(d.stub().GetStatus(&ctx, {}, &st).ok());
    for (const auto& s : st.loaded_srs()) loaded = loaded || s.circuit_id() == "porep-2k";
    if (!loaded) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(loaded) << d.log_tail();
  for (int i = 0; i < 100 && d.log_text().find("srs.preload no-such-circuit") == std::string::npos;
       ++i)
    std::this_thread::sleep_for(100ms);
  const std::string log = d.log_text();
  EXPECT_NE(log.find("srs.preload porep-2k: ready"), std::string::npos) << d.log_tail();
  EXPECT_NE(log.find("srs.preload no-such-circuit"), std::string::npos) << d.log_tail();
  EXPECT_EQ(d.health(), 1);
  EXPECT_EQ(d.terminate(), 0) << d.log_tail();
}

TEST(daemon_cli, a_bad_param_checks_value_refuses_to_start) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("cuzk-daemon-bad-checks-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string sock = (dir / "cuzk.sock").string();
  {
    std::ofstream cfg(dir / "cuzk.toml");
    cfg << "[daemon]\nlisten = \"unix://" << sock << "\"\n[srs]\nparam_checks = \"bogus\"\n";
  }
  FILE* p = ::popen(
      (std::string(CUZK_DAEMON_PATH) + " -c " + (dir / "cuzk.toml").string() + " 2>&1").c_str(),
      "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int st = ::pclose(p);
  ASSERT_TRUE(WIFEXITED(st)) << out;
  EXPECT_EQ(WEXITSTATUS(st), 2) << out;
  EXPECT_NE(out.find("srs.param_checks"), std::string::npos) << out;
  EXPECT_NE(out.find("\"batched\""), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(sock));
  std::filesystem::remove_all(dir);
}

// `cuzk daemon …` is cuzk-daemon with the same arguments; `--version` answers without starting.
TEST(daemon_cli, cuzk_daemon_subcommand_runs_the_daemon_binary) {
  FILE* p = ::popen((std::string(CUZK_CLI_PATH) + " daemon --version 2>&1").c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  EXPECT_EQ(::pclose(p), 0) << out;
  EXPECT_EQ(out.rfind("cuzk-daemon ", 0), 0u) << out;
}

}  // namespace
}  // namespace cuzk::test
