#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds cuzk (Release) into build/. CUDA is used when nvcc is found (CUZK_CUDA=AUTO);
# pass e.g. -DCUZK_CUDA=OFF to force a CPU-only build.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j"$(nproc)"
