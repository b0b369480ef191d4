#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the foundation micro benchmarks named in issue 2 and writes JSON + console output to
# bench/results/<machine>/<date>-foundation.{json,txt}. Run on an otherwise idle machine.
#   scripts/bench_foundation.sh [machine-name (default cpu-2core)] [extra benchmark flags]
set -euo pipefail
cd "$(dirname "$0")/.."
machine=${1:-cpu-2core}
shift || true
out=bench/results/$machine
mkdir -p "$out"
stem=$out/$(date -u +%Y-%m-%d)-foundation
filter='BM_fp_mul$|BM_fr_mul$|BM_g1_add$|BM_g2_add$|BM_pairing$|BM_ntt/|BM_msm_g1/|BM_msm_g2/'
./build/bench/micro/cuzk-microbench --benchmark_filter="$filter" \
  --benchmark_out="$stem.json" \
  --benchmark_out_format=json "$@" | tee "$stem.txt"
