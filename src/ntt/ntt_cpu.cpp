// SPDX-License-Identifier: Apache-2.0
// CPU NTT: radix-2 Gentleman–Sande (DIF, natural → bit-reversed) and Cooley–Tukey (DIT,
// bit-reversed → natural) butterflies, organised as a four-step (Bailey) transform for sizes above
// 2^12 so that every butterfly runs on a block that fits in L2. Coset factors, m^-1 and the
// four-step twiddles are folded into one multiplication per element (derivation below). Values
// stay in [0, 2r) between butterflies (ntt_kernels.hpp); the last pass reduces them to [0, r).
#include "ntt/ntt_cpu.hpp"
#include "base/check.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "ntt/ntt_kernels.hpp"

namespace cuzk::ntt {

using ff::fr_t;

namespace {

using detail::addsub_lazy;
using detail::mul_lazy;
using detail::reduce;

/// The low `bits` bits of x in reverse order.
inline size_t rev_bits(size_t x, unsigned bits) {
  if (bits == 0) return 0;
  uint64_t v = x;
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
  v = __builtin_bswap64(v);
  return size_t(v >> (64 - bits));
}

// ---- in-cache radix-2 kernels -------------------------------------------------------------------

/// Gentleman–Sande DIF over 2^lg elements: natural order in, bit-reversed out. tw is the stage
/// table of domain_t (tw[h + j] = w_2h^j). Butterfly (x, y) → (x + y, (x − y)·w) on [0, 2r)
/// (ntt_kernels.hpp); the j = 0 butterfly of every block has w = 1 and skips the multiplication
/// (≈ 2^lg of the (2^lg/2)·lg).
void dif_local(fr_t* a, unsigned lg, const fr_t* tw) {
  const size_t len = size_t(1) << lg;
  for (size_t h = len >> 1; h >= 1; h >>= 1) {
    const fr_t* w = tw + h;
    for (size_t blk = 0; blk < len; blk += 2 * h) {
      fr_t* x = a + blk;
      fr_t* y = x + h;
      addsub_lazy(x[0], y[0]);
      for (size_t j = 1; j < h; ++j) detail::dif_bfly(x[j], y[j], w[j]);
    }
  }
}

/// Cooley–Tukey DIT over 2^lg elements: bit-reversed in, natural out. (x, y) → (x + w·y, x − w·y)
/// on [0, 2r).
void dit_local(fr_t* a, unsigned lg, const fr_t* tw) {
  const size_t len = size_t(1) << lg;
  for (size_t h = 1; h < len; h <<= 1) {
    const fr_t* w = tw + h;
    for (size_t blk = 0; blk < len; blk += 2 * h) {
      fr_t* x = a + blk;
      fr_t* y = x + h;
      addsub_lazy(x[0], y[0]);
      for (size_t j = 1; j < h; ++j) detail::dit_bfly(x[j], y[j], w[j]);
    }
  }
}

// ---- the generalised transform
// --------------------------------------------------------------------
//
// Every public variant is  out[k] = d^k · Σ_i (s · c^i · in[i]) · w^(ik)  with
//   fft:        w = ω,    s = 1,     c = 1,  d = 1
//   ifft:       w = ω^-1, s = m^-1,  c = 1,  d = 1
//   coset_fft:  w = ω,    s = 1,     c = g,  d = 1
//   icoset_fft: w = ω^-1, s = m^-1,  c = 1,  d = g^-1
//
// Four-step, m = N1·N2 (N1 = 2^log_cols columns' length, N2 = 2^log_rows row length), array viewed
// as N1 rows × N2 columns.
//
// DIF flow (natural in, bit-reversed out). Input index i = N2·i1 + i2, output k = k1 + N1·k2:
//   w^(ik) = w_N1^(i1·k1) · w^(i2·k1) · w_N2^(i2·k2)                       (w^(N2·N1) = 1)
//   1. column i2: DIF of length N1 over i1 of  c^(N2·i1)·in[N2·i1 + i2]  → row bitrev(k1)
//   2. multiply by T(k1, i2) = s · c^i2 · d^k1 · w^(i2·k1)  (a geometric sequence in k1)
//   3. row bitrev(k1): DIF of length N2 over i2 → position bitrev(k2); multiply by d^(N1·k2).
//   The element k ends at N2·bitrev_N1(k1) + bitrev_N2(k2) = bitrev_m(k): exactly the DIF order.
//
// DIT flow (bit-reversed in, natural out). Input index i = i1 + N1·i2 at position
// N2·bitrev(i1) + bitrev(i2), output k = N2·k1 + k2:
//   w^(ik) = w_N2^(i2·k2) · w^(i1·k2) · w_N1^(i1·k1)
//   1. row bitrev(i1): multiply by c^(N1·i2), DIT of length N2 over i2 → natural k2
//   2. multiply by T(i1, k2) = s · c^i1 · d^k2 · w^(i1·k2)  (a geometric sequence in i1)
//   3. column k2: DIT of length N1 over i1 → natural k1 at N2·k1 + k2; multiply by d^(N2·k1).
//
// Multiplications per element beyond the butterflies: the twiddle T and its running product (2),
// plus one per table factor that is not 1. The scalar factors ride along with T for free.

struct transform_t {
  fr_t w;          ///< root of the transform (ω or ω^-1)
  const fr_t* tw;  ///< stage table for w
  bool has_s = false, has_c = false, has_d = false;
  fr_t s = fr_t::one(), c = fr_t::one(), d = fr_t::one();
};

/// t[j] = base^(f(j)) for j < n where f(j) = j (bitrev = false) or bitrev_lg(j).
std::vector<fr_t> power_table(const fr_t& base, unsigned lg, bool bitrev) {
  const size_t n = size_t(1) << lg;
  std::vector<fr_t> t(n);
  fr_t p = fr_t::one();
  for (size_t j = 0; j < n; ++j) {
    t[bitrev ? rev_bits(j, lg) : j] = p;
    p *= base;
  }
  return t;
}

/// Columns gathered per task: ≥ 2 elements (one cache line) per row touched, and the block
/// (cols × 2^log_cols elements) within 2^14 elements = 512 KiB.
size_t cols_per_block(unsigned log_cols, unsigned log_rows) {
  size_t b = (size_t(1) << 14) >> log_cols;
  b = std::clamp<size_t>(b, 2, 8);
  return std::min(b, size_t(1) << log_rows);
}

std::vector<fr_t>& scratch(size_t n) {
  thread_local std::vector<fr_t> buf;
  if (buf.size() < n) buf.resize(n);
  return buf;
}

/// col[bitrev(k)] ·= f0·ratio^k for k < 2^lg (lazy). Two interleaved running products (even and
/// odd k, step ratio²) halve the latency chain of the factor updates.
void apply_geometric(fr_t* col, unsigned lg, const fr_t& f0, const fr_t& ratio) {
  const size_t n = size_t(1) << lg;
  if (n == 1) {
    mul_lazy(col[0], f0);
    return;
  }
  const fr_t r2 = ratio.sqr();
  fr_t fe = f0, fo = f0 * ratio;
  for (size_t k = 0; k < n; k += 2) {
    mul_lazy(col[rev_bits(k, lg)], fe);
    mul_lazy(col[rev_bits(k + 1, lg)], fo);
    fe *= r2;
    fo *= r2;
  }
}

void small_dif(fr_t* a, unsigned lg, const transform_t& t) {
  const size_t n = size_t(1) << lg;
  if (t.has_s || t.has_c) {
    fr_t f = t.s;
    for (size_t i = 0; i < n; ++i) {
      mul_lazy(a[i], f);
      if (t.has_c) f *= t.c;
    }
  }
  dif_local(a, lg, t.tw);
  if (t.has_d) {
    fr_t f = fr_t::one();
    for (size_t k = 0; k < n; ++k) {
      mul_lazy(a[rev_bits(k, lg)], f);
      f *= t.d;
    }
  }
  for (size_t i = 0; i < n; ++i) reduce(a[i]);
}

void small_dit(fr_t* a, unsigned lg, const transform_t& t) {
  const size_t n = size_t(1) << lg;
  if (t.has_s || t.has_c) {
    fr_t f = t.s;
    for (size_t i = 0; i < n; ++i) {
      mul_lazy(a[rev_bits(i, lg)], f);
      if (t.has_c) f *= t.c;
    }
  }
  dit_local(a, lg, t.tw);
  if (t.has_d) {
    fr_t f = fr_t::one();
    for (size_t k = 0; k < n; ++k) {
      mul_lazy(a[k], f);
      f *= t.d;
    }
  }
  for (size_t i = 0; i < n; ++i) reduce(a[i]);
}

void dif_flow(const domain_t& dom, fr_t* a, const transform_t& t, thread_pool& pool) {
  const unsigned l1 = dom.log_cols(), l2 = dom.log_rows();
  if (l1 == 0) return small_dif(a, l2, t);
  const size_t n1 = size_t(1) << l1, n2 = size_t(1) << l2;
  const size_t cols = cols_per_block(l1, l2);

  std::vector<fr_t> cin;  // c^(N2·i1)
  if (t.has_c) cin = power_table(t.c.pow(uint64_t(n2)), l1, false);
  pool.parallel_for(n2 / cols, [&](size_t task) {
    const size_t c0 = task * cols;
    fr_t* buf = scratch(cols * n1).data();
    for (size_t r = 0; r < n1; ++r) {
      const fr_t* src = a + r * n2 + c0;
      for (size_t b = 0; b < cols; ++b) {
        buf[b * n1 + r] = src[b];
        if (t.has_c) mul_lazy(buf[b * n1 + r], cin[r]);
      }
    }
    fr_t wi2 = t.w.pow(uint64_t(c0));                        // w^i2
    fr_t ci2 = t.has_c ? t.c.pow(uint64_t(c0)) * t.s : t.s;  // s·c^i2
    for (size_t b = 0; b < cols; ++b) {
      fr_t* col = buf + b * n1;
      dif_local(col, l1, t.tw);
      const fr_t ratio = t.has_d ? wi2 * t.d : wi2;  // T(k1 + 1, i2) / T(k1, i2)
      apply_geometric(col, l1, ci2, ratio);
      wi2 *= t.w;
      if (t.has_c) ci2 *= t.c;
    }
    for (size_t r = 0; r < n1; ++r) {
      fr_t* dst = a + r * n2 + c0;
      for (size_t b = 0; b < cols; ++b) dst[b] = buf[b * n1 + r];
    }
  });

  std::vector<fr_t> dout;  // d^(N1·k2) at position bitrev(k2)
  if (t.has_d) dout = power_table(t.d.pow(uint64_t(n1)), l2, true);
  pool.parallel_for(n1, [&](size_t r) {
    fr_t* row = a + r * n2;
    dif_local(row, l2, t.tw);
    if (t.has_d)
      for (size_t q = 0; q < n2; ++q) mul_lazy(row[q], dout[q]);
    for (size_t q = 0; q < n2; ++q) reduce(row[q]);
  });
}

void dit_flow(const domain_t& dom, fr_t* a, const transform_t& t, thread_pool& pool) {
  const unsigned l1 = dom.log_cols(), l2 = dom.log_rows();
  if (l1 == 0) return small_dit(a, l2, t);
  const size_t n1 = size_t(1) << l1, n2 = size_t(1) << l2;
  const size_t cols = cols_per_block(l1, l2);

  std::vector<fr_t> cin;  // c^(N1·i2) at position bitrev(i2)
  if (t.has_c) cin = power_table(t.c.pow(uint64_t(n1)), l2, true);
  pool.parallel_for(n1, [&](size_t r) {
    fr_t* row = a + r * n2;
    if (t.has_c)
      for (size_t q = 0; q < n2; ++q) mul_lazy(row[q], cin[q]);
    dit_local(row, l2, t.tw);
  });

  std::vector<fr_t> dout;  // d^(N2·k1)
  if (t.has_d) dout = power_table(t.d.pow(uint64_t(n2)), l1, false);
  pool.parallel_for(n2 / cols, [&](size_t task) {
    const size_t c0 = task * cols;
    fr_t* buf = scratch(cols * n1).data();
    for (size_t r = 0; r < n1; ++r) {
      const fr_t* src = a + r * n2 + c0;
      for (size_t b = 0; b < cols; ++b) buf[b * n1 + r] = src[b];
    }
    fr_t wk2 = t.w.pow(uint64_t(c0));                        // w^k2
    fr_t dk2 = t.has_d ? t.d.pow(uint64_t(c0)) * t.s : t.s;  // s·d^k2
    for (size_t b = 0; b < cols; ++b) {
      fr_t* col = buf + b * n1;
      const fr_t ratio = t.has_c ? wk2 * t.c : wk2;  // T(i1 + 1, k2) / T(i1, k2)
      apply_geometric(col, l1, dk2, ratio);
      dit_local(col, l1, t.tw);
      wk2 *= t.w;
      if (t.has_d) dk2 *= t.d;
    }
    for (size_t r = 0; r < n1; ++r) {
      fr_t* dst = a + r * n2 + c0;
      for (size_t b = 0; b < cols; ++b) {
        fr_t v = buf[b * n1 + r];
        if (t.has_d) mul_lazy(v, dout[r]);
        reduce(v);
        dst[b] = v;
      }
    }
  });
}

void run(const domain_t& dom, std::span<fr_t> a, thread_pool& pool, bool inverse, bool coset,
         ntt_order order) {
  if (a.size() != dom.size()) {
    // A size mismatch is a caller bug, not a data error (arithmetic has no error path:
    // CONTRIBUTING.md "Code rules").
    precondition_failed(__func__, "array of %zu elements for a domain of %llu", a.size(),
                        (unsigned long long)dom.size());
  }
  transform_t t;
  t.w = inverse ? dom.omega_inv() : dom.omega();
  t.tw = dom.stage_twiddles(inverse).data();
  if (inverse) {
    t.has_s = true;
    t.s = dom.size_inv();
    if (coset) {
      t.has_d = true;
      t.d = dom.coset_gen_inv();
    }
  } else if (coset) {
    t.has_c = true;
    t.c = dom.coset_gen();
  }
  fr_t* p = a.data();
  switch (order) {
    case ntt_order::nr:
      dif_flow(dom, p, t, pool);
      break;
    case ntt_order::rn:
      dit_flow(dom, p, t, pool);
      break;
    case ntt_order::nn:
      dif_flow(dom, p, t, pool);
      bit_reverse(a, pool);
      break;
    case ntt_order::rr:
      bit_reverse(a, pool);
      dif_flow(dom, p, t, pool);
      break;
  }
}

}  // namespace

void fft(const domain_t& d, std::span<fr_t> a, thread_pool& pool, ntt_order order) {
  run(d, a, pool, false, false, order);
}
void ifft(const domain_t& d, std::span<fr_t> a, thread_pool& pool, ntt_order order) {
  run(d, a, pool, true, false, order);
}
void coset_fft(const domain_t& d, std::span<fr_t> a, thread_pool& pool, ntt_order order) {
  run(d, a, pool, false, true, order);
}
void icoset_fft(const domain_t& d, std::span<fr_t> a, thread_pool& pool, ntt_order order) {
  run(d, a, pool, true, true, order);
}

void bit_reverse(std::span<fr_t> a, thread_pool& pool) {
  const size_t n = a.size();
  unsigned lg = 0;
  while ((size_t(1) << lg) < n) ++lg;
  if ((size_t(1) << lg) != n) {
    precondition_failed(__func__, "size %zu is not a power of two", n);
  }
  fr_t* p = a.data();
  constexpr unsigned TILE = 4;  // 16 × 16 tiles: 16 rows of 512 contiguous bytes on each side
  if (lg < 2 * TILE + 1) {
    for (size_t i = 0; i < n; ++i) {
      const size_t j = rev_bits(i, lg);
      if (i < j) std::swap(p[i], p[j]);
    }
    return;
  }
  // i = (hi, mid, lo) with TILE, lg − 2·TILE, TILE bits maps to (rev lo, rev mid, rev hi): the tile
  // of mid m swaps with the tile of rev(m), so each task owns a disjoint pair of tiles.
  const unsigned mid_bits = lg - 2 * TILE;
  const size_t tile = size_t(1) << TILE;
  pool.parallel_range(size_t(1) << mid_bits, [&](size_t m_begin, size_t m_end) {
    for (size_t m = m_begin; m < m_end; ++m) {
      const size_t m2 = rev_bits(m, mid_bits);
      if (m2 < m) continue;
      for (size_t hi = 0; hi < tile; ++hi) {
        for (size_t lo = 0; lo < tile; ++lo) {
          const size_t i = (hi << (TILE + mid_bits)) | (m << TILE) | lo;
          const size_t j =
              (rev_bits(lo, TILE) << (TILE + mid_bits)) | (m2 << TILE) | rev_bits(hi, TILE);
          if (m < m2 || i < j) std::swap(p[i], p[j]);
        }
      }
    }
  });
}

}  // namespace cuzk::ntt
