#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cuzk hash` end to end: neptune / filecoin-hashers Poseidon vectors (docs/spec/poseidon.md §6), a
# SHA256-trunc254 value (SHA-256("abc") with byte 31 &= 0x3f), and exit code 2 plus one line on
# stderr for every kind of bad input. Usage: hash_cli_test.sh /path/to/cuzk
set -u
cuzk="$1"
fails=0

expect_out() {  # expected-stdout args...
  local want="$1"; shift
  local got rc
  got=$("$cuzk" hash "$@" 2>/dev/null); rc=$?
  if [[ $rc -ne 0 || "$got" != "$want" ]]; then
    echo "FAIL: cuzk hash $* -> rc=$rc out='$got' (want '$want')"; fails=$((fails + 1))
  fi
}

expect_bad() {  # args... : exit 2, nothing on stdout, exactly one line on stderr
  local out err rc
  err=$("$cuzk" hash "$@" 2>&1 >/dev/null); rc=$?
  out=$("$cuzk" hash "$@" 2>/dev/null)
  if [[ $rc -ne 2 || -n "$out" || $(printf '%s\n' "$err" | wc -l) -ne 1 ]]; then
    echo "FAIL: cuzk hash $* -> rc=$rc stdout='$out' stderr='$err' (want rc 2, one line)"
    fails=$((fails + 1))
  fi
}

expect_out 0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff poseidon --arity 2 0 1
expect_out 0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff \
  poseidon --arity 2 --tag merkle 0x0 0x0000000000000000000000000000000000000000000000000000000000000001
expect_out 0x042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e poseidon --arity 2 1 0
expect_out 0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6 \
  poseidon --arity 8 0 1 2 3 4 5 6 7
expect_out 0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163 \
  poseidon --arity=11 0 1 2 3 4 5 6 7 8 9 10
expect_out 0x3a21a6ae86754a2939443980077d75934984de08542c99778935b00a07909d45 \
  poseidon --arity 4 --tag constant-length:4 0 1 2 3
expect_out 0x5c6de4b69de9d792cad8b9f8aeb1578f203e3c7c4a85c1f9370a94532f818897 \
  poseidon --arity 8 --tag constant-length:4 0 1 2 3
expect_out ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f200152d sha256-trunc254 616263

r=52435875175126190479447740508185965837690552500527637822603658699938581184513
expect_bad poseidon --arity 2 0
expect_bad poseidon --arity 2 0 1 2
expect_bad poseidon --arity 3 0 1 2
expect_bad poseidon 0 1
expect_bad poseidon --arity 2 --tag sponge 0 1
expect_bad poseidon --arity 2 --tag custom:0 0 1
expect_bad poseidon --arity 2 --tag constant-length:3 0 1 2
expect_bad poseidon --arity 2 "$r" 0
expect_bad poseidon --arity 2 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 0
expect_bad poseidon --arity 2 0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff 0
expect_bad poseidon --arity 2 -5 0
expect_bad poseidon --arity 2 0xg 0
expect_bad sha256-trunc254 6162g3
expect_bad sha256-trunc254 616
expect_bad sha256-trunc254
expect_bad frobnicate

if [[ $fails -ne 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "hash CLI: all checks passed"
