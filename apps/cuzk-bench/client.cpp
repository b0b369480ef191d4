// SPDX-License-Identifier: Apache-2.0
// cuzk-bench's gRPC client subcommands (the Rust tool's, docs/spec/wire.md §9): single and batch
// (PoRep and Snap), status, preload, metrics (status --watch: a refreshing text view), against any
// cuzk.v1 daemon at -a/--addr (unix:///path or host:port).
#include "client.hpp"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>

#include "base/file_io.hpp"
#include "base/hex.hpp"
#include "connection.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/config.hpp"
#include "filecoin/post/vanilla_proof.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/post_prover.hpp"
#include "filecoin/proofs/snap_prover.hpp"
#include "filecoin/snap/config.hpp"
#include "filecoin/snap/vanilla_prove.hpp"
#include "progress_line.hpp"

namespace cuzk::bench {
namespace {

// A C1 or a vanilla file (a 32 GiB update is ~12 MB of base64; a 32 GiB C1 tens of MB).
constexpr uint64_t MAX_INPUT_FILE_BYTES = uint64_t(512) << 20;

std::unique_ptr<cuzk::v1::ProvingEngine::Stub> connect(const std::string& addr) {
  return cuzk::v1::ProvingEngine::NewStub(open_channel(addr));
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

bool is_porep_type(const std::string& t) {
  return t == "porep" || t == "porep-c2" || t == "seal-commit";
}
bool is_snap_type(const std::string& t) {
  return t == "snap" || t == "snap-deals" || t == "update";
}
// The Rust cuzk-bench's spellings (docs/spec/wire.md §9).
bool is_window_post_type(const std::string& t) {
  return t == "window-post" || t == "wpost" || t == "windowpost";
}
bool is_winning_post_type(const std::string& t) {
  return t == "winning-post" || t == "winning" || t == "winningpost";
}

// A Prove request of `single` and `batch`, with what its answer is checked against.
struct prepared_request {
  cuzk::v1::ProveRequest req;
  std::optional<filecoin::porep::c1_output_t> porep_c1;                 ///< set for PoRep
  std::optional<filecoin::snap::registered_update_proof> update_proof;  ///< set for Snap
  filecoin::snap::update_commitments_t comms;
  std::optional<filecoin::post::registered_post_proof> post_proof;  ///< set for PoSt
  std::vector<filecoin::post::public_sector_t> post_sectors;        ///< the vanilla proofs' sectors
  filecoin::porep::bytes32_t randomness{};
  unsigned partition = 0;
};

// The PoRep request: the C1 read from --c1.
bool fill_porep(const single_args& a, prepared_request& out) {
  auto proof = filecoin::porep::parse_registered_seal_proof(
      a.registered_proof.empty() ? "StackedDrg32GiBV1_1" : a.registered_proof);
  if (!proof) {
    std::fprintf(stderr, "error: --registered-proof: %s\n", proof.error().to_string().c_str());
    return false;
  }
  if (a.c1.empty()) {
    std::fprintf(stderr, "error: --c1: required for a PoRep proof\n");
    return false;
  }
  auto c1 = read_file_bounded(a.c1, MAX_INPUT_FILE_BYTES);
  if (!c1) {
    std::fprintf(stderr, "error: --c1 %s: %s\n", a.c1.c_str(), c1.error().to_string().c_str());
    return false;
  }
  auto parsed = filecoin::porep::parse_c1_any(*c1, filecoin::porep::name_of(*proof));
  if (!parsed) {
    std::fprintf(stderr, "error: --c1 %s: %s\n", a.c1.c_str(), parsed.error().to_string().c_str());
    return false;
  }
  out.porep_c1 = std::move(*parsed);
  auto* s = out.req.mutable_submit();
  s->set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
  s->set_registered_proof(uint64_t(*proof));
  s->set_sector_size(filecoin::porep::sector_size_of(*proof));
  s->set_vanilla_proof(std::string(c1->begin(), c1->end()));
  return true;
}

// The elements of --vanilla: a JSON array of base64 (Go [][]byte), or, as the Rust tool reads a
// file that is not one, the whole file as one element — accepted only when it decodes as one proof
// of the request's kind (`decodes`), so a wrong file (a C1, a commitments file) stays a usage
// error. nullopt with the reason printed.
std::optional<std::vector<std::vector<uint8_t>>> read_vanilla(
    const single_args& a, const char* type, const char* which,
    const std::function<bool(std::span<const uint8_t>)>& decodes) {
  if (a.vanilla.empty()) {
    std::fprintf(stderr, "error: --vanilla: required for %s (%s)\n", type, which);
    return std::nullopt;
  }
  auto bytes = read_file_bounded(a.vanilla, MAX_INPUT_FILE_BYTES);
  if (!bytes) {
    std::fprintf(stderr, "error: --vanilla %s: %s\n", a.vanilla.c_str(),
                 bytes.error().to_string().c_str());
    return std::nullopt;
  }
  auto elements = filecoin::post::parse_vanilla_file(
      std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  if (elements) return std::move(*elements);
  if (decodes(*bytes)) return std::vector<std::vector<uint8_t>>{std::move(*bytes)};
  std::fprintf(stderr,
               "error: --vanilla %s: neither a JSON array of base64 (%s) nor one %s proof\n",
               a.vanilla.c_str(), elements.error().to_string().c_str(), type);
  return std::nullopt;
}

// The Snap request as Curio's UpdateProve sends it: one element per partition from the vanilla
// file, the raw 32-byte commitments, the RegisteredUpdateProof number and the sector size.
bool fill_snap(const single_args& a, prepared_request& out) {
  if (a.registered_proof.empty()) {
    std::fprintf(stderr, "error: --registered-proof: required for snap (an update proof, 0..4)\n");
    return false;
  }
  auto proof = filecoin::snap::parse_registered_update_proof(a.registered_proof);
  if (!proof) {
    std::fprintf(stderr, "error: --registered-proof: %s\n", proof.error().to_string().c_str());
    return false;
  }
  auto elements = read_vanilla(
      a, "snap", "gen-vanilla snap-prove's file",
      [](std::span<const uint8_t> b) { return filecoin::snap::parse_partition_proof(b).ok(); });
  if (!elements) return false;
  const bool hex_given =
      !a.comm_r_old_hex.empty() || !a.comm_r_new_hex.empty() || !a.comm_d_new_hex.empty();
  if (hex_given == !a.commitments.empty()) {
    std::fprintf(stderr,
                 "error: snap needs either --commitments FILE or all three of --comm-r-old, "
                 "--comm-r-new, --comm-d-new\n");
    return false;
  }
  if (!a.commitments.empty()) {
    auto json = read_text_file_bounded(a.commitments, 1 << 16);
    auto comms = json ? filecoin::snap::parse_commitments_json(*json)
                      : result<filecoin::snap::update_commitments_t>(json.error());
    if (!comms) {
      std::fprintf(stderr, "error: --commitments %s: %s\n", a.commitments.c_str(),
                   comms.error().to_string().c_str());
      return false;
    }
    out.comms = *comms;
  } else {
    for (const auto& [flag, hex, field] :
         {std::tuple{"--comm-r-old", &a.comm_r_old_hex, &out.comms.comm_r_old},
          std::tuple{"--comm-r-new", &a.comm_r_new_hex, &out.comms.comm_r_new},
          std::tuple{"--comm-d-new", &a.comm_d_new_hex, &out.comms.comm_d_new}}) {
      auto v = parse_hex32(*hex);
      if (!v) {
        std::fprintf(stderr, "error: %s: %s\n", flag, v.error().to_string().c_str());
        return false;
      }
      *field = *v;
    }
  }
  out.update_proof = *proof;
  auto* s = out.req.mutable_submit();
  s->set_proof_kind(cuzk::v1::SNAP_DEALS_UPDATE);
  s->set_registered_proof(filecoin::snap::id_of(*proof));
  s->set_sector_size(filecoin::snap::sector_size_of(*proof));
  for (const auto& e : *elements) s->add_vanilla_proofs(std::string(e.begin(), e.end()));
  s->set_comm_r_old(std::string(out.comms.comm_r_old.begin(), out.comms.comm_r_old.end()));
  s->set_comm_r_new(std::string(out.comms.comm_r_new.begin(), out.comms.comm_r_new.end()));
  s->set_comm_d_new(std::string(out.comms.comm_d_new.begin(), out.comms.comm_d_new.end()));
  return true;
}

// The WindowPoSt / WinningPoSt request as Curio's PoSt task sends it (docs/spec/wire.md §3): one
// bincode FallbackPoStSectorProof per sector from the vanilla file, the 32 randomness bytes, the
// RegisteredPoStProof number and the partition index. The public sectors are kept to verify the
// answer.
bool fill_post(const single_args& a, bool window, prepared_request& out) {
  const char* type = window ? "window-post" : "winning-post";
  auto proof = filecoin::post::parse_registered_post_proof(
      a.registered_proof.empty() ? (window ? "13" : "3") : a.registered_proof);
  if (!proof || (filecoin::post::kind_of(*proof) == filecoin::post::post_kind::window) != window) {
    std::fprintf(stderr, "error: --registered-proof %s: %s\n", a.registered_proof.c_str(),
                 proof ? (std::string("not a ") + type + " proof").c_str()
                       : proof.error().to_string().c_str());
    return false;
  }
  auto randomness = parse_hex32(a.randomness_hex);
  if (!randomness) {
    std::fprintf(stderr, "error: --randomness: %s\n", randomness.error().to_string().c_str());
    return false;
  }
  auto elements = read_vanilla(a, type, "gen-vanilla window-post|winning-post's file",
                               [](std::span<const uint8_t> b) {
                                 return filecoin::post::parse_fallback_sector_proof(b).ok();
                               });
  if (!elements) return false;
  auto decoded = filecoin::post::parse_fallback_sector_proofs(*elements);
  if (!decoded) {
    std::fprintf(stderr, "error: --vanilla %s: %s\n", a.vanilla.c_str(),
                 decoded.error().to_string().c_str());
    return false;
  }
  out.post_proof = *proof;
  out.post_sectors = filecoin::proofs::public_sectors_of(*decoded);
  out.randomness = *randomness;
  out.partition = a.partition;
  auto* s = out.req.mutable_submit();
  s->set_proof_kind(window ? cuzk::v1::WINDOW_POST_PARTITION : cuzk::v1::WINNING_POST);
  s->set_registered_proof(filecoin::post::id_of(*proof));
  s->set_sector_size(filecoin::post::sector_size_of(*proof));
  for (const auto& e : *elements) s->add_vanilla_proofs(std::string(e.begin(), e.end()));
  s->set_randomness(std::string(randomness->begin(), randomness->end()));
  s->set_partition_index(a.partition);
  return true;
}

// The request of `single` and `batch`; a usage error is printed and returned as nullopt.
std::optional<prepared_request> prove_request(const single_args& a) {
  prepared_request out;
  if (is_porep_type(a.type)) {
    if (!fill_porep(a, out)) return std::nullopt;
  } else if (is_snap_type(a.type)) {
    if (!fill_snap(a, out)) return std::nullopt;
  } else if (is_window_post_type(a.type) || is_winning_post_type(a.type)) {
    if (!fill_post(a, is_window_post_type(a.type), out)) return std::nullopt;
  } else {
    std::fprintf(stderr, "error: --type %s: porep, snap, window-post or winning-post\n",
                 a.type.c_str());
    return std::nullopt;
  }
  auto* s = out.req.mutable_submit();
  s->set_request_id(a.request_id.empty() ? random_id() : a.request_id);
  s->set_sector_number(a.sector_num);
  s->set_miner_id(a.miner_id);
  return out;
}

// The client's own check of a COMPLETED answer: empty when it passes, else why not. Snap (which
// Curio stores unverified): partitions × 192 bytes, and with --param-dir the proof verifies for
// the request's commitments. PoRep and PoSt: with --param-dir the proof verifies for the request's
// C1 and prover (as Curio's VerifySeal) or its sectors and randomness.
std::string check_answer(const prepared_request& p, const std::string& proof,
                         const std::string& param_dir) {
  const std::span bytes(reinterpret_cast<const uint8_t*>(proof.data()), proof.size());
  if (p.porep_c1) {
    if (param_dir.empty()) return {};
    const auto& s = p.req.submit();
    const filecoin::proofs::prover_identity_t who{
        filecoin::porep::prover_id_from_actor(s.miner_id()), s.sector_number()};
    auto ok = filecoin::proofs::verify_porep(*p.porep_c1, who, bytes, param_dir);
    if (!ok) return "verify: " + ok.error().to_string();
    return *ok ? std::string() : "the proof does not verify for its C1 and prover";
  }
  if (p.post_proof) {
    if (proof.size() != 192) return std::to_string(proof.size()) + " proof bytes, a PoSt has 192";
    if (param_dir.empty()) return {};
    auto ok = filecoin::proofs::verify_post(*p.post_proof, p.post_sectors, p.randomness,
                                            p.partition, bytes, param_dir);
    if (!ok) return "verify: " + ok.error().to_string();
    return *ok ? std::string() : "the proof does not verify for its sectors and randomness";
  }
  if (!p.update_proof) return {};
  const auto cfg = filecoin::snap::update_config(*p.update_proof);
  const size_t want = size_t(cfg->partitions) * 192;
  if (proof.size() != want) {
    return std::to_string(proof.size()) + " proof bytes, " +
           std::string(filecoin::snap::name_of(*p.update_proof)) + " has " +
           std::to_string(cfg->partitions) + " partition(s) = " + std::to_string(want);
  }
  if (param_dir.empty()) return {};
  auto ok = filecoin::proofs::verify_update(*p.update_proof, p.comms, bytes, param_dir);
  if (!ok) return "verify: " + ok.error().to_string();
  return *ok ? std::string() : "the proof does not verify for its commitments";
}

}  // namespace

int run_single(const std::string& addr, const single_args& a) {
  auto built = prove_request(a);
  if (!built) return 2;
  const cuzk::v1::ProveRequest& req = built->req;
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
  if (std::string wrong = check_answer(*built, r.proof(), a.param_dir); !wrong.empty()) {
    std::fprintf(stderr, "error: the returned proof: %s\n", wrong.c_str());
    return 1;
  }
  if (built->update_proof || built->post_proof || !a.param_dir.empty())
    std::printf("%s proof checked: %s\n",
                built->post_proof     ? "post"
                : built->update_proof ? "snap"
                                      : "porep",
                a.param_dir.empty() ? "size" : "verified with the .vk");
  if (!a.proof_out.empty()) {
    if (status w = write_file_atomic(a.proof_out, r.proof()); !w) {
      std::fprintf(stderr, "error: --proof-out: %s\n", w.to_string().c_str());
      return 1;
    }
  }
  return 0;
}

namespace {

// A parameter set being loaded: "srs porep-32g: loading 12.34 / 47.12 GB (26 %), ETA 95 s", the
// ETA from the load's pace so far.
std::string loading_srs_line(const cuzk::v1::SRSStatus& s) {
  const uint64_t total = s.size_bytes(), done = std::min(s.loaded_bytes(), total);
  char buf[256];
  int n = std::snprintf(buf, sizeof buf, "srs %s: loading %.2f / %.2f GB (%u %%)",
                        s.circuit_id().c_str(), double(done) / 1e9, double(total) / 1e9,
                        total ? unsigned(done * 100 / total) : 0u);
  if (done > 0 && done < total && n > 0 && size_t(n) < sizeof buf) {
    const double eta = double(s.load_elapsed_ms()) / 1e3 / double(done) * double(total - done);
    std::snprintf(buf + n, sizeof buf - size_t(n), ", ETA %.0f s", eta);
  }
  return buf;
}

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
  for (const auto& s : st.loaded_srs()) {
    if (s.loading()) {
      std::printf("%s\n", loading_srs_line(s).c_str());
      continue;
    }
    std::printf("srs %s: %.2f GiB, %u job(s)\n", s.circuit_id().c_str(),
                double(s.size_bytes()) / (1ull << 30), s.ref_count());
  }
  for (const auto& q : st.queues())
    std::printf("queue %s: %u pending, %u in progress\n", q.proof_kind().c_str(), q.pending(),
                q.in_progress());
}

}  // namespace

int run_batch(const std::string& addr, const batch_args& b) {
  auto built = prove_request(b.single);
  if (!built) return 2;
  auto stub = connect(addr);
  struct one {
    bool completed = false;
    double wall = 0, prove_ms = 0, queue_ms = 0;
  };
  std::vector<one> results(b.count);
  std::atomic<unsigned> next{0}, done{0}, retries{0};
  std::mutex print;
  progress_line bar("batch", b.count);
  const auto t0 = std::chrono::steady_clock::now();
  const auto worker = [&] {
    for (unsigned i; (i = next++) < b.count;) {
      cuzk::v1::ProveRequest req = built->req;
      req.mutable_submit()->set_request_id(random_id());  // each its own job, as the Rust tool
      cuzk::v1::ProveResponse resp;
      const auto t = std::chrono::steady_clock::now();
      const auto retry_until = t + std::chrono::duration<double>(b.retry_unavailable_seconds);
      // As Curio's task retry: the same request (same id, same bytes) again after a pause that
      // doubles, for as long as the daemon or the balancer in front of it answers UNAVAILABLE.
      auto pause = std::chrono::milliseconds(250);
      grpc::Status st;
      for (unsigned attempt = 0;; ++attempt) {
        grpc::ClientContext ctx;
        resp.Clear();
        st = stub->Prove(&ctx, req, &resp);
        if (st.error_code() != grpc::StatusCode::UNAVAILABLE ||
            std::chrono::steady_clock::now() + pause > retry_until)
          break;
        ++retries;
        {
          std::lock_guard lk(print);
          bar.clear();
          std::printf("[%u/%u] retry %u of %s after UNAVAILABLE: %s\n", i + 1, b.count, attempt + 1,
                      req.submit().request_id().c_str(), st.error_message().c_str());
          std::fflush(stdout);
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(4000));
      }
      one& o = results[i];
      o.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
      const auto& r = resp.result();
      o.completed = st.ok() && r.status() == cuzk::v1::AwaitProofResponse::COMPLETED;
      const std::string wrong =
          o.completed ? check_answer(*built, r.proof(), b.single.param_dir) : std::string();
      o.completed = o.completed && wrong.empty();
      o.prove_ms = double(r.gpu_compute_ms());
      o.queue_ms = double(r.queue_wait_ms());
      const std::string state = !st.ok() ? "ERROR"
                                : !wrong.empty()
                                    ? "WRONG"
                                    : cuzk::v1::AwaitProofResponse::Status_Name(r.status());
      const std::string detail = !st.ok()         ? st.error_message()
                                 : !wrong.empty() ? wrong
                                                  : r.error_message();
      std::lock_guard lk(print);
      bar.clear();
      std::printf("[%u/%u] %s — %.2f s (prove=%.0f ms, queue=%.0f ms)%s%s\n", i + 1, b.count,
                  state.c_str(), o.wall, o.prove_ms, o.queue_ms, detail.empty() ? "" : " ",
                  detail.c_str());
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
  std::printf("total %.2f s: %u completed, %u failed, %u retries after UNAVAILABLE\n", total,
              completed, b.count - completed, retries.load());
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
