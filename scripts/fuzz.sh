#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets (clang-14, -DCUZK_FUZZ=ON: ASan + UBSan + coverage) and runs each
# for the given time on its committed seed corpus, fuzz/corpus/<target>/; prints executions per
# target and exits non-zero if any target found a crash, leak, hang or sanitizer report.
#   scripts/fuzz.sh [seconds-per-target] [target...]        (default: 60 s, every target)
# Environment: CUZK_FUZZ_BUILD_DIR (default build-fuzz; scripts/test_sanitizers.sh passes its own
# build), CUZK_FUZZ_NO_BUILD=1 (use the binaries as they are).
# New inputs go to <build>/fuzz-work/<target>/ (the committed corpus is only read); crash inputs to
# <build>/fuzz-artifacts/. A crash is reproduced with <build>/<dir>/<target> <artifact>.
# docs/fuzzing.md has the targets, the properties they assert and the recorded runs.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
build=${CUZK_FUZZ_BUILD_DIR:-build-fuzz}
jobs=$(($(nproc) < 2 ? 1 : 2))

if [[ ${CUZK_FUZZ_NO_BUILD:-0} != 1 ]]; then
  if [[ ! -f $build/CMakeCache.txt ]]; then
    launcher=()
    command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF \
      -DCUZK_FUZZ=ON -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
  fi
  cmake --build "$build" -j"$jobs" --target cuzk_fuzzers
fi

if (($# == 0)); then
  mapfile -t targets <"$build/fuzz_targets.txt"
else
  targets=("$@")
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:print_stacktrace=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$build/fuzz-artifacts"
failed=()
printf '%-22s %12s %9s %7s  %s\n' target executions exec/s seconds result
for t in "${targets[@]}"; do
  bin=$(find "$build/src" -type f -name "$t" -perm -u+x | head -n 1)
  seeds=fuzz/corpus/$t
  if [[ -z $bin || ! -d $seeds ]]; then
    echo "fuzz.sh: $t: no binary under $build/src or no corpus $seeds" >&2
    failed+=("$t")
    continue
  fi
  work=$build/fuzz-work/$t
  log=$build/fuzz-work/$t.log
  mkdir -p "$work"
  start=$(date +%s)
  rc=0
  "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/fuzz-artifacts/$t-" "$work" "$seeds" >"$log" 2>&1 || rc=$?
  took=$(($(date +%s) - start))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  result=ok
  if ((rc != 0)); then
    result="FAIL (exit $rc; log $log)"
    failed+=("$t")
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 5 >&2 || true
  fi
  printf '%-22s %12s %9s %7s  %s\n' "$t" "${runs:-?}" "${rate:-?}" "$took" "$result"
done
if ((${#failed[@]})); then
  echo "fuzz.sh: FAIL: ${failed[*]}" >&2
  exit 1
fi
