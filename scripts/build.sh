#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds cuzk (Release) into build/. CUDA is used when nvcc is found (CUZK_CUDA=AUTO);
# pass e.g. -DCUZK_CUDA=OFF to force a CPU-only build.
# Device code: CMake's default is the release list (native code for sm_80 to sm_120, one full
# device compile each; CMakeLists.txt). Here, unless the caller chose (-DCMAKE_CUDA_ARCHITECTURES=…
# or $CUDAARCHS, as CI does), the build is for the GPUs nvidia-smi sees (`native`); without one,
# sm_90 PTX only: the CUDA sources compiled and checked, no native code (nothing here to run it),
# and, on a first configure with no $CUDAFLAGS, without device optimization (-Xcicc -O0, as CI):
# code no GPU here will run need not be optimized, and it compiles several times faster.
# CUZK_BUILD_TARGETS="a b …" builds only those targets (scripts/run.sh: the three binaries; a
# later build.sh without it builds the rest, the same configuration). ccache, when installed,
# is the compiler launcher of a first configure (C, C++ and nvcc). Prints its wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
opts=()
chosen=${CUDAARCHS:-}
for a in "$@"; do
  [[ $a == -DCMAKE_CUDA_ARCHITECTURES=* || $a == -DCUZK_CUDA=OFF ]] && chosen=yes
done
fresh=yes
[[ -f build/CMakeCache.txt ]] && fresh=no
if [[ -z $chosen ]] && { command -v nvcc || [[ -x /usr/local/cuda/bin/nvcc ]]; } >/dev/null; then
  if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    opts+=(-DCMAKE_CUDA_ARCHITECTURES=native)
    echo "build.sh: CUDA device code for the GPUs of this machine (native; the release list:" \
      "-DCMAKE_CUDA_ARCHITECTURES='80-real;86-real;89-real;90-real;100-real;120')"
  else
    opts+=(-DCMAKE_CUDA_ARCHITECTURES=90-virtual)
    if [[ $fresh == yes && -z ${CUDAFLAGS:-} ]]; then
      opts+=("-DCMAKE_CUDA_FLAGS=-Xcicc -O0")
    fi
    echo "build.sh: no GPU seen by nvidia-smi: CUDA code compiled to sm_90 PTX only (checked," \
      "not run here); set CUDAARCHS or -DCMAKE_CUDA_ARCHITECTURES for a GPU machine"
  fi
fi
if [[ $fresh == yes ]] && command -v ccache >/dev/null; then
  echo "build.sh: ccache $(ccache --version | head -1 | awk '{ print $NF }') as the compiler launcher"
  opts+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
         -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${opts[@]}" "$@"
configured=$SECONDS
targets=()
for t in ${CUZK_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
echo "build.sh: configure $((configured - start)) s, build $((SECONDS - configured)) s" \
  "(${CUZK_BUILD_TARGETS:-all targets}; $(nproc) cores)"
