#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cli_test_lib.sh's flip_byte always changes the byte — including one that already holds 0x55, the
# value the tamper checks once wrote over byte 191 (stop 30's CI: a proof whose last byte was 0x55
# stayed intact and "a tampered proof was accepted") — and touches no other byte; past the end of
# the file it fails.
# Usage: cli_test_lib_test.sh
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=cli_test_lib.sh
source "$(dirname "$0")/cli_test_lib.sh"
fails=0
for value in 0 85 170 255; do
  head -c 192 /dev/urandom >"$tmp/f"
  printf "\\x$(printf %02x "$value")" | dd of="$tmp/f" bs=1 seek=191 conv=notrunc status=none
  cp "$tmp/f" "$tmp/orig"
  flip_byte "$tmp/f" 191
  now=$(od -An -tu1 -j191 -N1 "$tmp/f" | tr -d ' ')
  if [[ $now -eq $value ]] || [[ $now -ne $((value ^ 0x55)) ]]; then
    echo "FAIL: byte 191 was $value, is $now after flip_byte"
    fails=$((fails + 1))
  fi
  if ! cmp -s <(head -c 191 "$tmp/f") <(head -c 191 "$tmp/orig"); then
    echo "FAIL: flip_byte changed bytes before 191"
    fails=$((fails + 1))
  fi
  [[ $(stat -c %s "$tmp/f") == 192 ]] || { echo "FAIL: size changed"; fails=$((fails + 1)); }
done
if flip_byte "$tmp/f" 192 2>/dev/null; then
  echo "FAIL: flip_byte past the end succeeded"
  fails=$((fails + 1))
fi
if [[ $fails -ne 0 ]]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "cli_test_lib: ok"
