// SPDX-License-Identifier: Apache-2.0
// ZCash point encoding, written once over the coordinate field: an Fp coordinate is 48 big-endian
// bytes, an Fp2 coordinate is c1 ‖ c0 (96 bytes). Checks run in the order length → flags →
// canonical coordinates → curve equation → subgroup, so each input gets the first failing code.
#include "ec/serialization.hpp"

#include <cstring>
#include <string>

#include "ec/curves.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec {
namespace {

// ---- coordinates -----------------------------------------------------------------------------

constexpr size_t coord_bytes(const fp_t*) {
  return 48;
}
constexpr size_t coord_bytes(const fp2_t*) {
  return 96;
}

void write_coord(const fp_t& v, uint8_t* out) {
  v.to_bytes_be(out);
}
void write_coord(const fp2_t& v, uint8_t* out) {
  v.c1.to_bytes_be(out);
  v.c0.to_bytes_be(out + 48);
}
bool read_coord(const uint8_t* in, fp_t& v) {
  return fp_t::from_bytes_be(in, v);
}
bool read_coord(const uint8_t* in, fp2_t& v) {
  return fp_t::from_bytes_be(in, v.c1) && fp_t::from_bytes_be(in + 48, v.c0);
}

template <class Field>
constexpr size_t coord_size() {
  return coord_bytes(static_cast<const Field*>(nullptr));
}

// ---- encoding --------------------------------------------------------------------------------

template <class Field>
void encode(const affine_t<Field>& p, bool compressed, uint8_t* out) {
  constexpr size_t C = coord_size<Field>();
  const size_t len = compressed ? C : 2 * C;
  if (p.is_infinity()) {
    std::memset(out, 0, len);
    out[0] = uint8_t(FLAG_INFINITY | (compressed ? FLAG_COMPRESSED : 0));
    return;
  }
  write_coord(p.x, out);
  if (compressed) {
    out[0] |= FLAG_COMPRESSED;
    if (p.y.is_lexicographically_largest()) out[0] |= FLAG_SIGN;
  } else {
    write_coord(p.y, out + C);
  }
}

// ---- decoding --------------------------------------------------------------------------------

template <class Field>
result<affine_t<Field>> fail(status_code code, const char* what) {
  return {code, std::string(curve_traits<Field>::NAME) + ": " + what};
}

template <class Field>
result<affine_t<Field>> decode(std::span<const uint8_t> in, bool compressed, decode_options opt) {
  using point = affine_t<Field>;
  constexpr size_t C = coord_size<Field>();
  const size_t len = compressed ? C : 2 * C;
  if (in.size() != len) return fail<Field>(status_code::bad_length, "wrong encoding length");

  const uint8_t flags = in[0] & 0xe0;
  if (bool(flags & FLAG_COMPRESSED) != compressed) {
    return fail<Field>(status_code::bad_encoding,
                       compressed ? "compressed flag clear in a compressed-length encoding"
                                  : "compressed flag set in an uncompressed-length encoding");
  }
  if (!compressed && (flags & FLAG_SIGN)) {
    return fail<Field>(status_code::bad_encoding, "sign flag set in an uncompressed encoding");
  }
  if (flags & FLAG_INFINITY) {
    if (flags & FLAG_SIGN) return fail<Field>(status_code::bad_encoding, "sign flag on infinity");
    uint8_t acc = in[0] & 0x1f;
    for (size_t i = 1; i < len; ++i) acc |= in[i];
    if (acc) return fail<Field>(status_code::bad_encoding, "infinity with nonzero coordinate bits");
    return point::infinity();
  }

  // x with the flag bits removed
  uint8_t xbytes[C];
  std::memcpy(xbytes, in.data(), C);
  xbytes[0] &= 0x1f;
  point p;
  if (!read_coord(xbytes, p.x)) return fail<Field>(status_code::non_canonical, "x >= p");
  if (compressed) {
    const Field rhs = p.x.sqr() * p.x + curve_b<Field>();
    if (!rhs.sqrt(p.y)) return fail<Field>(status_code::not_on_curve, "x^3 + b is not a square");
    if (p.y.is_lexicographically_largest() != bool(flags & FLAG_SIGN)) p.y = -p.y;
  } else {
    if (!read_coord(in.data() + C, p.y)) return fail<Field>(status_code::non_canonical, "y >= p");
    if (!satisfies_curve_equation(p.x, p.y)) {
      return fail<Field>(status_code::not_on_curve, "y^2 != x^3 + b");
    }
  }
  if (opt.subgroup_check && !in_subgroup(p)) {
    return fail<Field>(status_code::not_in_subgroup, "point is not in the order-r subgroup");
  }
  return p;
}

template <class Field>
result<affine_t<Field>> decode_any(std::span<const uint8_t> in, decode_options opt) {
  constexpr size_t C = coord_size<Field>();
  if (in.size() == C) return decode<Field>(in, true, opt);
  if (in.size() == 2 * C) return decode<Field>(in, false, opt);
  return fail<Field>(status_code::bad_length, "length is neither compressed nor uncompressed");
}

}  // namespace

void g1_to_compressed(const g1_affine_t& p, std::span<uint8_t, G1_COMPRESSED_BYTES> out) {
  encode(p, true, out.data());
}
void g1_to_uncompressed(const g1_affine_t& p, std::span<uint8_t, G1_UNCOMPRESSED_BYTES> out) {
  encode(p, false, out.data());
}
void g2_to_compressed(const g2_affine_t& p, std::span<uint8_t, G2_COMPRESSED_BYTES> out) {
  encode(p, true, out.data());
}
void g2_to_uncompressed(const g2_affine_t& p, std::span<uint8_t, G2_UNCOMPRESSED_BYTES> out) {
  encode(p, false, out.data());
}

std::array<uint8_t, G1_COMPRESSED_BYTES> g1_to_compressed(const g1_affine_t& p) {
  std::array<uint8_t, G1_COMPRESSED_BYTES> out;
  encode(p, true, out.data());
  return out;
}
std::array<uint8_t, G1_UNCOMPRESSED_BYTES> g1_to_uncompressed(const g1_affine_t& p) {
  std::array<uint8_t, G1_UNCOMPRESSED_BYTES> out;
  encode(p, false, out.data());
  return out;
}
std::array<uint8_t, G2_COMPRESSED_BYTES> g2_to_compressed(const g2_affine_t& p) {
  std::array<uint8_t, G2_COMPRESSED_BYTES> out;
  encode(p, true, out.data());
  return out;
}
std::array<uint8_t, G2_UNCOMPRESSED_BYTES> g2_to_uncompressed(const g2_affine_t& p) {
  std::array<uint8_t, G2_UNCOMPRESSED_BYTES> out;
  encode(p, false, out.data());
  return out;
}

result<g1_affine_t> g1_from_compressed(std::span<const uint8_t> in, decode_options opt) {
  return decode<fp_t>(in, true, opt);
}
result<g1_affine_t> g1_from_uncompressed(std::span<const uint8_t> in, decode_options opt) {
  return decode<fp_t>(in, false, opt);
}
result<g1_affine_t> g1_from_bytes(std::span<const uint8_t> in, decode_options opt) {
  return decode_any<fp_t>(in, opt);
}
result<g2_affine_t> g2_from_compressed(std::span<const uint8_t> in, decode_options opt) {
  return decode<fp2_t>(in, true, opt);
}
result<g2_affine_t> g2_from_uncompressed(std::span<const uint8_t> in, decode_options opt) {
  return decode<fp2_t>(in, false, opt);
}
result<g2_affine_t> g2_from_bytes(std::span<const uint8_t> in, decode_options opt) {
  return decode_any<fp2_t>(in, opt);
}

}  // namespace cuzk::ec
