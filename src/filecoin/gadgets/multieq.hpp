// SPDX-License-Identifier: Apache-2.0
// bellperson's MultiEq: packs many small equalities Σ lhs = Σ rhs (each of n ≤ 36 bits) into one
// constraint (Σ_k 2^{off_k}·lhs_k)·1 = Σ_k 2^{off_k}·rhs_k, off_k = bits used before it. Flush rule
// (exact, it decides where the rows sit): before adding an equality of n bits, emit the pending
// constraint when 254 (Fr CAPACITY) ≤ bits_used + n; finish() (bellperson: Drop) emits whatever is
// pending. LCs are only built when the CS records constraints; in witness mode only bit counts.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "ff/fields.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::filecoin::gadgets {

/// Fr CAPACITY: the number of bits that always fit below r.
inline constexpr size_t FR_CAPACITY = 254;

/// 2^k in Fr for k < 256 (coefficients of packings and MultiEq).
inline const std::array<ff::fr_t, 256>& pow2_table() {
  static const std::array<ff::fr_t, 256> t = [] {
    std::array<ff::fr_t, 256> r;
    r[0] = ff::fr_t::one();
    for (size_t i = 1; i < r.size(); ++i) r[i] = r[i - 1].dbl();
    return r;
  }();
  return t;
}

template <class CS>
class multieq {
 public:
  explicit multieq(CS& cs) : cs_(cs) {
    if constexpr (CS::records_constraints) {
      // One flush holds at most 7 equalities of ≤ 8 operands: ≤ 7·8·32 operand terms and ≤ 7·36
      // result terms, so these are the only allocations a compression makes.
      lhs_.reserve(2048);
      rhs_.reserve(256);
    }
  }
  ~multieq() { finish(); }
  multieq(const multieq&) = delete;
  multieq& operator=(const multieq&) = delete;

  CS& cs() { return cs_; }

  /// Records lhs = rhs over `num_bits` bits. `build(lhs, rhs, off)` appends both sides scaled by
  /// 2^off (called only when the CS records constraints); `lhs_const` is lhs's constant part (the
  /// ONE terms, unscaled), which is folded into a single ONE term here.
  template <class BuildFn>
  void enforce_equal(size_t num_bits, uint64_t lhs_const, BuildFn&& build) {
    if (FR_CAPACITY <= bits_used_ + num_bits) accumulate();
    assert(bits_used_ + num_bits < FR_CAPACITY);
    if constexpr (CS::records_constraints) {
      const ff::fr_t& scale = pow2_table()[bits_used_];
      if (lhs_const != 0) lhs_one_ += ff::fr_t::from_uint(lhs_const) * scale;
      build(lhs_, rhs_, bits_used_);
    }
    bits_used_ += num_bits;
  }

  /// Emits the pending constraint, if any (bellperson's Drop).
  void finish() {
    if (bits_used_ > 0) accumulate();
  }

 private:
  void accumulate() {
    if constexpr (CS::records_constraints) {
      if (!lhs_one_.is_zero()) lhs_.push(lhs_one_, r1cs::variable::one());
      cs_.enforce([this](r1cs::linear_combination& lc) { lc += lhs_; },
                  [](r1cs::linear_combination& lc) { lc += r1cs::variable::one(); },
                  [this](r1cs::linear_combination& lc) { lc += rhs_; });
      lhs_.clear();
      rhs_.clear();
      lhs_one_ = ff::fr_t::zero();
    } else {
      cs_.enforce([](r1cs::linear_combination&) {}, [](r1cs::linear_combination&) {},
                  [](r1cs::linear_combination&) {});
    }
    bits_used_ = 0;
  }

  CS& cs_;
  size_t bits_used_ = 0;
  r1cs::linear_combination lhs_, rhs_;  // reused: their heap storage survives clear()
  ff::fr_t lhs_one_ = ff::fr_t::zero();
};

}  // namespace cuzk::filecoin::gadgets
