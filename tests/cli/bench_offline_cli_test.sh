#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cuzk-bench's offline subcommands: `gen-vanilla porep` writes a C1 in Curio's wrapper form that
# `synth-only` synthesizes (twice: the second into the recycled buffer) and `cuzk porep
# public-inputs` reads; `gen-vanilla window-post|winning-post` reads a sector sealed by `cuzk porep
# seal` and writes the JSON array of base64 vanilla proofs that `cuzk prove window-post` takes;
# a proof of the wrong kind, a missing sector directory and an absurd --threads are refused.
# `gen-vanilla snap-prove` (2 KiB and 8 MiB) writes one base64 PartitionProof per partition (the
# 2 KiB one of the exact wire size) and the commitments beside it, which `cuzk snap
# public-inputs` accepts; 32 GiB is refused. `single -t snap` refuses a request it cannot build
# (no update proof, no commitments, a bad commitments file) with exit 2 before it connects.
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
mkdir -p "$tmp/snap2k"
"$bench" gen-vanilla snap-prove --sector-number 7 -o "$tmp/snap2k/snap-vanilla.json" \
  >"$tmp/snap.txt"
grep -q '^StackedDrg2KiBV1 (1 partition(s)), miner 1000, sector 7: {"comm_r_old":"' \
  "$tmp/snap.txt" || fail "gen-vanilla snap-prove: $(cat "$tmp/snap.txt")"
grep -q '^\["[A-Za-z0-9+/=]*"\]$' "$tmp/snap2k/snap-vanilla.json" ||
  fail "snap-vanilla.json is not one base64 element"
# The element is one bincode PartitionProof of the 2 KiB wire size (snap_test: 15,064 bytes).
bytes=$(sed -E 's/^\["([^"]*)"\]$/\1/' "$tmp/snap2k/snap-vanilla.json" | base64 -d | wc -c)
[[ $bytes -eq 15064 ]] || fail "the 2 KiB PartitionProof has $bytes bytes, not 15064"
comms="$tmp/snap2k/snap-commitments.json"
[[ -f $comms ]] || fail "no snap-commitments.json beside the vanilla file"
field() { sed -E "s/.*\"$1\":\"([0-9a-f]{64})\".*/\1/" "$comms"; }
for k in comm_r_old comm_r_new comm_d_new; do
  [[ $(field $k) =~ ^[0-9a-f]{64}$ ]] || fail "$k missing from $(cat "$comms")"
done
"$cuzk" --log-level warn snap public-inputs --registered-proof 0 --comm-r-old "$(field comm_r_old)" \
  --comm-r-new "$(field comm_r_new)" --comm-d-new "$(field comm_d_new)" --partition 0 \
  --out "$tmp/snap-public.json" || fail "cuzk snap public-inputs refused the commitments"
"$bench" gen-vanilla snap-prove --registered-proof StackedDrg8MiBV1 -o "$tmp/snap8m.json" \
  --commitments-out "$tmp/snap8m-comms.json" >/dev/null
[[ $(grep -o '"' "$tmp/snap8m.json" | wc -l) -eq 8 ]] ||
  fail "8 MiB: not 4 partition proofs"
[[ -f "$tmp/snap8m-comms.json" ]] || fail "8 MiB: no --commitments-out file"
rc=0
"$bench" gen-vanilla snap-prove --registered-proof 3 -o "$tmp/no.json" 2>/dev/null || rc=$?
[[ $rc -eq 2 ]] || fail "gen-vanilla snap-prove of 32 GiB exited $rc, expected 2"
nowhere="unix://$tmp/no-daemon.sock"
for args in "--vanilla $tmp/snap2k/snap-vanilla.json --commitments $comms" \
  "--registered-proof 0 --vanilla $tmp/snap2k/snap-vanilla.json" \
  "--registered-proof 0 --vanilla $tmp/snap2k/snap-vanilla.json --commitments $tmp/c1.json" \
  "--registered-proof 0 --vanilla $tmp/c1.json --commitments $comms"; do
  rc=0
  # shellcheck disable=SC2086
  "$bench" -a "$nowhere" single -t snap $args >/dev/null 2>&1 || rc=$?
  [[ $rc -eq 2 ]] || fail "single -t snap $args exited $rc, expected 2"
done
echo "cuzk-bench gen-vanilla and synth-only: ok"
