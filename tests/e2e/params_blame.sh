#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cuzk prove porep` blames the parameters, not the C1, for a bad parameter file (issue 13). A copy
# of the shared 2 KiB parameters gets one point replaced:
#  - h[0] by a point on the curve outside the order-r subgroup: the subgroup check on request
#    (--param-checks batched) refuses the file while loading it — exit 2 naming h[0] and
#    not_in_subgroup, before any proving;
#  - a[0] (the ONE input's A query, used by every proof) by a[1], a valid point of the same setup
#    but the wrong one: the proof fails self-verification, every constraint holds, so the error
#    names the parameters as suspect and not the C1.
# Usage: params_blame.sh /path/to/cuzk  (the parameters in $CUZK_TEST_PARAMS_DIR)
set -euo pipefail
cuzk="$1"
src_dir="${CUZK_TEST_PARAMS_DIR:?set by cuzk_uses_porep_2k_params}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

src_params=$(ls "$src_dir"/v28-stacked-proof-of-replication-*.params)
name=$(basename "$src_params")
mkdir "$tmp/params"
cp "$src_params" "$tmp/params/$name"
cp "${src_params%.params}.vk" "$tmp/params/"
params="$tmp/params/$name"
"$cuzk" --log-level warn porep seal --registered-proof StackedDrg2KiBV1_1 --out-dir "$tmp/sector" \
  >/dev/null

# patch SECTION INDEX (off-subgroup|copy-next): rewrites one G1 point of the copy in place.
patch() {
  python3 - "$params" "$1" "$2" "$3" <<'EOF'
import sys
path, section, index, how = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
names = ["ic", "h", "l", "a", "b_g1", "b_g2"]
with open(path, "r+b") as f:
    pos = 864  # the ic count: the vk block's fixed part ends here (params_io.hpp)
    offsets = {}
    for s in names:
        f.seek(pos)
        count = int.from_bytes(f.read(4), "big")
        offsets[s] = (pos + 4, count)
        pos += 4 + count * (192 if s == "b_g2" else 96)
    first, count = offsets[section]
    assert index + 1 < count, (section, count)
    at = first + 96 * index
    if how == "copy-next":
        f.seek(at + 96)
        point = f.read(96)
    else:
        # y^2 = x^3 + 4 over Fp with p = 3 mod 4: the first x with a square root. The cofactor
        # is ~2^126, so such a point is outside G1 (E1 = G1 + H, and this is no multiple of h).
        p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
        x = 1
        while True:
            rhs = (x ** 3 + 4) % p
            y = pow(rhs, (p + 1) // 4, p)
            if y * y % p == rhs:
                break
            x += 1
        point = x.to_bytes(48, "big") + y.to_bytes(48, "big")
    f.seek(at)
    f.write(point)
EOF
}

prove() {  # prove [FLAGS...]
  rc=0
  "$cuzk" prove porep --c1 "$tmp/sector/c1.json" --params-dir "$tmp/params" \
    --proof-out "$tmp/proof.bin" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
}

cp "$params" "$tmp/pristine"
patch h 0 off-subgroup
prove --param-checks batched
[[ $rc -eq 2 ]] || { cat "$tmp/err"; fail "off-subgroup h[0]: rc=$rc, want 2"; }
grep -q "h\[0\]: not_in_subgroup" "$tmp/err" || { cat "$tmp/err"; fail "error does not name h[0]"; }
grep -qF "$params" "$tmp/err" || { cat "$tmp/err"; fail "error does not name the file"; }
grep -q "C1 is inconsistent" "$tmp/err" && { cat "$tmp/err"; fail "the C1 is blamed"; }
grep -q "self-verif" "$tmp/err" && { cat "$tmp/err"; fail "proved before refusing the file"; }
[[ -e $tmp/proof.bin ]] && fail "a proof was written"

cp "$tmp/pristine" "$params"
patch a 0 copy-next
prove
[[ $rc -eq 2 ]] || { cat "$tmp/err"; fail "wrong a[0]: rc=$rc, want 2"; }
grep -q "parameters $params are suspect" "$tmp/err" || { cat "$tmp/err"; fail "parameters not blamed"; }
grep -q "C1 is inconsistent" "$tmp/err" && { cat "$tmp/err"; fail "the C1 is blamed"; }
[[ -e $tmp/proof.bin ]] && fail "a proof was written"
echo "params blame: an off-subgroup point refused at load, a wrong point blamed on the parameters"
