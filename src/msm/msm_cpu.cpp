// SPDX-License-Identifier: Apache-2.0
// Pippenger MSM on the CPU, written once over the coordinate field (fp_t = G1, fp2_t = G2) and
// instantiated for both at the bottom. Pipeline: compact the nonzero terms and recode their scalars
// (signed digits via one offset addition) → per (window, point range) task: batch-affine bucket
// accumulation, running-sum reduction in XYZZ → Horner combination of the windows with c
// doublings each. See docs/notes/msm.md for the cost model and measurements.
#include "msm/msm_cpu.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <memory>
#include <utility>

// The hot loops inline the field operations they call: GCC's size heuristics otherwise keep the
// multiplication's inline assembly and the small add/sub helpers out of line (measured: G1 and
// G2 MSM 20–25% faster with flattening).
#if defined(__GNUC__)
#define CUZK_FLATTEN __attribute__((flatten))
#else
#define CUZK_FLATTEN
#endif

namespace cuzk::msm {
namespace {

using ec::affine_t;
using ec::jacobian_t;
using ec::xyzz_t;
using ff::fr_t;
using ff::limbs;

// ---- signed-digit recoding ----------------------------------------------------------------------
//
// With c-bit windows and C = Σ_{w<W} 2^(w·c + c−1), the offset scalar K = k + C satisfies
// K = Σ_w K_w·2^(w·c) with 0 <= K_w < 2^c, hence k = Σ_w (K_w − 2^(c−1))·2^(w·c): the digits
// d_w = K_w − 2^(c−1) lie in [−2^(c−1), 2^(c−1)), so only 2^(c−1) buckets are needed, and any
// window's digit is read straight out of K (no carry pass over the windows). This needs
// K < 2^(W·c), i.e. k <= Σ_w (2^(c−1) − 1)·2^(w·c) = (2^(c−1) − 1)/(2^c − 1)·(2^(W·c) − 1). With
// k < r < 0.453·2^256 and W = ceil(256/c): when W·c = 256 (c = 4, 8, 16) the bound is
// >= 7/15·(2^256 − 1) > r; when W·c > 256 it is >= 1/3·2^257 > r, except c = 2 where
// W·c = 256 gives only 1/3·2^256, so c = 2 takes one window more. K < 2^271 for c <= 16, so it is
// kept in 5 limbs.

using kword_t = limbs<5>;
constexpr unsigned MIN_WINDOW = 2, MAX_WINDOW = 16;

struct recode_t {
  unsigned c = 0, windows = 0;
  kword_t offset{};
};

recode_t make_recode(unsigned c) {
  recode_t rc;
  rc.c = c;
  rc.windows = (256 + c - 1) / c;
  if (c == 2) ++rc.windows;
  for (unsigned w = 0; w < rc.windows; ++w) {
    const unsigned bit = w * c + c - 1;
    rc.offset[bit / 64] |= uint64_t(1) << (bit % 64);
  }
  return rc;
}

inline kword_t encode_scalar(const fr_t& s, const kword_t& offset) {
  const limbs<4> k = s.to_canonical();
  kword_t out;
  uint64_t carry = 0;
  for (size_t i = 0; i < 4; ++i) out[i] = ff::addc(k[i], offset[i], carry);
  out[4] = offset[4] + carry;
  return out;
}

/// The signed digit of window starting at `bit`: K_w − 2^(c−1).
inline int read_digit(const kword_t& k, unsigned bit, unsigned c) {
  const unsigned limb = bit / 64, shift = bit % 64;
  uint64_t v = k[limb] >> shift;
  if (shift + c > 64 && limb + 1 < 5) v |= k[limb + 1] << (64 - shift);
  return int(v & ((uint64_t(1) << c) - 1)) - (1 << (c - 1));
}

// ---- cost model ---------------------------------------------------------------------------------
//
// One (window, range) task over n terms with nb = 2^(c−1) buckets costs about n·A + nb·R field
// multiplications, and W·S tasks spread over T threads finish after ceil(W·S/T) rounds:
//   A = 6.5 + INV/B for a batch-affine bucket addition (5M + 1S, the field additions, and one
//       inversion of cost INV ≈ 200M shared by a batch of B = min(2048, nb/4) additions); ×1.25
//       once the affine buckets outgrow a 1 MiB L2 (nb > 4096); A = 10 (XYZZ mixed addition) when
//       nb < 256 buckets are too few to batch;
//   R = 16 per bucket for the running sum (one mixed + one general XYZZ addition, fitted).
// The constants were fitted to G1 timings at 2^10…2^20 on the reference machine
// (docs/notes/msm.md): the model's choice is within 3% of the best forced window there.

constexpr unsigned BATCH_MIN_BUCKETS = 256;
// Batch size: up to BATCH_MAX additions share one inversion, and at most nb/BATCH_BUCKET_RATIO so
// that few additions find their bucket already queued.
constexpr size_t BATCH_MAX = 2048, BATCH_BUCKET_RATIO = 4;
// Selected points a batch_add task sums by its tree of batch-affine additions.
constexpr size_t BATCH_ADD_BLOCK = 4096;

struct plan_t {
  unsigned c = 0, splits = 1;
};

double plan_cost(size_t n, unsigned threads, unsigned c, unsigned splits) {
  const size_t nb = size_t(1) << (c - 1);
  double a = 10.0;
  if (nb >= BATCH_MIN_BUCKETS) {
    const double batch = double(std::min(BATCH_MAX, nb / BATCH_BUCKET_RATIO));
    a = 6.5 + 200.0 / batch;
    if (nb > 4096) a *= 1.25;
  }
  const double r = 16.0;
  const unsigned windows = make_recode(c).windows;
  const double rounds = double((windows * splits + threads - 1) / threads);
  return rounds * (double(n) / splits * a + double(nb) * r);
}

plan_t make_plan(size_t n, unsigned threads, unsigned forced_c) {
  threads = std::max(threads, 1u);
  plan_t best;
  double best_cost = 0;
  const unsigned c_lo = forced_c ? forced_c : MIN_WINDOW, c_hi = forced_c ? forced_c : MAX_WINDOW;
  for (unsigned c = c_lo; c <= c_hi; ++c) {
    for (unsigned s = 1; s <= 4 * threads; s *= 2) {
      if (s > 1 && n / s < 1024) break;
      const double cost = plan_cost(n, threads, c, s);
      if (best.c == 0 || cost < best_cost) {
        best = {c, s};
        best_cost = cost;
      }
    }
  }
  return best;
}

// ---- term preparation
// -----------------------------------------------------------------------------

/// The nonzero terms of an MSM: base index and recoded scalar, in input order.
struct terms_t {
  std::vector<uint32_t> base;
  std::vector<kword_t> k;
  size_t size() const { return base.size(); }
};

/// Candidate j pairs base bidx(j) with scalar sidx(j): identity maps when `sel` is null, otherwise
/// sidx(j) = sel[j] and bidx(j) = sel[j] (bases_by_scalar) or j (compacted bases). Terms with a
/// zero scalar or an infinity base are dropped. The window is chosen once the nonzero count is
/// known.
}  // namespace

uint64_t msm_terms_bytes(size_t n, bool masked) {
  return uint64_t(n) * (sizeof(uint32_t) + sizeof(kword_t) + (masked ? sizeof(uint32_t) : 0));
}

namespace {

template <class Field>
terms_t prepare_terms(const affine_t<Field>* bases, std::span<const fr_t> scalars,
                      const uint32_t* sel, size_t n, bool bases_by_scalar, thread_pool& pool,
                      unsigned forced_c, plan_t& plan) {
  auto sidx = [&](size_t j) -> size_t { return sel ? sel[j] : j; };
  auto bidx = [&](size_t j) -> size_t { return sel && bases_by_scalar ? sel[j] : j; };
  auto keep = [&](size_t j) {
    return !scalars[sidx(j)].is_zero() && !bases[bidx(j)].is_infinity();
  };

  const size_t chunk = 8192, chunks = (n + chunk - 1) / chunk;
  std::vector<size_t> offset(chunks + 1, 0);
  pool.parallel_for(chunks, [&](size_t t) {
    size_t cnt = 0;
    for (size_t j = t * chunk, e = std::min(n, j + chunk); j < e; ++j) cnt += keep(j);
    offset[t + 1] = cnt;
  });
  for (size_t t = 0; t < chunks; ++t) offset[t + 1] += offset[t];
  const size_t total = offset[chunks];
  assert(n < (size_t(1) << 32));  // base indices are stored in 32 bits
  plan = make_plan(total, pool.size(), forced_c);
  const recode_t rc = make_recode(plan.c);

  terms_t terms;
  terms.base.resize(total);
  terms.k.resize(total);
  pool.parallel_for(chunks, [&](size_t t) {
    size_t o = offset[t];
    for (size_t j = t * chunk, e = std::min(n, j + chunk); j < e; ++j) {
      if (!keep(j)) continue;
      terms.base[o] = uint32_t(bidx(j));
      terms.k[o] = encode_scalar(scalars[sidx(j)], rc.offset);
      ++o;
    }
  });
  return terms;
}

// ---- inversion
// ------------------------------------------------------------------------------------
//
// Each batch ends in one field inversion. Fermat (a^(p−2), ~570 multiplications) costs as much as
// ~100 batched additions, so batches use a variable-time binary extended Euclid instead (several
// times faster; MSM inputs are public, so timing leaks nothing): on the Montgomery integer
// A = a·R it returns A^(−1) = a^(−1)·R^(−1), and one Montgomery multiplication by R^3 restores
// a^(−1)·R.

using fp_limbs = limbs<6>;

inline bool is_even(const fp_limbs& x) {
  return !(x[0] & 1);
}
inline void shr1(fp_limbs& x, uint64_t top = 0) {
  for (size_t i = 0; i < 5; ++i) x[i] = (x[i] >> 1) | (x[i + 1] << 63);
  x[5] = (x[5] >> 1) | (top << 63);
}
/// x/2 mod p for x < p.
inline void half_mod(fp_limbs& x) {
  if (is_even(x)) return shr1(x);
  uint64_t carry = 0;
  for (size_t i = 0; i < 6; ++i) x[i] = ff::addc(x[i], ff::fp_t::MODULUS[i], carry);
  shr1(x, carry);
}
/// x − y for x >= y.
inline void sub_in_place(fp_limbs& x, const fp_limbs& y) {
  uint64_t borrow = 0;
  for (size_t i = 0; i < 6; ++i) x[i] = ff::subb(x[i], y[i], borrow);
}
/// x − y mod p for x, y < p.
inline void sub_mod(fp_limbs& x, const fp_limbs& y) {
  uint64_t borrow = 0;
  for (size_t i = 0; i < 6; ++i) x[i] = ff::subb(x[i], y[i], borrow);
  if (borrow) {
    uint64_t carry = 0;
    for (size_t i = 0; i < 6; ++i) x[i] = ff::addc(x[i], ff::fp_t::MODULUS[i], carry);
  }
}
inline bool is_one(const fp_limbs& x) {
  return x[0] == 1 && !(x[1] | x[2] | x[3] | x[4] | x[5]);
}

constexpr ff::fp_t FP_R3 = ff::fp_t::from_raw(ff::fp_t::R2) * ff::fp_t::from_raw(ff::fp_t::R2);

ff::fp_t fast_inverse(const ff::fp_t& a) {
  if (a.is_zero()) return a;
  // invariants: x1·A ≡ u and x2·A ≡ v (mod p); gcd(u, v) = 1 throughout
  fp_limbs u = a.raw(), v = ff::fp_t::MODULUS, x1{1}, x2{};
  while (!is_one(u) && !is_one(v)) {
    while (is_even(u)) {
      shr1(u);
      half_mod(x1);
    }
    while (is_even(v)) {
      shr1(v);
      half_mod(x2);
    }
    if (!ff::less_than(u, v)) {
      sub_in_place(u, v);
      sub_mod(x1, x2);
    } else {
      sub_in_place(v, u);
      sub_mod(x2, x1);
    }
  }
  return ff::fp_t::from_raw(is_one(u) ? x1 : x2) * FP_R3;
}

/// (c0 − c1·u)/(c0^2 + c1^2).
ff::fp2_t fast_inverse(const ff::fp2_t& a) {
  const ff::fp_t t = fast_inverse(a.norm());
  return {a.c0 * t, -(a.c1 * t)};
}

// ---- batch-affine addition
// ------------------------------------------------------------------------
//
// m independent affine additions L_k + R_k with one inversion (Montgomery's trick): prefix products
// of the denominators (1M each), one inversion, a backward pass recovering each 1/den (2M), then
// λ = num/den (1M), x3 = λ^2 − x1 − x2 (1S), y3 = λ(x1 − x3) − y1 (1M): 5M + 1S per addition
// against 8M + 2S for an XYZZ mixed addition. Equal x coordinates take the tangent (λ = 3x^2/2y)
// or cancel to infinity; infinity operands pass the other one through.

enum class pair_kind : uint8_t { chord, tangent, infinity, left, right };

template <class Field>
struct pair_adder {
  std::vector<Field> den, pre;
  std::vector<pair_kind> kind;

  explicit pair_adder(size_t capacity) : den(capacity), pre(capacity), kind(capacity) {}

  /// out(k, sum) receives L_k + R_k for k in [0, m); lhs/rhs return the operands.
  template <class Lhs, class Rhs, class Out>
  CUZK_FLATTEN void run(size_t m, Lhs lhs, Rhs rhs, Out out) {
    if (m == 0) return;
    Field acc = Field::one();
    for (size_t k = 0; k < m; ++k) {
      const affine_t<Field>& a = lhs(k);
      const affine_t<Field>& b = rhs(k);
      Field d = Field::one();
      pair_kind kd;
      if (a.is_infinity()) {
        kd = pair_kind::right;
      } else if (b.is_infinity()) {
        kd = pair_kind::left;
      } else if (a.x != b.x) {
        kd = pair_kind::chord;
        d = b.x - a.x;
      } else if (a.y == b.y && !a.y.is_zero()) {
        kd = pair_kind::tangent;
        d = a.y.dbl();
      } else {
        kd = pair_kind::infinity;
      }
      kind[k] = kd;
      den[k] = d;
      pre[k] = acc;
      acc *= d;
    }
    Field inv = fast_inverse(acc);
    for (size_t k = m; k-- > 0;) {
      const Field dinv = inv * pre[k];
      if (k) inv *= den[k];
      const affine_t<Field>& a = lhs(k);
      const affine_t<Field>& b = rhs(k);
      switch (kind[k]) {
        case pair_kind::left:
          out(k, a);
          break;
        case pair_kind::right:
          out(k, b);
          break;
        case pair_kind::infinity:
          out(k, affine_t<Field>::infinity());
          break;
        default: {
          Field lambda;
          if (kind[k] == pair_kind::chord) {
            lambda = (b.y - a.y) * dinv;
          } else {
            const Field xx = a.x.sqr();
            lambda = (xx.dbl() + xx) * dinv;
          }
          const Field x3 = lambda.sqr() - a.x - b.x;
          const Field y3 = lambda * (a.x - x3) - a.y;
          out(k, affine_t<Field>{x3, y3});
        }
      }
    }
  }
};

// ---- one window over one range of terms
// -----------------------------------------------------------

template <class T>
std::unique_ptr<T[]> uninitialized_array(size_t n) {
  return std::unique_ptr<T[]>(new T[n]);
}

/// Bucket accumulation and reduction for window `w` over terms [begin, end): returns
/// Σ_b (b+1)·bucket_b. Buckets hold an affine part (batched additions) and an XYZZ part (additions
/// that hit a bucket already waiting in the current batch, or every addition when the buckets
/// are too few to batch).
template <class Field>
CUZK_FLATTEN xyzz_t<Field> window_sum(const affine_t<Field>* bases, const terms_t& terms,
                                      size_t begin, size_t end, unsigned w, const recode_t& rc) {
  using affine = affine_t<Field>;
  using xyzz = xyzz_t<Field>;
  enum : uint8_t { HAS_AFFINE = 1, QUEUED = 2, HAS_XYZZ = 4 };

  const unsigned c = rc.c, bit = w * c;
  const size_t nb = size_t(1) << (c - 1);
  const bool batched = nb >= BATCH_MIN_BUCKETS;
  const size_t batch = std::min<size_t>(BATCH_MAX, nb / BATCH_BUCKET_RATIO);

  std::vector<uint8_t> state(nb, 0);
  auto ab = uninitialized_array<affine>(batched ? nb : 0);
  auto xb = uninitialized_array<xyzz>(nb);

  auto add_xyzz = [&](size_t b, const affine& q) {
    if (state[b] & HAS_XYZZ) {
      xb[b] = xb[b].add_affine(q);
    } else {
      xb[b] = xyzz::from_affine(q);
      state[b] |= HAS_XYZZ;
    }
  };

  // The batch: bucket indices and the (signed) points to add to them; each bucket at most once.
  std::vector<uint32_t> qb(batched ? batch : 0);
  std::vector<affine> qp(batched ? batch : 0);
  // Additions whose bucket was already in the batch wait here for the next one (up to `batch` of
  // them; beyond that, or at the end, they go to the bucket's XYZZ part).
  std::vector<std::pair<uint32_t, affine>> deferred, retry;
  deferred.reserve(batched ? batch : 0);
  pair_adder<Field> adder(batched ? batch : 0);
  size_t queued = 0;
  auto flush = [&] {
    adder.run(
        queued, [&](size_t k) -> const affine& { return ab[qb[k]]; },
        [&](size_t k) -> const affine& { return qp[k]; },
        [&](size_t k, const affine& s) {
          const uint32_t b = qb[k];
          ab[b] = s;
          state[b] &= uint8_t(~QUEUED);
          if (s.is_infinity()) state[b] &= uint8_t(~HAS_AFFINE);
        });
    queued = 0;
  };
  auto insert = [&](uint32_t b, const affine& q) {
    const uint8_t st = state[b];
    if (!(st & HAS_AFFINE)) {
      ab[b] = q;
      state[b] = st | HAS_AFFINE;
    } else if (!(st & QUEUED)) {
      state[b] = st | QUEUED;
      qb[queued] = b;
      qp[queued] = q;
      ++queued;
    } else if (deferred.size() < batch) {
      deferred.emplace_back(b, q);
    } else {
      add_xyzz(b, q);
    }
  };
  // Flush the full batch and give the deferred additions a second chance (at most `batch` of them,
  // so the batch cannot overflow while they are re-inserted).
  auto flush_and_retry = [&] {
    flush();
    retry.swap(deferred);
    deferred.clear();
    for (const auto& [b, q] : retry) insert(b, q);
    retry.clear();
  };

  for (size_t j = begin; j < end; ++j) {
    const int d = read_digit(terms.k[j], bit, c);
    if (d == 0) continue;
    const uint32_t b = uint32_t(d < 0 ? -d : d) - 1;
    const affine& p = bases[terms.base[j]];
    const affine q = d < 0 ? affine{p.x, -p.y} : p;
    if (!batched) {
      add_xyzz(b, q);
      continue;
    }
    insert(b, q);
    while (queued == batch) flush_and_retry();
  }
  if (batched) {
    flush_and_retry();
    flush();
    for (const auto& [b, q] : deferred) add_xyzz(b, q);
  }

  // Σ (b+1)·B_b as Σ_b running_b with running_b = B_top + … + B_b.
  xyzz running = xyzz::infinity(), sum = xyzz::infinity();
  for (size_t b = nb; b-- > 0;) {
    const uint8_t st = state[b];
    if (st & HAS_AFFINE) running = running.add_affine(ab[b]);
    if (st & HAS_XYZZ) running += xb[b];
    sum += running;
  }
  return sum;
}

template <class Field>
jacobian_t<Field> run_pippenger(const affine_t<Field>* bases, const terms_t& terms,
                                const plan_t& plan, thread_pool& pool) {
  using xyzz = xyzz_t<Field>;
  const size_t n = terms.size();
  if (n == 0) return jacobian_t<Field>::infinity();
  const recode_t rc = make_recode(plan.c);
  const unsigned W = rc.windows, S = plan.splits;
  std::vector<xyzz> partial(size_t(W) * S, xyzz::infinity());
  // Tasks are numbered so that the top windows, which are often nearly empty, are handed out last.
  pool.parallel_for(size_t(W) * S, [&](size_t t) {
    const unsigned w = unsigned(t / S), s = unsigned(t % S);
    const size_t begin = n * s / S, end = n * (s + 1) / S;
    partial[t] = window_sum(bases, terms, begin, end, w, rc);
  });
  jacobian_t<Field> acc = jacobian_t<Field>::infinity();
  for (unsigned w = W; w-- > 0;) {
    for (unsigned i = 0; i < rc.c; ++i) acc = acc.dbl();
    xyzz ws = xyzz::infinity();
    for (unsigned s = 0; s < S; ++s) ws += partial[size_t(w) * S + s];
    acc += ws.to_jacobian();
  }
  return acc;
}

std::vector<uint32_t> set_bits(bitmap_view m) {
  std::vector<uint32_t> out;
  const size_t words = (m.count + 63) / 64;
  for (size_t i = 0; i < words; ++i) {
    uint64_t v = m.words[i];
    if (i + 1 == words && m.count % 64) v &= (uint64_t(1) << (m.count % 64)) - 1;
    while (v) {
      out.push_back(uint32_t(i * 64 + std::countr_zero(v)));
      v &= v - 1;
    }
  }
  return out;
}

template <class Field>
jacobian_t<Field> msm_impl(std::span<const affine_t<Field>> bases, std::span<const fr_t> scalars,
                           thread_pool& pool, const msm_config& cfg) {
  assert(bases.size() == scalars.size());
  plan_t plan;
  terms_t terms = prepare_terms(bases.data(), scalars, nullptr, scalars.size(), false, pool,
                                cfg.window_bits, plan);
  return run_pippenger(bases.data(), terms, plan, pool);
}

template <class Field>
jacobian_t<Field> msm_dense_impl(std::span<const affine_t<Field>> bases,
                                 std::span<const fr_t> scalars, bitmap_view density,
                                 thread_pool& pool, const msm_config& cfg) {
  assert(density.count == scalars.size());
  const std::vector<uint32_t> sel = set_bits(density);
  assert(bases.size() >= sel.size());
  plan_t plan;
  terms_t terms = prepare_terms(bases.data(), scalars, sel.data(), sel.size(), false, pool,
                                cfg.window_bits, plan);
  return run_pippenger(bases.data(), terms, plan, pool);
}

template <class Field>
jacobian_t<Field> msm_masked_impl(std::span<const affine_t<Field>> bases,
                                  std::span<const fr_t> scalars, bitmap_view mask,
                                  thread_pool& pool, const msm_config& cfg) {
  assert(bases.size() == scalars.size() && mask.count == scalars.size());
  const std::vector<uint32_t> sel = set_bits(mask);
  plan_t plan;
  terms_t terms = prepare_terms(bases.data(), scalars, sel.data(), sel.size(), true, pool,
                                cfg.window_bits, plan);
  return run_pippenger(bases.data(), terms, plan, pool);
}

// ---- batch_add
// --------------------------------------------------------------------------------------
//
// Blocks of BLOCK selected points are summed by a pairwise tree of batch-affine additions (one
// inversion per level) down to TAIL points, which are added in XYZZ; blocks run in parallel.

template <class Field>
jacobian_t<Field> batch_add_impl(std::span<const affine_t<Field>> bases, bitmap_view mask,
                                 thread_pool& pool) {
  using affine = affine_t<Field>;
  using xyzz = xyzz_t<Field>;
  assert(mask.count == bases.size());
  const std::vector<uint32_t> sel = set_bits(mask);
  constexpr size_t BLOCK = BATCH_ADD_BLOCK, TAIL = 16;
  const size_t blocks = (sel.size() + BLOCK - 1) / BLOCK;
  std::vector<xyzz> partial(blocks, xyzz::infinity());
  pool.parallel_for(blocks, [&](size_t t) {
    const size_t begin = t * BLOCK, end = std::min(sel.size(), begin + BLOCK);
    std::vector<affine> pts(end - begin), next((end - begin + 1) / 2);
    for (size_t j = begin; j < end; ++j) pts[j - begin] = bases[sel[j]];
    pair_adder<Field> adder(BLOCK / 2);
    size_t m = pts.size();
    while (m > TAIL) {
      // level: next[k] = pts[2k] + pts[2k+1]; an odd last point moves up unchanged
      const size_t half = m / 2;
      adder.run(
          half, [&](size_t k) -> const affine& { return pts[2 * k]; },
          [&](size_t k) -> const affine& { return pts[2 * k + 1]; },
          [&](size_t k, const affine& s) { next[k] = s; });
      if (m % 2) next[half] = pts[m - 1];
      m = half + m % 2;
      std::swap(pts, next);
    }
    xyzz acc = xyzz::infinity();
    for (size_t k = 0; k < m; ++k) acc = acc.add_affine(pts[k]);
    partial[t] = acc;
  });
  xyzz acc = xyzz::infinity();
  for (const xyzz& p : partial) acc += p;
  return acc.to_jacobian();
}

}  // namespace

unsigned choose_window(size_t n, unsigned threads) {
  return make_plan(n, threads, 0).c;
}

ec::g1_jacobian_t msm(std::span<const ec::g1_affine_t> bases, std::span<const fr_t> scalars,
                      thread_pool& pool, const msm_config& cfg) {
  return msm_impl<ff::fp_t>(bases, scalars, pool, cfg);
}
ec::g2_jacobian_t msm(std::span<const ec::g2_affine_t> bases, std::span<const fr_t> scalars,
                      thread_pool& pool, const msm_config& cfg) {
  return msm_impl<ff::fp2_t>(bases, scalars, pool, cfg);
}

ec::g1_jacobian_t msm_dense(std::span<const ec::g1_affine_t> bases, std::span<const fr_t> scalars,
                            bitmap_view density, thread_pool& pool, const msm_config& cfg) {
  return msm_dense_impl<ff::fp_t>(bases, scalars, density, pool, cfg);
}
ec::g2_jacobian_t msm_dense(std::span<const ec::g2_affine_t> bases, std::span<const fr_t> scalars,
                            bitmap_view density, thread_pool& pool, const msm_config& cfg) {
  return msm_dense_impl<ff::fp2_t>(bases, scalars, density, pool, cfg);
}

ec::g1_jacobian_t msm_masked(std::span<const ec::g1_affine_t> bases, std::span<const fr_t> scalars,
                             bitmap_view mask, thread_pool& pool, const msm_config& cfg) {
  return msm_masked_impl<ff::fp_t>(bases, scalars, mask, pool, cfg);
}
ec::g2_jacobian_t msm_masked(std::span<const ec::g2_affine_t> bases, std::span<const fr_t> scalars,
                             bitmap_view mask, thread_pool& pool, const msm_config& cfg) {
  return msm_masked_impl<ff::fp2_t>(bases, scalars, mask, pool, cfg);
}

ec::g1_jacobian_t batch_add(std::span<const ec::g1_affine_t> bases, bitmap_view mask,
                            thread_pool& pool) {
  return batch_add_impl<ff::fp_t>(bases, mask, pool);
}
ec::g2_jacobian_t batch_add(std::span<const ec::g2_affine_t> bases, bitmap_view mask,
                            thread_pool& pool) {
  return batch_add_impl<ff::fp2_t>(bases, mask, pool);
}

uint64_t split_bytes(size_t scalars, size_t kept, bool density) {
  const uint64_t bitmaps = 2 * sizeof(uint64_t) * ((uint64_t(kept) + 63) / 64);
  if (!density) return bitmaps;
  return bitmaps + uint64_t(kept) * sizeof(fr_t) +
         sizeof(size_t) * ((uint64_t(scalars) + 63) / 64 + 1);
}

uint64_t msm_thread_bytes() {
  using affine = affine_t<ff::fp2_t>;
  using xyzz = xyzz_t<ff::fp2_t>;
  const uint64_t buckets = uint64_t(1) << (MAX_WINDOW - 1);
  const uint64_t window = buckets * (1 + sizeof(affine) + sizeof(xyzz)) +
                          4 * BATCH_MAX * (sizeof(uint32_t) + sizeof(affine));
  return std::max(window, uint64_t(BATCH_ADD_BLOCK) * 2 * sizeof(affine));
}

witness_split_t split_witness(std::span<const fr_t> scalars, const bitmap_view* density,
                              thread_pool& pool) {
  witness_split_t out;
  const fr_t one = fr_t::one();
  // rank[w]: set density bits before density word w, so the k-th scalar of word w goes to
  // compacted index rank[w] + k. Without a density the identity map.
  std::vector<size_t> rank;
  if (density) {
    assert(density->count == scalars.size());
    const size_t dw = (density->count + 63) / 64;
    rank.resize(dw + 1, 0);
    for (size_t w = 0; w < dw; ++w) {
      uint64_t v = density->words[w];
      if (w + 1 == dw && density->count % 64) v &= (uint64_t(1) << (density->count % 64)) - 1;
      rank[w + 1] = rank[w] + size_t(std::popcount(v));
    }
    out.count = rank[dw];
    out.scalars.resize(out.count);
  } else {
    out.count = scalars.size();
  }
  const size_t words = (out.count + 63) / 64;
  out.ones.assign(words, 0);
  out.others.assign(words, 0);
  // Output words are independent: output word w holds compacted indices [64w, 64w + 64). With a
  // density, the input scalars of output word w start at the density bit of rank 64w, found by
  // binary search over rank.
  std::atomic<size_t> n_zero{0}, n_one{0}, n_other{0};
  pool.parallel_range(
      words,
      [&](size_t w0, size_t w1) {
        size_t z = 0, o = 0, x = 0;
        size_t dword = 0;
        uint64_t dbits = 0;
        if (density) {
          const size_t k0 = w0 * 64;
          dword = size_t(std::upper_bound(rank.begin(), rank.end(), k0) - rank.begin()) - 1;
          dbits = density->words[dword];
          for (size_t skip = k0 - rank[dword]; skip != 0; --skip) dbits &= dbits - 1;
        }
        for (size_t w = w0; w < w1; ++w) {
          uint64_t ones = 0, others = 0;
          const size_t end = std::min<size_t>(64, out.count - w * 64);
          for (size_t b = 0; b < end; ++b) {
            const fr_t* s = nullptr;
            if (density) {
              while (dbits == 0) dbits = density->words[++dword];
              s = &scalars[dword * 64 + size_t(std::countr_zero(dbits))];
              dbits &= dbits - 1;
              out.scalars[w * 64 + b] = *s;
            } else {
              s = &scalars[w * 64 + b];
            }
            if (s->is_zero()) {
              ++z;
            } else if (*s == one) {
              ++o;
              ones |= uint64_t(1) << b;
            } else {
              ++x;
              others |= uint64_t(1) << b;
            }
          }
          out.ones[w] = ones;
          out.others[w] = others;
        }
        n_zero += z;
        n_one += o;
        n_other += x;
      },
      16);
  out.num_zero = n_zero;
  out.num_one = n_one;
  out.num_other = n_other;
  return out;
}

}  // namespace cuzk::msm
