#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Groth16 BLS12-381 round trips between cuzk and snarkjs (pinned in package-lock.json):
#   (0) snarkjs reads the circuit and witness written by cuzk's .r1cs/.wtns writers;
#   (a) cuzk setup → cuzk prove → export-snarkjs → `snarkjs groth16 verify` accepts; tampered
#       public inputs or proof are rejected by snarkjs and by cuzk;
#   (b) snarkjs powers of tau → groth16 setup → zkey contribute → prove (with cuzk's .wtns) →
#       `cuzk groth16 verify-snarkjs` accepts (exit 0); tampered → exit 1; malformed → exit 2.
# usage: tests/snarkjs/roundtrip.sh BUILD_DIR     (after `npm ci` in tests/snarkjs)
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cuzk=$build/apps/cuzk/cuzk
gen=$build/src/r1cs/snarkjs_gen_circuit
snarkjs=$here/node_modules/.bin/snarkjs
for f in "$cuzk" "$gen" "$snarkjs"; do
  [[ -x $f ]] || { echo "roundtrip: missing $f (build cuzk and snarkjs_gen_circuit; npm ci)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# step, fail, expect_rc: the e2e scripts' shared helpers.
source "$here/../e2e/e2e_lib.sh"
# Rewrites a JSON file with node: jsonedit IN OUT 'js expression over j'.
jsonedit() {
  node -e 'const fs=require("fs"); const j=JSON.parse(fs.readFileSync(process.argv[1],"utf8"));
           '"$3"'; fs.writeFileSync(process.argv[2], JSON.stringify(j, null, 1));' "$1" "$2"
}
same_json() { [[ "$(tr -d ' \n' <"$1")" == "$(tr -d ' \n' <"$2")" ]]; }

step "(0) circuit and witness written by cuzk, read by snarkjs"
"$gen" . 60
expect_rc 0 "$snarkjs" r1cs info circuit.r1cs
grep -q "Curve: bls12-381" out.log || fail "snarkjs does not see a BLS12-381 circuit"
expect_rc 0 "$snarkjs" wtns check circuit.r1cs witness.wtns
grep -q "WITNESS IS CORRECT" out.log || fail "snarkjs rejects the witness"

step "(0b) bad inputs to cuzk: exit 2 with a one-line reason"
cp witness.wtns bad.wtns
# wire 5's value starts at byte 76 + 32·5; flipping its low bit breaks constraint 0 (a·b = ab)
printf '\x5a' | dd of=bad.wtns bs=1 seek=$((76 + 32 * 5)) conv=notrunc status=none
cp circuit.r1cs bn.r1cs
printf '\x30' | dd of=bn.r1cs bs=1 seek=$((28 + 31)) conv=notrunc status=none  # another prime
expect_rc 0 "$cuzk" groth16 setup --r1cs circuit.r1cs --params-out c.params --vk-out c.vk --seed 5eed
expect_rc 2 "$cuzk" groth16 prove --params c.params --r1cs circuit.r1cs --wtns bad.wtns \
  --proof-out x.bin --public-out x.json
grep -q "does not satisfy constraint" out.log || fail "prove did not name the failing constraint"
expect_rc 2 "$cuzk" groth16 setup --r1cs bn.r1cs --params-out x.params --vk-out x.vk
grep -q "unsupported prime" out.log || fail "setup accepted a foreign prime"
expect_rc 2 "$cuzk" groth16 verify --vk c.vk --proof circuit.r1cs --public x.json
expect_rc 2 "$cuzk" groth16 setup --r1cs circuit.r1cs
expect_rc 2 "$cuzk" groth16 frobnicate

step "(a) cuzk setup + prove, snarkjs verifies"
expect_rc 0 "$cuzk" groth16 prove --params c.params --r1cs circuit.r1cs --wtns witness.wtns \
  --proof-out proof.bin --public-out public.json
expect_rc 0 "$cuzk" groth16 verify --vk c.vk --proof proof.bin --public public.json
expect_rc 0 "$cuzk" groth16 export-snarkjs --vk c.vk --proof proof.bin --public public.json --out-dir ours
expect_rc 0 "$snarkjs" groth16 verify ours/verification_key.json ours/public.json ours/proof.json
grep -q "OK" out.log || fail "snarkjs did not accept cuzk's proof"
expect_rc 0 node "$here/check_alphabeta.mjs" ours/verification_key.json
expect_rc 0 "$cuzk" groth16 verify-snarkjs --vk ours/verification_key.json --proof ours/proof.json \
  --public ours/public.json
jsonedit ours/public.json bad_public.json 'j[1] = "4"'
expect_rc 1 "$snarkjs" groth16 verify ours/verification_key.json bad_public.json ours/proof.json
grep -q "Invalid proof" out.log || fail "snarkjs did not reject tampered public inputs"
expect_rc 1 "$cuzk" groth16 verify --vk c.vk --proof proof.bin --public bad_public.json
jsonedit ours/proof.json bad_proof.json 'j.pi_c = j.pi_a'
expect_rc 1 "$snarkjs" groth16 verify ours/verification_key.json ours/public.json bad_proof.json
grep -q "Invalid proof" out.log || fail "snarkjs did not reject a tampered proof"
expect_rc 1 "$cuzk" groth16 verify-snarkjs --vk ours/verification_key.json --proof bad_proof.json \
  --public ours/public.json

step "(b) snarkjs setup + prove, cuzk verifies"
expect_rc 0 "$snarkjs" powersoftau new bls12-381 8 pot0.ptau
expect_rc 0 "$snarkjs" powersoftau contribute pot0.ptau pot1.ptau --name=cuzk-test -e="cuzk roundtrip"
expect_rc 0 "$snarkjs" powersoftau prepare phase2 pot1.ptau pot.ptau
expect_rc 0 "$snarkjs" groth16 setup circuit.r1cs pot.ptau c0.zkey
expect_rc 0 "$snarkjs" zkey contribute c0.zkey c1.zkey --name=cuzk-test -e="cuzk roundtrip 2"
expect_rc 0 "$snarkjs" zkey export verificationkey c1.zkey sj_vk.json
expect_rc 0 "$snarkjs" groth16 prove c1.zkey witness.wtns sj_proof.json sj_public.json
same_json sj_public.json public.json || fail "snarkjs and cuzk disagree on the public inputs"
expect_rc 0 "$cuzk" groth16 verify-snarkjs --vk sj_vk.json --proof sj_proof.json --public sj_public.json
jsonedit sj_public.json sj_bad_public.json 'j[0] = (BigInt(j[0]) + 1n).toString()'
expect_rc 1 "$cuzk" groth16 verify-snarkjs --vk sj_vk.json --proof sj_proof.json --public sj_bad_public.json
jsonedit sj_proof.json sj_bad_proof.json '[j.pi_a, j.pi_c] = [j.pi_c, j.pi_a]'
expect_rc 1 "$cuzk" groth16 verify-snarkjs --vk sj_vk.json --proof sj_bad_proof.json --public sj_public.json
jsonedit sj_proof.json sj_offcurve.json 'j.pi_a[1] = "5"'
expect_rc 1 "$cuzk" groth16 verify-snarkjs --vk sj_vk.json --proof sj_offcurve.json --public sj_public.json
jsonedit sj_public.json sj_short_public.json 'j.pop()'
expect_rc 2 "$cuzk" groth16 verify-snarkjs --vk sj_vk.json --proof sj_proof.json --public sj_short_public.json
echo '[1, 2' >broken.json
expect_rc 2 "$cuzk" groth16 verify-snarkjs --vk sj_vk.json --proof sj_proof.json --public broken.json
[[ $(wc -l <out.log) -eq 1 ]] || fail "the error is not one line"
echo "roundtrip: all checks passed"
