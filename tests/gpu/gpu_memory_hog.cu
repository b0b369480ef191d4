// SPDX-License-Identifier: Apache-2.0
// gpu_memory_hog LEAVE_MIB: takes all of GPU 0's free memory but LEAVE_MIB, prints one line
// "ready held <MiB> free <MiB>", then holds it until its stdin closes (the test's pipe), so another
// process can be run against a device with little memory left (gpu_oom_cli_test.sh).
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gpu_memory_hog LEAVE_MIB\n");
    return 2;
  }
  const size_t leave = std::strtoull(argv[1], nullptr, 10) << 20;
  if (cudaSetDevice(0) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
    std::fprintf(stderr, "gpu_memory_hog: no CUDA device 0\n");
    return 2;
  }
  std::vector<void*> held;
  size_t held_bytes = 0, free_bytes = 0, total = 0;
  // Large chunks first, then smaller ones, down to what is to be left.
  for (size_t chunk = size_t(1) << 30; chunk >= (size_t(1) << 20); chunk >>= 2) {
    for (;;) {
      if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return 2;
      if (free_bytes < leave + chunk) break;
      void* p = nullptr;
      if (cudaMalloc(&p, chunk) != cudaSuccess) {
        cudaGetLastError();
        break;
      }
      held.push_back(p);
      held_bytes += chunk;
    }
  }
  cudaMemGetInfo(&free_bytes, &total);
  std::printf("ready held %zu free %zu\n", held_bytes >> 20, free_bytes >> 20);
  std::fflush(stdout);
  char c;
  while (read(0, &c, 1) > 0) {
  }
  for (void* p : held) cudaFree(p);
  return 0;
}
