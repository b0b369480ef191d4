// SPDX-License-Identifier: Apache-2.0
// Streaming BLAKE2s on libb2 (blake2s.hpp); the hex helper. libb2's calls fail only on arguments
// this class never passes (a null pointer, a length out of 1..32, a second finalization), so their
// results are not checked.
#include "hash/blake2s.hpp"

#include <blake2.h>

#include <algorithm>
#include <new>

namespace cuzk::hash {
namespace {

blake2s_state* state_of(unsigned char* storage) {
  return std::launder(reinterpret_cast<blake2s_state*>(storage));
}

}  // namespace

blake2s::blake2s(size_t digest_bytes, std::span<const uint8_t> key)
    : digest_bytes_(std::clamp<size_t>(digest_bytes, 1, MAX_DIGEST_BYTES)) {
  static_assert(sizeof(blake2s_state) <= STATE_BYTES && alignof(blake2s_state) <= 8);
  blake2s_state* s = new (state_) blake2s_state{};
  const size_t key_len = std::min(key.size(), MAX_KEY_BYTES);
  if (key_len > 0)
    blake2s_init_key(s, digest_bytes_, key.data(), key_len);
  else
    blake2s_init(s, digest_bytes_);
}

void blake2s::update(std::span<const uint8_t> data) {
  blake2s_update(state_of(state_), data.data(), data.size());
}

void blake2s::finalize(uint8_t* out) {
  blake2s_final(state_of(state_), out, digest_bytes_);
}

std::array<uint8_t, 32> blake2s::hash256(std::span<const uint8_t> data) {
  blake2s h(32);
  h.update(data);
  std::array<uint8_t, 32> out{};
  h.finalize(out.data());
  return out;
}

}  // namespace cuzk::hash
