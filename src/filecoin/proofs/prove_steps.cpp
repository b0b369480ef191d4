// SPDX-License-Identifier: Apache-2.0
// The steps the proof kinds share around the proof (prove_steps.hpp).
#include "filecoin/proofs/prove_steps.hpp"

#include <filesystem>

#include <atomic>
#include <cstdint>
#include <optional>

#include "filecoin/proofs/prover_backend.hpp"
#include "groth16/params_io.hpp"

namespace cuzk::filecoin::proofs::steps {

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

uint64_t next_pow2(uint64_t n) {
  uint64_t m = 1;
  while (m < n) m <<= 1;
  return m;
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

std::optional<uint64_t> first_unsatisfied_row(std::span<const ff::fr_t> a,
                                              std::span<const ff::fr_t> b,
                                              std::span<const ff::fr_t> c, thread_pool& pool,
                                              uint64_t first_row) {
  std::atomic<uint64_t> bad_row{UINT64_MAX};
  pool.parallel_range(a.size(), [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) {
      if (a[i] * b[i] != c[i]) {
        uint64_t cur = bad_row.load();
        while (i < cur && !bad_row.compare_exchange_weak(cur, i)) {
        }
        return;
      }
    }
  });
  const uint64_t row = bad_row.load();
  if (row == UINT64_MAX) return std::nullopt;
  return first_row + row;
}

status self_check_blame(const std::string& part, std::optional<uint64_t> bad_row,
                        const std::string& witness_blame, const std::string& params_path,
                        const std::string& params_detail) {
  if (bad_row) {
    return status(status_code::invalid_argument,
                  part + "proof self-verification failed: " + witness_blame + " (constraint row " +
                      std::to_string(*bad_row) + ": a·b ≠ c)");
  }
  return status(status_code::invalid_argument,
                part +
                    "proof self-verification failed although the witness satisfies every "
                    "constraint: the parameters " +
                    params_path + " are suspect" + params_detail);
}

}  // namespace cuzk::filecoin::proofs::steps
