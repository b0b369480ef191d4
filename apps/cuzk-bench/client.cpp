// SPDX-License-Identifier: Apache-2.0
// cuzk-bench's gRPC client subcommands (the Rust tool's, spec/CUZK.md §1.8): single, status,
// preload, metrics (status --watch: a refreshing text view), against any cuzk.v1 daemon at
// -a/--addr (unix:///path or host:port).
#include "client.hpp"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "filecoin/porep/config.hpp"
#include "progress_line.hpp"

namespace cuzk::bench {
namespace {

constexpr uint64_t MAX_C1_BYTES = uint64_t(512) << 20;

std::unique_ptr<cuzk::v1::ProvingEngine::Stub> connect(const std::string& addr) {
  std::string target = addr;
  if (target.rfind("http://", 0) == 0) target = target.substr(7);
  grpc::ChannelArguments ca;
  ca.SetMaxReceiveMessageSize(512 << 20);
  ca.SetMaxSendMessageSize(512 << 20);
  return cuzk::v1::ProvingEngine::NewStub(
      grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), ca));
}

int rpc_failed(const char* what, const grpc::Status& s) {
  std::fprintf(stderr, "error: %s: %s (gRPC code %d)\n", what, s.error_message().c_str(),
               int(s.error_code()));
  return 1;
}

std::string random_id() {
  std::random_device rd;
  char buf[40];
  std::snprintf(buf, sizeof buf, "bench-%08x%08x", rd(), rd());
  return buf;
}

}  // namespace

// The Prove request of `single` and `batch` (the PoRep C1 read from --c1); a usage error is
// printed and returned as nullopt.
std::optional<cuzk::v1::ProveRequest> porep_prove_request(const single_args& a) {
  if (a.type != "porep" && a.type != "porep-c2" && a.type != "seal-commit") {
    std::fprintf(stderr,
                 "error: --type %s: only porep is sent by this client so far (the daemon proves "
                 "PoSt too: see cuzk prove window-post for its inputs)\n",
                 a.type.c_str());
    return std::nullopt;
  }
  auto proof = porep::parse_registered_seal_proof(a.registered_proof);
  if (!proof) {
    std::fprintf(stderr, "error: --registered-proof: %s\n", proof.error().to_string().c_str());
    return std::nullopt;
  }
  auto c1 = read_file_bounded(a.c1, MAX_C1_BYTES);
  if (!c1) {
    std::fprintf(stderr, "error: --c1 %s: %s\n", a.c1.c_str(), c1.error().to_string().c_str());
    return std::nullopt;
  }
  cuzk::v1::ProveRequest req;
  auto* s = req.mutable_submit();
  s->set_request_id(a.request_id.empty() ? random_id() : a.request_id);
  s->set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
  s->set_registered_proof(uint64_t(*proof));
  s->set_sector_size(porep::sector_size_of(*proof));
  s->set_vanilla_proof(std::string(c1->begin(), c1->end()));
  s->set_sector_number(a.sector_num);
  s->set_miner_id(a.miner_id);
  return req;
}

int run_single(const std::string& addr, const single_args& a) {
  auto built = porep_prove_request(a);
  if (!built) return 2;
  const cuzk::v1::ProveRequest& req = *built;
  auto stub = connect(addr);
  grpc::ClientContext ctx;
  cuzk::v1::ProveResponse resp;
  const auto t0 = std::chrono::steady_clock::now();
  grpc::Status st = stub->Prove(&ctx, req, &resp);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!st.ok()) return rpc_failed("Prove", st);
  const auto& r = resp.result();
  std::printf(
      "%s %s: %s, %zu proof bytes, wall %.2f s (queue %llu ms, synthesis %llu ms, prove %llu "
      "ms, total %llu ms)\n",
      r.job_id().c_str(), cuzk::v1::AwaitProofResponse::Status_Name(r.status()).c_str(),
      r.error_message().empty() ? "ok" : r.error_message().c_str(), r.proof().size(), wall,
      (unsigned long long)r.queue_wait_ms(), (unsigned long long)r.synthesis_ms(),
      (unsigned long long)r.gpu_compute_ms(), (unsigned long long)r.total_ms());
  if (r.status() != cuzk::v1::AwaitProofResponse::COMPLETED) return 1;
  if (!a.proof_out.empty()) {
    if (status w = write_file_atomic(a.proof_out, r.proof()); !w) {
      std::fprintf(stderr, "error: --proof-out: %s\n", w.to_string().c_str());
      return 1;
    }
  }
  return 0;
}

namespace {

// The compact text of one GetStatus answer (what `status` prints, and each `--watch` refresh).
void print_status(const cuzk::v1::GetStatusResponse& st) {
  std::printf(
      "uptime %llu s, completed %llu, failed %llu, host memory %.2f / %.2f GiB\n",
      (unsigned long long)st.uptime_seconds(), (unsigned long long)st.total_proofs_completed(),
      (unsigned long long)st.total_proofs_failed(), double(st.pinned_memory_bytes()) / (1ull << 30),
      double(st.pinned_memory_limit_bytes()) / (1ull << 30));
  for (const auto& g : st.gpus()) {
    std::printf("gpu %u %s: %.1f GiB total, %.1f GiB free in budget, job %s %s\n", g.ordinal(),
                g.name().c_str(), double(g.vram_total_bytes()) / (1ull << 30),
                double(g.vram_free_bytes()) / (1ull << 30),
                g.current_job_id().empty() ? "-" : g.current_job_id().c_str(),
                g.current_proof_kind().c_str());
  }
  for (const auto& s : st.loaded_srs())
    std::printf("srs %s: %.2f GiB, %u job(s)\n", s.circuit_id().c_str(),
                double(s.size_bytes()) / (1ull << 30), s.ref_count());
  for (const auto& q : st.queues())
    std::printf("queue %s: %u pending, %u in progress\n", q.proof_kind().c_str(), q.pending(),
                q.in_progress());
}

}  // namespace

int run_batch(const std::string& addr, const batch_args& b) {
  auto built = porep_prove_request(b.single);
  if (!built) return 2;
  auto stub = connect(addr);
  struct one {
    bool completed = false;
    double wall = 0, prove_ms = 0, queue_ms = 0;
  };
  std::vector<one> results(b.count);
  std::atomic<unsigned> next{0}, done{0};
  std::mutex print;
  progress_line bar("batch", b.count);
  const auto t0 = std::chrono::steady_clock::now();
  const auto worker = [&] {
    for (unsigned i; (i = next++) < b.count;) {
      cuzk::v1::ProveRequest req = *built;
      req.mutable_submit()->set_request_id(random_id());  // each its own job, as the Rust tool
      grpc::ClientContext ctx;
      cuzk::v1::ProveResponse resp;
      const auto t = std::chrono::steady_clock::now();
      grpc::Status st = stub->Prove(&ctx, req, &resp);
      one& o = results[i];
      o.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
      const auto& r = resp.result();
      o.completed = st.ok() && r.status() == cuzk::v1::AwaitProofResponse::COMPLETED;
      o.prove_ms = double(r.gpu_compute_ms());
      o.queue_ms = double(r.queue_wait_ms());
      std::lock_guard lk(print);
      bar.clear();
      std::printf("[%u/%u] %s — %.2f s (prove=%.0f ms, queue=%.0f ms)%s%s\n", i + 1, b.count,
                  st.ok() ? cuzk::v1::AwaitProofResponse::Status_Name(r.status()).c_str() : "ERROR",
                  o.wall, o.prove_ms, o.queue_ms, st.ok() ? "" : " ",
                  st.ok() ? r.error_message().c_str() : st.error_message().c_str());
      std::fflush(stdout);
      bar.update(++done);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, b.concurrency); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  bar.clear();
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  unsigned completed = 0;
  double wsum = 0, wmin = 1e300, wmax = 0, psum = 0, pmin = 1e300, pmax = 0;
  for (const one& o : results) {
    if (!o.completed) continue;
    ++completed;
    wsum += o.wall;
    wmin = std::min(wmin, o.wall);
    wmax = std::max(wmax, o.wall);
    psum += o.prove_ms;
    pmin = std::min(pmin, o.prove_ms);
    pmax = std::max(pmax, o.prove_ms);
  }
  std::printf("total %.2f s: %u completed, %u failed\n", total, completed, b.count - completed);
  if (completed > 0) {
    std::printf("wall  avg %.2f s, min %.2f s, max %.2f s\n", wsum / completed, wmin, wmax);
    std::printf("prove avg %.0f ms, min %.0f ms, max %.0f ms\n", psum / completed, pmin, pmax);
    std::printf("throughput %.2f proofs/min, %.2f s/proof\n", 60.0 * completed / total,
                total / completed);
  }
  return completed == b.count ? 0 : 1;
}

int run_status(const std::string& addr, const status_args& a) {
  auto stub = connect(addr);
  if (!a.watch) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    cuzk::v1::GetStatusResponse st;
    if (auto s = stub->GetStatus(&ctx, {}, &st); !s.ok()) return rpc_failed("GetStatus", s);
    print_status(st);
    return 0;
  }
  // --watch: a terminal gets the screen cleared and redrawn; a pipe or file gets one block per
  // refresh, separated by a line. A failed call is reported and retried (the daemon may be
  // restarting); with --count the exit code says whether the last refresh failed.
  const bool tty = ::isatty(STDOUT_FILENO) == 1;
  const auto interval = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::duration<double>(a.interval_seconds));
  uint64_t previous_completed = 0;
  bool have_previous = false;
  int rc = 0;
  for (unsigned n = 0; a.count == 0 || n < a.count; ++n) {
    if (n) std::this_thread::sleep_for(interval);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    cuzk::v1::GetStatusResponse st;
    const grpc::Status s = stub->GetStatus(&ctx, {}, &st);
    if (tty) std::fputs("\x1b[H\x1b[2J", stdout);
    const std::time_t now = std::time(nullptr);
    char clock_text[16];
    std::strftime(clock_text, sizeof clock_text, "%H:%M:%S", std::localtime(&now));
    std::printf("cuzk %s  %s  every %.1f s%s\n", addr.c_str(), clock_text, a.interval_seconds,
                tty ? "  (Ctrl-C stops)" : "");
    if (s.ok()) {
      print_status(st);
      if (have_previous) {
        std::printf("completed since the last refresh: %llu\n",
                    (unsigned long long)(st.total_proofs_completed() - previous_completed));
      }
      previous_completed = st.total_proofs_completed();
      have_previous = true;
      rc = 0;
    } else {
      rc = rpc_failed("GetStatus", s);
    }
    if (!tty) std::puts("--");
    std::fflush(stdout);
  }
  return rc;
}

int run_preload(const std::string& addr, const std::string& circuit_id) {
  auto stub = connect(addr);
  grpc::ClientContext ctx;
  cuzk::v1::PreloadSrsRequest req;
  req.set_circuit_id(circuit_id);
  cuzk::v1::PreloadSrsResponse resp;
  if (auto s = stub->PreloadSRS(&ctx, req, &resp); !s.ok()) return rpc_failed("PreloadSRS", s);
  if (resp.already_loaded())
    std::printf("%s already loaded\n", circuit_id.c_str());
  else
    std::printf("%s loaded in %llu ms\n", circuit_id.c_str(),
                (unsigned long long)resp.load_time_ms());
  return 0;
}

int run_metrics(const std::string& addr) {
  auto stub = connect(addr);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  cuzk::v1::GetMetricsResponse resp;
  if (auto s = stub->GetMetrics(&ctx, {}, &resp); !s.ok()) return rpc_failed("GetMetrics", s);
  std::fputs(resp.prometheus_text().c_str(), stdout);
  return 0;
}

}  // namespace cuzk::bench
