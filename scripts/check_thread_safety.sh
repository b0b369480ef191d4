#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The engine's locking contract, checked by clang (CI, beside the layer lint): every source of
# cuzk_engine compiled by clang++-14 with -Wthread-safety -Werror=thread-safety, so a member marked
# CUZK_GUARDED_BY(mu_) touched without engine_impl's mutex, or a CUZK_REQUIRES(mu_) (*_locked)
# function called without it, fails the run (src/base/thread_annotations.hpp, src/base/mutex.hpp).
# Only the engine's object files are compiled, at -O0 with CUDA off; no library is built or linked
# (about a minute of 2 cores). Prints its wall time.
#   scripts/check_thread_safety.sh
set -euo pipefail
cd "$(dirname "$0")/.."

build="build-tsa"
t0=$(date +%s)
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE=-O0 -DCUZK_CUDA=OFF -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCH=OFF \
  -DCUZK_WERROR=OFF \
  "-DCMAKE_CXX_FLAGS=-Wthread-safety -Werror=thread-safety" "${launcher[@]}" >/dev/null
# The engine's object targets (one per source of cuzk_engine) in its directory's Makefile.
mapfile -t objects < <(grep -oE '^[A-Za-z0-9_]+\.cpp\.o' "$build/src/engine/Makefile")
((${#objects[@]} > 0)) || { echo "check_thread_safety: no engine objects in $build"; exit 1; }
status=0
make -C "$build/src/engine" -j"$(nproc)" --no-print-directory "${objects[@]}" || status=1
t1=$(date +%s)
if ((status == 0)); then
  echo "check_thread_safety: ${#objects[@]} engine sources clean, $((t1 - t0)) s"
else
  echo "check_thread_safety: thread-safety errors (above), $((t1 - t0)) s"
fi
exit "$status"
