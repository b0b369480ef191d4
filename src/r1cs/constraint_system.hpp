// SPDX-License-Identifier: Apache-2.0
// The constraint-system interface gadgets are written against (bellperson's ConstraintSystem as a
// C++20 concept; gadgets are templates over the CS, so no virtual call per constraint):
//   variable alloc(ValueFn) / alloc_input(ValueFn)  ValueFn: () -> fr_t, called only when
//   has_values void enforce(LcFn a, LcFn b, LcFn c)             adds <a,w>·<b,w> = <c,w>; the LcFns
//   are called
//                                                    only when records_constraints
//   push_namespace(const char*) / pop_namespace()   free unless a CS wants names
// An LcFn builds one LC in either of two forms (build_lc picks by signature):
//   in place:    [&](linear_combination& lc) { lc += x; lc -= c * y; }   (zero copies; preferred)
//   functional:  [&](linear_combination lc) { return lc + x - c * y; }    (bellperson's shape)
// Semantics (docs/spec/gadgets.md §1): input 0 is ONE and exists before synthesis; inputs and aux
// are numbered in allocation order; an LC's coefficient of a variable is the sum of its terms.
#pragma once

#include <concepts>
#include <type_traits>
#include <utility>

#include "ff/fields.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/variable.hpp"

namespace cuzk::r1cs {

/// Fills `lc` (which the caller has cleared) from an LcFn of either form.
template <class F>
inline void build_lc(F&& f, linear_combination& lc) {
  if constexpr (std::is_invocable_r_v<void, F, linear_combination&> &&
                std::is_void_v<std::invoke_result_t<F, linear_combination&>>) {
    std::forward<F>(f)(lc);
  } else {
    static_assert(std::is_invocable_r_v<linear_combination, F, linear_combination&&>,
                  "an LC closure is void(linear_combination&) or "
                  "linear_combination(linear_combination)");
    // Moving the cleared scratch in and the result back out keeps its heap buffer (if any) alive
    // across constraints, so even long LCs stop allocating once warmed up.
    lc = std::forward<F>(f)(std::move(lc));
  }
}

namespace detail {
struct zero_value_fn {
  ff::fr_t operator()() const { return ff::fr_t::zero(); }
};
struct empty_lc_fn {
  void operator()(linear_combination&) const {}
};
}  // namespace detail

template <class CS>
concept constraint_system = requires(CS& cs, variable v, const char* name) {
  { cs.alloc(detail::zero_value_fn{}) } -> std::same_as<variable>;
  { cs.alloc_input(detail::zero_value_fn{}) } -> std::same_as<variable>;
  cs.enforce(detail::empty_lc_fn{}, detail::empty_lc_fn{}, detail::empty_lc_fn{});
  cs.push_namespace(name);
  cs.pop_namespace();
  { CS::has_values } -> std::convertible_to<bool>;
  { CS::records_constraints } -> std::convertible_to<bool>;
  { CS::is_witness_generator } -> std::convertible_to<bool>;
};

/// A CS whose variables have values: `cs.value(v)` is the assigned value.
template <class CS>
concept valued_constraint_system = constraint_system<CS> && CS::has_values && requires(CS& cs) {
  { cs.value(variable::one()) } -> std::convertible_to<ff::fr_t>;
};

/// RAII namespace: push on construction, pop on destruction (bellperson's `cs.namespace(..)`).
template <class CS>
class namespace_guard {
 public:
  namespace_guard(CS& cs, const char* name) : cs_(cs) { cs_.push_namespace(name); }
  ~namespace_guard() { cs_.pop_namespace(); }
  namespace_guard(const namespace_guard&) = delete;
  namespace_guard& operator=(const namespace_guard&) = delete;

 private:
  CS& cs_;
};

}  // namespace cuzk::r1cs
