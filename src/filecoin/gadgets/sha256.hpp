// SPDX-License-Identifier: Apache-2.0
// The bellperson SHA-256 gadget, constraint-exact (docs/spec/gadgets.md §2.2): constant IV, K
// and padding; schedule w[i] = addmany(w[i−16], σ0, w[i−7], σ1); rounds compute e then Σ1 and ch,
// then a, Σ0 and maj, with new e = addmany(temp1 ‖ d) and new a = addmany(temp1 ‖ temp2) deferred
// until the next round reads them (h0/h4 fold the old state in: 8 and 7 operands); one MultiEq per
// compression, flushed at its end. Fixed arrays throughout: no heap in the round loop.
// Costs: one block of 512 allocated bits 25,840; sha256 of 512 allocated bits (2 blocks) 44,874.
// Also the SHA256-trunc254 circuits of filecoin-hashers (hash_circuit, hash2/multi-leaf).
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>

#include "filecoin/gadgets/boolean.hpp"
#include "filecoin/gadgets/multieq.hpp"
#include "filecoin/gadgets/multipack.hpp"
#include "filecoin/gadgets/num.hpp"
#include "filecoin/gadgets/uint32.hpp"
#include "filecoin/hash/sha256_trunc254.hpp"

namespace cuzk::filecoin::gadgets {

using sha256_state_t = std::array<word32_t, 8>;

/// The IV as constant words.
inline sha256_state_t sha256_iv_words() {
  sha256_state_t s;
  for (int i = 0; i < 8; ++i) s[i] = word32_t::constant(cuzk::hash::SHA256_IV[i]);
  return s;
}

namespace detail {

// bellperson's Maybe: a word known now, or up to 8 operands whose addmany is deferred.
struct maybe_word_t {
  word32_t concrete;
  std::array<word32_t, 8> ops;
  size_t n = 0;  ///< 0 = concrete

  template <class CS>
  word32_t compute(multieq<CS>& meq, const word32_t* extra, size_t num_extra) {
    if (n == 0) return concrete;
    for (size_t i = 0; i < num_extra; ++i) ops[n + i] = extra[i];
    return addmany(meq, std::span<const word32_t>(ops.data(), n + num_extra));
  }
};

template <class CS>
word32_t xor3(CS& cs, const word32_t& x, const word32_t& y, const word32_t& z) {
  return word32_xor(cs, word32_xor(cs, x, y), z);
}

}  // namespace detail

/// sha256_compression_function: 512 input bits (message order: word j is bits 32j..32j+31, MSB
/// first) and the current state; returns the new state.
template <class CS>
sha256_state_t sha256_compression(CS& cs, const boolean_t* block, const sha256_state_t& cur) {
  std::array<word32_t, 64> w;
  for (int i = 0; i < 16; ++i) w[i] = word32_t::from_bits_be(block + 32 * i);

  multieq<CS> meq(cs);
  for (int i = 16; i < 64; ++i) {
    const word32_t& w15 = w[i - 15];
    const word32_t& w2 = w[i - 2];
    std::array<word32_t, 4> ops;
    ops[0] = w[i - 16];
    ops[1] = detail::xor3(cs, w15.rotr(7), w15.rotr(18), w15.shr(3));  // σ0
    ops[2] = w[i - 7];
    ops[3] = detail::xor3(cs, w2.rotr(17), w2.rotr(19), w2.shr(10));  // σ1
    w[i] = addmany(meq, std::span<const word32_t>(ops));
  }

  detail::maybe_word_t a, e;
  a.concrete = cur[0];
  e.concrete = cur[4];
  word32_t b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];

  for (int i = 0; i < 64; ++i) {
    const word32_t new_e = e.compute(meq, nullptr, 0);
    const word32_t s1 = detail::xor3(cs, new_e.rotr(6), new_e.rotr(11), new_e.rotr(25));  // Σ1
    const word32_t ch = word32_ch(cs, new_e, f, g);
    // temp1 = h + Σ1 + ch + K[i] + w[i]
    const std::array<word32_t, 5> temp1 = {h, s1, ch, word32_t::constant(cuzk::hash::SHA256_K[i]),
                                           w[i]};

    const word32_t new_a = a.compute(meq, nullptr, 0);
    const word32_t s0 = detail::xor3(cs, new_a.rotr(2), new_a.rotr(13), new_a.rotr(22));  // Σ0
    const word32_t maj = word32_maj(cs, new_a, b, c);

    h = g;
    g = f;
    f = new_e;
    for (int k = 0; k < 5; ++k) e.ops[k] = temp1[k];
    e.ops[5] = d;  // e = temp1 + d (6 operands)
    e.n = 6;
    d = c;
    c = b;
    b = new_a;
    for (int k = 0; k < 5; ++k) a.ops[k] = temp1[k];
    a.ops[5] = s0;  // a = temp1 + Σ0 + maj (7 operands)
    a.ops[6] = maj;
    a.n = 7;
  }

  sha256_state_t out;
  out[0] = a.compute(meq, &cur[0], 1);
  auto add2 = [&](const word32_t& x, const word32_t& y) {
    const std::array<word32_t, 2> ops = {x, y};
    return addmany(meq, std::span<const word32_t>(ops));
  };
  out[1] = add2(cur[1], b);
  out[2] = add2(cur[2], c);
  out[3] = add2(cur[3], d);
  out[4] = e.compute(meq, &cur[4], 1);
  out[5] = add2(cur[5], f);
  out[6] = add2(cur[6], g);
  out[7] = add2(cur[7], h);
  meq.finish();
  return out;
}

/// sha256_block_no_padding: one compression from the IV; 256 output bits, big-endian per word.
template <class CS>
void sha256_block_no_padding(CS& cs, const boolean_t* block512, boolean_t* out256) {
  const sha256_state_t s = sha256_compression(cs, block512, sha256_iv_words());
  for (int i = 0; i < 8; ++i) s[i].to_bits_be(out256 + 32 * i);
}

/// The message bits of block `blk` after standard padding of a `len`-bit input (len % 8 == 0):
/// the input, a constant 1, constant 0s, then len as 64 constant bits, big-endian.
inline void sha256_padded_block(std::span<const boolean_t> input, size_t blk, boolean_t* out512) {
  const size_t len = input.size();
  const size_t total = ((len + 1 + 64 + 511) / 512) * 512;
  for (size_t j = 0; j < 512; ++j) {
    const size_t p = blk * 512 + j;
    if (p < len) {
      out512[j] = input[p];
    } else if (p == len) {
      out512[j] = boolean_t::constant(true);
    } else if (p >= total - 64) {
      out512[j] = boolean_t::constant((uint64_t(len) >> (total - 1 - p)) & 1);
    } else {
      out512[j] = boolean_t::constant(false);
    }
  }
}

/// Number of compressions for a `len`-bit message.
constexpr size_t sha256_num_blocks(size_t len_bits) {
  return (len_bits + 1 + 64 + 511) / 512;
}

/// bellperson sha256(cs, input): pads with constants and compresses from the constant IV.
/// `input.size()` must be a multiple of 8 (bits in message order, each byte MSB first); writes 256
/// digest bits in the same order (digest byte k = out[8k..8k+7], MSB first).
template <class CS>
void sha256(CS& cs, std::span<const boolean_t> input, boolean_t* out256) {
  assert(input.size() % 8 == 0);
  sha256_state_t cur = sha256_iv_words();
  std::array<boolean_t, 512> block;
  const size_t nb = sha256_num_blocks(input.size());
  for (size_t blk = 0; blk < nb; ++blk) {
    sha256_padded_block(input, blk, block.data());
    cur = sha256_compression(cs, block.data(), cur);
  }
  for (int i = 0; i < 8; ++i) cur[i].to_bits_be(out256 + 32 * i);
}

// ---- SHA256-trunc254 circuits (filecoin-hashers Sha256Function) ---------------------------------

/// hash_circuit: sha256(bits), reverse the bits inside each digest byte, pack the first 254 into
/// one aux (pack_bits: 1/1). The value is the digest read as a little-endian integer with
/// byte 31 &= 0x3f.
template <class CS>
allocated_num_t sha256_trunc254_circuit(CS& cs, std::span<const boolean_t> preimage) {
  std::array<boolean_t, 256> be, le;
  sha256(cs, preimage, be.data());
  reverse_bit_numbering(std::span<const boolean_t>(be), le.data());
  return pack_bits(cs, std::span<const boolean_t>(le.data(), FR_CAPACITY));
}

/// An Fr as the 256 SHA message bits of its 32-byte little-endian repr: non-strict to_bits_le
/// (256/255), a constant 0 pad bit, then the bits reversed inside each byte.
template <class CS>
void fr_to_sha_bits(CS& cs, const allocated_num_t& x, boolean_t* out256) {
  std::array<boolean_t, 256> le;
  to_bits_le(cs, x, le.data());
  le[255] = boolean_t::constant(false);
  reverse_bit_numbering(std::span<const boolean_t>(le), out256);
}

/// hash2_circuit / hash_multi_leaf_circuit: every leaf decomposed (in order), then
/// sha256_trunc254_circuit over the concatenation. For two leaves: 2·256 + 44,866 + 1 constraints.
template <class CS>
allocated_num_t sha256_trunc254_leaves(CS& cs, std::span<const allocated_num_t> leaves) {
  constexpr size_t MAX_LEAVES = 16;
  assert(leaves.size() <= MAX_LEAVES);
  std::array<boolean_t, 256 * MAX_LEAVES> bits;
  for (size_t i = 0; i < leaves.size(); ++i) fr_to_sha_bits(cs, leaves[i], bits.data() + 256 * i);
  return sha256_trunc254_circuit(cs, std::span<const boolean_t>(bits.data(), 256 * leaves.size()));
}

/// hash2_circuit(a, b).
template <class CS>
allocated_num_t sha256_trunc254_hash2(CS& cs, const allocated_num_t& a, const allocated_num_t& b) {
  const std::array<allocated_num_t, 2> leaves = {a, b};
  return sha256_trunc254_leaves(cs, std::span<const allocated_num_t>(leaves));
}

}  // namespace cuzk::filecoin::gadgets
