// SPDX-License-Identifier: Apache-2.0
// Bits in a circuit, exactly as bellpepper-core builds them (docs/spec/gadgets.md §2): an allocated
// bit costs (1 constraint / 1 aux), (1 − a)·a = 0; a boolean_t is Is(bit) | Not(bit) | Constant(b),
// Not is a free view, and xor/and/and_not/nor/ch/maj fold constants with bellpepper's exact case
// order (the order decides which variable goes in A and which in B, so it is part of the R1CS).
#pragma once

#include <cstdint>

#include "ff/fields.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin::gadgets {

using ff::fr_t;
using r1cs::linear_combination;
using r1cs::variable;

/// 0 or 1 as a field element (the value closures of every bit allocation).
inline fr_t bit_value(bool b) {
  return b ? fr_t::one() : fr_t::zero();
}

/// An allocated bit: its variable and value. (Value is meaningless in a CS without values.)
struct allocated_bit_t {
  variable var;
  bool value = false;
};

/// Allocates a bit with its boolean constraint (1 − a)·a = 0. (1/1)
template <class CS>
allocated_bit_t alloc_bit(CS& cs, bool value) {
  const variable v = cs.alloc([value] { return bit_value(value); });
  cs.enforce(
      [v](linear_combination& lc) {
        lc += variable::one();
        lc -= v;
      },
      [v](linear_combination& lc) { lc += v; }, [](linear_combination&) {});
  return {v, value};
}

/// A bit allocated under "must be false" m: (1 − m − a)·a = 0. (1/1)
template <class CS>
allocated_bit_t alloc_bit_conditionally(CS& cs, bool value, const allocated_bit_t& must_be_false) {
  const variable v = cs.alloc([value] { return bit_value(value); });
  const variable m = must_be_false.var;
  cs.enforce(
      [v, m](linear_combination& lc) {
        lc += variable::one();
        lc -= m;
        lc -= v;
      },
      [v](linear_combination& lc) { lc += v; }, [](linear_combination&) {});
  return {v, value};
}

namespace detail {
// The four two-input AllocatedBit gates: result allocated first, then one constraint.
//   xor:     (2a)·b = a + b − c
//   and:     a·b = c
//   and_not: a·(1 − b) = c
//   nor:     (1 − a)·(1 − b) = c
template <class CS>
allocated_bit_t bit_xor(CS& cs, const allocated_bit_t& a, const allocated_bit_t& b) {
  const bool r = a.value ^ b.value;
  const variable c = cs.alloc([r] { return bit_value(r); });
  const variable va = a.var, vb = b.var;
  cs.enforce(
      [va](linear_combination& lc) {
        lc += va;
        lc += va;
      },
      [vb](linear_combination& lc) { lc += vb; },
      [va, vb, c](linear_combination& lc) {
        lc += va;
        lc += vb;
        lc -= c;
      });
  return {c, r};
}
template <class CS>
allocated_bit_t bit_and(CS& cs, const allocated_bit_t& a, const allocated_bit_t& b) {
  const bool r = a.value & b.value;
  const variable c = cs.alloc([r] { return bit_value(r); });
  const variable va = a.var, vb = b.var;
  cs.enforce([va](linear_combination& lc) { lc += va; }, [vb](linear_combination& lc) { lc += vb; },
             [c](linear_combination& lc) { lc += c; });
  return {c, r};
}
template <class CS>
allocated_bit_t bit_and_not(CS& cs, const allocated_bit_t& a, const allocated_bit_t& b) {
  const bool r = a.value & !b.value;
  const variable c = cs.alloc([r] { return bit_value(r); });
  const variable va = a.var, vb = b.var;
  cs.enforce([va](linear_combination& lc) { lc += va; },
             [vb](linear_combination& lc) {
               lc += variable::one();
               lc -= vb;
             },
             [c](linear_combination& lc) { lc += c; });
  return {c, r};
}
template <class CS>
allocated_bit_t bit_nor(CS& cs, const allocated_bit_t& a, const allocated_bit_t& b) {
  const bool r = !a.value & !b.value;
  const variable c = cs.alloc([r] { return bit_value(r); });
  const variable va = a.var, vb = b.var;
  cs.enforce(
      [va](linear_combination& lc) {
        lc += variable::one();
        lc -= va;
      },
      [vb](linear_combination& lc) {
        lc += variable::one();
        lc -= vb;
      },
      [c](linear_combination& lc) { lc += c; });
  return {c, r};
}
}  // namespace detail

/// bellpepper's Boolean. 8 bytes, trivially copyable. `value` is the value of the Boolean itself
/// (for Not it is the negation of the underlying bit's value).
struct boolean_t {
  enum class kind_t : uint8_t { constant, is, negated };

  variable var;  ///< the underlying allocated bit (unused for constants)
  kind_t kind = kind_t::constant;
  bool value = false;

  static constexpr boolean_t constant(bool b) { return {variable::one(), kind_t::constant, b}; }
  static constexpr boolean_t from_bit(const allocated_bit_t& a) {
    return {a.var, kind_t::is, a.value};
  }

  constexpr bool is_constant() const { return kind == kind_t::constant; }
  constexpr bool is_allocated() const { return kind == kind_t::is; }
  constexpr bool is_negated() const { return kind == kind_t::negated; }
  /// The underlying bit (Is or Not only).
  constexpr allocated_bit_t bit() const { return {var, kind == kind_t::negated ? !value : value}; }

  /// The free Not view: Constant(b) -> Constant(!b), Is(x) <-> Not(x).
  constexpr boolean_t operator!() const {
    switch (kind) {
      case kind_t::constant:
        return constant(!value);
      case kind_t::is:
        return {var, kind_t::negated, !value};
      default:
        return {var, kind_t::is, !value};
    }
  }

  /// lc += coeff·self: Constant(true) -> coeff·ONE, Constant(false) -> nothing, Is(x) -> coeff·x,
  /// Not(x) -> coeff·ONE − coeff·x (bellpepper Boolean::lc).
  void add_to(linear_combination& lc, const fr_t& coeff) const {
    switch (kind) {
      case kind_t::constant:
        if (value) lc.push(coeff, variable::one());
        break;
      case kind_t::is:
        lc.push(coeff, var);
        break;
      default:
        lc.push(coeff, variable::one());
        lc.push(-coeff, var);
        break;
    }
  }
  /// lc += self (coefficient 1).
  void add_to(linear_combination& lc) const { add_to(lc, fr_t::one()); }
  /// lc −= self.
  void sub_from(linear_combination& lc) const { add_to(lc, -fr_t::one()); }
};
static_assert(sizeof(boolean_t) == 8);

/// Boolean::xor. Cases in bellpepper's order: a constant false operand returns the other; a
/// constant true operand returns the other's Not; Is/Not mixed is xor(is, not.not()).not() with the
/// Is operand's bit first; Is/Is and Not/Not allocate xor(a, b).
template <class CS>
boolean_t boolean_xor(CS& cs, const boolean_t& a, const boolean_t& b) {
  using K = boolean_t::kind_t;
  if (a.kind == K::constant && !a.value) return b;
  if (b.kind == K::constant && !b.value) return a;
  if (a.kind == K::constant) return !b;  // a is constant true
  if (b.kind == K::constant) return !a;
  if (a.kind != b.kind) {
    const boolean_t& is = a.kind == K::is ? a : b;
    const boolean_t& nt = a.kind == K::is ? b : a;
    return !boolean_t::from_bit(detail::bit_xor(cs, is.bit(), nt.bit()));
  }
  return boolean_t::from_bit(detail::bit_xor(cs, a.bit(), b.bit()));
}

/// Boolean::and: constant false -> false; constant true -> the other; Is·Not -> and_not(is, not);
/// Not·Not -> nor(a, b); Is·Is -> and(a, b).
template <class CS>
boolean_t boolean_and(CS& cs, const boolean_t& a, const boolean_t& b) {
  using K = boolean_t::kind_t;
  if ((a.kind == K::constant && !a.value) || (b.kind == K::constant && !b.value)) {
    return boolean_t::constant(false);
  }
  if (a.kind == K::constant) return b;
  if (b.kind == K::constant) return a;
  if (a.kind == K::is && b.kind == K::negated) {
    return boolean_t::from_bit(detail::bit_and_not(cs, a.bit(), b.bit()));
  }
  if (a.kind == K::negated && b.kind == K::is) {
    return boolean_t::from_bit(detail::bit_and_not(cs, b.bit(), a.bit()));
  }
  if (a.kind == K::negated) return boolean_t::from_bit(detail::bit_nor(cs, a.bit(), b.bit()));
  return boolean_t::from_bit(detail::bit_and(cs, a.bit(), b.bit()));
}

/// Boolean::or = not(and(not a, not b)).
template <class CS>
boolean_t boolean_or(CS& cs, const boolean_t& a, const boolean_t& b) {
  return !boolean_and(cs, !a, !b);
}

/// SHA-256 ch(a, b, c) = (a ∧ b) ⊕ (¬a ∧ c), bellpepper's Boolean::sha256_ch. Shortcuts, in order:
/// all constant; a = 0 -> c; b = 0 -> and(¬a, c); c = 0 -> and(a, b); c = 1 -> ¬and(a, ¬b);
/// b = 1 -> ¬and(¬a, ¬c); a = 1 falls through to the general case: allocate ch, then
/// (b − c)·a = ch − c. (General: 1/1.)
template <class CS>
boolean_t sha256_ch(CS& cs, const boolean_t& a, const boolean_t& b, const boolean_t& c) {
  const bool v = (a.value & b.value) ^ (!a.value & c.value);
  if (a.is_constant() && b.is_constant() && c.is_constant()) return boolean_t::constant(v);
  if (a.is_constant() && !a.value) return c;
  if (b.is_constant() && !b.value) return boolean_and(cs, !a, c);
  if (c.is_constant() && !c.value) return boolean_and(cs, a, b);
  if (c.is_constant()) return !boolean_and(cs, a, !b);
  if (b.is_constant()) return !boolean_and(cs, !a, !c);
  const variable ch = cs.alloc([v] { return bit_value(v); });
  cs.enforce(
      [&](linear_combination& lc) {
        b.add_to(lc);
        c.sub_from(lc);
      },
      [&](linear_combination& lc) { a.add_to(lc); },
      [&](linear_combination& lc) {
        lc += ch;
        c.sub_from(lc);
      });
  return boolean_t::from_bit({ch, v});
}

/// SHA-256 maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), bellpepper's Boolean::sha256_maj. Shortcuts,
/// in order: all constant; a = 0 -> and(b, c); b = 0 -> and(a, c); c = 0 -> and(a, b);
/// c = 1 -> ¬and(¬a, ¬b); b = 1 -> ¬and(¬a, ¬c); a = 1 -> ¬and(¬b, ¬c). General case: allocate maj
/// FIRST, then bc = and(b, c), then (2bc − b − c)·a = bc − maj. (General: 2/2.)
template <class CS>
boolean_t sha256_maj(CS& cs, const boolean_t& a, const boolean_t& b, const boolean_t& c) {
  const bool v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
  if (a.is_constant() && b.is_constant() && c.is_constant()) return boolean_t::constant(v);
  if (a.is_constant() && !a.value) return boolean_and(cs, b, c);
  if (b.is_constant() && !b.value) return boolean_and(cs, a, c);
  if (c.is_constant() && !c.value) return boolean_and(cs, a, b);
  if (c.is_constant()) return !boolean_and(cs, !a, !b);
  if (b.is_constant()) return !boolean_and(cs, !a, !c);
  if (a.is_constant()) return !boolean_and(cs, !b, !c);
  const variable maj = cs.alloc([v] { return bit_value(v); });
  const boolean_t bc = boolean_and(cs, b, c);
  cs.enforce(
      [&](linear_combination& lc) {
        bc.add_to(lc);
        bc.add_to(lc);
        b.sub_from(lc);
        c.sub_from(lc);
      },
      [&](linear_combination& lc) { a.add_to(lc); },
      [&](linear_combination& lc) {
        bc.add_to(lc);
        lc -= maj;
      });
  return boolean_t::from_bit({maj, v});
}

/// Boolean::enforce_equal: both constant -> nothing (they must agree: returns false otherwise);
/// one constant true -> 0·0 = 1 − x; one constant false -> 0·0 = x; else 0·0 = a − b.
template <class CS>
bool boolean_enforce_equal(CS& cs, const boolean_t& a, const boolean_t& b) {
  auto empty = [](linear_combination&) {};
  if (a.is_constant() && b.is_constant()) return a.value == b.value;
  if ((a.is_constant() && a.value) || (b.is_constant() && b.value)) {
    const boolean_t& x = a.is_constant() ? b : a;
    cs.enforce(empty, empty, [&](linear_combination& lc) {
      lc += variable::one();
      x.sub_from(lc);
    });
    return true;
  }
  if (a.is_constant() || b.is_constant()) {
    const boolean_t& x = a.is_constant() ? b : a;
    cs.enforce(empty, empty, [&](linear_combination& lc) { x.add_to(lc); });
    return true;
  }
  cs.enforce(empty, empty, [&](linear_combination& lc) {
    a.add_to(lc);
    b.sub_from(lc);
  });
  return true;
}

}  // namespace cuzk::filecoin::gadgets
