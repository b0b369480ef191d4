// SPDX-License-Identifier: Apache-2.0
// json::reader on simdjson On-Demand (json_reader.hpp). simdjson finds the structure, checks
// UTF-8 and unescapes strings; the integer tokens of the schema are read here from their raw text,
// so that every rejection (sign, fraction, leading zero, range) names the rule it breaks.
#include "base/json_reader.hpp"

#include <simdjson.h>

#include <cstring>
#include <mutex>
#include <vector>

namespace cuzk::json {

namespace od = simdjson::ondemand;

std::string format_path(const path_t* p) {
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

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}
bool is_digit(char c) {
  return uint8_t(c - '0') <= 9;
}

/// A raw token (simdjson's raw_json_token() runs up to the next structural character, so it may
/// end in whitespace) without its trailing whitespace.
std::string_view trim_token(std::string_view tok) {
  while (!tok.empty() && is_space(tok.back())) tok.remove_suffix(1);
  return tok;
}

enum class uint_token { ok, not_integer, overflow, leading_zero };

/// An unsigned JSON integer: digits only, no leading zeros, < 2^64.
uint_token parse_uint_token(std::string_view tok, uint64_t& out) {
  tok = trim_token(tok);
  if (tok.empty() || !is_digit(tok[0])) return uint_token::not_integer;
  uint64_t v = 0;
  for (char c : tok) {
    if (!is_digit(c)) return uint_token::not_integer;
    const uint64_t d = uint64_t(c - '0');
    if (v > (UINT64_MAX - d) / 10) return uint_token::overflow;
    v = v * 10 + d;
  }
  if (tok.size() > 1 && tok[0] == '0') return uint_token::leading_zero;
  out = v;
  return uint_token::ok;
}

/// What a rejected integer token is, as the error message says it (nullptr when it is fine).
const char* uint_token_problem(uint_token t) {
  switch (t) {
    case uint_token::ok:
      return nullptr;
    case uint_token::not_integer:
      return "expected integer";
    case uint_token::overflow:
      return "integer out of range";
    case uint_token::leading_zero:
      return "expected integer without leading zeros";
  }
  return "expected integer";
}

/// The JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view tok) {
  tok = trim_token(tok);
  size_t i = 0;
  const size_t n = tok.size();
  auto digits = [&] {
    const size_t start = i;
    while (i < n && is_digit(tok[i])) ++i;
    return i > start;
  };
  if (i < n && tok[i] == '-') ++i;
  if (i < n && tok[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < n && tok[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (tok[i] == 'e' || tok[i] == 'E')) {
    ++i;
    if (i < n && (tok[i] == '+' || tok[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

/// simdjson's parser and the padded copy of the input. Both are sized by the largest document
/// seen and reused: allocating them afresh for every C1 (~6 bytes per input byte) costs more in
/// page faults than the parse itself. A few idle workspaces are kept (workspace_pool).
struct workspace {
  od::parser parser;
  std::unique_ptr<char[]> buffer;
  size_t capacity = 0;

  /// `text` copied into the buffer with simdjson's zeroed padding after it.
  const char* copy_padded(std::string_view text) {
    if (capacity < text.size() + simdjson::SIMDJSON_PADDING) {
      capacity = text.size() + simdjson::SIMDJSON_PADDING;
      buffer = std::make_unique_for_overwrite<char[]>(capacity);
    }
    std::memcpy(buffer.get(), text.data(), text.size());
    std::memset(buffer.get() + text.size(), 0, simdjson::SIMDJSON_PADDING);
    return buffer.get();
  }
};

/// Idle workspaces, shared by all threads; at most MAX_IDLE are kept (a burst of concurrent parses
/// frees the rest).
class workspace_pool {
 public:
  static constexpr size_t MAX_IDLE = 2;

  std::unique_ptr<workspace> take() {
    {
      std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        auto w = std::move(idle_.back());
        idle_.pop_back();
        return w;
      }
    }
    return std::make_unique<workspace>();
  }
  void give_back(std::unique_ptr<workspace> w) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < MAX_IDLE) idle_.push_back(std::move(w));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<workspace>> idle_;
};

workspace_pool& pool() {
  static workspace_pool p;
  return p;
}

}  // namespace

struct reader::state {
  std::string_view text;  ///< the caller's text (error positions and trailing bytes)
  size_t parsed_len = 0;  ///< the prefix handed to simdjson (see the constructor)
  std::unique_ptr<workspace> work = pool().take();
  const char* padded = nullptr;
  od::document doc;
  simdjson::error_code index_error = simdjson::SUCCESS;
  bool at_root = true;
  od::value current;               ///< the value the next read reads
  const char* error_at = nullptr;  ///< the token an error is about, when already consumed

  /// Where the reader stands (or the token in error_at), as an offset into `text`.
  size_t offset() {
    if (index_error) return 0;
    if (error_at) return std::min(size_t(error_at - padded), parsed_len);
    const char* p = nullptr;
    if (doc.current_location().get(p) != simdjson::SUCCESS) return parsed_len;
    return std::min(size_t(p - padded), parsed_len);
  }
};

reader::reader(std::string_view text) : s_(std::make_unique<state>()) {
  s_->text = text;
  // simdjson requires the root object's '}' (a root array's ']') to be the document's last
  // structural character, so it is given the text up to the last one; what follows is checked by
  // at_end(), which reports trailing characters (rather than an incomplete object) like any other
  // error, in order.
  const size_t first = text.find_first_not_of(" \t\r\n");
  const char close = first != std::string_view::npos && text[first] == '[' ? ']' : '}';
  const size_t last_brace = text.rfind(close);
  s_->parsed_len = last_brace == std::string_view::npos ? text.size() : last_brace + 1;
  if (s_->parsed_len > s_->work->parser.max_capacity()) {  // 4 GiB: checked before copying
    s_->index_error = simdjson::CAPACITY;
    return;
  }
  s_->padded = s_->work->copy_padded(text.substr(0, s_->parsed_len));
  s_->index_error =
      s_->work->parser.iterate(s_->padded, s_->parsed_len, s_->work->capacity).get(s_->doc);
}

reader::~reader() {
  auto work = std::move(s_->work);
  s_.reset();  // the document refers into the workspace: gone before the workspace is shared
  pool().give_back(std::move(work));
}

bool reader::fail(const path_t* path, std::string_view what, bool show_found) {
  if (!err_.ok()) return false;
  size_t at = s_->offset();
  std::string msg = format_path(path) + ": " + std::string(what);
  if (show_found) {
    const std::string_view t = s_->text;
    while (at < t.size() && is_space(t[at])) ++at;
    std::string found;
    if (at >= t.size()) {
      found = "end of input";
    } else {
      const char c = t[at];
      if (c == '"')
        found = "string";
      else if (c == '{')
        found = "object";
      else if (c == '[')
        found = "array";
      else if (c == '-' || is_digit(c))
        found = "number";
      else if (c == 'n')
        found = "null";
      else if (c == 't' || c == 'f')
        found = "boolean";
      else if (c >= 0x21 && c <= 0x7e)
        found = std::string("'") + c + "'";
      else
        found = "byte " + std::to_string(uint8_t(c));
    }
    msg += ", found " + found;
  }
  msg += " (byte " + std::to_string(at) + ")";
  err_ = status(status_code::bad_encoding, std::move(msg));
  return false;
}

namespace {

/// The message for a simdjson error: `expected` for a value of the wrong type, else simdjson's
/// own description of the malformation.
std::string describe_error(simdjson::error_code e, std::string_view expected) {
  if (e == simdjson::INCORRECT_TYPE) return std::string(expected);
  return std::string("malformed JSON: ") + simdjson::error_message(e);
}

}  // namespace

bool reader::at_end() {
  if (s_->index_error) return false;
  // simdjson 3.0's document has no at_end(): its location is out of bounds past the last token.
  const char* p = nullptr;
  if (s_->doc.current_location().get(p) != simdjson::OUT_OF_BOUNDS) return false;
  for (size_t i = s_->parsed_len; i < s_->text.size(); ++i)
    if (!is_space(s_->text[i])) return false;
  return true;
}

bool reader::read_uint(const path_t* path, uint64_t& out, uint64_t max) {
  // simdjson accepts exactly the integers this reader does (no sign, no leading zeros, < 2^64);
  // a rejection is re-read from the raw token to say what is wrong with it.
  const std::string_view tok = s_->current.raw_json_token();
  uint64_t v = 0;
  if (s_->current.get_uint64().get(v) != simdjson::SUCCESS) {
    if (const char* problem = uint_token_problem(parse_uint_token(tok, v)))
      return fail(path, problem);
  }
  if (v > max) {
    s_->error_at = tok.data();
    return fail(path,
                "integer " + std::to_string(v) + " out of range (max " + std::to_string(max) + ")");
  }
  out = v;
  return true;
}

bool reader::read_int(const path_t* path, int64_t& out) {
  std::string_view tok = s_->current.raw_json_token();
  const bool neg = !tok.empty() && tok[0] == '-';
  if (neg) tok.remove_prefix(1);
  uint64_t v = 0;
  const uint64_t max = neg ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
  if (const char* problem = uint_token_problem(parse_uint_token(tok, v)))
    return fail(path, problem);
  if (v > max)
    return fail(path,
                "integer " + std::to_string(v) + " out of range (max " + std::to_string(max) + ")");
  out = neg ? int64_t(0 - v) : int64_t(v);
  return true;
}

bool reader::read_string(const path_t* path, std::string_view& out) {
  // Without escapes the string is its raw text: a view into the reader's copy of the input saves
  // copying a large value (the wrapper's ~50 MB Phase1Out) into simdjson's string buffer. simdjson
  // has already checked the whole input for invalid UTF-8 and unescaped control characters.
  const std::string_view tok = trim_token(s_->current.raw_json_token());
  if (tok.size() >= 2 && tok.front() == '"' && tok.back() == '"' &&
      tok.substr(1, tok.size() - 2).find('\\') == std::string_view::npos) {
    out = tok.substr(1, tok.size() - 2);
    return true;
  }
  if (auto e = s_->current.get_string().get(out)) {
    s_->error_at = tok.data();
    if (e == simdjson::STRING_ERROR) return fail(path, "bad escape in string");
    return fail(path, describe_error(e, "expected string"));
  }
  return true;
}

bool reader::read_null(const path_t* path) {
  if (trim_token(s_->current.raw_json_token()) != "null") return fail(path, "expected null");
  return true;
}

bool reader::read_bytes32(const path_t* path, std::array<uint8_t, 32>& out) {
  od::array arr;
  if (auto e = s_->current.get_array().get(arr))
    return fail(path, describe_error(e, "expected array of 32 bytes"));
  unsigned n = 0;
  for (auto element : arr) {
    od::value v;
    if (auto e = element.get(v)) return fail(path, describe_error(e, "expected ','"));
    if (n == 32) return fail(path, "expected 32 bytes, got more");
    uint64_t b = 0;
    if (v.get_uint64().get(b) != simdjson::SUCCESS || b > 255) {
      const std::string_view tok = v.raw_json_token();
      s_->error_at = tok.data();
      const path_t elem{path, {}, int64_t(n)};
      return fail(&elem, parse_uint_token(tok, b) == uint_token::not_integer
                             ? "expected integer"
                             : "expected byte value 0..255");
    }
    out[n++] = uint8_t(b);
  }
  if (n != 32) return fail(path, "expected 32 bytes, got " + std::to_string(n));
  return true;
}

bool reader::skip_value(const path_t* path, int depth) {
  if (depth > 64) return fail(path, "nesting too deep");
  od::json_type type;
  if (auto e = s_->current.type().get(type))
    return fail(path, describe_error(e, "expected a JSON value"));
  switch (type) {
    case od::json_type::object:
      return object(path,
                    [&](std::string_view, const path_t* kp) { return skip_value(kp, depth + 1); });
    case od::json_type::array:
      return array(path, [&](size_t, const path_t* ep) { return skip_value(ep, depth + 1); });
    case od::json_type::string: {
      std::string_view s;
      return read_string(path, s);
    }
    case od::json_type::number:
      if (!is_json_number(s_->current.raw_json_token())) return fail(path, "malformed number");
      return true;
    case od::json_type::boolean: {
      bool b = false;
      if (s_->current.get_bool().get(b)) return fail(path, "expected a JSON value");
      return true;
    }
    case od::json_type::null:
      return read_null(path);
  }
  return fail(path, "expected a JSON value");
}

bool reader::object(const path_t* path, field_fn field) {
  od::object obj;
  simdjson::error_code e = s_->index_error;
  if (!e) {
    if (s_->at_root) {
      s_->at_root = false;
      e = s_->doc.get_object().get(obj);
    } else {
      e = s_->current.get_object().get(obj);
    }
  }
  if (e) return fail(path, describe_error(e, "expected object"));
  for (auto f : obj) {
    std::string_view key;
    if ((e = f.unescaped_key().get(key))) return fail(path, describe_error(e, "expected string"));
    if ((e = f.value().get(s_->current)))
      return fail(path, describe_error(e, "expected a JSON value"));
    const path_t kp{path, key, -1};
    if (!field(key, &kp)) return false;
  }
  return true;
}

bool reader::array(const path_t* path, element_fn elem) {
  od::array arr;
  simdjson::error_code e = s_->index_error;
  if (!e) {
    if (s_->at_root) {
      s_->at_root = false;
      e = s_->doc.get_array().get(arr);
    } else {
      e = s_->current.get_array().get(arr);
    }
  }
  if (e) return fail(path, describe_error(e, "expected array"));
  size_t i = 0;
  for (auto element : arr) {
    if (auto e = element.get(s_->current))
      return fail(path, describe_error(e, "expected a JSON value"));
    const path_t ep{path, {}, int64_t(i)};
    if (!elem(i++, &ep)) return false;
  }
  return true;
}

}  // namespace cuzk::json
