#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails when a committed generated source differs from what its generator prints now
# (gnark-crypto's rule, CONTRIBUTING.md "Code rules"). Run by ctest as `generated_sources`.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
check() {
  local gen=$1 out=$2
  if ! diff -u "$out" <(python3 "$gen") >/dev/null; then
    echo "stale generated file: $out (regenerate: python3 $gen > $out)"
    status=1
  fi
}
check scripts/gen/gen_params.py src/ff/bls12_381_params.hpp
check scripts/gen/gen_mont_asm.py src/ff/mont_asm_x86.hpp
[[ $status -eq 0 ]] && echo "generated sources are up to date"
exit $status
