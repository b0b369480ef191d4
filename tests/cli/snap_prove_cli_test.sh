#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cuzk snap encode`, `cuzk prove snap` and `cuzk verify snap` end to end on 2 KiB (label e2e:
# a 1.7 M-row parameter setup): two sectors sealed by `cuzk porep seal`, new data encoded into
# each (`cuzk snap encode`), parameters from `cuzk params generate --circuit snap --seed` (the
# shared ones of ctest fixture snap_2k_params when PARAMS_DIR is given); the
# proof verifies (exit 0 "valid"); another comm_r_new or the other sector's commitments verify
# "invalid" (exit 1), a tampered proof is never "valid"; one sector's partition proofs with the
# other's commitments fail to prove (exit 2, the vanilla check names the partition); an unknown
# update proof, bad hex and a malformed vanilla file exit 2. `cuzk snap public-inputs` writes
# partition 0's 4 public inputs, the last one comm_r_new; partition 1 of 2 KiB (one partition)
# exits 2.
# Usage: snap_prove_cli_test.sh /path/to/cuzk [PARAMS_DIR]
set -u
cuzk="$1"
params_dir=${2:-}
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"

# field FILE KEY: the hex string of KEY in a commitments.json.
field() { sed -E "s/.*\"$2\":\"([0-9a-f]{64})\".*/\1/" "$1"; }

head -c 1500 /dev/urandom >"$tmp/payload"
for id in 5 9; do
  run 0 "" porep seal --registered-proof StackedDrg2KiBV1_1 --miner-id 1000 --sector-id $id \
    --out-dir "$tmp/s$id"
  run 0 comm_r_new snap encode --registered-proof StackedDrg2KiBV1 --sector-dir "$tmp/s$id" \
    --payload "$tmp/payload" --out-dir "$tmp/u$id"
done
if [[ -n $params_dir ]]; then
  ln -s "$params_dir" "$tmp/p"
else
  run 0 "" params generate --circuit snap --registered-proof 0 --out-dir "$tmp/p" --seed t
fi

comms() {  # comms DIR: the three --comm flags of an encode output
  echo --comm-r-old "$(field "$1/commitments.json" comm_r_old)" \
    --comm-r-new "$(field "$1/commitments.json" comm_r_new)" \
    --comm-d-new "$(field "$1/commitments.json" comm_d_new)"
}
# --param-checks on-curve (the default, said): a subgroup check (minutes per 2 KiB load on 2 cores)
# is params_blame.sh's subject, not this one's.
# shellcheck disable=SC2046
run 0 "self-verified" prove snap --vanilla "$tmp/u5/snap-vanilla.json" --registered-proof 0 \
  $(comms "$tmp/u5") --params-dir "$tmp/p" --param-checks on-curve --proof-out "$tmp/u5.proof"
[[ $(stat -c %s "$tmp/u5.proof" 2>/dev/null) == 192 ]] || {
  echo "FAIL: the 2 KiB update proof is not 192 bytes"
  fails=$((fails + 1))
}
# shellcheck disable=SC2046
run 0 valid verify snap --registered-proof RegisteredUpdateProof_StackedDrg2KiBV1 \
  $(comms "$tmp/u5") --params-dir "$tmp/p" --proof "$tmp/u5.proof"
# shellcheck disable=SC2046
run 1 invalid verify snap --registered-proof 0 $(comms "$tmp/u9") --params-dir "$tmp/p" \
  --proof "$tmp/u5.proof"
run 1 invalid verify snap --registered-proof 0 \
  --comm-r-old "$(field "$tmp/u5/commitments.json" comm_r_old)" \
  --comm-r-new "$(field "$tmp/u9/commitments.json" comm_r_new)" \
  --comm-d-new "$(field "$tmp/u5/commitments.json" comm_d_new)" --params-dir "$tmp/p" \
  --proof "$tmp/u5.proof"
cp "$tmp/u5.proof" "$tmp/t.proof"
flip_byte "$tmp/t.proof" 191
# shellcheck disable=SC2046
expect_not_valid verify snap --registered-proof 0 $(comms "$tmp/u5") --params-dir "$tmp/p" \
  --proof "$tmp/t.proof"
# shellcheck disable=SC2046
run 2 "partition 0" prove snap --vanilla "$tmp/u5/snap-vanilla.json" --registered-proof 0 \
  $(comms "$tmp/u9") --params-dir "$tmp/p" --proof-out "$tmp/x.proof"
# shellcheck disable=SC2046
run 2 "not in 0..4" prove snap --vanilla "$tmp/u5/snap-vanilla.json" --registered-proof 7 \
  $(comms "$tmp/u5") --params-dir "$tmp/p" --proof-out "$tmp/x.proof"
run 2 "--comm-r-old" verify snap --registered-proof 0 --comm-r-old 00 --comm-r-new 00 \
  --comm-d-new 00 --params-dir "$tmp/p" --proof "$tmp/u5.proof"
echo '["AAAA"]' >"$tmp/bad.json"
# shellcheck disable=SC2046
run 2 "vanilla_proofs[0]" prove snap --vanilla "$tmp/bad.json" --registered-proof 0 \
  $(comms "$tmp/u5") --params-dir "$tmp/p" --proof-out "$tmp/x.proof"
# shellcheck disable=SC2046
run 0 "4 public inputs of partition 0" snap public-inputs --registered-proof 0 \
  $(comms "$tmp/u5") --partition 0 --out "$tmp/u5-public.json"
# comm_r_new as a decimal field element (little-endian bytes) is the last input.
comm_r_new_dec=$(python3 -c \
  'import sys; print(int.from_bytes(bytes.fromhex(sys.argv[1]), "little"))' \
  "$(field "$tmp/u5/commitments.json" comm_r_new)")
[[ $(tr -d ' \n' <"$tmp/u5-public.json") == *",\"$comm_r_new_dec\"]" ]] || {
  echo "FAIL: snap public-inputs: the last input is not comm_r_new"
  fails=$((fails + 1))
}
# shellcheck disable=SC2046
run 2 "out of range" snap public-inputs --registered-proof 0 $(comms "$tmp/u5") --partition 1 \
  --out "$tmp/x.json"
run 2 "--comm-d-new" snap public-inputs --registered-proof 0 \
  --comm-r-old "$(field "$tmp/u5/commitments.json" comm_r_old)" \
  --comm-r-new "$(field "$tmp/u5/commitments.json" comm_r_new)" --comm-d-new 12 --partition 0 \
  --out "$tmp/x.json"

if [[ $fails -ne 0 ]]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "snap prove/verify: all passed"
