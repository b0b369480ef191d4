// SPDX-License-Identifier: Apache-2.0
// bellpepper's AllocatedNum: a field element in one variable. alloc/alloc_input (0 constraints),
// inputize (1 input + input·1 = x), the non-strict to_bits_le (255 allocated bits, LSB first, plus
// 0·0 = Σ 2^i b_i − x: 256 constraints / 255 aux), add/mul (1/1), and constraint::equal (a·1 = b).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/fields.hpp"
#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/multieq.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin::gadgets {

/// Fr NUM_BITS: what to_bits_le allocates.
inline constexpr size_t FR_NUM_BITS = 255;

struct allocated_num_t {
  variable var;
  fr_t value = fr_t::zero();  ///< meaningless in a CS without values
};

template <class CS>
allocated_num_t alloc_num(CS& cs, const fr_t& value) {
  return {cs.alloc([&] { return value; }), value};
}

template <class CS>
allocated_num_t alloc_input_num(CS& cs, const fr_t& value) {
  return {cs.alloc_input([&] { return value; }), value};
}

/// inputize: allocates an input with x's value and enforces input·1 = x. Returns the input.
template <class CS>
allocated_num_t inputize(CS& cs, const allocated_num_t& x) {
  const variable in = cs.alloc_input([&] { return x.value; });
  const variable v = x.var;
  cs.enforce([in](linear_combination& lc) { lc += in; },
             [](linear_combination& lc) { lc += variable::one(); },
             [v](linear_combination& lc) { lc += v; });
  return {in, x.value};
}

/// The non-strict to_bits_le: 255 bits of the canonical value, LSB first, each allocated with its
/// boolean constraint, then the unpacking constraint 0·0 = Σ 2^i b_i − x. Writes 255 booleans.
template <class CS>
void to_bits_le(CS& cs, const allocated_num_t& x, boolean_t* out255) {
  const auto limbs = x.value.to_canonical();
  for (size_t i = 0; i < FR_NUM_BITS; ++i) {
    out255[i] = boolean_t::from_bit(alloc_bit(cs, (limbs[i / 64] >> (i % 64)) & 1));
  }
  auto empty = [](linear_combination&) {};
  cs.enforce(empty, empty, [&](linear_combination& lc) {
    const auto& p2 = pow2_table();
    lc.reserve(FR_NUM_BITS + 1);
    for (size_t i = 0; i < FR_NUM_BITS; ++i) lc.push(p2[i], out255[i].var);
    lc -= x.var;
  });
}

/// a + b in a new aux: (a + b)·1 = sum.
template <class CS>
allocated_num_t num_add(CS& cs, const allocated_num_t& a, const allocated_num_t& b) {
  const fr_t s = a.value + b.value;
  const variable v = cs.alloc([&] { return s; });
  cs.enforce(
      [&](linear_combination& lc) {
        lc += a.var;
        lc += b.var;
      },
      [](linear_combination& lc) { lc += variable::one(); },
      [v](linear_combination& lc) { lc += v; });
  return {v, s};
}

/// a · b in a new aux: a·b = product.
template <class CS>
allocated_num_t num_mul(CS& cs, const allocated_num_t& a, const allocated_num_t& b) {
  const fr_t p = a.value * b.value;
  const variable v = cs.alloc([&] { return p; });
  cs.enforce([&](linear_combination& lc) { lc += a.var; },
             [&](linear_combination& lc) { lc += b.var; },
             [v](linear_combination& lc) { lc += v; });
  return {v, p};
}

/// storage-proofs constraint::equal: a·1 = b.
template <class CS>
void enforce_num_equal(CS& cs, const allocated_num_t& a, const allocated_num_t& b) {
  cs.enforce([&](linear_combination& lc) { lc += a.var; },
             [](linear_combination& lc) { lc += variable::one(); },
             [&](linear_combination& lc) { lc += b.var; });
}

}  // namespace cuzk::filecoin::gadgets
