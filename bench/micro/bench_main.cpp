// SPDX-License-Identifier: Apache-2.0
// main() of cuzk-microbench: Google Benchmark with the cuzk version, commit and thread count in the
// context block, so every saved result names what was measured.
#include <benchmark/benchmark.h>

#include <string>
#include <thread>

#include "base/version.hpp"

int main(int argc, char** argv) {
  benchmark::AddCustomContext("cuzk_version", cuzk::VERSION);
  benchmark::AddCustomContext("cuzk_commit", cuzk::GIT_COMMIT);
  benchmark::AddCustomContext("hardware_threads",
                              std::to_string(std::thread::hardware_concurrency()));
#if defined(CUZK_X86_ASM)
  benchmark::AddCustomContext("field_mul", "x86-64 mulx/adx");
#else
  benchmark::AddCustomContext("field_mul", "portable");
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
