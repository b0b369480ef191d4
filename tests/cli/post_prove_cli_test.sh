#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cuzk prove|verify window-post|winning-post` end to end on 2 KiB (label e2e: two parameter
# setups, ~30 s on 2 cores): two sectors sealed by `cuzk porep seal`, their vanilla proofs from
# `cuzk post gen-vanilla`, parameters from `cuzk params generate --circuit window-post|
# winning-post --seed`; proofs verify (exit 0 "valid"); wrong randomness or another sector's
# vanilla file verify "invalid" (exit 1), a tampered proof is rejected; vanilla proofs made for
# other randomness fail to prove naming the sector and challenge (exit 2); a proof of the other
# kind, bad randomness, a malformed and a missing vanilla file exit 2 (a missing file is bad
# input, like a directory or a FIFO where the file is meant: check_input_file).
# `cuzk post public-inputs` writes a partition's public inputs (window 2 KiB: 2 slots × (comm_r +
# 10 leaves); winning: 66 × 2) identically to a file and to stdout; bad randomness or a missing
# vanilla file exit 2, an unwritable --out exits 1.
# Usage: post_prove_cli_test.sh /path/to/cuzk
set -u
cuzk="$1"
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rand=$(printf '%02x' $(seq 1 31))00
other=$(printf '%02x' $(seq 2 32))00

# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"

for id in 5 9; do
  run 0 "" porep seal --registered-proof StackedDrg2KiBV1_1 --miner-id 1000 --sector-id $id \
    --out-dir "$tmp/s$id"
done
run 0 "" params generate --circuit window-post --registered-proof 10 --out-dir "$tmp/p" --seed t
run 0 "" params generate --circuit winning-post --registered-proof StackedDrgWinning2KiBV1 \
  --out-dir "$tmp/p" --seed t
# Seeded files are not the official ones; only the named proof's pair is checked.
run 1 "MISMATCH v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f" \
  params check --params-dir "$tmp/p" --circuit window-post --registered-proof 10
run 2 "is a window-post proof" params check --params-dir "$tmp/p" --circuit winning-post \
  --registered-proof 5
run 2 "is a window-post proof" params generate --circuit winning-post --registered-proof 5 \
  --out-dir "$tmp/p"

gen() {  # gen OUT PROOF RANDOMNESS SECTOR_ID…
  local out=$1 proof=$2 r=$3
  shift 3
  local dirs=()
  for id in "$@"; do dirs+=(--sector-dir "$tmp/s$id" --sector-id "$id"); done
  run 0 "" post gen-vanilla --registered-proof "$proof" "${dirs[@]}" --randomness "$r" --out "$out"
}
gen "$tmp/w.json" StackedDrgWindow2KiBV1_1 "$rand" 5 9
gen "$tmp/w9.json" 10 "$rand" 9
gen "$tmp/w-other.json" 10 "$other" 5 9
gen "$tmp/g.json" 0 "$rand" 9

common=(--params-dir "$tmp/p" --miner-id 1000)
run 0 "self-verified" prove window-post --vanilla "$tmp/w.json" --randomness "$rand" \
  --registered-proof 10 "${common[@]}" --proof-out "$tmp/w.proof"
[[ $(stat -c %s "$tmp/w.proof" 2>/dev/null) == 192 ]] || {
  echo "FAIL: window proof is not 192 bytes"
  fails=$((fails + 1))
}
run 0 valid verify window-post --vanilla "$tmp/w.json" --randomness "$rand" \
  --registered-proof StackedDrgWindow2KiBV1_2 "${common[@]}" --proof "$tmp/w.proof"
run 1 invalid verify window-post --vanilla "$tmp/w.json" --randomness "$other" \
  --registered-proof 10 "${common[@]}" --proof "$tmp/w.proof"
run 1 invalid verify window-post --vanilla "$tmp/w9.json" --randomness "$rand" \
  --registered-proof 10 "${common[@]}" --proof "$tmp/w.proof"
# The last byte of C flipped: a bad point or an invalid proof, never "valid".
cp "$tmp/w.proof" "$tmp/t.proof"
flip_byte "$tmp/t.proof" 191
expect_not_valid verify window-post --vanilla "$tmp/w.json" --randomness "$rand" \
  --registered-proof 10 "${common[@]}" --proof "$tmp/t.proof"
run 2 "sector 5 challenge" prove window-post --vanilla "$tmp/w-other.json" --randomness "$rand" \
  --registered-proof 10 "${common[@]}" --proof-out "$tmp/x.proof"

run 0 "self-verified" prove winning-post --vanilla "$tmp/g.json" --randomness "$rand" \
  --registered-proof 0 "${common[@]}" --proof-out "$tmp/g.proof"
run 0 valid verify winning-post --vanilla "$tmp/g.json" --randomness "$rand" \
  --registered-proof 0 "${common[@]}" --proof "$tmp/g.proof"
run 1 invalid verify winning-post --vanilla "$tmp/g.json" --randomness "$other" \
  --registered-proof 0 "${common[@]}" --proof "$tmp/g.proof"

run 2 "is a winning-post proof" prove window-post --vanilla "$tmp/w.json" --randomness "$rand" \
  --registered-proof 0 "${common[@]}" --proof-out "$tmp/x.proof"
run 2 "--randomness" prove window-post --vanilla "$tmp/w.json" --randomness 12 \
  --registered-proof 10 "${common[@]}" --proof-out "$tmp/x.proof"
echo '["@@"]' >"$tmp/bad.json"
run 2 "[0]" prove window-post --vanilla "$tmp/bad.json" --randomness "$rand" \
  --registered-proof 10 "${common[@]}" --proof-out "$tmp/x.proof"
run 2 "cannot stat" prove window-post --vanilla "$tmp/missing.json" --randomness "$rand" \
  --registered-proof 10 "${common[@]}" --proof-out "$tmp/x.proof"

run 0 "22 public inputs of partition 0" post public-inputs --vanilla "$tmp/w.json" \
  --randomness "$rand" --registered-proof 10 --out "$tmp/w-public.json"
"$cuzk" post public-inputs --vanilla "$tmp/w.json" --randomness "$rand" --registered-proof 10 \
  --out - 2>/dev/null | cmp -s - "$tmp/w-public.json" || {
  echo "FAIL: post public-inputs --out - differs from --out FILE"
  fails=$((fails + 1))
}
run 0 "132 public inputs of partition 0" post public-inputs --vanilla "$tmp/g.json" \
  --randomness "$rand" --registered-proof 0 --out "$tmp/g-public.json"
run 2 "--randomness" post public-inputs --vanilla "$tmp/w.json" --randomness 12 \
  --registered-proof 10 --out "$tmp/x.json"
run 2 "cannot stat" post public-inputs --vanilla "$tmp/missing.json" --randomness "$rand" \
  --registered-proof 10 --out "$tmp/x.json"
run 1 "cannot write --out" post public-inputs --vanilla "$tmp/w.json" --randomness "$rand" \
  --registered-proof 10 --out "$tmp/no-such-dir/x.json"

if [[ $fails -ne 0 ]]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "post prove/verify CLI: ok"
