// SPDX-License-Identifier: Apache-2.0
// cuzk-fp64-products: issue 38 item 1. The FP64-pipe Montgomery products of fp64_products.cuh
// against today's IMAD product (dmont_t), checked against GMP and timed in one binary.
//
//   --check-gpu COUNT [SEED]   every form on the GPU: COUNT random pairs plus every edge pair,
//                              results copied back and compared with GMP; exit 1 on any mismatch
//   --check-host COUNT [SEED]  the same word sequences on the CPU (FP64 modelled exactly in
//                              128-bit integers), no GPU needed
//   otherwise                  Google Benchmark: BM_fp64_<op>/<field>/<form>, the method of
//                              BM_gpu_field_*: 2^20 threads, each a dependent chain of K = 512
//                              products in registers; Gmul/s = 2^20·K (pairs: 2·2^20·K) per
//                              second of wall time. The chain converts in and out of the form
//                              once (its cost is 1/512 of a product); BM_fp64_convert_mul runs
//                              from_standard, mul, to_standard each step (the cost of a form used
//                              for one product only).
//
// What the checks define: raw_* tests feed integers x, y below the form's bound B (2p for the
// lazy forms, p otherwise) straight into the limbs and require z < B and z·R ≡ x·y (mod p),
// R = 2^(N·W) of the form; std_* tests feed canonical standard-form words (a·2^(32n) mod p) through
// from_standard, mul, to_standard and require z = x·y·2^(−32n) mod p exactly, canonical.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>
#include <gmp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ff/mont_device.cuh"
#include "fp64_products.cuh"
#include "gpu/device_memory.cuh"

namespace {

using namespace cuzk::bench::fp64;
using cuzk::gpu::device_buffer;

constexpr unsigned LG_THREADS = 20;
constexpr int K = 512;

// ---- the operations under test, each on words in and words out -------------------------------

/// z = x·y through form F with no conversion (the raw test): integers go straight into limbs.
template <class F>
struct raw_mul {
  static constexpr unsigned WORDS = F::WORDS;
  CUZK_FP64_HD static F in(const uint32_t (&w)[WORDS]) {
    if constexpr (requires { F::W; }) {
      F zero_k{};  // unused: raw path never multiplies by the conversion constant
      if constexpr (F::SAME_R) {
        return F::from_standard(w, zero_k);
      } else {
        F x;
        for (unsigned i = 0; i < F::N; ++i) {
          const unsigned lo = F::W * i, q = lo / 32, s = lo % 32;
          uint64_t v = 0;
          if (q < WORDS) v = uint64_t(w[q]) >> s;
          if (q + 1 < WORDS) v |= uint64_t(w[q + 1]) << (32 - s);
          if (q + 2 < WORDS && s > 0) v |= uint64_t(w[q + 2]) << (64 - s);
          x.limb[i] = double_of_small(v & F::MASK);
        }
        return x;
      }
    } else {
      F x;
      for (unsigned j = 0; j < WORDS; ++j) x.w[j] = w[j];
      x.fill_doubles();
      return x;
    }
  }
  CUZK_FP64_HD static void out(const F& x, uint32_t (&w)[WORDS]) {
    if constexpr (requires { F::W; }) {
      uint64_t v[F::N];
      for (unsigned i = 0; i < F::N; ++i) v[i] = small_of_double(x.limb[i]);
      for (unsigned j = 0; j < WORDS; ++j) {
        const unsigned lo = 32 * j, q = lo / F::W, s = lo % F::W;
        uint64_t u = v[q] >> s;
        if (s + 32 > F::W && q + 1 < F::N) u |= v[q + 1] << (F::W - s);
        w[j] = uint32_t(u);
      }
    } else {
      for (unsigned j = 0; j < WORDS; ++j) w[j] = x.w[j];
    }
  }
};

enum class test_kind { raw_mul, raw_sqr, std_mul };

template <class F>
struct op_t {
  test_kind kind;
  F k_in{}, k_out{};  // dfma_form only
  static constexpr unsigned WORDS = F::WORDS;
  CUZK_FP64_HD void operator()(const uint32_t (&x)[WORDS], const uint32_t (&y)[WORDS],
                               uint32_t (&z)[WORDS]) const {
    using raw = raw_mul<F>;
    if (kind == test_kind::raw_mul) {
      raw::out(F::mul(raw::in(x), raw::in(y)), z);
    } else if (kind == test_kind::raw_sqr) {
      if constexpr (requires { F::W; }) {
        raw::out(F::mul(raw::in(x), raw::in(x)), z);
      } else {
        raw::out(raw::in(x).sqr(), z);
      }
    } else {
      if constexpr (requires { F::W; }) {
        F::mul(F::from_standard(x, k_in), F::from_standard(y, k_in)).to_standard(z, k_out);
      } else {
        F::mul(F::from_standard(x), F::from_standard(y)).to_standard(z);
      }
    }
  }
};

template <class Op, unsigned WORDS>
__global__ void check_kernel(const uint32_t* x, const uint32_t* y, uint32_t* z, size_t n, Op op) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t a[WORDS], b[WORDS], c[WORDS];
  for (unsigned j = 0; j < WORDS; ++j) a[j] = x[i * WORDS + j], b[j] = y[i * WORDS + j];
  op(a, b, c);
  for (unsigned j = 0; j < WORDS; ++j) z[i * WORDS + j] = c[j];
}

// ---- GMP oracle -----------------------------------------------------------------------------

struct mpz_holder {
  mpz_t v;
  mpz_holder() { mpz_init(v); }
  ~mpz_holder() { mpz_clear(v); }
  mpz_holder(const mpz_holder&) = delete;
  mpz_holder& operator=(const mpz_holder&) = delete;
};

template <class Config>
void modulus_mpz(mpz_t p) {
  mpz_import(p, Config::N, -1, 8, 0, 0, Config::MODULUS.data());
}

void words_to_mpz(mpz_t r, const uint32_t* w, unsigned words) {
  mpz_import(r, words, -1, 4, 0, 0, w);
}

void mpz_to_words(uint32_t* w, unsigned words, const mpz_t v) {
  std::fill(w, w + words, 0u);
  size_t count = 0;
  mpz_export(w, &count, -1, 4, 0, 0, v);
}

/// The inputs: every pair of edge values, then COUNT uniform pairs below bound (seeded).
template <class Config, unsigned WORDS>
void make_inputs(std::vector<uint32_t>& x, std::vector<uint32_t>& y, size_t count, uint64_t seed,
                 bool lazy, size_t& edge_pairs) {
  mpz_holder p, bound, t;
  modulus_mpz<Config>(p.v);
  mpz_mul_ui(bound.v, p.v, lazy ? 2 : 1);
  std::vector<std::vector<uint32_t>> edges;
  auto add_edge = [&](const mpz_t v) {
    if (mpz_sgn(v) < 0 || mpz_cmp(v, bound.v) >= 0) return;
    std::vector<uint32_t> w(WORDS);
    mpz_to_words(w.data(), WORDS, v);
    if (std::find(edges.begin(), edges.end(), w) == edges.end()) edges.push_back(w);
  };
  for (long small : {0L, 1L, 2L, 3L}) {
    mpz_set_si(t.v, small);
    add_edge(t.v);
  }
  for (long k : {1L, 2L}) {
    for (long d : {-2L, -1L, 0L, 1L}) {  // p − 2 … p + 1, 2p − 2 … 2p + 1 (those below bound)
      mpz_mul_si(t.v, p.v, k);
      if (d >= 0)
        mpz_add_ui(t.v, t.v, unsigned(d));
      else
        mpz_sub_ui(t.v, t.v, unsigned(-d));
      add_edge(t.v);
    }
  }
  // Limb boundaries of every form (32, 48 and 52 bits): 2^b − 1, 2^b, and all-ones below bound.
  for (unsigned w : {32u, 48u, 52u}) {
    for (unsigned b = w; b < 32 * WORDS; b += w) {
      mpz_set_ui(t.v, 0);
      mpz_setbit(t.v, b);
      add_edge(t.v);
      mpz_sub_ui(t.v, t.v, 1);
      add_edge(t.v);
      mpz_set_ui(t.v, 0);  // every limb 2^w − 1 except the top ones, as far as bound allows
      for (unsigned i = 0; i + w <= mpz_sizeinbase(bound.v, 2) - 1; i += w)
        for (unsigned j = 0; j < w; ++j) mpz_setbit(t.v, i + j);
      add_edge(t.v);
    }
  }
  // 2^(32n) mod p and 2^(N·W) mod p of each form (the Montgomery ones), and bound − 1.
  for (unsigned e : {256u, 260u, 384u, 416u}) {
    mpz_set_ui(t.v, 0);
    mpz_setbit(t.v, e);
    mpz_mod(t.v, t.v, p.v);
    add_edge(t.v);
  }
  mpz_sub_ui(t.v, bound.v, 1);
  add_edge(t.v);

  edge_pairs = edges.size() * edges.size();
  const size_t total = edge_pairs + count;
  x.assign(total * WORDS, 0);
  y.assign(total * WORDS, 0);
  size_t at = 0;
  for (const auto& a : edges)
    for (const auto& b : edges) {
      std::copy(a.begin(), a.end(), x.begin() + at * WORDS);
      std::copy(b.begin(), b.end(), y.begin() + at * WORDS);
      ++at;
    }
  std::mt19937_64 rng(seed);
  const size_t bits = mpz_sizeinbase(bound.v, 2);
  auto uniform = [&](uint32_t* w) {
    for (;;) {
      for (unsigned j = 0; j < WORDS; ++j) {
        const size_t lo = 32 * size_t(j);
        uint32_t v = uint32_t(rng());
        if (lo >= bits)
          v = 0;
        else if (bits - lo < 32)
          v &= (uint32_t(1) << (bits - lo)) - 1;
        w[j] = v;
      }
      words_to_mpz(t.v, w, WORDS);
      if (mpz_cmp(t.v, bound.v) < 0) return;
    }
  };
  for (; at < total; ++at) {
    uniform(x.data() + at * WORDS);
    uniform(y.data() + at * WORDS);
  }
}

/// Every z against GMP: z < bound and z·2^log_r ≡ x·y (mod p). Returns the number of failures.
template <class Config, unsigned WORDS>
size_t verify(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y,
              const std::vector<uint32_t>& z, bool square, unsigned log_r, bool lazy_out,
              const char* name) {
  const size_t n = x.size() / WORDS;
  std::atomic<size_t> failures{0};
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      mpz_holder p, bound, a, b, c, lhs, rhs;
      modulus_mpz<Config>(p.v);
      mpz_mul_ui(bound.v, p.v, lazy_out ? 2 : 1);
      for (size_t i = t; i < n; i += threads) {
        words_to_mpz(a.v, &x[i * WORDS], WORDS);
        words_to_mpz(b.v, square ? &x[i * WORDS] : &y[i * WORDS], WORDS);
        words_to_mpz(c.v, &z[i * WORDS], WORDS);
        mpz_mul(rhs.v, a.v, b.v);
        mpz_mod(rhs.v, rhs.v, p.v);
        mpz_mul_2exp(lhs.v, c.v, log_r);
        mpz_mod(lhs.v, lhs.v, p.v);
        if (mpz_cmp(c.v, bound.v) >= 0 || mpz_cmp(lhs.v, rhs.v) != 0) {
          if (failures.fetch_add(1) < 5) {
            char* sa = mpz_get_str(nullptr, 16, a.v);
            char* sb = mpz_get_str(nullptr, 16, b.v);
            char* sc = mpz_get_str(nullptr, 16, c.v);
            std::fprintf(stderr, "%s MISMATCH at %zu: x=%s y=%s z=%s\n", name, i, sa, sb, sc);
            free(sa), free(sb), free(sc);
          }
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  return failures.load();
}

/// k_in = 2^(2·N·W − 32n) mod p and k_out = 2^(32n) mod p, as plain limbs of a dfma_form.
template <class F, class Config>
void dfma_conversion_constants(F& k_in, F& k_out) {
  mpz_holder p, t;
  modulus_mpz<Config>(p.v);
  auto to_form = [&](F& f) {
    for (unsigned i = 0; i < F::N; ++i) {
      uint64_t v = 0;
      for (unsigned b = 0; b < F::W; ++b)
        if (mpz_tstbit(t.v, F::W * i + b)) v |= uint64_t(1) << b;
      f.limb[i] = double(v);
    }
  };
  mpz_set_ui(t.v, 0);
  mpz_setbit(t.v, 2 * F::N * F::W - 32 * F::WORDS);
  mpz_mod(t.v, t.v, p.v);
  to_form(k_in);
  mpz_set_ui(t.v, 0);
  mpz_setbit(t.v, 32 * F::WORDS);
  mpz_mod(t.v, t.v, p.v);
  to_form(k_out);
}

template <class F>
constexpr unsigned log_r() {
  if constexpr (requires { F::W; }) {
    return F::N * F::W;
  } else {
    return 32 * F::N;
  }
}

template <class F>
constexpr bool lazy_form() {
  if constexpr (requires { F::W; }) {
    return true;
  } else {
    return F::LAZY;
  }
}

/// One form, three tests (raw product, raw square, standard-form product); returns failures.
template <class F, class Config>
size_t check_form(const char* name, size_t count, uint64_t seed, bool on_gpu) {
  constexpr unsigned WORDS = F::WORDS;
  size_t failures = 0;
  op_t<F> op{};
  if constexpr (requires { F::W; }) dfma_conversion_constants<F, Config>(op.k_in, op.k_out);
  for (test_kind kind : {test_kind::raw_mul, test_kind::raw_sqr, test_kind::std_mul}) {
    const bool std_form = kind == test_kind::std_mul;
    std::vector<uint32_t> x, y;
    size_t edge_pairs = 0;
    make_inputs<Config, WORDS>(x, y, count, seed, !std_form && lazy_form<F>(), edge_pairs);
    const size_t n = x.size() / WORDS;
    std::vector<uint32_t> z(x.size());
    op.kind = kind;
    if (on_gpu) {
      device_buffer<uint32_t> dx(x.size()), dy(y.size()), dz(z.size());
      dx.upload(x.data(), x.size());
      dy.upload(y.data(), y.size());
      check_kernel<op_t<F>, WORDS>
          <<<unsigned((n + 255) / 256), 256>>>(dx.data(), dy.data(), dz.data(), n, op);
      CUZK_CUDA_LAUNCH_OK();
      CUZK_CUDA_OK(cudaDeviceSynchronize());
      dz.download(z.data(), z.size());
    } else {
      for (size_t i = 0; i < n; ++i) {
        uint32_t a[WORDS], b[WORDS], c[WORDS];
        std::copy_n(&x[i * WORDS], WORDS, a);
        std::copy_n(&y[i * WORDS], WORDS, b);
        op(a, b, c);
        std::copy_n(c, WORDS, &z[i * WORDS]);
      }
    }
    const char* test = kind == test_kind::raw_mul   ? "raw_mul"
                       : kind == test_kind::raw_sqr ? "raw_sqr"
                                                    : "std_mul";
    const std::string label = std::string(name) + "/" + test;
    const size_t bad = verify<Config, WORDS>(x, y, z, kind == test_kind::raw_sqr,
                                             std_form ? 32 * WORDS : log_r<F>(),
                                             !std_form && lazy_form<F>(), label.c_str());
    std::printf("%-22s %s: %zu pairs (%zu edge pairs, %zu random, seed %llu): %zu mismatches\n",
                label.c_str(), on_gpu ? "gpu" : "host", n, edge_pairs, n - edge_pairs,
                (unsigned long long)seed, bad);
    failures += bad;
  }
  return failures;
}

int run_checks(size_t count, uint64_t seed, bool on_gpu) {
  using cuzk::ff::fp_config;
  using cuzk::ff::fr_config;
  size_t failures = 0;
  failures += check_form<fr_dfma, fr_config>("fr/dfma", count, seed, on_gpu);
  failures += check_form<fp_dfma, fp_config>("fp/dfma", count, seed, on_gpu);
  failures += check_form<fr_hybrid, fr_config>("fr/hybrid", count, seed, on_gpu);
  failures += check_form<fp_hybrid, fp_config>("fp/hybrid", count, seed, on_gpu);
  std::printf("fp64 products check: %s (%zu mismatches)\n", failures ? "FAILED" : "passed",
              failures);
  return failures ? 1 : 0;
}

// ---- rate benchmarks ------------------------------------------------------------------------

enum class form_t { imad, dfma, hybrid, imad_dfma, imad_hybrid };

template <class Config>
struct forms;
template <>
struct forms<cuzk::ff::fr_config> {
  using dfma = fr_dfma;
  using hybrid = fr_hybrid;
};
template <>
struct forms<cuzk::ff::fp_config> {
  using dfma = fp_dfma;
  using hybrid = fp_hybrid;
};

template <class Config, form_t FORM, bool SQUARE, bool CONVERT>
__global__ void chain_kernel(uint32_t* x, const uint32_t* y, size_t n,
                             typename forms<Config>::dfma k_in,
                             typename forms<Config>::dfma k_out) {
  using D = cuzk::ff::device::dmont_t<Config>;
  using DF = typename forms<Config>::dfma;
  using HF = typename forms<Config>::hybrid;
  constexpr unsigned WORDS = 2 * Config::N;
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t a[WORDS], b[WORDS];
  for (unsigned j = 0; j < WORDS; ++j) a[j] = x[i * WORDS + j], b[j] = y[i * WORDS + j];
  if constexpr (CONVERT) {  // each step: words → form, one product, form → words
#pragma unroll 1
    for (int k = 0; k < K; ++k) {
      if constexpr (FORM == form_t::dfma) {
        DF::mul(DF::from_standard(a, k_in), DF::from_standard(b, k_in)).to_standard(a, k_out);
      } else {
        HF::mul(HF::from_standard(a), HF::from_standard(b)).to_standard(a);
      }
    }
  } else if constexpr (FORM == form_t::imad || FORM == form_t::imad_dfma ||
                       FORM == form_t::imad_hybrid) {
    D u, v;
    for (unsigned j = 0; j < WORDS; ++j) u.w[j] = a[j], v.w[j] = b[j];
    DF s = DF::from_standard(b, k_in), t = DF::from_standard(a, k_in);
    HF hs = HF::from_standard(b), ht = HF::from_standard(a);
#pragma unroll 1
    for (int k = 0; k < K; ++k) {
      u = SQUARE ? u.sqr() : u * v;
      if constexpr (FORM == form_t::imad_dfma) t = DF::mul(t, s);
      if constexpr (FORM == form_t::imad_hybrid) ht = SQUARE ? ht.sqr() : HF::mul(ht, hs);
    }
    for (unsigned j = 0; j < WORDS; ++j) a[j] = u.w[j];
    uint32_t c[WORDS];
    if constexpr (FORM == form_t::imad_dfma) t.to_standard(c, k_out);
    if constexpr (FORM == form_t::imad_hybrid) ht.to_standard(c);
    if constexpr (FORM != form_t::imad)
      for (unsigned j = 0; j < WORDS; ++j) a[j] ^= c[j];
  } else if constexpr (FORM == form_t::dfma) {
    DF s = DF::from_standard(a, k_in);
    const DF t = DF::from_standard(b, k_in);
#pragma unroll 1
    for (int k = 0; k < K; ++k) s = DF::mul(s, SQUARE ? s : t);
    s.to_standard(a, k_out);
  } else {
    HF s = HF::from_standard(a);
    const HF t = HF::from_standard(b);
#pragma unroll 1
    for (int k = 0; k < K; ++k) s = SQUARE ? s.sqr() : HF::mul(s, t);
    s.to_standard(a);
  }
  for (unsigned j = 0; j < WORDS; ++j) x[i * WORDS + j] = a[j];
}

template <class Config, form_t FORM, bool SQUARE, bool CONVERT>
void BM_fp64(benchmark::State& state) {
  constexpr unsigned WORDS = 2 * Config::N;
  const size_t n = size_t(1) << LG_THREADS;
  std::vector<uint32_t> x, y;
  size_t edge_pairs = 0;
  make_inputs<Config, WORDS>(x, y, n, 42, false, edge_pairs);
  x.resize(n * WORDS);
  y.resize(n * WORDS);
  typename forms<Config>::dfma k_in{}, k_out{};
  dfma_conversion_constants<typename forms<Config>::dfma, Config>(k_in, k_out);
  device_buffer<uint32_t> dx(x.size()), dy(y.size());
  dx.upload(x.data(), x.size());
  dy.upload(y.data(), y.size());
  const unsigned blocks = unsigned((n + 255) / 256);
  auto launch = [&] {
    chain_kernel<Config, FORM, SQUARE, CONVERT>
        <<<blocks, 256>>>(dx.data(), dy.data(), n, k_in, k_out);
    CUZK_CUDA_LAUNCH_OK();
    CUZK_CUDA_OK(cudaDeviceSynchronize());
  };
  launch();  // warm-up
  for (auto _ : state) launch();
  const bool pair = FORM == form_t::imad_dfma || FORM == form_t::imad_hybrid;
  state.counters["Gmul/s"] = benchmark::Counter(double(n) * K * (pair ? 2 : 1) * 1e-9,
                                                benchmark::Counter::kIsIterationInvariantRate);
}

template <class Config, form_t FORM, bool SQUARE, bool CONVERT = false>
void reg(const std::string& name) {
  benchmark::RegisterBenchmark(name.c_str(), BM_fp64<Config, FORM, SQUARE, CONVERT>)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

template <class Config>
void register_field(const std::string& field) {
  reg<Config, form_t::imad, false>("BM_fp64_mul/" + field + "/imad");
  reg<Config, form_t::dfma, false>("BM_fp64_mul/" + field + "/dfma");
  reg<Config, form_t::hybrid, false>("BM_fp64_mul/" + field + "/hybrid");
  reg<Config, form_t::imad_dfma, false>("BM_fp64_mul/" + field + "/imad+dfma");
  reg<Config, form_t::imad_hybrid, false>("BM_fp64_mul/" + field + "/imad+hybrid");
  reg<Config, form_t::imad, true>("BM_fp64_sqr/" + field + "/imad");
  reg<Config, form_t::dfma, true>("BM_fp64_sqr/" + field + "/dfma");
  reg<Config, form_t::hybrid, true>("BM_fp64_sqr/" + field + "/hybrid");
  reg<Config, form_t::dfma, false, true>("BM_fp64_convert_mul/" + field + "/dfma");
  reg<Config, form_t::hybrid, false, true>("BM_fp64_convert_mul/" + field + "/hybrid");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 &&
      (std::strcmp(argv[1], "--check-gpu") == 0 || std::strcmp(argv[1], "--check-host") == 0)) {
    const size_t count = std::strtoull(argv[2], nullptr, 10);
    const uint64_t seed = argc >= 4 ? std::strtoull(argv[3], nullptr, 10) : std::random_device{}();
    return run_checks(count, seed, std::strcmp(argv[1], "--check-gpu") == 0);
  }
  register_field<cuzk::ff::fr_config>("fr");
  register_field<cuzk::ff::fp_config>("fp");
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
