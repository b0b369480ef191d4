// SPDX-License-Identifier: Apache-2.0
// bellperson multipack: pack_into_inputs (per chunk of 254 bits, one input and (Σ 2^i b_i)·1 =
// input) and pack_bits (the first 254 bits into one aux, same constraint); the native side
// (compute_multipacking, byte <-> bit orders) and storage-proofs' reverse_bit_numbering, which
// turns to_bits_le of an Fr into the SHA message bits of its little-endian repr
// (docs/spec/gadgets.md §2).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fields.hpp"
#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/multieq.hpp"
#include "filecoin/gadgets/num.hpp"

namespace cuzk::filecoin::gadgets {

/// Σ 2^i·bits[start + i] for i < min(len, 254) (the value of a packing).
inline fr_t pack_value(const std::vector<bool>& bits, size_t start, size_t len) {
  ff::limbs<4> l{};
  for (size_t i = 0; i < len && i < FR_CAPACITY; ++i) {
    if (bits[start + i]) l[i / 64] |= uint64_t(1) << (i % 64);
  }
  return fr_t::from_canonical(l);
}
inline fr_t pack_value(std::span<const boolean_t> bits) {
  ff::limbs<4> l{};
  for (size_t i = 0; i < bits.size() && i < FR_CAPACITY; ++i) {
    if (bits[i].value) l[i / 64] |= uint64_t(1) << (i % 64);
  }
  return fr_t::from_canonical(l);
}

namespace detail {
// lc += Σ 2^i·bits[i] (bellpepper Num::add_bool_with_coeff over the chunk).
inline void add_packed(linear_combination& lc, std::span<const boolean_t> bits) {
  const auto& p2 = pow2_table();
  lc.reserve(lc.size() + 2 * bits.size());
  for (size_t i = 0; i < bits.size(); ++i) bits[i].add_to(lc, p2[i]);
}
}  // namespace detail

/// pack_into_inputs: for each chunk of 254 bits, allocate an input with the chunk's value and
/// enforce (Σ 2^i b_i)·1 = input.
template <class CS>
void pack_into_inputs(CS& cs, std::span<const boolean_t> bits) {
  for (size_t start = 0; start < bits.size(); start += FR_CAPACITY) {
    const auto chunk = bits.subspan(start, std::min(FR_CAPACITY, bits.size() - start));
    const fr_t v = pack_value(chunk);
    const variable in = cs.alloc_input([&] { return v; });
    cs.enforce([&](linear_combination& lc) { detail::add_packed(lc, chunk); },
               [](linear_combination& lc) { lc += variable::one(); },
               [in](linear_combination& lc) { lc += in; });
  }
}

/// pack_bits: the first 254 bits into one new aux, (Σ 2^i b_i)·1 = num. (1/1)
template <class CS>
allocated_num_t pack_bits(CS& cs, std::span<const boolean_t> bits) {
  const auto chunk = bits.first(std::min(FR_CAPACITY, bits.size()));
  const fr_t v = pack_value(chunk);
  const variable num = cs.alloc([&] { return v; });
  cs.enforce([&](linear_combination& lc) { detail::add_packed(lc, chunk); },
             [](linear_combination& lc) { lc += variable::one(); },
             [num](linear_combination& lc) { lc += num; });
  return {num, v};
}

/// compute_multipacking: the input values pack_into_inputs allocates for these bits.
inline std::vector<fr_t> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<fr_t> out;
  for (size_t start = 0; start < bits.size(); start += FR_CAPACITY) {
    out.push_back(pack_value(bits, start, std::min(FR_CAPACITY, bits.size() - start)));
  }
  return out;
}

/// bytes_to_bits: each byte most significant bit first (SHA message order).
inline std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes) {
  std::vector<bool> out;
  out.reserve(8 * bytes.size());
  for (uint8_t b : bytes)
    for (int i = 7; i >= 0; --i) out.push_back((b >> i) & 1);
  return out;
}
/// bytes_to_bits_le: each byte least significant bit first.
inline std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes) {
  std::vector<bool> out;
  out.reserve(8 * bytes.size());
  for (uint8_t b : bytes)
    for (int i = 0; i < 8; ++i) out.push_back((b >> i) & 1);
  return out;
}
/// The inverse of bytes_to_bits for booleans' values (bits.size() % 8 == 0).
inline std::vector<uint8_t> bits_to_bytes(std::span<const boolean_t> bits) {
  std::vector<uint8_t> out(bits.size() / 8, 0);
  for (size_t i = 0; i < out.size() * 8; ++i) {
    if (bits[i].value) out[i / 8] |= uint8_t(0x80 >> (i % 8));
  }
  return out;
}

/// Allocates one bit per message bit of `bytes` (bytes_into_boolean_vec_be): 8·len constraints.
template <class CS>
void alloc_bytes_be(CS& cs, std::span<const uint8_t> bytes, boolean_t* out) {
  for (size_t i = 0; i < bytes.size(); ++i)
    for (int j = 0; j < 8; ++j)
      out[8 * i + j] = boolean_t::from_bit(alloc_bit(cs, (bytes[i] >> (7 - j)) & 1));
}

/// reverse_bit_numbering: pad with constant false to a multiple of 8, then reverse the bits inside
/// each byte. Writes ceil(n/8)·8 booleans.
inline size_t reverse_bit_numbering(std::span<const boolean_t> in, boolean_t* out) {
  const size_t n = (in.size() + 7) / 8 * 8;
  for (size_t i = 0; i < n; ++i) {
    const size_t src = (i & ~size_t(7)) | (7 - (i & 7));
    out[i] = src < in.size() ? in[src] : boolean_t::constant(false);
  }
  return n;
}

}  // namespace cuzk::filecoin::gadgets
