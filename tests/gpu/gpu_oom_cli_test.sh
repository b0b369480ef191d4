#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The GPU running out of memory, at every stage of a proof, is a clean failure of the CLI: with
# gpu_memory_hog leaving GPU 0 a sweep of free memory (too little for the CUDA context, for the
# parameters, for the prover's working set mid-proof, then enough), every `cuzk prove porep
# --gpu 0` of a 2 KiB sector either writes a proof that verifies (exit 0) or exits 1 saying it ran
# out of device memory, without a signal and without leaving a proof file. The tightest case
# must fail and the roomiest must succeed, so both paths are taken. Label gpu.
# Usage: gpu_oom_cli_test.sh CUZK GPU_MEMORY_HOG
set -uo pipefail
cuzk=${1:?usage: gpu_oom_cli_test.sh CUZK GPU_MEMORY_HOG}
hog=${2:?usage: gpu_oom_cli_test.sh CUZK GPU_MEMORY_HOG}
work=$(mktemp -d)
hog_pid=
cleanup() {
  [[ -n $hog_pid ]] && kill "$hog_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
proof=StackedDrg2KiBV1_1
"$cuzk" --log-level warn porep seal --registered-proof $proof --out-dir "$work/sector" >/dev/null ||
  fail "porep seal"
"$cuzk" --log-level warn params generate --circuit porep --registered-proof $proof \
  --out-dir "$work/params" --seed gpu-oom --gpu 0 >/dev/null || fail "params generate --gpu 0"
params_mib=$(($(stat -c %s "$work"/params/*.params) >> 20))
echo "2 KiB PoRep parameters: $params_mib MiB"
failures=0 successes=0
first_rc= last_rc=
# MiB left free: nothing to speak of, about the parameters, the parameters and part of the
# prover's working set, and plenty.
for leave in 16 $((params_mib / 2)) $params_mib $((params_mib + 256)) $((params_mib + 768)) \
  $((params_mib + 1536)) 16384; do
  coproc HOG { "$hog" "$leave"; }
  hog_pid=$HOG_PID
  read -r ready <&"${HOG[0]}" || fail "gpu_memory_hog did not start"
  rm -f "$work/proof.bin"
  "$cuzk" prove porep --c1 "$work/sector/c1.json" --params-dir "$work/params" --gpu 0 \
    --proof-out "$work/proof.bin" >"$work/out.txt" 2>"$work/err.txt"
  rc=$?
  exec {HOG[1]}>&-
  wait "$hog_pid"
  hog_pid=
  echo "leave $leave MiB ($ready): rc=$rc $(grep -m1 -E 'error|memory' "$work/err.txt" | cut -c1-220)"
  case $rc in
  0)
    "$cuzk" --log-level warn verify porep --c1 "$work/sector/c1.json" --params-dir "$work/params" \
      --proof "$work/proof.bin" >/dev/null 2>&1 || fail "leave $leave: exit 0 but the proof does not verify"
    successes=$((successes + 1))
    ;;
  1)
    grep -qi "memory" "$work/err.txt" || fail "leave $leave: exit 1 without naming the memory: $(cat "$work/err.txt")"
    [[ -e $work/proof.bin ]] && fail "leave $leave: failed but left a proof file"
    failures=$((failures + 1))
    ;;
  *) fail "leave $leave: exit $rc (a signal or the wrong code): $(tail -5 "$work/err.txt")" ;;
  esac
  [[ -z $first_rc ]] && first_rc=$rc
  last_rc=$rc
done
[[ $first_rc != 0 ]] || fail "16 MiB left: the proof succeeded, so the hog did not take the memory"
[[ $last_rc == 0 ]] || fail "16 GiB left: the proof failed"
echo "PASS: $failures clean out-of-memory failures, $successes verified proofs"
