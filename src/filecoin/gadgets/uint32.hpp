// SPDX-License-Identifier: Apache-2.0
// bellperson's UInt32 (and storage-proofs' UInt64) as fixed arrays of booleans, LSB first, with the
// tracked integer value: constants allocate nothing, rotr/shr are free views, xor/ch/maj are
// per-bit boolean gadgets, and addmany allocates the n-bit sum (n = bit length of ops·(2^32 − 1):
// 33 bits for 2 operands, 34 for 3-4, 35 for 5-8, 36 for 9-10) and records one MultiEq equality.
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>

#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/multieq.hpp"

namespace cuzk::filecoin::gadgets {

/// UInt32: bits[0] is the least significant bit.
struct word32_t {
  std::array<boolean_t, 32> bits;
  uint32_t value = 0;

  static word32_t constant(uint32_t v) {
    word32_t w;
    for (int i = 0; i < 32; ++i) w.bits[i] = boolean_t::constant((v >> i) & 1);
    w.value = v;
    return w;
  }
  /// 32 allocated bits, LSB first (32/32).
  template <class CS>
  static word32_t alloc(CS& cs, uint32_t v) {
    word32_t w;
    for (int i = 0; i < 32; ++i) w.bits[i] = boolean_t::from_bit(alloc_bit(cs, (v >> i) & 1));
    w.value = v;
    return w;
  }
  /// From 32 booleans, most significant first (UInt32::from_bits_be).
  static word32_t from_bits_be(const boolean_t* be) {
    word32_t w;
    uint32_t v = 0;
    for (int i = 0; i < 32; ++i) {
      w.bits[31 - i] = be[i];
      v = (v << 1) | uint32_t(be[i].value);
    }
    w.value = v;
    return w;
  }
  /// From 32 booleans, least significant first (UInt32::from_bits).
  static word32_t from_bits_le(const boolean_t* le) {
    word32_t w;
    uint32_t v = 0;
    for (int i = 0; i < 32; ++i) {
      w.bits[i] = le[i];
      v |= uint32_t(le[i].value) << i;
    }
    w.value = v;
    return w;
  }
  /// Writes the bits most significant first (into_bits_be).
  void to_bits_be(boolean_t* out) const {
    for (int i = 0; i < 32; ++i) out[i] = bits[31 - i];
  }

  /// Rotate right by `by`: bit i of the result is bit (i + by) mod 32.
  word32_t rotr(unsigned by) const {
    by %= 32;
    word32_t w;
    for (unsigned i = 0; i < 32; ++i) w.bits[i] = bits[(i + by) % 32];
    w.value = std::rotr(value, int(by));
    return w;
  }
  /// Shift right by `by`, filling with constant false.
  word32_t shr(unsigned by) const {
    by %= 32;
    word32_t w;
    for (unsigned i = 0; i < 32; ++i)
      w.bits[i] = i + by < 32 ? bits[i + by] : boolean_t::constant(false);
    w.value = value >> by;
    return w;
  }
  bool all_constant() const {
    for (const boolean_t& b : bits)
      if (!b.is_constant()) return false;
    return true;
  }
};

/// Per-bit xor (UInt32::xor): bit i = boolean_xor(a_i, b_i).
template <class CS>
word32_t word32_xor(CS& cs, const word32_t& a, const word32_t& b) {
  word32_t r;
  for (int i = 0; i < 32; ++i) r.bits[i] = boolean_xor(cs, a.bits[i], b.bits[i]);
  r.value = a.value ^ b.value;
  return r;
}

/// UInt32::sha256_ch, bit by bit from bit 0.
template <class CS>
word32_t word32_ch(CS& cs, const word32_t& a, const word32_t& b, const word32_t& c) {
  word32_t r;
  for (int i = 0; i < 32; ++i) r.bits[i] = sha256_ch(cs, a.bits[i], b.bits[i], c.bits[i]);
  r.value = (a.value & b.value) ^ (~a.value & c.value);
  return r;
}

/// UInt32::sha256_maj, bit by bit from bit 0.
template <class CS>
word32_t word32_maj(CS& cs, const word32_t& a, const word32_t& b, const word32_t& c) {
  word32_t r;
  for (int i = 0; i < 32; ++i) r.bits[i] = sha256_maj(cs, a.bits[i], b.bits[i], c.bits[i]);
  r.value = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
  return r;
}

/// UInt32::addmany: the sum mod 2^32 of 2..10 operands. All-constant operands give a constant.
/// Otherwise allocates n result bits (each boolean-constrained, LSB first), then records the
/// equality Σ_ops Σ_i 2^i·op_i = Σ_i 2^i·result_i in `meq`, and keeps the low 32 bits.
template <class CS>
word32_t addmany(multieq<CS>& meq, std::span<const word32_t> ops) {
  assert(ops.size() >= 2 && ops.size() <= 10);
  uint64_t sum = 0;
  bool all_constant = true;
  for (const word32_t& op : ops) {
    sum += op.value;
    all_constant = all_constant && op.all_constant();
  }
  if (all_constant) return word32_t::constant(uint32_t(sum));

  const size_t n = size_t(std::bit_width(uint64_t(ops.size()) * 0xffffffffull));
  CS& cs = meq.cs();
  std::array<variable, 36> res;
  word32_t r;
  for (size_t i = 0; i < n; ++i) {
    const allocated_bit_t b = alloc_bit(cs, (sum >> i) & 1);
    res[i] = b.var;
    if (i < 32) r.bits[i] = boolean_t::from_bit(b);
  }
  r.value = uint32_t(sum);

  // Constant part of the operand side: constant-true bits and the ONE of each Not bit.
  uint64_t lhs_const = 0;
  if constexpr (CS::records_constraints) {
    for (const word32_t& op : ops)
      for (int i = 0; i < 32; ++i)
        if ((op.bits[i].is_constant() && op.bits[i].value) || op.bits[i].is_negated()) {
          lhs_const += uint64_t(1) << i;
        }
  }
  meq.enforce_equal(n, lhs_const,
                    [&](linear_combination& lhs, linear_combination& rhs, size_t off) {
                      const auto& p2 = pow2_table();
                      for (const word32_t& op : ops) {
                        for (int i = 0; i < 32; ++i) {
                          const boolean_t& b = op.bits[i];
                          if (b.is_allocated()) {
                            lhs.push(p2[off + i], b.var);
                          } else if (b.is_negated()) {
                            lhs.push(-p2[off + i], b.var);
                          }
                        }
                      }
                      for (size_t i = 0; i < n; ++i) rhs.push(p2[off + i], res[i]);
                    });
  return r;
}

/// storage-proofs' UInt64: 64 booleans, LSB first.
struct word64_t {
  std::array<boolean_t, 64> bits;
  uint64_t value = 0;

  static word64_t constant(uint64_t v) {
    word64_t w;
    for (int i = 0; i < 64; ++i) w.bits[i] = boolean_t::constant((v >> i) & 1);
    w.value = v;
    return w;
  }
  /// 64 allocated bits, LSB first (64/64).
  template <class CS>
  static word64_t alloc(CS& cs, uint64_t v) {
    word64_t w;
    for (int i = 0; i < 64; ++i) w.bits[i] = boolean_t::from_bit(alloc_bit(cs, (v >> i) & 1));
    w.value = v;
    return w;
  }
  /// Writes the bits most significant first (to_bits_be).
  void to_bits_be(boolean_t* out) const {
    for (int i = 0; i < 64; ++i) out[i] = bits[63 - i];
  }
};

}  // namespace cuzk::filecoin::gadgets
