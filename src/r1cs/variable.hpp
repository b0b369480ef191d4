// SPDX-License-Identifier: Apache-2.0
// r1cs::variable: a handle to an input or aux variable of a constraint system, packed into one
// 32-bit word (bit 31 = aux, bits 0..30 = index in allocation order). Input 0 is ONE (bellperson).
// The raw word orders inputs before aux and each group by index, which is the column order of
// r1cs::matrices, so sorting terms by raw word sorts them by final column.
#pragma once

#include <compare>
#include <cstdint>

namespace cuzk::r1cs {

class variable {
 public:
  static constexpr uint32_t AUX_FLAG = uint32_t(1) << 31;
  static constexpr uint32_t MAX_INDEX = AUX_FLAG - 1;  ///< 2^31 - 1 variables of each kind

  /// Default-constructs ONE (input 0).
  constexpr variable() = default;
  static constexpr variable one() { return variable(0); }
  static constexpr variable input(uint32_t index) { return variable(index); }
  static constexpr variable aux(uint32_t index) { return variable(index | AUX_FLAG); }
  static constexpr variable from_raw(uint32_t raw) { return variable(raw); }

  constexpr bool is_input() const { return (raw_ & AUX_FLAG) == 0; }
  constexpr bool is_aux() const { return (raw_ & AUX_FLAG) != 0; }
  constexpr uint32_t index() const { return raw_ & MAX_INDEX; }
  constexpr uint32_t raw() const { return raw_; }

  friend constexpr bool operator==(variable, variable) = default;
  friend constexpr auto operator<=>(variable, variable) = default;

 private:
  constexpr explicit variable(uint32_t raw) : raw_(raw) {}
  uint32_t raw_ = 0;
};

static_assert(sizeof(variable) == 4);
static_assert(variable::input(5) < variable::aux(0));

}  // namespace cuzk::r1cs
