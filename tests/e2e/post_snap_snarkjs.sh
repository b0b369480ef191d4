#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# WindowPoSt, WinningPoSt and SnapDeals 2 KiB partitions against snarkjs (issues 14 and 15), as
# porep_snarkjs.sh does for PoRep: cuzk seals a 2 KiB sector; PoSt parameters come from
# `cuzk params generate --circuit window-post|winning-post --seed` (seconds), the vanilla proofs
# from `cuzk post gen-vanilla`; SnapDeals encodes new data into the sector (`cuzk snap encode`)
# and uses the shared seeded parameters of ctest fixture snap_2k_params
# ($CUZK_TEST_SNAP_PARAMS_DIR). Each proof is made by `cuzk prove`, its partition's public inputs
# written by `cuzk post|snap public-inputs`, vk/proof/public exported by
# `cuzk groth16 export-snarkjs`; the pinned snarkjs (tests/snarkjs/package-lock.json) must accept
# each proof and reject its public.json with one input changed.
# usage: CUZK_TEST_SNAP_PARAMS_DIR=DIR tests/e2e/post_snap_snarkjs.sh BUILD_DIR
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cuzk=$build/apps/cuzk/cuzk
snarkjs=$here/../snarkjs/node_modules/.bin/snarkjs
for f in "$cuzk" "$snarkjs"; do
  [[ -x $f ]] || {
    echo "post_snap_snarkjs: missing $f (build cuzk; npm ci in tests/snarkjs)" >&2
    exit 2
  }
done
snap_params=${CUZK_TEST_SNAP_PARAMS_DIR:?is not set (run through ctest: fixture snap_2k_params)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# step, fail, expect_rc
source "$here/e2e_lib.sh"
# snarkjs_check NAME VK PROOF PUBLIC INDEX: exports to NAME/, snarkjs must accept the proof and
# reject the public inputs with input INDEX + 1.
snarkjs_check() {
  local name=$1 vk=$2 proof=$3 public=$4 index=$5
  expect_rc 0 "$cuzk" groth16 export-snarkjs --vk "$vk" --proof "$proof" --public "$public" \
    --out-dir "$name"
  expect_rc 0 "$snarkjs" groth16 verify "$name/verification_key.json" "$name/public.json" \
    "$name/proof.json"
  grep -q "OK" out.log || fail "snarkjs did not accept cuzk's $name proof"
  node -e 'const fs=require("fs"); const j=JSON.parse(fs.readFileSync(process.argv[1],"utf8"));
           const i=Number(process.argv[3]); j[i] = (BigInt(j[i]) + 1n).toString();
           fs.writeFileSync(process.argv[2], JSON.stringify(j));' \
    "$name/public.json" "$name/bad_public.json" "$index"
  expect_rc 1 "$snarkjs" groth16 verify "$name/verification_key.json" "$name/bad_public.json" \
    "$name/proof.json"
  grep -q "Invalid proof" out.log || fail "snarkjs did not reject tampered $name public inputs"
}

rand=$(printf '%02x' $(seq 1 31))00
step "seal 2 KiB"
expect_rc 0 "$cuzk" porep seal --registered-proof StackedDrg2KiBV1_1 --miner-id 1000 \
  --sector-id 7 --out-dir sector

for kind in window-post winning-post; do
  proof=StackedDrgWindow2KiBV1_1
  [[ $kind == winning-post ]] && proof=StackedDrgWinning2KiBV1
  step "$kind: params, vanilla, prove, public inputs"
  expect_rc 0 "$cuzk" params generate --circuit $kind --registered-proof $proof \
    --out-dir "p-$kind" --seed post-snap-snarkjs
  expect_rc 0 "$cuzk" post gen-vanilla --registered-proof $proof --sector-dir sector \
    --sector-id 7 --randomness "$rand" --out "$kind-vanilla.json"
  common=(--vanilla "$kind-vanilla.json" --randomness "$rand" --registered-proof "$proof")
  expect_rc 0 "$cuzk" prove $kind "${common[@]}" --params-dir "p-$kind" --miner-id 1000 \
    --param-checks on-curve --proof-out "$kind.proof"
  [[ $(stat -c %s "$kind.proof") -eq 192 ]] || fail "$kind: expected a 192-byte proof"
  expect_rc 0 "$cuzk" post public-inputs "${common[@]}" --out "$kind-public.json"
  step "$kind: snarkjs groth16 verify, tampered input rejected"
  # Input 1: the first challenged leaf (input 0 is comm_r).
  snarkjs_check "sj-$kind" "$(ls "p-$kind"/*.vk)" "$kind.proof" "$kind-public.json" 1
done

step "snap: encode, prove, public inputs"
head -c 1500 /dev/urandom >payload
expect_rc 0 "$cuzk" snap encode --registered-proof StackedDrg2KiBV1 --sector-dir sector \
  --payload payload --out-dir update
field() { sed -E "s/.*\"$1\":\"([0-9a-f]{64})\".*/\1/" update/commitments.json; }
comms=(--registered-proof 0 --comm-r-old "$(field comm_r_old)" --comm-r-new "$(field comm_r_new)"
  --comm-d-new "$(field comm_d_new)")
ln -s "$snap_params" p-snap
vk=$(ls p-snap/*.vk)
# --param-checks on-curve (the default, said): a subgroup check (minutes per 2 KiB load on 2 cores)
# is params_blame.sh's subject, not this one's.
expect_rc 0 "$cuzk" prove snap --vanilla update/snap-vanilla.json "${comms[@]}" \
  --params-dir p-snap --param-checks on-curve --proof-out snap.proof
[[ $(stat -c %s snap.proof) -eq 192 ]] || fail "2 KiB snap has one partition: expected 192 bytes"
expect_rc 0 "$cuzk" snap public-inputs "${comms[@]}" --partition 0 --out snap-public.json
step "snap: snarkjs groth16 verify, tampered input rejected"
# Input 3: comm_r_new.
snarkjs_check sj-snap "$vk" snap.proof snap-public.json 3
echo "post_snap_snarkjs: all checks passed"
