// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the daemon's request decoding: proof_kind_handler::check, which the engine
// runs on every Submit/Prove before queueing (service.cpp copies the gRPC fields into a
// proof_request unchanged). Any request comes back as a status, never a crash. Input layout:
//   byte 0: handler (PoRep C2, WindowPoSt partition, WinningPoSt, SnapDeals); byte 1:
//   registered_proof; byte 2: partition_index; byte 3: how many vanilla proofs (PoSt, SnapDeals,
//   0..7); bytes 4..35: randomness, and for SnapDeals each of the three commitments (check() does
//   not relate them to the vanilla proofs; shorter when the input is); the rest: the C1 (PoRep) or
//   the vanilla proofs, split evenly.
// docs/fuzzing.md; seeds in fuzz/corpus/proof_request_fuzz.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <vector>

#include "engine/proof_kind.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk::engine;
  static const std::shared_ptr<const proof_kind_handler> handlers[] = {
      porep_handler(), window_post_handler(), winning_post_handler(), snap_update_handler()};
  constexpr size_t HEADER = 4, RANDOMNESS = 32;
  if (size < HEADER) return 0;
  const proof_kind_handler& handler = *handlers[data[0] % std::size(handlers)];
  proof_request req;
  req.kind = handler.kind();
  req.registered_proof = data[1];
  req.partition_index = data[2];
  const size_t n = data[3] % 8;
  const std::span<const uint8_t> rest(data + HEADER, size - HEADER);
  const size_t r = std::min(RANDOMNESS, rest.size());
  req.randomness.assign(rest.begin(), rest.begin() + r);
  if (req.kind == proof_kind::snap_deals_update)
    req.comm_r_old = req.comm_r_new = req.comm_d_new = req.randomness;
  const std::span<const uint8_t> payload = rest.subspan(r);
  if (req.kind == proof_kind::porep_seal_commit) {
    req.vanilla_proof.assign(payload.begin(), payload.end());
  } else {
    const size_t each = n == 0 ? 0 : payload.size() / n;
    for (size_t i = 0; i < n; ++i) {
      const auto part = payload.subspan(i * each, i + 1 == n ? payload.size() - i * each : each);
      req.vanilla_proofs.emplace_back(part.begin(), part.end());
    }
  }
  (void)handler.check(req);
  return 0;
}
