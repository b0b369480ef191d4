// SPDX-License-Identifier: Apache-2.0
// storage-proofs-core gadgets/insertion.rs, constraint-exact (docs/spec/gadgets.md §2): pick (a
// 1-constraint multiplexer), insert (place the running hash among its arity − 1 siblings at the
// position given by LE index bits: 2 / 8 / 22 constraints for arity 2 / 4 / 8, in insertion.rs's
// fixed order), and select (a pick tree from the MSB down, 2^n − 1 picks). Templates over the CS
// concept; values ride along in allocated_num_t so the same code runs in witness, proving, shape
// and matrix CSs.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <vector>

#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/num.hpp"

namespace cuzk::filecoin::gadgets {

/// c = a if cond else b: allocates c, then (b − a)·cond = b − c. (1/1)
template <class CS>
allocated_num_t pick(CS& cs, const boolean_t& cond, const allocated_num_t& a,
                     const allocated_num_t& b) {
  const fr_t v = cond.value ? a.value : b.value;
  const variable c = cs.alloc([&] { return v; });
  cs.enforce(
      [&](linear_combination& lc) {
        lc += b.var;
        lc -= a.var;
      },
      [&](linear_combination& lc) { cond.add_to(lc); },
      [&](linear_combination& lc) {
        lc += b.var;
        lc -= c;
      });
  return {c, v};
}

/// from[index] where bits = index LSB first (from.size() = 2^bits.size()). The bits are consumed
/// MSB first, each halving the candidates: pick(bit, state[half + j], state[j]) for j < half.
/// 2^n − 1 picks.
template <class CS>
allocated_num_t select(CS& cs, std::span<const allocated_num_t> from,
                       std::span<const boolean_t> bits) {
  assert(from.size() == (size_t(1) << bits.size()));
  std::vector<allocated_num_t> state(from.begin(), from.end());
  size_t half = from.size() / 2;
  for (size_t k = bits.size(); k-- > 0;) {
    for (size_t j = 0; j < half; ++j) state[j] = pick(cs, bits[k], state[half + j], state[j]);
    half /= 2;
  }
  return state[0];
}

namespace detail {

template <class CS>
void insert_2(CS& cs, const allocated_num_t& e, const boolean_t* bits, const allocated_num_t* s,
              allocated_num_t* out) {
  out[0] = pick(cs, bits[0], s[0], e);
  out[1] = pick(cs, bits[0], e, s[0]);
}

// Slots [A b c d] for index 0 (A = elem); pN_xy = output N once b0 = x, b1 = y are known.
template <class CS>
void insert_4(CS& cs, const allocated_num_t& a, const boolean_t* bits, const allocated_num_t* s,
              allocated_num_t* out) {
  const boolean_t &b0 = bits[0], &b1 = bits[1];
  const allocated_num_t &b = s[0], &c = s[1], &d = s[2];
  const allocated_num_t p0_x0 = pick(cs, b0, b, a);
  out[0] = pick(cs, b1, b, p0_x0);
  const allocated_num_t p1_x0 = pick(cs, b0, a, b);
  out[1] = pick(cs, b1, c, p1_x0);
  const allocated_num_t p2_x1 = pick(cs, b0, d, a);
  out[2] = pick(cs, b1, p2_x1, c);
  const allocated_num_t p3_x1 = pick(cs, b0, a, d);
  out[3] = pick(cs, b1, p3_x1, d);
}

// Slots [A b c d e f g h]; nor(b0, b1) and and(b0, b1) first, then 20 picks in insertion.rs order.
template <class CS>
void insert_8(CS& cs, const allocated_num_t& a, const boolean_t* bits, const allocated_num_t* s,
              allocated_num_t* out) {
  const boolean_t &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  // insertion.rs requires allocated, unnegated bits here (it panics otherwise).
  assert(b0.is_allocated() && b1.is_allocated());
  const boolean_t b0_nor_b1 = boolean_t::from_bit(detail::bit_nor(cs, b0.bit(), b1.bit()));
  const boolean_t b0_and_b1 = boolean_t::from_bit(detail::bit_and(cs, b0.bit(), b1.bit()));
  const allocated_num_t &b = s[0], &c = s[1], &d = s[2], &e = s[3], &f = s[4], &g = s[5], &h = s[6];

  const allocated_num_t p0_xx0 = pick(cs, b0_nor_b1, a, b);
  out[0] = pick(cs, b2, b, p0_xx0);

  const allocated_num_t p1_x00 = pick(cs, b0, a, b);
  const allocated_num_t p1_xx0 = pick(cs, b1, c, p1_x00);
  out[1] = pick(cs, b2, c, p1_xx0);

  const allocated_num_t p2_x10 = pick(cs, b0, d, a);
  const allocated_num_t p2_xx0 = pick(cs, b1, p2_x10, c);
  out[2] = pick(cs, b2, d, p2_xx0);

  const allocated_num_t p3_xx0 = pick(cs, b0_and_b1, a, d);
  out[3] = pick(cs, b2, e, p3_xx0);

  const allocated_num_t p4_xx1 = pick(cs, b0_nor_b1, a, f);
  out[4] = pick(cs, b2, p4_xx1, e);

  const allocated_num_t p5_x01 = pick(cs, b0, a, f);
  const allocated_num_t p5_xx1 = pick(cs, b1, g, p5_x01);
  out[5] = pick(cs, b2, p5_xx1, f);

  const allocated_num_t p6_x11 = pick(cs, b0, h, a);
  const allocated_num_t p6_xx1 = pick(cs, b1, p6_x11, g);
  out[6] = pick(cs, b2, p6_xx1, g);

  const allocated_num_t p7_xx1 = pick(cs, b0_and_b1, a, h);
  out[7] = pick(cs, b2, p7_xx1, h);
}

}  // namespace detail

/// insertion.rs insert: writes the size = siblings.size() + 1 = 2^bits.size() slots with `elem` at
/// position index (bits LSB first) and the siblings in order around it. Arity 2 / 4 / 8 use the
/// hand-built networks (2 / 8 / 22 constraints); other sizes one select per output position
/// (size·(size − 1) picks), exactly as insertion.rs falls back.
template <class CS>
void insert(CS& cs, const allocated_num_t& elem, std::span<const boolean_t> bits,
            std::span<const allocated_num_t> siblings, allocated_num_t* out) {
  const size_t size = siblings.size() + 1;
  assert(size == (size_t(1) << bits.size()));
  if (size == 2) return detail::insert_2(cs, elem, bits.data(), siblings.data(), out);
  if (size == 4) return detail::insert_4(cs, elem, bits.data(), siblings.data(), out);
  if (size == 8) return detail::insert_8(cs, elem, bits.data(), siblings.data(), out);
  // Output position pos under index i holds siblings[pos] (pos < i), elem (pos = i) or
  // siblings[pos − 1] (pos > i).
  std::vector<allocated_num_t> choices(size);
  for (size_t pos = 0; pos < size; ++pos) {
    for (size_t i = 0; i < size; ++i)
      choices[i] = pos < i ? siblings[pos] : pos == i ? elem : siblings[pos - 1];
    out[pos] = select(cs, std::span<const allocated_num_t>(choices), bits);
  }
}

/// Constraints of insert for a power-of-two size (2 / 8 / 22, else size·(size − 1)).
constexpr size_t insert_constraints(size_t size) {
  return size == 2 ? 2 : size == 4 ? 8 : size == 8 ? 22 : size * (size - 1);
}

}  // namespace cuzk::filecoin::gadgets
