// SPDX-License-Identifier: Apache-2.0
// The public API stands alone: this file is compiled with include/ as its only project include
// path (tests/api/CMakeLists.txt), so a header of include/cuzk/ that reached into src/ breaks the
// build. It names the types a client of the engine uses.
#include "cuzk/engine.hpp"
#include "cuzk/log.hpp"
#include "cuzk/status.hpp"

namespace {

[[maybe_unused]] cuzk::status refuse(const cuzk::engine::proof_request& r) {
  if (r.vanilla_proof.empty())
    return cuzk::status(cuzk::status_code::invalid_argument, "no vanilla proof");
  return {};
}

}  // namespace
