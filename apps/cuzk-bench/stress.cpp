// SPDX-License-Identifier: Apache-2.0
// cuzk-bench stress: hostile-but-legal traffic against a daemon, bounded in count and time.
//
// `count` submissions over `unique` freshly sealed sectors, sent from `concurrency` client threads
// with SubmitProof + AwaitProof. Each submission is, at random (seeded):
//   - a new request (id stress-<i>),
//   - a byte-identical retry of an earlier one (same id, same bytes: must get the same answer),
//   - a reused id with another sector's bytes (Curio's id reuse: must get its own proof),
// and a `cancel_rate` share of them is cancelled after a random delay. Every answer is checked:
// COMPLETED proofs must verify (with --param-dir) for their own sector; a retry must return the
// bytes of the request it repeats. Reported: submitted, completed, failed by code, cancelled,
// lost (no terminal answer in time, or an RPC error), duplicated (an answer that belongs to
// another request), and p50/p99 latency. Exit 0 only when nothing is lost, duplicated or wrong.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "client.hpp"
#include "connection.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "filecoin/proofs/porep_prover.hpp"
#include "progress_line.hpp"
#include "sectors.hpp"

namespace cuzk::bench {
namespace {

using clock_type = std::chrono::steady_clock;
using v1_status = cuzk::v1::AwaitProofResponse;

struct planned {
  std::string id;
  size_t sector = 0;
  int repeats = -1;  ///< index of the submission it repeats byte for byte, or -1
  bool cancel = false;
  unsigned cancel_after_ms = 0;
};

struct outcome {
  std::string state;  ///< COMPLETED, FAILED:<code>, CANCELLED, LOST
  std::string proof;
  double seconds = 0;
  std::string detail;
};

}  // namespace

int run_stress(const std::string& addr, const stress_args& a) {
  auto proof = filecoin::porep::parse_registered_seal_proof(a.registered_proof);
  if (!proof) {
    std::fprintf(stderr, "error: --registered-proof: %s\n", proof.error().to_string().c_str());
    return 2;
  }
  auto cfg = filecoin::porep::porep_config(*proof);
  if (!cfg || cfg->sector.sector_bytes > (uint64_t(8) << 20)) {
    std::fprintf(stderr, "error: stress seals its own sectors: 2KiB or 8MiB proofs only\n");
    return 2;
  }
  auto sectors = seal_random_sectors(*cfg, a.unique, a.seed);
  if (!sectors) {
    std::fprintf(stderr, "error: %s\n", sectors.error().to_string().c_str());
    return 1;
  }

  std::mt19937_64 rng(a.seed ^ 0x5eed);
  const auto chance = [&](double p) { return double(rng() % 1000000) < p * 1e6; };
  std::vector<planned> plan(a.count);
  for (unsigned i = 0; i < a.count; ++i) {
    planned& p = plan[i];
    p.id = "stress-" + std::to_string(i);
    p.sector = i % a.unique;
    if (i > 0 && chance(a.retry_rate)) {
      p.repeats = int(rng() % i);
      while (plan[size_t(p.repeats)].repeats >= 0) p.repeats = plan[size_t(p.repeats)].repeats;
      p.id = plan[size_t(p.repeats)].id;
      p.sector = plan[size_t(p.repeats)].sector;
    } else if (i > 0 && chance(a.reuse_rate)) {
      p.id = plan[rng() % i].id;  // same id, this submission's own sector
    }
    p.cancel = p.repeats < 0 && chance(a.cancel_rate);
    p.cancel_after_ms = unsigned(rng() % 3000);
  }

  auto channel = open_channel(addr);
  auto stub = cuzk::v1::ProvingEngine::NewStub(channel);

  std::vector<outcome> results(a.count);
  std::atomic<unsigned> next{0}, finished{0};
  std::mutex bar_mu;
  progress_line bar("stress", a.count);
  const auto deadline = clock_type::now() + std::chrono::seconds(a.max_seconds);
  const auto worker = [&] {
    for (;;) {
      const unsigned i = next++;
      if (i >= a.count) return;
      const planned& p = plan[i];
      const sealed_c1& s = (*sectors)[p.sector];
      outcome& o = results[i];
      const auto t0 = clock_type::now();
      cuzk::v1::SubmitProofRequest req;
      req.set_request_id(p.id);
      req.set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
      req.set_registered_proof(uint64_t(*proof));
      req.set_sector_size(cfg->sector.sector_bytes);
      req.set_vanilla_proof(s.wrapper);
      req.set_sector_number(s.sector);
      req.set_miner_id(s.miner);
      grpc::ClientContext sc;
      cuzk::v1::SubmitProofResponse sub;
      grpc::Status st = stub->SubmitProof(&sc, req, &sub);
      if (!st.ok()) {
        o.state = "LOST";
        o.detail = "SubmitProof: " + st.error_message();
        std::lock_guard lk(bar_mu);
        bar.update(++finished);
        continue;
      }
      std::thread canceller;
      if (p.cancel) {
        canceller = std::thread([&, job = sub.job_id(), ms = p.cancel_after_ms] {
          std::this_thread::sleep_for(std::chrono::milliseconds(ms));
          grpc::ClientContext cc;
          cuzk::v1::CancelProofRequest cr;
          cr.set_job_id(job);
          cuzk::v1::CancelProofResponse resp;
          (void)stub->CancelProof(&cc, cr, &resp);
        });
      }
      cuzk::v1::AwaitProofResponse r;
      for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
        if (left.count() <= 0) break;
        grpc::ClientContext ac;
        cuzk::v1::AwaitProofRequest ar;
        ar.set_job_id(sub.job_id());
        ar.set_timeout_ms(uint64_t(std::min<int64_t>(left.count(), 5000)));
        st = stub->AwaitProof(&ac, ar, &r);
        if (!st.ok() || r.status() != v1_status::TIMEOUT) break;
      }
      if (canceller.joinable()) canceller.join();
      o.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
      if (!st.ok()) {
        o.state = "LOST";
        o.detail = "AwaitProof: " + st.error_message();
      } else if (r.status() == v1_status::COMPLETED) {
        o.state = "COMPLETED";
        o.proof = r.proof();
      } else if (r.status() == v1_status::FAILED) {
        o.state = "FAILED";
        o.detail = r.error_message();
      } else if (r.status() == v1_status::CANCELLED) {
        o.state = "CANCELLED";
      } else {
        o.state = "LOST";
        o.detail = "no answer within --max-seconds";
      }
      std::lock_guard lk(bar_mu);
      bar.update(++finished);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, a.concurrency); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  bar.clear();

  std::map<std::string, unsigned> by_state;
  unsigned lost = 0, duplicated = 0, wrong = 0;
  std::vector<double> latencies;
  for (unsigned i = 0; i < a.count; ++i) {
    const outcome& o = results[i];
    ++by_state[o.state == "FAILED" ? "FAILED: " + o.detail.substr(0, 60) : o.state];
    if (o.state == "LOST") {
      ++lost;
      std::fprintf(stderr, "lost: %s (%s)\n", plan[i].id.c_str(), o.detail.c_str());
    }
    if (o.state != "COMPLETED") continue;
    latencies.push_back(o.seconds);
    const sealed_c1& s = (*sectors)[plan[i].sector];
    if (!a.param_dir.empty()) {
      const filecoin::proofs::prover_identity_t who{filecoin::porep::prover_id_from_actor(s.miner),
                                                    s.sector};
      auto ok = filecoin::proofs::verify_porep(
          s.c1, who, std::span(reinterpret_cast<const uint8_t*>(o.proof.data()), o.proof.size()),
          a.param_dir);
      if (!ok || !*ok) {
        ++wrong;
        std::fprintf(stderr, "wrong: %s's proof does not verify for its sector\n",
                     plan[i].id.c_str());
      }
    }
    const int r = plan[i].repeats;
    if (r >= 0 && results[size_t(r)].state == "COMPLETED" && results[size_t(r)].proof != o.proof) {
      ++duplicated;
      std::fprintf(stderr, "duplicated: %s (a retry of #%d) got other bytes\n", plan[i].id.c_str(),
                   r);
    }
  }
  std::sort(latencies.begin(), latencies.end());
  const auto pct = [&](double q) {
    return latencies.empty() ? 0.0 : latencies[size_t(q * double(latencies.size() - 1))];
  };
  std::printf("stress: %u submitted (%u unique sectors, seed %llu)\n", a.count, a.unique,
              (unsigned long long)a.seed);
  for (const auto& [state, n] : by_state) std::printf("  %-12s %u\n", state.c_str(), n);
  std::printf("  lost %u, duplicated %u, wrong %u\n", lost, duplicated, wrong);
  std::printf("  porep-c2 latency p50 %.2f s, p99 %.2f s\n", pct(0.5), pct(0.99));
  return lost == 0 && duplicated == 0 && wrong == 0 ? 0 : 1;
}

}  // namespace cuzk::bench
