#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fills a folder (default .gpu_carry, ignored by git through .git/info/exclude) with what
# scripts/gpu_carry_run.sh needs on a GPU machine: the GPU test binaries, cuzk-gpu-microbench, the
# cuzk CLI, their shared libraries (Google Benchmark, gRPC, ...; the CUDA runtime is linked in
# statically unless CUZK_CUDA_RUNTIME=Shared) as one carry.tar.xz, and the run script itself.
# Usage: scripts/gpu_carry_pack.sh BUILD_DIR [DEST]   (BUILD_DIR configured with CUZK_CUDA=ON)
set -euo pipefail
build=${1:?usage: gpu_carry_pack.sh BUILD_DIR [DEST]}
dest=${2:-$(dirname "$0")/../.gpu_carry}
mkdir -p "$dest"
# CUZK_CARRY_SET picks what travels (the device tool carries at most 64 MiB): `kernels` (the GPU
# tests and cuzk-gpu-microbench), `engine` (the engine tests, cuzk-bench, cuzk-daemon with gRPC),
# `setup` (GPU parameter generation: its tests, the GPU-vs-CPU 2 KiB PoRep proof test and
# cuzk-gpu-microbench), `porep32g` (cuzk-daemon, cuzk-bench and gpu_memory_hog for scripts/porep32g_run.sh and
# scripts/post_snap32g_run.sh, the whole 32 GiB proofs), `gputests` (every binary the `gpu` ctest
# label runs but the slow ones, for scripts/gpu_tests_run.sh), `none` (only CUZK_CARRY_EXTRA), or
# `all` (default; may exceed the limit). run.sh runs the steps whose binaries are present.
set_name=${CUZK_CARRY_SET:-all}
kernels=(src/ec/arith_gpu_test src/ec/serialization_gpu_test src/ntt/ntt_gpu_test src/msm/msm_gpu_test
         src/groth16/prover_gpu_test src/groth16/abc_gpu_test src/gpu/host_registration_test
         tests/gpu/gpu_streams_test bench/micro/cuzk-gpu-microbench)
engine=(src/engine/engine_test src/engine/engine_porep_e2e_test src/engine/engine_post_e2e_test
        src/engine/engine_snap_e2e_test
        apps/cuzk-bench/cuzk-bench apps/cuzk-daemon/cuzk-daemon)
setup=(src/ec/arith_gpu_test src/groth16/setup_gpu_test src/filecoin/proofs/porep_gpu_equality_test
       bench/micro/cuzk-gpu-microbench)
porep32g=(apps/cuzk-daemon/cuzk-daemon apps/cuzk-bench/cuzk-bench tests/gpu/gpu_memory_hog)
gputests=(src/gpu/host_registration_test src/ec/arith_gpu_test src/ec/serialization_gpu_test
          src/ntt/ntt_gpu_test src/msm/msm_gpu_test src/groth16/prover_gpu_test
          src/groth16/abc_gpu_test src/groth16/setup_gpu_test
          src/filecoin/circuits/abc_plan_circuit_gpu_test tests/gpu/gpu_streams_test
          src/filecoin/proofs/porep_gpu_equality_test bench/micro/cuzk-fp64-products
          src/engine/engine_test src/engine/engine_porep_e2e_test src/engine/engine_post_e2e_test
          src/engine/engine_snap_e2e_test tests/gpu/gpu_memory_hog)
case $set_name in
kernels) chosen=("${kernels[@]}") ;;
porep32g) chosen=("${porep32g[@]}") ;;
setup) chosen=("${setup[@]}") ;;
engine) chosen=("${engine[@]}") ;;
gputests) chosen=("${gputests[@]}") ;;
all) chosen=("${kernels[@]}" "${engine[@]}") ;;
none) chosen=() ;;
*) echo "CUZK_CARRY_SET=$set_name: expected kernels, engine, setup, porep32g, gputests, none or all" >&2
   exit 2 ;;
esac
# CUZK_CARRY_EXTRA: more build-relative binaries (e.g. "src/engine/engine_test").
read -r -a extra <<<"${CUZK_CARRY_EXTRA:-}"
chosen+=("${extra[@]}")
files=(cuzk)
cp "$build/apps/cuzk/cuzk" "$dest/"
for b in "${chosen[@]}"; do
  cp "$build/$b" "$dest/"
  files+=("$(basename "$b")")
done
# Every shared library the binaries need beyond the C/C++ runtime (a shared CUDA runtime, Benchmark,
# spdlog/fmt, simdjson, libb2, TBB ...): the device image has none of the Debian -dev packages.
for bin in "${files[@]}"; do
  bin=$dest/$bin
  ldd "$bin" | awk '$3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r name path; do
  case $name in
  libc.so.* | libm.so.* | libgcc_s.so.* | libstdc++.so.* | ld-linux* | libpthread.so.* | libdl.so.* | librt.so.*) ;;
  *) cp -L "$path" "$dest/" ;;
  esac
done
# The kernels repeat across the binaries, so one xz stream of all of them is ≈ 40 % of their size
# (the device tool carries at most 64 MiB); run.sh unpacks it.
binaries=${#files[@]}
files+=($(cd "$dest" && ls lib*.so* 2>/dev/null))
(cd "$dest" && strip "${files[@]:0:binaries}" && tar -cf - "${files[@]}" | xz -T0 -6 >carry.tar.xz &&
  rm -f "${files[@]}")
cp "$(dirname "$0")/gpu_carry_run.sh" "$dest/run.sh"
for script in porep32g_run.sh post_snap32g_run.sh post_latency_run.sh params_load_run.sh gpu_run_lib.sh \
  gpu_tests_run.sh; do
  cp "$(dirname "$0")/$script" "$dest/$script"
done
# The shell-driven gpu tests (gpu_tests_run.sh runs them as ctest does).
cp "$(dirname "$0")"/../tests/gpu/gpu_oom_cli_test.sh "$(dirname "$0")"/../tests/gpu/params_gpu_setup_test.sh \
  "$dest/"
du -sh "$dest"
