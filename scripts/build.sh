#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds cuzk (Release) into build/. CUDA is used when nvcc is found (CUZK_CUDA=AUTO);
# pass e.g. -DCUZK_CUDA=OFF to force a CPU-only build.
# Device code: CMake's default is the release list (native code for sm_80 to sm_120, one full
# device compile each; CMakeLists.txt). Here, unless the caller chose (-DCMAKE_CUDA_ARCHITECTURES=…
# or $CUDAARCHS, as CI does), the build is for the GPUs nvidia-smi sees (`native`); without one,
# sm_90 PTX only: the CUDA sources compiled and checked, no native code (nothing here to run it).
set -euo pipefail
cd "$(dirname "$0")/.."
archs=()
chosen=${CUDAARCHS:-}
for a in "$@"; do
  [[ $a == -DCMAKE_CUDA_ARCHITECTURES=* || $a == -DCUZK_CUDA=OFF ]] && chosen=yes
done
if [[ -z $chosen ]] && { command -v nvcc || [[ -x /usr/local/cuda/bin/nvcc ]]; } >/dev/null; then
  if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    archs=(-DCMAKE_CUDA_ARCHITECTURES=native)
    echo "build.sh: CUDA device code for the GPUs of this machine (native; the release list:" \
      "-DCMAKE_CUDA_ARCHITECTURES='80-real;86-real;89-real;90-real;100-real;120')"
  else
    archs=(-DCMAKE_CUDA_ARCHITECTURES=90-virtual)
    echo "build.sh: no GPU seen by nvidia-smi: CUDA code compiled to sm_90 PTX only (checked," \
      "not run here); set CUDAARCHS or -DCMAKE_CUDA_ARCHITECTURES for a GPU machine"
  fi
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${archs[@]}" "$@"
cmake --build build -j"$(nproc)"
