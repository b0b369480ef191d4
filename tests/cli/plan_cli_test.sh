#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cuzk plan`: the GPU plan of a 32 GiB PoRep partition on cards of 141, 80, 24, 16 and 12 GiB
# (resident with two lanes, resident, streamed, streamed with a, b, c from the host, refused
# naming the smallest card), its parameters' size against docs/spec/porep.md §9's counts, bad input,
# and docs/hardware.md's table equal to what `cuzk plan --table` prints now (the docs are generated
# from the planning code; regenerate: scripts/gen_hardware_table.sh).
# Usage: plan_cli_test.sh /path/to/cuzk /path/to/docs/hardware.md
set -u
cuzk="$1"
doc="$2"
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect CARD RC TEXT...: `cuzk plan` of 32 GiB PoRep on CARD exits RC and prints every TEXT.
expect() {
  local card=$1 want=$2 rc=0
  shift 2
  "$cuzk" plan --circuit porep --registered-proof StackedDrg32GiBV1_1 --gpu-memory "$card" \
    >"$tmp/out" 2>"$tmp/err" || rc=$?
  local ok=1
  [[ $rc -eq $want ]] || ok=0
  for text in "$@"; do grep -qF -- "$text" "$tmp/out" || ok=0; done
  if [[ $ok -eq 0 ]]; then
    echo "FAIL: plan --gpu-memory $card -> rc=$rc (want $want: $*)"
    sed 's/^/  stdout: /' "$tmp/out" | head -3
    sed 's/^/  stderr: /' "$tmp/err" | head -3
    fails=$((fails + 1))
  fi
}

# (2^27 − 1 + 130,169,893 + 129,753,620 + 33,112,282) × 96 + 33,112,282 × 192 bytes.
expect 141GiB 0 '"mode":"resident","lanes":2' '"parameter_bytes":47373896256' '"rows":130278869'
expect 80GiB 0 '"mode":"resident"'
expect 24GiB 0 '"mode":"streamed"' '"host_bytes":47373896256'
expect 16GiB 0 '"mode":"streamed"' '"abc":"device in turn"' '"host_bytes":47373896256'
expect 12GiB 1 '"plan":null' 'the smallest'

# bad_input WHAT ARGS...: `cuzk plan ARGS` is bad input: exit 2, one line on stderr.
bad_input() {
  local what=$1 rc=0
  shift
  "$cuzk" plan "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [[ $rc -ne 2 || $(wc -l <"$tmp/err") -ne 1 ]]; then
    echo "FAIL: $what exits $rc (want 2, one line on stderr)"
    sed 's/^/  stderr: /' "$tmp/err" | head -3
    fails=$((fails + 1))
  fi
}
bad_input "a bad --gpu-memory" --circuit porep --registered-proof StackedDrg32GiBV1_1 \
  --gpu-memory 12apples
bad_input "an unknown proof" --circuit porep --registered-proof NoSuchProof --gpu-memory 24GiB
bad_input "no --gpu-memory" --circuit porep --registered-proof StackedDrg32GiBV1_1
bad_input "a --gpu-memory past 2^64" --circuit porep --registered-proof StackedDrg32GiBV1_1 \
  --gpu-memory 99999999999999999999
bad_input "a negative --gpu-memory" --circuit porep --registered-proof StackedDrg32GiBV1_1 \
  --gpu-memory -1GiB
# The largest size there is, and none at all: a plan, and a refusal (exit 1, not a crash).
expect 18446744073709551615 0 '"mode":"resident","lanes":2'
expect 0 1 '"plan":null' 'the smallest'

# docs/hardware.md holds the table between its markers, exactly as generated.
"$cuzk" plan --table >"$tmp/table" 2>"$tmp/err" || {
  echo "FAIL: plan --table"
  cat "$tmp/err"
  fails=$((fails + 1))
}
sed -n '/<!-- plan-table:begin -->/,/<!-- plan-table:end -->/p' "$doc" | sed '1d;$d' >"$tmp/doc"
if ! diff -u "$tmp/doc" "$tmp/table" >"$tmp/diff"; then
  echo "FAIL: docs/hardware.md's table differs from cuzk plan --table (regenerate it:"
  echo "  scripts/gen_hardware_table.sh build/apps/cuzk/cuzk)"
  head -20 "$tmp/diff"
  fails=$((fails + 1))
fi

if [[ $fails -ne 0 ]]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "plan CLI: all checks passed"
