// SPDX-License-Identifier: Apache-2.0
// An allocator whose value-less construct() default-initializes: resize() of a vector of a trivial
// type (field elements) then leaves the new elements untouched instead of zeroing them. Parallel
// synthesis resizes a partition's arrays (≈ 16 GiB for 32 GiB PoRep) before the threads fill them;
// zeroing first would cost one more pass over all of it on one core.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace cuzk {

template <class T>
class default_init_allocator : public std::allocator<T> {
 public:
  using std::allocator<T>::allocator;
  template <class U>
  struct rebind {
    using other = default_init_allocator<U>;
  };

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

}  // namespace cuzk
