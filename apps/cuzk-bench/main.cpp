// SPDX-License-Identifier: Apache-2.0
// cuzk-bench: a client of the cuzk.v1 daemon (client.hpp: single, status [--watch], preload,
// metrics, with -a/--addr as the Rust tool's) and benchmarks of the proving engine run in-process:
//
//   cuzk-bench pipeline --param-dir DIR [--sectors N] [--registered-proof P] [--gpu ORD] ...
//
// seals N sectors with random data (in this process, not timed with the proofs), proves their
// C1s one after the other with an engine each (what a loop of `cuzk prove porep` does, parameters
// loaded per proof), then submits all of them at once to one engine, and prints both wall times,
// the throughput, the engine's overhead per partition and the prover workers' busy ratio. Exit
// codes: 0 done, 1 a proof failed, 2 bad usage.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <thread>

#include "base/version.hpp"
#include "client.hpp"
#include "connection.hpp"
#include "cuzk/engine.hpp"
#include "filecoin/porep/c1_wrapper.hpp"
#include "filecoin/porep/seal.hpp"
#include "filecoin/porep/vanilla_prove.hpp"
#include "filecoin/proofs/porep_prover.hpp"
#include "filecoin/proofs/prover_backend.hpp"
#include "offline.hpp"
#include "sectors.hpp"

namespace {

using namespace cuzk;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

struct pipeline_args {
  std::string param_dir;
  std::string registered_proof = "StackedDrg2KiBV1_1";
  unsigned sectors = 4;
  int gpu = -1;
  unsigned synthesis_workers = 0, prover_threads = 0;
  uint64_t host_budget_gib = 0;
  bool generate_params = false;
  uint64_t seed = 1;
};

int run_pipeline(const pipeline_args& a) {
  auto proof = filecoin::porep::parse_registered_seal_proof(a.registered_proof);
  if (!proof) {
    std::fprintf(stderr, "error: %s\n", proof.error().to_string().c_str());
    return 2;
  }
  auto cfg = filecoin::porep::porep_config(*proof);
  if (!cfg) {
    std::fprintf(stderr, "error: %s\n", cfg.error().to_string().c_str());
    return 2;
  }
  const std::string dir = filecoin::proofs::resolve_params_dir(a.param_dir);
  if (!std::filesystem::exists(filecoin::proofs::porep_params_path(*cfg, dir))) {
    if (!a.generate_params) {
      std::fprintf(stderr, "error: %s missing (pass --generate-params for a seeded test setup)\n",
                   filecoin::proofs::porep_params_path(*cfg, dir).c_str());
      return 2;
    }
    std::fprintf(stderr, "generating test parameters (seeded: forgeable, benchmarks only) ...\n");
    const std::vector<uint8_t> tw{'c', 'u', 'z', 'k', '-', 'b', 'e', 'n', 'c', 'h'};
    auto gen = filecoin::proofs::generate_porep_parameters(*proof, dir, thread_pool::default_pool(),
                                                           {}, tw);
    if (!gen) {
      std::fprintf(stderr, "error: %s\n", gen.error().to_string().c_str());
      return 1;
    }
  }

  const auto t_seal = clock_type::now();
  auto sealed = bench::seal_random_sectors(*cfg, a.sectors, a.seed);
  if (!sealed) {
    std::fprintf(stderr, "error: %s\n", sealed.error().to_string().c_str());
    return 1;
  }
  const std::vector<bench::sealed_c1>& jobs = *sealed;
  std::fprintf(stderr, "sealed %u sectors in %.1f s\n", a.sectors, seconds_since(t_seal));

  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const auto make_engine = [&] {
    engine::engine_config ec;
    ec.param_dir = dir;
    if (a.gpu >= 0)
      ec.gpu_devices = {a.gpu};
    else
      ec.disable_gpus = true;
    ec.synthesis_workers = a.synthesis_workers;
    ec.prover_threads = a.prover_threads;
    ec.host_memory_budget = a.host_budget_gib << 30;
    return engine::proving_engine::create(ec);
  };
  const auto make_request = [&](const bench::sealed_c1& j, const std::string& id) {
    engine::proof_request r;
    r.request_id = id;
    r.kind = engine::proof_kind::porep_seal_commit;
    r.registered_proof = uint64_t(*proof);
    r.sector_size = cfg->sector.sector_bytes;
    r.vanilla_proof.assign(j.wrapper.begin(), j.wrapper.end());
    r.sector_number = j.sector;
    r.miner_id = j.miner;
    return r;
  };

  // 1. One after the other, as a loop over `cuzk prove porep` does: an engine per proof, the
  // parameters loaded by each.
  double seq_wall = 0, seq_without_load = 0;
  for (const auto& j : jobs) {
    const auto t0 = clock_type::now();
    auto one = make_engine();
    if (!one) {
      std::fprintf(stderr, "error: engine: %s\n", one.error().to_string().c_str());
      return 1;
    }
    auto sub = (*one)->submit(make_request(j, "sequential"));
    auto r = sub ? (*one)->await(sub->job_id, std::chrono::hours(1))
                 : result<engine::job_result>(sub.error());
    (*one)->shutdown();
    const double s = seconds_since(t0);
    if (!r || r->state != engine::job_state::completed) {
      std::fprintf(stderr, "error: sequential proof: %s\n",
                   r ? r->error.to_string().c_str() : r.error().to_string().c_str());
      return 1;
    }
    seq_wall += s;
    seq_without_load += s - r->timings.srs_load / 1e3;
  }

  // 2. All at once through one engine (parameters loaded once, kept resident).
  auto e = make_engine();
  if (!e) {
    std::fprintf(stderr, "error: engine: %s\n", e.error().to_string().c_str());
    return 1;
  }
  // A first job alone loads the parameters; a second one alone, warm, against a sequential proof
  // without its parameter load, is what the long-lived engine costs or saves per proof.
  const auto t_first = clock_type::now();
  auto first = (*e)->submit(make_request(jobs[0], "warm-up"));
  auto first_r = (*e)->await(first->job_id, std::chrono::hours(1));
  const double first_s = seconds_since(t_first);
  if (!first_r || first_r->state != engine::job_state::completed) {
    std::fprintf(
        stderr, "error: engine warm-up proof failed: %s\n",
        first_r ? first_r->error.to_string().c_str() : first_r.error().to_string().c_str());
    return 1;
  }
  const auto t_alone = clock_type::now();
  auto alone = (*e)->submit(make_request(jobs[0], "alone"));
  auto alone_r = (*e)->await(alone->job_id, std::chrono::hours(1));
  const double alone_s = seconds_since(t_alone);

  const engine::engine_status before = (*e)->status();
  const auto t0 = clock_type::now();
  std::vector<std::string> ids;
  for (const auto& j : jobs)
    ids.push_back((*e)->submit(make_request(j, "bench-" + std::to_string(j.sector)))->job_id);
  double sum_synth = 0, sum_prove = 0, sum_verify = 0;
  for (const auto& id : ids) {
    auto r = (*e)->await(id, std::chrono::hours(1));
    if (!r || r->state != engine::job_state::completed) {
      std::fprintf(stderr, "error: engine proof %s failed: %s\n", id.c_str(),
                   r ? r->error.to_string().c_str() : r.error().to_string().c_str());
      return 1;
    }
    sum_synth += r->timings.synthesis;
    sum_prove += r->timings.prove + r->timings.finalize;
    sum_verify += r->timings.verify;
  }
  const double engine_wall = seconds_since(t0);
  const engine::engine_status after = (*e)->status();
  double busy = 0;
  for (size_t w = 0; w < after.workers.size(); ++w)
    busy += after.workers[w].busy_seconds - before.workers[w].busy_seconds;
  const unsigned partitions = cfg->partitions();

  std::printf("cuzk-bench pipeline: %s, %u sectors x %u partition(s), %s, commit %s, %u cores\n",
              a.registered_proof.c_str(), a.sectors, partitions,
              a.gpu >= 0 ? ("gpu " + std::to_string(a.gpu)).c_str() : "cpu prover", GIT_COMMIT,
              cores);
  std::printf("  sequential engines     : %8.2f s (%.2f s without the per-proof parameter loads)\n",
              seq_wall, seq_without_load);
  std::printf("  engine, all at once    : %8.2f s  -> %.2fx the sequential loop, %.1f proofs/h\n",
              engine_wall, seq_wall / engine_wall, 3600.0 * a.sectors / engine_wall);
  std::printf("  engine phases (summed) : synthesis %.2f s, prove %.2f s, verify %.3f s\n",
              sum_synth / 1e3, sum_prove / 1e3, sum_verify / 1e3);
  std::printf("  prover busy ratio      : %.0f %% of %zu worker(s) over the run\n",
              100.0 * busy / (engine_wall * double(after.workers.size())), after.workers.size());
  std::printf(
      "  one job alone          : %.2f s first (parameter load %.2f s), %.2f s warm; "
      "sequential per proof %.2f s -> overhead %+.0f ms per partition\n",
      first_s, first_r->timings.srs_load / 1e3, alone_s, seq_without_load / a.sectors,
      1e3 * (alone_s - seq_without_load / a.sectors) / partitions);
  std::printf("  peak RSS               : %.0f MiB\n", double(after.peak_rss) / (1 << 20));
  (void)alone_r;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk-bench: cuzk.v1 client and proving engine benchmarks"};
  app.require_subcommand(1);
  std::string addr = "http://127.0.0.1:9820";
  app.add_option("-a,--addr", addr,
                 "the daemon: unix:///path, [http://]host:port or https://host:port (TLS)")
      ->capture_default_str();
  cuzk::bench::connection_options conn;
  app.add_option("--tls-ca", conn.tls_ca,
                 "TLS: the CA bundle (PEM) the daemon's certificate is checked against");
  auto* tls_cert = app.add_option("--tls-cert", conn.tls_cert,
                                  "mutual TLS: this client's certificate chain (PEM)");
  auto* tls_key = app.add_option("--tls-key", conn.tls_key, "mutual TLS: its private key (PEM)");
  tls_cert->needs(tls_key);
  tls_key->needs(tls_cert);
  app.add_option("--token", conn.token, "bearer token sent on every call (or $CUZK_TOKEN)")
      ->envname("CUZK_TOKEN");
  cuzk::bench::single_args sa;
  auto* single = app.add_subcommand("single", "one proof through the daemon (Prove)");
  // The request options of `single` and `batch` (one request, sent once or many times).
  const auto add_request_options = [](CLI::App* cmd, cuzk::bench::single_args& r) {
    cmd->add_option("-t,--type", r.type,
                    "proof type: porep (porep-c2, seal-commit), snap (snap-deals, update), "
                    "window-post (wpost, windowpost) or winning-post (winning, winningpost)")
        ->capture_default_str();
    cmd->add_option("--c1", r.c1, "porep: the C1 output file (any of its formats)");
    cmd->add_option("--vanilla", r.vanilla,
                    "snap, PoSt: the vanilla proofs, a JSON array of base64 (gen-vanilla, "
                    "Curio's snap-vproof.json)");
    cmd->add_option("--commitments", r.commitments,
                    "snap: the commitments file of gen-vanilla snap-prove / cuzk snap encode");
    cmd->add_option("--comm-r-old", r.comm_r_old_hex, "snap: comm_r_old, 64 hex digits");
    cmd->add_option("--comm-r-new", r.comm_r_new_hex, "snap: comm_r_new, 64 hex digits");
    cmd->add_option("--comm-d-new", r.comm_d_new_hex, "snap: comm_d_new, 64 hex digits");
    cmd->add_option("--registered-proof", r.registered_proof,
                    "porep: seal proof (default StackedDrg32GiBV1_1); snap: update proof "
                    "(required); window-post / winning-post: PoSt proof (default 13 / 3); name "
                    "or number");
    cmd->add_option("--randomness", r.randomness_hex, "PoSt: 64 hex digits (zeros)");
    cmd->add_option("--partition", r.partition, "window-post: the partition index")
        ->capture_default_str();
    cmd->add_option("--sector-num", r.sector_num, "sector number")->capture_default_str();
    cmd->add_option("--miner-id", r.miner_id, "miner actor id")->capture_default_str();
    cmd->add_option("--param-dir", r.param_dir,
                    "verify every returned proof with the .vk here (else only a snap or PoSt "
                    "proof's size is checked)");
  };
  add_request_options(single, sa);
  single->add_option("--request-id", sa.request_id, "request id (default: a random one)");
  single->add_option("-o,--proof-out", sa.proof_out, "write the proof bytes here (atomically)");
  cuzk::bench::status_args sta;
  cuzk::bench::gen_vanilla_args gv;
  auto* gen_vanilla = app.add_subcommand(
      "gen-vanilla",
      "offline: a C1 of a freshly sealed small sector, PoSt vanilla proofs, or the partition "
      "proofs and commitments of a fresh SnapDeals update");
  gen_vanilla->add_option("type", gv.type, "porep | window-post | winning-post | snap-prove")
      ->required()
      ->check(CLI::IsMember({"porep", "window-post", "winning-post", "snap-prove"}));
  gen_vanilla->add_option(
      "--registered-proof", gv.registered_proof,
      "proof (default: StackedDrg2KiBV1_1; window 13; winning 3; snap-prove 0 = 2 KiB)");
  gen_vanilla
      ->add_option("--sector-number", gv.sector_number,
                   "PoSt: the sealed sector's number; snap-prove: the sector key's")
      ->capture_default_str();
  gen_vanilla->add_option("--miner-id", gv.miner_id,
                          "snap-prove: the sector key's miner (PoSt: accepted as the Rust tool "
                          "does; vanilla proofs do not depend on it)");
  gen_vanilla->add_option("--randomness", gv.randomness_hex, "PoSt: 64 hex digits (zeros)");
  gen_vanilla->add_option("--cache", gv.cache, "PoSt: the sector directory of cuzk porep seal");
  gen_vanilla->add_option("-o,--output", gv.out, "output file");
  gen_vanilla->add_option("--commitments-out", gv.commitments_out,
                          "snap-prove: the commitments file (default: snap-commitments.json in "
                          "the output's directory)");
  gen_vanilla
      ->add_option("--seed", gv.seed, "porep, snap-prove, --synthetic: seed of the random sector")
      ->capture_default_str();
  gen_vanilla->add_flag("--synthetic", gv.synthetic,
                        "window-post, winning-post, snap-prove: never-sealed sectors of any size "
                        "(32/64 GiB included) whose proofs pass every vanilla check, for "
                        "benchmarks (post/synthetic.hpp, snap/synthetic.hpp)");
  gen_vanilla->add_option("--sectors", gv.sectors,
                          "window-post --synthetic: sectors --sector-number, +1, … (default: a "
                          "full partition)");
  gen_vanilla->add_option("--partition", gv.partition, "PoSt: the partition index")
      ->capture_default_str();
  cuzk::bench::synth_only_args so;
  auto* synth_only = app.add_subcommand("synth-only", "offline: time the synthesis of a C1");
  synth_only->add_option("--c1", so.c1, "the C1 output file (any of its formats)")->required();
  synth_only->add_option("-i,--iterations", so.iterations, "repetitions")->capture_default_str();
  synth_only->add_option("--partition", so.partition, "one partition (default: all)");
  synth_only
      ->add_option("--threads", so.threads, "synthesis threads (0: every core; 1: sequential)")
      ->check(CLI::Range(0u, 4096u))  // one thread each: bounded before any is created
      ->capture_default_str();
  synth_only->add_flag("--witness", so.witness,
                       "the witness only (as the engine synthesizes), then the compiled a, b, c "
                       "plan's build and its evaluation on the CPU, each timed");
  cuzk::bench::batch_args ba;
  auto* batch =
      app.add_subcommand("batch", "many proofs of one request through the daemon (Prove)");
  add_request_options(batch, ba.single);
  batch->add_option("-c,--count", ba.count, "proofs")->capture_default_str();
  batch->add_option("-j,--concurrency", ba.concurrency, "proofs in flight")->capture_default_str();
  batch
      ->add_option("--retry-unavailable", ba.retry_unavailable_seconds,
                   "resend a proof answered UNAVAILABLE (same id and bytes, as Curio's task "
                   "retry) until this many seconds after its first send; 0: never")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  auto* status_cmd = app.add_subcommand("status", "the daemon's GetStatus");
  status_cmd->add_flag("-w,--watch", sta.watch, "refresh every --interval seconds");
  status_cmd->add_option("--interval", sta.interval_seconds, "seconds between refreshes")
      ->check(CLI::Range(0.05, 3600.0))
      ->capture_default_str();
  status_cmd->add_option("--count", sta.count, "with --watch: stop after this many refreshes");
  std::string circuit_id;
  auto* preload = app.add_subcommand("preload", "load a circuit's parameters (PreloadSRS)");
  preload->add_option("-c,--circuit-id", circuit_id, "circuit id, e.g. porep-32g")->required();
  app.add_subcommand("metrics", "the daemon's Prometheus text (GetMetrics)");
  cuzk::bench::stress_args st;
  auto* stress = app.add_subcommand(
      "stress", "retries, reused ids and cancels against the daemon; reports lost answers");
  stress->add_option("--registered-proof", st.registered_proof, "seal proof (2KiB or 8MiB)")
      ->capture_default_str();
  stress->add_option("-n,--count", st.count, "submissions")->capture_default_str();
  stress->add_option("--unique", st.unique, "sectors sealed for them")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  stress->add_option("-j,--concurrency", st.concurrency, "client threads")->capture_default_str();
  stress->add_option("--retry-rate", st.retry_rate, "share of byte-identical retries")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  stress->add_option("--reuse-rate", st.reuse_rate, "share of reused ids with other bytes")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  stress->add_option("--cancel-rate", st.cancel_rate, "share cancelled after a random delay")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  stress->add_option("--max-seconds", st.max_seconds, "bound on the whole run")
      ->capture_default_str();
  stress->add_option("--seed", st.seed, "seed of the sectors and the plan")->capture_default_str();
  stress->add_option("--param-dir", st.param_dir, "verify every proof with the .vk here");
  pipeline_args pa;
  auto* pipe = app.add_subcommand(
      "pipeline", "PoRep C2 jobs through the engine vs one after the other (in-process)");
  pipe->add_option("--param-dir", pa.param_dir,
                   "parameter directory (default $FIL_PROOFS_PARAMETER_CACHE or "
                   "/var/tmp/filecoin-proof-parameters)");
  pipe->add_option("--registered-proof", pa.registered_proof, "seal proof (name or number)")
      ->capture_default_str();
  pipe->add_option("--sectors,-n", pa.sectors, "sectors to seal and prove")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  pipe->add_option("--gpu", pa.gpu, "CUDA device to prove on (-1: the CPU prover)")
      ->capture_default_str();
  pipe->add_option("--synthesis-workers", pa.synthesis_workers,
                   "engine synthesis workers (0: auto)");
  pipe->add_option("--prover-threads", pa.prover_threads, "CPU prover threads (0: every core)");
  pipe->add_option("--host-budget-gib", pa.host_budget_gib, "engine host budget (0: auto)");
  pipe->add_flag("--generate-params", pa.generate_params,
                 "generate seeded test parameters when the .params file is missing");
  pipe->add_option("--seed", pa.seed, "seed of the random sectors")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  cuzk::bench::set_connection_options(conn);
  try {
    if (*pipe) return run_pipeline(pa);
    if (*single) return cuzk::bench::run_single(addr, sa);
    if (*batch) return cuzk::bench::run_batch(addr, ba);
    if (*gen_vanilla) return cuzk::bench::run_gen_vanilla(gv);
    if (*synth_only) return cuzk::bench::run_synth_only(so);
    if (*stress) return cuzk::bench::run_stress(addr, st);
    if (*preload) return cuzk::bench::run_preload(addr, circuit_id);
    if (*status_cmd) return cuzk::bench::run_status(addr, sta);
    if (app.got_subcommand("metrics")) return cuzk::bench::run_metrics(addr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 2;
}
