#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every test of the `gpu` ctest label except the `slow` ones, run on a GPU machine from a folder of
# binaries built elsewhere (scripts/gpu_carry_pack.sh with CUZK_CARRY_SET=gputests fills it; the
# device image has no build tree to run ctest in). The same commands and environment as the
# CMake test definitions, with the fixtures those tests require made here: the 2 KiB PoRep and
# SnapDeals parameters generated on the CPU with the fixtures' seeds (porep_2k_params,
# snap_2k_params). Writes gpu-tests.log to $OUT (default ./gpu-out): per test its summary lines
# and `rc=`, then a table of every test's result; exits non-zero when one failed or is missing.
# GPU_TESTS="name …" runs only those (ctest's names). Tests that need no fixture run while the
# fixtures are made. FIXTURES_ON_GPU=1 makes the fixtures with `--gpu 0` (seconds instead of
# minutes; the same bytes, which params_gpu_setup_2k checks, so that test is left out then).
# Usage (on the GPU machine, in the carry folder): OUT=... [GPU_TESTS=...] ./gpu_tests_run.sh
set -uo pipefail
cd "$(dirname "$0")"
dir=$(pwd)
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out=${OUT:-$dir/gpu-out}
mkdir -p "$out"
[[ -f carry.tar.xz && ! -x ./cuzk ]] &&
  python3 -c 'import tarfile; tarfile.open("carry.tar.xz").extractall(".")'
# The engine tests find the repository through CUZK_SOURCE_DIR (the device runs the command in a
# copy of the working tree: the carry folder's parent).
export CUZK_SOURCE_DIR=${CUZK_SOURCE_DIR:-$(cd .. && pwd)}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
results=()
summary() {
  grep -E '^\[ *(OK|FAILED|PASSED|SKIPPED|  FAILED|==========)|Failure|seed|Expected|Actual|Which is|error|FAIL|identical|wall' |
    grep -v '^\[ RUN' | tail -40
}
# run NAME TIMEOUT CMD...: one test, its summary into the log, its result into the table.
run() {
  local name=$1 limit=$2
  shift 2
  [[ -n ${GPU_TESTS:-} && " $GPU_TESTS " != *" $name "* ]] && return
  echo "== $name ($(date +%T))"
  if [[ ! -x $1 && ! -x $(command -v "$1" 2>/dev/null) ]]; then
    echo "missing: $1"
    results+=("$name MISSING")
    return
  fi
  local t=$SECONDS
  timeout "$limit" "$@" >"$w/log" 2>&1
  local rc=$?
  summary <"$w/log"
  echo "rc=$rc ($((SECONDS - t)) s)"
  case $rc in
  0) results+=("$name passed $((SECONDS - t))s") ;;
  77) results+=("$name SKIPPED") ;;
  *) results+=("$name FAILED rc=$rc") ;;
  esac
}
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "cpus: $(nproc)"
  ./cuzk version
  # The fixtures (porep_2k_params, snap_2k_params: the CPU setup with their seeds) are made on
  # the host's cores while the first tests use the GPU.
  on_gpu=()
  [[ ${FIXTURES_ON_GPU:-0} == 1 ]] && on_gpu=(--gpu 0)
  echo "== fixtures: 2 KiB PoRep and SnapDeals parameters ${on_gpu[*]:-on the CPU}, in the background"
  (./cuzk params generate --circuit porep --registered-proof StackedDrg2KiBV1_1 \
    --out-dir "$w/porep-2k" --seed cuzk-test-params-2k "${on_gpu[@]}" >/dev/null \
    2>"$w/gen-porep.log" || echo failed >"$w/porep-2k.failed") &
  gen_porep=$!
  (./cuzk params generate --circuit snap --registered-proof 0 --out-dir "$w/snap-2k" \
    --seed cuzk-test-snap-2k "${on_gpu[@]}" >/dev/null 2>"$w/gen-snap.log" ||
    echo failed >"$w/snap-2k.failed") &
  gen_snap=$!
  export CUZK_TEST_PARAMS_DIR=$w/porep-2k CUZK_TEST_SNAP_PARAMS_DIR=$w/snap-2k
  for t in host_registration_test arith_gpu_test serialization_gpu_test ntt_gpu_test msm_gpu_test \
    prover_gpu_test abc_gpu_test setup_gpu_test abc_plan_circuit_gpu_test gpu_streams_test; do
    run "$t" 900 "./$t"
  done
  run fp64_products_gpu_check 600 ./cuzk-fp64-products --check-gpu 10000000 38
  run gpu_oom_cli_test 900 ./gpu_oom_cli_test.sh ./cuzk ./gpu_memory_hog
  run engine_post_e2e_gpu_test 1800 env CUZK_ENGINE_TEST_WORKER=gpu ./engine_post_e2e_test
  t=$SECONDS
  wait $gen_porep $gen_snap
  echo "== fixtures ready (waited $((SECONDS - t)) s)"
  for f in porep-2k snap-2k; do
    [[ -f $w/$f.failed ]] && { cat "$w/gen-${f%-2k}.log"; results+=("${f}_params FAILED"); }
  done
  run porep_gpu_equality_test 900 ./porep_gpu_equality_test
  # The engine's whole suite last: the longest, and it needs no fixture.
  for t in engine_porep_e2e_test engine_snap_e2e_test engine_test; do
    run "${t/_test/_gpu_test}" 1800 env CUZK_ENGINE_TEST_WORKER=gpu "./$t"
  done
  [[ ${FIXTURES_ON_GPU:-0} == 1 ]] ||
    run params_gpu_setup_2k 900 ./params_gpu_setup_test.sh ./cuzk "$w/porep-2k"
  echo "== results"
  printf '%s\n' "${results[@]}"
} >"$out/gpu-tests.log" 2>&1
printf '%s\n' "${results[@]}"
! printf '%s\n' "${results[@]}" | grep -qE 'FAILED|MISSING'
