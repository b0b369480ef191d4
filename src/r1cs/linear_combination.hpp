// SPDX-License-Identifier: Apache-2.0
// r1cs::linear_combination: Σ coeff_k · var_k over Fr, as an append-only list of terms with room
// for INLINE_TERMS terms inside the object (no heap allocation for the 1-4 term LCs that make up
// almost every constraint). Duplicate variables are NOT merged on insertion; every consumer merges
// (bellpepper's Indexer semantics: a variable's coefficient is the sum of its terms, term order is
// irrelevant). merge_terms() is that one rule, shared by all constraint systems.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "ff/fields.hpp"
#include "r1cs/variable.hpp"

namespace cuzk::r1cs {

/// coeff · var. 40 bytes (32-byte field element, 4-byte variable, 4 bytes padding).
struct lc_term {
  ff::fr_t coeff;
  variable var;
};
static_assert(std::is_trivially_copyable_v<lc_term> && sizeof(lc_term) == 40);

/// `c * x` builds the term c·x, so LCs read `lc + c * x` (bellperson's `lc + (c, x)`).
constexpr lc_term operator*(const ff::fr_t& coeff, variable var) {
  return {coeff, var};
}

class linear_combination {
 public:
  static constexpr size_t INLINE_TERMS = 4;

  linear_combination() = default;
  /// 1·var.
  linear_combination(variable var) { push(ff::fr_t::one(), var); }  // NOLINT: implicit by design
  linear_combination(const lc_term& t) { push(t.coeff, t.var); }    // NOLINT
  static linear_combination zero() { return {}; }

  linear_combination(const linear_combination& o) { append(o.data(), o.size_); }
  linear_combination(linear_combination&& o) noexcept { take(o); }
  linear_combination& operator=(const linear_combination& o) {
    if (this != &o) {
      size_ = 0;
      append(o.data(), o.size_);
    }
    return *this;
  }
  linear_combination& operator=(linear_combination&& o) noexcept {
    if (this != &o) {
      delete[] heap_;
      take(o);
    }
    return *this;
  }
  ~linear_combination() { delete[] heap_; }

  // ---- access -------------------------------------------------------------------------------

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return heap_ ? capacity_ : INLINE_TERMS; }
  const lc_term* data() const { return heap_ ? heap_ : inline_; }
  const lc_term* begin() const { return data(); }
  const lc_term* end() const { return data() + size_; }
  std::span<const lc_term> terms() const { return {data(), size_}; }
  const lc_term& operator[](size_t i) const { return data()[i]; }
  /// Drops all terms and keeps the storage, so a reused LC stops allocating once warmed up.
  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity()) grow(n);
  }

  // ---- building -----------------------------------------------------------------------------

  void push(const ff::fr_t& coeff, variable var) {
    if (size_ == capacity()) grow(2 * size_);
    lc_term* d = heap_ ? heap_ : inline_;
    d[size_].coeff = coeff;
    d[size_].var = var;
    ++size_;
  }
  linear_combination& operator+=(variable v) { return push(ff::fr_t::one(), v), *this; }
  linear_combination& operator-=(variable v) { return push(-ff::fr_t::one(), v), *this; }
  linear_combination& operator+=(const lc_term& t) { return push(t.coeff, t.var), *this; }
  linear_combination& operator-=(const lc_term& t) { return push(-t.coeff, t.var), *this; }
  linear_combination& operator+=(const linear_combination& o) {
    if (&o == this) return *this *= ff::fr_t::one().dbl();
    append(o.data(), o.size_);
    return *this;
  }
  linear_combination& operator-=(const linear_combination& o) {
    if (&o == this) return clear(), *this;  // x - x: every merged coefficient is zero
    return add(-ff::fr_t::one(), o);
  }
  /// this += s · o (bellperson's `lc + (s, &other)`).
  linear_combination& add(const ff::fr_t& s, const linear_combination& o) {
    if (&o == this) return *this *= s + ff::fr_t::one();
    reserve(size_ + o.size_);
    for (const lc_term& t : o) push(t.coeff * s, t.var);
    return *this;
  }
  /// Scales every coefficient by s.
  linear_combination& operator*=(const ff::fr_t& s) {
    lc_term* d = heap_ ? heap_ : inline_;
    for (size_t i = 0; i < size_; ++i) d[i].coeff *= s;
    return *this;
  }

  // Value forms for the functional closure style (`[&](lc_t lc) { return lc + x - y; }`): the
  // left operand is taken by value, so a chain on a moved-in LC reuses its storage.
  friend linear_combination operator+(linear_combination l, variable v) {
    l += v;
    return l;
  }
  friend linear_combination operator-(linear_combination l, variable v) {
    l -= v;
    return l;
  }
  friend linear_combination operator+(linear_combination l, const lc_term& t) {
    l += t;
    return l;
  }
  friend linear_combination operator-(linear_combination l, const lc_term& t) {
    l -= t;
    return l;
  }
  friend linear_combination operator+(linear_combination l, const linear_combination& o) {
    l += o;
    return l;
  }
  friend linear_combination operator-(linear_combination l, const linear_combination& o) {
    l -= o;
    return l;
  }
  friend linear_combination operator*(linear_combination l, const ff::fr_t& s) {
    l *= s;
    return l;
  }

 private:
  void append(const lc_term* t, size_t n) {
    reserve(size_ + n);
    std::memcpy(static_cast<void*>((heap_ ? heap_ : inline_) + size_), t, n * sizeof(lc_term));
    size_ += n;
  }
  void grow(size_t n) {
    n = std::max(n, 2 * INLINE_TERMS);
    lc_term* h = new lc_term[n];
    std::memcpy(static_cast<void*>(h), data(), size_ * sizeof(lc_term));
    delete[] heap_;
    heap_ = h;
    capacity_ = uint32_t(n);
  }
  // Steals o's heap buffer, or copies its inline terms; leaves o empty and inline.
  void take(linear_combination& o) {
    size_ = o.size_;
    heap_ = o.heap_;
    capacity_ = o.capacity_;
    if (!heap_) std::memcpy(static_cast<void*>(inline_), o.inline_, size_ * sizeof(lc_term));
    o.heap_ = nullptr;
    o.size_ = 0;
    o.capacity_ = 0;
  }

  lc_term inline_[INLINE_TERMS];
  lc_term* heap_ = nullptr;  ///< non-null once more than INLINE_TERMS terms were needed
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;  ///< of heap_
};

/// The merged form of a list of terms: one term per distinct variable, its coefficient the sum of
/// that variable's terms; variables whose sum is zero are dropped; sorted by variable (inputs by
/// index, then aux by index). `out` is scratch owned by the caller: once its capacity suffices,
/// merging allocates nothing. This is what nnz, densities, matrices and the shape hash all count.
inline void merge_terms(std::span<const lc_term> in, std::vector<lc_term>& out) {
  out.assign(in.begin(), in.end());
  auto by_var = [](const lc_term& x, const lc_term& y) { return x.var < y.var; };
  if (out.size() <= 16) {
    // insertion sort: stable, branch-cheap for the short LCs that dominate
    for (size_t i = 1; i < out.size(); ++i) {
      lc_term t = out[i];
      size_t j = i;
      for (; j > 0 && by_var(t, out[j - 1]); --j) out[j] = out[j - 1];
      out[j] = t;
    }
  } else {
    std::sort(out.begin(), out.end(), by_var);
  }
  size_t w = 0;
  for (size_t i = 0; i < out.size();) {
    lc_term acc = out[i];
    size_t j = i + 1;
    for (; j < out.size() && out[j].var == acc.var; ++j) acc.coeff += out[j].coeff;
    if (!acc.coeff.is_zero()) out[w++] = acc;
    i = j;
  }
  out.resize(w);
}

/// True when some variable occurs in more than one term (O(n^2); meant for short LCs).
inline bool has_duplicate_variables(std::span<const lc_term> t) {
  for (size_t i = 1; i < t.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (t[i].var == t[j].var) return true;
  return false;
}

}  // namespace cuzk::r1cs
