// SPDX-License-Identifier: Apache-2.0
// The backend factory (prover_backend.hpp): the one file of the proof API that is compiled
// differently with CUDA (CUZK_WITH_CUDA), so no caller branches on the build.
#include "filecoin/proofs/prover_backend.hpp"

#include <chrono>
#include <utility>
#include <vector>

#include "base/huge_pages.hpp"
#include "groth16/prover_cpu.hpp"
#include "r1cs/proving_cs.hpp"
#if defined(CUZK_WITH_CUDA)
#include "gpu/host_registration.hpp"
#include "gpu/runtime.hpp"
#include "groth16/prover_gpu.hpp"
#include "groth16/setup_gpu.hpp"
#endif

namespace cuzk::filecoin::proofs {
namespace {

// a, b, c buffers a backend evaluates a plan's rows into on the host, kept for the next proof
// (huge pages, zeroed by the kernel once): the CPU prover's, and a GPU's whose plan evaluates
// a, b, c on the host (gpu_memory_knobs::abc_on_device false).
struct host_abc {
  r1cs::proving_cs::fr_vector a, b, c;
  static uint64_t bytes_for(const r1cs::abc_plan& plan) {
    return 3 * uint64_t(plan.num_rows()) * sizeof(ff::fr_t);
  }
  uint64_t bytes() const { return 3 * a.capacity() * sizeof(ff::fr_t); }
  void size_for(const r1cs::abc_plan& plan) {
    for (auto* v : {&a, &b, &c}) {
      *v = r1cs::proving_cs::fr_vector();
      reserve_huge(*v, plan.num_rows());
      v->resize(plan.num_rows());
    }
  }
  void release() {
    for (auto* v : {&a, &b, &c}) *v = r1cs::proving_cs::fr_vector();
  }
};

class cpu_backend final : public prover_backend {
 public:
  explicit cpu_backend(groth16::parameters params) : params_(std::move(params)) {}
  const std::string& name() const override { return name_; }
  const groth16::verifying_key& vk() const override { return params_.vk; }
  uint64_t device_bytes() const override { return 0; }
  result<groth16::proof_parts> start(const groth16::assignment& asg, thread_pool& pool,
                                     groth16::prover_timings* timings) override {
    return groth16::start(params_, asg, pool, timings);
  }
  uint64_t host_bytes() const override {
    return groth16::query_bytes(params_.sizes()) + abc_.bytes();
  }
  plan_memory plan_memory_of(const r1cs::abc_plan& plan) const override {
    return {host_abc::bytes_for(plan), 0};
  }
  status ready_plan(const r1cs::abc_plan& plan) override {
    abc_.size_for(plan);
    return status();
  }
  result<groth16::proof_parts> start_from_plan(const groth16::assignment& witness,
                                               const r1cs::abc_plan& plan, thread_pool& pool,
                                               groth16::prover_timings* timings) override {
    return start_evaluated(witness, plan, abc_.a, abc_.b, abc_.c, pool, timings);
  }

 private:
  const groth16::parameters params_;
  const std::string name_ = "cpu";
  host_abc abc_;  // sized for the ready plan
};

#if defined(CUZK_WITH_CUDA)
class gpu_backend final : public prover_backend {
 public:
  gpu_backend(std::unique_ptr<groth16::cuda::device_parameters> dp, int ordinal)
      : dp_(std::move(dp)), name_("gpu " + std::to_string(ordinal)) {}
  const std::string& name() const override { return name_; }
  const groth16::verifying_key& vk() const override { return dp_->vk(); }
  uint64_t host_bytes() const override {
    return uint64_t(dp_->vk().ic.size()) * sizeof(ec::g1_affine_t) + dp_->host_bytes() +
           abc_.bytes();
  }
  result<groth16::proof_parts> start(const groth16::assignment& asg, thread_pool& pool,
                                     groth16::prover_timings* timings) override {
    return groth16::cuda::start(*dp_, asg, pool, timings);
  }
  // The plan's program on the device, or (abc_on_device false) a, b, c buffers on the host.
  plan_memory plan_memory_of(const r1cs::abc_plan& plan) const override {
    if (!abc_on_device_) return {host_abc::bytes_for(plan), 0};
    return {0, plan.size().bytes};
  }
  status ready_plan(const r1cs::abc_plan& plan) override {
    program_.reset();
    abc_.release();
    if (!abc_on_device_) {
      abc_.size_for(plan);
      return status();
    }
    auto p = groth16::cuda::device_abc_program::upload(plan, dp_->context());
    if (!p) return status(p.error().code(), "uploading the a, b, c plan: " + p.error().message());
    program_ = std::move(*p);
    return status();
  }
  // a, b, c on the device from the uploaded plan (the host hands over the witness only), or on
  // the host into the kept buffers and uploaded.
  result<groth16::proof_parts> start_from_plan(const groth16::assignment& witness,
                                               const r1cs::abc_plan& plan, thread_pool& pool,
                                               groth16::prover_timings* timings) override {
    if (!program_) return start_evaluated(witness, plan, abc_.a, abc_.b, abc_.c, pool, timings);
    return groth16::cuda::start(*dp_, *program_, witness, pool, timings);
  }
  uint64_t device_bytes() const override {
    return dp_->bytes() + (program_ ? program_->device_bytes() : 0);
  }
  // Where a, b, c are evaluated takes effect at the next prepare_plan.
  status set_memory_knobs(const groth16::gpu_memory_knobs& k) override {
    abc_on_device_ = k.abc_on_device;
    return dp_->set_memory_knobs(k);
  }
  result<std::unique_ptr<host_pin>> pin_host(const void* data, size_t bytes) override {
    struct registered final : host_pin {
      std::unique_ptr<gpu::host_registration> reg;
    };
    const gpu::device_scope scope(dp_->device());  // the driver's context of this backend's GPU
    auto reg = gpu::host_registration::make(data, bytes);
    if (!reg) return reg.error();
    auto pin = std::make_unique<registered>();
    pin->reg = std::move(*reg);
    return std::unique_ptr<host_pin>(std::move(pin));
  }

 private:
  std::unique_ptr<groth16::cuda::device_parameters> dp_;
  std::unique_ptr<groth16::cuda::device_abc_program> program_;  // of the ready plan
  host_abc abc_;                                                // or its a, b, c on the host
  bool abc_on_device_ = true;
  const std::string name_;
};
#endif

}  // namespace

result<std::unique_ptr<host_pin>> prover_backend::pin_host(const void*, size_t) {
  return std::unique_ptr<host_pin>();
}

prover_backend::plan_memory prover_backend::plan_memory_of(const r1cs::abc_plan&) const {
  return {};
}

status prover_backend::prepare_plan(const std::shared_ptr<const r1cs::abc_plan>& plan) {
  ready_.reset();
  if (status s = ready_plan(*plan); !s) return s;
  ready_ = plan;
  return status();
}

result<groth16::proof_parts> prover_backend::start_witness(
    const groth16::assignment& witness, const std::shared_ptr<const r1cs::abc_plan>& plan,
    thread_pool& pool, groth16::prover_timings* timings) {
  if (plan != ready_) {
    if (status s = prepare_plan(plan); !s) return s;
  }
  return start_from_plan(witness, *plan, pool, timings);
}

status prover_backend::ready_plan(const r1cs::abc_plan&) {
  return status();
}

result<groth16::proof_parts> prover_backend::start_from_plan(const groth16::assignment& witness,
                                                             const r1cs::abc_plan& plan,
                                                             thread_pool& pool,
                                                             groth16::prover_timings* timings) {
  const size_t rows = plan.num_rows();
  std::vector<ff::fr_t> a(rows), b(rows), c(rows);
  return start_evaluated(witness, plan, a, b, c, pool, timings);
}

result<groth16::proof_parts> prover_backend::start_evaluated(
    const groth16::assignment& witness, const r1cs::abc_plan& plan, std::span<ff::fr_t> a,
    std::span<ff::fr_t> b, std::span<ff::fr_t> c, thread_pool& pool,
    groth16::prover_timings* timings) {
  const auto t0 = std::chrono::steady_clock::now();
  if (status s = plan.evaluate(witness.inputs, witness.aux, a, b, c, pool); !s) return s;
  groth16::assignment asg = witness;
  asg.a = a;
  asg.b = b;
  asg.c = c;
  const double abc_ms = groth16::ms_since(t0);
  auto parts = start(asg, pool, timings);
  if (timings) timings->abc = abc_ms;
  return parts;
}

uint64_t gpu_free_bytes(int device) {
#if defined(CUZK_WITH_CUDA)
  if (auto m = groth16::cuda::memory_info(device)) return m->first;
#else
  (void)device;
#endif
  return 0;
}

std::vector<gpu_device_t> list_gpus() {
  std::vector<gpu_device_t> out;
#if defined(CUZK_WITH_CUDA)
  for (const gpu::device_info& d : gpu::list_devices()) {
    const status runs = gpu::check_device_supported(d.ordinal);
    out.push_back({d.ordinal, d.name, uint64_t(d.total_memory_bytes),
                   runs.code() == status_code::invalid_argument ? runs.message() : std::string()});
  }
#endif
  return out;
}

status check_backend_request(int gpu_device) {
#if !defined(CUZK_WITH_CUDA)
  if (gpu_device >= 0) {
    return status(status_code::invalid_argument,
                  "gpu_device " + std::to_string(gpu_device) +
                      ": this build has no CUDA support (configure with CUDA for the GPU prover)");
  }
#else
  (void)gpu_device;
#endif
  return status();
}

result<std::unique_ptr<prover_backend>> make_prover_backend(
    const groth16::params_file& file, groth16::point_checks checks, int gpu_device,
    thread_pool& pool, const log_sink& log, const progress_fn& progress, srs_residency residency) {
  if (status s = check_backend_request(gpu_device); !s) return s;
#if defined(CUZK_WITH_CUDA)
  if (gpu_device >= 0) {
    if (gpu::list_devices().empty()) {
      logf(log, log_level::warn,
           "GPU %d requested but this machine has no CUDA device (or no driver): proving on the "
           "CPU",
           gpu_device);
    } else {
      using groth16::cuda::device_parameters;
      const bool on_host = residency == srs_residency::host;
      auto dp = on_host ? device_parameters::host_resident(file, checks, gpu_device, pool, progress)
                        : device_parameters::stream_from(file, checks, gpu_device, pool, progress);
      const std::string where = (on_host ? "the parameters in host memory for GPU "
                                         : "streaming the parameters to GPU ") +
                                std::to_string(gpu_device);
      if (!dp) return status(dp.error().code(), where + ": " + dp.error().message());
      if (on_host) {
        // No ring size here: the engine's plan sets it next (set_memory_knobs; its log line
        // gives ring_bytes), and the default this backend starts with would mislead (a 16 GiB
        // card's 1 GiB ring was logged as 3.22 GB).
        logf(log, log_level::info,
             "proving on GPU %d with %.2f GB of parameters in page-locked host memory, streamed "
             "to the device through a ring during every proof",
             gpu_device, double((*dp)->host_bytes()) / 1e9);
      } else {
        logf(log, log_level::info, "proving on GPU %d (%.2f GB of parameters resident)", gpu_device,
             double((*dp)->bytes()) / 1e9);
      }
      return std::unique_ptr<prover_backend>(new gpu_backend(std::move(*dp), gpu_device));
    }
  }
#else
  (void)residency;
#endif
  auto params = file.load_all(checks, pool, progress);
  if (!params) return params.error();
  logf(log, log_level::debug, "proving on the CPU");
  return std::unique_ptr<prover_backend>(new cpu_backend(std::move(*params)));
}

result<std::unique_ptr<groth16::fixed_base_backend>> make_setup_backend(int gpu_device,
                                                                        thread_pool& pool) {
  if (gpu_device < 0) return std::unique_ptr<groth16::fixed_base_backend>();
  if (status s = check_backend_request(gpu_device); !s) return s;
#if defined(CUZK_WITH_CUDA)
  return groth16::cuda::make_fixed_base_backend(gpu_device, pool);
#else
  (void)pool;
  return status(status_code::internal, "unreachable: check_backend_request refused the GPU");
#endif
}

}  // namespace cuzk::filecoin::proofs
