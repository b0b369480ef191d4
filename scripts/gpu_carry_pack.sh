#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fills a folder (default .gpu_carry, ignored by git through .git/info/exclude) with what
# scripts/gpu_carry_run.sh needs on a GPU machine: the GPU test binaries, cuzk-gpu-microbench, the
# cuzk CLI, the CUDA runtime and Google Benchmark shared libraries (as one carry.tar.xz), and the
# run script itself.
# Usage: scripts/gpu_carry_pack.sh BUILD_DIR [DEST]   (BUILD_DIR configured with CUZK_CUDA=ON)
set -euo pipefail
build=${1:?usage: gpu_carry_pack.sh BUILD_DIR [DEST]}
dest=${2:-$(dirname "$0")/../.gpu_carry}
mkdir -p "$dest"
cp "$build/apps/cuzk/cuzk" "$build/src/ec/arith_gpu_test" "$build/src/ntt/ntt_gpu_test" \
  "$build/src/msm/msm_gpu_test" "$build/src/groth16/prover_gpu_test" \
  "$build/tests/gpu/gpu_streams_test" "$build/bench/micro/cuzk-gpu-microbench" "$dest/"
# Every shared library the binaries need beyond the C/C++ runtime (CUDA runtime, Google Benchmark,
# spdlog/fmt, simdjson, libb2, TBB ...): the device image has none of the Debian -dev packages.
for bin in "$dest"/cuzk "$dest"/*_test "$dest"/cuzk-gpu-microbench; do
  ldd "$bin" | awk '$3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r name path; do
  case $name in
  libc.so.* | libm.so.* | libgcc_s.so.* | libstdc++.so.* | ld-linux* | libpthread.so.* | libdl.so.* | librt.so.*) ;;
  *) cp -L "$path" "$dest/" ;;
  esac
done
# The kernels repeat across the binaries, so one xz stream of all of them is ≈ 40 % of their size
# (the device tool carries at most 64 MiB); run.sh unpacks it.
files=(cuzk arith_gpu_test ntt_gpu_test msm_gpu_test prover_gpu_test gpu_streams_test
       cuzk-gpu-microbench engine_test engine_porep_e2e_test cuzk-bench cuzk-daemon)
binaries=${#files[@]}
files+=($(cd "$dest" && ls lib*.so* 2>/dev/null))
(cd "$dest" && strip "${files[@]:0:binaries}" && tar -cf - "${files[@]}" | xz -T0 -6 >carry.tar.xz &&
  rm -f "${files[@]}")
cp "$(dirname "$0")/gpu_carry_run.sh" "$dest/run.sh"
du -sh "$dest"
