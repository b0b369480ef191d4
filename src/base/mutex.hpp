// SPDX-License-Identifier: Apache-2.0
// A mutex, its scoped lock and a condition variable carrying clang's thread-safety annotations
// (base/thread_annotations.hpp), so that members marked CUZK_GUARDED_BY(mu) and functions marked
// CUZK_REQUIRES(mu) are checked by -Wthread-safety. They are std::mutex and
// std::condition_variable underneath, at no cost.
//
// A function that holds mu on entry (CUZK_REQUIRES(mu)) and releases it around heavy work calls
// mu.unlock() and mu.lock() itself, and waits with cv.wait(mu): the analysis follows mu through
// the body, which it cannot do through a lock object passed in by reference.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <utility>

#include "base/thread_annotations.hpp"

namespace cuzk {

class CUZK_CAPABILITY("mutex") mutex {
 public:
  mutex() = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;

  void lock() CUZK_ACQUIRE() { m_.lock(); }
  void unlock() CUZK_RELEASE() { m_.unlock(); }

 private:
  friend class condition_variable;
  std::mutex m_;
};

/// Holds a mutex for its scope; unlock() and lock() release and take it again inside the scope.
class CUZK_SCOPED_CAPABILITY mutex_lock {
 public:
  explicit mutex_lock(mutex& m) CUZK_ACQUIRE(m) : m_(m) { m_.lock(); }
  ~mutex_lock() CUZK_RELEASE() {
    if (held_) m_.unlock();
  }
  mutex_lock(const mutex_lock&) = delete;
  mutex_lock& operator=(const mutex_lock&) = delete;

  void lock() CUZK_ACQUIRE() {
    m_.lock();
    held_ = true;
  }
  void unlock() CUZK_RELEASE() {
    m_.unlock();
    held_ = false;
  }

 private:
  mutex& m_;
  bool held_ = true;
};

/// std::condition_variable waiting on a cuzk::mutex the caller holds: it is released while
/// waiting and held again on return, as with std::condition_variable.
class condition_variable {
 public:
  void notify_one() noexcept { cv_.notify_one(); }
  void notify_all() noexcept { cv_.notify_all(); }

  void wait(mutex& m) CUZK_REQUIRES(m) {
    std::unique_lock<std::mutex> lk(m.m_, std::adopt_lock);
    cv_.wait(lk);
    lk.release();
  }
  template <class Rep, class Period>
  void wait_for(mutex& m, const std::chrono::duration<Rep, Period>& timeout) CUZK_REQUIRES(m) {
    std::unique_lock<std::mutex> lk(m.m_, std::adopt_lock);
    cv_.wait_for(lk, timeout);
    lk.release();
  }
  /// Until done() is true or the timeout passes; done() runs with m held. Returns done().
  template <class Rep, class Period, class Done>
  bool wait_for(mutex& m, const std::chrono::duration<Rep, Period>& timeout, Done done)
      CUZK_REQUIRES(m) {
    std::unique_lock<std::mutex> lk(m.m_, std::adopt_lock);
    const bool r = cv_.wait_for(lk, timeout, std::move(done));
    lk.release();
    return r;
  }

 private:
  std::condition_variable cv_;
};

}  // namespace cuzk
