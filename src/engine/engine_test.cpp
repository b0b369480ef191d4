// SPDX-License-Identifier: Apache-2.0
// The engine's scheduling on the CPU prover with a small test circuit plugged in through the
// circuit interface (proof_kind.hpp): a chain of n squarings x → x^(2^n) with the result public,
// one partition per seed x + k. Real Groth16 parameters (seeded setup) in a temp dir; every
// COMPLETED proof is checked again here with the verifying key read back from the .params file,
// independently of the engine's own self-verification. The 2 KiB PoRep through the same engine is
// engine_porep_test.cpp (label e2e).
//
// The test request: vanilla_proof = {partitions, corrupt partition + 1 (0: none)},
// randomness = 8-byte seed, partition_index = milliseconds each synthesis sleeps (to hold a job
// in flight while the test acts on it).
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>
#include <utility>

#include "engine/engine_test_worker.hpp"
#include "engine/proof_kind.hpp"
#include "groth16/params_io.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover_cpu.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/matrix_cs.hpp"
#include "test_rng.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;
using ff::fr_t;
using r1cs::linear_combination;
using r1cs::variable;

constexpr unsigned SQUARINGS = 64;

// CUZK_ENGINE_TEST_WORKER=gpu (the `gpu`-labelled registration of this binary) runs every case
// on GPU 0 instead of the CPU prover.
using test_worker::on_gpu;
std::string worker_name() {
  return test_worker::name();
}

// x, x², x⁴, … as aux, x^(2^n) as the one public input: n + 1 constraints.
template <class CS>
void squaring_chain(CS& cs, fr_t x, unsigned n) {
  fr_t v = x;
  variable w = cs.alloc([&] { return v; });
  for (unsigned i = 0; i < n; ++i) {
    const fr_t next = v * v;
    const variable w2 = cs.alloc([&] { return next; });
    cs.enforce([&](linear_combination& lc) { lc += w; }, [&](linear_combination& lc) { lc += w; },
               [&](linear_combination& lc) { lc += w2; });
    w = w2;
    v = next;
  }
  const variable y = cs.alloc_input([&] { return v; });
  cs.enforce([&](linear_combination& lc) { lc += w; },
             [&](linear_combination& lc) { lc += variable::one(); },
             [&](linear_combination& lc) { lc += y; });
}

fr_t chain_value(fr_t x, unsigned n) {
  for (unsigned i = 0; i < n; ++i) x = x * x;
  return x;
}

fr_t seed_of(const proof_request& r) {
  uint64_t s = 0;
  for (size_t i = 0; i < r.randomness.size() && i < 8; ++i)
    s |= uint64_t(r.randomness[i]) << (8 * i);
  return fr_t::from_uint(s);
}

// How a chain kind offers the compiled a, b, c plan (prepared_proof::compile_plan).
enum class plan_mode {
  none,      ///< no plan: synthesized in full (the default of prepared_proof)
  compiled,  ///< the chain's plan: the witness alone is synthesized
  broken,    ///< compile_plan fails: the engine falls back to full synthesis
  wrong,     ///< the plan of a longer chain: the witness does not fit it
};

class chain_prepared final : public prepared_proof {
 public:
  chain_prepared(circuit_params c, fr_t seed, unsigned partitions, int corrupt, unsigned sleep_ms,
                 plan_mode plan, bool names_input, unsigned squarings)
      : c_(std::move(c)),
        seed_(seed),
        partitions_(partitions),
        corrupt_(corrupt),
        sleep_ms_(sleep_ms),
        plan_(plan),
        names_input_(names_input),
        squarings_(squarings) {}
  unsigned partitions() const override { return partitions_; }
  const circuit_params& circuit() const override { return c_; }
  synthesis_shape shape() const override { return {squarings_ + 1, squarings_ + 1, 2}; }
  status synthesize(unsigned k, r1cs::proving_cs& cs, thread_pool&) const override {
    return synthesize_into(k, cs);
  }
  status synthesize_witness(unsigned k, r1cs::witness_cs& cs, thread_pool&) const override {
    return synthesize_into(k, cs);
  }
  result<r1cs::abc_plan> compile_plan() const override {
    if (plan_ == plan_mode::none) return prepared_proof::compile_plan();
    if (plan_ == plan_mode::broken) return status(status_code::internal, "test: no plan today");
    if (sleep_ms_) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms_));
    r1cs::matrix_cs cs;
    squaring_chain(cs, fr_t::zero(), plan_ == plan_mode::wrong ? squarings_ + 1 : squarings_);
    return r1cs::abc_plan::from_matrices(cs.take_matrices());
  }
  result<std::vector<fr_t>> public_inputs(unsigned k) const override {
    return std::vector<fr_t>{chain_value(seed_ + fr_t::from_uint(k), squarings_)};
  }
  uint64_t host_bytes() const override { return 64; }
  std::string inconsistent_input() const override {
    return names_input_ ? "the chain's seed is inconsistent" : std::string();
  }

 private:
  template <class CS>
  status synthesize_into(unsigned k, CS& cs) const {
    if (sleep_ms_) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms_));
    // A corrupt partition synthesizes another x than its public input claims: a satisfied
    // circuit, a valid-looking proof, and a self-verification failure.
    const fr_t x = seed_ + fr_t::from_uint(k) + (int(k) == corrupt_ ? fr_t::one() : fr_t::zero());
    squaring_chain(cs, x, squarings_);
    return status();
  }

  circuit_params c_;
  fr_t seed_;
  unsigned partitions_;
  int corrupt_;
  unsigned sleep_ms_;
  plan_mode plan_;
  bool names_input_;
  unsigned squarings_;
};

class chain_kind final : public proof_kind_handler {
 public:
  chain_kind(proof_kind k, priority p, std::string params_path, plan_mode plan = plan_mode::none,
             bool names_input = false, unsigned squarings = SQUARINGS)
      : kind_(k),
        prio_(p),
        params_path_(std::move(params_path)),
        id_(std::filesystem::path(params_path_).stem().string()),
        plan_(plan),
        names_input_(names_input),
        squarings_(squarings) {}
  proof_kind kind() const override { return kind_; }
  priority default_priority() const override { return prio_; }
  status check(const proof_request& r) const override {
    if (r.vanilla_proof.size() != 2 || r.vanilla_proof[0] == 0)
      return status(status_code::invalid_argument, "test request: bad vanilla_proof");
    return status();
  }
  result<std::unique_ptr<prepared_proof>> prepare(const proof_request& r, const std::string&,
                                                  thread_pool&) const override {
    return std::unique_ptr<prepared_proof>(new chain_prepared(
        {id_, params_path_}, seed_of(r), r.vanilla_proof[0], int(r.vanilla_proof[1]) - 1,
        r.partition_index, plan_, names_input_, squarings_));
  }
  std::optional<circuit_params> circuit_by_id(const std::string& id,
                                              const std::string&) const override {
    if (id != id_) return std::nullopt;
    return circuit_params{id_, params_path_};
  }

 private:
  proof_kind kind_;
  priority prio_;
  std::string params_path_;
  std::string id_;  // the circuit: the file's stem ("chain" for chain.params)
  plan_mode plan_;
  bool names_input_;
  unsigned squarings_;
};

struct shared_params {
  std::string dir, path;
  groth16::prepared_verifying_key pvk;
  uint64_t bytes = 0;
  groth16::query_sizes sizes;
  unsigned squarings = SQUARINGS;
};

// Parameters of a chain of `squarings` written to `path` (seeded: the same bytes every run).
std::unique_ptr<shared_params> chain_params(const std::string& dir, const std::string& path,
                                            unsigned squarings) {
  auto p = std::make_unique<shared_params>();
  p->dir = dir;
  p->path = path;
  p->squarings = squarings;
  r1cs::matrix_cs cs;
  squaring_chain(cs, fr_t::zero(), squarings);
  const r1cs::matrices m = cs.take_matrices();
  const std::vector<uint8_t> seed{'e', 'n', 'g', 'i', 'n', 'e'};
  auto params = groth16::generate_parameters(m, groth16::toxic_waste::from_seed(seed),
                                             thread_pool::default_pool());
  EXPECT_TRUE(params.ok()) << params.error().to_string();
  if (!params.ok()) return nullptr;
  EXPECT_TRUE(groth16::write_params(*params, path, thread_pool::default_pool()).ok());
  p->pvk = groth16::prepare_verifying_key(params->vk);
  p->bytes = groth16::query_bytes(params->sizes());
  p->sizes = params->sizes();
  return p;
}

// The CPU prover's working set the engine charges beside a chain's parameters on the CPU
// (groth16::cpu_proof_bytes for config()'s two prover threads); 0 on a GPU.
uint64_t cpu_working(const shared_params& p) {
  return on_gpu() ? 0 : groth16::cpu_proof_bytes(p.sizes, 2);
}

// The device bytes of the plan the engine takes for a chain's parameters on a budget that holds
// its fastest plan: the first of groth16::gpu_plan_candidates, with the compiled a, b, c program
// when the kind has one (plan_mode::compiled).
// The device bytes of a chain's compiled a, b, c program (what the engine plans with).
uint64_t chain_program_bytes(unsigned squarings) {
  r1cs::matrix_cs cs;
  squaring_chain(cs, fr_t::zero(), squarings);
  return r1cs::abc_plan::from_matrices(cs.take_matrices())->size().bytes;
}

uint64_t fastest_plan_peak(const shared_params& p, bool compiled, unsigned lanes) {
  groth16::gpu_plan_request req;
  req.q = p.sizes;
  req.max_lanes = lanes;
  req.program_bytes = compiled ? chain_program_bytes(p.squarings) : 0;
  return groth16::gpu_plan_candidates(req).front().device_peak_bytes;
}
shared_params* g_params = nullptr;

class engine_test : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("cuzk-engine-test-" + std::to_string(::getpid())))
                                .string();
    std::filesystem::create_directories(dir);
    auto p = chain_params(dir, dir + "/chain.params", SQUARINGS);
    ASSERT_TRUE(p);
    g_params = p.release();
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    std::filesystem::remove_all(g_params->dir, ec);
    delete g_params;
  }

  // PoRep's chain has a compiled plan (witness-only synthesis, as the real kinds), WinningPoSt's
  // none (full synthesis): the cases that mix them run both paths on one engine.
  static engine_parts parts(plan_mode porep_plan = plan_mode::compiled) {
    engine_parts ps;
    ps.handlers = {std::make_shared<chain_kind>(proof_kind::porep_seal_commit, priority::normal,
                                                g_params->path, porep_plan),
                   std::make_shared<chain_kind>(proof_kind::winning_post, priority::critical,
                                                g_params->path, plan_mode::none)};
    return ps;
  }
  static engine_config config(unsigned synthesis_workers = 2) {
    engine_config c;
    test_worker::choose(c);
    c.prover_threads = 2;
    c.synthesis_workers = synthesis_workers;
    c.host_memory_budget = uint64_t(1) << 30;
    c.eviction_min_idle = 0ms;
    if (std::getenv("CUZK_ENGINE_TEST_LOG"))
      c.log = [](log_level, std::string_view m) {
        std::fprintf(stderr, "%.*s\n", int(m.size()), m.data());
      };
    return c;
  }
  static std::unique_ptr<proving_engine> make(const engine_config& c, engine_parts ps = parts()) {
    auto e = create_engine(c, std::move(ps));
    EXPECT_TRUE(e.ok()) << e.error().to_string();
    return e.ok() ? std::move(*e) : nullptr;
  }

  // PoRep (with its compiled plan) and WinningPoSt on two parameter files (the same bytes under
  // two paths: two circuits), with a host budget that holds one of them and the buffers.
  static engine_parts two_circuit_parts() {
    const std::string second = g_params->dir + "/chain-post.params";
    std::filesystem::copy_file(g_params->path, second,
                               std::filesystem::copy_options::overwrite_existing);
    engine_parts ps;
    ps.handlers = {std::make_shared<chain_kind>(proof_kind::porep_seal_commit, priority::normal,
                                                g_params->path, plan_mode::compiled),
                   std::make_shared<chain_kind>(proof_kind::winning_post, priority::critical,
                                                second, plan_mode::none)};
    return ps;
  }
  // The budget of a device that holds either circuit of two_circuit_parts with its fastest plan,
  // but not both: their parameters fit together, not beside the working set of either.
  static uint64_t one_circuit_device_budget(unsigned lanes) {
    return std::max(fastest_plan_peak(*g_params, true, lanes),
                    fastest_plan_peak(*g_params, false, lanes));
  }
  static std::pair<engine_config, engine_parts> one_of_two_circuits_fits() {
    engine_config c = config();
    c.host_memory_budget = g_params->bytes * 19 / 10 + cpu_working(*g_params);
    // On a GPU the parameters are on the device: its budget holds one of them the same way.
    if (on_gpu()) c.device_memory_budget = one_circuit_device_budget(std::max(1u, c.gpu_lanes));
    return {c, two_circuit_parts()};
  }

  static proof_request request(uint64_t seed, unsigned partitions, unsigned sleep_ms = 0,
                               proof_kind k = proof_kind::porep_seal_commit, int corrupt = -1) {
    proof_request r;
    r.kind = k;
    r.vanilla_proof = {uint8_t(partitions), uint8_t(corrupt + 1)};
    for (int i = 0; i < 8; ++i) r.randomness.push_back(uint8_t(seed >> (8 * i)));
    r.partition_index = sleep_ms;
    return r;
  }

  // The proof checked outside the engine: one 192-byte proof per partition, each verifying
  // against x^(2^n) for its own x.
  static bool proof_verifies(const std::vector<uint8_t>& bytes, uint64_t seed, unsigned partitions,
                             const shared_params& params = *g_params) {
    auto proofs = groth16::decode_proofs(bytes);
    if (!proofs || proofs->size() != partitions) return false;
    for (unsigned k = 0; k < partitions; ++k) {
      const fr_t y = chain_value(fr_t::from_uint(seed) + fr_t::from_uint(k), params.squarings);
      auto ok = groth16::verify(params.pvk, (*proofs)[k], std::vector<fr_t>{y});
      if (!ok || !*ok) return false;
    }
    return true;
  }
};

TEST_F(engine_test, concurrent_jobs_complete_and_verify) {
  auto e = make(config());
  std::vector<std::pair<std::string, uint64_t>> ids;
  for (uint64_t s = 1; s <= 6; ++s) {
    auto r = e->submit(request(s * 1000, 3));
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_FALSE(r->attached);
    ids.emplace_back(r->job_id, s * 1000);
  }
  for (const auto& [id, seed] : ids) {
    auto r = e->await(id, 60s);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->state, job_state::completed) << r->error.to_string();
    EXPECT_EQ(r->proof.size(), 3u * groth16::PROOF_BYTES);
    EXPECT_TRUE(proof_verifies(r->proof, seed, 3)) << id;
    ASSERT_EQ(r->timings.partitions.size(), 3u);
    EXPECT_EQ(r->timings.partitions[0].worker, worker_name());
    EXPECT_GT(r->timings.total, 0);
    EXPECT_GT(r->timings.verify, 0);
  }
  const engine_status st = e->status();
  EXPECT_EQ(st.completed, 6u);
  EXPECT_EQ(st.failed + st.cancelled, 0u);
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].ref_count, 0u);
  // On a GPU the queries are device bytes and ic (in the verifying key) host bytes: the same sum,
  // plus the compiled plan's device program; on the CPU plus the a, b, c the CPU prover evaluates
  // the plan into (3 × rows × 32 bytes, rows = the constraints and one per input).
  if (on_gpu()) {
    EXPECT_GT(st.srs[0].bytes, g_params->bytes);
  } else {
    EXPECT_EQ(st.srs[0].bytes,
              g_params->bytes + 3 * (SQUARINGS + 1 + 2) * sizeof(fr_t) + cpu_working(*g_params));
  }
  // The timeline has every phase of every job, each on a named lane, in time order per job.
  const auto events = e->timeline(0);
  for (const auto& [id, seed] : ids) {
    std::map<std::string, int> phases;
    for (const auto& ev : events) {
      if (ev.job_id != id) continue;
      ++phases[ev.phase];
      EXPECT_LE(ev.start, ev.end);
      EXPECT_FALSE(ev.lane.empty());
      if (ev.phase == "synthesis") {
        EXPECT_EQ(ev.lane.rfind("synthesis ", 0), 0u) << ev.lane;
      }
      if (ev.phase == "prove") {  // the worker's lanes: "gpu 0", "gpu 0.1" (the CPU has one)
        EXPECT_TRUE(ev.lane == worker_name() || (on_gpu() && ev.lane == worker_name() + ".1"))
            << ev.lane;
      }
    }
    EXPECT_EQ(phases["prepare"], 1) << id;
    EXPECT_EQ(phases["synthesis"], 3) << id;
    EXPECT_EQ(phases["prove"], 3) << id;
    EXPECT_EQ(phases["finalize"], 3) << id;
    EXPECT_EQ(phases["verify"], 1) << id;
  }
  EXPECT_TRUE(e->timeline(1e9).empty());
  // What stays charged when idle: the resident parameters and the recycled buffers.
  EXPECT_GE(st.host_used + st.device_used, g_params->bytes);
  if (on_gpu()) {
    EXPECT_GT(st.device_used, 0u);
  }
}

// One synthesis worker busy with a long low-priority job: a critical job submitted later
// reaches the prover at the next partition boundary and finishes while the long one still runs.
TEST_F(engine_test, higher_priority_overtakes_at_a_partition_boundary) {
  auto e = make(config(1));
  auto low = e->submit(request(7, 12, 40));
  ASSERT_TRUE(low.ok());
  std::this_thread::sleep_for(100ms);  // the low job is synthesizing its first partitions
  auto high = e->submit(request(9, 1, 0, proof_kind::winning_post));
  ASSERT_TRUE(high.ok());
  auto hr = e->await(high->job_id, 60s);
  ASSERT_TRUE(hr.ok());
  ASSERT_EQ(hr->state, job_state::completed) << hr->error.to_string();
  auto lr = e->await(low->job_id, 0ms);
  ASSERT_TRUE(lr.ok());
  EXPECT_EQ(lr->state, job_state::running) << "the low-priority job finished first";
  lr = e->await(low->job_id, 60s);
  ASSERT_EQ(lr->state, job_state::completed);
  EXPECT_TRUE(proof_verifies(lr->proof, 7, 12));
  EXPECT_TRUE(proof_verifies(hr->proof, 9, 1));
}

TEST_F(engine_test, cancel_a_queued_and_a_running_job) {
  auto e = make(config(1));
  auto running = e->submit(request(11, 30, 30));
  auto queued = e->submit(request(12, 2));
  ASSERT_TRUE(running.ok() && queued.ok());
  std::this_thread::sleep_for(100ms);
  auto q = e->cancel(queued->job_id);
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(*q);
  auto qr = e->await(queued->job_id, 10s);
  EXPECT_EQ(qr->state, job_state::cancelled);
  EXPECT_EQ(qr->error.code(), status_code::cancelled);

  auto c = e->cancel(running->job_id, "the operator stopped it");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(*c);
  auto rr = e->await(running->job_id, 10s);
  EXPECT_EQ(rr->state, job_state::cancelled);
  EXPECT_EQ(rr->error.message(), "the operator stopped it");
  auto again = e->cancel(running->job_id);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
  EXPECT_EQ(e->cancel("no-such-job").error().code(), status_code::not_found);
  EXPECT_EQ(e->await("no-such-job", 1ms).error().code(), status_code::not_found);

  // The engine goes on: a new job completes, and no buffer or pin was leaked by the cancels.
  auto next = e->submit(request(13, 2));
  auto nr = e->await(next->job_id, 60s);
  ASSERT_EQ(nr->state, job_state::completed) << nr->error.to_string();
  const engine_status st = e->status();
  EXPECT_EQ(st.cancelled, 2u);
  EXPECT_EQ(st.srs[0].ref_count, 0u);
}

// Curio reuses ids: an identical re-submit attaches to the job, the same id with another input
// is another job and gets its own proof.
TEST_F(engine_test, identical_resubmission_attaches_and_different_input_does_not) {
  auto e = make(config());
  proof_request a = request(21, 2, 20);
  a.request_id = "wdpost-1000-0-[1 2 3]";
  proof_request a_again = a;
  a_again.prio = priority::high;  // the priority does not make it another proof
  proof_request b = request(22, 2);
  b.request_id = a.request_id;

  auto ra = e->submit(a);
  auto ra2 = e->submit(a_again);
  auto rb = e->submit(b);
  ASSERT_TRUE(ra.ok() && ra2.ok() && rb.ok());
  EXPECT_EQ(ra->job_id, a.request_id);
  EXPECT_TRUE(ra2->attached);
  EXPECT_EQ(ra2->job_id, ra->job_id);
  EXPECT_FALSE(rb->attached);
  EXPECT_NE(rb->job_id, ra->job_id);

  auto pa = e->await(ra->job_id, 60s);
  auto pb = e->await(rb->job_id, 60s);
  ASSERT_EQ(pa->state, job_state::completed);
  ASSERT_EQ(pb->state, job_state::completed);
  EXPECT_TRUE(proof_verifies(pa->proof, 21, 2));
  EXPECT_TRUE(proof_verifies(pb->proof, 22, 2));
  EXPECT_FALSE(proof_verifies(pb->proof, 21, 2));

  // After completion an identical submit still attaches (the retained result) ...
  auto ra3 = e->submit(a);
  ASSERT_TRUE(ra3.ok());
  EXPECT_TRUE(ra3->attached);
  EXPECT_EQ(e->await(ra3->job_id, 1ms)->proof, pa->proof);
  EXPECT_EQ(e->status().completed, 2u);
}

/// `r` as tenant `tenant`'s request `id`.
proof_request of_tenant(proof_request r, std::string tenant, std::string id) {
  r.tenant = std::move(tenant);
  r.request_id = std::move(id);
  return r;
}

// Two tenants with the same request id (and the same input) are two jobs with two proofs; each
// tenant sees only its own: another tenant's id is not_found, as if it did not exist.
TEST_F(engine_test, request_ids_live_per_tenant) {
  auto e = make(config());
  proof_request alice = of_tenant(request(41, 2, 20), "alice", "porep-1000-7");
  proof_request bob = alice;
  bob.tenant = "bob";
  proof_request bob_other_input = of_tenant(request(42, 2), "carol", alice.request_id);

  auto ra = e->submit(alice);
  auto rb = e->submit(bob);
  auto rc = e->submit(bob_other_input);
  ASSERT_TRUE(ra.ok() && rb.ok() && rc.ok());
  EXPECT_FALSE(rb->attached) << "bob joined alice's job";
  EXPECT_FALSE(rc->attached);
  EXPECT_EQ(ra->job_id, alice.request_id);
  EXPECT_EQ(rb->job_id, alice.request_id);
  EXPECT_EQ(rc->job_id, alice.request_id);
  EXPECT_EQ(e->await("mallory", ra->job_id, 1ms).error().code(), status_code::not_found);
  EXPECT_EQ(e->cancel("mallory", ra->job_id, "no").error().code(), status_code::not_found);
  EXPECT_EQ(e->await(ra->job_id, 1ms).error().code(), status_code::not_found)
      << "the default tenant sees alice's job";
  EXPECT_EQ(e->status().jobs.size(), 3u);

  auto pa = e->await("alice", ra->job_id, 60s);
  auto pb = e->await("bob", rb->job_id, 60s);
  auto pc = e->await("carol", rc->job_id, 60s);
  ASSERT_TRUE(pa.ok() && pb.ok() && pc.ok());
  ASSERT_EQ(pa->state, job_state::completed) << pa->error.to_string();
  ASSERT_EQ(pb->state, job_state::completed) << pb->error.to_string();
  ASSERT_EQ(pc->state, job_state::completed) << pc->error.to_string();
  EXPECT_EQ(pa->tenant, "alice");
  EXPECT_EQ(pb->tenant, "bob");
  EXPECT_TRUE(proof_verifies(pa->proof, 41, 2));
  EXPECT_TRUE(proof_verifies(pb->proof, 41, 2));
  EXPECT_NE(pa->proof, pb->proof) << "one proof served to two tenants";
  EXPECT_TRUE(proof_verifies(pc->proof, 42, 2));
  EXPECT_EQ(e->status().completed, 3u);

  // A re-submit attaches within its tenant only; a cancel of another tenant's ended job is
  // not_found, not false.
  auto again = e->submit(alice);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->attached);
  EXPECT_EQ(e->await("alice", again->job_id, 1ms)->proof, pa->proof);
  EXPECT_EQ(e->cancel("carol", "porep-1000-7#0", "no").error().code(), status_code::not_found);
  auto own = e->cancel("bob", rb->job_id, "no");
  ASSERT_TRUE(own.ok());
  EXPECT_FALSE(*own);
}

// max_in_flight and max_queued_bytes refuse a tenant's submit with resource_exhausted, leave the
// other tenants alone and let an attach through; a refused tenant is served again once its jobs
// end or start.
TEST_F(engine_test, a_tenant_past_its_limits_is_refused) {
  engine_config c = config(1);
  c.tenants["alice"].max_in_flight = 1;
  // A test request holds 10 bytes: the 2-byte vanilla proof and the 8-byte seed.
  c.tenants["bob"].max_queued_bytes = 15;
  auto e = make(c);

  proof_request first = of_tenant(request(51, 1, 400), "alice", "a-1");
  auto r1 = e->submit(first);
  ASSERT_TRUE(r1.ok()) << r1.error().to_string();
  proof_request second = of_tenant(request(52, 1), "alice", "a-2");
  auto r2 = e->submit(second);
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error().code(), status_code::resource_exhausted);
  EXPECT_NE(r2.error().message().find("max_in_flight"), std::string::npos) << r2.error().message();
  EXPECT_TRUE(e->submit(first)->attached) << "an attach is not another job";

  // alice's partition holds the one synthesis worker for 400 ms: bob's first job waits for its
  // prepare with its 10 bytes queued, and 10 more would pass 15.
  std::this_thread::sleep_for(100ms);
  proof_request b1 = of_tenant(request(53, 1), "bob", "b-1");
  proof_request b2 = of_tenant(request(54, 1), "bob", "b-2");
  ASSERT_TRUE(e->submit(b1).ok());
  auto rb2 = e->submit(b2);
  ASSERT_FALSE(rb2.ok());
  EXPECT_EQ(rb2.error().code(), status_code::resource_exhausted);
  EXPECT_NE(rb2.error().message().find("max_queued_bytes"), std::string::npos)
      << rb2.error().message();
  proof_request too_big = request(55, 1);
  too_big.tenant = "bob";
  too_big.randomness.resize(16);
  auto rbig = e->submit(too_big);
  ASSERT_FALSE(rbig.ok());
  EXPECT_NE(rbig.error().message().find("exceed"), std::string::npos) << rbig.error().message();
  proof_request carol = request(56, 1);
  carol.tenant = "carol";
  EXPECT_TRUE(e->submit(carol).ok()) << "another tenant is not limited";

  for (const auto& t : e->status().tenants) {
    if (t.name == "alice") {
      EXPECT_EQ(t.refused, 1u);
    }
    if (t.name == "bob") {
      EXPECT_EQ(t.refused, 2u);
      EXPECT_EQ(t.queued_bytes, 10u);
    }
  }
  ASSERT_EQ(e->await("alice", r1->job_id, 60s)->state, job_state::completed);
  ASSERT_EQ(e->await("bob", "b-1", 60s)->state, job_state::completed);
  auto later = e->submit(second);
  ASSERT_TRUE(later.ok()) << later.error().to_string();
  EXPECT_TRUE(e->submit(b2).ok());
  EXPECT_EQ(e->await("alice", later->job_id, 60s)->state, job_state::completed);
  for (const auto& t : e->status().tenants) {
    if (t.name == "alice") {
      EXPECT_EQ(t.accepted, 2u);
    }
  }
}

// "a-3": built by append (GCC 12 warns wrongly of an overlapping copy on "a-" + to_string(i)).
std::string numbered(std::string prefix, int i) {
  prefix += std::to_string(i);
  return prefix;
}

// The tenants of the jobs in the order they ended (on_job_end).
struct end_order {
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>> ended;  // (tenant, job id)
  void hook(engine_config& c) {
    c.on_job_end = [this](proof_kind, const job_result& r) {
      std::lock_guard lk(mu);
      ended.emplace_back(r.tenant, r.job_id);
    };
  }
  // Where the job ended, counting from 0; ended.size() when it did not.
  size_t position(const std::string& tenant, const std::string& id) {
    std::lock_guard lk(mu);
    for (size_t i = 0; i < ended.size(); ++i)
      if (ended[i] == std::pair{tenant, id}) return i;
    return ended.size();
  }
};

// One tenant queues six jobs, then another one job, equal weights: the single job takes turns
// with the six at the next partition boundaries instead of waiting for all of them (first come,
// first served: it would end last).
TEST_F(engine_test, a_tenant_with_one_job_is_not_starved_by_one_with_many) {
  end_order order;
  engine_config c = config(1);
  order.hook(c);
  auto e = make(c);
  for (int i = 0; i < 6; ++i) {
    proof_request r = of_tenant(request(60 + i, 2, 20), "many", numbered("many-", i));
    ASSERT_TRUE(e->submit(r).ok());
  }
  proof_request b = of_tenant(request(70, 2, 20), "single", "single-0");
  ASSERT_TRUE(e->submit(b).ok());
  for (int i = 0; i < 6; ++i)
    ASSERT_EQ(e->await("many", numbered("many-", i), 60s)->state, job_state::completed);
  ASSERT_EQ(e->await("single", "single-0", 60s)->state, job_state::completed);
  EXPECT_LE(order.position("single", "single-0"), 2u) << "the single job waited behind the many";
}

// Weights 3:1: while both tenants have work queued, the synthesis worker takes three of the
// heavy tenant's tasks for each of the light one's, whoever queued first (the light one here).
TEST_F(engine_test, weights_set_each_tenants_share) {
  engine_config c = config(1);
  c.tenants["heavy"].weight = 3;
  c.tenants["light"].weight = 1;
  auto e = make(c);
  for (const char* tenant : {"light", "heavy"}) {
    for (int i = 0; i < 12; ++i) {
      proof_request r =
          of_tenant(request(100 + i, 1, 10), tenant, numbered(std::string(tenant) + "-", i));
      ASSERT_TRUE(e->submit(r).ok());
    }
  }
  for (const char* tenant : {"light", "heavy"})
    for (int i = 0; i < 12; ++i)
      ASSERT_EQ(e->await(tenant, numbered(std::string(tenant) + "-", i), 60s)->state,
                job_state::completed);
  std::vector<timeline_event> synth;
  for (const timeline_event& ev : e->timeline(0))
    if (ev.phase == "synthesis") synth.push_back(ev);
  std::sort(synth.begin(), synth.end(),
            [](const timeline_event& x, const timeline_event& y) { return x.start < y.start; });
  ASSERT_EQ(synth.size(), 24u);
  unsigned heavy = 0;
  for (size_t i = 0; i < 16; ++i) heavy += synth[i].job_id.rfind("heavy-", 0) == 0 ? 1 : 0;
  // 3:1 of 16 is 12; first come, first served would give 4 (the light tenant queued first).
  EXPECT_GE(heavy, 10u);
  EXPECT_LE(heavy, 13u);
}

// Priority holds across tenants and weights: a WinningPoSt of a tenant of weight 1 overtakes the
// PoRep jobs of a tenant of weight 8 at the next partition boundary.
TEST_F(engine_test, post_of_one_tenant_goes_before_porep_of_another) {
  end_order order;
  engine_config c = config(1);
  c.tenants["sealer"].weight = 8;
  order.hook(c);
  auto e = make(c);
  for (int i = 0; i < 3; ++i) {
    proof_request r = of_tenant(request(80 + i, 4, 30), "sealer", numbered("porep-", i));
    ASSERT_TRUE(e->submit(r).ok());
  }
  std::this_thread::sleep_for(60ms);
  proof_request post = of_tenant(request(90, 1, 0, proof_kind::winning_post), "poster", "winning");
  ASSERT_TRUE(e->submit(post).ok());
  auto pr = e->await("poster", "winning", 60s);
  ASSERT_EQ(pr->state, job_state::completed) << pr->error.to_string();
  EXPECT_TRUE(proof_verifies(pr->proof, 90, 1));
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(e->await("sealer", numbered("porep-", i), 60s)->state, job_state::completed);
  EXPECT_LE(order.position("poster", "winning"), 1u);
}

TEST_F(engine_test, results_are_dropped_after_the_retention_time) {
  engine_config c = config();
  c.result_retention = 50ms;
  auto e = make(c);
  auto r = e->submit(request(31, 1));
  ASSERT_EQ(e->await(r->job_id, 60s)->state, job_state::completed);
  std::this_thread::sleep_for(100ms);
  (void)e->status();  // prunes
  EXPECT_EQ(e->await(r->job_id, 1ms).error().code(), status_code::not_found);
}

TEST_F(engine_test, a_job_that_can_never_fit_fails_at_once) {
  engine_config c = config();
  // The parameters alone exceed the budget of the memory they go to: the host's (the CPU, or a
  // GPU whose budget sends them to host memory), and on a GPU the device's too.
  c.host_memory_budget = g_params->bytes / 2;
  if (on_gpu()) c.device_memory_budget = g_params->bytes / 2;
  auto e = make(c);
  auto r = e->submit(request(41, 1));
  ASSERT_TRUE(r.ok());
  auto res = e->await(r->job_id, 10s);
  ASSERT_EQ(res->state, job_state::failed);
  EXPECT_EQ(res->error.code(), status_code::resource_exhausted) << res->error.to_string();
}

// Parameters that do not fit a GPU's budget with the prover's working set stay in page-locked
// host memory and are streamed to the device by every proof (a 32 GiB PoRep on a 24 GB card):
// the proofs are the same valid proofs, and the parameters are charged to the host budget, not the
// device's. The choice itself is checked on any machine; the proof on a GPU run (the CPU keeps
// its parameters in host memory anyway).
TEST_F(engine_test, parameters_beyond_a_gpu_budget_are_streamed_from_host_memory) {
  // The plan (groth16::choose_gpu_plan) keeps the parameters on the device exactly while a
  // resident plan's peak fits the budget, with one lane when two do not fit, and streams them
  // otherwise (here 62 MB of parameters against a ring of 39 MB).
  const groth16::query_sizes q{2, 1023, 200000, 150000, 100000, 100000};
  groth16::gpu_plan_request req;
  req.q = q;
  req.max_lanes = 2;
  const std::vector<groth16::gpu_plan> plans = groth16::gpu_plan_candidates(req);
  ASSERT_EQ(plans[0].residency, groth16::gpu_residency::device);
  ASSERT_EQ(plans[0].lanes, 2u);
  req.device_budget = plans[0].device_peak_bytes;
  EXPECT_EQ(groth16::choose_gpu_plan(req)->lanes, 2u);
  req.device_budget = plans[0].device_peak_bytes - 1;  // a second lane's witness does not fit
  EXPECT_EQ(groth16::choose_gpu_plan(req)->lanes, 1u);
  uint64_t least_resident = UINT64_MAX;
  for (const groth16::gpu_plan& p : plans)
    if (p.residency == groth16::gpu_residency::device)
      least_resident = std::min(least_resident, p.device_peak_bytes);
  req.device_budget = least_resident - 1;
  EXPECT_EQ(groth16::choose_gpu_plan(req)->residency, groth16::gpu_residency::host);
  // A 32 GiB PoRep partition (h = 2^27 − 1, l = 130,220,387 aux): 47 GB of parameters, never
  // resident on a 24 GiB card, always on an H200's 140 GiB.
  const groth16::query_sizes porep32g{
      11, (size_t(1) << 27) - 1, 130220387, 112000000, 90000000, 90000000};
  req.q = porep32g;
  req.device_budget = uint64_t(23) << 30;
  EXPECT_EQ(groth16::choose_gpu_plan(req)->residency, groth16::gpu_residency::host);
  req.device_budget = uint64_t(139) << 30;
  EXPECT_EQ(groth16::choose_gpu_plan(req)->residency, groth16::gpu_residency::device);
  if (!on_gpu()) return;
  // A chain long enough that streaming takes less device memory than residency (its smallest
  // streamed plan 2.5 MB against 5.5 MB resident): for the 64 squarings of the other cases the
  // ring and the MSMs' fixed scratch exceed their 44 KB of parameters, and no budget below
  // residency holds a streamed plan either (the engine then refuses, rightly).
  auto chain = chain_params(g_params->dir, g_params->dir + "/chain-long.params", 1021);
  ASSERT_TRUE(chain);
  engine_config c = config();
  // Below every resident plan of these parameters, as the engine plans them (its program, its
  // lanes).
  req.q = chain->sizes;
  req.program_bytes = chain_program_bytes(chain->squarings);
  req.max_lanes = std::max(1u, c.gpu_lanes);
  uint64_t below_resident = UINT64_MAX;
  for (const groth16::gpu_plan& p : groth16::gpu_plan_candidates(req))
    if (p.residency == groth16::gpu_residency::device)
      below_resident = std::min(below_resident, p.device_peak_bytes - 1);
  c.device_memory_budget = below_resident;
  c.host_memory_budget = uint64_t(2) << 30;
  engine_parts ps;
  ps.handlers = {std::make_shared<chain_kind>(proof_kind::porep_seal_commit, priority::normal,
                                              chain->path, plan_mode::compiled, false,
                                              chain->squarings)};
  auto e = make(c, std::move(ps));
  auto r = e->submit(request(71, 1));
  ASSERT_TRUE(r.ok());
  auto res = e->await(r->job_id, 60s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_TRUE(proof_verifies(res->proof, 71, 1, *chain));
  const engine_status st = e->status();
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_TRUE(st.srs[0].in_host_memory);
  EXPECT_LT(st.device_used, chain->bytes);  // the plan at most, not the parameters
  EXPECT_GE(st.host_used, chain->bytes);
}

// synthesis.threads sizes the shared synthesis pool; pipeline.max_parallel_synthesis caps the
// automatic number of synthesis workers (an eighth of the cores, at least 2); an explicit count
// is kept as given.
TEST_F(engine_test, synthesis_pool_size_and_worker_cap) {
  engine_config c = config(0);
  c.synthesis_threads = 3;
  c.max_synthesis_workers = 1;
  auto e = make(c);
  EXPECT_EQ(e->status().synthesis_threads, 3u);
  EXPECT_EQ(e->status().synthesis_workers, 1u);
  e.reset();
  c = config(5);
  c.max_synthesis_workers = 1;
  e = make(c);
  EXPECT_EQ(e->status().synthesis_workers, 5u);
  EXPECT_GE(e->status().synthesis_threads, 1u);  // every core
  e.reset();
  c = config(0);
  e = make(c);
  EXPECT_GE(e->status().synthesis_workers, 2u);
}

// A budget with room for the parameters and a single synthesis buffer: four synthesis workers
// and twelve jobs contend for it; every one is woken in turn and completes, and the budget is
// never exceeded.
TEST_F(engine_test, waiting_jobs_wake_when_memory_frees) {
  engine_config c = config(4);
  const uint64_t one_buffer = synthesis_shape{SQUARINGS + 1, SQUARINGS + 1, 2}.bytes();
  c.host_memory_budget =
      g_params->bytes + cpu_working(*g_params) + one_buffer + one_buffer / 2 + 64 * 16;
  auto e = make(c, parts(plan_mode::none));
  std::vector<std::string> ids;
  for (uint64_t s = 0; s < 12; ++s) ids.push_back(e->submit(request(100 + s, 2, 5))->job_id);
  std::atomic<bool> done{false};
  uint64_t max_used = 0;
  std::thread watcher([&] {
    while (!done) {
      max_used = std::max(max_used, e->status().host_used);
      std::this_thread::sleep_for(1ms);
    }
  });
  for (size_t i = 0; i < ids.size(); ++i) {
    auto r = e->await(ids[i], 120s);
    EXPECT_EQ(r->state, job_state::completed) << ids[i] << ": " << r->error.to_string();
  }
  done = true;
  watcher.join();
  EXPECT_LE(max_used, c.host_memory_budget);
}

// The compiled plan: compiled once for the first job of the circuit (a "compile" event), then
// every partition of the kind is synthesized as a witness and its a, b, c are evaluated on the
// prover (abc > 0); the kind without a plan is synthesized in full on the same engine (abc = 0).
// Every proof verifies outside the engine.
TEST_F(engine_test, a_compiled_plan_is_compiled_once_and_proves_from_the_witness) {
  auto e = make(config());
  std::vector<std::pair<std::string, uint64_t>> planned, full;
  for (uint64_t s = 1; s <= 3; ++s) {
    planned.emplace_back(e->submit(request(s * 77, 2))->job_id, s * 77);
    full.emplace_back(e->submit(request(s * 79, 1, 0, proof_kind::winning_post))->job_id, s * 79);
  }
  for (const auto* list : {&planned, &full}) {
    for (const auto& [id, seed] : *list) {
      auto r = e->await(id, 60s);
      ASSERT_EQ(r->state, job_state::completed) << id << ": " << r->error.to_string();
      EXPECT_TRUE(proof_verifies(r->proof, seed, list == &planned ? 2 : 1)) << id;
      for (const partition_timings& pt : r->timings.partitions) {
        if (list == &planned) {
          EXPECT_GT(pt.abc, 0) << id;
        } else {
          EXPECT_EQ(pt.abc, 0) << id;
        }
      }
    }
  }
  unsigned compiles = 0;
  for (const auto& ev : e->timeline(0)) {
    if (ev.phase != "compile") continue;
    ++compiles;
    EXPECT_EQ(ev.kind, proof_kind::porep_seal_commit);
  }
  EXPECT_EQ(compiles, 1u);
}

// compiled_abc = false (CUZK_DISABLE_PCE=1) and a plan that fails to compile: full synthesis,
// proofs verify; a witness that does not fit its plan fails the job, never a wrong proof.
TEST_F(engine_test, without_a_usable_plan_partitions_are_synthesized_in_full) {
  for (int variant = 0; variant < 2; ++variant) {
    engine_config c = config();
    c.compiled_abc = variant != 0;
    auto e = make(c, parts(variant == 0 ? plan_mode::compiled : plan_mode::broken));
    auto r = e->await(e->submit(request(501, 2))->job_id, 60s);
    ASSERT_EQ(r->state, job_state::completed) << variant << ": " << r->error.to_string();
    EXPECT_TRUE(proof_verifies(r->proof, 501, 2));
    for (const partition_timings& pt : r->timings.partitions) EXPECT_EQ(pt.abc, 0) << variant;
    for (const auto& ev : e->timeline(0)) EXPECT_NE(ev.phase, "compile") << variant;
  }
  // Both partitions fail, the second while the first one's failure waits for it (each sleeps
  // 200 ms in synthesis on its own worker): the regression of a job that hung RUNNING because a
  // second failure did not settle it.
  auto e = make(config(), parts(plan_mode::wrong));
  auto r = e->await(e->submit(request(502, 2, 200))->job_id, 60s);
  ASSERT_EQ(r->state, job_state::failed);
  EXPECT_EQ(r->error.code(), status_code::internal) << r->error.to_string();
  EXPECT_NE(r->error.message().find("is not the compiled plan's"), std::string::npos)
      << r->error.to_string();
}

// Cancels during PREPARE while mu_ is released: the job compiling the plan (it sleeps 400 ms) and
// a second job waiting for that plan. The regression of a daemon that crashed (SIGSEGV) when the
// waiting job was settled under its own prepare, which then read its dropped input. Both end
// CANCELLED; the plan is still compiled once and a later job proves from it.
TEST_F(engine_test, a_cancel_during_prepare_settles_the_job_once_prepare_lets_go) {
  auto e = make(config());
  const std::string compiling = e->submit(request(601, 2, 400))->job_id;
  std::this_thread::sleep_for(100ms);  // the first job is compiling the plan
  const std::string waiting = e->submit(request(602, 2, 400))->job_id;
  std::this_thread::sleep_for(100ms);  // the second waits for it on the other worker
  ASSERT_TRUE(*e->cancel(waiting, "test"));
  ASSERT_TRUE(*e->cancel(compiling, "test"));
  for (const std::string& id : {waiting, compiling}) {
    auto r = e->await(id, 60s);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_EQ(r->state, job_state::cancelled) << id << ": " << r->error.to_string();
  }
  auto r = e->await(e->submit(request(603, 2))->job_id, 60s);
  ASSERT_EQ(r->state, job_state::completed) << r->error.to_string();
  EXPECT_TRUE(proof_verifies(r->proof, 603, 2));
  unsigned compiles = 0;
  for (const auto& ev : e->timeline(0)) compiles += ev.phase == "compile";
  EXPECT_EQ(compiles, 1u);
}

TEST_F(engine_test, self_verification_failure_retries_then_names_the_partition) {
  auto e = make(config());
  auto r = e->submit(request(51, 3, 0, proof_kind::porep_seal_commit, /*corrupt=*/1));
  auto res = e->await(r->job_id, 60s);
  ASSERT_EQ(res->state, job_state::failed);
  EXPECT_NE(res->error.message().find("partition 1"), std::string::npos) << res->error.to_string();
  EXPECT_NE(res->error.message().find("self-verification"), std::string::npos);
  EXPECT_EQ(res->timings.partitions[1].attempts, 2u);
}

// A kind that names its input (prepared_proof::inconsistent_input, as every built-in kind does)
// has a partition whose synthesized public inputs are not the verifier's refused at synthesis,
// before any proof: once, naming the partition and the input.
TEST_F(engine_test, public_inputs_are_checked_before_the_proof) {
  engine_parts ps;
  ps.handlers = {std::make_shared<chain_kind>(proof_kind::porep_seal_commit, priority::normal,
                                              g_params->path, plan_mode::compiled, true)};
  auto e = make(config(), std::move(ps));
  auto r = e->submit(request(52, 3, 0, proof_kind::porep_seal_commit, /*corrupt=*/1));
  auto res = e->await(r->job_id, 60s);
  ASSERT_EQ(res->state, job_state::failed);
  const std::string& m = res->error.message();
  EXPECT_NE(m.find("partition 1"), std::string::npos) << m;
  EXPECT_NE(m.find("public inputs differ from the derived ones: the chain's seed is inconsistent"),
            std::string::npos)
      << m;
  EXPECT_EQ(res->timings.partitions[1].attempts, 1u);
  EXPECT_EQ(m.find("self-verification"), std::string::npos) << m;
}

// srs.param_checks reaches the parameter load: each mode loads the file with its point checks
// (the curve equation only by default; batched or full subgroup checks on request) and proves.
TEST_F(engine_test, parameter_point_checks_follow_the_config) {
  using checks = engine_config::param_checks;
  const std::pair<checks, groth16::point_checks> modes[] = {
      {checks::on_curve, groth16::point_checks::on_curve_only},
      {checks::batched, groth16::point_checks::batched},
      {checks::full, groth16::point_checks::full}};
  EXPECT_EQ(engine_config{}.params_checks, checks::on_curve);
  for (const auto& [mode, want] : modes) {
    auto seen = std::make_shared<std::vector<groth16::point_checks>>();
    engine_parts ps = parts();
    ps.make_backend = [seen](const groth16::params_file& f, groth16::point_checks c, int d,
                             filecoin::proofs::srs_residency where, thread_pool& pool,
                             const log_sink& log, const progress_fn& progress) {
      seen->push_back(c);
      return filecoin::proofs::make_prover_backend(f, c, d, pool, log, progress, where);
    };
    engine_config cfg = config();
    cfg.params_checks = mode;
    auto e = make(cfg, std::move(ps));
    auto r = e->submit(request(71, 1));
    auto res = e->await(r->job_id, 60s);
    ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
    ASSERT_FALSE(seen->empty());
    for (groth16::point_checks c : *seen) EXPECT_EQ(c, want);
  }
}

// A prover that fails once: on the CPU the job fails with the partition and worker named; on a
// GPU the partition is retried once and succeeds. The engine keeps serving either way.
TEST_F(engine_test, a_prover_error_fails_the_job_not_the_engine) {
  struct failing_backend final : filecoin::proofs::prover_backend {
    explicit failing_backend(std::unique_ptr<filecoin::proofs::prover_backend> b)
        : inner(std::move(b)) {}
    const std::string& name() const override { return inner->name(); }
    const groth16::verifying_key& vk() const override { return inner->vk(); }
    uint64_t host_bytes() const override { return inner->host_bytes(); }
    uint64_t device_bytes() const override { return 0; }
    result<groth16::proof_parts> start(const groth16::assignment& asg, thread_pool& pool,
                                       groth16::prover_timings* t) override {
      if (calls++ == 0) return status(status_code::internal, "injected device fault");
      return inner->start(asg, pool, t);
    }
    std::unique_ptr<filecoin::proofs::prover_backend> inner;
    int calls = 0;
  };
  engine_parts ps = parts();
  ps.make_backend =
      [](const groth16::params_file& f, groth16::point_checks c, int d,
         filecoin::proofs::srs_residency where, thread_pool& pool, const log_sink& log,
         const progress_fn& progress) -> result<std::unique_ptr<filecoin::proofs::prover_backend>> {
    auto b = filecoin::proofs::make_prover_backend(f, c, d, pool, log, progress, where);
    if (!b) return b.error();
    return std::unique_ptr<filecoin::proofs::prover_backend>(new failing_backend(std::move(*b)));
  };
  auto e = make(config(), std::move(ps));
  auto bad = e->submit(request(61, 1));
  auto res = e->await(bad->job_id, 60s);
  if (on_gpu()) {
    // A GPU error is retried once (re-synthesized): the second attempt succeeds.
    ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
    EXPECT_EQ(res->timings.partitions[0].attempts, 2u);
    EXPECT_TRUE(proof_verifies(res->proof, 61, 1));
  } else {
    ASSERT_EQ(res->state, job_state::failed);
    EXPECT_NE(res->error.message().find("partition 0 on cpu"), std::string::npos)
        << res->error.to_string();
    EXPECT_NE(res->error.message().find("injected device fault"), std::string::npos);
  }
  auto good = e->submit(request(62, 1));
  EXPECT_EQ(e->await(good->job_id, 60s)->state, job_state::completed);
}

// A prover that always fails. A GPU failing twice in a row is taken out of rotation and the CPU
// takes over: the job still completes, on "cpu". A CPU worker is never taken out of rotation:
// every job fails, naming the fault, and the engine stays up.
TEST_F(engine_test, a_prover_that_keeps_failing) {
  struct broken_backend final : filecoin::proofs::prover_backend {
    explicit broken_backend(std::unique_ptr<filecoin::proofs::prover_backend> b)
        : inner(std::move(b)) {}
    const std::string& name() const override { return inner->name(); }
    const groth16::verifying_key& vk() const override { return inner->vk(); }
    uint64_t host_bytes() const override { return inner->host_bytes(); }
    uint64_t device_bytes() const override { return inner->device_bytes(); }
    result<groth16::proof_parts> start(const groth16::assignment&, thread_pool&,
                                       groth16::prover_timings*) override {
      return status(status_code::internal, "injected persistent fault");
    }
    std::unique_ptr<filecoin::proofs::prover_backend> inner;
  };
  engine_parts ps = parts();
  // Only the configured worker kind breaks: GPUs on a GPU run, the CPU on a CPU run.
  ps.make_backend =
      [](const groth16::params_file& f, groth16::point_checks c, int d,
         filecoin::proofs::srs_residency where, thread_pool& pool, const log_sink& log,
         const progress_fn& progress) -> result<std::unique_ptr<filecoin::proofs::prover_backend>> {
    auto b = filecoin::proofs::make_prover_backend(f, c, d, pool, log, progress, where);
    if (!b) return b.error();
    if (on_gpu() && d < 0) return b;
    return std::unique_ptr<filecoin::proofs::prover_backend>(new broken_backend(std::move(*b)));
  };
  auto e = make(config(), std::move(ps));
  if (on_gpu()) {
    auto r = e->submit(request(63, 2));
    auto res = e->await(r->job_id, 120s);
    ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
    EXPECT_TRUE(proof_verifies(res->proof, 63, 2));
    const engine_status st = e->status();
    ASSERT_EQ(st.workers.size(), 2u);
    EXPECT_FALSE(st.workers[0].healthy);  // gpu 0, out of rotation
    EXPECT_EQ(st.workers[1].name, "cpu");
    EXPECT_TRUE(st.workers[1].healthy);
  } else {
    for (uint64_t s = 0; s < 3; ++s) {
      auto r = e->submit(request(64 + s, 1));
      auto res = e->await(r->job_id, 60s);
      ASSERT_EQ(res->state, job_state::failed);
      EXPECT_NE(res->error.message().find("injected persistent fault"), std::string::npos);
    }
    EXPECT_TRUE(e->status().workers.at(0).healthy);
  }
}

// 200 jobs of 1-3 partitions, a third of them cancelled at random moments from another thread:
// every accepted job ends COMPLETED (with a verifying proof), FAILED with a reason, or CANCELLED.
TEST_F(engine_test, two_hundred_jobs_with_random_cancels_lose_none) {
  auto rng = test::test_rng::from_env("engine_random_cancels");
  auto e = make(config(2));
  struct sub {
    std::string id;
    uint64_t seed;
    unsigned partitions;
  };
  std::vector<sub> subs;
  for (uint64_t i = 0; i < 200; ++i) {
    const unsigned parts = 1 + unsigned(rng() % 3);
    auto r = e->submit(request(5000 + i, parts, unsigned(rng() % 3)));
    ASSERT_TRUE(r.ok());
    subs.push_back({r->job_id, 5000 + i, parts});
  }
  std::vector<size_t> to_cancel;
  for (size_t i = 0; i < subs.size(); ++i)
    if (rng() % 3 == 0) to_cancel.push_back(i);
  const uint64_t delay_seed = rng();
  std::thread canceller([&] {
    uint64_t x = delay_seed;
    for (size_t i : to_cancel) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      std::this_thread::sleep_for(std::chrono::microseconds((x >> 33) % 3000));
      EXPECT_TRUE(e->cancel(subs[i].id).ok());
    }
  });
  canceller.join();
  unsigned completed = 0, cancelled = 0;
  for (const sub& s : subs) {
    auto r = e->await(s.id, 300s);
    ASSERT_TRUE(r.ok());
    switch (r->state) {
      case job_state::completed:
        ++completed;
        EXPECT_TRUE(proof_verifies(r->proof, s.seed, s.partitions)) << s.id;
        break;
      case job_state::cancelled:
        ++cancelled;
        break;
      case job_state::failed:
        ADD_FAILURE() << s.id << " failed: " << r->error.to_string();
        break;
      default:
        ADD_FAILURE() << s.id << " never ended: " << to_string(r->state);
    }
  }
  EXPECT_EQ(completed + cancelled, 200u);
  EXPECT_LE(cancelled, to_cancel.size());
  const engine_status st = e->status();
  EXPECT_EQ(st.completed, completed);
  EXPECT_EQ(st.cancelled, cancelled);
  for (const auto& q : st.queues) EXPECT_EQ(q.pending + q.in_progress, 0u);
  std::fprintf(stderr, "[engine] 200 jobs: %u completed, %u cancelled\n", completed, cancelled);
}

TEST_F(engine_test, preload_and_evict) {
  auto e = make(config());
  auto p = e->preload("chain");
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  EXPECT_TRUE(*p);
  EXPECT_FALSE(*e->preload("chain"));
  EXPECT_EQ(e->status().srs.size(), 1u);
  // A preload is one "load" event of no job, labelled with a kind that uses the circuit.
  size_t loads = 0;
  for (const auto& ev : e->timeline(0)) {
    if (ev.phase != "load") continue;
    ++loads;
    EXPECT_TRUE(ev.job_id.empty());
    EXPECT_EQ(ev.kind, proof_kind::porep_seal_commit);
    EXPECT_EQ(ev.circuit_id, "chain");
  }
  EXPECT_EQ(loads, 1u);
  auto freed = e->evict("chain");
  ASSERT_TRUE(freed.ok());
  EXPECT_GE(*freed, g_params->bytes);
  EXPECT_TRUE(e->status().srs.empty());
  EXPECT_EQ(*e->evict("chain"), 0u);
  EXPECT_EQ(e->preload("porep-99g").error().code(), status_code::not_found);
  EXPECT_EQ(e->evict("nope").error().code(), status_code::not_found);
}

// Parameters no job uses are evicted for another circuit only after eviction_min_idle, except for
// an express job (a PoSt with its deadline), which evicts them at once. Here the host budget
// holds one of two parameter files (one_of_two_circuits_fits) and the idle time is an hour: a
// WinningPoSt after a PoRep job proves at once; a PoRep job after it waits.
TEST_F(engine_test, an_express_job_evicts_idle_parameters_at_once) {
  auto [c, ps] = one_of_two_circuits_fits();
  c.eviction_min_idle = std::chrono::hours(1);
  auto e = make(c, std::move(ps));
  auto porep = e->submit(request(170, 2));
  ASSERT_TRUE(porep.ok()) << porep.error().to_string();
  auto res = e->await(porep->job_id, 60s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  auto winning = e->submit(request(171, 1, 0, proof_kind::winning_post));
  ASSERT_TRUE(winning.ok()) << winning.error().to_string();
  res = e->await(winning->job_id, 30s);
  ASSERT_TRUE(res.ok()) << res.error().to_string();
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_TRUE(proof_verifies(res->proof, 171, 1));
  // The PoRep job's parameters went; now the WinningPoSt's are the idle ones, kept for an hour.
  auto again = e->submit(request(172, 2));
  ASSERT_TRUE(again.ok()) << again.error().to_string();
  res = e->await(again->job_id, 2s);
  ASSERT_TRUE(res.ok()) << res.error().to_string();
  EXPECT_TRUE(res->state == job_state::queued || res->state == job_state::running)
      << "a PoRep job evicted recently used parameters: " << to_string(res->state);
  // It waits for memory until the hour is up: cancelled, it ends.
  ASSERT_TRUE(e->cancel(again->job_id, "test over").ok());
  res = e->await(again->job_id, 30s);
  ASSERT_TRUE(res.ok()) << res.error().to_string();
  EXPECT_EQ(res->state, job_state::cancelled);
}

// While a PoSt waits for the memory PoRep parameters in use hold, no further PoRep job pins them:
// the host budget holds one of two parameter files; a WinningPoSt (the other file) arrives while
// a PoRep job proves, then a second PoRep job. The WinningPoSt loads when the first job ends and
// proves before any partition of the second (which would otherwise pin the PoRep parameters at
// its prepare and keep the WinningPoSt waiting for it too: a stream of PoRep jobs, forever).
TEST_F(engine_test, a_post_waiting_for_memory_holds_back_new_jobs) {
  auto [c, ps] = one_of_two_circuits_fits();
  auto e = make(c, std::move(ps));
  auto first = e->submit(request(175, 6, 150));
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  const auto proving = [&](const std::string& id) {
    for (const timeline_event& ev : e->timeline(0))
      if (ev.job_id == id && ev.phase == "synthesis") return true;
    return false;
  };
  for (int i = 0; i < 5000 && !proving(first->job_id); ++i) std::this_thread::sleep_for(1ms);
  ASSERT_TRUE(proving(first->job_id)) << "the first PoRep job never started";
  auto winning = e->submit(request(176, 1, 0, proof_kind::winning_post));
  ASSERT_TRUE(winning.ok()) << winning.error().to_string();
  std::this_thread::sleep_for(100ms);  // its PREPARE waits for memory now
  auto next = e->submit(request(177, 2));
  ASSERT_TRUE(next.ok()) << next.error().to_string();
  for (const auto& [id, seed, partitions] :
       {std::tuple{first->job_id, 175, 6}, std::tuple{winning->job_id, 176, 1},
        std::tuple{next->job_id, 177, 2}}) {
    auto res = e->await(id, 60s);
    ASSERT_TRUE(res.ok()) << res.error().to_string();
    ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
    EXPECT_TRUE(proof_verifies(res->proof, uint64_t(seed), unsigned(partitions)));
  }
  double winning_end = 0, next_start = 1e300;
  for (const timeline_event& ev : e->timeline(0)) {
    if (ev.phase != "prove") continue;
    if (ev.job_id == winning->job_id) winning_end = std::max(winning_end, ev.end);
    if (ev.job_id == next->job_id) next_start = std::min(next_start, ev.start);
  }
  EXPECT_LE(winning_end, next_start) << "the second PoRep job proved before the WinningPoSt";
}

// The first job of a circuit loads its parameters: a "load" event on the prover worker's lane,
// before the job's first prove, with the circuit and its bytes; the second job finds them
// resident and has none. The load's progress ends at its total.
TEST_F(engine_test, a_parameter_load_is_a_timeline_event_of_the_first_job_only) {
  auto e = make(config());
  auto first = e->submit(request(71, 2));
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  ASSERT_EQ(e->await(first->job_id, 60s)->state, job_state::completed);
  auto second = e->submit(request(72, 2));
  ASSERT_TRUE(second.ok()) << second.error().to_string();
  ASSERT_EQ(e->await(second->job_id, 60s)->state, job_state::completed);

  const auto events = e->timeline(0);
  std::vector<timeline_event> loads;
  double first_prove = 1e18;
  for (const auto& ev : events) {
    if (ev.phase == "load") loads.push_back(ev);
    if (ev.phase == "prove" && ev.job_id == first->job_id)
      first_prove = std::min(first_prove, ev.start);
  }
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0].job_id, first->job_id);
  EXPECT_EQ(loads[0].lane, worker_name());
  EXPECT_EQ(loads[0].partition, -1);
  EXPECT_EQ(loads[0].circuit_id, "chain");
  EXPECT_EQ(loads[0].bytes, g_params->bytes);
  EXPECT_LE(loads[0].start, loads[0].end);
  EXPECT_LE(loads[0].end, first_prove);

  const engine_status st = e->status();
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_FALSE(st.srs[0].loading);
  EXPECT_EQ(st.srs[0].load_total_bytes, g_params->bytes);
  EXPECT_EQ(st.srs[0].loaded_bytes, g_params->bytes);
  EXPECT_NEAR(st.srs[0].load_started, loads[0].start, 1e-3);
}

TEST_F(engine_test, bad_requests_are_refused_before_queueing) {
  auto e = make(config());
  proof_request r = request(1, 1);
  r.kind = proof_kind::snap_deals_update;  // no handler for it in this engine
  EXPECT_EQ(e->submit(r).error().code(), status_code::invalid_argument);
  r = request(1, 1);
  r.vanilla_proof.clear();
  EXPECT_EQ(e->submit(r).error().code(), status_code::invalid_argument);
}

TEST_F(engine_test, shutdown_drains_then_refuses) {
  auto e = make(config());
  std::vector<std::string> ids;
  for (uint64_t s = 0; s < 3; ++s) ids.push_back(e->submit(request(70 + s, 2, 10))->job_id);
  e->shutdown();
  for (const auto& id : ids) EXPECT_EQ(e->await(id, 0ms)->state, job_state::completed) << id;
  EXPECT_EQ(e->submit(request(80, 1)).error().code(), status_code::unavailable);
}

TEST_F(engine_test, a_missing_parameter_file_fails_the_job_with_its_path) {
  engine_parts ps;
  ps.handlers = {std::make_shared<chain_kind>(proof_kind::porep_seal_commit, priority::normal,
                                              g_params->dir + "/missing.params")};
  auto e = make(config(), std::move(ps));
  auto r = e->submit(request(90, 1));
  auto res = e->await(r->job_id, 30s);
  ASSERT_EQ(res->state, job_state::failed);
  EXPECT_NE(res->error.message().find("missing.params"), std::string::npos)
      << res->error.to_string();
}

// ---- several devices --------------------------------------------------------------------
//
// Two GPU workers, "gpu 0" and "gpu 1", listed through engine_parts::list_devices. On the GPU run
// (CUZK_ENGINE_TEST_WORKER=gpu) both are GPU 0 for real: two workers, each with its own parameter
// copy and streams, on one device. Elsewhere each is a CPU prover behind a GPU worker: the
// engine's N-device paths (spreading, per-device parameters, failover) run in CI too.

// Per simulated device: a delay before each proof, faults to inject, and the loads seen.
struct device_faults {
  std::array<std::atomic<int>, 2> start_sleep_ms{};
  std::array<std::atomic<bool>, 2> start_fails{};
  std::array<std::atomic<bool>, 2> load_fails{};
  std::array<std::atomic<int>, 2> loads{};
  // When set, every load waits (up to 10 s) until both devices are loading at once.
  std::atomic<bool> loads_meet{false};
  std::atomic<int> loading{0};
  std::atomic<bool> met{false};
  // Proofs in start() at once on the device, and the most seen.
  std::array<std::atomic<int>, 2> proving{}, most_proving{};
  // When not 0: what the device's backend reports holding (device_bytes), for budget cases.
  std::array<std::atomic<uint64_t>, 2> device_bytes{};
  // Proofs that still run out of device memory (resource_exhausted, as cuda_status says it).
  std::array<std::atomic<int>, 2> start_oom{};
  // How often the engine set the device's memory knobs (set_memory_knobs: at the load and at
  // each step down of its plan).
  std::array<std::atomic<int>, 2> knob_sets{};
};

struct device_backend final : filecoin::proofs::prover_backend {
  device_backend(std::unique_ptr<filecoin::proofs::prover_backend> b, int d, device_faults& f)
      : inner(std::move(b)), device(d), faults(f) {}
  const std::string& name() const override { return inner->name(); }
  const groth16::verifying_key& vk() const override { return inner->vk(); }
  uint64_t host_bytes() const override { return inner->host_bytes(); }
  uint64_t device_bytes() const override {
    const uint64_t simulated = faults.device_bytes[device];
    return simulated ? simulated : inner->device_bytes();
  }
  result<groth16::proof_parts> start(const groth16::assignment& asg, thread_pool& pool,
                                     groth16::prover_timings* t) override {
    const int now = ++faults.proving[device];
    for (int most = faults.most_proving[device]; now > most;)
      if (faults.most_proving[device].compare_exchange_weak(most, now)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(faults.start_sleep_ms[device].load()));
    --faults.proving[device];
    if (faults.start_fails[device]) return status(status_code::internal, "injected device fault");
    if (faults.start_oom[device].fetch_sub(1) > 0) {
      return status(status_code::resource_exhausted,
                    "groth16::cuda::start: out of device memory: injected");
    }
    return inner->start(asg, pool, t);
  }
  status set_memory_knobs(const groth16::gpu_memory_knobs& k) override {
    ++faults.knob_sets[device];
    return inner->set_memory_knobs(k);
  }
  std::unique_ptr<filecoin::proofs::prover_backend> inner;
  int device;
  device_faults& faults;
};

class two_devices_test : public engine_test {
 protected:
  static engine_config two_device_config() {
    engine_config c = config();
    c.disable_gpus = false;
    c.gpu_devices.clear();  // every device listed
    return c;
  }
  engine_parts two_device_parts(engine_parts ps = parts()) {
    ps.list_devices = [] {
      const uint64_t bytes = uint64_t(8) << 30;
      return std::vector<filecoin::proofs::gpu_device_t>{{0, "simulated A", bytes, ""},
                                                         {1, "simulated B", bytes, ""}};
    };
    device_faults* f = &faults_;
    ps.make_backend = [f](const groth16::params_file& file, groth16::point_checks c, int d,
                          filecoin::proofs::srs_residency where, thread_pool& pool,
                          const log_sink& log, const progress_fn& progress)
        -> result<std::unique_ptr<filecoin::proofs::prover_backend>> {
      if (d < 0)
        return filecoin::proofs::make_prover_backend(file, c, -1, pool, log, progress, where);
      if (d > 1) return status(status_code::internal, "test: unexpected device");
      ++f->loads[d];
      if (f->loads_meet) {
        ++f->loading;
        for (int i = 0; i < 1000 && f->loading.load() < 2; ++i) std::this_thread::sleep_for(10ms);
        if (f->loading.load() >= 2) f->met = true;
      }
      if (f->load_fails[d]) return status(status_code::internal, "injected upload failure");
      auto b = filecoin::proofs::make_prover_backend(file, c, on_gpu() ? 0 : -1, pool, log,
                                                     progress, where);
      if (!b) return b.error();
      return std::unique_ptr<filecoin::proofs::prover_backend>(
          new device_backend(std::move(*b), d, *f));
    };
    return ps;
  }
  static std::set<std::string> workers_of(const job_result& r) {
    std::set<std::string> names;
    for (const auto& p : r.timings.partitions) names.insert(p.worker);
    return names;
  }
  device_faults faults_;
};

// One job's partitions go to both devices; each device holds its own parameters.
TEST_F(two_devices_test, the_partitions_of_one_job_spread_over_both) {
  faults_.start_sleep_ms[0] = faults_.start_sleep_ms[1] = 100;
  auto e = make(two_device_config(), two_device_parts());
  auto r = e->submit(request(101, 6));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  auto res = e->await(r->job_id, 120s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_TRUE(proof_verifies(res->proof, 101, 6));
  EXPECT_EQ(workers_of(*res), (std::set<std::string>{"gpu 0", "gpu 1"}));
  const engine_status st = e->status();
  ASSERT_EQ(st.workers.size(), 2u);
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(st.workers[d].name, "gpu " + std::to_string(d));
    EXPECT_EQ(st.workers[d].device, d);
    EXPECT_TRUE(st.workers[d].healthy);
    EXPECT_GT(st.workers[d].busy_seconds, 0);
    EXPECT_EQ(faults_.loads[d], 1);
  }
  std::set<std::string> holders;
  for (const auto& s : st.srs) holders.insert(s.worker);
  EXPECT_EQ(holders, (std::set<std::string>{"gpu 0", "gpu 1"}));
}

// The parameters load on both devices at once, not one after the other.
TEST_F(two_devices_test, parameters_load_on_both_devices_at_once) {
  faults_.loads_meet = true;
  auto e = make(two_device_config(), two_device_parts());
  auto r = e->submit(request(102, 2));
  ASSERT_EQ(e->await(r->job_id, 120s)->state, job_state::completed);
  EXPECT_TRUE(faults_.met) << "the second load began only after the first ended";
}

// preload() loads on both devices at once too; a second preload finds them resident.
TEST_F(two_devices_test, preload_loads_both_devices_at_once) {
  faults_.loads_meet = true;
  auto e = make(two_device_config(), two_device_parts());
  auto first = e->preload("chain");
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  EXPECT_TRUE(*first);
  EXPECT_TRUE(faults_.met) << "the second load began only after the first ended";
  EXPECT_FALSE(*e->preload("chain"));
  EXPECT_EQ(e->status().srs.size(), 2u);
  EXPECT_EQ(faults_.loads[0], 1);
  EXPECT_EQ(faults_.loads[1], 1);
}

// A device whose proofs keep failing leaves the rotation; its partitions are retried on the
// other device, which finishes every job; no CPU worker is added while a GPU is left.
TEST_F(two_devices_test, a_failing_device_leaves_the_rotation_and_the_other_proves) {
  faults_.start_sleep_ms[0] = 100;
  faults_.start_fails[1] = true;
  auto e = make(two_device_config(), two_device_parts());
  for (uint64_t s = 0; s < 4 && e->status().workers.at(1).healthy; ++s) {
    auto r = e->submit(request(110 + s, 4));
    auto res = e->await(r->job_id, 120s);
    ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
    EXPECT_TRUE(proof_verifies(res->proof, 110 + s, 4));
    EXPECT_EQ(workers_of(*res), std::set<std::string>{"gpu 0"});
  }
  const engine_status st = e->status();
  ASSERT_EQ(st.workers.size(), 2u);
  EXPECT_TRUE(st.workers[0].healthy);
  EXPECT_FALSE(st.workers[1].healthy);
  auto r = e->submit(request(120, 3));
  auto res = e->await(r->job_id, 120s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_EQ(workers_of(*res), std::set<std::string>{"gpu 0"});
}

// A device whose parameter upload fails is left out of the job, which completes on the other;
// the second failure in a row takes it out of the rotation, and no load is tried on it again.
TEST_F(two_devices_test, a_device_that_cannot_load_is_left_out_not_the_job) {
  faults_.load_fails[1] = true;
  auto e = make(two_device_config(), two_device_parts());
  for (uint64_t s = 0; s < 3; ++s) {
    auto r = e->submit(request(130 + s, 3));
    auto res = e->await(r->job_id, 120s);
    ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
    EXPECT_TRUE(proof_verifies(res->proof, 130 + s, 3));
    EXPECT_EQ(workers_of(*res), std::set<std::string>{"gpu 0"});
    // Parameters stay resident on gpu 0 between jobs: the failed uploads are the only new loads.
    EXPECT_EQ(e->status().workers.at(1).healthy, s == 0) << "after job " << s;
  }
  EXPECT_EQ(faults_.loads[0], 1);
  EXPECT_EQ(faults_.loads[1], 2);
}

// When every device fails to load, the input is blamed, not the devices: the job fails with the
// reason and both stay in rotation.
TEST_F(two_devices_test, a_load_failing_everywhere_fails_the_job_and_blames_no_device) {
  faults_.load_fails[0] = faults_.load_fails[1] = true;
  auto e = make(two_device_config(), two_device_parts());
  for (uint64_t s = 0; s < 3; ++s) {
    auto r = e->submit(request(140 + s, 2));
    auto res = e->await(r->job_id, 60s);
    ASSERT_EQ(res->state, job_state::failed);
    EXPECT_NE(res->error.message().find("injected upload failure"), std::string::npos)
        << res->error.to_string();
  }
  const engine_status st = e->status();
  ASSERT_EQ(st.workers.size(), 2u);
  EXPECT_TRUE(st.workers[0].healthy);
  EXPECT_TRUE(st.workers[1].healthy);
}

// ---- prover lanes ------------------------------------------------------------------------

class lanes_test : public two_devices_test {
 protected:
  // GPU 0 alone with `lanes` lanes.
  static engine_config one_device_config(unsigned lanes) {
    engine_config c = two_device_config();
    c.gpu_devices = {0};
    c.gpu_lanes = lanes;
    return c;
  }
  // Proves a 6-partition job and checks it; returns the timeline's prove lanes.
  std::set<std::string> prove_one_job(proving_engine& e, uint64_t seed) {
    auto r = e.submit(request(seed, 6));
    EXPECT_TRUE(r.ok()) << r.error().to_string();
    if (!r.ok()) return {};
    auto res = e.await(r->job_id, 120s);
    EXPECT_EQ(res->state, job_state::completed) << res->error.to_string();
    EXPECT_TRUE(proof_verifies(res->proof, seed, 6));
    EXPECT_EQ(workers_of(*res), std::set<std::string>{"gpu 0"});
    std::set<std::string> lanes;
    for (const timeline_event& ev : e.timeline(0))
      if (ev.phase == "prove") lanes.insert(ev.lane);
    return lanes;
  }
};

// Two lanes prove two partitions of one device at once, each on its own timeline lane; the
// device counts as busy while either proves (not the sum of both).
TEST_F(lanes_test, two_lanes_prove_side_by_side_on_one_device) {
  faults_.start_sleep_ms[0] = 150;
  auto e = make(one_device_config(2), two_device_parts());
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(prove_one_job(*e, 150), (std::set<std::string>{"gpu 0", "gpu 0.1"}));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(faults_.most_proving[0], 2);
  const engine_status st = e->status();
  ASSERT_EQ(st.workers.size(), 1u);
  const worker_status& w = st.workers[0];
  ASSERT_EQ(w.lanes.size(), 3u);
  EXPECT_EQ(w.lanes[0].name, "gpu 0");
  EXPECT_EQ(w.lanes[1].name, "gpu 0.1");
  EXPECT_EQ(w.lanes[2].name, "gpu 0.express");  // engine_config::express_lane, on by default
  for (const lane_status& l : w.lanes) {
    EXPECT_EQ(l.current_job, "");
    EXPECT_EQ(l.partition, -1);
  }
  EXPECT_EQ(w.current_job, "");
  // Six proofs of ≥ 150 ms each: 0.9 s summed, at most the wall time as busy.
  EXPECT_GT(w.busy_seconds, 0.45);
  EXPECT_LE(w.busy_seconds, wall);
}

// One lane: one partition at a time, one timeline lane.
TEST_F(lanes_test, one_lane_proves_one_partition_at_a_time) {
  faults_.start_sleep_ms[0] = 50;
  auto e = make(one_device_config(1), two_device_parts());
  EXPECT_EQ(prove_one_job(*e, 151), std::set<std::string>{"gpu 0"});
  EXPECT_EQ(faults_.most_proving[0], 1);
  EXPECT_EQ(e->status().workers.at(0).lanes.size(), 2u);  // and the express lane
}

// A second lane starts only when the device's budget holds what is charged there, one working set
// (the plan's proof peak and NTT tables) and the other lane's witness: one byte short, the lanes
// take turns.
TEST_F(lanes_test, a_second_lane_waits_when_the_budget_lacks_room_for_its_witness) {
  const uint64_t budget = uint64_t(4) << 30;
  // The plan's proof peak and NTT tables (groth16::choose_gpu_plan at this budget: resident, two
  // lanes, the default knobs).
  const uint64_t working = groth16::gpu_proof_bytes(g_params->sizes, groth16::gpu_residency::device,
                                                    true, groth16::gpu_memory_knobs{})
                               .peak() +
                           groth16::gpu_ntt_table_bytes(g_params->sizes);
  // The chain's witness is ≈ 65 elements of 32 bytes: 1 MiB holds it many times over.
  for (const uint64_t room : {uint64_t(1), uint64_t(1) << 20}) {
    faults_.most_proving[0] = 0;
    faults_.start_sleep_ms[0] = 100;
    faults_.device_bytes[0] = budget - working - room;
    engine_config c = one_device_config(2);
    c.device_memory_budget = budget;
    auto e = make(c, two_device_parts());
    prove_one_job(*e, 152 + room);
    EXPECT_EQ(faults_.most_proving[0], room == 1 ? 1 : 2) << "room " << room;
  }
}

// Partitions without a compiled plan (full synthesis: a, b, c uploaded from the host) prove one
// at a time whatever the lanes.
TEST_F(lanes_test, fully_synthesized_partitions_take_turns) {
  faults_.start_sleep_ms[0] = 50;
  engine_parts ps = two_device_parts();
  ps.handlers = parts(plan_mode::none).handlers;
  auto e = make(one_device_config(2), std::move(ps));
  auto r = e->submit(request(153, 6));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  auto res = e->await(r->job_id, 120s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_EQ(faults_.most_proving[0], 1);
}

// ---- the express lane (engine_config::express_lane) ----------------------------------------

// The prove events of job `id` in the timeline.
static std::vector<timeline_event> prove_events(proving_engine& e, const std::string& id) {
  std::vector<timeline_event> out;
  for (const timeline_event& ev : e.timeline(0))
    if (ev.phase == "prove" && ev.job_id == id) out.push_back(ev);
  return out;
}

// Whether [a.start, a.end) and [b.start, b.end) meet.
static bool overlap(const timeline_event& a, const timeline_event& b) {
  return a.start < b.end && b.start < a.end;
}

// A WinningPoSt submitted while both lanes prove PoRep partitions does not wait for them: the
// express lane proves it beside them (three proofs on the device at once), and it finishes while
// the PoRep job still has partitions to prove. The express lane never takes a PoRep partition.
TEST_F(lanes_test, the_express_lane_proves_post_beside_busy_porep_lanes) {
  faults_.start_sleep_ms[0] = 600;
  auto e = make(one_device_config(2), two_device_parts());
  auto porep = e->submit(request(160, 8));
  ASSERT_TRUE(porep.ok()) << porep.error().to_string();
  for (int i = 0; i < 3000 && faults_.proving[0].load() < 2; ++i) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(faults_.proving[0].load(), 2) << "the PoRep lanes never both proved";
  auto winning = e->submit(request(161, 1, 0, proof_kind::winning_post));
  ASSERT_TRUE(winning.ok()) << winning.error().to_string();
  auto won = e->await(winning->job_id, 60s);
  ASSERT_EQ(won->state, job_state::completed) << won->error.to_string();
  EXPECT_TRUE(proof_verifies(won->proof, 161, 1));
  const engine_status mid = e->status();
  EXPECT_TRUE(std::any_of(mid.jobs.begin(), mid.jobs.end(), [&](const job_summary& j) {
    return j.job_id == porep->job_id;
  })) << "the WinningPoSt waited for the whole PoRep job";
  auto res = e->await(porep->job_id, 120s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_TRUE(proof_verifies(res->proof, 160, 8));
  EXPECT_EQ(faults_.most_proving[0], 3);
  const auto winning_proves = prove_events(*e, winning->job_id);
  ASSERT_EQ(winning_proves.size(), 1u);
  EXPECT_EQ(winning_proves[0].lane, "gpu 0.express");
  for (const timeline_event& ev : prove_events(*e, porep->job_id))
    EXPECT_NE(ev.lane, "gpu 0.express") << "partition " << ev.partition;
}

// An express proof starts beside the other lanes only where the device budget holds its
// working set beside theirs: one byte short of one more working set, the WinningPoSt waits
// until no PoRep partition proves, and its proof meets none of theirs on the timeline. As it fits
// beside the parameters but not beside the regular lanes' peak (a 32 GiB WindowPoSt beside PoRep
// on an 80 GB card), the regular lanes pause from its prepare on: while it synthesizes (600 ms
// here, two PoRep partitions' time) no PoRep partition starts, so it proves as soon as it is
// ready, and the PoRep job goes on after it.
TEST_F(lanes_test, the_express_lane_waits_when_the_budget_lacks_room_beside_the_lanes) {
  const uint64_t budget = uint64_t(4) << 30;
  const uint64_t working = groth16::gpu_proof_bytes(g_params->sizes, groth16::gpu_residency::device,
                                                    true, groth16::gpu_memory_knobs{})
                               .peak() +
                           groth16::gpu_ntt_table_bytes(g_params->sizes);
  faults_.start_sleep_ms[0] = 300;
  faults_.device_bytes[0] = budget - 2 * working + 1;
  engine_config c = one_device_config(2);
  c.device_memory_budget = budget;
  auto e = make(c, two_device_parts());
  auto porep = e->submit(request(164, 12));
  ASSERT_TRUE(porep.ok()) << porep.error().to_string();
  for (int i = 0; i < 3000 && faults_.proving[0].load() < 1; ++i) std::this_thread::sleep_for(1ms);
  auto winning = e->submit(request(165, 1, 600, proof_kind::winning_post));
  ASSERT_TRUE(winning.ok()) << winning.error().to_string();
  auto won = e->await(winning->job_id, 60s);
  ASSERT_EQ(won->state, job_state::completed) << won->error.to_string();
  EXPECT_TRUE(proof_verifies(won->proof, 165, 1));
  auto res = e->await(porep->job_id, 120s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_TRUE(proof_verifies(res->proof, 164, 12));
  const auto winning_proves = prove_events(*e, winning->job_id);
  ASSERT_EQ(winning_proves.size(), 1u);
  double synthesis_start = -1;
  for (const timeline_event& ev : e->timeline(0))
    if (ev.phase == "synthesis" && ev.job_id == winning->job_id) synthesis_start = ev.start;
  ASSERT_GE(synthesis_start, 0) << "no synthesis event of the WinningPoSt";
  size_t after = 0;
  for (const timeline_event& ev : prove_events(*e, porep->job_id)) {
    EXPECT_FALSE(overlap(ev, winning_proves[0])) << "partition " << ev.partition;
    EXPECT_FALSE(ev.start > synthesis_start && ev.start < winning_proves[0].start)
        << "PoRep partition " << ev.partition << " started while the WinningPoSt synthesized";
    after += ev.start >= winning_proves[0].end;
  }
  EXPECT_GE(after, 2u) << "the WinningPoSt waited for the PoRep job";
}

// With express_lane off the worker has its regular lanes only, and a WinningPoSt waits for the
// PoRep partitions in flight (the behaviour before the express lane).
TEST_F(lanes_test, without_the_express_lane_post_takes_turns_with_porep) {
  faults_.start_sleep_ms[0] = 300;
  engine_config c = one_device_config(2);
  c.express_lane = false;
  auto e = make(c, two_device_parts());
  auto porep = e->submit(request(164, 4));
  ASSERT_TRUE(porep.ok()) << porep.error().to_string();
  for (int i = 0; i < 3000 && faults_.proving[0].load() < 2; ++i) std::this_thread::sleep_for(1ms);
  auto winning = e->submit(request(165, 1, 0, proof_kind::winning_post));
  ASSERT_TRUE(winning.ok()) << winning.error().to_string();
  ASSERT_EQ(e->await(winning->job_id, 60s)->state, job_state::completed);
  ASSERT_EQ(e->await(porep->job_id, 120s)->state, job_state::completed);
  EXPECT_EQ(faults_.most_proving[0], 2);
  EXPECT_EQ(e->status().workers.at(0).lanes.size(), 2u);
  const auto winning_proves = prove_events(*e, winning->job_id);
  ASSERT_EQ(winning_proves.size(), 1u);
  for (const timeline_event& ev : prove_events(*e, porep->job_id))
    EXPECT_FALSE(overlap(ev, winning_proves[0])) << "partition " << ev.partition;
}

// Lanes of one device failing at once take it out of rotation once (the third failure finds it
// out already; one CPU fallback worker); the job completes on the CPU.
TEST_F(lanes_test, lanes_failing_together_take_their_device_out_once) {
  faults_.start_sleep_ms[0] = 200;
  faults_.start_fails[0] = true;
  engine_config c = one_device_config(3);
  std::mutex log_mu;
  int taken_out = 0;
  c.log = [&](log_level, std::string_view m) {
    std::lock_guard g(log_mu);
    if (m.find("taken out of rotation") != std::string_view::npos) ++taken_out;
  };
  auto e = make(c, two_device_parts());
  auto r = e->submit(request(154, 6));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  auto res = e->await(r->job_id, 120s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_TRUE(proof_verifies(res->proof, 154, 6));
  EXPECT_EQ(faults_.most_proving[0], 3) << "the three lanes did not fail together";
  const engine_status st = e->status();
  ASSERT_EQ(st.workers.size(), 2u);
  EXPECT_FALSE(st.workers[0].healthy);
  EXPECT_EQ(st.workers[1].name, "cpu");
  std::lock_guard g(log_mu);
  EXPECT_EQ(taken_out, 1);
}

// Out of device memory is a plan too large, not a device fault: the partition is proved again on
// the same GPU with the next smaller plan (here: one lane; this circuit's MSMs are too small for
// smaller knobs to shrink its peak), which stays in rotation; no CPU fallback.
TEST_F(lanes_test, out_of_device_memory_steps_the_plan_down_on_the_same_gpu) {
  faults_.start_oom[0] = 1;
  faults_.start_sleep_ms[0] = 20;
  auto e = make(one_device_config(2), two_device_parts());
  prove_one_job(*e, 156);
  const engine_status st = e->status();
  ASSERT_EQ(st.workers.size(), 1u);
  EXPECT_TRUE(st.workers[0].healthy);
  EXPECT_EQ(faults_.knob_sets[0], 2);  // the load's plan, then the one-lane plan
  // One lane from then on: the next job's partitions prove one at a time.
  faults_.most_proving[0] = 0;
  prove_one_job(*e, 160);
  EXPECT_EQ(faults_.most_proving[0], 1);
}

// With no smaller plan left the job fails in-band saying so; the device stays in rotation and
// proves the next job.
TEST_F(lanes_test, out_of_device_memory_with_no_smaller_plan_fails_the_job_not_the_gpu) {
  faults_.start_oom[0] = 1000;
  auto e = make(one_device_config(2), two_device_parts());
  auto r = e->submit(request(157, 2));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  auto res = e->await(r->job_id, 120s);
  ASSERT_EQ(res->state, job_state::failed);
  EXPECT_EQ(res->error.code(), status_code::resource_exhausted) << res->error.to_string();
  EXPECT_NE(res->error.message().find("no smaller plan"), std::string::npos)
      << res->error.to_string();
  const engine_status st = e->status();
  ASSERT_EQ(st.workers.size(), 1u);
  EXPECT_TRUE(st.workers[0].healthy);
  faults_.start_oom[0] = 0;
  auto r2 = e->submit(request(158, 2));
  auto res2 = e->await(r2->job_id, 120s);
  ASSERT_EQ(res2->state, job_state::completed) << res2->error.to_string();
  EXPECT_TRUE(proof_verifies(res2->proof, 158, 2));
}

// gpus.cpu_fallback: with no GPU left in rotation the CPU proves only circuits whose parameters
// are within cpu_fallback_max_param_bytes; others fail in-band, naming the key.
// A load makes room for its whole plan, not only its parameters: two circuits whose parameters
// fit the device's budget together, but not beside the working set of either, never reside
// together (idle, the other is evicted). Before, both stayed and the second's first proof ran
// its working set beside both parameter sets: out of device memory on a real card (a 32 GiB
// WindowPoSt beside resident PoRep parameters on an 80 GB H100).
TEST_F(lanes_test, a_load_makes_room_for_its_working_set_beside_resident_circuits) {
  engine_config c = one_device_config(1);
  c.device_memory_budget = one_circuit_device_budget(1);
  ASSERT_LE(2 * g_params->bytes, c.device_memory_budget) << "the parameters alone fit together";
  // Each circuit's parameters are what the device holds of it while idle (all but ic).
  faults_.device_bytes[0] =
      groth16::gpu_parameter_bytes(g_params->sizes, groth16::gpu_residency::device);
  auto e = make(c, two_device_parts(two_circuit_parts()));
  const std::pair<uint64_t, proof_kind> jobs[] = {{190, proof_kind::porep_seal_commit},
                                                  {191, proof_kind::winning_post},
                                                  {192, proof_kind::porep_seal_commit}};
  for (const auto& [seed, kind] : jobs) {
    SCOPED_TRACE(seed);
    auto r = e->submit(request(seed, 2, 0, kind));
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    auto res = e->await(r->job_id, 60s);
    ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
    EXPECT_TRUE(proof_verifies(res->proof, seed, 2));
    const engine_status st = e->status();
    EXPECT_EQ(st.srs.size(), 1u) << "both circuits resident beside one's working set";
    EXPECT_LE(st.device_used, c.device_memory_budget);
  }
  size_t loads = 0;
  for (const timeline_event& ev : e->timeline(0)) loads += ev.phase == "load";
  EXPECT_EQ(loads, 3u);
}

// A preload (srs.preload at start, PreloadSRS) that does not fit beside the parameters resident
// on the device is refused at once: it neither waits for them to idle out (the daemon's preload
// thread, and its shutdown, would wait eviction_min_idle) nor evicts a circuit loaded before it.
TEST_F(lanes_test, a_preload_that_does_not_fit_beside_resident_circuits_is_refused_at_once) {
  engine_config c = one_device_config(1);
  c.device_memory_budget = one_circuit_device_budget(1);
  c.eviction_min_idle = 2s;
  faults_.device_bytes[0] =
      groth16::gpu_parameter_bytes(g_params->sizes, groth16::gpu_residency::device);
  auto e = make(c, two_device_parts(two_circuit_parts()));
  auto first = e->preload("chain");
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  const auto t0 = std::chrono::steady_clock::now();
  auto second = e->preload("chain-post");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code(), status_code::resource_exhausted) << second.error().to_string();
  EXPECT_NE(second.error().message().find("chain-post"), std::string::npos)
      << second.error().to_string();
  const engine_status st = e->status();
  ASSERT_EQ(st.srs.size(), 1u);
  EXPECT_EQ(st.srs[0].circuit_id, "chain");
  // A job of the other circuit still gets it (the first idles out and goes).
  auto r = e->submit(request(200, 1, 0, proof_kind::winning_post));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  auto res = e->await(r->job_id, 60s);
  ASSERT_EQ(res->state, job_state::completed) << res->error.to_string();
  EXPECT_TRUE(proof_verifies(res->proof, 200, 1));
}

TEST_F(lanes_test, the_cpu_fallback_refuses_circuits_beyond_its_limit) {
  faults_.start_fails[0] = true;
  engine_config c = one_device_config(1);
  c.cpu_fallback_max_param_bytes = g_params->bytes - 1;
  auto e = make(c, two_device_parts());
  auto r = e->submit(request(159, 4));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  auto res = e->await(r->job_id, 120s);
  ASSERT_EQ(res->state, job_state::failed);
  EXPECT_EQ(res->error.code(), status_code::unavailable) << res->error.to_string();
  EXPECT_NE(res->error.message().find("gpus.cpu_fallback"), std::string::npos)
      << res->error.to_string();
  const engine_status st = e->status();
  ASSERT_EQ(st.workers.size(), 2u);
  EXPECT_FALSE(st.workers[0].healthy);
  EXPECT_EQ(st.workers[1].name, "cpu");
}

// A GPU this binary has no device code for (gpu_device_t::unsupported) is left out when the
// engine takes every device, saying why, and refused at start when the configuration names it.
TEST_F(two_devices_test, a_gpu_the_binary_cannot_run_is_left_out_or_refused) {
  engine_parts ps = two_device_parts();
  ps.list_devices = [] {
    const uint64_t bytes = uint64_t(8) << 30;
    return std::vector<filecoin::proofs::gpu_device_t>{
        {0, "simulated A", bytes, ""},
        {1, "simulated old card", bytes, "GPU 1 (simulated old card) is sm_70: not built"}};
  };
  engine_config c = two_device_config();
  std::mutex log_mu;
  std::string errors;
  c.log = [&](log_level l, std::string_view m) {
    std::lock_guard g(log_mu);
    if (l == log_level::error) errors += std::string(m) + "\n";
  };
  {
    auto e = make(c, ps);
    ASSERT_TRUE(e);
    const engine_status st = e->status();
    ASSERT_EQ(st.workers.size(), 1u);
    EXPECT_EQ(st.workers[0].name, "gpu 0");
    std::lock_guard g(log_mu);
    EXPECT_NE(errors.find("GPU 1 left out: GPU 1 (simulated old card) is sm_70"), std::string::npos)
        << errors;
  }
  c.gpu_devices = {1};
  auto refused = create_engine(c, ps);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code(), status_code::invalid_argument);
  EXPECT_NE(refused.error().message().find("sm_70"), std::string::npos);
}

TEST_F(two_devices_test, a_device_listed_twice_is_refused) {
  engine_config c = two_device_config();
  c.gpu_devices = {1, 0, 1};
  auto e = create_engine(c, two_device_parts());
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code(), status_code::invalid_argument);
  EXPECT_NE(e.error().message().find("GPU 1 is listed twice"), std::string::npos);
  c.gpu_devices = {2};
  EXPECT_EQ(create_engine(c, two_device_parts()).error().code(), status_code::invalid_argument);
}

}  // namespace
}  // namespace cuzk::engine
