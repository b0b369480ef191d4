// SPDX-License-Identifier: Apache-2.0
// snarkjs JSON import/export. nlohmann::json parses (its exceptions are caught here and become
// status); numbers are converted by schoolbook base-10 arithmetic on 64-bit limbs, checked against
// the modulus before any Montgomery conversion.
#include "groth16/snarkjs_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>

#include "ec/curves.hpp"
#include "ec/point.hpp"
#include "ec/subgroup.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {
namespace {

using ff::fp2_t;
using ff::fp_t;
using ff::fr_t;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using u128 = unsigned __int128;

template <size_t N>
std::string limbs_to_decimal(std::array<uint64_t, N> v) {
  constexpr uint64_t TEN19 = 10'000'000'000'000'000'000ull;
  std::string out;
  auto is_zero = [&] { return std::all_of(v.begin(), v.end(), [](uint64_t x) { return x == 0; }); };
  do {
    // v, rem = divmod(v, 10^19), most significant limb first
    uint64_t rem = 0;
    for (size_t i = N; i-- > 0;) {
      const u128 cur = (u128(rem) << 64) | v[i];
      v[i] = uint64_t(cur / TEN19);
      rem = uint64_t(cur % TEN19);
    }
    std::string chunk = std::to_string(rem);
    if (!is_zero()) chunk.insert(0, 19 - chunk.size(), '0');
    out.insert(0, chunk);
  } while (!is_zero());
  return out;
}

// Out of line: GCC 12 reports a false -Wrestrict inside std::string concatenation once this is
// inlined into the field parser.
[[gnu::noinline]] status not_an_integer(std::string_view s, unsigned base) {
  std::string msg = "'";
  msg.append(s.substr(0, 80));
  msg.append(base == 10 ? "' is not a decimal integer" : "' is not a hex integer");
  return status(status_code::bad_encoding, std::move(msg));
}

/// Parses decimal or 0x-hex digits into a field element (< modulus).
template <class F>
result<F> field_from_text(std::string_view s) {
  constexpr size_t N = F::N;
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return status(status_code::bad_encoding, "empty number");
  std::array<uint64_t, N + 1> acc{};  // one spare limb: overflow past 2^(64N) means ≥ modulus
  for (char ch : s) {
    unsigned d;
    if (ch >= '0' && ch <= '9') {
      d = unsigned(ch - '0');
    } else if (base == 16 && std::isxdigit(static_cast<unsigned char>(ch))) {
      d = unsigned(std::tolower(static_cast<unsigned char>(ch)) - 'a' + 10);
    } else {
      return not_an_integer(s, base);
    }
    u128 carry = d;
    for (auto& limb : acc) {
      const u128 t = u128(limb) * base + carry;
      limb = uint64_t(t);
      carry = t >> 64;
    }
    if (carry != 0 || acc[N] != 0) {
      return status(status_code::non_canonical, "value exceeds the field modulus");
    }
  }
  ff::limbs<N> v{};
  std::copy(acc.begin(), acc.begin() + N, v.begin());
  F out;
  if (!F::from_canonical_checked(v, out)) {
    return status(status_code::non_canonical, limbs_to_decimal(v) + " is not below the modulus");
  }
  return out;
}

status named(const std::string& where, const status& s) {
  return {s.code(), where + ": " + s.message()};
}

/// A JSON value holding a field element: a string of digits or a non-negative integer.
template <class F>
result<F> field_from_json(const json& j, const std::string& where) {
  if (j.is_string()) {
    auto r = field_from_text<F>(j.get_ref<const std::string&>());
    if (!r) return named(where, r.error());
    return r;
  }
  if (j.is_number_unsigned()) return F::from_uint(j.get<uint64_t>());
  return status(status_code::bad_encoding, where + ": expected a decimal string");
}

result<fp2_t> fp2_from_json(const json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 2) {
    return status(status_code::bad_encoding, where + ": expected [c0, c1]");
  }
  auto c0 = field_from_json<fp_t>(j[0], where + "[0]");
  if (!c0) return c0.error();
  auto c1 = field_from_json<fp_t>(j[1], where + "[1]");
  if (!c1) return c1.error();
  return fp2_t{*c0, *c1};
}

template <class Field>
result<Field> coord_from_json(const json& j, const std::string& where) {
  if constexpr (std::is_same_v<Field, fp_t>) {
    return field_from_json<fp_t>(j, where);
  } else {
    return fp2_from_json(j, where);
  }
}

/// [x, y] or [x, y, z] (Jacobian, z = 0: identity); checks curve equation and subgroup.
template <class Field>
result<ec::affine_t<Field>> point_from_json(const json& j, const std::string& where,
                                            bool allow_infinity) {
  if (!j.is_array() || (j.size() != 2 && j.size() != 3)) {
    return status(status_code::bad_encoding, where + ": expected a point [x, y, z]");
  }
  auto x = coord_from_json<Field>(j[0], where + "[0]");
  if (!x) return x.error();
  auto y = coord_from_json<Field>(j[1], where + "[1]");
  if (!y) return y.error();
  Field z = Field::one();
  if (j.size() == 3) {
    auto zr = coord_from_json<Field>(j[2], where + "[2]");
    if (!zr) return zr.error();
    z = *zr;
  }
  if (z.is_zero()) {
    if (!allow_infinity) return status(status_code::is_infinity, where + ": point at infinity");
    return ec::affine_t<Field>::infinity();
  }
  ec::affine_t<Field> p{*x, *y};
  if (!z.is_one()) p = ec::jacobian_t<Field>{*x, *y, z}.to_affine();
  if (!ec::satisfies_curve_equation(p.x, p.y)) {
    return status(status_code::not_on_curve, where + ": point is not on the curve");
  }
  if (!ec::in_subgroup(p)) {
    return status(status_code::not_in_subgroup, where + ": point is not in the order-r subgroup");
  }
  return p;
}

result<json> parse_text(std::string_view text, const char* what) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number too large for a double ("9E14651173", found by
    // snarkjs_json_fuzz): both are malformed input.
    return status(status_code::bad_encoding, std::string(what) + ": invalid JSON: " + e.what());
  }
}

/// snarkjs matches curve names by their upper-cased alphanumerics ("bls12-381" = "BLS12381").
bool is_bls12_381_name(const std::string& s) {
  std::string n;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      n += char(std::toupper(static_cast<unsigned char>(c)));
  }
  return n == "BLS12381";
}

status check_header(const json& j, const char* what, bool curve_required) {
  if (j.contains("protocol")) {
    if (!j["protocol"].is_string() || j["protocol"].get<std::string>() != "groth16") {
      return {status_code::invalid_argument, std::string(what) + ": protocol: not \"groth16\""};
    }
  }
  if (!j.contains("curve")) {
    if (curve_required) return {status_code::bad_encoding, std::string(what) + ": curve: missing"};
    return {};
  }
  if (!j["curve"].is_string() || !is_bls12_381_name(j["curve"].get<std::string>())) {
    return {status_code::invalid_argument,
            std::string(what) + ": curve: " + j["curve"].dump() + " is not bls12381"};
  }
  return {};
}

ojson g1_json(const ec::g1_affine_t& p) {
  if (p.is_infinity()) return ojson::array({"0", "1", "0"});
  return ojson::array({to_decimal(p.x), to_decimal(p.y), "1"});
}
ojson fp2_json(const fp2_t& a) {
  return ojson::array({to_decimal(a.c0), to_decimal(a.c1)});
}
ojson g2_json(const ec::g2_affine_t& p) {
  if (p.is_infinity()) {
    return ojson::array(
        {ojson::array({"0", "0"}), ojson::array({"1", "0"}), ojson::array({"0", "0"})});
  }
  return ojson::array({fp2_json(p.x), fp2_json(p.y), ojson::array({"1", "0"})});
}
ojson fp6_json(const ff::fp6_t& a) {
  return ojson::array({fp2_json(a.c0), fp2_json(a.c1), fp2_json(a.c2)});
}

status require_key(const json& j, const char* key, const char* what) {
  if (!j.is_object()) return {status_code::bad_encoding, std::string(what) + ": not a JSON object"};
  if (!j.contains(key))
    return {status_code::bad_encoding, std::string(what) + ": " + key + ": missing"};
  return {};
}

}  // namespace

std::string to_decimal(const fp_t& x) {
  return limbs_to_decimal(x.to_canonical());
}
std::string to_decimal(const fr_t& x) {
  return limbs_to_decimal(x.to_canonical());
}
result<fp_t> fp_from_decimal(std::string_view s) {
  return field_from_text<fp_t>(s);
}
result<fr_t> fr_from_decimal(std::string_view s) {
  return field_from_text<fr_t>(s);
}

// ---- export
// ---------------------------------------------------------------------------------------

std::string vk_to_snarkjs_json(const verifying_key& vk) {
  ojson j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["nPublic"] = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  j["vk_alpha_1"] = g1_json(vk.alpha_g1);
  j["vk_beta_2"] = g2_json(vk.beta_g2);
  j["vk_gamma_2"] = g2_json(vk.gamma_g2);
  j["vk_delta_2"] = g2_json(vk.delta_g2);
  const ff::fp12_t ab = pairing::pair(vk.alpha_g1, vk.beta_g2);
  j["vk_alphabeta_12"] = ojson::array({fp6_json(ab.c0), fp6_json(ab.c1)});
  ojson ic = ojson::array();
  for (const auto& p : vk.ic) ic.push_back(g1_json(p));
  j["IC"] = std::move(ic);
  return j.dump(1) + "\n";
}

std::string proof_to_snarkjs_json(const proof& pf) {
  ojson j;
  j["pi_a"] = g1_json(pf.a);
  j["pi_b"] = g2_json(pf.b);
  j["pi_c"] = g1_json(pf.c);
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  return j.dump(1) + "\n";
}

std::string public_to_snarkjs_json(std::span<const fr_t> public_inputs) {
  ojson j = ojson::array();
  for (const auto& x : public_inputs) j.push_back(to_decimal(x));
  return j.dump(1) + "\n";
}

// ---- import
// ---------------------------------------------------------------------------------------

result<verifying_key> vk_from_snarkjs_json(std::string_view text) {
  auto parsed = parse_text(text, "verification key");
  if (!parsed) return parsed.error();
  const json& j = *parsed;
  for (const char* key : {"vk_alpha_1", "vk_beta_2", "vk_gamma_2", "vk_delta_2", "IC"}) {
    if (status s = require_key(j, key, "verification key"); !s) return s;
  }
  if (status s = check_header(j, "verification key", true); !s) return s;
  verifying_key vk;
  auto alpha = point_from_json<fp_t>(j["vk_alpha_1"], "vk_alpha_1", false);
  if (!alpha) return alpha.error();
  vk.alpha_g1 = *alpha;
  std::array<std::pair<const char*, ec::g2_affine_t*>, 3> g2s = {
      {{"vk_beta_2", &vk.beta_g2}, {"vk_gamma_2", &vk.gamma_g2}, {"vk_delta_2", &vk.delta_g2}}};
  for (auto& [key, out] : g2s) {
    auto p = point_from_json<fp2_t>(j[key], key, false);
    if (!p) return p.error();
    *out = *p;
  }
  vk.beta_g1 = ec::g1_affine_t::infinity();
  vk.delta_g1 = ec::g1_affine_t::infinity();
  const json& ic = j["IC"];
  if (!ic.is_array() || ic.empty()) {
    return status(status_code::bad_encoding, "IC: expected a non-empty array of G1 points");
  }
  for (size_t i = 0; i < ic.size(); ++i) {
    auto p = point_from_json<fp_t>(ic[i], "IC[" + std::to_string(i) + "]", true);
    if (!p) return p.error();
    vk.ic.push_back(*p);
  }
  if (j.contains("nPublic")) {
    const json& n = j["nPublic"];
    if (!n.is_number_unsigned() || n.get<uint64_t>() + 1 != ic.size()) {
      return status(status_code::size_mismatch, "nPublic: " + n.dump() + " but IC has " +
                                                    std::to_string(ic.size()) + " points");
    }
  }
  return vk;
}

result<proof> proof_from_snarkjs_json(std::string_view text) {
  auto parsed = parse_text(text, "proof");
  if (!parsed) return parsed.error();
  const json& j = *parsed;
  for (const char* key : {"pi_a", "pi_b", "pi_c"}) {
    if (status s = require_key(j, key, "proof"); !s) return s;
  }
  if (status s = check_header(j, "proof", false); !s) return s;
  proof pf;
  auto a = point_from_json<fp_t>(j["pi_a"], "pi_a", false);
  if (!a) return a.error();
  auto b = point_from_json<fp2_t>(j["pi_b"], "pi_b", false);
  if (!b) return b.error();
  auto c = point_from_json<fp_t>(j["pi_c"], "pi_c", false);
  if (!c) return c.error();
  pf.a = *a;
  pf.b = *b;
  pf.c = *c;
  return pf;
}

result<std::vector<fr_t>> public_from_snarkjs_json(std::string_view text) {
  auto parsed = parse_text(text, "public signals");
  if (!parsed) return parsed.error();
  const json& j = *parsed;
  if (!j.is_array())
    return status(status_code::bad_encoding, "public signals: expected a JSON array");
  std::vector<fr_t> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    auto v = field_from_json<fr_t>(j[i], "public[" + std::to_string(i) + "]");
    if (!v) return v.error();
    out.push_back(*v);
  }
  return out;
}

}  // namespace cuzk::groth16
