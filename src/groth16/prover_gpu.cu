// SPDX-License-Identifier: Apache-2.0
// GPU Groth16 prover (prover_gpu.hpp). The order of work in start():
//   1. h: a, b, c zero-padded to m on the device; iFFT (n→r) and coset FFT (r→n) each, exactly
//      prover_cpu's orders; one kernel a_i ← (a_i·b_i − c_i)·Z^-1 (Z = g^m − 1); inverse coset
//      FFT (n→n); the first m − 1 coefficients are the H scalars, used in place.
//   2. H = MSM(h_query, h) straight from the device array.
//   3. L, A, B1, B2 over aux with the 0/1 split of msm::split_witness (the same split as the CPU):
//      the ones bitmap goes to the bitmap batch addition, the "other" indices gather their bases
//      into a scratch array for Pippenger, zeros cost nothing. Inputs (a few) are a plain MSM
//      (A: dense; B: compacted over b_input_density).
// Every CUDA call throws gpu_error (CUZK_CUDA_OK); the public functions catch it and return a
// status naming the call. Device memory lives in RAII buffers, so an error leaks nothing.
#include "groth16/prover_gpu.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "ff/mont_device.cuh"
#include "gpu/device_memory.cuh"
#include "msm/msm_cpu.hpp"
#include "msm/msm_gpu.hpp"
#include "ntt/domain.hpp"
#include "ntt/ntt_gpu.hpp"

namespace cuzk::groth16::gpu {

using cuzk::gpu::cuda_event;
using cuzk::gpu::device_buffer;
using ec::g1_affine_t;
using ec::g1_jacobian_t;
using ec::g2_affine_t;
using ec::g2_jacobian_t;
using ff::fr_t;

struct device_parameters::impl {
  int device = 0;
  verifying_key vk;
  device_buffer<g1_affine_t> h, l, a, b_g1;
  device_buffer<g2_affine_t> b_g2;
};

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

/// Selects a device for the current scope and restores the caller's device after.
class device_scope {
 public:
  explicit device_scope(int device) {
    CUZK_CUDA_OK(cudaGetDevice(&prev_));
    CUZK_CUDA_OK(cudaSetDevice(device));
    // A failed cudaMalloc elsewhere in the process (the caller's, or an earlier out-of-memory
    // episode) leaves a non-sticky "last error" that the first cudaGetLastError() after one of our
    // kernel launches would misreport as our failure: clear it on entry. Sticky errors (a corrupted
    // context) survive this and still fail the next call.
    (void)cudaGetLastError();
  }
  ~device_scope() { cudaSetDevice(prev_); }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int prev_ = 0;
};

/// The status for a CUDA failure caught at the API edge: the message names the call, file, line
/// and the CUDA error; out-of-memory is called out as such.
status cuda_status(const cuzk::gpu::gpu_error& e, const char* where) {
  std::string msg = std::string(where) + ": ";
  if (e.code() == cudaErrorMemoryAllocation) msg += "out of device memory: ";
  return status(status_code::internal, msg + e.what());
}

/// a[i] ← (a[i]·b[i] − c[i])·zi for i < m.
__global__ void h_pointwise_kernel(ff::device::fr_d* a, const ff::device::fr_d* b,
                                   const ff::device::fr_d* c, ff::device::fr_d zi, size_t m) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < m) a[i] = (a[i] * b[i] - c[i]) * zi;
}

/// dst[i] = src[idx[i]], elements of W 16-byte words (G1 affine: 6, G2 affine: 12).
template <unsigned W>
struct blob_t {
  uint4 v[W];
};
template <unsigned W>
__global__ void gather_kernel(const blob_t<W>* src, const uint32_t* idx, size_t n, blob_t<W>* dst) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[idx[i]];
}

unsigned blocks_for(size_t n, unsigned threads) {
  return unsigned((n + threads - 1) / threads);
}

g1_jacobian_t msm_dev(const g1_affine_t* b, const fr_t* s, size_t n) {
  return msm::gpu::msm_device(b, s, n);
}
g2_jacobian_t msm_dev(const g2_affine_t* b, const fr_t* s, size_t n) {
  return msm::gpu::msm_g2_device(b, s, n);
}
g1_jacobian_t batch_dev(const g1_affine_t* b, const uint64_t* w, size_t n) {
  return msm::gpu::batch_add_device(b, w, n);
}
g2_jacobian_t batch_dev(const g2_affine_t* b, const uint64_t* w, size_t n) {
  return msm::gpu::batch_add_g2_device(b, w, n);
}

/// MSM of host scalars against the first n device bases.
template <class G>
auto msm_host_scalars(const G* d_bases, std::span<const fr_t> scalars) {
  device_buffer<fr_t> ds(scalars.size());
  ds.upload(scalars.data(), scalars.size());
  return msm_dev(d_bases, ds.data(), scalars.size());
}

/// Σ w_j·P_j with the 0/1 split: `scalars` pairs with the (compacted) device bases d_bases, the
/// split's bitmaps index the same space.
template <class G>
auto split_msm(const G* d_bases, std::span<const fr_t> scalars, const msm::witness_split_t& sp) {
  static_assert(sizeof(G) % 16 == 0);
  constexpr unsigned W = sizeof(G) / 16;
  auto acc = decltype(msm_dev(d_bases, nullptr, 0))::infinity();
  if (sp.num_one != 0) {
    device_buffer<uint64_t> w(sp.ones.size());
    w.upload(sp.ones.data(), sp.ones.size());
    acc += batch_dev(d_bases, w.data(), sp.count);
  }
  if (sp.num_other != 0) {
    std::vector<uint32_t> idx;
    std::vector<fr_t> sc;
    idx.reserve(sp.num_other);
    sc.reserve(sp.num_other);
    for (size_t wi = 0; wi < sp.others.size(); ++wi)
      for (uint64_t x = sp.others[wi]; x != 0; x &= x - 1) {
        const size_t j = wi * 64 + size_t(__builtin_ctzll(x));
        idx.push_back(uint32_t(j));
        sc.push_back(scalars[j]);
      }
    const size_t k = idx.size();
    device_buffer<uint32_t> di(k);
    device_buffer<G> gb(k);
    di.upload(idx.data(), k);
    gather_kernel<W><<<blocks_for(k, 128), 128>>>(reinterpret_cast<const blob_t<W>*>(d_bases),
                                                  di.data(), k,
                                                  reinterpret_cast<blob_t<W>*>(gb.data()));
    CUZK_CUDA_LAUNCH_OK();
    acc += msm_host_scalars(gb.data(), sc);
  }
  return acc;
}

template <class T>
void put(device_buffer<T>& buf, const std::vector<T>& v) {
  buf = device_buffer<T>(v.size());
  buf.upload(v.data(), v.size());
}

msm::bitmap_view to_msm(bitmap_view v) {
  return {v.words, v.count};
}

status check_sizes(const device_parameters::impl& p, const assignment& asg, size_t m) {
  const size_t n_in = asg.num_inputs(), n_aux = asg.num_aux();
  auto bad = [](std::string what) { return status(status_code::size_mismatch, std::move(what)); };
  if (asg.b.size() != asg.num_rows() || asg.c.size() != asg.num_rows())
    return bad("a, b, c have different lengths");
  if (n_in == 0) return bad("no ONE input");
  if (asg.a_aux_density.count != n_aux || asg.b_aux_density.count != n_aux)
    return bad("aux density length differs from num_aux");
  if (asg.b_input_density.count != n_in) return bad("b_input density length differs");
  if (p.vk.ic.size() != n_in)
    return bad("ic has " + std::to_string(p.vk.ic.size()) + " points for " + std::to_string(n_in) +
               " inputs");
  if (p.h.size() != m - 1)
    return bad("h query has " + std::to_string(p.h.size()) + " points, expected " +
               std::to_string(m - 1));
  if (p.l.size() != n_aux) return bad("l query length differs from num_aux");
  if (p.a.size() != n_in + asg.a_aux_density.popcount()) return bad("a query length differs");
  const size_t nb = asg.b_input_density.popcount() + asg.b_aux_density.popcount();
  if (p.b_g1.size() != nb) return bad("b_g1 query length differs");
  if (p.b_g2.size() != nb) return bad("b_g2 query length differs");
  return {};
}

/// Uploads v zero-padded to m elements, then iFFT (n→r) and coset FFT (r→n), as prover_cpu.
void to_coset(const ntt::domain_t& d, std::span<const fr_t> v, device_buffer<fr_t>& out) {
  CUZK_CUDA_OK(cudaMemset(out.data(), 0, out.bytes()));
  out.upload(v.data(), v.size());
  ntt::gpu::transform_device(d, out.data(), ntt::gpu::ntt_kind::ifft, ntt::ntt_order::nr);
  ntt::gpu::transform_device(d, out.data(), ntt::gpu::ntt_kind::coset_fft, ntt::ntt_order::rn);
}

proof_parts start_impl(const device_parameters::impl& p, const assignment& asg,
                       const ntt::domain_t& d, gpu_prover_timings& tm) {
  const size_t m = d.size();
  cuda_event ev[10];  // phase boundaries
  proof_parts out;

  // h on the device; b and c are freed before the MSMs.
  device_buffer<fr_t> da(m);
  ev[0].record();
  to_coset(d, asg.a, da);
  ev[1].record();
  {
    device_buffer<fr_t> db(m), dc(m);
    to_coset(d, asg.b, db);
    ev[2].record();
    to_coset(d, asg.c, dc);
    ev[3].record();
    const fr_t zi = d.z_coset_inv();
    ff::device::fr_d zid;
    static_assert(sizeof(zid) == sizeof(zi));
    std::memcpy(&zid, &zi, sizeof(zi));
    h_pointwise_kernel<<<blocks_for(m, 256), 256>>>(
        reinterpret_cast<ff::device::fr_d*>(da.data()),
        reinterpret_cast<const ff::device::fr_d*>(db.data()),
        reinterpret_cast<const ff::device::fr_d*>(dc.data()), zid, m);
    CUZK_CUDA_LAUNCH_OK();
  }
  ntt::gpu::transform_device(d, da.data(), ntt::gpu::ntt_kind::icoset_fft, ntt::ntt_order::nn);
  ev[4].record();

  out.h = msm_dev(p.h.data(), da.data(), m - 1);  // deg h ≤ m − 2: m − 1 coefficients
  da = device_buffer<fr_t>();
  ev[5].record();

  const auto t0 = clock_type::now();
  const msm::bitmap_view a_aux = to_msm(asg.a_aux_density);
  const msm::bitmap_view b_in = to_msm(asg.b_input_density);
  const msm::bitmap_view b_aux = to_msm(asg.b_aux_density);
  const msm::witness_split_t split_l = msm::split_witness(asg.aux);
  const msm::witness_split_t split_a = msm::split_witness(asg.aux, &a_aux);
  const msm::witness_split_t split_b = msm::split_witness(asg.aux, &b_aux);
  tm.split = ms_since(t0);

  const cuda_event& l0 = ev[5];
  cuda_event l1;
  l1.record();  // split done (host time is reported separately)
  out.l = split_msm(p.l.data(), asg.aux, split_l);
  ev[6].record();

  const size_t n_in = asg.num_inputs();
  out.a_part = msm_host_scalars(p.a.data(), asg.inputs) +
               split_msm(p.a.data() + n_in, split_a.scalars, split_a);
  ev[7].record();

  std::vector<fr_t> b_inputs;
  for (size_t j = 0; j < n_in; ++j)
    if (b_in.test(j)) b_inputs.push_back(asg.inputs[j]);
  const size_t nb_in = b_inputs.size();
  out.b_g1 = msm_host_scalars(p.b_g1.data(), b_inputs) +
             split_msm(p.b_g1.data() + nb_in, split_b.scalars, split_b);
  ev[8].record();
  out.b_g2 = msm_host_scalars(p.b_g2.data(), b_inputs) +
             split_msm(p.b_g2.data() + nb_in, split_b.scalars, split_b);
  ev[9].record();
  CUZK_CUDA_OK(cudaEventSynchronize(ev[9].get()));

  tm.ntt_a = ev[1].since(ev[0]);
  tm.ntt_b = ev[2].since(ev[1]);
  tm.ntt_c = ev[3].since(ev[2]);
  tm.h_compute = ev[4].since(ev[3]);
  tm.msm_h = ev[5].since(ev[4]);
  tm.msm_l = ev[6].since(l1);
  tm.msm_a = ev[7].since(ev[6]);
  tm.msm_b_g1 = ev[8].since(ev[7]);
  tm.msm_b_g2 = ev[9].since(ev[8]);
  tm.gpu_total = ev[9].since(ev[0]) - l1.since(l0);  // without the host split
  return out;
}

}  // namespace

device_parameters::device_parameters(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
device_parameters::~device_parameters() {
  if (impl_) {
    // Free on the device that owns the memory; a failure here cannot be reported.
    int prev = 0;
    const bool switched =
        cudaGetDevice(&prev) == cudaSuccess && cudaSetDevice(impl_->device) == cudaSuccess;
    impl_.reset();
    if (switched) cudaSetDevice(prev);
  }
}
int device_parameters::device() const {
  return impl_->device;
}
const verifying_key& device_parameters::vk() const {
  return impl_->vk;
}
size_t device_parameters::bytes() const {
  return impl_->h.bytes() + impl_->l.bytes() + impl_->a.bytes() + impl_->b_g1.bytes() +
         impl_->b_g2.bytes();
}

result<std::unique_ptr<device_parameters>> device_parameters::upload(const parameters& params,
                                                                     int device) {
  try {
    device_scope scope(device);
    auto p = std::make_unique<impl>();
    p->device = device;
    p->vk = params.vk;
    put(p->h, params.h);
    put(p->l, params.l);
    put(p->a, params.a);
    put(p->b_g1, params.b_g1);
    put(p->b_g2, params.b_g2);
    return std::unique_ptr<device_parameters>(new device_parameters(std::move(p)));
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::device_parameters::upload");
  } catch (const std::bad_alloc&) {
    return status(status_code::internal, "groth16::gpu::device_parameters::upload: host memory");
  }
}

result<proof_parts> start(const device_parameters& dp, const assignment& asg,
                          gpu_prover_timings* timings) {
  gpu_prover_timings local;
  gpu_prover_timings& tm = timings ? *timings : local;
  tm = {};
  if (asg.num_rows() == 0) return status(status_code::size_mismatch, "empty assignment");
  auto dom = ntt::domain_t::create(asg.num_rows());
  if (!dom) return dom.error();
  const device_parameters::impl& p = dp.get();
  if (status st = check_sizes(p, asg, dom->size()); !st) return st;
  try {
    device_scope scope(p.device);
    return start_impl(p, asg, *dom, tm);
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::start");
  } catch (const std::bad_alloc&) {
    return status(status_code::internal, "groth16::gpu::start: host memory");
  }
}

result<proof> finalize(const verifying_key& vk, const proof_parts& parts, const fr_t& r,
                       const fr_t& s, gpu_prover_timings* timings) {
  const auto t0 = clock_type::now();
  if (vk.delta_g1.is_infinity() || vk.delta_g2.is_infinity())
    return status(status_code::invalid_argument, "delta is the identity");
  // The same expressions, in the same order, as prover_cpu's epilogue.
  const g1_jacobian_t alpha1 = g1_jacobian_t::from_affine(vk.alpha_g1);
  const g1_jacobian_t beta1 = g1_jacobian_t::from_affine(vk.beta_g1);
  const g1_jacobian_t delta1 = g1_jacobian_t::from_affine(vk.delta_g1);
  const g2_jacobian_t beta2 = g2_jacobian_t::from_affine(vk.beta_g2);
  const g2_jacobian_t delta2 = g2_jacobian_t::from_affine(vk.delta_g2);
  const g1_jacobian_t A = alpha1 + parts.a_part + ec::mul(delta1, r);
  const g2_jacobian_t B = beta2 + parts.b_g2 + ec::mul(delta2, s);
  const g1_jacobian_t C = parts.h + parts.l + ec::mul(parts.a_part, s) + ec::mul(parts.b_g1, r) +
                          ec::mul(delta1, r * s) + ec::mul(alpha1, s) + ec::mul(beta1, r);
  proof pf{A.to_affine(), B.to_affine(), C.to_affine()};
  if (timings) timings->epilogue = ms_since(t0);
  return pf;
}

result<proof> create_proof(const device_parameters& dp, const assignment& asg, const fr_t& r,
                           const fr_t& s, gpu_prover_timings* timings) {
  if (dp.vk().delta_g1.is_infinity() || dp.vk().delta_g2.is_infinity())
    return status(status_code::invalid_argument, "delta is the identity");
  auto parts = start(dp, asg, timings);
  if (!parts) return parts.error();
  return finalize(dp.vk(), *parts, r, s, timings);
}

result<std::pair<size_t, size_t>> memory_info(int device) {
  try {
    device_scope scope(device);
    size_t free_b = 0, total_b = 0;
    CUZK_CUDA_OK(cudaMemGetInfo(&free_b, &total_b));
    return std::pair<size_t, size_t>(free_b, total_b);
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::memory_info");
  }
}

}  // namespace cuzk::groth16::gpu
