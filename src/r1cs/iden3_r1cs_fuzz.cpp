// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the iden3 .r1cs reader: any byte string comes back as a status or a
// circuit (header counts are checked against the file size before anything is allocated), and an
// accepted circuit written back out and read again gives the same canonical bytes (the input
// itself may differ: sections in another order, unknown sections). docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <span>

#include "r1cs/iden3_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::r1cs;
  auto parsed = parse_r1cs(std::span<const uint8_t>(data, size));
  if (!parsed) return 0;
  const r1cs_write_options opt{.num_pub_out = parsed->header.num_pub_out,
                               .num_prv_in = parsed->header.num_prv_in,
                               .wire_to_label = parsed->wire_to_label};
  auto canonical = r1cs_to_bytes(parsed->cs, opt);
  if (!canonical) __builtin_trap();  // whatever is read can be written
  auto reread = parse_r1cs(*canonical);
  if (!reread) __builtin_trap();
  auto again = r1cs_to_bytes(reread->cs, opt);
  if (!again || *again != *canonical) __builtin_trap();
  return 0;
}
