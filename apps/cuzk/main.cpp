// SPDX-License-Identifier: Apache-2.0
// The `cuzk` binary. Subcommands are the offline tools; the daemon comes with the engine issue.
#include <cstdio>
#include <cstring>
#include <string>

#include "base/cpu_features.hpp"
#include "base/version.hpp"
#if defined(CUZK_WITH_CUDA)
#include "gpu/runtime.hpp"
#endif

namespace cuzk::app {
int cmd_demo(int argc, char** argv);
int cmd_groth16(int argc, char** argv);
int cmd_hash(int argc, char** argv);
int cmd_porep(int argc, char** argv);
int cmd_piece(int argc, char** argv);
int cmd_circuit(int argc, char** argv);
int cmd_params(int argc, char** argv);
int cmd_prove(int argc, char** argv);
int cmd_verify(int argc, char** argv);
}  // namespace cuzk::app

namespace {

int cmd_version() {
#if defined(CUZK_WITH_CUDA)
  std::printf("cuzk %s (commit %s, cuda yes, runtime %s)\n", cuzk::VERSION, cuzk::GIT_COMMIT,
              cuzk::gpu::runtime_version().c_str());
  for (const auto& d : cuzk::gpu::list_devices()) {
    std::printf("  gpu %d: %s, sm_%d%d, %d SMs, %.1f GiB\n", d.ordinal, d.name.c_str(), d.sm_major,
                d.sm_minor, d.multiprocessors, double(d.total_memory_bytes) / (1ull << 30));
  }
#else
  std::printf("cuzk %s (commit %s, cuda no)\n", cuzk::VERSION, cuzk::GIT_COMMIT);
#endif
  return 0;
}

int usage() {
  std::fprintf(stderr,
               "usage: cuzk <command>\n"
               "  version   print the version, git commit and CUDA support\n"
               "  demo      run the foundation demonstration (MSM, NTT, pairing) with timings\n"
               "  groth16   setup, prove, verify; snarkjs export/verify (cuzk groth16 help)\n"
               "  hash      Poseidon and SHA256-trunc254 of given inputs (cuzk hash help)\n"
               "  porep     PoRep vanilla side: parent cache, seal, C1 (cuzk porep help)\n"
               "  piece     piece commitment (commP) of a file (cuzk piece help)\n"
               "  circuit   Filecoin circuit shapes: rows, nnz, densities (cuzk circuit help)\n"
               "  params    generate PoRep Groth16 parameters (cuzk params help)\n"
               "  prove     prove PoRep C2 from a C1 file (cuzk prove help)\n"
               "  verify    verify a PoRep proof (cuzk verify help)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (std::string err = cuzk::check_cpu_features(); !err.empty()) {
    std::fprintf(stderr, "cuzk: %s\n", err.c_str());
    return 2;
  }
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  if (cmd == "version" || cmd == "--version") return cmd_version();
  if (cmd == "demo") return cuzk::app::cmd_demo(argc - 1, argv + 1);
  if (cmd == "groth16") return cuzk::app::cmd_groth16(argc - 1, argv + 1);
  if (cmd == "hash") return cuzk::app::cmd_hash(argc - 1, argv + 1);
  if (cmd == "porep") return cuzk::app::cmd_porep(argc - 1, argv + 1);
  if (cmd == "piece") return cuzk::app::cmd_piece(argc - 1, argv + 1);
  if (cmd == "circuit") return cuzk::app::cmd_circuit(argc - 1, argv + 1);
  if (cmd == "params") return cuzk::app::cmd_params(argc - 1, argv + 1);
  if (cmd == "prove") return cuzk::app::cmd_prove(argc - 1, argv + 1);
  if (cmd == "verify") return cuzk::app::cmd_verify(argc - 1, argv + 1);
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    usage();
    return 0;
  }
  std::fprintf(stderr, "cuzk: unknown command '%s'\n", cmd.c_str());
  return usage();
}
