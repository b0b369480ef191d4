#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cuzk params generate --gpu 0` writes the same .params and .vk bytes as the CPU setup for the
# same seed: the 2 KiB PoRep circuit (2.7 M rows, domain 2^22) against the shared CPU-generated
# parameters of the porep_2k_params fixture (seed cuzk-test-params-2k). Label gpu.
# Usage: params_gpu_setup_test.sh CUZK CPU_PARAMS_DIR
set -euo pipefail
cuzk=${1:?usage: params_gpu_setup_test.sh CUZK CPU_PARAMS_DIR}
cpu_dir=${2:?usage: params_gpu_setup_test.sh CUZK CPU_PARAMS_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
SECONDS=0
"$cuzk" params generate --circuit porep --registered-proof StackedDrg2KiBV1_1 --out-dir "$work" \
  --seed cuzk-test-params-2k --gpu 0 >"$work/paths.txt"
echo "GPU setup of the 2 KiB PoRep circuit (synthesis, QAP, multiplications, write): ${SECONDS} s"
count=0
while read -r path; do
  want=$cpu_dir/$(basename "$path")
  [[ -f $want ]] || { echo "FAIL: $want (CPU parameters) is missing" >&2; exit 1; }
  cmp "$path" "$want" || { echo "FAIL: $(basename "$path") differs from the CPU setup's" >&2; exit 1; }
  count=$((count + 1))
done <"$work/paths.txt"
[[ $count == 2 ]] || { echo "FAIL: expected a .params and a .vk path, got $count" >&2; exit 1; }
echo "PASS: .params and .vk byte-identical to the CPU setup"
