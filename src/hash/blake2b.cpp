// SPDX-License-Identifier: Apache-2.0
// Streaming BLAKE2b on libb2 (blake2b.hpp). libb2's calls fail only on arguments this class never
// passes (a null pointer, a length out of 1..64, a second finalization), so their results are not
// checked.
#include "hash/blake2b.hpp"

#include <blake2.h>

#include <algorithm>
#include <new>

namespace cuzk::hash {
namespace {

blake2b_state* state_of(unsigned char* storage) {
  return std::launder(reinterpret_cast<blake2b_state*>(storage));
}

}  // namespace

blake2b::blake2b(size_t digest_bytes, std::span<const uint8_t> key)
    : digest_bytes_(std::clamp<size_t>(digest_bytes, 1, MAX_DIGEST_BYTES)) {
  static_assert(sizeof(blake2b_state) <= STATE_BYTES && alignof(blake2b_state) <= 8);
  blake2b_state* s = new (state_) blake2b_state{};
  const size_t key_len = std::min(key.size(), MAX_KEY_BYTES);
  if (key_len > 0)
    blake2b_init_key(s, digest_bytes_, key.data(), key_len);
  else
    blake2b_init(s, digest_bytes_);
}

void blake2b::update(std::span<const uint8_t> data) {
  blake2b_update(state_of(state_), data.data(), data.size());
}

void blake2b::finalize(uint8_t* out) {
  blake2b_final(state_of(state_), out, digest_bytes_);
}

std::array<uint8_t, 64> blake2b::hash512(std::span<const uint8_t> data) {
  std::array<uint8_t, 64> out;
  blake2b h(64);
  h.update(data);
  h.finalize(out.data());
  return out;
}

std::array<uint8_t, 32> blake2b::hash256(std::span<const uint8_t> data,
                                         std::span<const uint8_t> key) {
  std::array<uint8_t, 32> out;
  blake2b h(32, key);
  h.update(data);
  h.finalize(out.data());
  return out;
}

}  // namespace cuzk::hash
