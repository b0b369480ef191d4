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

#include <algorithm>
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

/// The "other" terms of a split as a gather list: idx[k] = the k-th set bit of `others`,
/// sc[k] = scalars[idx[k]]. Word ranges are counted, then filled at their prefix offsets.
void other_terms(const msm::witness_split_t& sp, std::span<const fr_t> scalars, thread_pool& pool,
                 std::vector<uint32_t>& idx, std::vector<fr_t>& sc) {
  const size_t words = sp.others.size();
  const size_t chunk = 1 << 12;  // words per task: 2^18 scalars
  const size_t tasks = (words + chunk - 1) / chunk;
  std::vector<size_t> offset(tasks + 1, 0);
  pool.parallel_for(tasks, [&](size_t t) {
    size_t c = 0;
    for (size_t w = t * chunk; w < std::min(words, (t + 1) * chunk); ++w)
      c += size_t(__builtin_popcountll(sp.others[w]));
    offset[t + 1] = c;
  });
  for (size_t t = 0; t < tasks; ++t) offset[t + 1] += offset[t];
  idx.resize(offset[tasks]);
  sc.resize(offset[tasks]);
  pool.parallel_for(tasks, [&](size_t t) {
    size_t o = offset[t];
    for (size_t w = t * chunk; w < std::min(words, (t + 1) * chunk); ++w)
      for (uint64_t x = sp.others[w]; x != 0; x &= x - 1) {
        const size_t j = w * 64 + size_t(__builtin_ctzll(x));
        idx[o] = uint32_t(j);
        sc[o++] = scalars[j];
      }
  });
}

/// Σ w_j·P_j with the 0/1 split: `scalars` pairs with the (compacted) device bases d_bases, the
/// split's bitmaps index the same space.
template <class G>
auto split_msm(const G* d_bases, std::span<const fr_t> scalars, const msm::witness_split_t& sp,
               thread_pool& pool) {
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
    other_terms(sp, scalars, pool, idx, sc);
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

/// Uploads v zero-padded to m elements, then iFFT (n→r) and coset FFT (r→n), as prover_cpu.
void to_coset(const ntt::domain_t& d, std::span<const fr_t> v, device_buffer<fr_t>& out) {
  CUZK_CUDA_OK(cudaMemset(out.data(), 0, out.bytes()));
  out.upload(v.data(), v.size());
  ntt::gpu::transform_device(d, out.data(), ntt::gpu::ntt_kind::ifft, ntt::ntt_order::nr);
  ntt::gpu::transform_device(d, out.data(), ntt::gpu::ntt_kind::coset_fft, ntt::ntt_order::rn);
}

proof_parts start_impl(const device_parameters::impl& p, const assignment& asg,
                       const ntt::domain_t& d, thread_pool& pool, gpu_prover_timings& tm) {
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
  const bitmap_view& b_in = asg.b_input_density;
  const msm::witness_split_t split_l = msm::split_witness(asg.aux, nullptr, pool);
  const msm::witness_split_t split_a = msm::split_witness(asg.aux, &asg.a_aux_density, pool);
  const msm::witness_split_t split_b = msm::split_witness(asg.aux, &asg.b_aux_density, pool);
  tm.split = ms_since(t0);

  const cuda_event& l0 = ev[5];
  cuda_event l1;
  l1.record();  // split done (host time is reported separately)
  out.l = split_msm(p.l.data(), asg.aux, split_l, pool);
  ev[6].record();

  const size_t n_in = asg.num_inputs();
  out.a_part = msm_host_scalars(p.a.data(), asg.inputs) +
               split_msm(p.a.data() + n_in, split_a.scalars, split_a, pool);
  ev[7].record();

  std::vector<fr_t> b_inputs;
  for (size_t j = 0; j < n_in; ++j)
    if (b_in.test(j)) b_inputs.push_back(asg.inputs[j]);
  const size_t nb_in = b_inputs.size();
  out.b_g1 = msm_host_scalars(p.b_g1.data(), b_inputs) +
             split_msm(p.b_g1.data() + nb_in, split_b.scalars, split_b, pool);
  ev[8].record();
  out.b_g2 = msm_host_scalars(p.b_g2.data(), b_inputs) +
             split_msm(p.b_g2.data() + nb_in, split_b.scalars, split_b, pool);
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

query_sizes device_parameters::sizes() const {
  const impl& p = *impl_;
  return {p.vk.ic.size(), p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()};
}

device_parameters::device_queries device_parameters::queries() {
  impl& p = *impl_;
  return {p.h.data(), p.l.data(), p.a.data(), p.b_g1.data(), p.b_g2.data()};
}

result<std::unique_ptr<device_parameters>> device_parameters::allocate(const verifying_key& vk,
                                                                       const query_sizes& sizes,
                                                                       int device) {
  if (sizes.ic != vk.ic.size())
    return status(status_code::size_mismatch, "allocate: ic size differs from the vk's");
  try {
    device_scope scope(device);
    auto p = std::make_unique<impl>();
    p->device = device;
    p->vk = vk;
    p->h = device_buffer<g1_affine_t>(sizes.h);
    p->l = device_buffer<g1_affine_t>(sizes.l);
    p->a = device_buffer<g1_affine_t>(sizes.a);
    p->b_g1 = device_buffer<g1_affine_t>(sizes.b_g1);
    p->b_g2 = device_buffer<g2_affine_t>(sizes.b_g2);
    return std::unique_ptr<device_parameters>(new device_parameters(std::move(p)));
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::device_parameters::allocate");
  } catch (const std::bad_alloc&) {
    return status(status_code::internal, "groth16::gpu::device_parameters::allocate: host memory");
  }
}

result<std::unique_ptr<device_parameters>> device_parameters::upload(const parameters& params,
                                                                     int device) {
  const query_sizes q = params.sizes();
  auto dp = allocate(params.vk, q, device);
  if (!dp) return dp;
  try {
    device_scope scope(device);
    impl& p = *(*dp)->impl_;
    p.h.upload(params.h.data(), q.h);
    p.l.upload(params.l.data(), q.l);
    p.a.upload(params.a.data(), q.a);
    p.b_g1.upload(params.b_g1.data(), q.b_g1);
    p.b_g2.upload(params.b_g2.data(), q.b_g2);
    return dp;
  } catch (const cuzk::gpu::gpu_error& e) {
    return cuda_status(e, "groth16::gpu::device_parameters::upload");
  }
}

result<proof_parts> start(const device_parameters& dp, const assignment& asg, thread_pool& pool,
                          gpu_prover_timings* timings) {
  gpu_prover_timings local;
  gpu_prover_timings& tm = timings ? *timings : local;
  tm = {};
  if (asg.num_rows() == 0) return status(status_code::size_mismatch, "empty assignment");
  auto dom = ntt::domain_t::create(asg.num_rows());
  if (!dom) return dom.error();
  const device_parameters::impl& p = dp.get();
  if (status st = check_query_sizes(dp.sizes(), asg, dom->size()); !st) return st;
  try {
    device_scope scope(p.device);
    return start_impl(p, asg, *dom, pool, tm);
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
                           const fr_t& s, thread_pool& pool, gpu_prover_timings* timings) {
  if (dp.vk().delta_g1.is_infinity() || dp.vk().delta_g2.is_infinity())
    return status(status_code::invalid_argument, "delta is the identity");
  auto parts = start(dp, asg, pool, timings);
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
