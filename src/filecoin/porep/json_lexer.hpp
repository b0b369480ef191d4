// SPDX-License-Identifier: Apache-2.0
// A small pull-style JSON reader for the C1 formats (c1_json, c1_wrapper): schema-driven
// recursive descent over an in-memory buffer, no DOM and no allocation on the success path. Every
// call gets the JSON path of the value it reads as a stack-allocated linked list, which is only
// formatted when an error is reported ("vanilla_proofs.StackedDrg32GiBV1[3][7].comm_d_proofs
// .data.Single.path.path[2].index: expected integer, found '\"' (byte 1234)").
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.hpp"

namespace cuzk::porep::json {

/// One JSON path component: ".key" (index < 0) or "[index]".
struct path_t {
  const path_t* parent = nullptr;
  std::string_view key;
  int64_t index = -1;
};

/// "a.b[3].c"; "(root)" for the top level.
inline std::string format_path(const path_t* p) {
  std::vector<const path_t*> parts;
  for (; p; p = p->parent)
    if (p->parent) parts.push_back(p);  // the root component has no name
  std::string out;
  for (size_t i = parts.size(); i-- > 0;) {
    const path_t* c = parts[i];
    if (c->index >= 0) {
      out.push_back('[');
      out.append(std::to_string(c->index));
      out.push_back(']');
    } else {
      if (!out.empty()) out.push_back('.');
      out.append(c->key);
    }
  }
  if (out.empty()) out = "(root)";
  return out;
}

class reader {
 public:
  explicit reader(std::string_view text)
      : begin_(text.data()), p_(begin_), end_(p_ + text.size()) {}

  const status& error() const { return err_; }
  bool failed() const { return !err_.ok(); }

  /// Records the first error: "<path>: <what>, found <token> (byte N)". Always returns false.
  bool fail(const path_t* path, std::string_view what, bool show_found = true) {
    if (err_.ok()) {
      std::string msg = format_path(path) + ": " + std::string(what);
      if (show_found) msg += ", found " + describe_here();
      msg += " (byte " + std::to_string(p_ - begin_) + ")";
      err_ = status(status_code::bad_encoding, std::move(msg));
    }
    return false;
  }

  void skip_ws() {
    while (p_ < end_ && uint8_t(*p_) <= ' ' &&
           (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t'))
      ++p_;
  }
  /// Next non-space character, or 0 at the end.
  char peek() {
    skip_ws();
    return p_ < end_ ? *p_ : 0;
  }
  bool consume(char c) {
    if (peek() != c) return false;
    ++p_;
    return true;
  }
  bool at_end() { return peek() == 0 && p_ == end_; }

  /// Unsigned decimal integer ≤ max (JSON: no sign, no leading zeros, no fraction/exponent).
  bool read_uint(const path_t* path, uint64_t& out, uint64_t max) {
    skip_ws();
    const char* s = p_;
    if (s == end_ || uint8_t(*s - '0') > 9) return fail(path, "expected integer");
    uint64_t v = 0;
    const char* q = s;
    while (q < end_ && uint8_t(*q - '0') <= 9) {
      const uint64_t d = uint64_t(*q - '0');
      if (v > (UINT64_MAX - d) / 10) {
        p_ = s;
        return fail(path, "integer out of range");
      }
      v = v * 10 + d;
      ++q;
    }
    if (q < end_ && (*q == '.' || *q == 'e' || *q == 'E')) return fail(path, "expected integer");
    if (q - s > 1 && *s == '0') return fail(path, "expected integer without leading zeros");
    if (v > max)
      return fail(
          path, "integer " + std::to_string(v) + " out of range (max " + std::to_string(max) + ")");
    p_ = q;
    out = v;
    return true;
  }
  /// Signed decimal integer (for the wrapper's SectorNum).
  bool read_int(const path_t* path, int64_t& out) {
    const bool neg = consume('-');
    uint64_t v = 0;
    if (!read_uint(path, v, neg ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX))) return false;
    out = neg ? int64_t(0 - v) : int64_t(v);
    return true;
  }

  /// A JSON string; `out` points into the input when there are no escapes, else into a scratch
  /// buffer valid until the next read_string.
  bool read_string(const path_t* path, std::string_view& out) {
    if (peek() != '"') return fail(path, "expected string");
    const char* s = ++p_;
    const char* q = s;
    while (q < end_ && *q != '"' && *q != '\\' && uint8_t(*q) >= 0x20) ++q;
    if (q < end_ && *q == '"') {
      out = std::string_view(s, size_t(q - s));
      p_ = q + 1;
      return true;
    }
    scratch_.assign(s, size_t(q - s));
    p_ = q;
    while (true) {
      if (p_ >= end_) return fail(path, "unterminated string");
      const char c = *p_;
      if (c == '"') break;
      if (uint8_t(c) < 0x20) return fail(path, "control character in string");
      if (c != '\\') {
        scratch_.push_back(c);
        ++p_;
        continue;
      }
      if (++p_ >= end_) return fail(path, "unterminated string");
      const char e = *p_++;
      switch (e) {
        case '"':
          scratch_.push_back('"');
          break;
        case '\\':
          scratch_.push_back('\\');
          break;
        case '/':
          scratch_.push_back('/');
          break;
        case 'b':
          scratch_.push_back('\b');
          break;
        case 'f':
          scratch_.push_back('\f');
          break;
        case 'n':
          scratch_.push_back('\n');
          break;
        case 'r':
          scratch_.push_back('\r');
          break;
        case 't':
          scratch_.push_back('\t');
          break;
        case 'u': {
          uint32_t cp = 0;
          if (!hex4(cp)) return fail(path, "bad \\u escape");
          if (cp >= 0xd800 && cp < 0xdc00) {
            uint32_t lo = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return fail(path, "bad surrogate");
            p_ += 2;
            if (!hex4(lo) || lo < 0xdc00 || lo >= 0xe000) return fail(path, "bad surrogate");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          }
          put_utf8(cp);
          break;
        }
        default:
          --p_;
          return fail(path, "bad escape in string");
      }
    }
    ++p_;
    out = scratch_;
    return true;
  }

  bool read_null(const path_t* path) {
    skip_ws();
    if (end_ - p_ >= 4 && std::memcmp(p_, "null", 4) == 0) {
      p_ += 4;
      return true;
    }
    return fail(path, "expected null");
  }

  /// [b0, …, b31]: exactly 32 integers 0..255 (the serde form of [u8; 32]). The hot loop of a C1
  /// parse: one digit-run scan per byte.
  bool read_bytes32(const path_t* path, std::array<uint8_t, 32>& out) {
    if (!consume('[')) return fail(path, "expected array of 32 bytes");
    for (unsigned i = 0; i < 32; ++i) {
      if (p_ < end_ && uint8_t(*p_ - '0') > 9) skip_ws();
      const char* q = p_;
      unsigned v = 0, n = 0;
      while (q < end_ && uint8_t(*q - '0') <= 9 && n < 4) v = v * 10 + unsigned(*q++ - '0'), ++n;
      if (n == 0 || v > 255 || (n > 1 && *p_ == '0') || (q < end_ && uint8_t(*q - '0') <= 9)) {
        const path_t elem{path, {}, int64_t(i)};
        if (n == 0 && peek() == ']')
          return fail(path, "expected 32 bytes, got " + std::to_string(i));
        return fail(&elem, n == 0 ? "expected integer" : "expected byte value 0..255");
      }
      if (q < end_ && (*q == '.' || *q == 'e' || *q == 'E')) {
        const path_t elem{path, {}, int64_t(i)};
        return fail(&elem, "expected integer");
      }
      out[i] = uint8_t(v);
      p_ = q;
      if (i < 31) {
        if (p_ < end_ && *p_ == ',') {
          ++p_;
        } else if (!consume(',')) {
          if (peek() == ']') return fail(path, "expected 32 bytes, got " + std::to_string(i + 1));
          return fail(path, "expected ','");
        }
      }
    }
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    if (consume(']')) return true;
    if (peek() == ',') return fail(path, "expected 32 bytes, got more");
    return fail(path, "expected ']'");
  }

  /// Skips any value (unknown fields); depth-limited.
  bool skip_value(const path_t* path, int depth = 0) {
    if (depth > 64) return fail(path, "nesting too deep");
    const char c = peek();
    if (c == '{')
      return object(path,
                    [&](std::string_view, const path_t* kp) { return skip_value(kp, depth + 1); });
    if (c == '[')
      return array(path, [&](size_t, const path_t* ep) { return skip_value(ep, depth + 1); });
    if (c == '"') {
      std::string_view s;
      return read_string(path, s);
    }
    if (c == '-' || uint8_t(c - '0') <= 9) {
      ++p_;
      while (p_ < end_ && (uint8_t(*p_ - '0') <= 9 || *p_ == '.' || *p_ == 'e' || *p_ == 'E' ||
                           *p_ == '+' || *p_ == '-'))
        ++p_;
      return true;
    }
    for (const char* lit : {"null", "true", "false"}) {
      const size_t n = std::strlen(lit);
      if (size_t(end_ - p_) >= n && std::memcmp(p_, lit, n) == 0) {
        p_ += n;
        return true;
      }
    }
    return fail(path, "expected a JSON value");
  }

  /// {"k": v, …}: calls field(key, key_path) positioned at each value.
  template <class F>
  bool object(const path_t* path, F&& field) {
    if (!consume('{')) return fail(path, "expected object");
    if (consume('}')) return true;
    while (true) {
      std::string_view key;
      if (!read_string(path, key)) return false;
      // Keys are short ASCII; keep our own copy in case read_string used the scratch buffer.
      std::string key_copy;
      if (key.data() == scratch_.data()) key_copy.assign(key), key = key_copy;
      if (!consume(':')) return fail(path, "expected ':' after key \"" + std::string(key) + "\"");
      const path_t kp{path, key, -1};
      if (!field(key, &kp)) return false;
      if (consume(',')) continue;
      if (consume('}')) return true;
      return fail(path, "expected ',' or '}'");
    }
  }

  /// [v, …]: calls elem(i, elem_path) positioned at each element.
  template <class F>
  bool array(const path_t* path, F&& elem) {
    if (!consume('[')) return fail(path, "expected array");
    if (consume(']')) return true;
    for (size_t i = 0;; ++i) {
      const path_t ep{path, {}, int64_t(i)};
      if (!elem(i, &ep)) return false;
      if (consume(',')) continue;
      if (consume(']')) return true;
      return fail(path, "expected ',' or ']'");
    }
  }

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

  size_t offset() const { return size_t(p_ - begin_); }

 private:
  bool hex4(uint32_t& v) {
    if (end_ - p_ < 4) return false;
    v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *p_++;
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= uint32_t(c - 'A' + 10);
      else
        return false;
    }
    return true;
  }
  void put_utf8(uint32_t cp) {
    if (cp < 0x80) {
      scratch_.push_back(char(cp));
    } else if (cp < 0x800) {
      scratch_.push_back(char(0xc0 | (cp >> 6)));
      scratch_.push_back(char(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
      scratch_.push_back(char(0xe0 | (cp >> 12)));
      scratch_.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
      scratch_.push_back(char(0x80 | (cp & 0x3f)));
    } else {
      scratch_.push_back(char(0xf0 | (cp >> 18)));
      scratch_.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
      scratch_.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
      scratch_.push_back(char(0x80 | (cp & 0x3f)));
    }
  }
  std::string describe_here() {
    skip_ws();
    if (p_ >= end_) return "end of input";
    const char c = *p_;
    if (c == '"') return "string";
    if (c == '{') return "object";
    if (c == '[') return "array";
    if (c == '-' || (c >= '0' && c <= '9')) return "number";
    if (c == 'n') return "null";
    if (c == 't' || c == 'f') return "boolean";
    if (c >= 0x21 && c <= 0x7e) return std::string("'") + c + "'";
    return "byte " + std::to_string(uint8_t(c));
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  status err_;
  std::string scratch_;
};

}  // namespace cuzk::porep::json
