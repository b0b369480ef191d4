// SPDX-License-Identifier: Apache-2.0
// Core gadgets against the shapes of docs/spec/gadgets.md §2 / bellpepper: AllocatedBit (1/1, (1 −
// a)·a = 0), xor/and/and_not/nor rows and constant folding over every Is/Not/Constant combination,
// ch/maj values and costs over all 4^3 operand kinds, to_bits_le (256/255), inputize,
// pack_into_inputs, pack_bits, UInt32 views and addmany widths (33-36 bits), and the MultiEq flush
// rule. Rows are read back from r1cs::matrix_cs (merged, sorted) and every witness is checked with
// is_satisfied. Also: SHA-256 synthesis in proving_cs makes no per-constraint heap allocation
// (global operator new is replaced by a counting malloc wrapper; GCC then flags inlined new/delete
// pairs as mismatched, which they are not).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include <algorithm>
#include <functional>
#include <vector>

#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/multieq.hpp"
#include "filecoin/gadgets/multipack.hpp"
#include "filecoin/gadgets/num.hpp"
#include "filecoin/gadgets/sha256.hpp"
#include "filecoin/gadgets/uint32.hpp"
#include "r1cs/assignment_data.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_rng.hpp"

namespace {
std::atomic<size_t> g_allocs{0};
}  // namespace

void* operator new(size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}
void* operator new[](size_t n) {
  return operator new(n);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t) noexcept {
  std::free(p);
}

namespace cuzk::filecoin::gadgets {
namespace {

using r1cs::matrices;
using r1cs::matrix_witness_cs;

// A recorded circuit with its witness.
struct recorded_t {
  matrices m;
  std::vector<fr_t> inputs, aux;
  bool satisfied() const { return !r1cs::is_satisfied(m, inputs, aux).has_value(); }
  size_t rows() const { return m.a.num_rows(); }
  // Row r of matrix `which` as (column, coefficient) pairs, columns: inputs then aux.
  std::vector<std::pair<uint32_t, fr_t>> row(const r1cs::sparse_matrix& sm, size_t r) const {
    std::vector<std::pair<uint32_t, fr_t>> out;
    for (size_t k = sm.row_offsets[r]; k < sm.row_offsets[r + 1]; ++k) {
      out.emplace_back(sm.columns[k], sm.coeffs[k]);
    }
    return out;
  }
  uint32_t col(variable v) const {
    return v.is_input() ? v.index() : uint32_t(m.num_inputs) + v.index();
  }
};

recorded_t record(const std::function<void(matrix_witness_cs&)>& f) {
  matrix_witness_cs cs;
  f(cs);
  recorded_t r;
  r.inputs.assign(cs.inputs().begin(), cs.inputs().end());
  r.aux.assign(cs.aux().begin(), cs.aux().end());
  r.m = cs.take_matrices();
  return r;
}

using lc_t = std::vector<std::pair<uint32_t, fr_t>>;
lc_t sorted(lc_t v) {
  std::sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return v;
}
fr_t fe(int64_t v) {
  return v >= 0 ? fr_t::from_uint(uint64_t(v)) : -fr_t::from_uint(uint64_t(-v));
}

// A boolean of the given kind (0 = const false, 1 = const true, 2 = Is, 3 = Not) whose value is
// `value` (ignored for constants).
template <class CS>
boolean_t make(CS& cs, int kind, bool value) {
  switch (kind) {
    case 0:
      return boolean_t::constant(false);
    case 1:
      return boolean_t::constant(true);
    case 2:
      return boolean_t::from_bit(alloc_bit(cs, value));
    default:
      return !boolean_t::from_bit(alloc_bit(cs, !value));
  }
}
bool kind_value(int kind, bool v) {
  return kind == 0 ? false : kind == 1 ? true : v;
}

TEST(gadgets, allocated_bit) {
  for (bool v : {false, true}) {
    allocated_bit_t b;
    const auto r = record([&](auto& cs) { b = alloc_bit(cs, v); });
    ASSERT_EQ(r.rows(), 1u);
    ASSERT_EQ(r.aux.size(), 1u);
    EXPECT_EQ(r.aux[0], bit_value(v));
    EXPECT_TRUE(r.satisfied());
    const uint32_t a = r.col(b.var);
    EXPECT_EQ(r.row(r.m.a, 0), (lc_t{{0, fe(1)}, {a, fe(-1)}}));
    EXPECT_EQ(r.row(r.m.b, 0), (lc_t{{a, fe(1)}}));
    EXPECT_TRUE(r.row(r.m.c, 0).empty());
  }
  // A non-boolean value breaks the constraint.
  auto r = record([&](auto& cs) { alloc_bit(cs, true); });
  r.aux[0] = fr_t::from_uint(2);
  EXPECT_FALSE(r.satisfied());
}

TEST(gadgets, xor_and_shapes_and_folding) {
  for (int ka = 0; ka < 4; ++ka) {
    for (int kb = 0; kb < 4; ++kb) {
      for (int va = 0; va < 2; ++va) {
        for (int vb = 0; vb < 2; ++vb) {
          boolean_t x, y, rx, ra;
          size_t before = 0, mid = 0;
          const auto r = record([&](auto& cs) {
            x = make(cs, ka, va);
            y = make(cs, kb, vb);
            before = cs.num_constraints();
            rx = boolean_xor(cs, x, y);
            mid = cs.num_constraints();
            ra = boolean_and(cs, x, y);
          });
          const bool a = kind_value(ka, va), b = kind_value(kb, vb);
          EXPECT_EQ(rx.value, a ^ b);
          EXPECT_EQ(ra.value, a & b);
          EXPECT_TRUE(r.satisfied());
          const bool both = ka >= 2 && kb >= 2;
          EXPECT_EQ(mid - before, both ? 1u : 0u) << ka << kb;
          EXPECT_EQ(r.rows() - mid, both ? 1u : 0u) << ka << kb;
          if (!both) continue;
          // xor row: the Is operand (or the first, when kinds agree) is doubled in A.
          const bool swap = ka == 3 && kb == 2;
          const uint32_t p = r.col((swap ? y : x).var), q = r.col((swap ? x : y).var);
          const uint32_t c = r.col(rx.var);
          EXPECT_EQ(r.row(r.m.a, mid - 1), (lc_t{{p, fe(2)}}));
          EXPECT_EQ(r.row(r.m.b, mid - 1), (lc_t{{q, fe(1)}}));
          EXPECT_EQ(r.row(r.m.c, mid - 1), sorted(lc_t{{p, fe(1)}, {q, fe(1)}, {c, fe(-1)}}));
          EXPECT_EQ(rx.is_negated(), ka != kb);
          // and row: Is·Is -> a·b; Is·Not -> is·(1 − not); Not·Not -> (1 − a)·(1 − b).
          const uint32_t ca = r.col(ra.var), ua = r.col(x.var), ub = r.col(y.var);
          const size_t row = mid;
          if (ka == 2 && kb == 2) {
            EXPECT_EQ(r.row(r.m.a, row), (lc_t{{ua, fe(1)}}));
            EXPECT_EQ(r.row(r.m.b, row), (lc_t{{ub, fe(1)}}));
          } else if (ka == 3 && kb == 3) {
            EXPECT_EQ(r.row(r.m.a, row), (lc_t{{0, fe(1)}, {ua, fe(-1)}}));
            EXPECT_EQ(r.row(r.m.b, row), (lc_t{{0, fe(1)}, {ub, fe(-1)}}));
          } else {
            const uint32_t is = ka == 2 ? ua : ub, nt = ka == 2 ? ub : ua;
            EXPECT_EQ(r.row(r.m.a, row), (lc_t{{is, fe(1)}}));
            EXPECT_EQ(r.row(r.m.b, row), (lc_t{{0, fe(1)}, {nt, fe(-1)}}));
          }
          EXPECT_EQ(r.row(r.m.c, row), (lc_t{{ca, fe(1)}}));
        }
      }
    }
  }
}

// Expected cost of and(x, y) by the folding rule: 1 when both are allocated, else 0.
size_t and_cost(int kx, int ky) {
  return kx >= 2 && ky >= 2 ? 1 : 0;
}
int not_kind(int k) {
  return k == 0 ? 1 : k == 1 ? 0 : k == 2 ? 3 : 2;
}

TEST(gadgets, ch_maj_all_kinds) {
  for (int ka = 0; ka < 4; ++ka)
    for (int kb = 0; kb < 4; ++kb)
      for (int kc = 0; kc < 4; ++kc)
        for (int v = 0; v < 8; ++v) {
          boolean_t ch, mj;
          size_t base = 0, mid = 0;
          const auto r = record([&](auto& cs) {
            const boolean_t a = make(cs, ka, v & 1), b = make(cs, kb, v & 2),
                            c = make(cs, kc, v & 4);
            base = cs.num_constraints();
            ch = sha256_ch(cs, a, b, c);
            mid = cs.num_constraints();
            mj = sha256_maj(cs, a, b, c);
          });
          const bool a = kind_value(ka, v & 1), b = kind_value(kb, v & 2),
                     c = kind_value(kc, v & 4);
          EXPECT_EQ(ch.value, (a & b) ^ (!a & c));
          EXPECT_EQ(mj.value, (a & b) ^ (a & c) ^ (b & c));
          EXPECT_TRUE(r.satisfied()) << ka << kb << kc << v;
          // Costs from the rule lists (docs/spec/gadgets.md §2, bellpepper sha256_ch / sha256_maj).
          size_t want_ch, want_maj;
          const bool ca = ka < 2, cb = kb < 2, cc = kc < 2;
          if (ca && cb && cc) {
            want_ch = 0;
          } else if (ka == 0) {
            want_ch = 0;
          } else if (kb == 0) {
            want_ch = and_cost(not_kind(ka), kc);
          } else if (kc == 0) {
            want_ch = and_cost(ka, kb);
          } else if (kc == 1) {
            want_ch = and_cost(ka, not_kind(kb));
          } else if (kb == 1) {
            want_ch = and_cost(not_kind(ka), not_kind(kc));
          } else {
            want_ch = 1;  // general, including a = constant true
          }
          if (ca && cb && cc) {
            want_maj = 0;
          } else if (ka == 0) {
            want_maj = and_cost(kb, kc);
          } else if (kb == 0) {
            want_maj = and_cost(ka, kc);
          } else if (kc == 0) {
            want_maj = and_cost(ka, kb);
          } else if (kc == 1) {
            want_maj = and_cost(ka, kb);
          } else if (kb == 1) {
            want_maj = and_cost(ka, kc);
          } else if (ka == 1) {
            want_maj = and_cost(kb, kc);
          } else {
            want_maj = 2;
          }
          EXPECT_EQ(mid - base, want_ch) << ka << kb << kc;
          EXPECT_EQ(r.rows() - mid, want_maj) << ka << kb << kc;
        }
}

// General maj: maj is allocated before bc, and the row is (2bc − b − c)·a = bc − maj.
TEST(gadgets, maj_allocation_order) {
  boolean_t a, b, c, m;
  const auto r = record([&](auto& cs) {
    a = make(cs, 2, true);
    b = make(cs, 2, false);
    c = make(cs, 2, true);
    m = sha256_maj(cs, a, b, c);
  });
  ASSERT_EQ(r.aux.size(), 5u);
  EXPECT_EQ(m.var.index(), 3u);  // maj first, bc = aux 4
  const uint32_t ua = r.col(a.var), ub = r.col(b.var), uc = r.col(c.var), um = r.col(m.var);
  const uint32_t ubc = um + 1;
  EXPECT_EQ(r.row(r.m.a, 4), (lc_t{{ub, fe(-1)}, {uc, fe(-1)}, {ubc, fe(2)}}));
  EXPECT_EQ(r.row(r.m.b, 4), (lc_t{{ua, fe(1)}}));
  EXPECT_EQ(r.row(r.m.c, 4), (lc_t{{um, fe(-1)}, {ubc, fe(1)}}));
  EXPECT_TRUE(r.satisfied());
}

TEST(gadgets, num_to_bits_le_inputize) {
  auto rng = test::test_rng::from_env("gadgets.num_to_bits_le");
  for (int t = 0; t < 4; ++t) {
    const fr_t x = t == 0 ? -fr_t::one() : fr_t::random(rng);
    std::array<boolean_t, 255> bits;
    const auto r = record([&](auto& cs) {
      const allocated_num_t n = alloc_num(cs, x);
      to_bits_le(cs, n, bits.data());
    });
    EXPECT_EQ(r.rows(), 256u);
    EXPECT_EQ(r.aux.size(), 256u);  // the number + 255 bits
    EXPECT_TRUE(r.satisfied());
    EXPECT_EQ(r.row(r.m.c, 255).size(), 256u);
    EXPECT_TRUE(r.row(r.m.a, 255).empty());
    const auto limbs = x.to_canonical();
    for (size_t i = 0; i < 255; ++i)
      EXPECT_EQ(bits[i].value, bool((limbs[i / 64] >> (i % 64)) & 1));
  }
  const fr_t x = fr_t::from_uint(77);
  const auto r = record([&](auto& cs) { inputize(cs, alloc_num(cs, x)); });
  EXPECT_EQ(r.rows(), 1u);
  EXPECT_EQ(r.inputs.size(), 2u);
  EXPECT_EQ(r.inputs[1], x);
  EXPECT_EQ(r.row(r.m.a, 0), (lc_t{{1, fe(1)}}));
  EXPECT_EQ(r.row(r.m.b, 0), (lc_t{{0, fe(1)}}));
  EXPECT_TRUE(r.satisfied());
}

TEST(gadgets, multipack) {
  auto rng = test::test_rng::from_env("gadgets.multipack");
  std::vector<bool> vals(300);
  for (size_t i = 0; i < vals.size(); ++i) vals[i] = rng() & 1;
  const auto r = record([&](auto& cs) {
    std::vector<boolean_t> bits;
    for (size_t i = 0; i < vals.size(); ++i) {
      // mix allocated, negated and constant bits
      bits.push_back(i % 7 == 3 ? boolean_t::constant(vals[i]) : make(cs, 2 + int(i % 2), vals[i]));
    }
    const size_t before = cs.num_constraints();
    pack_into_inputs(cs, std::span<const boolean_t>(bits));
    EXPECT_EQ(cs.num_constraints() - before, 2u);
    const allocated_num_t p = pack_bits(cs, std::span<const boolean_t>(bits));
    EXPECT_EQ(p.value, compute_multipacking(vals)[0]);
  });
  EXPECT_TRUE(r.satisfied());
  const auto want = compute_multipacking(vals);
  ASSERT_EQ(want.size(), 2u);
  ASSERT_EQ(r.inputs.size(), 3u);
  EXPECT_EQ(r.inputs[1], want[0]);
  EXPECT_EQ(r.inputs[2], want[1]);

  // bytes -> bits orders and reverse_bit_numbering.
  const uint8_t bytes[2] = {0x81, 0x06};
  EXPECT_EQ(bytes_to_bits(bytes),
            (std::vector<bool>{1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0}));
  EXPECT_EQ(bytes_to_bits_le(bytes),
            (std::vector<bool>{1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0}));
  std::array<boolean_t, 10> in;
  for (int i = 0; i < 10; ++i) in[i] = boolean_t::constant(i == 1 || i == 9);
  std::array<boolean_t, 16> out;
  EXPECT_EQ(reverse_bit_numbering(in, out.data()), 16u);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i].value, i == 6 || i == 14) << i;
}

TEST(gadgets, uint32_views_and_addmany_widths) {
  auto rng = test::test_rng::from_env("gadgets.uint32");
  const uint32_t v = uint32_t(rng());
  const word32_t c = word32_t::constant(v);
  EXPECT_EQ(c.rotr(7).value, (v >> 7) | (v << 25));
  EXPECT_EQ(c.shr(3).value, v >> 3);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(c.rotr(7).bits[i].value, bool(((v >> 7) | (v << 25)) >> i & 1));
    EXPECT_EQ(c.shr(3).bits[i].value, bool((v >> 3) >> i & 1));
  }
  boolean_t be[32];
  c.to_bits_be(be);
  EXPECT_EQ(word32_t::from_bits_be(be).value, v);

  for (size_t n = 2; n <= 10; ++n) {
    const size_t want_bits = n == 2 ? 33 : n <= 4 ? 34 : n <= 8 ? 35 : 36;
    std::vector<uint32_t> vals(n);
    uint64_t sum = 0;
    for (auto& x : vals) sum += (x = uint32_t(rng()));
    word32_t res;
    size_t before = 0, after = 0;
    const auto r = record([&](auto& cs) {
      std::vector<word32_t> ops;
      for (size_t k = 0; k < n; ++k) {
        // one constant operand, one negated, the rest allocated
        if (k == 0) {
          ops.push_back(word32_t::constant(vals[k]));
        } else {
          word32_t w = word32_t::alloc(cs, ~vals[k]);
          for (auto& b : w.bits) b = !b;
          w.value = vals[k];
          ops.push_back(w);
        }
      }
      before = cs.num_constraints();
      multieq<std::remove_reference_t<decltype(cs)>> meq(cs);
      res = addmany(meq, std::span<const word32_t>(ops));
      after = cs.num_constraints();
    });
    EXPECT_EQ(res.value, uint32_t(sum));
    EXPECT_EQ(after - before, want_bits) << n;
    EXPECT_EQ(r.rows() - after, 1u);  // the final MultiEq flush
    EXPECT_TRUE(r.satisfied()) << n;
  }
  // All-constant operands fold to a constant.
  {
    r1cs::witness_cs cs;
    multieq<r1cs::witness_cs> meq(cs);
    const std::array<word32_t, 3> ops = {word32_t::constant(1), word32_t::constant(2),
                                         word32_t::constant(0xffffffff)};
    const word32_t s = addmany(meq, std::span<const word32_t>(ops));
    meq.finish();
    EXPECT_EQ(s.value, 2u);
    EXPECT_TRUE(s.all_constant());
    EXPECT_EQ(cs.num_constraints(), 0u);
  }
}

// MultiEq: 33-bit equalities; the 8th would reach 264 ≥ 254 bits, so a flush row comes right after
// its 33 result bits' rows and before it is recorded; finish() flushes the rest.
TEST(gadgets, multieq_flush_rule) {
  const auto r = record([&](auto& cs) {
    using CS = std::remove_reference_t<decltype(cs)>;
    std::vector<word32_t> words;
    for (int k = 0; k < 16; ++k) words.push_back(word32_t::alloc(cs, uint32_t(k * 0x9e3779b9u)));
    const size_t base = cs.num_constraints();
    {
      multieq<CS> meq(cs);
      for (int k = 0; k < 8; ++k) {
        const std::array<word32_t, 2> ops = {words[2 * k], words[2 * k + 1]};
        addmany(meq, std::span<const word32_t>(ops));
        const size_t want = size_t(k + 1) * 33 + (k == 7 ? 1 : 0);
        EXPECT_EQ(cs.num_constraints() - base, want) << k;
      }
    }
    EXPECT_EQ(cs.num_constraints() - base, 8u * 33u + 2u);
  });
  EXPECT_TRUE(r.satisfied());
  // The first flush row (after the 8th sum's bits) packs 7 equalities: A has 14·32 operand terms.
  const size_t flush_row = 16 * 32 + 8 * 33;
  EXPECT_EQ(r.row(r.m.a, flush_row).size(), 14u * 32u);
  EXPECT_EQ(r.row(r.m.b, flush_row), (lc_t{{0, fe(1)}}));
  EXPECT_EQ(r.row(r.m.c, flush_row).size(), 7u * 33u);
}

TEST(gadgets, enforce_equal) {
  const auto r = record([&](auto& cs) {
    const boolean_t a = make(cs, 2, true), b = make(cs, 3, true);
    EXPECT_TRUE(boolean_enforce_equal(cs, a, b));
    EXPECT_TRUE(boolean_enforce_equal(cs, a, boolean_t::constant(true)));
    EXPECT_TRUE(boolean_enforce_equal(cs, boolean_t::constant(false), !b));
    EXPECT_FALSE(boolean_enforce_equal(cs, boolean_t::constant(false), boolean_t::constant(true)));
    EXPECT_EQ(cs.num_constraints(), 5u);
  });
  EXPECT_TRUE(r.satisfied());
}

// 20 SHA blocks (≈ 522 k rows) in a reserved proving_cs: only the two MultiEq buffers per
// compression allocate, nothing per constraint.
TEST(gadgets, sha256_no_per_constraint_allocation) {
  r1cs::proving_cs cs;
  cs.reserve(1200000, 1200000, 1);
  std::vector<boolean_t> msg(1248 * 8);
  for (size_t i = 0; i < msg.size(); ++i) {
    msg[i] = i % 5 == 0 ? boolean_t::constant(i % 3 == 0)
                        : boolean_t::from_bit(alloc_bit(cs, (i * 2654435761u) >> 7 & 1));
  }
  boolean_t out[256];
  sha256(cs, std::span<const boolean_t>(msg), out);  // warms the CS's scratch LCs
  const size_t rows0 = cs.num_constraints();
  const size_t before = g_allocs.load();
  sha256(cs, std::span<const boolean_t>(msg), out);
  const size_t allocs = g_allocs.load() - before;
  EXPECT_GT(cs.num_constraints() - rows0, 500000u);
  EXPECT_LE(allocs, 2u * 20u);
}

}  // namespace
}  // namespace cuzk::filecoin::gadgets
