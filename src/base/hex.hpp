// SPDX-License-Identifier: Apache-2.0
// Hex text ↔ bytes: the one codec for digests in messages, test expectations and command-line
// arguments. Encoding is lower-case; decoding is strict (even length, [0-9a-fA-F] only, no prefix,
// no whitespace) because it reads untrusted text and reports the offending offset.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/status.hpp"

namespace cuzk {

/// The value of one hex digit (either case), or -1 for any other character.
int hex_digit_value(char c);

/// Lower-case hex of `bytes`, two digits per byte, in order.
std::string to_hex(std::span<const uint8_t> bytes);

/// The bytes of an even-length hex string (either case). bad_length for an odd length,
/// bad_encoding (with the offset) for a character outside [0-9a-fA-F].
result<std::vector<uint8_t>> from_hex(std::string_view text);

/// Decodes exactly `out.size()` bytes into `out`: bad_length unless `text` has 2·out.size()
/// digits, bad_encoding as from_hex. `out` is unspecified on error.
status from_hex_into(std::string_view text, std::span<uint8_t> out);

/// `text` without a leading "0x" or "0X" (command-line and JSON forms of big-endian numbers).
std::string_view strip_hex_prefix(std::string_view text);

/// 64 hex digits (either case, optionally 0x-prefixed) to 32 bytes in order: a digest, commitment
/// or randomness as the command line and JSON files spell it. bad_length or bad_encoding
/// otherwise, as from_hex_into.
result<std::array<uint8_t, 32>> parse_hex32(std::string_view text);

}  // namespace cuzk
