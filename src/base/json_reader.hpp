// SPDX-License-Identifier: Apache-2.0
// A schema-driven pull reader for JSON formats (the Filecoin wing's C1 JSON, c1.json wrapper,
// parameters.json and vanilla-proof files) on simdjson On-Demand: the callers walk their schema
// with object()/array() callbacks and read each value once, in document order. Every call gets the
// JSON path of the value it reads as a stack-allocated linked list, which is only formatted when an
// error is reported
// ("vanilla_proofs.StackedDrg32GiBV1[3][7].comm_d_proofs.data.Single.path.path[2].index: expected
// integer, found string (byte 1234)"). Untrusted input only ever produces a status: simdjson is
// used through its error codes, never its exceptions. simdjson stays out of this header (the
// reader keeps its state behind a pointer), so its large header is compiled once.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "cuzk/status.hpp"

namespace cuzk::json {

/// One JSON path component: ".key" (index < 0) or "[index]". Binary readers use it too, to name
/// the field of an error.
struct path_t {
  const path_t* parent = nullptr;
  std::string_view key;
  int64_t index = -1;
};

/// "a.b[3].c"; "(root)" for the top level.
std::string format_path(const path_t* p);

/// A non-owning reference to a callable, for the object()/array() callbacks: one indirect call per
/// field or element, and no allocation.
template <class Sig>
class callback_ref;
template <class R, class... Args>
class callback_ref<R(Args...)> {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, callback_ref> &&
           std::is_invocable_r_v<R, F&, Args...>)
      callback_ref(F&& f)  // implicit: callers pass lambdas
      : target_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* t, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(t))(std::forward<Args>(args)...);
        }) {}
  R operator()(Args... args) const { return call_(target_, std::forward<Args>(args)...); }

 private:
  void* target_;
  R (*call_)(void*, Args...);
};

/// Reads one JSON document whose root is an object or an array. The first call must be object()
/// or array() on the root path; every later read_*/object/array/skip_value call reads the value of
/// the field or element whose callback is running.
class reader {
 public:
  using field_fn = callback_ref<bool(std::string_view key, const path_t* key_path)>;
  using element_fn = callback_ref<bool(size_t index, const path_t* element_path)>;

  /// Copies `text` into simdjson's padded buffer and indexes it; an indexing error (invalid
  /// UTF-8, unterminated string, too large) is reported by the first read.
  explicit reader(std::string_view text);
  ~reader();
  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;

  const status& error() const { return err_; }
  bool failed() const { return !err_.ok(); }

  /// Records the first error: "<path>: <what>, found <token> (byte N)". Always returns false.
  bool fail(const path_t* path, std::string_view what, bool show_found = true);

  /// True when nothing but whitespace follows the root value.
  bool at_end();

  /// Unsigned decimal integer ≤ max (JSON: no sign, no leading zeros, no fraction/exponent).
  bool read_uint(const path_t* path, uint64_t& out, uint64_t max);
  /// Signed decimal integer (for the wrapper's SectorNum).
  bool read_int(const path_t* path, int64_t& out);
  /// A JSON string, unescaped; `out` stays valid as long as the reader.
  bool read_string(const path_t* path, std::string_view& out);
  bool read_null(const path_t* path);
  /// [b0, …, b31]: exactly 32 integers 0..255 (the serde form of [u8; 32]). The hot loop of a C1
  /// parse.
  bool read_bytes32(const path_t* path, std::array<uint8_t, 32>& out);
  /// Skips any value (unknown fields), still checking that it is well-formed; depth-limited.
  bool skip_value(const path_t* path, int depth = 0);

  /// {"k": v, …}: calls field(key, key_path) with the reader positioned at each value.
  bool object(const path_t* path, field_fn field);
  /// [v, …]: calls elem(i, elem_path) with the reader positioned at each element.
  bool array(const path_t* path, element_fn elem);

  /// Marks field bit `bit` in `seen`; a repeated key is an error.
  bool mark(const path_t* key_path, uint32_t& seen, unsigned bit) {
    if (seen & (1u << bit)) return fail(key_path, "duplicate field", false);
    seen |= 1u << bit;
    return true;
  }
  /// Errors on the first of `names` whose bit is not in `seen`.
  template <size_t N>
  bool require(const path_t* path, uint32_t seen, const std::array<const char*, N>& names,
               uint32_t optional = 0) {
    for (size_t i = 0; i < N; ++i)
      if (!(seen & (1u << i)) && !(optional & (1u << i)))
        return fail(path, std::string("missing field \"") + names[i] + "\"", false);
    return true;
  }

 private:
  struct state;
  std::unique_ptr<state> s_;
  status err_;
};

}  // namespace cuzk::json
