// SPDX-License-Identifier: Apache-2.0
// The steps PoRep and PoSt proving share (prove_steps.hpp).
#include "filecoin/proofs/prove_steps.hpp"

#include <filesystem>

#include <atomic>
#include <cstdint>
#include <optional>

#include "groth16/params_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/prover_cpu.hpp"

namespace cuzk::filecoin::proofs::steps {

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

uint64_t next_pow2(uint64_t n) {
  uint64_t m = 1;
  while (m < n) m <<= 1;
  return m;
}

void add(groth16::prover_timings& acc, const groth16::prover_timings& t) {
  acc.upload += t.upload;
  acc.abc += t.abc;
  acc.ntt_a += t.ntt_a;
  acc.ntt_b += t.ntt_b;
  acc.ntt_c += t.ntt_c;
  acc.h_compute += t.h_compute;
  acc.split += t.split;
  acc.msm_h += t.msm_h;
  acc.msm_l += t.msm_l;
  acc.msm_a += t.msm_a;
  acc.msm_b_g1 += t.msm_b_g1;
  acc.msm_b_g2 += t.msm_b_g2;
  acc.start += t.start;
  acc.epilogue += t.epilogue;
  acc.total += t.total;
}

namespace {

result<groth16::toxic_waste> toxic_waste_of(const std::optional<std::vector<uint8_t>>& seed) {
  if (seed) return groth16::toxic_waste::from_seed(*seed);
  return groth16::toxic_waste::random();
}

status write_params_and_vk(const groth16::parameters& params, thread_pool& pool,
                           generated_params_t& out) {
  const auto t0 = clock_type::now();
  if (status s = groth16::write_params(params, out.params_path, pool); !s) return s;
  if (status s = groth16::write_vk(params.vk, out.vk_path); !s) return s;
  out.write_s = seconds_since(t0);
  return status();
}

}  // namespace

status setup_and_write(const std::function<void(groth16::qap_cs&)>& synthesize, size_t constraints,
                       size_t inputs, size_t aux, const std::optional<std::vector<uint8_t>>& seed,
                       thread_pool& pool, const groth16::progress_fn& progress,
                       generated_params_t& out, int gpu_device) {
  auto backend = make_setup_backend(gpu_device, pool);
  if (!backend) return backend.error();
  const std::string dir = std::filesystem::path(out.params_path).parent_path().string();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) return status(status_code::io_error, "cannot create " + dir + ": " + ec.message());
  out.rows = constraints + inputs;
  out.domain_size = next_pow2(out.rows);
  auto tw = toxic_waste_of(seed);
  if (!tw) return tw.error();
  const auto t_setup = clock_type::now();
  auto lagrange = groth16::lagrange_at_tau(out.domain_size, tw->tau, pool, progress);
  if (!lagrange) return lagrange.error();
  groth16::qap_cs cs(std::move(*lagrange));
  cs.reserve(inputs, aux);
  auto t0 = clock_type::now();
  if (progress) progress("synthesis", 0, constraints);  // one pass, no finer grain to report
  synthesize(cs);
  out.synth_s = seconds_since(t0);
  if (progress) progress("synthesis", cs.num_constraints(), constraints);
  out.inputs = cs.num_inputs();
  out.aux = cs.num_aux();
  if (cs.num_constraints() != constraints || cs.num_inputs() != inputs) {
    return status(status_code::size_mismatch,
                  "the blank circuit has " + std::to_string(cs.num_constraints()) +
                      " constraints and " + std::to_string(cs.num_inputs()) +
                      " inputs, its counts say " + std::to_string(constraints) + " and " +
                      std::to_string(inputs));
  }
  if (progress) progress("evaluate", out.inputs + out.aux, out.inputs + out.aux);
  auto q = std::move(cs).take(tw->tau);
  if (!q) return q.error();
  auto params = groth16::generate_parameters(std::move(*q), out.inputs, out.aux, *tw, pool,
                                             progress, backend->get());
  *tw = {};
  if (!params) return params.error();
  out.setup_s = seconds_since(t_setup) - out.synth_s;
  return write_params_and_vk(*params, pool, out);
}

status check_param_digests(const std::string& params_path, const std::string& vk_path,
                           const std::vector<param_fact_t>& facts,
                           std::vector<digest_check_t>& out) {
  for (const std::string& path : {params_path, vk_path}) {
    auto c = check_param_file(path, facts);
    if (!c) return c.error();
    out.push_back(*c);
    if (c->verdict == digest_verdict::mismatch) {
      return status(status_code::bad_encoding, path + ": BLAKE2b-512 digest " + c->actual +
                                                   "… differs from " + c->expected +
                                                   " (parameters.json): corrupt or foreign file");
    }
    if (c->verdict == digest_verdict::unknown) {
      return status(status_code::invalid_argument,
                    path + ": not in parameters.json, its digest cannot be checked");
    }
  }
  return status();
}

result<std::unique_ptr<prover_backend>> open_backend(const std::string& params_path,
                                                     const groth16::assignment& asg, size_t rows,
                                                     const prove_options_t& opt,
                                                     thread_pool& pool) {
  auto file = groth16::params_file::open(params_path);
  if (!file) return status(file.error().code(), params_path + ": " + file.error().message());
  const auto shape = groth16::shape_of(asg, next_pow2(rows));
  if (status s = file->validate_against(shape); !s) {
    return status(s.code(), params_path + " does not fit the circuit: " + s.message());
  }
  srs_residency residency = srs_residency::device;
  std::optional<groth16::gpu_plan> plan;
  if (opt.gpu_device >= 0) {
    // One proof at a time, a, b, c from the host (the CLI's path): the plan that fits the budget.
    groth16::gpu_plan_request req;
    req.q = file->sizes();
    req.device_budget =
        opt.gpu_memory_budget ? opt.gpu_memory_budget : gpu_free_bytes(opt.gpu_device);
    req.max_lanes = 1;
    req.witness_on_device = false;
    auto chosen = groth16::choose_gpu_plan(req);
    if (chosen) {
      plan = *chosen;
      residency = chosen->residency == groth16::gpu_residency::host ? srs_residency::host
                                                                    : srs_residency::device;
    } else if (req.device_budget != 0) {  // 0: no device here (the backend falls back, saying so)
      return status(chosen.error().code(), params_path + ": " + chosen.error().message());
    }
  }
  auto b = make_prover_backend(*file, opt.params_checks, opt.gpu_device, pool, opt.log,
                               opt.params_progress, residency);
  if (!b) return status(b.error().code(), params_path + ": " + b.error().message());
  if (plan) (*b)->set_memory_knobs(plan->knobs);
  return std::move(*b);
}

status self_check_failure(const std::string& part, const groth16::assignment& asg,
                          const std::string& params_path, const prove_options_t& opt,
                          thread_pool& pool, const std::string& witness_blame) {
  std::atomic<uint64_t> bad_row{UINT64_MAX};
  pool.parallel_range(asg.num_rows(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      if (asg.a[i] * asg.b[i] != asg.c[i]) {
        uint64_t cur = bad_row.load();
        while (i < cur && !bad_row.compare_exchange_weak(cur, i)) {
        }
        return;
      }
    }
  });
  if (const uint64_t row = bad_row.load(); row != UINT64_MAX) {
    return status(status_code::invalid_argument,
                  part + "proof self-verification failed: " + witness_blame + " (constraint row " +
                      std::to_string(row) + ": a·b ≠ c)");
  }
  const std::string blame = part +
                            "proof self-verification failed although the witness satisfies every "
                            "constraint: the parameters " +
                            params_path + " are suspect";
  using enum groth16::point_checks;
  if (opt.params_checks == on_curve_only || opt.params_checks == none) {
    auto file = groth16::params_file::open(params_path);
    if (!file) return status(status_code::invalid_argument, blame + ": " + file.error().message());
    if (status s = file->check_points(batched, pool); !s) {
      return status(status_code::invalid_argument, blame + ": " + s.message());
    }
  }
  return status(status_code::invalid_argument,
                blame +
                    " (a point on the curve and in the subgroup but not of this circuit's "
                    "setup, or another setup's file: compare their digests with `cuzk params "
                    "check`)");
}

result<groth16::proof> prove_one(prover_backend& backend, const groth16::assignment& asg,
                                 thread_pool& pool, groth16::prover_timings* timings) {
  auto r = groth16::os_random_fr();
  if (!r) return r.error();
  auto s = groth16::os_random_fr();
  if (!s) return s.error();
  auto parts = backend.start(asg, pool, timings);
  if (!parts) return parts.error();
  auto pf = groth16::finalize(backend.vk(), *parts, *r, *s, timings);
  if (timings) timings->total = timings->start + timings->epilogue;
  return pf;
}

}  // namespace cuzk::filecoin::proofs::steps
