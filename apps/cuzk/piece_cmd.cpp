// SPDX-License-Identifier: Apache-2.0
// `cuzk piece …`: piece tools.
//   commp FILE [--threads N]
//       the piece commitment of FILE's bytes (Fr32-padded, zero-padded to a power of two ≥ 128
//       bytes, SHA256-trunc254 binary tree root). Prints, one per line:
//         commp <64 hex digits: the 32 commitment bytes in order (LE repr)>
//         cid <baga… CIDv1, fil-commitment-unsealed / sha2-256-trunc254-padded>
//         padded_size <bytes>
//         payload_size <bytes>
// Exit codes: 0 ok, 2 bad input or usage (one line on stderr).
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "base/hex.hpp"
#include "base/thread_pool.hpp"
#include "cli_args.hpp"
#include "filecoin/common/commp.hpp"

namespace cuzk::app {
namespace {

int fail(const std::string& msg) {
  spdlog::error("cuzk piece: {}", msg);
  return EXIT_BAD;
}

int run_commp(const std::string& path, uint64_t threads) {
  thread_pool pool{unsigned(threads)};
  auto c = filecoin::common::commp_of_file(path == "-" ? "/dev/stdin" : path, pool);
  if (!c) return fail("commp: " + c.error().message());
  std::printf("commp %s\ncid %s\npadded_size %llu\npayload_size %llu\n", to_hex(c->comm).c_str(),
              filecoin::common::piece_cid(c->comm).c_str(), (unsigned long long)c->padded_size,
              (unsigned long long)c->payload_size);
  return EXIT_OK;
}

}  // namespace

void add_piece_commands(CLI::App& root, command_runner& chosen) {
  auto* piece = root.add_subcommand("piece", "piece commitment (commP) of a file");
  piece->require_subcommand(1);
  struct commp_args {
    std::string path;
    uint64_t threads = 0;
  };
  auto args = std::make_shared<commp_args>();
  auto* commp = piece->add_subcommand(
      "commp", "piece commitment (commP) of a file: hex, baga… CID, padded size");
  commp->add_option("FILE", args->path, "the payload (- for stdin)")->required();
  commp->add_option("--threads", args->threads, "worker threads (default: all cores)")
      ->transform(decimal_u64(1, 4096));
  on_selected(commp, chosen, [args] { return run_commp(args->path, args->threads); });
}

}  // namespace cuzk::app
