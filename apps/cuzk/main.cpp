// SPDX-License-Identifier: Apache-2.0
// The `cuzk` binary. Subcommands are the offline tools; the daemon comes with the engine issue.
#include <cstdio>
#include <cstring>
#include <string>

#include "base/version.hpp"

namespace {

int cmd_version() {
#if defined(CUZK_WITH_CUDA)
  const char* cuda = "yes";
#else
  const char* cuda = "no";
#endif
  std::printf("cuzk %s (commit %s, cuda %s)\n", cuzk::VERSION, cuzk::GIT_COMMIT, cuda);
  return 0;
}

int usage() {
  std::fprintf(stderr, "usage: cuzk version\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  if (cmd == "version" || cmd == "--version") return cmd_version();
  std::fprintf(stderr, "cuzk: unknown command '%s'\n", cmd.c_str());
  return usage();
}
