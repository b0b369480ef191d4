# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: Apache-2.0
# Helpers shared by the CLI tests; sourced, never run. The caller sets `cuzk` (the binary),
# `tmp` (a scratch directory) and `fails=0`.

# run WANT_RC TEXT ARGS…: exit code WANT_RC and TEXT ("" for none) in stdout+stderr.
run() {
  local want=$1 text=$2 rc=0
  shift 2
  "$cuzk" "$@" >"$tmp/out" 2>&1 || rc=$?
  if [[ $rc -ne $want ]] || { [[ -n $text ]] && ! grep -qF -- "$text" "$tmp/out"; }; then
    echo "FAIL: cuzk $* -> rc=$rc (want $want, '$text')"
    sed 's/^/  /' "$tmp/out" | tail -5
    fails=$((fails + 1))
  fi
}

# flip_byte FILE OFFSET: XOR the byte at OFFSET with 0x55, so the file always changes (writing a
# fixed byte left a proof intact whenever its byte already held that value: 1 run in 256).
flip_byte() {
  local old
  old=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  [[ -n $old ]] || { echo "flip_byte: $1 has no byte $2" >&2; return 1; }
  printf "\\x$(printf %02x $((old ^ 0x55)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# expect_not_valid ARGS…: cuzk ARGS (a verify of a tampered proof) neither exits 0 nor prints
# "valid" — a bad point (exit 2) or an invalid proof (exit 1).
expect_not_valid() {
  local rc=0
  "$cuzk" "$@" >"$tmp/out" 2>&1 || rc=$?
  if [[ $rc -eq 0 ]] || grep -qx valid "$tmp/out"; then
    echo "FAIL: a tampered proof was accepted: cuzk $*"
    fails=$((fails + 1))
  fi
}
