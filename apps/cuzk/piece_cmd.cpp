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
#include <cstdio>
#include <cstdlib>
#include <string>

#include "base/hex.hpp"
#include "base/thread_pool.hpp"
#include "filecoin/porep/commp.hpp"

namespace cuzk::app {
namespace {

constexpr int EXIT_OK = 0, EXIT_BAD = 2;

const char* const USAGE =
    "usage: cuzk piece <command>\n"
    "  commp FILE [--threads N]\n"
    "                  piece commitment (commP) of a file: hex, baga… CID, padded size\n";

int fail(const std::string& msg) {
  std::fprintf(stderr, "cuzk piece: %s\n", msg.c_str());
  return EXIT_BAD;
}

int cmd_commp(int argc, char** argv) {
  std::string path;
  unsigned long threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads") {
      if (i + 1 >= argc) return fail("commp: missing value after --threads");
      char* end = nullptr;
      threads = std::strtoul(argv[++i], &end, 10);
      if (*end != '\0' || threads == 0 || threads > 4096)
        return fail("commp: --threads must be 1..4096");
    } else if (path.empty() && (a.empty() || a[0] != '-' || a == "-")) {
      path = a;
    } else {
      return fail("commp: unexpected argument " + a);
    }
  }
  if (path.empty()) return fail("commp: a FILE is required");
  thread_pool pool{unsigned(threads)};
  auto c = porep::commp_of_file(path == "-" ? "/dev/stdin" : path, pool);
  if (!c) return fail("commp: " + c.error().message());
  std::printf("commp %s\ncid %s\npadded_size %llu\npayload_size %llu\n", to_hex(c->comm).c_str(),
              porep::piece_cid(c->comm).c_str(), (unsigned long long)c->padded_size,
              (unsigned long long)c->payload_size);
  return EXIT_OK;
}

}  // namespace

int cmd_piece(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(USAGE, stderr);
    return EXIT_BAD;
  }
  const std::string sub = argv[1];
  if (sub == "commp") return cmd_commp(argc - 1, argv + 1);
  if (sub == "help" || sub == "--help" || sub == "-h") {
    std::fputs(USAGE, stdout);
    return EXIT_OK;
  }
  return fail("unknown command '" + sub + "'");
}

}  // namespace cuzk::app
