#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# PoRep 2 KiB end to end against snarkjs (issue 7): cuzk seals a 2 KiB sector (C1); with the
# shared seeded 2 KiB parameters under the official names ($CUZK_TEST_PARAMS_DIR, ctest fixture
# porep_2k_params; `params check` and `prove --check-digests` must flag them as MISMATCH against
# the official digests), proves C2 (partition 0 of 1),
# verifies it, writes the partition's public inputs and exports vk/proof/public as snarkjs JSON;
# the pinned snarkjs (tests/snarkjs/package-lock.json) must accept the proof and reject a
# tampered public.json.
# usage: CUZK_TEST_PARAMS_DIR=DIR tests/e2e/porep_snarkjs.sh BUILD_DIR
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cuzk=$build/apps/cuzk/cuzk
snarkjs=$here/../snarkjs/node_modules/.bin/snarkjs
for f in "$cuzk" "$snarkjs"; do
  [[ -x $f ]] || { echo "porep_snarkjs: missing $f (build cuzk; npm ci in tests/snarkjs)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

proof_name=StackedDrg2KiBV1_1
# step, fail, expect_rc
source "$here/e2e_lib.sh"

step "seal 2 KiB"
expect_rc 0 "$cuzk" porep seal --registered-proof $proof_name --miner-id 1000 --sector-id 7 \
  --out-dir sector
[[ -s sector/c1.json ]] || fail "no sector/c1.json"

params=${CUZK_TEST_PARAMS_DIR:?CUZK_TEST_PARAMS_DIR is not set (run through ctest: fixture porep_2k_params)}
ln -s "$params" params
vk=$(ls params/*.vk)
[[ $(ls params/*.params | wc -l) -eq 1 && -n $vk ]] || fail "expected one .params and one .vk"
# Official names, our own setup: the built-in parameters.json facts must flag both files.
expect_rc 1 "$cuzk" params check --params-dir params --registered-proof $proof_name
[[ $(grep -c "^MISMATCH" out.log) -eq 2 ]] || fail "our seeded parameters matched official digests"

step "prove porep --check-digests refuses our (non-official) parameters"
expect_rc 1 "$cuzk" prove porep --c1 sector/c1.json --params-dir params --miner-id 1000 \
  --check-digests --proof-out refused.bin
grep -q "digest MISMATCH" out.log || fail "prove --check-digests did not report the mismatch"
[[ ! -e refused.bin ]] || fail "prove --check-digests wrote a proof"

step "prove porep + verify porep"
# --param-checks on-curve (the default, said): a subgroup check (≈ 270 s per 2 KiB load on 2 cores)
# is params_blame.sh's subject, not this one's.
expect_rc 0 "$cuzk" prove porep --c1 sector/c1.json --params-dir params --miner-id 1000 \
  --param-checks on-curve --proof-out proof.bin
[[ $(stat -c %s proof.bin) -eq 192 ]] || fail "2 KiB has one partition: expected 192 bytes"
expect_rc 0 "$cuzk" verify porep --c1 sector/c1.json --params-dir params --miner-id 1000 \
  --proof proof.bin

step "public inputs of partition 0, export to snarkjs"
expect_rc 0 "$cuzk" porep public-inputs --c1 sector/c1.json --miner-id 1000 --partition 0 \
  --out public.json
expect_rc 0 "$cuzk" groth16 export-snarkjs --vk "$vk" --proof proof.bin --public public.json \
  --out-dir sj

step "snarkjs groth16 verify"
expect_rc 0 "$snarkjs" groth16 verify sj/verification_key.json sj/public.json sj/proof.json
grep -q "OK" out.log || fail "snarkjs did not accept cuzk's PoRep proof"

step "tampered public inputs are rejected"
# replica_id (input 0) + 1
node -e 'const fs=require("fs"); const j=JSON.parse(fs.readFileSync(process.argv[1],"utf8"));
         j[0] = (BigInt(j[0]) + 1n).toString(); fs.writeFileSync(process.argv[2], JSON.stringify(j));' \
  sj/public.json bad_public.json
expect_rc 1 "$snarkjs" groth16 verify sj/verification_key.json bad_public.json sj/proof.json
grep -q "Invalid proof" out.log || fail "snarkjs did not reject tampered public inputs"
echo "porep_snarkjs: all checks passed"
