#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cuzk-bench's offline subcommands: `gen-vanilla porep` writes a C1 in Curio's wrapper form that
# `synth-only` synthesizes (twice: the second into the recycled buffer) and `cuzk porep
# public-inputs` reads; `gen-vanilla window-post|winning-post` reads a sector sealed by `cuzk porep
# seal` and writes the JSON array of base64 vanilla proofs that `cuzk prove window-post` takes;
# a proof of the wrong kind, a missing sector directory and an absurd --threads are refused.
# Usage: bench_offline_cli_test.sh /path/to/cuzk-bench /path/to/cuzk
set -euo pipefail
bench="$1"
cuzk="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bench" gen-vanilla porep -o "$tmp/c1.json" >"$tmp/out.txt"
grep -q '^{"SectorNum":1,"Phase1Out":"' "$tmp/c1.json" || fail "c1.json is not Curio's wrapper"
"$bench" synth-only --c1 "$tmp/c1.json" -i 2 >"$tmp/synth.txt"
grep -q "^iteration 2: 1 circuit(s), 2687921 constraints" "$tmp/synth.txt" ||
  fail "synth-only: $(cat "$tmp/synth.txt")"
"$bench" synth-only --c1 "$tmp/c1.json" --threads 1 >"$tmp/synth1.txt"
grep -q "^iteration 1: 1 circuit(s), 2687921 constraints" "$tmp/synth1.txt" ||
  fail "synth-only --threads 1: $(cat "$tmp/synth1.txt")"
rc=0
"$bench" synth-only --c1 "$tmp/c1.json" --threads 1000000 >/dev/null 2>&1 || rc=$?
[[ $rc -eq 2 ]] || fail "synth-only --threads 1000000 exited $rc, expected 2"
miner=$(sed -n 's/^miner \([0-9]*\), sector 1$/\1/p' "$tmp/out.txt")
[[ -n $miner ]] || fail "gen-vanilla porep did not print the miner: $(cat "$tmp/out.txt")"
"$cuzk" --log-level warn porep public-inputs --c1 "$tmp/c1.json" --miner-id "$miner" \
  --partition 0 --out "$tmp/public.json"

"$cuzk" --log-level warn porep seal --registered-proof StackedDrg2KiBV1_1 --sector-id 5 \
  --out-dir "$tmp/sector" >/dev/null
"$bench" gen-vanilla window-post --registered-proof 10 --cache "$tmp/sector" --sector-number 5 \
  -o "$tmp/window.json" >/dev/null
"$bench" gen-vanilla winning-post --registered-proof 0 --cache "$tmp/sector" --sector-number 5 \
  -o "$tmp/winning.json" >/dev/null
for f in window winning; do
  grep -q '^\["[A-Za-z0-9+/=]*"\]$' "$tmp/$f.json" || fail "$f.json is not one base64 element"
done

rc=0
"$bench" gen-vanilla winning-post --registered-proof 10 --cache "$tmp/sector" 2>/dev/null || rc=$?
[[ $rc -eq 2 ]] || fail "a window proof for winning-post exited $rc, expected 2"
rc=0
"$bench" gen-vanilla window-post --cache "$tmp/nowhere" 2>/dev/null || rc=$?
[[ $rc -ne 0 ]] || fail "a missing sector directory was accepted"
echo "cuzk-bench gen-vanilla and synth-only: ok"
