// SPDX-License-Identifier: Apache-2.0
// The constraint systems against each other and against hand computation:
//  - x^3 + x + 5 = out (out public) through every CS: counts, a/b/c, densities, input rows, nnz,
//    and the shape fingerprint against an independent Python model of its byte stream;
//  - duplicate terms: merged coefficients decide density (x + x - 2x is absent);
//  - random circuits: proving_cs == build_assignment_data(matrix_cs) exactly (a, b, c, densities),
//    shape_cs == summarize(matrices), witness_cs never builds an LC, is_satisfied finds a tamper;
//  - no heap allocation per constraint in proving_cs for short LCs (global operator new counted).
// This file replaces the global operator new/delete with malloc/free (to count allocations);
// GCC then flags every inlined new/delete pair as mismatched, which is not the case here.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "r1cs/assignment_data.hpp"
#include "r1cs/matrix_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "test_rng.hpp"

// Counts every global allocation in this test binary (the no-allocation-per-constraint test).
namespace {
std::atomic<size_t> g_allocs{0};
}
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

namespace cuzk::r1cs {
namespace {

using ff::fr_t;

fr_t u(uint64_t v) {
  return fr_t::from_uint(v);
}

std::vector<fr_t> to_vec(std::span<const fr_t> s) {
  return {s.begin(), s.end()};
}

// ---- x^3 + x + 5 = out --------------------------------------------------------------------------
// aux: x (0), x2 (1), x3 (2); inputs: ONE (0), out (1). Values carried by the gadget (as
// bellperson's Option values), so the shape CS needs none.
//   row 0: x · x = x2
//   row 1: x2 · x = x3
//   row 2: (x3 + x + 5·ONE) · ONE = out
template <class CS>
void cubic_circuit(CS& cs, uint64_t x_int) {
  const fr_t x_val = u(x_int), x2_val = x_val * x_val, x3_val = x2_val * x_val;
  namespace_guard<CS> ns(cs, "cubic");
  const variable x = cs.alloc([&] { return x_val; });
  const variable x2 = cs.alloc([&] { return x2_val; });
  cs.enforce([&](linear_combination& lc) { lc += x; }, [&](linear_combination& lc) { lc += x; },
             [&](linear_combination& lc) { lc += x2; });
  const variable x3 = cs.alloc([&] { return x3_val; });
  cs.enforce([&](linear_combination lc) { return std::move(lc) + x2; },  // functional form
             [&](linear_combination lc) { return std::move(lc) + x; },
             [&](linear_combination lc) { return std::move(lc) + x3; });
  const variable out = cs.alloc_input([&] { return x3_val + x_val + u(5); });
  cs.enforce(
      [&](linear_combination& lc) {
        lc += x3;
        lc += x;
        lc += u(5) * variable::one();
      },
      [&](linear_combination& lc) { lc += variable::one(); },
      [&](linear_combination& lc) { lc += out; });
}

TEST(r1cs, cubic_proving_cs_by_hand) {
  proving_cs cs;
  cubic_circuit(cs, 3);  // x2 = 9, x3 = 27, out = 35
  EXPECT_EQ(cs.num_constraints(), 3u);
  cs.finalize();
  EXPECT_EQ(cs.num_constraints(), 3u);
  EXPECT_EQ(cs.num_rows(), 5u);  // + ONE·0 = 0 and out·0 = 0
  EXPECT_EQ(to_vec(cs.inputs()), (std::vector<fr_t>{u(1), u(35)}));
  EXPECT_EQ(to_vec(cs.aux()), (std::vector<fr_t>{u(3), u(9), u(27)}));
  EXPECT_EQ(to_vec(cs.a()), (std::vector<fr_t>{u(3), u(9), u(35), u(1), u(35)}));
  EXPECT_EQ(to_vec(cs.b()), (std::vector<fr_t>{u(3), u(3), u(1), u(0), u(0)}));
  EXPECT_EQ(to_vec(cs.c()), (std::vector<fr_t>{u(9), u(27), u(35), u(0), u(0)}));
  // A uses x, x2, x3; B uses x (rows 0, 1) and ONE (row 2).
  EXPECT_EQ(cs.a_aux_density().size(), 3u);
  EXPECT_EQ(cs.a_aux_density().popcount(), 3u);
  EXPECT_EQ(cs.b_input_density().size(), 2u);
  EXPECT_TRUE(cs.b_input_density().test(0));
  EXPECT_FALSE(cs.b_input_density().test(1));
  EXPECT_EQ(cs.b_aux_density().size(), 3u);
  EXPECT_TRUE(cs.b_aux_density().test(0));
  EXPECT_FALSE(cs.b_aux_density().test(1));
  EXPECT_FALSE(cs.b_aux_density().test(2));
  EXPECT_EQ(cs.b_aux_density().popcount(), 1u);
}

// The engine recycles one proving_cs per in-flight partition: after reset() a second synthesis
// gives exactly what a fresh object gives, and the storage is reused, not reallocated.
TEST(r1cs, proving_cs_reset_reuses_storage) {
  proving_cs fresh;
  cubic_circuit(fresh, 5);
  fresh.finalize();

  proving_cs cs;
  cs.reserve(8, 8, 4);
  EXPECT_EQ(cs.capacity_bytes(), proving_cs::reserve_bytes(8, 8, 4));
  cubic_circuit(cs, 3);
  cs.finalize();
  const fr_t* a_storage = cs.a().data();
  const size_t capacity = cs.capacity_bytes();
  cs.reset();
  EXPECT_FALSE(cs.finalized());
  EXPECT_EQ(cs.num_rows(), 0u);
  EXPECT_EQ(cs.num_inputs(), 1u);  // ONE again
  EXPECT_EQ(cs.num_aux(), 0u);
  cubic_circuit(cs, 5);
  cs.finalize();
  EXPECT_EQ(cs.a().data(), a_storage);
  EXPECT_EQ(cs.capacity_bytes(), capacity);
  EXPECT_EQ(to_vec(cs.a()), to_vec(fresh.a()));
  EXPECT_EQ(to_vec(cs.b()), to_vec(fresh.b()));
  EXPECT_EQ(to_vec(cs.c()), to_vec(fresh.c()));
  EXPECT_EQ(to_vec(cs.aux()), to_vec(fresh.aux()));
  EXPECT_EQ(to_vec(cs.inputs()), to_vec(fresh.inputs()));
  EXPECT_EQ(cs.a_aux_density().popcount(), fresh.a_aux_density().popcount());
  EXPECT_EQ(cs.b_aux_density().popcount(), fresh.b_aux_density().popcount());
  EXPECT_EQ(cs.b_input_density().popcount(), fresh.b_input_density().popcount());
}

TEST(r1cs, cubic_all_constraint_systems) {
  witness_cs w;
  cubic_circuit(w, 3);
  EXPECT_EQ(w.num_constraints(), 3u);
  EXPECT_EQ(to_vec(w.inputs()), (std::vector<fr_t>{u(1), u(35)}));
  EXPECT_EQ(to_vec(w.aux()), (std::vector<fr_t>{u(3), u(9), u(27)}));

  matrix_witness_cs mw;
  cubic_circuit(mw, 3);
  EXPECT_EQ(mw.value(variable::input(1)), u(35));
  const std::vector<fr_t> inputs = to_vec(mw.inputs()), aux = to_vec(mw.aux());
  matrix_cs mc;
  cubic_circuit(mc, 3);
  const matrices m = mc.take_matrices();
  ASSERT_TRUE(validate(m).ok());
  EXPECT_EQ(m.num_inputs, 2u);
  EXPECT_EQ(m.num_aux, 3u);
  EXPECT_EQ(m.num_constraints(), 3u);
  EXPECT_EQ(m.num_rows(), 5u);
  // Row 2 of A, merged and sorted by column: 5·ONE (col 0), x (col 2), x3 (col 4).
  EXPECT_EQ(m.a.row_offsets, (std::vector<uint64_t>{0, 1, 2, 5}));
  EXPECT_EQ(m.a.columns, (std::vector<uint32_t>{2, 3, 0, 2, 4}));
  EXPECT_EQ(m.a.coeffs[2], u(5));
  EXPECT_EQ(m.b.columns, (std::vector<uint32_t>{2, 2, 0}));
  EXPECT_EQ(m.c.columns, (std::vector<uint32_t>{3, 4, 1}));
  EXPECT_FALSE(is_satisfied(m, inputs, aux).has_value());
  std::vector<fr_t> bad_aux = aux;
  bad_aux[2] += u(1);  // x3 wrong: row 1 fails first
  EXPECT_EQ(is_satisfied(m, inputs, bad_aux), std::optional<size_t>(1));

  auto data = build_assignment_data(m, inputs, aux, thread_pool::default_pool());
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  EXPECT_EQ(data->a, (std::vector<fr_t>{u(3), u(9), u(35), u(1), u(35)}));
  EXPECT_EQ(data->b, (std::vector<fr_t>{u(3), u(3), u(1), u(0), u(0)}));
  EXPECT_EQ(data->c, (std::vector<fr_t>{u(9), u(27), u(35), u(0), u(0)}));
  EXPECT_EQ(data->density.a_aux.popcount(), 3u);
  EXPECT_EQ(data->density.b_input.popcount(), 1u);
  EXPECT_EQ(data->density.b_aux.popcount(), 1u);

  shape_cs s;
  cubic_circuit(s, 3);
  const shape_summary sum = s.summary();
  EXPECT_EQ(sum.num_constraints, 3u);
  EXPECT_EQ(sum.num_inputs, 2u);
  EXPECT_EQ(sum.num_aux, 3u);
  EXPECT_EQ(sum.nnz_a, 5u);
  EXPECT_EQ(sum.nnz_b, 3u);
  EXPECT_EQ(sum.nnz_c, 3u);
  EXPECT_EQ(sum.a_aux_density, 3u);
  EXPECT_EQ(sum.b_input_density, 1u);
  EXPECT_EQ(sum.b_aux_density, 1u);
  // An independent Python model of the byte stream in docs/notes/r1cs.md (hashlib.blake2s) gives:
  EXPECT_EQ(sum.hash_hex(), "123f3922919715ea614923963f63d07890feb315777ae36e96edd08ba0f814d6");
  EXPECT_EQ(summarize(m), sum);
  // The shape does not depend on the witness.
  shape_cs s5;
  cubic_circuit(s5, 5);
  EXPECT_EQ(s5.summary(), sum);
}

TEST(r1cs, input_sizes_checked) {
  matrix_cs mc;
  cubic_circuit(mc, 3);
  const matrices m = mc.take_matrices();
  std::vector<fr_t> inputs{u(1), u(35)}, aux{u(3), u(9)};
  auto r = build_assignment_data(m, inputs, aux, thread_pool::default_pool());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), status_code::size_mismatch);
  matrices broken = m;
  broken.c.columns[0] = 5;  // out of range
  EXPECT_EQ(validate(broken).code(), status_code::bad_encoding);
  broken = m;
  broken.b.row_offsets.pop_back();
  EXPECT_FALSE(validate(broken).ok());
}

// (x + x - 2x) · (y + y - y) = 0: A's merged coefficient of x is zero, so x is not A-dense and A
// has no entries; B holds y with coefficient 1. A long LC with cancelling terms takes the
// merge-in-scratch path of proving_cs.
template <class CS>
void duplicate_circuit(CS& cs) {
  const variable x = cs.alloc([] { return u(7); });
  const variable y = cs.alloc([] { return u(11); });
  std::vector<variable> z;
  for (int i = 0; i < 10; ++i) z.push_back(cs.alloc([i] { return u(100 + i); }));
  cs.enforce(
      [&](linear_combination& lc) {
        lc += x;
        lc += x;
        lc -= u(2) * x;
      },
      [&](linear_combination& lc) {
        lc += y;
        lc += y;
        lc -= y;
      },
      [](linear_combination&) {});
  // A = Σz - Σz + z3 (21 terms), B = ONE, C = z3
  cs.enforce(
      [&](linear_combination& lc) {
        for (variable v : z) lc += v;
        for (variable v : z) lc -= v;
        lc += z[3];
      },
      [&](linear_combination& lc) { lc += variable::one(); },
      [&](linear_combination& lc) {
        lc += z[3];
        lc += u(0) * z[4];
      });
}

TEST(r1cs, duplicate_terms_merge) {
  proving_cs p;
  duplicate_circuit(p);
  p.finalize();
  EXPECT_EQ(to_vec(p.a()), (std::vector<fr_t>{u(0), u(103), u(1)}));
  EXPECT_EQ(to_vec(p.b()), (std::vector<fr_t>{u(11), u(1), u(0)}));
  EXPECT_EQ(to_vec(p.c()), (std::vector<fr_t>{u(0), u(103), u(0)}));
  EXPECT_EQ(p.a_aux_density().popcount(), 1u);
  EXPECT_TRUE(p.a_aux_density().test(2 + 3));  // z3 only; not x
  EXPECT_EQ(p.b_aux_density().popcount(), 1u);
  EXPECT_TRUE(p.b_aux_density().test(1));  // y
  EXPECT_EQ(p.b_input_density().popcount(), 1u);

  shape_cs s;
  duplicate_circuit(s);
  const shape_summary sum = s.summary();
  EXPECT_EQ(sum.nnz_a, 1u);  // row 0: nothing; row 1: z3
  EXPECT_EQ(sum.nnz_b, 2u);
  EXPECT_EQ(sum.nnz_c, 1u);  // the 0·z4 term is dropped
  EXPECT_EQ(sum.a_aux_density, 1u);

  matrix_cs mc;
  duplicate_circuit(mc);
  const matrices m = mc.take_matrices();
  EXPECT_EQ(m.a.nnz(), 1u);
  EXPECT_EQ(summarize(m), sum);
}

// ---- random circuits ---------------------------------------------------------------------------
// Generated once (structure and values) and replayed into each CS, so every CS sees the same calls.
struct random_circuit {
  struct op {
    enum kind_t { alloc_aux, alloc_input, enforce } kind;
    fr_t value;                   // alloc
    std::vector<lc_term> lcs[3];  // enforce
  };
  std::vector<op> ops;
  std::vector<fr_t> inputs{fr_t::one()}, aux;

  fr_t value(variable v) const { return v.is_input() ? inputs[v.index()] : aux[v.index()]; }
  fr_t eval(const std::vector<lc_term>& t) const {
    fr_t s = fr_t::zero();
    for (const auto& x : t) s += x.coeff * value(x.var);
    return s;
  }

  static random_circuit make(test::test_rng& rng, size_t num_ops) {
    random_circuit rc;
    auto coeff = [&]() -> fr_t {
      switch (rng.below(6)) {
        case 0:
          return fr_t::one();
        case 1:
          return -fr_t::one();
        case 2:
          return fr_t::zero();
        default:
          return fr_t::random(rng);
      }
    };
    auto pick = [&]() -> variable {
      // prefer recent variables (repeats within an LC happen often)
      if (rc.aux.empty() || rng.below(5) == 0) {
        return variable::input(uint32_t(rng.below(rc.inputs.size())));
      }
      const size_t n = rc.aux.size();
      return variable::aux(uint32_t(n - 1 - rng.below(std::min<size_t>(n, 8))));
    };
    auto random_lc = [&](size_t max_terms) {
      std::vector<lc_term> t;
      const size_t n = rng.below(max_terms + 1);
      for (size_t i = 0; i < n; ++i) t.push_back({coeff(), pick()});
      return t;
    };
    for (size_t i = 0; i < num_ops; ++i) {
      const uint64_t r = rng.below(10);
      if (r < 3 || rc.aux.size() < 2) {
        op o{op::alloc_aux, fr_t::random(rng), {}};
        rc.aux.push_back(o.value);
        rc.ops.push_back(o);
      } else if (r == 3) {
        op o{op::alloc_input, fr_t::random(rng), {}};
        rc.inputs.push_back(o.value);
        rc.ops.push_back(o);
      } else {
        op o{op::enforce, {}, {}};
        o.lcs[0] = random_lc(rng.below(4) ? 3 : 20);
        o.lcs[1] = random_lc(rng.below(4) ? 3 : 20);
        o.lcs[2] = random_lc(4);
        // Make the row hold: add (a·b - c)/value(v) · v to C for a variable v with a nonzero value.
        const fr_t gap = rc.eval(o.lcs[0]) * rc.eval(o.lcs[1]) - rc.eval(o.lcs[2]);
        const variable v = pick();
        o.lcs[2].push_back({gap * rc.value(v).inverse(), v});
        rc.ops.push_back(o);
      }
    }
    return rc;
  }

  // Replays into cs; counts LC-closure calls. Alternates the two closure forms.
  template <class CS>
  void synthesize(CS& cs, size_t* lc_calls) const {
    size_t row = 0;
    for (const op& o : ops) {
      switch (o.kind) {
        case op::alloc_aux:
          cs.alloc([&] { return o.value; });
          break;
        case op::alloc_input:
          cs.alloc_input([&] { return o.value; });
          break;
        case op::enforce: {
          auto in_place = [&](int k) {
            return [&, k](linear_combination& lc) {
              ++*lc_calls;
              for (const lc_term& t : o.lcs[k]) lc += t;
            };
          };
          auto functional = [&](int k) {
            return [&, k](linear_combination lc) {
              ++*lc_calls;
              for (const lc_term& t : o.lcs[k]) lc += t;
              return lc;
            };
          };
          if (row++ % 2) {
            cs.enforce(in_place(0), functional(1), in_place(2));
          } else {
            cs.enforce(functional(0), in_place(1), functional(2));
          }
        }
      }
    }
  }
};

void expect_same_bitmap(const bitmap& x, const bitmap& y, const char* what) {
  ASSERT_EQ(x.size(), y.size()) << what;
  EXPECT_EQ(x.popcount(), y.popcount()) << what;
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(x.test(i), y.test(i)) << what << " bit " << i;
}

// The same circuit as an unmerged file might hold it (an iden3 .r1cs need not be merged): every
// entry c·x becomes (c + d)·x and -d·x in reverse order, plus an explicit 0·x entry.
matrices unmerge(const matrices& m, test::test_rng& rng) {
  matrices out = m;
  for (auto [src, dst] : {std::pair{&m.a, &out.a}, {&m.b, &out.b}, {&m.c, &out.c}}) {
    dst->row_offsets = {0};
    dst->columns.clear();
    dst->coeffs.clear();
    for (size_t r = 0; r < src->num_rows(); ++r) {
      for (uint64_t k = src->row_offsets[r + 1]; k-- > src->row_offsets[r];) {
        const fr_t d = fr_t::random(rng);
        dst->columns.insert(dst->columns.end(), {src->columns[k], src->columns[k]});
        dst->coeffs.insert(dst->coeffs.end(), {src->coeffs[k] + d, -d});
        if (rng.below(3) == 0) {
          dst->columns.push_back(uint32_t(rng.below(m.num_variables())));
          dst->coeffs.push_back(fr_t::zero());
        }
      }
      dst->row_offsets.push_back(dst->columns.size());
    }
  }
  return out;
}

TEST(r1cs, random_circuits_agree) {
  auto rng = test::test_rng::from_env("random_circuits_agree");
  thread_pool pool(2);
  for (int iter = 0; iter < 20; ++iter) {
    const random_circuit rc = random_circuit::make(rng, 50 + rng.below(400));
    size_t calls = 0;

    proving_cs p;
    rc.synthesize(p, &calls);
    const size_t n = p.num_constraints();
    EXPECT_EQ(calls, 3 * n);
    p.finalize();
    EXPECT_EQ(to_vec(p.inputs()), rc.inputs);
    EXPECT_EQ(to_vec(p.aux()), rc.aux);

    witness_cs w;
    calls = 0;
    rc.synthesize(w, &calls);
    EXPECT_EQ(calls, 0u) << "witness_cs must not build LCs";
    EXPECT_EQ(w.num_constraints(), n);
    EXPECT_EQ(to_vec(w.inputs()), rc.inputs);
    EXPECT_EQ(to_vec(w.aux()), rc.aux);

    matrix_cs mc;
    rc.synthesize(mc, &calls);
    const matrices m = mc.take_matrices();
    ASSERT_TRUE(validate(m).ok());
    ASSERT_EQ(m.num_constraints(), n);
    EXPECT_FALSE(is_satisfied(m, rc.inputs, rc.aux).has_value());

    // From the witness CS's vectors, as a precompiled-circuit prover would.
    const auto w_inputs = w.take_inputs(), w_aux = w.take_aux();
    auto data = build_assignment_data(m, w_inputs, w_aux, pool);
    ASSERT_TRUE(data.ok()) << data.error().to_string();
    EXPECT_EQ(data->a, to_vec(p.a()));
    EXPECT_EQ(data->b, to_vec(p.b()));
    EXPECT_EQ(data->c, to_vec(p.c()));
    expect_same_bitmap(data->density.a_aux, p.a_aux_density(), "a_aux");
    expect_same_bitmap(data->density.b_input, p.b_input_density(), "b_input");
    expect_same_bitmap(data->density.b_aux, p.b_aux_density(), "b_aux");

    shape_cs s;
    rc.synthesize(s, &calls);
    const shape_summary sum = s.summary();
    EXPECT_EQ(sum, summarize(m));
    EXPECT_EQ(sum.nnz_a, m.a.nnz());
    EXPECT_EQ(sum.nnz_b, m.b.nnz());
    EXPECT_EQ(sum.nnz_c, m.c.nnz());
    EXPECT_EQ(sum.a_aux_density, p.a_aux_density().popcount());
    EXPECT_EQ(sum.b_input_density, p.b_input_density().popcount());
    EXPECT_EQ(sum.b_aux_density, p.b_aux_density().popcount());
    // The unmerged form of the same circuit has the same values, densities and fingerprint.
    const matrices mu = unmerge(m, rng);
    ASSERT_TRUE(validate(mu).ok());
    auto data_u = build_assignment_data(mu, w_inputs, w_aux, pool);
    ASSERT_TRUE(data_u.ok());
    EXPECT_EQ(data_u->a, data->a);
    EXPECT_EQ(data_u->b, data->b);
    EXPECT_EQ(data_u->c, data->c);
    expect_same_bitmap(data_u->density.a_aux, p.a_aux_density(), "unmerged a_aux");
    expect_same_bitmap(data_u->density.b_input, p.b_input_density(), "unmerged b_input");
    expect_same_bitmap(data_u->density.b_aux, p.b_aux_density(), "unmerged b_aux");
    EXPECT_EQ(summarize(mu), sum);
    // Stable across runs.
    shape_cs s2;
    rc.synthesize(s2, &calls);
    EXPECT_EQ(s2.summary().hash, sum.hash);

    // One coefficient changed: the fingerprint changes, and the witness no longer satisfies it.
    size_t r = rng.below(m.num_constraints());
    while (m.c.row_offsets[r] == m.c.row_offsets[r + 1]) r = (r + 1) % m.num_constraints();
    matrices m2 = m;
    m2.c.coeffs[m2.c.row_offsets[r]] += fr_t::one();
    EXPECT_NE(summarize(m2).hash, sum.hash);
    const auto bad = is_satisfied(m2, rc.inputs, rc.aux);
    ASSERT_TRUE(bad.has_value());
    EXPECT_EQ(*bad, r);
  }
}

// No allocation per constraint: after reserve() and one warm-up constraint, 10^5 enforces with
// 3-term LCs (and 10-term ones, which live in the reused LCs' heap buffers) allocate nothing.
TEST(r1cs, proving_cs_enforce_does_not_allocate) {
  constexpr size_t N = 100000;
  proving_cs cs;
  cs.reserve(2 * N + 1, 16, 1);
  std::vector<variable> v;
  for (int i = 0; i < 16; ++i) v.push_back(cs.alloc([i] { return u(i + 2); }));
  const fr_t k = u(12345);
  auto body = [&](size_t i) {
    const variable x = v[i % 16], y = v[(i + 5) % 16], z = v[(i + 9) % 16];
    cs.enforce(
        [&](linear_combination& lc) {
          lc += x;
          lc -= y;
          lc += k * z;
        },
        [&](linear_combination& lc) {
          lc += variable::one();
          lc += y;
          lc += x;
        },
        [&](linear_combination lc) { return std::move(lc) + z - x; });
  };
  auto wide = [&](size_t i) {
    cs.enforce(
        [&](linear_combination& lc) {
          for (int j = 0; j < 10; ++j) lc += v[(i + j) % 16];
        },
        [&](linear_combination& lc) { lc += variable::one(); },
        [&](linear_combination lc) {
          for (int j = 0; j < 10; ++j) lc += v[(i + j + 3) % 16];
          return lc;
        });
  };
  body(0);
  wide(0);  // warms the reused LCs and the merge scratch
  const size_t before = g_allocs.load();
  for (size_t i = 1; i < N; ++i) {
    body(i);
    wide(i);
  }
  EXPECT_EQ(g_allocs.load() - before, 0u);
  EXPECT_EQ(cs.num_constraints(), 2 * N);
}

}  // namespace
}  // namespace cuzk::r1cs
