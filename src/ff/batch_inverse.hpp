// SPDX-License-Identifier: Apache-2.0
// Montgomery's simultaneous inversion: n inverses for one inversion and 3(n-1) multiplications.
// Prefix products p_i = a_0···a_i; inv = p_{n-1}^-1; walking back, a_i^-1 = inv·p_{i-1} and
// inv <- inv·a_i. Zeros are skipped (they stay zero), so callers need not filter them.
#pragma once

#include <span>
#include <vector>

namespace cuzk::ff {

/// Replaces every nonzero element of `a` by its inverse; `scratch` is resized to a.size().
template <class Field>
void batch_inverse(std::span<Field> a, std::vector<Field>& scratch) {
  scratch.resize(a.size());
  Field acc = Field::one();
  for (size_t i = 0; i < a.size(); ++i) {
    scratch[i] = acc;  // product of the nonzero elements before i
    if (!a[i].is_zero()) acc *= a[i];
  }
  Field inv = acc.inverse();
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i].is_zero()) continue;
    Field ai = a[i];
    a[i] = inv * scratch[i];
    inv *= ai;
  }
}

template <class Field>
void batch_inverse(std::span<Field> a) {
  std::vector<Field> scratch;
  batch_inverse(a, scratch);
}

}  // namespace cuzk::ff
