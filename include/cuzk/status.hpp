// SPDX-License-Identifier: Apache-2.0
// status / result<T>: the error channel at parse boundaries and public APIs
// (CONTRIBUTING.md "Code rules", errors).
// Arithmetic is total and never returns a status; decoding untrusted bytes always does.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace cuzk {

enum class status_code {
  ok = 0,
  bad_length,       ///< input has the wrong number of bytes
  bad_encoding,     ///< flag bits or layout are inconsistent
  non_canonical,    ///< a field element is >= the modulus
  not_on_curve,     ///< coordinates do not satisfy the curve equation
  not_in_subgroup,  ///< point is on the curve but not in the prime-order subgroup
  is_infinity,      ///< point at infinity where a finite point is required
  size_mismatch,    ///< counts or lengths disagree with what the caller expects
  invalid_argument,
  io_error,
  internal,
  resource_exhausted,  ///< a memory budget can never hold what the request needs
  not_found,           ///< an id (job, circuit) that is not known
  cancelled,           ///< the work was cancelled before it finished
  unavailable,         ///< the service is shutting down or has no worker able to run it
};

/// Stable lower-case name of a code ("not_on_curve"), for messages and tests.
constexpr std::string_view to_string(status_code c) {
  switch (c) {
    case status_code::ok:
      return "ok";
    case status_code::bad_length:
      return "bad_length";
    case status_code::bad_encoding:
      return "bad_encoding";
    case status_code::non_canonical:
      return "non_canonical";
    case status_code::not_on_curve:
      return "not_on_curve";
    case status_code::not_in_subgroup:
      return "not_in_subgroup";
    case status_code::is_infinity:
      return "is_infinity";
    case status_code::size_mismatch:
      return "size_mismatch";
    case status_code::invalid_argument:
      return "invalid_argument";
    case status_code::io_error:
      return "io_error";
    case status_code::internal:
      return "internal";
    case status_code::resource_exhausted:
      return "resource_exhausted";
    case status_code::not_found:
      return "not_found";
    case status_code::cancelled:
      return "cancelled";
    case status_code::unavailable:
      return "unavailable";
  }
  return "unknown";
}

/// A code plus a human-readable message. Cheap to copy when ok (empty message).
class [[nodiscard]] status {
 public:
  status() = default;
  status(status_code code, std::string message) : code_(code), message_(std::move(message)) {}
  static status ok_status() { return {}; }

  bool ok() const { return code_ == status_code::ok; }
  explicit operator bool() const { return ok(); }
  status_code code() const { return code_; }
  const std::string& message() const { return message_; }
  /// "not_on_curve: G1 point x=..." or "ok".
  std::string to_string() const {
    std::string s(cuzk::to_string(code_));
    if (!message_.empty()) s += ": " + message_;
    return s;
  }

 private:
  status_code code_ = status_code::ok;
  std::string message_;
};

/// Either a value or a non-ok status; shaped like std::expected (C++23), which C++20 lacks.
template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : v_(std::move(value)) {}
  result(status s) : v_(std::move(s)) {}
  result(status_code code, std::string message) : v_(status(code, std::move(message))) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  /// The error; ok_status() when a value is held.
  status error() const { return ok() ? status() : std::get<1>(v_); }

 private:
  std::variant<T, status> v_;
};

}  // namespace cuzk
