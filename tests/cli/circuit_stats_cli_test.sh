#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cuzk circuit stats` for the PoSt circuits: WindowPoSt and WinningPoSt 2 KiB named by wire
# number, Go name and Rust name print the docs/spec/post.md §2 rows and the official parameter id;
# a proof of the other kind and an unknown proof exit 2 with one line on stderr. SnapDeals 2 KiB
# (EmptySectorUpdate) by wire number, Rust name and Go constant prints the docs/spec/snap.md §7 row.
# Usage: circuit_stats_cli_test.sh /path/to/cuzk
set -u
cuzk="$1"
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect CIRCUIT PROOF RC TEXT: exit code RC and TEXT in stdout (RC 0) or stderr (RC 2).
expect() {
  local circuit=$1 proof=$2 want=$3 text=$4 rc=0
  "$cuzk" circuit stats --circuit "$circuit" --registered-proof "$proof" >"$tmp/out" 2>"$tmp/err" ||
    rc=$?
  local file="$tmp/out"
  [[ $want -ne 0 ]] && file="$tmp/err"
  if [[ $rc -ne $want ]] || ! grep -qF -- "$text" "$file" ||
    [[ $want -ne 0 && $(wc -l <"$tmp/err") -ne 1 ]]; then
    echo "FAIL: circuit stats --circuit $circuit --registered-proof $proof -> rc=$rc"
    sed 's/^/  stdout: /' "$tmp/out" | head -3
    sed 's/^/  stderr: /' "$tmp/err" | head -3
    fails=$((fails + 1))
  fi
}

window='"rows":21889,"constraints":21866,"inputs":23,"aux":22128'
for p in 10 StackedDrgWindow2KiBV1_1 StackedDrgWindow2KiBV1_2; do
  expect window-post "$p" 0 "\"registered_proof\":\"StackedDrgWindow2KiBV1_2\",$window"
done
expect window-post 5 0 "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"
expect winning-post StackedDrgWinning2KiBV1 0 '"rows":90883,"constraints":90750,"inputs":133'
expect winning-post 0 0 "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"
expect window-post 0 2 "is a winning-post proof, not window-post"
expect winning-post 13 2 "is a window-post proof, not winning-post"
expect window-post 15 2 "not in 0..14"
expect winning-post StackedDrgWinning2KiBV1_2 2 "unknown registered PoSt proof"

snap='"rows":1705044,"constraints":1705039,"inputs":5,"aux":1703569'
for p in 0 StackedDrg2KiBV1 RegisteredUpdateProof_StackedDrg2KiBV1; do
  expect snap "$p" 0 "\"registered_proof\":\"StackedDrg2KiBV1\",$snap"
done
expect snap 0 0 "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"
expect snap 5 2 "not in 0..4"
expect snap StackedDrg2KiBV1_1 2 "unknown registered update proof"

if [[ $fails -ne 0 ]]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "circuit stats: all passed"
